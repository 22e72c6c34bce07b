"""STAND-IN (branch h-steps only): the lead's engine/rhombus/builder.py replaces this.

Computes the builder contract from the full legal list, which is exactly
what the real one avoids: good enough for page work on small positions.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .actions import Action, card_order
from .rules import legal_actions, outcome
from .state import State


class Options(NamedTuple):
    uses: tuple[str, ...]
    actions: tuple[str, ...]


def card_sets(s: State) -> tuple[tuple[str, ...], ...]:
    if outcome(s) is not None:
        return ()
    found = {card_order(a.all_cards()) for a in legal_actions(s)}
    return tuple(sorted(found, key=lambda names: (len(names), names)))


def options(s: State, cards: Sequence[str], done: Sequence[str]) -> Options:
    made = [Action.parse(text).text for text in done]
    if outcome(s) is not None:
        return Options((), ())
    try:
        want = card_order([c.upper() for c in cards])
    except KeyError:
        return Options((), ())
    uses: set[str] = set()
    whole: list[str] = []
    for action in legal_actions(s):
        if card_order(action.all_cards()) != want:
            continue
        if action.kind != "uses":
            if not made:
                whole.append(action.text)
            continue
        texts = [u.text for u in action.uses]  # the canonical order only: another may walk through a piece
        if texts[:len(made)] == made and len(texts) > len(made):
            uses.add(texts[len(made)])
    return Options(tuple(sorted(uses)), tuple(sorted(whole)))
