"""Whole tournaments run by real Celery workers on Redis and PostgreSQL.

Two workers take the tasks: ``advance`` queued as each round ends (pause 0)
and ``claim_timeouts`` for the no-show. The test plays the scripted players:
the lower pairing number wins every game (the loser resigns), one player
does not show up once, and one withdraws mid-way. Then the final standings
are checked, and that no round was paired twice.
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from datetime import timedelta
from typing import Any

import pytest
import redis
from django.db import connection
from django.utils import timezone

import engine
from games import finishing, moving
from games.models import Game
from games.tasks import claim_timeouts
from tournaments import berger, entering, scoring, tasks
from tournaments.models import Pairing, Round, Tournament
from tests.helpers import celery_worker, require_service, worker_database_url
from tests.seats import set_game

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS = 16
NO_SHOW, WITHDRAWS = 9, 12  # pairing numbers (seeded by rating: p09 and p12)


@pytest.fixture(scope="module")
def module_workers(tmp_path_factory: pytest.TempPathFactory, django_db_setup: None,
                   django_db_blocker: Any) -> Iterator[tuple[list[str], Callable[[], str]]]:
    """Two real workers for the file's tests (see ``workers``): their node names,
    and a function returning both logs (for failure messages)."""
    redis_url = require_service("REDIS_URL", "Celery workers")
    require_service("DATABASE_URL", "workers sharing the test database")
    with django_db_blocker.unblock():
        env = {"REDIS_URL": redis_url, "DATABASE_URL": worker_database_url(connection)}
    folder = tmp_path_factory.mktemp("tournament-workers")
    logs = [folder / "worker-1.log", folder / "worker-2.log"]
    names = [f"tournaments-{index}-{os.getpid()}@{socket.gethostname()}" for index in (1, 2)]
    with ExitStack() as stack:
        for index, log in enumerate(logs, start=1):
            stack.enter_context(celery_worker(log, f"tournaments-{index}", **env))
        yield names, lambda: "\n".join(log.read_text(errors="replace")[-3000:] for log in logs)


@pytest.fixture
def workers(transactional_db: None, module_workers: tuple[list[str], Callable[[], str]]) -> Iterator[Callable[[], str]]:
    """Two real workers; yields a function returning both logs (for failure messages).

    Started once for the file (each start is seconds of CPU, twice a test):
    a worker keeps nothing a test counts on being new (the bot accounts it
    has read are re-read on the change announced in Redis, as in production).
    After each test, before its rows are flushed, every task it set off has
    run: none queued, none held for a countdown, none running, seen twice
    in a row; so no task of one test writes amid the next one's rows. (When
    each test had its own workers, a task still queued at its end ran at the
    next test's start.)"""
    names, logs = module_workers
    yield logs
    wait_until_idle(names, logs)


def wait_until_idle(names: list[str], logs: Callable[[], str], timeout: float = 60) -> None:
    from aceweb.celery import app

    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    deadline, idle_seen = time.monotonic() + timeout, 0
    try:
        while idle_seen < 2:
            assert time.monotonic() < deadline, f"the workers were still busy {timeout:.0f} s after the test\n{logs()}"
            inspect = app.control.inspect(destination=names, timeout=5, limit=len(names))
            held = [inspect.active(), inspect.reserved(), inspect.scheduled()]
            idle = (client.llen("celery") == 0
                    and all(replies is not None and set(replies) == set(names) and not any(replies.values())
                            for replies in held))
            idle_seen = idle_seen + 1 if idle else 0
            time.sleep(0.1)
    finally:
        client.close()


def wait_for(predicate: Callable[[], bool], logs: Callable[[], str], what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}\n{logs()}")


def running_games(t: Tournament) -> list[Pairing]:
    return list(Pairing.objects.filter(round__tournament=t, game__status=Game.Status.RUNNING)
                .select_related("round", "game", "red", "black").prefetch_related("game__seats__user"))


