"""Seeks in the lobby: creating, cancelling, accepting (ladder.seeks), on PostgreSQL."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.models import Game
from ladder import inputs, seeks
from ladder.models import Seek
from tests.lobby.racing import at_once

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("services")]


def snapshot() -> list[tuple[Any, ...]]:
    return list(Seek.objects.order_by("pk").values_list("pk", "status", "game_id"))


def test_a_seek_is_open_with_the_creator_s_wishes(alice: Any) -> None:
    seek = seeks.create_seek(alice, "5+3", rated=False, colour="black")
    assert (seek.creator, seek.time_control, seek.rated, seek.colour, seek.status) == (
        alice, "5+3", False, "black", "open")
    [shown] = seeks.open_seeks()
    assert shown["creator"] == "alice" and shown["rating"] == "1500?"  # a newcomer: provisional
    assert shown["time_control"] == {"key": "5+3", "label": "5+3", "speed": "blitz"}
    assert shown["mine"] is False and seeks.open_seeks(alice)[0]["mine"] is True


def test_correspondence_seeks_carry_their_days(alice: Any) -> None:
    seeks.create_seek(alice, "3d")
    assert seeks.open_seeks()[0]["time_control"] == {
        "key": "3d", "label": "3 days per move", "speed": "correspondence"}


@pytest.mark.parametrize("bad, message", [
    ({"time_control": "2+1"}, "not an offered time control"),
    ({"time_control": "soon"}, "not an offered time control"),
    ({"time_control": None}, "not an offered time control"),
    ({"colour": "green"}, "colour"),
    ({"rated": "yes"}, "rated"),
])
def test_bad_options_are_refused_and_nothing_is_stored(alice: Any, bad: dict[str, Any], message: str) -> None:
    options = {"time_control": "5+3", "rated": True, "colour": "random", **bad}
    with pytest.raises(inputs.LobbyRefusal, match=message):
        seeks.create_seek(alice, options.pop("time_control"), **options)
    assert not Seek.objects.exists()


def test_an_anonymous_visitor_cannot_create_a_seek() -> None:
    from django.contrib.auth.models import AnonymousUser
    with pytest.raises(inputs.LobbyRefusal, match="log in"):
        seeks.create_seek(AnonymousUser(), "5+3")
    assert not Seek.objects.exists()


def test_one_open_seek_per_player_and_time_control(alice: Any) -> None:
    seeks.create_seek(alice, "5+3")
    with pytest.raises(inputs.LobbyRefusal, match="already have an open Ace in the Hole 5\\+3 seek"):
        seeks.create_seek(alice, "5+3", colour="red")
    seeks.create_seek(alice, "10+5")  # another control is fine
    assert Seek.objects.filter(creator=alice, status="open").count() == 2


def test_the_creator_cancels_and_may_then_seek_again(alice: Any) -> None:
    seek = seeks.create_seek(alice, "5+3")
    seeks.cancel_seek(seek.pk, alice)
    assert Seek.objects.get(pk=seek.pk).status == "cancelled"
    assert seeks.open_seeks() == []
    seeks.create_seek(alice, "5+3")


def test_only_the_creator_can_cancel(alice: Any, bob: Any) -> None:
    seek = seeks.create_seek(alice, "5+3")
    before = snapshot()
    with pytest.raises(inputs.LobbyRefusal, match="only its creator"):
        seeks.cancel_seek(seek.pk, bob)
    assert snapshot() == before


def test_accepting_starts_the_game_with_the_seek_s_terms(alice: Any, bob: Any) -> None:
    seek = seeks.create_seek(alice, "3+2", rated=False, colour="black")
    game = seeks.accept_seek(seek.pk, bob)
    assert (game.seat("red").user, game.seat("black").user, game.rated, game.status) == (bob, alice, False, "running")
    assert game.time_control.key == "3+2" and game.clocks["red"] == 180_000
    seek.refresh_from_db()
    assert (seek.status, seek.game) == ("accepted", game)
    assert seeks.open_seeks() == []


def test_a_correspondence_seek_starts_a_correspondence_game(alice: Any, bob: Any) -> None:
    seek = seeks.create_seek(alice, "7d", colour="red")
    game = seeks.accept_seek(seek.pk, bob)
    assert (game.seat("red").user, game.days_per_move, game.clocks["red"]) == (alice, 7, 7 * 86_400_000)


def test_random_colour_gives_both_seats_over_many_games(alice: Any, bob: Any) -> None:
    reds = set()
    for _ in range(30):
        seek = seeks.create_seek(alice, "1d")
        reds.add(seeks.accept_seek(seek.pk, bob).seat("red").user.username)
    assert reds == {"alice", "bob"}


def test_nobody_accepts_their_own_seek(alice: Any) -> None:
    seek = seeks.create_seek(alice, "5+3")
    before = snapshot()
    with pytest.raises(inputs.LobbyRefusal, match="your own seek"):
        seeks.accept_seek(seek.pk, alice)
    assert snapshot() == before and not Game.objects.exists()


def test_an_accepted_or_cancelled_seek_cannot_be_accepted(alice: Any, bob: Any, charlie: Any) -> None:
    taken = seeks.create_seek(alice, "5+3")
    seeks.accept_seek(taken.pk, bob)
    gone = seeks.create_seek(charlie, "10+5")
    seeks.cancel_seek(gone.pk, charlie)
    before = snapshot()
    with pytest.raises(inputs.LobbyRefusal, match="no longer open \\(accepted\\)"):
        seeks.accept_seek(taken.pk, charlie)
    with pytest.raises(inputs.LobbyRefusal, match="no longer open \\(cancelled\\)"):
        seeks.accept_seek(gone.pk, bob)
    with pytest.raises(inputs.LobbyRefusal, match="no seek 999999"):
        seeks.accept_seek(999999, bob)
    assert snapshot() == before and Game.objects.count() == 1


def test_starting_a_real_time_game_withdraws_both_players_real_time_seeks(alice: Any, bob: Any) -> None:
    seek = seeks.create_seek(alice, "5+3")
    seeks.create_seek(alice, "10+5")
    seeks.create_seek(bob, "1+0")
    seeks.create_seek(bob, "3d")
    seeks.accept_seek(seek.pk, bob)
    assert [(s["creator"], s["time_control"]["key"]) for s in seeks.open_seeks()] == [("bob", "3d")]


def test_long_abandoned_real_time_seeks_are_taken_down(alice: Any, bob: Any) -> None:
    seeks.create_seek(alice, "5+3")
    seeks.create_seek(bob, "3d")
    assert seeks.expire_seeks(timezone.now() + timedelta(minutes=10)) == 0
    assert seeks.expire_seeks(timezone.now() + timedelta(hours=1)) == 1
    assert [s["time_control"]["key"] for s in seeks.open_seeks()] == ["3d"]


@pytest.mark.django_db(transaction=True)
def test_two_players_accepting_at_once_start_exactly_one_game(alice: Any, bob: Any, charlie: Any) -> None:
    seek = seeks.create_seek(alice, "5+3")
    results = at_once(lambda user: seeks.accept_seek(seek.pk, user), bob, charlie)
    games = [r for r in results.values() if isinstance(r, Game)]
    refusals = [r for r in results.values() if isinstance(r, inputs.LobbyRefusal)]
    assert len(games) == 1 and len(refusals) == 1
    assert "no longer open (accepted)" in str(refusals[0])
    assert Game.objects.count() == 1
    assert Seek.objects.get(pk=seek.pk).game_id == games[0].pk
