"""N1 by brute force: the listed actions are exactly what replaying every text reaches.

For hand-made positions with two (or three) cards of one suit, every text a
player could write for a single or a pair (or a flush: every order, every
kill pairing, every from and to square) is replayed by the checker; the
outcomes it accepts, each with its smallest text, must be exactly the legal
actions of those cards that the search lists.  The same holds in the team
game, with partners' and opponents' pieces about and the player sometimes
out (RH31-RH34): texts moving a partner's piece are refused, an out
player's texts move the partner's.
"""
from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import EngineError
from engine.rhombus import Action, State, from_json, outcome
from engine.rhombus.cards import CARD_NAMES, EIGHT, KILLERS, MOVERS, NINE, RANKS, SQUARE_NAMES, START, rank
from engine.rhombus.check import _use, key_of
from engine.rhombus.search import Play, flush_specs, start_play
from engine.rhombus.state import plays_for
from engine.rhombus.rules import legal


def use_texts(s: State, card: int, partner: int | None) -> list[str]:
    """Every text of one use of ``card``, joined to ``partner`` when that is a kill card."""
    name, r = CARD_NAMES[card], rank(card)
    kill = partner if partner is not None and rank(partner) in KILLERS else None
    heads = [(name, None)] + ([(f"{name}+{CARD_NAMES[kill]}", kill)] if kill is not None else [])
    if r in MOVERS:
        return [f"{h} {a}{'x' if k is not None else '-'}{b}" for h, k in heads for a in SQUARE_NAMES for b in SQUARE_NAMES]
    if r == NINE:
        start = SQUARE_NAMES[START[s.seats[plays_for(s, s.to_move)]]]  # RH34: an out player's partner's
        return [f"{name} 0", f"{name} @{start}"] + [f"{h} @x{start}" for h, k in heads if k is not None]
    if r == EIGHT:
        return [f"{name} mystery"] + [f"{name} mystery {CARD_NAMES[t]}" for t in s.tables[s.to_move]]
    return [f"{name} 0"]


def replayed(s: State) -> dict[object, str]:
    found: dict[object, str] = {}

    def attempt(text: str) -> bool:
        try:
            key = key_of(s, Action.parse(text))
        except EngineError:
            return False
        if key not in found or text < found[key]:
            found[key] = text
        return True

    held = s.tables[s.to_move] + s.hands[s.to_move]
    for card in held:
        for text in use_texts(s, card, None):
            attempt(text)
    for a, b in itertools.permutations(held, 2):
        for first in use_texts(s, a, b):
            if "+" in first:
                attempt(first)
                continue
            if not _first_use_ok(s, first):
                continue
            for second in use_texts(s, b, None):
                attempt(f"{first}, {second}")
    return found


def _first_use_ok(s: State, text: str) -> bool:
    """Whether a plain move can begin an action: it sees the board a single would see.

    Zero, Mystery and entry uses are always tried, since a single of them may
    be refused for reasons (RH19's card taken) that a pair changes.
    """
    if text.split()[1] in ("0", "mystery") or "@" in text:
        return True
    try:
        key_of(s, Action.parse(text))
    except EngineError:
        return False
    return True


def random_position(rng: random.Random) -> State:
    squares = rng.sample(SQUARE_NAMES, rng.randrange(2, 7))
    mine = rng.randrange(1, min(len(squares), 4))
    board = {sq: ("SW" if i < mine else "NE") for i, sq in enumerate(squares)}
    suit = rng.choice("CDHS")
    cards = [r + suit for r in rng.sample(RANKS, 2)]
    cards.append(rng.choice([c for c in CARD_NAMES if c not in cards]))
    rng.shuffle(cards)
    rest = [c for c in CARD_NAMES if c not in cards]
    table = rng.choice([2, 2, 1, 0])
    return from_json({
        "board": board,
        "seats": {
            "SW": {"table": cards[:table], "hand": cards[table:], "reserve": rng.randrange(2), "eliminated": 0},
            "NE": {"table": rest[:2], "hand": rest[2:3], "reserve": 0, "eliminated": 0},
        },
        "pile": rest[3:],
        "to_move": "SW",
    })


@settings(max_examples=3, deadline=None)
@given(st.randoms(use_true_random=False))
def test_n1_singles_and_pairs_are_exactly_the_replayable_outcomes_with_their_smallest_text(rng: random.Random) -> None:
    s = random_position(rng)
    if outcome(s) is not None:
        return
    listed = {key: str(a) for key, a in legal(s).by_key.items() if len(key[0]) <= 2}
    assert listed == replayed(s)


def flush_replayed(s: State) -> dict[object, str]:
    """Every writable flush text, replayed use by use (a refused prefix is not extended)."""
    held = sorted(s.tables[s.to_move] + s.hands[s.to_move])
    found: dict[object, str] = {}

    def extend(order: tuple[tuple[int, int | None], ...], play: Play, texts: list[str]) -> None:
        if len(texts) == len(order):
            text = ", ".join(texts)
            try:  # every use was legal; the whole may still fail (RH19's card taken)
                key = key_of(s, Action.parse(text))
            except EngineError:
                return
            if key not in found or text < found[key]:
                found[key] = text
            return
        card, kill = order[len(texts)]
        for text in _flush_use_texts(s, card, kill):
            action = Action.parse(text)
            try:
                after = _use(s, action, action.uses[0], play)
            except EngineError:
                continue
            extend(order, after, texts + [text])

    for ways in flush_specs((held[0], held[1], held[2])):
        for order in itertools.permutations(ways):
            extend(order, start_play(s), [])
    return found


