"""A slow, plain reading of R7-R15 for tests only: the oracle the fast move generator
is checked against (issue 24).  It works from the geometry tables and the rules'
words alone, never from ``engine.ace.moves`` or ``engine.ace.rules``."""
from __future__ import annotations

from engine import Action, State
from engine.ace.cards import (
    ACES, CAPTURED, CARD_NAMES, HOME, SQUARE_NAMES, SUIT_PAWNS, pawn_of_card, side_of_pawn,
)
from engine.ace.geometry import LEAPS, SLIDES, STEPS


def _landings(card: int, sq: int) -> list[tuple[list[int], int]]:
    """(squares passed over, landing square) that ``card``'s shape allows from ``sq``."""
    rank = card % 13
    if 1 <= rank <= 6:  # R10
        return [([b for b in range(64) if path >> b & 1], to) for path, to in SLIDES[rank + 1][sq]]
    if 7 <= rank <= 9:  # R11
        return [([], to) for to in LEAPS[rank + 1][sq]]
    return [([], to) for to in STEPS[sq]]  # R12


def card_actions(s: State, card: int) -> list[Action]:
    """What ``card`` allows the side to move (R9-R12), unsorted."""
    me, where = s.to_move, s.where
    pawn_at = {sq: p for p, sq in enumerate(where) if sq >= 0}
    face = pawn_of_card(card)
    pawns = [face] if face is not None else list(SUIT_PAWNS[card // 13])
    out = []
    for pawn in pawns:
        sq = where[pawn]
        if sq >= 0:
            for passed, to in _landings(card, sq):
                if any(b in pawn_at for b in passed):
                    continue
                if to in pawn_at and side_of_pawn(pawn_at[to]) == me:
                    continue
                out.append(Action(CARD_NAMES[card], "move", SQUARE_NAMES[sq], SQUARE_NAMES[to],
                                  to in pawn_at))
        elif sq == CAPTURED and face is not None:
            home = HOME[pawn]
            if home in pawn_at and side_of_pawn(pawn_at[home]) == me:
                continue
            out.append(Action(CARD_NAMES[card], "release", capture=home in pawn_at))
    return out


def legal(s: State) -> list[str]:
    """The legal actions' texts, sorted (R7, R13, R15); [] when no card is held."""
    me = s.to_move
    if all(s.where[a] == CAPTURED for a in ACES[me]):
        texts = [str(a) for c in s.hands[me] if c % 13 == 0 for a in card_actions(s, c)
                 if a.kind == "release"]
        return sorted(texts)
    texts = []
    for card in s.hands[me]:
        moves = card_actions(s, card)
        texts += [str(a) for a in moves] if moves else [f"{CARD_NAMES[card]} burn"]
    return sorted(texts)


def after(s: State, text: str) -> tuple[object, ...]:
    """The fields of the state after the legal action ``text`` (R8, R12, R14)."""
    action = Action.parse(text)
    me = s.to_move
    where = list(s.where)
    if action.kind != "burn":
        to = action.to_index
        if to in where:
            where[where.index(to)] = CAPTURED
        mover = pawn_of_card(action.card_index) if action.kind == "release" else where.index(action.from_index)
        assert mover is not None
        where[mover] = to
    hands, decks, discards = list(s.hands), list(s.decks), list(s.discards)
    hand = list(hands[me])
    hand.remove(action.card_index)
    hands[me] = tuple(hand) + decks[me][:1]
    decks[me] = decks[me][1:]
    discards[me] = discards[me] + (action,)
    occupied = tuple(sum(1 << where[p] for p in range(16) if where[p] >= 0 and side_of_pawn(p) == side)
                     for side in (0, 1))
    return (tuple(where), tuple(hands), tuple(decks), tuple(discards), 1 - me, s.ply + 1, occupied)
