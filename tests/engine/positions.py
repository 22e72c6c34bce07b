"""Hand-made positions for the rules tests, built through the engine's JSON reader."""
from __future__ import annotations

from typing import Any

import pytest

import engine


def position(board: dict[str, str], red: list[str], black: list[str] | None = None,
             to_move: str = "red", captured: dict[str, list[str]] | None = None,
             decks: dict[str, list[str]] | None = None, ply: int | None = None) -> engine.State:
    """A position with these pawns and hands; decks empty unless given."""
    data: dict[str, Any] = {
        "board": board, "hands": {"red": red, "black": black or []},
        "decks": {"red": [], "black": [], **(decks or {})}, "to_move": to_move,
        "captured": captured or {},
    }
    if ply is not None:
        data["ply"] = ply
    return engine.from_json(data)


def moves(s: engine.State) -> list[str]:
    return [str(a) for a in engine.legal_actions(s)]


def refusal(s: engine.State, action: str) -> engine.IllegalAction:
    """The error ``apply`` raises for ``action``; the test fails if it is accepted."""
    with pytest.raises(engine.IllegalAction) as caught:
        engine.apply(s, action)
    return caught.value
