"""Perft-style golden counts: legal actions in fixed positions, counted by hand.

``golden_positions.json`` holds the positions, the hand-counted numbers and why.
The engine must agree with them; so must a small, separate brute-force reading
of R9-R15 below, written from the rules page and sharing no code with the engine.
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

import engine

GOLDEN = json.loads((Path(__file__).parent / "golden_positions.json").read_text())["positions"]
NAMES = [entry["name"] for entry in GOLDEN]


def build(entry: dict[str, Any]) -> engine.State:
    if "position" in entry:
        return engine.from_json(entry["position"])
    s = engine.new_game(entry["seed"])
    for action in entry["played"]:
        s = engine.apply(s, action)
    return s


# A brute-force reading of the rules page, on the position JSON alone.

FILES = "abcdefgh"
HOMES = {
    "JD": "a1", "QD": "b1", "KD": "c1", "AD": "d1", "AH": "e1", "KH": "f1", "QH": "g1", "JH": "h1",
    "JC": "a8", "QC": "b8", "KC": "c8", "AC": "d8", "AS": "e8", "KS": "f8", "QS": "g8", "JS": "h8",
}
SUITS = {"red": "HD", "black": "SC"}
KING_STEPS = [(df, dr) for df in (-1, 0, 1) for dr in (-1, 0, 1) if (df, dr) != (0, 0)]
LEAPS = {"8": (1, 2), "9": (1, 3), "10": (2, 3)}


def shifted(square: str, df: int, dr: int) -> str | None:
    f, r = FILES.index(square[0]) + df, int(square[1]) + dr
    return f"{FILES[f]}{r}" if 0 <= f < 8 and 1 <= r <= 8 else None


def orientations(a: int, b: int) -> set[tuple[int, int]]:
    return {(x * sx, y * sy) for x, y in ((a, b), (b, a)) for sx in (1, -1) for sy in (1, -1)}


def card_actions(card: str, board: dict[str, str], mine: str, lost: list[str]) -> list[str]:
    rank, suit = card[:-1], card[-1]
    squares = {pawn: sq for sq, pawn in board.items()}
    out = []

    def land(frm: str, to: str | None) -> None:
        if to is not None and not (to in board and board[to][-1] in mine):
            out.append(f"{card} {frm}{'x' if to in board else '-'}{to}")

    if rank in ("A", "K", "Q", "J"):
        if card in squares:
            for df, dr in KING_STEPS:
                land(squares[card], shifted(squares[card], df, dr))
        elif card in lost:
            home = HOMES[card]
            if not (home in board and board[home][-1] in mine):
                out.append(f"{card} @{'x' if home in board else ''}{home}")
        return out
    for frm in [sq for sq, pawn in board.items() if pawn[-1] == suit]:
        if rank in LEAPS:
            for df, dr in orientations(*LEAPS[rank]):
                land(frm, shifted(frm, df, dr))
            continue
        n = int(rank)
        for df, dr in KING_STEPS:
            path = [shifted(frm, df * i, dr * i) for i in range(1, n + 1)]
            if None not in path and not any(sq in board for sq in path[:-1]):
                land(frm, path[-1])
    return out


def brute_force_actions(position: Mapping[str, Any]) -> list[str]:
    me = position["to_move"]
    mine, board = SUITS[me], position["board"]
    lost = position.get("captured", {}).get("black" if me == "red" else "red", [])
    both_aces_lost = all(f"A{suit}" in lost for suit in mine)
    actions: list[str] = []
    for card in position["hands"][me]:
        found = card_actions(card, board, mine, lost)
        if both_aces_lost:
            actions += [a for a in found if a.startswith("A") and "@" in a]
        else:
            actions += found or [f"{card} burn"]
    return sorted(actions)


# The tests.


@pytest.mark.parametrize("entry", GOLDEN, ids=NAMES)
def test_the_engine_finds_the_hand_counted_number_of_actions(entry: dict[str, Any]) -> None:
    assert len(engine.legal_actions(build(entry))) == entry["count"], entry["why"]


@pytest.mark.parametrize("entry", [e for e in GOLDEN if "actions" in e],
                         ids=[e["name"] for e in GOLDEN if "actions" in e])
def test_the_engine_finds_exactly_the_hand_listed_actions(entry: dict[str, Any]) -> None:
    assert [str(a) for a in engine.legal_actions(build(entry))] == entry["actions"]


@pytest.mark.parametrize("entry", GOLDEN, ids=NAMES)
def test_the_brute_force_reading_agrees_with_the_hand_count(entry: dict[str, Any]) -> None:
    position = entry.get("position") or engine.to_json(build(entry))
    found = brute_force_actions(position)
    assert len(found) == entry["count"], entry["why"]
    if "actions" in entry:
        assert found == entry["actions"]


@pytest.mark.parametrize("entry", GOLDEN, ids=NAMES)
def test_the_engine_and_the_brute_force_list_the_same_actions(entry: dict[str, Any]) -> None:
    s = build(entry)
    assert [str(a) for a in engine.legal_actions(s)] == brute_force_actions(engine.to_json(s))


@pytest.mark.parametrize("entry", [e for e in GOLDEN if "seed" in e],
                         ids=[e["name"] for e in GOLDEN if "seed" in e])
def test_a_seeded_golden_position_deals_the_hand_its_count_assumes(entry: dict[str, Any]) -> None:
    s = build(entry)
    assert s.hand(s.turn) == entry["hand"]


def test_there_are_enough_varied_golden_positions() -> None:
    assert len(GOLDEN) >= 12
    assert {e["position"]["to_move"] for e in GOLDEN if "position" in e} == {"red", "black"}
    assert len({e["seed"] for e in GOLDEN if "seed" in e}) >= 2


def test_every_golden_position_explains_its_count() -> None:
    for entry in GOLDEN:
        assert entry["why"].endswith(f"total {entry['count']}"), entry["name"]
        if "actions" in entry:
            assert len(entry["actions"]) == entry["count"], entry["name"]


def test_every_golden_action_is_legal_and_applies() -> None:
    for entry in GOLDEN:
        s = build(entry)
        for action in engine.legal_actions(s):
            after = engine.apply(s, str(action))
            assert after.ply == s.ply + 1, (entry["name"], str(action))
