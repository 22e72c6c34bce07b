"""Rhombus's fair shuffles from one secret seed (RH8, RH24, RH30).

The seed's bytes and the commitment are those of :mod:`engine.shuffle`
(SHA-256 of the seed, published at the start, the seed revealed at the end).
Each shuffle is specified so that anyone can recompute it from the revealed
seed:

1. Shuffle k (0 for the deal, 1, 2, ... for the reshuffles of RH24, and
   ``seats`` for the seat draw of RH9) reads a stream of 32-bit big-endian
   numbers from the SHAKE-256 output of ``seed + b"/rhombus/" + str(k)``.
2. The things shuffled are, for the deal, the pack in card order (``6C 6D
   6H 6S 7C ... AS``; for Formation's two packs each card twice, the copies
   side by side: ``6C 6C 6D 6D ... AS AS``, RH42); for reshuffle k, the discard pile as it lies, top
   card first; for the seat draw, the players' numbers 0, 1 (, 2, 3) in the
   order the site lists them.
3. Fisher-Yates, top card first: for i from n-1 down to 1, take the next
   number m; while m >= 2**32 - (2**32 mod (i+1)) reject it and take the next;
   then j = m mod (i+1), and swap cards i and j.
"""
from __future__ import annotations

import hashlib
import struct

from ..shuffle import Seed, commitment, seed_bytes
from .cards import DECK


def _numbers(key: bytes, k: int | str, count: int) -> tuple[int, ...]:
    stream = hashlib.shake_256(key + b"/rhombus/" + str(k).encode()).digest(4 * count)
    return struct.unpack(f">{count}I", stream)


def shuffled(cards: tuple[int, ...], key: bytes, k: int | str) -> tuple[int, ...]:
    """``cards`` (top first) after shuffle number ``k`` of the game with seed bytes ``key``."""
    out = list(cards)
    numbers = _numbers(key, k, len(out) + 8)
    used = 0
    for i in range(len(out) - 1, 0, -1):
        limit = 4294967296 - 4294967296 % (i + 1)
        while True:
            if used == len(numbers):
                numbers = _numbers(key, k, len(numbers) * 2)
            m = numbers[used]
            used += 1
            if m < limit:
                break
        j = m % (i + 1)
        out[i], out[j] = out[j], out[i]
    return tuple(out)


def dealt_pack(seed: Seed, packs: int = 1) -> tuple[int, ...]:
    """The pack for the deal (RH8), top card first; ``packs=2`` for Formation (RH42).

    >>> from engine.rhombus.cards import CARD_NAMES
    >>> pack = dealt_pack("demo")
    >>> len(pack), sorted(pack) == list(range(36))
    (36, True)
    """
    return shuffled(tuple(sorted(DECK * packs)), seed_bytes(seed), 0)


def seating(seed: Seed, players: int = 2) -> tuple[int, ...]:
    """RH9: who sits where in the first game between the same players.

    Entry i is the number of the player (in the order the site lists them)
    who takes seat i of the game's turn order, e.g. ``("SW", "NE")``.

    >>> sorted(seating("demo"))
    [0, 1]
    """
    return shuffled(tuple(range(players)), seed_bytes(seed), "seats")


__all__ = ["Seed", "commitment", "dealt_pack", "seating", "seed_bytes", "shuffled"]
