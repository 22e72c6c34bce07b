"""Local setup behind `make run` and `make test`.

Standard library only, so it runs before anything else is installed. It looks
for the services (PostgreSQL, Redis) with a plain socket connect, picks the
environment, and then hands over to daphne or pytest.

    python scripts/dev.py run [DAPHNE ARGS...]
    python scripts/dev.py test [PYTEST ARGS...]
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable

TEST_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/test"
# A Redis database number of the tests' own: the test session flushes it.
TEST_REDIS_URL = "redis://127.0.0.1:6379/13"
DEFAULT_PORTS = {"postgres": 5432, "postgresql": 5432, "pgsql": 5432, "redis": 6379, "rediss": 6379}

CHROMIUM = Path("/usr/bin/chromium")


def say(message: str) -> None:
    print(f"[dev] {message}", flush=True)


def reachable(url: str, timeout: float = 1.0) -> bool:
    """True when a TCP connection to the URL's host and port succeeds."""
    parts = urlsplit(url)
    if parts.scheme.startswith("sqlite"):
        return True
    host = parts.hostname or "127.0.0.1"
    port = parts.port or DEFAULT_PORTS.get(parts.scheme, 0)
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def where(url: str) -> str:
    """The URL without its credentials, fit to print."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.hostname}:{parts.port or DEFAULT_PORTS.get(parts.scheme, '')}{parts.path}"


def manage(*args: str, env: dict[str, str]) -> None:
    subprocess.run([PYTHON, "manage.py", *args], cwd=ROOT, env=env, check=True)


def stop(process: subprocess.Popen[bytes] | None, name: str) -> None:
    if process is None or process.poll() is not None:
        return
    say(f"stopping {name} (pid {process.pid})")
    process.terminate()
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def ignore_stop_signals() -> None:
    """While stopping the children, a second signal must not cut that short."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def exit_on_sigterm() -> None:
    """Turn SIGTERM into SystemExit so that `finally` blocks stop the children.

    make forwards its own SIGTERM to us, so the same signal often comes twice.
    """
    def handle(signum: int, frame: object) -> None:
        ignore_stop_signals()
        sys.exit(128 + signum)

    signal.signal(signal.SIGTERM, handle)


# --- make run -------------------------------------------------------------


def worker_user(env: dict[str, str]) -> list[str]:
    """Celery worker options for who it runs as; may quiet its warning in ``env``.

    Celery warns at start when a worker runs as root. As root, the worker runs
    as the project's owner when that is someone else (Celery's own --uid/--gid:
    they can read the code and write db.sqlite3). When root owns the project too
    (a container), there is nobody to drop to: the worker stays root, and
    Celery's warning gives way to one line. Its danger is pickle, which Celery
    refuses as root anyway and settings.py never accepts (JSON only).
    """
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return []
    owner = ROOT.stat()
    if owner.st_uid != 0:
        return ["--uid", str(owner.st_uid), "--gid", str(owner.st_gid)]
    say("the Celery worker runs as root, as this does (root owns the project, so there is no one "
        "to drop to); it accepts JSON only, so Celery's superuser warning is silenced.")
    quiet = "ignore:You're running the worker with superuser privileges"  # Celery's warning, by its text
    env["PYTHONWARNINGS"] = ",".join(filter(None, [env.get("PYTHONWARNINGS", ""), quiet]))
    return []


def worker_command(env: dict[str, str]) -> list[str]:
    """`make run`'s Celery worker, with beat inside it; sets what it needs in ``env``.

    ACEWEB_QUIET_BEAT (aceweb/celery.py): beat sends a task every few seconds,
    which would log three lines each; only their warnings and errors are kept.
    Workers without beat (deployments, the tests) log every task.

    One worker has no neighbours: gossip, mingle and heartbeat only talk to other
    workers, and a warm shutdown that waits on gossip's broadcast consumer over
    Redis can hang (celery/celery#7272, celery/kombu#1785; our CI saw it wait
    over 30 s), so they are off, as for the tests' workers (tests/helpers.py)."""
    env["ACEWEB_QUIET_BEAT"] = "1"
    return [PYTHON, "-m", "celery", "-A", "aceweb", "worker", "-B", "--loglevel", "info",
            "--without-gossip", "--without-mingle", "--without-heartbeat", *worker_user(env)]


def run(extra: list[str]) -> int:
    env = dict(os.environ)
    database_url = env.get("DATABASE_URL", "")
    if database_url and not reachable(database_url):
        say(f"DATABASE_URL is set but {where(database_url)} is not reachable; start it or unset DATABASE_URL.")
        return 1
    if not database_url:
        say(f"DATABASE_URL not set: using SQLite at {env.get('SQLITE_PATH') or ROOT / 'db.sqlite3'}.")
    # Said here once, for the whole run: settings.py would say it again in each of
    # the processes below (migrate, the demo accounts, daphne, the worker).
    env["ACEWEB_SERVICES_TOLD"] = "1"
    compile_catalogs(env=env)
    manage("migrate", "--noinput", env=env)
    manage("ensure_demo_admin", env=env)
    manage("seed_demo", env=env)
    # Web push works out of the box: a development VAPID pair, unless one is set.
    manage("vapid_keys", "--dev", env=env)

    redis_url = env.get("REDIS_URL", "")
    start_worker = bool(redis_url) and reachable(redis_url)
    if redis_url and not start_worker:
        say(f"WARNING: REDIS_URL is set but {where(redis_url)} is not reachable: no Celery worker started, "
            "and websockets and tasks will fail until Redis is up.")
    elif not redis_url:
        say("REDIS_URL not set: in-memory channel layer, Celery tasks run in-process (no worker), "
            "and daphne runs the beat schedule itself (aceweb/embedded_beat.py).")
        env["ACEWEB_EMBEDDED_BEAT"] = "1"

    host = env.get("HOST", "127.0.0.1")
    port = env.get("PORT", "8000")
    exit_on_sigterm()
    worker = None
    server = None
    try:
        if start_worker:
            worker_env = dict(env)
            worker = subprocess.Popen(worker_command(worker_env), cwd=ROOT, env=worker_env,
                                      start_new_session=True)
            say(f"Celery worker with beat started (pid {worker.pid}) on {where(redis_url)}")
        say(f"serving on http://{host}:{port}/  (admin: http://{host}:{port}/admin/, "
            "user admin, password admin); Ctrl-C stops")
        server = subprocess.Popen(
            [PYTHON, "-m", "daphne", "-b", host, "-p", port, *extra, "aceweb.asgi:application"],
            cwd=ROOT, env=env,
        )
        return server.wait()
    except KeyboardInterrupt:
        return 0
    finally:
        ignore_stop_signals()
        stop(server, "daphne")
        stop(worker, "Celery worker")


