"""Seeds, commitments and every shuffle of both games (R6, R19; RH8, RH9, RH24, RH30).

A game's shuffles all come from one secret seed; its SHA-256, the
commitment, is published when the game starts and the seed is revealed at
the end (R19, RH30).  Each shuffle is specified here precisely enough to be
recomputed in any language from the revealed seed:

1. The seed is turned into bytes: an ``int`` as ``str(n)`` in ASCII (decimal
   digits, with a leading ``-`` when negative), a ``str`` as UTF-8, ``bytes``
   as they are. The commitment is the SHA-256 of those
   bytes, in hexadecimal.
2. A shuffle reads a stream of 32-bit big-endian numbers from the SHAKE-256
   output of the seed's bytes followed by a label:

   - Ace in the Hole, each side's deck: ``seed + b"/red"`` (or ``b"/black"``);
     the deck starts in the order hearts then diamonds (Red) or spades then
     clubs (Black), ranks A 2 3 4 5 6 7 8 9 10 J Q K within a suit.
   - Rhombus, shuffle k: ``seed + b"/rhombus/" + str(k)``, k being 0 for the
     deal, 1, 2, ... for the reshuffles of RH24, and ``seats`` for the seat
     draw of RH9.  The things shuffled are, for the deal, the pack in card
     order (``6C 6D 6H 6S 7C ... AS``; for Formation's two packs each card
     twice, the copies side by side: ``6C 6C 6D 6D ... AS AS``, RH42); for
     reshuffle k, the discard pile as it lies, top card first; for the seat
     draw, the players' numbers 0, 1 (, 2, 3) in the order the site lists them.
3. Fisher-Yates, top card first: for i from n-1 down to 1 (n = 26 for an Ace
   in the Hole deck), take the next number m; while m >= 2**32 - (2**32 mod
   (i+1)) reject it and take the next; then j = m mod (i+1), and swap cards i
   and j.

The card numbers below are the games' own (:mod:`engine.ace.cards`,
:mod:`engine.rhombus.cards`), written out here so that this module needs
neither game; a test checks that they agree.
"""
from __future__ import annotations

import hashlib
import struct

Seed = int | str | bytes

ACE_DECKS = (tuple(range(0, 26)), tuple(range(26, 52)))
"""Ace in the Hole: each side's 26 cards in deck order (``engine.ace.cards.SIDE_CARDS``)."""

RHOMBUS_PACK = tuple(range(36))
"""Rhombus: the 36 cards in card order (``engine.rhombus.cards.DECK``)."""


def seed_bytes(seed: Seed) -> bytes:
    """The bytes that the commitment and the shuffle are computed from."""
    if isinstance(seed, bool) or not isinstance(seed, (int, str, bytes)):
        raise TypeError(f"a seed is an int, str or bytes, not {type(seed).__name__}")
    if isinstance(seed, int):
        return str(seed).encode()
    if isinstance(seed, str):
        return seed.encode()
    return seed


def commitment(seed: Seed) -> str:
    """SHA-256 of the seed in hex, published when a game starts (R19, RH30).

    >>> commitment("demo")[:16]
    '2a97516c354b6884'
    """
    return hashlib.sha256(seed_bytes(seed)).hexdigest()


def _numbers(stream: bytes, count: int) -> tuple[int, ...]:
    return struct.unpack(f">{count}I", hashlib.shake_256(stream).digest(4 * count))


def _fisher_yates(cards: tuple[int, ...], stream: bytes) -> tuple[int, ...]:
    """``cards`` (top first) shuffled by the numbers of ``stream`` (steps 2 and 3 above)."""
    out = list(cards)
    # Rejections are rarer than 1 in 10**7 per draw, so n - 1 numbers and a
    # few spare are almost always enough; SHAKE's longer outputs begin with
    # its shorter ones, so reading more when needed changes nothing.
    numbers = _numbers(stream, len(out) + 8)
    used = 0
    for i in range(len(out) - 1, 0, -1):
        limit = 4294967296 - 4294967296 % (i + 1)
        while True:
            if used == len(numbers):
                numbers = _numbers(stream, len(numbers) * 2)
            m = numbers[used]
            used += 1
            if m < limit:
                break
        j = m % (i + 1)
        out[i], out[j] = out[j], out[i]
    return tuple(out)


def shuffled_deck(seed: Seed, side: int) -> tuple[int, ...]:
    """Ace in the Hole: one side's 26 cards in shuffled order, top card first (R6)."""
    return _fisher_yates(ACE_DECKS[side], seed_bytes(seed) + (b"/red", b"/black")[side])


def shuffled(cards: tuple[int, ...], key: bytes, k: int | str) -> tuple[int, ...]:
    """Rhombus: ``cards`` (top first) after shuffle number ``k`` of the game with seed bytes ``key``."""
    return _fisher_yates(cards, key + b"/rhombus/" + str(k).encode())


def dealt_pack(seed: Seed, packs: int = 1) -> tuple[int, ...]:
    """Rhombus: the pack for the deal (RH8), top card first; ``packs=2`` for Formation (RH42).

    >>> pack = dealt_pack("demo")
    >>> len(pack), sorted(pack) == list(range(36))
    (36, True)
    """
    return shuffled(tuple(sorted(RHOMBUS_PACK * packs)), seed_bytes(seed), 0)


def seating(seed: Seed, players: int = 2) -> tuple[int, ...]:
    """Rhombus, RH9: who sits where in the first game between the same players.

    Entry i is the number of the player (in the order the site lists them)
    who takes seat i of the game's turn order, e.g. ``("SW", "NE")``.

    >>> sorted(seating("demo"))
    [0, 1]
    """
    return shuffled(tuple(range(players)), seed_bytes(seed), "seats")


__all__ = [
    "ACE_DECKS", "RHOMBUS_PACK", "Seed", "commitment", "dealt_pack", "seating", "seed_bytes",
    "shuffled", "shuffled_deck",
]