def no_show(pairing: Pairing, absent: int, logs: Callable[[], str]) -> None:
    """The player numbered ``absent`` never moves: their opponent did (or is to move first and
    does), then the first-move window passes and a worker's claim_timeouts forfeits them."""
    game = pairing.game
    assert game is not None
    if pairing.black is not None and pairing.black.number == absent:  # Red moves first (R6)
        action = str(engine.legal_actions(engine.from_json(game.position))[0])
        moving.submit(game.pk, game.seat("red").user, 0, action)
    else:
        set_game(game.pk, black_seen_at=timezone.now())
    Game.objects.filter(pk=game.pk).update(abort_at=timezone.now() - timedelta(seconds=1))
    assert claim_timeouts.delay().get(timeout=30) == [game.pk], logs()


def play_until_the_end(t: Tournament, logs: Callable[[], str], *, no_show_round: int,
                       withdraw_round: int, withdraw: Any) -> Tournament:
    """Play every running game: the lower number wins; the no-show and the withdrawal as scripted."""
    for _ in range(80):
        t = Tournament.objects.get(pk=t.pk)
        if t.status == Tournament.Status.FINISHED:
            return t
        games = running_games(t)
        if not games:
            wait_for(lambda: bool(running_games(t)) or Tournament.objects.get(pk=t.pk).status == "finished",
                     logs, f"round {t.current_round + 1} of {t}")
            continue
        # The round of the games in hand: a worker may start the next one while
        # ``t`` was read, so t.current_round can be a round behind.
        number = max(p.round.number for p in games)
        if number == withdraw_round and Tournament.objects.filter(
                pk=t.pk, entries__number=WITHDRAWS, entries__withdrawn_at__isnull=True).exists():
            entering.withdraw(t.pk, withdraw)
        absent = [p for p in games if number == no_show_round and NO_SHOW in (p.red.number, p.black.number)]
        for pairing in games:
            if pairing not in absent:
                loser = pairing.game.seat("black").user if pairing.red.number < pairing.black.number else pairing.game.seat("red").user
                finishing.resign(pairing.game_id, loser)
        # Last, so that claim_timeouts finds no other game of the round still
        # running whose first-move window a slow machine let pass too.
        for pairing in absent:
            no_show(pairing, NO_SHOW, logs)
    raise AssertionError(f"{t} did not end\n{logs()}")


def start(tournament: Callable[..., Tournament], players: Callable[[int], list[Any]],
          **settings: Any) -> tuple[Tournament, list[Any]]:
    users = players(PLAYERS)
    t = tournament(**settings)
    for user in users:
        entering.join(t.pk, user)
    Tournament.objects.filter(pk=t.pk).update(starts_at=timezone.now())
    return t, users


def start_with_a_crowd_of_tasks(t: Tournament, logs: Callable[[], str]) -> None:
    """Twenty ``advance`` tasks at once over two workers: the first round is paired once."""
    results = [tasks.advance.delay(t.pk) for _ in range(20)]
    wait_for(lambda: Round.objects.filter(tournament=t).exists(), logs, "the first round")
    for result in results:
        result.forget()
    time.sleep(1)  # let the other nineteen run
    assert Round.objects.filter(tournament=t, number=1).count() == 1


def no_round_twice(t: Tournament) -> None:
    numbers = list(Round.objects.filter(tournament=t).values_list("number", flat=True))
    assert numbers == list(range(1, len(numbers) + 1))
    games = list(Pairing.objects.filter(round__tournament=t, game__isnull=False).values_list("game_id", flat=True))
    assert len(games) == len(set(games))


def test_a_swiss_of_16_played_by_two_workers(tournament: Any, players: Any, workers: Callable[[], str]) -> None:
    t, users = start(tournament, players, format=Tournament.Format.SWISS, rounds=5, pause_seconds=0)
    start_with_a_crowd_of_tasks(t, workers)
    t = play_until_the_end(t, workers, no_show_round=2, withdraw_round=3, withdraw=users[WITHDRAWS - 1])
    no_round_twice(t)
    records = {p.number: p for p in scoring.trf_players(t)}
    assert records[1].points == 5  # the lowest number wins every game it plays
    assert "-" in [r.result for r in records[NO_SHOW].rounds]
    assert [r.result for r in records[WITHDRAWS].rounds][3:] == [" ", " "]  # not paired after round 3
    pairs = [frozenset((p.red_id, p.black_id)) for p in Pairing.objects.filter(round__tournament=t, black__isnull=False)]
    assert len(pairs) == len(set(pairs))


