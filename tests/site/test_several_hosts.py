"""The site on several machines (issue 14, docs/deploy.md), as network namespaces.

Two web hosts run daphne, two worker hosts run a Celery worker (the second
also the one beat); each reaches PostgreSQL and Redis at the services
address 10.213.0.1, never at 127.0.0.1 (tests/netns.py). Alice plays Bob
with Alice on web1 and Bob on web2; Carol plays a bot on web1, its moves made
by whichever worker takes them. Mid-game web1's daphne and worker1 are
killed with SIGKILL: Alice and Carol reconnect to web2, the bot's moves go
to worker2, and both games finish with every ply stored once.
"""

from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.db import connection

from games import bots, starting
from games.models import Game, Move
from games.timecontrols import TimeControl
from ladder import bot_accounts
from tests.games.conftest import session_cookie
from tests.helpers import ROOT, empty_redis_database, redis_db_number, require_service, wait_for_other_sessions_to_end
from tests.netns import Network, NamespacesUnavailable, entered, probe
from tests.raw_websocket import RawSocket

pytestmark = pytest.mark.django_db(transaction=True)

HOSTS = ["web1", "web2", "worker1", "worker2"]
PORT = 8000
DEADLINE = 150  # seconds for both games to finish after the start
THINK = 0.15  # a human's pause before each move, so the kill lands mid-game
CONTROL = TimeControl.parse("10+5")


@dataclass
class Site:
    net: Network
    logs: dict[str, Path]
    processes: dict[str, Any] = field(default_factory=dict)

    def url(self, host: str) -> str:
        return f"http://{self.net.address(host)}:{PORT}"

    def log(self, name: str) -> str:
        return self.logs[name].read_text(errors="replace")[-3000:]


@pytest.fixture
def network() -> Iterator[Network]:
    require_service("DATABASE_URL", "several hosts sharing PostgreSQL")
    require_service("REDIS_URL", "several hosts sharing Redis")
    tag = f"ace{os.getpid()}"
    try:
        probe(f"{tag}-probe")
    except NamespacesUnavailable as error:
        pytest.skip(f"network namespaces cannot be created here ({error}); "
                    "this test needs root and iproute2 (`ip netns`)")
    with Network(tag, HOSTS) as net:
        yield net


@pytest.fixture
def site(network: Network, tmp_path: Path) -> Iterator[Site]:
    """daphne on web1 and web2, a worker on worker1 and worker2, beat on worker2."""
    db, redis_url = connection.settings_dict, urlsplit(os.environ["REDIS_URL"])
    pg = network.forward(int(db.get("PORT") or 5432), ("127.0.0.1", int(db.get("PORT") or 5432)))
    redis = network.forward(redis_url.port or 6379, ("127.0.0.1", redis_url.port or 6379))
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}@{pg}/{db['NAME']}",
        "REDIS_URL": f"redis://{redis}/{redis_db_number(os.environ['REDIS_URL'])}",
        "ALLOWED_HOSTS": ",".join(network.address(h) for h in ("web1", "web2")),
        "DEBUG": "1",
        "CELERY_VISIBILITY_TIMEOUT": "2",  # a killed worker's move comes back within seconds
    }
    # Tasks an earlier test of this xdist worker left queued (a tournament's
    # advance with a countdown) would be redelivered every 2 s here, as the
    # visibility timeout is shorter than their countdown: start from an empty
    # database (this worker's own, tests/workers.py).
    empty_redis_database()
    site = Site(network, {name: tmp_path / f"{name}.log" for name in [*HOSTS, "beat"]})
    celery = [sys.executable, "-m", "celery", "-A", "aceweb"]
    commands = {
        "web1": [str(Path(sys.executable).with_name("daphne")), "-b", network.address("web1"), "-p", str(PORT),
                 "aceweb.asgi:application"],
        "web2": [str(Path(sys.executable).with_name("daphne")), "-b", network.address("web2"), "-p", str(PORT),
                 "aceweb.asgi:application"],
        "worker1": [*celery, "worker", "--pool=solo", "--without-gossip", "--without-mingle",
                    "--loglevel=INFO", "--hostname", "worker1@%h"],
        "worker2": [*celery, "worker", "--pool=solo", "--without-gossip", "--without-mingle",
                    "--loglevel=INFO", "--hostname", "worker2@%h"],
        "beat": [*celery, "beat", "--loglevel=INFO", "-s", str(tmp_path / "beat-schedule")],
    }
    hosts = {"beat": "worker2"}
    try:
        for name, command in commands.items():
            with open(site.logs[name], "wb") as log:
                site.processes[name] = network.run(hosts.get(name, name), command, cwd=ROOT, env=env,
                                                   stdout=log, stderr=subprocess.STDOUT)
        for web in ("web1", "web2"):
            wait_until(lambda web=web: reachable(network, site.url(web)), 30, f"daphne on {web}", site, web)
        for worker in ("worker1", "worker2"):
            # The whole log: tasks left queued by earlier tests can push the line out of log()'s tail.
            wait_until(lambda worker=worker: " ready." in site.logs[worker].read_text(errors="replace"), 60,
                       f"{worker} ready", site, worker)
        yield site
    finally:
        network.stop_processes()
        wait_for_other_sessions_to_end(connection, timeout=10)  # before pytest-django flushes


def reachable(net: Network, url: str) -> bool:
    parts = urlsplit(url)
    with entered(net.services):
        try:
            socket.create_connection((parts.hostname, parts.port), timeout=0.5).close()
        except OSError:
            return False
    return True


