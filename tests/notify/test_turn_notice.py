"""The correspondence "your turn" notice (games.notices.tell_turn, queued 2 s
after a move by games.tasks.queue_turn_notice): only for correspondence games,
only to a player who is not on the game's page, and only while the move is
still theirs at that ply."""

from __future__ import annotations

from typing import Any

import pytest

from games import notices as game_notices
from games import finishing, starting
from notify.models import Notification
from tests.notify.playing import correspondence, move, present

pytestmark = pytest.mark.django_db


def turn_notices(user: Any) -> list[Notification]:
    return list(Notification.objects.filter(user=user, kind="turn"))


def test_bob_is_told_it_is_his_move_when_he_is_away(alice: Any, bob: Any) -> None:
    game = correspondence(alice, bob)
    move(game.pk, alice)
    assert game_notices.tell_turn(game.pk, 1) is True
    [notice] = turn_notices(bob)
    assert notice.key == f"game:{game.pk}"
    assert notice.url == f"/games/{game.pk}/"
    assert notice.params == {"game": game.pk, "title": "Ace in the Hole", "players": 2, "opponents": ["alice"]}
    assert turn_notices(alice) == []


def test_nobody_is_told_when_the_player_to_move_has_the_page_open(alice: Any, bob: Any) -> None:
    game = correspondence(alice, bob)
    present(game.pk, bob)
    move(game.pk, alice)
    assert game_notices.tell_turn(game.pk, 1) is False
    assert turn_notices(bob) == []


def test_nobody_is_told_of_a_ply_already_answered(alice: Any, bob: Any) -> None:
    game = correspondence(alice, bob)
    move(game.pk, alice)
    move(game.pk, bob)  # bob answered within the 2 s
    assert game_notices.tell_turn(game.pk, 1) is False
    assert turn_notices(bob) == []


def test_a_real_time_game_sends_no_turn_notice(alice: Any, bob: Any) -> None:
    game = starting.start_game(alice, bob, seed="tests-notify-seed")
    move(game.pk, alice)
    assert game_notices.tell_turn(game.pk, 1) is False
    assert Notification.objects.count() == 0


def test_a_second_move_s_notice_replaces_the_unread_first(alice: Any, bob: Any) -> None:
    game = correspondence(alice, bob)
    move(game.pk, alice)
    game_notices.tell_turn(game.pk, 1)
    move(game.pk, bob)
    move(game.pk, alice)
    game_notices.tell_turn(game.pk, 3)
    assert len(turn_notices(bob)) == 1  # one unread notice per game, not one per move


def test_a_finished_game_sends_no_turn_notice(alice: Any, bob: Any) -> None:
    game = correspondence(alice, bob)
    move(game.pk, alice)
    finishing.resign(game.pk, bob)
    assert game_notices.tell_turn(game.pk, 1) is False
    assert turn_notices(bob) == []