def _flush_use_texts(s: State, card: int, kill: int | None) -> list[str]:
    name, r = CARD_NAMES[card], rank(card)
    head = name if kill is None else f"{name}+{CARD_NAMES[kill]}"
    if r in MOVERS:
        sep = "x" if kill is not None else "-"
        return [f"{head} {a}{sep}{b}" for a in SQUARE_NAMES for b in SQUARE_NAMES]
    if r == NINE:
        start = SQUARE_NAMES[START[s.seats[plays_for(s, s.to_move)]]]
        return [f"{head} @x{start}"] if kill is not None else [f"{name} 0", f"{name} @{start}"]
    if r == EIGHT:
        return [f"{name} mystery"] + [f"{name} mystery {CARD_NAMES[t]}" for t in s.tables[s.to_move]]
    return [f"{name} 0"]


@settings(max_examples=3, deadline=None)
@given(st.randoms(use_true_random=False))
def test_n1_flushes_are_exactly_the_replayable_outcomes_with_their_smallest_text(rng: random.Random) -> None:
    """RH21, N1: a flush's every order, pairing and walk; an Eliminator reaching the same is one action."""
    squares = rng.sample(SQUARE_NAMES, rng.randrange(2, 6))
    mine = 1  # one own piece keeps the replay of every text quick
    suit = rng.choice("CDHS")
    cards = [r + suit for r in rng.sample(RANKS, 3)]
    rest = [c for c in CARD_NAMES if c not in cards]
    s = from_json({
        "board": {sq: ("SW" if i < mine else "NE") for i, sq in enumerate(squares)},
        "seats": {
            "SW": {"table": cards[:2], "hand": cards[2:], "reserve": rng.randrange(2), "eliminated": 0},
            "NE": {"table": rest[:2], "hand": rest[2:3], "reserve": 0, "eliminated": 0},
        },
        "pile": rest[3:],
        "to_move": "SW",
    })
    if outcome(s) is not None:
        return
    table = legal(s)
    listed = {key: str(a) for key, a in table.by_key.items() if len(key[0]) == 3 and a.kind == "uses"}
    replay = flush_replayed(s)
    for key, a in table.by_key.items():  # the Eliminator's smaller texts: none, "elim" > "A".."Q"
        if key in replay and str(a) < replay[key]:
            replay[key] = str(a)
    assert listed == replay


def random_team_position(rng: random.Random, cards: list[str], most_own: int) -> State:
    """A 4-player position, SW to move holding ``cards`` (table first); SW is out about a third of the time."""
    squares = rng.sample(SQUARE_NAMES, rng.randrange(4, 8))
    sw_out = rng.random() < 0.35
    owners = ["SW"] * (0 if sw_out else rng.randrange(1, most_own + 1)) + ["NE"] * rng.randrange(1, 3) + ["SE"]
    while len(owners) < len(squares):  # at most 3 on the board, so a reserve piece still fits (RH32)
        owners.append(rng.choice([n for n in ("SE", "NW", "NE") if owners.count(n) < 3]))
    board = dict(zip(squares, owners))
    rest = [c for c in CARD_NAMES if c not in cards]
    table = rng.choice([2, 2, 1, 0])
    seats = {"SW": {"table": cards[:table], "hand": cards[table:], "out": sw_out,
                    "reserve": 0 if sw_out else rng.randrange(2)}}
    for i, name in enumerate(("SE", "NE", "NW")):
        seats[name] = {"table": rest[3 * i:3 * i + 2], "hand": rest[3 * i + 2:3 * i + 3],
                       "reserve": rng.randrange(2), "out": name not in board.values()}
        if name not in board.values():
            seats[name]["reserve"] = 0
    return from_json({"board": board, "seats": seats, "pile": rest[9:], "to_move": "SW"})


@settings(max_examples=3, deadline=None)
@given(st.randoms(use_true_random=False))
def test_n1_team_game_singles_and_pairs_are_exactly_the_replayable_outcomes(rng: random.Random) -> None:
    """N1 with four players (RH33, RH34): partners' pieces friendly, an out player moving the partner's."""
    suit = rng.choice("CDHS")
    cards = [r + suit for r in rng.sample(RANKS, 2)]
    cards.append(rng.choice([c for c in CARD_NAMES if c not in cards]))
    rng.shuffle(cards)
    s = random_team_position(rng, cards, 2)
    if outcome(s) is not None:
        return
    listed = {key: str(a) for key, a in legal(s).by_key.items() if len(key[0]) <= 2}
    assert listed == replayed(s)


@settings(max_examples=3, deadline=None)
@given(st.randoms(use_true_random=False))
def test_n1_team_game_flushes_are_exactly_the_replayable_outcomes(rng: random.Random) -> None:
    """RH21 and N1 with four players."""
    suit = rng.choice("CDHS")
    s = random_team_position(rng, [r + suit for r in rng.sample(RANKS, 3)], 1)
    if outcome(s) is not None:
        return
    table = legal(s)
    listed = {key: str(a) for key, a in table.by_key.items() if len(key[0]) == 3 and a.kind == "uses"}
    replay = flush_replayed(s)
    for key, a in table.by_key.items():
        if key in replay and str(a) < replay[key]:
            replay[key] = str(a)
    assert listed == replay
