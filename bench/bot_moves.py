"""Bot replies on a real Celery worker: how long a player waits for the computer's move.

    .venv/bin/python bench/bot_moves.py --moves 20 [--level greedy --level ismcts-3] [--workers 1]

Needs DATABASE_URL (PostgreSQL) and REDIS_URL (Redis); like bench/live_play.py
it never touches the databases they name: it creates and migrates its own
database (``aceweb_bench_bots``, dropped at the end) and uses Redis database 8
(flushed at the start and the end). For each level it starts a 10+5 game
against that bot (``games.botmoves.play_computer``), then plays ``--moves`` human
moves through ``games.moving.submit`` (a seeded random legal action each), each
time waiting for the bot's answer, and prints, per level:

- reply: from the human's move row to the bot's move row (``Move.created``),
  which includes the deliberate pace delay (0.6 s in real time);
- task: the worker's own run time for ``games.tasks.play_bot_move`` (load,
  the bot's thinking, submit), from the worker's log.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import secrets
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.live_play import drop_database, ensure_database, flush_redis, say, with_path  # noqa: E402

DB_NAME = "aceweb_bench_bots"
REDIS_DB = 8


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def start_worker(log_path: Path, count: int) -> list[subprocess.Popen[bytes]]:
    workers = []
    for i in range(count):
        command = [sys.executable, "-m", "celery", "-A", "aceweb", "worker", "--pool=solo",
                   "--without-gossip", "--without-mingle", "--without-heartbeat", "--loglevel=INFO",
                   "--hostname", f"bench-bots-{i}-{os.getpid()}@%h"]
        log = open(log_path.with_suffix(f".{i}.log"), "wb")
        workers.append(subprocess.Popen(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT))
    deadline = time.monotonic() + 60
    for i in range(count):
        while " ready." not in log_path.with_suffix(f".{i}.log").read_text(errors="replace"):
            if time.monotonic() > deadline:
                raise SystemExit("a worker did not start")
            time.sleep(0.1)
    return workers


def play_level(level: str, moves: int, rng: random.Random) -> list[float]:
    """Seconds from each human move to the bot's answer, both as committed."""
    import engine
    from django.contrib.auth import get_user_model
    from games import botmoves, moving
    from games.models import Game, Move
    from games.timecontrols import TimeControl

    human = get_user_model().objects.create_user(f"bench-{level}-{secrets.token_hex(3)}", "", None)
    game = botmoves.play_computer(human, level, TimeControl.parse("10+5"), colour="red")
    replies = []
    for _ in range(moves):
        game.refresh_from_db()
        if not game.running:
            game = botmoves.play_computer(human, level, TimeControl.parse("10+5"), colour="red")
        ply = game.ply
        moving.submit(game.pk, human, ply, rng.choice(engine.legal_actions(engine.from_json(game.position))).text)
        deadline = time.monotonic() + 60
        while not Move.objects.filter(game=game, ply=ply + 1).exists():
            if not Game.objects.get(pk=game.pk).running:
                break
            if time.monotonic() > deadline:
                raise SystemExit(f"no bot answer at ply {ply + 1} of game {game.pk}")
            time.sleep(0.01)
        else:
            created = dict(Move.objects.filter(game=game, ply__in=(ply, ply + 1)).values_list("ply", "created"))
            replies.append((created[ply + 1] - created[ply]).total_seconds())
    return replies


def task_runtimes(log_dir: Path) -> list[float]:
    pattern = re.compile(r"play_bot_move\[[0-9a-f-]+\] succeeded in ([0-9.]+)s: 'played'")
    return [float(m[1]) for path in log_dir.glob("*.log") for m in pattern.finditer(path.read_text())]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--level", action="append", help="a bot level (repeat); default: every level")
    parser.add_argument("--moves", type=int, default=20, help="human moves per level")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", default="1")
    args = parser.parse_args()
    base_db, base_redis = os.environ.get("DATABASE_URL", ""), os.environ.get("REDIS_URL", "")
    if not base_db.startswith(("postgres://", "postgresql://")) or not base_redis:
        parser.error("set DATABASE_URL (PostgreSQL) and REDIS_URL")
    bench_db, bench_redis = ensure_database(base_db, DB_NAME), with_path(base_redis, f"/{REDIS_DB}")
    os.environ.update(DATABASE_URL=bench_db, REDIS_URL=bench_redis, DJANGO_SETTINGS_MODULE="aceweb.settings")
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, check=True)
    subprocess.run([sys.executable, "manage.py", "seed_bots"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    flush_redis(bench_redis)
    workers = []
    try:
        import django

        django.setup()
        from engine import bots as engine_bots

        rng = random.Random(args.seed)
        say(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
        with tempfile.TemporaryDirectory() as tmp:
            print(f"{'level':10} {'replies':>7} {'reply p50/p95 ms':>18} {'task p50/p95 ms':>17}")
            for level in args.level or engine_bots.LEVELS:
                log_dir = Path(tmp) / level
                log_dir.mkdir()
                workers = start_worker(log_dir / "worker", args.workers)
                replies = play_level(level, args.moves, rng)
                time.sleep(0.5)  # the last task's log line
                for worker in workers:
                    worker.terminate()
                    worker.wait()
                workers = []
                tasks = task_runtimes(log_dir)
                print(f"{level:10} {len(replies):>7} "
                      f"{percentile(replies, 0.5) * 1000:>8.0f} / {percentile(replies, 0.95) * 1000:<7.0f}"
                      f"{percentile(tasks, 0.5) * 1000:>8.0f} / {percentile(tasks, 0.95) * 1000:<7.0f}",
                      flush=True)
        say(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    finally:
        for worker in workers:
            worker.kill()
        flush_redis(bench_redis)
        from django.db import connections

        connections.close_all()
        drop_database(base_db, DB_NAME)
    return 0


if __name__ == "__main__":
    sys.exit(main())
