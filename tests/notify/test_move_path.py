"""What a move costs notify: no query of its own (the "your turn" messages are
built from the move's loaded seats), and after commit one small message to
each player whose turn changed, carrying no position."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import broadcast, finishing, moving, rematches, starting
from tests.notify.playing import any_action, correspondence

pytestmark = pytest.mark.django_db


def test_a_move_queries_nothing_for_notify_and_tells_both_players_after_commit(
        alice: Any, bob: Any, django_capture_on_commit_callbacks: Any) -> None:
    game = correspondence(alice, bob)
    action = any_action(game.pk)
    with broadcast.held_notifications() as sent:
        with django_capture_on_commit_callbacks() as callbacks, CaptureQueriesContext(connection) as queries:
            moving.submit(game.pk, alice, 0, action)
        assert sent == []  # nothing before commit
        assert not any("notify_" in query["sql"] for query in queries.captured_queries)
        for callback in callbacks:
            if callback.__qualname__.startswith("notify_on_commit"):
                callback()
    turns = [(group, message) for group, message in sent if group.startswith("user-")]
    assert turns == [(f"user-{alice.pk}", {"type": "notify.turns"}), (f"user-{bob.pk}", {"type": "notify.turns"})]


def test_a_resignation_tells_only_the_player_who_had_the_move(alice: Any, bob: Any,
                                                             django_capture_on_commit_callbacks: Any) -> None:
    game = correspondence(alice, bob)  # alice to move
    with broadcast.held_notifications() as sent, django_capture_on_commit_callbacks(execute=True):
        finishing.resign(game.pk, bob)
    assert [group for group, _message in sent if group.startswith("user-")] == [f"user-{alice.pk}"]


def test_a_rematch_tells_every_player_once_the_new_game_starts(alice: Any, bob: Any,
                                                              django_capture_on_commit_callbacks: Any) -> None:
    game = starting.start_game(alice, bob, seed="tests-notify-seed")
    finishing.resign(game.pk, alice)
    with broadcast.held_notifications() as sent, django_capture_on_commit_callbacks(execute=True):
        rematches.rematch(game.pk, alice)  # an offer: nobody's turn changes
    assert [group for group, _message in sent if group.startswith("user-")] == []
    with broadcast.held_notifications() as sent, django_capture_on_commit_callbacks(execute=True):
        rematches.rematch(game.pk, bob)  # accepted: a new game waits for someone's move
    assert sorted(group for group, _message in sent if group.startswith("user-")) == sorted(
        [f"user-{alice.pk}", f"user-{bob.pk}"])
