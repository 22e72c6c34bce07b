"""Seeds, commitments and the deck shuffle (R6, R19).

The shuffle is specified here precisely enough to be recomputed in any
language from the revealed seed:

1. The seed is turned into bytes: an ``int`` as ``str(n)`` in ASCII (decimal
   digits, with a leading ``-`` when negative), a ``str`` as UTF-8, ``bytes``
   as they are. The commitment is the SHA-256 of those
   bytes, in hexadecimal.
2. Each side's deck starts in the order hearts then diamonds (Red) or spades
   then clubs (Black), ranks A 2 3 4 5 6 7 8 9 10 J Q K within a suit.
3. A stream of 32-bit big-endian numbers is read from the SHAKE-256 output
   of ``seed + b"/red"`` (or ``b"/black"``).
4. Fisher-Yates, top card first: for i from 25 down to 1, take the next
   number n; while n >= 2**32 - (2**32 mod (i+1)) reject it and take the
   next; then j = n mod (i+1), and swap cards i and j.
"""
from __future__ import annotations

import hashlib
import struct

from .cards import SIDE_CARDS

Seed = int | str | bytes


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
    """SHA-256 of the seed in hex, published when a game starts (R19).

    >>> commitment("demo")[:16]
    '2a97516c354b6884'
    """
    return hashlib.sha256(seed_bytes(seed)).hexdigest()


# 25 numbers are needed per deck; rejections are rarer than 1 in 10**7 per
# draw, so 32 numbers are almost always enough and more are read if not.
_BLOCK = 32


def _numbers(seed: bytes, label: bytes, count: int) -> tuple[int, ...]:
    return struct.unpack(f">{count}I", hashlib.shake_256(seed + b"/" + label).digest(4 * count))


def shuffled_deck(seed: Seed, side: int) -> tuple[int, ...]:
    """One side's 26 cards in shuffled order, top card first."""
    key, label = seed_bytes(seed), (b"red", b"black")[side]
    numbers = _numbers(key, label, _BLOCK)
    cards = list(SIDE_CARDS[side])
    k = 0
    for i in range(len(cards) - 1, 0, -1):
        limit = 4294967296 - 4294967296 % (i + 1)
        while True:
            if k == len(numbers):
                numbers = _numbers(key, label, len(numbers) * 2)
            n = numbers[k]
            k += 1
            if n < limit:
                break
        j = n % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return tuple(cards)
