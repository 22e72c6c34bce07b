"""engine.shuffle serves both games: its card numbers are the games' own (R6, RH8, RH42)."""
from __future__ import annotations

from engine import shuffle
from engine.ace.cards import CARD_NAMES as ACE_CARD_NAMES
from engine.ace.cards import SIDE_CARDS
from engine.rhombus.cards import CARD_NAMES as RHOMBUS_CARD_NAMES
from engine.rhombus.cards import DECK


def test_r6_each_side_deck_starts_from_the_ace_cards_of_that_side() -> None:
    assert shuffle.ACE_DECKS == SIDE_CARDS
    assert [ACE_CARD_NAMES[c] for c in shuffle.ACE_DECKS[0][:14]] == [
        "AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH", "AD"]


def test_rh8_the_deal_starts_from_the_rhombus_pack_in_card_order() -> None:
    assert shuffle.RHOMBUS_PACK == DECK
    assert [RHOMBUS_CARD_NAMES[c] for c in shuffle.RHOMBUS_PACK[:5]] == ["6C", "6D", "6H", "6S", "7C"]


def test_rh42_formation_deals_each_card_twice() -> None:
    pack = shuffle.dealt_pack("two packs", 2)
    assert sorted(pack) == sorted(DECK * 2)
