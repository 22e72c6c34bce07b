"""notify.texts.describe: each kind's title and body, worded from its public
params in the reader's language when read, not when sent."""

from __future__ import annotations

import pytest
from django.utils import translation

from notify.models import Kind
from notify.texts import Text, describe

GAME = {"title": "Rhombus", "players": 4, "opponents": ["bob", "carol", "dave"]}


@pytest.mark.parametrize(("kind", "params", "expected"), [
    (Kind.TURN, {"title": "Ace in the Hole", "players": 2, "opponents": ["bob"]},
     Text("Your turn", "It is your move against bob (Ace in the Hole).")),
    (Kind.CHALLENGE, {"challenger": "bob", "time_control": "3d", "rated": True, "players": 2,
                      "title": "Ace in the Hole"},
     Text("A challenge", "bob challenges you to a rated 3 days per move game of Ace in the Hole.")),
    (Kind.CHALLENGE, {"challenger": "bob", "time_control": "5+3", "rated": False, "players": 4, "title": "Rhombus"},
     Text("A challenge", "bob challenges you to a casual 5+3 game of Rhombus, 4 players.")),
    (Kind.GAME_END, {**GAME, "result": "won"},
     Text("Game over", "You won against bob, carol and dave (Rhombus, 4 players).")),
    (Kind.GAME_END, {"title": "Rhombus", "opponents": ["bob"], "result": "lost"},
     Text("Game over", "You lost against bob (Rhombus).")),
    (Kind.GAME_END, {"title": "Rhombus", "opponents": ["bob"], "result": "draw"},
     Text("Game over", "Your game against bob was drawn (Rhombus).")),
    (Kind.TOURNAMENT_SOON, {"name": "Autumn Cup", "tournament": 7},
     Text("A tournament starts soon", "Autumn Cup starts in 5 minutes.")),
    (Kind.TOURNAMENT_ROUND, {"name": "Autumn Cup", "round": 2, "opponent": "bob"},
     Text("Your next round", "Round 2 of Autumn Cup is paired: your board against bob is ready.")),
    (Kind.TOURNAMENT_ROUND, {"name": "Autumn Cup", "round": 3, "bye": True},
     Text("Your next round", "Round 3 of Autumn Cup: you have a bye this round.")),
    (Kind.REPORT_DECISION, {"reported": "bob", "acted": True},
     Text("Your report was decided", "Thank you: the moderators acted on your report about bob.")),
    (Kind.REPORT_DECISION, {"appeal": True, "granted": False},
     Text("Your appeal was decided", "The moderators reviewed your appeal and kept the decision.")),
    (Kind.FOLLOWER, {"username": "bob"}, Text("A new follower", "bob follows you now.")),
    (Kind.CLOCK, {"title": "Ace in the Hole", "opponents": ["bob"], "seconds_left": 3 * 3600 + 5},
     Text("Your clock is running out", "You have 3 hours left to move against bob (Ace in the Hole).")),
    (Kind.CLOCK, {"title": "Ace in the Hole", "opponents": ["bob"], "seconds_left": 59 * 60},
     Text("Your clock is running out", "You have 59 minutes left to move against bob (Ace in the Hole).")),
    # As the e-mail reminders (games/reminders.py) send it: names already joined, the threshold passed.
    (Kind.CLOCK, {"opponent": "bob, carol", "game": "Rhombus", "hours": 24},
     Text("Your clock is running out", "You have less than 24 hours left to move against bob, carol (Rhombus).")),
])
def test_each_kind_reads_as_a_sentence(kind: str, params: dict[str, object], expected: Text) -> None:
    with translation.override("en"):
        assert describe(kind, params) == expected


@pytest.mark.parametrize(("language", "title"), [("de", "Du bist am Zug"), ("es", "Tu turno"), ("ru", "Ваш ход")])
def test_a_notice_reads_in_the_reader_s_language(language: str, title: str) -> None:
    params = {"title": "Rhombus", "players": 4, "opponents": ["bob", "carol", "dave"]}
    with translation.override(language):
        text = describe(Kind.TURN, params)
    assert text.title == title
    assert "bob" in text.body and "Rhombus" in text.body and "Your" not in text.body


def test_an_unknown_kind_still_reads_as_something() -> None:
    with translation.override("en"):
        assert describe("from-the-future", {}) == Text("Notification", "")
