"""Discard, refill and the reshuffle from the game's seed (RH24, RH30)."""
from __future__ import annotations

import hashlib

from engine.rhombus import apply, commitment, new_game, to_json
from engine.rhombus.cards import CARD_INDEX, CARD_NAMES
from engine.shuffle import dealt_pack, seating, shuffled

from .positions import position

BOARD = """
. . . . N
. . . . .
. . . . .
S . . . .
S S . . .
"""


def names(cards: tuple[int, ...]) -> list[str]:
    return [CARD_NAMES[c] for c in cards]


def test_rh24_played_cards_go_on_the_discard_pile_highest_on_top() -> None:
    s = position(BOARD, sw=(["KC", "QC"], ["9D"]), discard=["6H"])
    after = apply(s, "QC a2-d2, KC b1-b3")
    assert names(after.discard)[:3] == ["KC", "QC", "6H"]


def test_rh24_table_places_are_refilled_first_then_hand_places() -> None:
    s = position(BOARD, sw=(["KC", "7D"], ["QC"]))
    pile = to_json(s)["pile"]
    after = apply(s, "KC b1-b3, QC a2-d2")
    assert after.table("SW") == ["7D", pile[0]] and after.hand("SW") == [pile[1]]


def test_rh24_the_moment_the_pile_runs_out_the_whole_discard_pile_is_reshuffled() -> None:
    rest = [c for c in CARD_NAMES if c not in ("KC", "7D", "QC", "6S", "6D", "6H", "AS")]
    s = position(BOARD, sw=(["KC", "7D"], ["QC"]), ne=(["6S", "6D"], ["6H"]), pile=["AS"], discard=rest)
    after = apply(s, "7D 0")
    # The one pile card was drawn; the discard pile, 7D on top, became the new pile.
    assert after.table("SW") == ["KC", "AS"]
    assert after.reshuffles == 1 and after.discard == ()
    expected = shuffled((CARD_INDEX["7D"],) + tuple(CARD_INDEX[c] for c in rest), b"test", 1)
    assert after.pile == expected
    assert len(after.pile) == 30  # 36 - 6 held


def test_rh24_a_reshuffle_in_the_middle_of_a_refill_includes_this_actions_cards() -> None:
    rest = [c for c in CARD_NAMES if c not in ("KC", "7D", "QC", "6S", "6D", "6H", "AS")]
    s = position(BOARD, sw=(["KC", "QC"], ["7D"]), ne=(["6S", "6D"], ["6H"]), pile=["AS"], discard=rest)
    after = apply(s, "KC b1-b3, QC a2-d2")
    new_pile = shuffled((CARD_INDEX["KC"], CARD_INDEX["QC"]) + tuple(CARD_INDEX[c] for c in rest), b"test", 1)
    assert after.table("SW") == ["AS", CARD_NAMES[new_pile[0]]]
    assert after.pile == new_pile[1:] and after.reshuffles == 1


def test_rh30_the_deal_is_recomputable_from_the_seed_and_committed() -> None:
    s = new_game("a secret")
    assert commitment("a secret") == hashlib.sha256(b"a secret").hexdigest()
    pack = dealt_pack("a secret")
    assert s.tables[0] + s.hands[0] + s.tables[1] + s.hands[1] + s.pile == pack
    assert new_game("a secret") == s and new_game("another") != s


def test_rh30_every_reshuffle_comes_from_the_seed_and_its_number() -> None:
    cards = tuple(range(30))
    assert shuffled(cards, b"x", 1) == shuffled(cards, b"x", 1)
    assert shuffled(cards, b"x", 1) != shuffled(cards, b"x", 2)
    assert sorted(shuffled(cards, b"x", 3)) == list(cards)


def test_rh9_the_first_seat_assignment_is_drawn_from_the_seed() -> None:
    draws = {seating(seed) for seed in range(40)}
    assert draws == {(0, 1), (1, 0)}  # both ways happen, and nothing else
    assert seating("same") == seating("same")
