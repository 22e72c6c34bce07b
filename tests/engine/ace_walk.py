"""Seeded walks over Ace in the Hole's public API, reduced to one digest per game.

Recorded once from the engine before issue 24's faster move generation
(``tests/engine/ace_api_golden.json``) and checked by
``tests/engine/test_api_unchanged.py``: every legal list (texts, in order),
state, view, outcome and refusal (code, params, rule, message) of these games
must stay exactly what it was.  Re-record only for a deliberate rules change::

    .venv/bin/python -m tests.engine.ace_walk > tests/engine/ace_api_golden.json
"""
from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import engine
from engine.ace.cards import CARD_NAMES, SQUARE_NAMES

GAMES = 40
TRIES = 6  # arbitrary actions tried at every position


def _attempt(s: engine.State, text: str | dict[str, Any]) -> Any:
    """What ``apply`` makes of ``text``: the new position, or the refusal's parts."""
    try:
        after = engine.apply(s, text)
    except engine.IllegalAction as e:
        return ["refused", e.code, e.params, e.rule, str(e)]
    except engine.NotationError as e:
        return ["notation", e.code, e.params, str(e)]
    return ["played", engine.to_json(after), str(after.discards[s.to_move][-1])]


def _arbitrary(rng: random.Random, s: engine.State) -> str:
    """An action text, legal or not: a card of either side, from a pawn or anywhere."""
    card = rng.choice(CARD_NAMES)
    kind = rng.random()
    if kind < 0.15:
        return f"{card} burn"
    if kind < 0.3:
        return f"{card} @{rng.choice(['', 'x'])}{rng.choice(SQUARE_NAMES)}"
    on_board = [sq for sq in s.where if sq >= 0]
    frm = rng.choice(on_board) if on_board and rng.random() < 0.8 else rng.randrange(64)
    return f"{card} {SQUARE_NAMES[frm]}{rng.choice('-x')}{SQUARE_NAMES[rng.randrange(64)]}"


def _flip(text: str) -> str:
    """The same action with the capture mark the other way (apply works it out, R14)."""
    card, rest = text.split(" ")
    if rest.startswith("@"):
        return f"{card} @{rest[2:]}" if rest.startswith("@x") else f"{card} @x{rest[1:]}"
    if "x" in rest:
        return f"{card} {rest.replace('x', '-')}"
    return f"{card} {rest.replace('-', 'x')}" if "-" in rest else text


def _outcome(s: engine.State) -> Any:
    over = engine.outcome(s)
    return None if over is None else [over.winner, over.reason, over.score]


def position_facts(s: engine.State, rng: random.Random) -> list[Any]:
    """Everything the public API says about ``s``, and about a few actions tried on it."""
    legal = engine.legal_actions(s)
    facts: list[Any] = [
        [str(a) for a in legal], [a.to_json() for a in legal], engine.to_json(s), _outcome(s),
        [engine.view(s, seat).to_json() for seat in ("red", "black", None)],
    ]
    tries = [_arbitrary(rng, s) for _ in range(TRIES)]
    if legal:
        chosen = rng.choice(legal)
        tries += [_flip(str(chosen)), chosen.to_json()]  # type: ignore[list-item]
    facts.append([_attempt(s, t) for t in tries])
    return facts


def game_digest(seed: int) -> str:
    """SHA-256 over every position's facts in one seeded random game."""
    rng = random.Random(seed)
    s = engine.new_game(f"walk-{seed}")
    digest = hashlib.sha256()
    while True:
        digest.update(json.dumps(position_facts(s, rng), sort_keys=True).encode())
        legal = engine.legal_actions(s)
        if not legal:
            return digest.hexdigest()
        s = engine.apply(s, rng.choice(legal))


def record() -> dict[str, Any]:
    return {
        "about": "tests/engine/ace_walk.py: per seeded random game, a SHA-256 over the public "
                 "API's legal lists, states, views, outcomes and refusals; recorded before "
                 "issue 24's faster move generation.",
        "games": {str(seed): game_digest(seed) for seed in range(GAMES)},
    }


if __name__ == "__main__":
    print(json.dumps(record(), indent=1))