def wait_until(check: Any, timeout: float, what: str, site: Site, log: str) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert site.processes[log].poll() is None, f"{what}: the process ended\n{site.log(log)}"
        assert time.monotonic() < deadline, f"timed out waiting for {what}\n{site.log(log)}"
        time.sleep(0.2)


class Player(threading.Thread):
    """One person in a game: plays a random legal action whenever it is their
    turn, and when their server goes away reconnects to the next one listed."""

    def __init__(self, site: Site, game_id: int, cookie: str, urls: list[str], seed: int) -> None:
        super().__init__(daemon=True, name=f"player-{seed}")
        self.site, self.game_id, self.cookie, self.urls = site, game_id, cookie, urls
        self.rng = random.Random(seed)
        self.chosen: dict[int, str] = {}  # one draw a ply: a frame seen again replays its choice
        self.connections: list[str] = []  # the server of each connection made
        self.finished: dict[str, Any] | None = None
        self.ply: int | None = None  # of the last state received
        self.error: BaseException | None = None

    def run(self) -> None:
        deadline = time.monotonic() + DEADLINE
        try:
            with entered(self.site.net.services):  # clients sit on the LAN too
                while self.finished is None and time.monotonic() < deadline:
                    self._play_on(self._connect(deadline), deadline)
        except BaseException as error:  # reported by the test's thread
            self.error = error

    def _connect(self, deadline: float) -> RawSocket:
        while True:
            for url in self.urls:
                try:
                    sock = RawSocket(url, f"/ws/games/{self.game_id}/", cookie=self.cookie, timeout=10)
                except OSError:
                    continue  # that host is down: the next one
                self.connections.append(url)
                return sock
            assert time.monotonic() < deadline, f"no server took game {self.game_id}'s socket"
            time.sleep(0.2)

    def _play_on(self, sock: RawSocket, deadline: float) -> None:
        try:
            while time.monotonic() < deadline:
                try:
                    frame = sock.receive()
                except TimeoutError:
                    sock.send_json({"type": "sync"})
                    continue
                if frame is None:
                    return  # the server went away: connect again
                if frame.get("type") == "beat" and frame["ply"] != self.ply:  # behind: ask for the state
                    sock.send_json({"type": "sync"})
                if frame.get("type") not in ("sync", "update"):
                    continue
                self.ply = frame["ply"]
                if frame["game"]["status"] != "running":
                    self.finished = frame
                    return
                if frame["legal"]:
                    time.sleep(THINK)
                    if frame["ply"] not in self.chosen:
                        self.chosen[frame["ply"]] = self.rng.choice(frame["legal"])
                    sock.send_json({"type": "act", "ply": frame["ply"], "action": self.chosen[frame["ply"]]})
        finally:
            sock.close()


def stored_plies(game_id: int) -> list[tuple[int, str]]:
    return list(Move.objects.filter(game_id=game_id).order_by("ply").values_list("ply", "seat"))


def test_two_web_hosts_and_two_workers_lose_nothing_when_one_of_each_dies(
        site: Site, alice: Any, bob: Any, charlie: Any) -> None:
    bot = {user.player.bot_level: user for user, _ in bot_accounts.ensure_bot_accounts()}["greedy"]
    bots._bot_cache.pop("at", None)
    human = starting.start_game(alice, bob, time_control=CONTROL, seed="several-hosts")
    # Seeded deals and one draw a ply make both games the same every run: 52 and 32 plies
    # (checked with the engine alone), so the kill at ply 6 and 4 always lands mid-game; an
    # unseeded bot game could end at ply 4, before the kill (seen once).
    against_bot = starting.start_game(charlie, bot, rated=False, time_control=CONTROL, seed="several-hosts-bot")
    web1, web2 = site.url("web1"), site.url("web2")
    players = [
        Player(site, human.pk, session_cookie(alice), [web1, web2], 1),
        Player(site, human.pk, session_cookie(bob), [web2], 2),
        Player(site, against_bot.pk, session_cookie(charlie), [web1, web2], 3),
    ]
    for player in players:
        player.start()

    def far_enough() -> bool:
        return Game.objects.get(pk=human.pk).ply >= 6 and Game.objects.get(pk=against_bot.pk).ply >= 4

    wait_until(far_enough, 60, "both games under way", site, "web1")
    for name in ("web1", "worker1"):
        site.processes[name].send_signal(signal.SIGKILL)
        site.processes[name].wait()
    killed_at = {g: Game.objects.get(pk=g).ply for g in (human.pk, against_bot.pk)}

    for player in players:
        player.join(DEADLINE + 10)
    for player in players:
        assert player.error is None, player.error
        assert player.finished is not None, (f"game {player.game_id} did not finish\n{site.log('web2')}\n"
                                             f"worker2:\n{site.log('worker2')}")
    for game_id in (human.pk, against_bot.pk):
        game = Game.objects.get(pk=game_id)
        assert game.status == Game.Status.FINISHED and game.reason in ("aces", "points"), (game.status, game.reason)
        # Every ply stored once, in turn (R6: Red, then Black), none lost or doubled.
        assert stored_plies(game_id) == [(ply, ("red", "black")[ply % 2]) for ply in range(game.ply)]
        assert game.ply > killed_at[game_id]  # the game went on after the kill
    assert players[0].connections[0] == web1 and web2 in players[0].connections  # moved over
    assert players[2].connections[0] == web1 and web2 in players[2].connections
    assert "play_bot_move" in site.log("worker2")  # the survivor played the bot's later moves
