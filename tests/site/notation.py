"""Raw notation: a text a reader meets that is made of notation and nothing else.

Notation (../shared/rules/ace-in-the-hole.md "Notation", rhombus.md N1-N14) is
for those who know it: card codes (7D, QH+7H), cards with their suit sign
(A♥), squares and moves (b5, e1-e6, d1xa2, @a1, @xf1) and the words of
actions (0, mystery, burn, elim, react, entry, discard). Shown on its own it
says nothing to a new player in any language (issue 35, finding 3). A text is
raw notation when every token is notation, a seat code (SW, SE, NE, NW) or a
number or sign, and at least one is a card or a square: a seat alone is a code
(allowed, as english.CODE), "7D 0", "8S mystery QD", "b5" and "SW 7D 0" are not. A card code is notation even among words ("7D: choose the move"): a
card is said in words or shown as a face ("A♥ von e1 nach e7 ziehen" is words).
Notation beside words is kept apart in ``<span class="notation" translate="no">``
and never read as raw (the browser walk skips what is marked translate="no").
"""

from __future__ import annotations

import re

RANK = r"(?:10|[2-9AKQJ])"
CARD = rf"{RANK}[HDSC](?:\+{RANK}[HDSC])*"  # 7D, QH+7H (a mover and its kill card)
FACE = rf"{RANK}[♥♦♠♣]"  # A♥
SQUARES = r"@?x?[a-h][1-8](?:[-x][a-h][1-8])?"  # b5, e1-e6, d1xa2, @a1, @xf1
# What makes a text notation: a card or a square somewhere in it.
STRONG = re.compile(rf"(?:{CARD}|{FACE}|{SQUARES})")
ACTION_WORDS = frozenset({"mystery", "burn", "elim", "react", "entry", "discard"})
SEATS = frozenset({"SW", "SE", "NE", "NW"})
# Numbers and signs: move numbers ("12."), counts, clocks, suit signs alone.
NEUTRAL = re.compile(r"[\d.+\-−–—/%#×♥♦♠♣→←]+")
TOKEN = re.compile(r"[^\s,;:·()\[\]]+")


def card_codes(text: str) -> list[str]:
    """The card codes in ``text`` ("7S", "QH+7H"): notation even among words,
    which says a card only as "7 of spades" or a card's face does.

    >>> card_codes("Step 4 of 4: Black 7S f8xf1"), card_codes("A♥ von e1 nach e7 ziehen")
    (['7S'], [])
    """
    return [token for token in TOKEN.findall(text) if re.fullmatch(CARD, token)]


def is_raw_notation(text: str) -> bool:
    """Whether ``text`` is notation and nothing else.

    >>> [is_raw_notation(t) for t in ("7D 0", "8S mystery QD", "b5", "SW", "SW 7D 0", "A♥ von e1 nach e7 ziehen")]
    [True, True, True, False, True, False]
    """
    tokens = TOKEN.findall(text)
    if not any(STRONG.fullmatch(token) for token in tokens):
        return False
    return all(STRONG.fullmatch(token) or token in ACTION_WORDS or token in SEATS or NEUTRAL.fullmatch(token)
               for token in tokens)