# --- make test ------------------------------------------------------------


def apt_install(packages: list[str]) -> bool:
    """Install Debian packages when this is root with apt-get; False otherwise or on failure."""
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        return False
    apt_env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    for step in (["apt-get", "update"], ["apt-get", "install", "-y", "--no-install-recommends", *packages]):
        if subprocess.run(step, env=apt_env, stdin=subprocess.DEVNULL).returncode != 0:
            say(f"'{' '.join(step)}' failed.")
            return False
    return True


def ensure_chromium() -> None:
    """Install Debian's chromium and chromium-driver for the browser tests."""
    if CHROMIUM.exists():
        return
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        say(f"{CHROMIUM} is missing and this is not root with apt-get: install the Debian packages "
            "'chromium' and 'chromium-driver' yourself (sudo apt-get install chromium chromium-driver); "
            "the browser tests will fail without them.")
        return
    say("installing Debian chromium and chromium-driver for the browser tests (once)")
    if not apt_install(["chromium", "chromium-driver"]):
        say(f"the browser tests will fail without {CHROMIUM}.")


# --- both: the translations -------------------------------------------------


def ensure_msgfmt() -> bool:
    """GNU gettext's msgfmt, which Django's compilemessages runs: Debian's gettext."""
    if shutil.which("msgfmt"):
        return True
    say("installing Debian gettext (msgfmt) to compile the translations (once)")
    if apt_install(["gettext"]) and shutil.which("msgfmt"):
        return True
    say("msgfmt is missing: install GNU gettext (sudo apt-get install gettext; brew install gettext "
        "on macOS); until then every page is in English.")
    return False


def compile_catalogs(root: Path = ROOT, env: dict[str, str] | None = None) -> bool:
    """Compile root/locale/*/LC_MESSAGES/*.po into the .mo files Django reads
    (build output, not in git). Nothing to do, quietly, before any catalog exists."""
    if not any((root / "locale").glob("*/LC_MESSAGES/*.po")):
        return True
    if not ensure_msgfmt():
        return False
    done = subprocess.run(
        [PYTHON, str(ROOT / "manage.py"), "compilemessages", "--ignore=.venv", "--verbosity=0"],
        cwd=root, env=env,
    )
    if done.returncode != 0:
        say("compilemessages failed (above): the pages keep the translations compiled before.")
    return done.returncode == 0


def choose_service(env: dict[str, str], name: str, default: str) -> None:
    """Use NAME from the environment if set, else the default URL when it answers."""
    url = env.get(name, "")
    if url:
        state = "reachable" if reachable(url) else "NOT reachable"
        say(f"{name} from the environment: {where(url)} ({state})")
    elif reachable(default):
        env[name] = default
        say(f"{name}={where(default)} (found running)")
    else:
        say(f"{name} unset and {where(default)} not reachable: the fallback is used, and the "
            "service tests fail unless ACEWEB_ALLOW_NO_SERVICES=1.")


def test(extra: list[str]) -> int:
    ensure_chromium()
    env = dict(os.environ)
    choose_service(env, "DATABASE_URL", TEST_DATABASE_URL)
    choose_service(env, "REDIS_URL", TEST_REDIS_URL)
    compile_catalogs(env=dict(env, ACEWEB_SERVICES_TOLD="1"))
    return subprocess.run([PYTHON, "-m", "pytest", *workers(extra, env), *extra], cwd=ROOT, env=env).returncode


def workers(extra: list[str], env: dict[str, str]) -> list[str]:
    """pytest-xdist options: TEST_WORKERS processes (2: this machine's cores), whole
    test files to a worker so that module fixtures are built once, handed out in
    the order tests/conftest.py puts them (slowest first; xdist's own reordering
    by test count would start a file of one 90 s test last). None when the caller
    chose the workers (-n) or turned xdist off (-p no:xdist, TEST_WORKERS=0)."""
    count = env.get("TEST_WORKERS", "2")
    chosen = any(arg in ("-n", "--numprocesses", "no:xdist") or arg.startswith(("-n", "--numprocesses="))
                 for arg in extra)
    if chosen or count == "0":
        return []
    return ["-n", count, "--dist", "loadfile", "--no-loadscope-reorder"]


def main(argv: list[str]) -> int:
    commands = {"run": run, "test": test}
    if len(argv) < 2 or argv[1] not in commands:
        print(__doc__)
        return 2
    return commands[argv[1]](argv[2:])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
