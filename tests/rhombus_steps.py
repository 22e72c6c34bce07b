"""Playing Rhombus as a client does since issue 24: a view names the card sets
that have a legal action (``sets``), and an action is built use by use from
the server's ``options`` answers (games/steps.py; docs/protocol.md, docs/api.md).

Tests that only need some legal action of a stored game ask the rules for it
(:func:`legal_texts`): no Rhombus view lists them any more. :func:`deal` and
:func:`flush_on_an_open_board` set up positions (the worst of issue 24's).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from games import payloads
from games.models import Game

Answer = dict[str, Any]


def legal_texts(game: Any) -> list[str]:
    """The legal actions of ``game``'s player to move, from the rules (the
    test's oracle; sorted as N14 lists them)."""
    return [str(action) for action in game.rules.legal_actions(payloads.state_of(game))]


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


def deal(position: dict[str, Any], seat: str, table: list[str], hand: list[str]) -> dict[str, Any]:
    """The position with ``seat`` holding these cards, each swapped with the
    card in its place, wherever it lay (another seat's places or the pile)."""
    places: list[list[str]] = [position["pile"]]
    for info in position["seats"].values():
        places += [info["table"], info["hand"]]
    mine = position["seats"][seat]
    for wanted, (row, i) in zip(table + hand, [(mine["table"], k) for k in range(len(table))]
                                + [(mine["hand"], k) for k in range(len(hand))]):
        holder = next(cards for cards in places if wanted in cards)
        j = holder.index(wanted)
        holder[j], row[i] = row[i], wanted
    return position


FLUSH = ["JH", "QH", "KH", "AH"]  # four movers (RH45)
OPEN_BOARD = {"b1": "SW", "d1": "SW", "a3": "SW", "c3": "SW", "e3": "SW", "b5": "SW", "e5": "NE"}


def flush_on_an_open_board(game_id: int) -> None:
    """A new 2-player Formation game turned into SW to move with a flush of four
    movers and six pieces spread over an open board: 27,941 legal actions of
    those four cards alone, seconds of CPU to list."""
    row = Game.objects.get(pk=game_id)
    position = dict(row.position)
    position["board"] = dict(OPEN_BOARD)
    position["seats"]["SW"]["reserve"], position["seats"]["NE"]["reserve"] = 0, 5
    Game.objects.filter(pk=game_id).update(position=deal(position, "SW", FLUSH[:3], FLUSH[3:]))
