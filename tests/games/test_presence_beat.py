"""A player's open socket keeps their seat present (games.models, presence): each
process stamps the seats of all its players' sockets in one statement every
PRESENCE_HEARTBEAT (games.heartbeat, presence.stay_present, issue 24), and a seat
that had gone stale is announced present again."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from games import presence, starting
from games.heartbeat import Heartbeat
from games.models import PRESENCE_STALE, Game, Seat
from tests.games.conftest import load_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]

Opener = Any
PERIOD = 0.3  # seconds between the process's stamps in these tests


@pytest.fixture
def quick_presence(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Heartbeat, "presence_seconds", PERIOD)


@database_sync_to_async
def backdate(game: Game, seat: str, age: timedelta) -> None:
    Seat.objects.filter(game=game, name=seat).update(seen_at=timezone.now() - age)


@pytest.mark.usefixtures("quick_presence")
async def test_an_open_players_socket_has_its_seat_stamped_every_period(
        game: Game, cookies: dict[str, str], sockets: Opener) -> None:
    await sockets(game.pk, cookies["alice"])
    await sockets(game.pk, cookies["charlie"])  # a spectator: no seat to stamp
    first = (await load_game(game.pk)).seat("red").seen_at
    stamps = {first}
    for _ in range(50):  # bounded: 5 s
        await asyncio.sleep(0.1)
        stamps.add((await load_game(game.pk)).seat("red").seen_at)
        if len(stamps) >= 3:
            break
    assert len(stamps) >= 3 and max(stamps) > first  # stamped twice more since it arrived
    assert (await load_game(game.pk)).seat("black").seen_at is None  # Bob never came


@pytest.mark.usefixtures("quick_presence")
async def test_a_seat_gone_stale_is_announced_present_by_the_next_stamp(
        game: Game, cookies: dict[str, str], sockets: Opener) -> None:
    await sockets(game.pk, cookies["alice"])
    watcher, _ = await sockets(game.pk, cookies["charlie"])
    await backdate(game, "red", PRESENCE_STALE + timedelta(seconds=5))  # as if the stamps had stopped
    update = await watcher.receive()
    assert update["type"] == "update" and update["game"]["presence"]["red"] is True


def test_one_call_stamps_every_seat_asked_for_once_and_tells_only_of_changes(alice: Any, bob: Any,
                                                                            charlie: Any) -> None:
    first = starting.start_game(alice, bob, seed="presence-1")
    second = starting.start_game(bob, charlie, seed="presence-2")
    before = timezone.now()
    # Alice twice (two sockets of one seat), Bob in both games, Charlie at a game he does not sit at.
    changed = presence.stay_present([(first.pk, alice.pk), (first.pk, alice.pk), (first.pk, bob.pk),
                                     (second.pk, bob.pk), (first.pk, charlie.pk)])
    seen = {(seat.game_id, seat.user_id): seat.seen_at for seat in Seat.objects.filter(game__in=[first, second])}
    assert all(seen[key] >= before for key in [(first.pk, alice.pk), (first.pk, bob.pk), (second.pk, bob.pk)])
    assert seen[(second.pk, charlie.pk)] is None
    assert sorted(changed, key=lambda c: (c[0], c[1]["seat"])) == [
        (first.pk, {"type": "game.changed", "ply": 0, "seat": name}) for name in ("black", "red")] + [
        (second.pk, {"type": "game.changed", "ply": 0, "seat": "red"})]
    assert presence.stay_present([(first.pk, alice.pk), (second.pk, bob.pk)]) == []  # present already: no news
