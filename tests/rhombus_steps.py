"""Playing Rhombus as a client does since issue 24: a view names the card sets
that have a legal action (``sets``), and an action is built use by use from
the server's ``options`` answers (games/steps.py; docs/protocol.md, docs/api.md).

Tests that only need some legal action of a stored game ask the rules for it
(:func:`legal_texts`): no Rhombus view lists them any more.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from games import play

Answer = dict[str, Any]


def legal_texts(game: Any) -> list[str]:
    """The legal actions of ``game``'s player to move, from the rules (the
    test's oracle; sorted as N14 lists them)."""
    return [str(action) for action in game.rules.legal_actions(play.state_of(game))]


def use_cards(use: str) -> list[str]:
    """The cards a use takes from the player's places: "QH+7H c2xc5" two, "8S mystery QD" one."""
    return use.split(" ")[0].split("+")


def _next(answer: Answer, cards: list[str], done: list[str], rng: random.Random) -> str | None:
    """Pick a next step: a whole action's text (returned), or a use (added to ``done``;
    the action's text is returned once every card is used)."""
    choices = [("use", use) for use in answer["uses"]] + [("action", text) for text in answer["actions"]]
    assert choices, ("nothing can follow", cards, done, answer)
    kind, text = rng.choice(choices)
    if kind == "action":
        return text
    done.append(text)
    used = sum(len(use_cards(use)) for use in done)
    return ", ".join(done) if used == len(cards) else None


def build(ask: Callable[[list[str], list[str]], Answer], sets: list[list[str]], rng: random.Random,
          answers: list[Answer] | None = None) -> str:
    """A random legal action built use by use: ``ask(cards, done)`` is the
    server's options answer. Every answer is kept in ``answers``."""
    cards = list(rng.choice(sets))
    done: list[str] = []
    while True:
        answer = ask(cards, list(done))
        if answers is not None:
            answers.append(answer)
        text = _next(answer, cards, done, rng)
        if text is not None:
            return text


async def build_over(sock: Any, view: dict[str, Any], rng: random.Random,
                     answers: list[Answer] | None = None) -> str:
    """:func:`build` over a game socket (tests/games/conftest.py's Socket), from its view."""
    cards = list(rng.choice(view["sets"]))
    done: list[str] = []
    while True:
        answer = await sock.request({"type": "options", "ply": view["ply"], "cards": cards, "done": list(done)})
        assert answer["type"] == "options", answer
        if answers is not None:
            answers.append(answer)
        text = _next(answer, cards, done, rng)
        if text is not None:
            return text


