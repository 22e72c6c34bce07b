"""Full Rhombus states that agree with one seat's view: the hidden cards, sampled (RH29).

A bot sees only its seat's :class:`~engine.rhombus.View`.  To look ahead it
deals the cards it cannot see at random, consistently with everything
public, and plays on the resulting :class:`~engine.rhombus.State`.

What RH29 leaves hidden from a seat is: the other seats' hand cards (the
partner's too in the team game, RH36), the order of the pile, and the
seed.  Everything else is public (the board, reserves, eliminated counts,
out flags, all table cards, hand counts, the discard pile in order, the
pile's size).  So the unseen cards are the pack minus the seat's own hand,
every table and the discard pile; nothing public narrows them further, and
a uniform shuffle of them into the other hands and the pile is a sample
from exactly the states the view allows.  The seed is replaced by random
bytes, so a reshuffle in the sample is as unpredictable as the real one.
"""
from __future__ import annotations

import random
from collections import Counter

from .cards import CARD_INDEX, DECK
from .state import State
from .view import View


def unseen(v: View) -> list[int]:
    """The cards ``v``'s seat cannot see, in card order (a card twice if two packs hold it).

    The pack is one 36-card deck, or as many as the view's card count needs
    (Formation plays with two, N6).
    """
    seen = Counter(CARD_INDEX[c] for c in (*(v.hand or ()), *v.discard))
    for table in v.tables:
        seen.update(CARD_INDEX[c] for c in table)
    total = sum(len(t) for t in v.tables) + sum(v.hand_counts) + v.pile_count + len(v.discard)
    packs = max(1, -(-total // len(DECK)))
    left = Counter({card: packs for card in DECK})
    left.subtract(seen)
    if any(n < 0 for n in left.values()):
        raise ValueError("no state fits this view: it shows a card more often than the pack holds it")
    return sorted(left.elements())


def sample(v: View, rng: random.Random) -> State:
    """One full state whose view for ``v.seat`` is ``v`` (but for the commitment).

    Raises ValueError for a spectator's view (no seat to sample for) or a
    view no state fits (more hidden places than unseen cards).
    """
    if v.seat is None or v.hand is None:
        raise ValueError("a spectator's view has no seat to sample the hidden cards for")
    me = v.seats.index(v.seat)
    pool = unseen(v)
    wanted = sum(n for i, n in enumerate(v.hand_counts) if i != me) + v.pile_count
    if wanted != len(pool):
        raise ValueError(f"no state fits this view: {wanted} hidden places but {len(pool)} unseen cards")
    rng.shuffle(pool)
    hands: list[tuple[int, ...]] = []
    for i, count in enumerate(v.hand_counts):
        if i == me:
            hands.append(tuple(CARD_INDEX[c] for c in v.hand))
        else:
            hands.append(tuple(pool[:count]))
            pool = pool[count:]
    return State(
        variant=v.variant, seats=v.seats, board=v.board,
        tables=tuple(tuple(CARD_INDEX[c] for c in t) for t in v.tables), hands=tuple(hands),
        reserve=v.reserve, eliminated=v.eliminated, out=v.out,
        pile=tuple(pool), discard=tuple(CARD_INDEX[c] for c in v.discard), reshuffles=v.reshuffles,
        dealer=v.seats.index(v.dealer), to_move=v.seats.index(v.to_move), quiet=v.quiet,
        ply=v.ply, seed=rng.randbytes(16),
    )


__all__ = ["sample", "unseen"]
