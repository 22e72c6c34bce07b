"""Screenshots of the game page and the lobby in each language (issue 23).

    .venv/bin/python scripts/screenshots.py [OUTPUT FOLDER]

Sets up a throwaway site (a fresh SQLite database in a temporary folder, no
Redis: the in-memory channel layer), with a game in progress and a lobby with
open seeks, starts daphne on it, and shoots both pages at 1280×800 in every
language of settings.LANGUAGES, as a browser asking for that language sees
them (Accept-Language): OUTPUT/game.<lang>.png and lobby.<lang>.png, by default
docs/screenshots/. Needs Chromium (`make test` installs it) and the compiled
catalogs (this compiles them first, as `make run` does).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import dev  # noqa: E402 (scripts/dev.py: the catalogs are compiled as `make run` does)

VIEWPORT = {"width": 1280, "height": 800}
PASSWORD = "screenshots-only"
GAME_PLIES = 6  # a game some turns in: pawns moved, cards discarded, both clocks running
ACCEPT_LANGUAGE = {"en": "en-US", "de": "de-DE", "es": "es-ES", "ru": "ru-RU"}


def site_environment(folder: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in ("DATABASE_URL", "REDIS_URL")}
    env.update({"SQLITE_PATH": str(folder / "db.sqlite3"), "DEBUG": "1", "ACEWEB_SERVICES_TOLD": "1",
                "DJANGO_SETTINGS_MODULE": "aceweb.settings"})
    return env


def set_the_scene() -> tuple[int, dict[str, str]]:
    """Users, a game in progress (ada, Red, to move, against ben) and three open
    seeks in the lobby; returns the game's id and each viewer's session cookie."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    from games import moving, payloads, starting
    from games.models import Game
    from ladder import seeks

    users = {name: get_user_model().objects.create_user(name, f"{name}@example.org", PASSWORD)
             for name in ("ada", "ben", "cleo", "dev", "eve", "fay", "gus", "hal")}
    game = starting.start_game(users["ada"], users["ben"], seed="screenshots")
    for ply in range(GAME_PLIES):
        game = Game.objects.get(pk=game.pk)
        mover = game.seat(game.to_move).user
        legal = [a for a in payloads.view_for(game, mover)["legal"] if "-" in a or "x" in a]
        moving.submit(game.pk, mover, ply, legal[ply % len(legal)])

    seeks.create_seek(users["cleo"], "5+3")
    seeks.create_seek(users["gus"], "3d", rated=False, colour="red")
    seek = seeks.create_seek(users["dev"], "10+5", rules="rhombus", players=4)
    for name in ("eve", "fay"):
        seeks.join_seek(seek.pk, users[name])

    def cookie(user: Any) -> str:
        client = Client()
        client.force_login(user)
        return client.cookies["sessionid"].value

    return game.pk, {"game": cookie(users["ada"]), "lobby": cookie(users["hal"])}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_daphne(env: dict[str, str], port: int, log: Any) -> subprocess.Popen[bytes]:
    daphne = subprocess.Popen([sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                               "aceweb.asgi:application"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return daphne
        except OSError:
            if daphne.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"daphne did not start on port {port}")
            time.sleep(0.1)


def shoot(base: str, game_id: int, cookies: dict[str, str], languages: list[str], output: Path) -> None:
    from playwright.sync_api import expect

    from tests.helpers import chromium

    pages = {"game": f"/games/{game_id}/", "lobby": "/lobby/"}
    with chromium() as browser:
        for language in languages:
            for name, path in pages.items():
                context = browser.new_context(viewport=VIEWPORT, locale=ACCEPT_LANGUAGE.get(language, language))
                context.add_cookies([{"name": "sessionid", "value": cookies[name], "url": base}])
                page = context.new_page()
                page.goto(base + path)
                if name == "game":
                    expect(page.locator("#game")).to_have_attribute("data-state", "live")
                    page.locator("#hand [data-card]:not([aria-disabled])").first.click()  # its action buttons
                    expect(page.locator("#hand-actions button").first).to_be_visible()
                    page.evaluate("window.scrollTo(0, 0)")  # the click scrolled the hand into view
                else:
                    expect(page.locator("tr.seek--team [data-seek-seats]")).to_be_visible()
                page.wait_for_timeout(300)  # the clocks' first tick
                target = output / f"{name}.{language}.png"
                page.screenshot(path=str(target))
                print(f"{target.relative_to(ROOT) if target.is_relative_to(ROOT) else target}: "
                      f"{target.stat().st_size // 1024} KB")
                context.close()


def main(argv: list[str]) -> int:
    output = Path(argv[0]).resolve() if argv else ROOT / "docs" / "screenshots"
    output.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        env = site_environment(Path(folder))
        os.environ.update(env)
        os.environ.pop("DATABASE_URL", None)
        os.environ.pop("REDIS_URL", None)
        dev.compile_catalogs(env=env)
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)

        import django
        from django.conf import settings

        django.setup()
        game_id, cookies = set_the_scene()
        port = free_port()
        with open(Path(folder) / "daphne.log", "wb") as log:
            daphne = start_daphne(env, port, log)
            try:
                shoot(f"http://127.0.0.1:{port}", game_id, cookies, [code for code, _ in settings.LANGUAGES], output)
            finally:
                daphne.terminate()
                daphne.wait(timeout=15)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