def test_a_round_robin_of_16_played_by_two_workers(tournament: Any, players: Any,
                                                   workers: Callable[[], str]) -> None:
    t, users = start(tournament, players, format=Tournament.Format.ROUND_ROBIN, pause_seconds=0)
    start_with_a_crowd_of_tasks(t, workers)
    t = play_until_the_end(t, workers, no_show_round=3, withdraw_round=12, withdraw=users[WITHDRAWS - 1])
    no_round_twice(t)
    assert t.current_round == 15
    points = {p.number: p.points for p in scoring.trf_players(t)}
    assert points == expected_round_robin_points(no_show_round=3, withdraw_round=12)
    assert sum(points.values()) == 15 * 8  # a point a board, forfeits included


def expected_round_robin_points(no_show_round: int, withdraw_round: int) -> dict[int, float]:
    """The scripted results worked out on FIDE's table: the lower number wins, the
    no-show loses their game that round, the withdrawn player forfeits every later one."""
    points = dict.fromkeys(range(1, PLAYERS + 1), 0.0)
    for number in range(1, berger.cycle_length(PLAYERS) + 1):
        for red, black in berger.round_of(PLAYERS, number):
            assert black is not None
            pair = (red, black)
            if number == no_show_round and NO_SHOW in pair:
                winner = red if black == NO_SHOW else black
            elif number > withdraw_round and WITHDRAWS in pair:
                winner = red if black == WITHDRAWS else black
            else:
                winner = min(pair)
            points[winner] += 1
    return points


@pytest.mark.parametrize("fmt", [Tournament.Format.SINGLE, Tournament.Format.DOUBLE])
def test_an_elimination_of_16_played_by_two_workers(tournament: Any, players: Any, workers: Callable[[], str],
                                                     fmt: str) -> None:
    t, users = start(tournament, players, format=fmt, pause_seconds=0)
    start_with_a_crowd_of_tasks(t, workers)
    t = play_until_the_end(t, workers, no_show_round=1, withdraw_round=2, withdraw=users[WITHDRAWS - 1])
    no_round_twice(t)
    state = scoring.bracket_of(t)
    assert state.champion == 1 and state.complete
    lost = {slot.loser for slot in state if slot.loser is not None}
    assert NO_SHOW in lost and WITHDRAWS in lost


def test_bots_play_their_tournament_games_through_the_workers(tournament: Any, players: Any,
                                                              workers: Callable[[], str]) -> None:
    """Two bots (allowed in) and two people in a knockout; the people lose at once, and the
    final, bot against bot, is played move by move by the workers (correspondence: no pacing)."""
    from ladder.bot_accounts import ensure_bot_accounts

    bots = [user for user, _ in ensure_bot_accounts() if user.player.bot_level in ("random", "greedy")]
    people = players(2)
    t = tournament(format=Tournament.Format.SINGLE, bots_allowed=True, time_control="1d", pause_seconds=0)
    for user in people + bots:
        entering.join(t.pk, user)
    Tournament.objects.filter(pk=t.pk).update(starts_at=timezone.now())
    tasks.advance.delay(t.pk)
    wait_for(lambda: Round.objects.filter(tournament=t).exists(), workers, "the first round")
    for pairing in running_games(t):
        person = pairing.game.seat("red").user if pairing.game.seat("red").user in people else pairing.game.seat("black").user
        finishing.resign(pairing.game_id, person)
    wait_for(lambda: Tournament.objects.get(pk=t.pk).status == "finished", workers, "the bots' final", timeout=120)
    final = Pairing.objects.select_related("game").get(round__tournament=t, match="W2-1")
    assert {final.game.seat("red").user, final.game.seat("black").user} == set(bots)
    # Played to a rules ending (R15/R16), both bots having moved. Three plies is
    # the shortest: 7H takes AS on e8 down the open e-file, then AH takes AC (R15).
    game = final.game
    assert game.ply >= 3 and game.reason in ("aces", "points"), (game.ply, game.reason, workers())
    assert scoring.bracket_of(Tournament.objects.get(pk=t.pk)).champion in (3, 4)  # the bots were seeded 3 and 4
