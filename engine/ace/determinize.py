"""Full states that agree with a view: the hidden cards, sampled (R18).

A bot sees only its seat's :class:`~engine.ace.view.View`.  To search, it deals
the cards it cannot see at random, consistently with everything public, and
plays on the resulting :class:`~engine.ace.state.State` ("determinization").

What a view leaves open is exactly this: which of a side's not-yet-discarded
cards are in its hand and which in its deck, and the deck order.  Each side's
26 cards are split into its discard pile (public), the viewer's own hand
(known to the viewer) and the rest, which is unseen.  Nothing public narrows
the unseen cards further: a burn (R13) says something about the burnt card
only, and a player may burn even while other cards in hand have moves.  So a
uniform shuffle of each side's unseen cards into its hidden places is a
sample from exactly the states the view allows, and every sample's view for
the seat equals the given view.
"""
from __future__ import annotations

import random

from .cards import CARD_INDEX, SEATS, SIDE_CARDS
from .state import State
from .view import View


def unseen(v: View, side: int) -> list[int]:
    """``side``'s cards that ``v``'s seat cannot see, in card order."""
    known = {a.card_index for a in v.discards[side]}
    if v.seat == SEATS[side] and v.hand is not None:
        known.update(CARD_INDEX[c] for c in v.hand)
    return [c for c in SIDE_CARDS[side] if c not in known]


class Dealer:
    """Deals one view's hidden cards, again and again (a search deals thousands of times).

    Raises ValueError when no state fits the view (more hidden places than
    unseen cards: the view was not made by :func:`engine.view`).
    """

    def __init__(self, v: View) -> None:
        self.pools: list[list[int]] = []
        self.hands: list[tuple[int, ...]] = []
        self.in_hand: list[int] = []
        self.wanted: list[int] = []
        for side, seat in enumerate(SEATS):
            pool = unseen(v, side)
            own = v.seat == seat and v.hand is not None
            hand = tuple(CARD_INDEX[c] for c in v.hand or ()) if own else ()
            in_hand = 0 if own else v.hand_counts[side]
            wanted = in_hand + v.deck_counts[side]
            if wanted > len(pool):
                raise ValueError(f"no state fits this view: {seat} has {wanted} hidden cards "
                                 f"but only {len(pool)} unseen")
            self.pools.append(pool)
            self.hands.append(hand)
            self.in_hand.append(in_hand)
            self.wanted.append(wanted)

    def deal(self, rng: random.Random) -> tuple[tuple[tuple[int, ...], tuple[int, ...]],
                                                 tuple[tuple[int, ...], tuple[int, ...]]]:
        """Both hands and both decks (top card first), the unseen cards shuffled by ``rng``."""
        hands: list[tuple[int, ...]] = []
        decks: list[tuple[int, ...]] = []
        for side in (0, 1):
            pool = self.pools[side][:]
            rng.shuffle(pool)
            k = self.in_hand[side]
            hands.append(self.hands[side] + tuple(pool[:k]))
            decks.append(tuple(pool[k:self.wanted[side]]))
        return (hands[0], hands[1]), (decks[0], decks[1])


def sample(v: View, rng: random.Random) -> State:
    """A full state whose view for ``v.seat`` is ``v``, hidden cards dealt by ``rng``.

    Raises ValueError when no state fits (see :class:`Dealer`).

    >>> import engine, random
    >>> v = engine.view(engine.new_game(7), "red")
    >>> s = sample(v, random.Random(1))
    >>> engine.view(s, "red") == v, s.hand("red") == list(v.hand or ())
    (True, True)
    """
    hands, decks = Dealer(v).deal(rng)
    return State.build(v.where, hands, decks, v.discards, SEATS.index(v.to_move), v.ply)


__all__ = ["Dealer", "sample", "unseen"]
