"""A finished game's result as pages write it (issue 22, finding 21): one wording
for every ending, "<players> (<side>) won <how>", "drawn <how>" or "aborted
(<rule>)", each ending naming its rule (games/results.py)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games import finishing, payloads, results, starting
from games.models import Game
from tests.games.test_rhombus_records import play_random, seated

pytestmark = pytest.mark.django_db

# Random play (random.Random(12)) from this deal ends after 268 actions by RH25:
# SE and NW are left with no piece on the board, so SW and NE win.
NO_PIECES_SEED, NO_PIECES_RNG = "np12", 12


def test_a_four_player_replay_names_the_winning_partners_and_the_ending(
        alice: Any, bob: Any, charlie: Any, dave: Any) -> None:
    game = starting.start_game(alice, bob, charlie, dave, seed=NO_PIECES_SEED, setup=starting.Setup("rhombus"))
    game = play_random(game, seated(game), 400, random.Random(NO_PIECES_RNG))
    assert (game.reason, game.winner) == (Game.Reason.NO_PIECES, "SW+NE")
    html = Client().get(reverse("games:replay", args=[game.pk])).content.decode()
    assert "Result: alice and charlie (SW/NE) won by leaving the other side no piece on the board (RH25)" in html
    assert game.reason_label == "by leaving the other side no piece on the board (RH25)"  # the profiles' "How"


def test_every_ending_has_a_wording_that_follows_won_or_drawn() -> None:
    for reason in Game.Reason.values:
        for kind in results.PLATFORM_RULE:
            how = results.how(reason, kind)
            assert how != reason and how.endswith(")") or how == "by adjudication", (reason, how)
            assert "drawn" not in how  # "drawn drawn by the quiet rule" was possible


def test_the_platform_s_endings_cite_each_game_s_own_rule() -> None:
    assert results.how("time", "ace-in-the-hole") == "on time (R17)"
    assert results.how("time", "rhombus") == "on time (RH27)"
    assert results.result_line("rhombus", "aborted", None, {}) == "aborted (RH27)"
    assert results.result_line("ace-in-the-hole", "resignation", "black", {"red": "ann", "black": "bo"}) == \
        "bo (black) won by resignation (R17)"
    assert results.result_line("rhombus", "quiet", None, {}) == "drawn by the quiet rule (RH27)"


def test_the_live_page_is_sent_the_same_wording_of_the_ending(alice: Any, bob: Any) -> None:
    """game_json's ``ending``: the live page's result line writes it after "wins"."""
    game = finishing.resign(starting.start_game(alice, bob, setup=starting.Setup("rhombus")).pk, alice)
    assert payloads.game_json(game)["ending"] == "by resignation (RH27)" == game.reason_label
    assert payloads.game_json(starting.start_game(alice, bob))["ending"] is None  # running
