"""Formation, the extended variant for 2 or 4 players (RH41-RH49, N4-N6, N10-N12).

Golden positions are counted by hand from the rules page; the property tests
play random Formation games and check what must always hold.
"""
from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import IllegalAction, NotationError
from engine.rhombus import State, apply, from_json, legal_actions, new_game, outcome, to_json, view
from engine.rhombus.actions import Action
from engine.rhombus.cards import CARD_NAMES
from engine.rhombus.check import key_of
from engine.rhombus.rules import legal
from engine.shuffle import dealt_pack
from engine.rhombus.state import pieces_per_seat

from .positions import board


def formation(
    diagram: str,
    sw: tuple[list[str], list[str]],
    ne: tuple[list[str], list[str]] | None = None,
    reserve: tuple[int, int] = (0, 0),
    **extra: Any,
) -> State:
    """A 2-player Formation position; cards named nowhere go to the pile, in card order, twice over."""
    named = Counter(sw[0] + sw[1] + (ne[0] + ne[1] if ne else []))
    spare = [c for c in CARD_NAMES for _ in range(2 - named[c])]
    if ne is None:
        ne, spare = (spare[:3], spare[3:4]), spare[4:]
    data: dict[str, Any] = {
        "variant": "formation", "board": board(diagram),
        "seats": {
            "SW": {"table": sw[0], "hand": sw[1], "reserve": reserve[0]},
            "NE": {"table": ne[0], "hand": ne[1], "reserve": reserve[1]},
        },
        "pile": spare, "to_move": "SW", "seed_hex": b"test".hex(),
    }
    data.update(extra)
    return from_json(data)


def texts(s: State) -> list[str]:
    return [str(a) for a in legal_actions(s)]


# -- set-up and cards (RH41, RH42) -------------------------------------------


@pytest.mark.parametrize("players, pile", [(2, 64), (4, 56)])
def test_rh42_two_packs_three_table_cards_and_one_hand_card(players: int, pile: int) -> None:
    s = new_game(5, players=players, variant="formation")
    pack = dealt_pack(5, 2)
    assert sorted(pack) == sorted(list(range(36)) * 2)
    assert all(len(t) == 3 for t in s.tables) and all(len(h) == 1 for h in s.hands)
    assert len(s.pile) == pile
    # RH8: the first player (SW) gets cards 1-4, table first, then the next in turn order.
    assert s.tables[0] + s.hands[0] == pack[:4] and s.tables[1] + s.hands[1] == pack[4:8]
    # RH41: the board and reserves are those of the classic game.
    assert s.board == new_game(5, players=players).board and s.reserve == new_game(5, players=players).reserve


def test_rh42_a_position_holds_four_cards_and_the_double_pack() -> None:
    s = new_game(5, variant="formation")
    data = to_json(s)
    assert from_json(data) == s
    data["pile"] = data["pile"][1:]
    with pytest.raises(Exception, match="72-card double pack"):
        from_json(data)


# -- hand-counted golden positions ----------------------------------------------

NO_SW_PIECE = """
. . . N N
. . . . N
. . . . .
. . . . .
. . . . .
"""


def test_rh47_no_piece_on_the_board_bring_ins_and_discards_counted_by_hand() -> None:
    """RH47, N10: SW holds 9H 10H 6C | 6C with no piece on the board and a1 empty.

    Bring-ins: the 9 alone, and the pair 9-10 (the 10 a zero, N3).  Discards:
    each card (6C, 9H, 10H), the identical pair 6C 6C, and the pair shape
    9H 10H.  Nothing else: 6C with 9H or 10H is no pair, and no three cards
    form a flush or three of a kind.
    """
    s = formation(NO_SW_PIECE, (["9H", "10H", "6C"], ["6C"]), reserve=(6, 3))
    assert texts(s) == [
        "10H 0, 9H @a1", "9H @a1",
        "discard 10H", "discard 6C", "discard 6C, 6C", "discard 9H", "discard 9H, 10H",
    ]
    after = apply(s, "discard 6C, 6C")
    assert after.board == s.board and after.reserve == s.reserve and len(after.tables[0]) == 3
    assert [CARD_NAMES[c] for c in after.discard[:2]] == ["6C", "6C"]  # RH24: on the discard pile, unused
    with pytest.raises(IllegalAction) as e:
        apply(s, "10H 0")  # it leaves what "discard 10H" leaves, but a used action must bring a piece in
    assert e.value.rule == "RH47"


BLOCKED = """
. . . N N
. . . . .
. . . . .
N . . . .
S N . . .
"""


def test_rh48_no_legal_action_with_pieces_discards_one_card() -> None:
    """RH48: SW's only piece on a1 is boxed in by unprotected NE pieces on b1 and a2.

    Cards 6C QD KH | AS: four movers of four suits, no pair, flush or three of
    a kind, and no kill card, so nothing moves.  Exactly the four single
    discards are legal, and Formation does not end by RH26.
    """
    s = formation(BLOCKED, (["6C", "QD", "KH"], ["AS"]), reserve=(5, 2))
    assert texts(s) == ["discard 6C", "discard AS", "discard KH", "discard QD"]
    assert outcome(s) is None
    with pytest.raises(IllegalAction):
        apply(s, "discard 6C, QD")


def test_rh44_a_killed_piece_goes_back_to_its_owners_reserve() -> None:
    s = formation(BLOCKED, (["AH", "7H", "6C"], ["6D"]), reserve=(5, 2))
    after = apply(s, "AH+7H a1xa2")
    assert after.pieces()["a2"] == "SW" and after.reserve == (5, 3)
    assert after.eliminated == (0, 0) and after.quiet == 0 and after.out == (False, False)


ENTRY = """
. . . N N
. . . . N
. . . . .
. . . . .
N S . . .
"""


def test_rh46_the_entryliminator_takes_the_piece_on_the_start_square_protected_or_not() -> None:
    s = formation(ENTRY, (["9S", "JS", "QS"], ["KS"]), reserve=(5, 2))
    assert "entry 9S JS QS KS @xa1" in texts(s)
    after = apply(s, {"entryliminator": ["KS", "QS", "JS", "9S"], "to": "a1"})
    assert after.pieces()["a1"] == "SW" and after.reserve == (4, 3) and after.quiet == 0
    # With a1 free the same four cards are a flush or an Eliminator only (RH46, N11).
    free = formation(NO_SW_PIECE.replace(". . . . .\n. . . . .\n", ". . . . .\n. S . . .\n", 1),
                     (["9S", "JS", "QS"], ["KS"]), reserve=(5, 3))
    assert not [t for t in texts(free) if t.startswith("entry")]
    assert any(t.startswith("elim JS QS KS") for t in texts(free))
    with pytest.raises(IllegalAction) as e:
        apply(free, "entry 9S JS QS KS @xa1")
    assert e.value.rule == "RH46"


FORMING = """
. . . N N
. S . . N
. . S . .
. S . S .
. . . . .
"""


def test_rh43_a_formation_wins_at_once_before_the_quiet_rule() -> None:
    """RH43, N12: SW's AH c4-d4 completes the X b2 d2 c3 b4 d4; it wins even on the 100th quiet action."""
    s = formation(FORMING.replace(". S . . N", ". S S . N"), (["AH", "6C", "6D"], ["7C"]), reserve=(1, 3),
                  quiet=99)
    after = apply(s, "AH c4-d4")
    over = outcome(after)
    assert over is not None and (over.winner, over.reason) == ("SW", "RH43")
    assert legal_actions(after) == []


def test_rh49_a_team_formation_of_both_partners_pieces_wins_for_the_team() -> None:
    """RH43, RH49: SW's A d3-d4 completes c3 b4 (NE) with b2 d2 d4 (SW)."""
    data = to_json(new_game(9, players=4, variant="formation"))
    data["board"] = {"b2": "SW", "d2": "SW", "d3": "SW", "c3": "NE", "b4": "NE",
                     "d1": "SE", "e2": "SE", "a4": "NW", "b5": "NW"}
    for seat, reserve in (("SW", 1), ("NE", 2), ("SE", 2), ("NW", 2)):
        data["seats"][seat]["reserve"] = reserve
    ace = next(c for c in data["pile"] if c.startswith("A"))
    i = data["pile"].index(ace)
    data["pile"][i], data["seats"]["SW"]["table"][0] = data["seats"]["SW"]["table"][0], ace
    after = apply(from_json(data), f"{ace} d3-d4")
    over = outcome(after)
    assert over is not None and (over.winner, over.seats, over.reason) == ("SW+NE", ("SW", "NE"), "RH43")


def test_n4_two_eights_take_two_table_cards_in_card_order() -> None:
    """RH19, N4: two 8s from the hand with no table card played: T 2 -> 0, both table cards taken."""
    s = formation(BLOCKED, (["7D", "6C"], ["8H", "8H"]), reserve=(5, 2))
    assert "8H mystery 6C, 8H mystery 7D" in texts(s)
    after = apply(s, "8H mystery 6C, 8H mystery 7D")
    assert after.tables[0] == () and sorted(after.hand("SW")[:2]) == ["6C", "7D"] and len(after.hands[0]) == 4


def test_rh45_identical_pair_three_of_a_kind_and_four_card_flush_are_used() -> None:
    s = formation(FORMING, (["AH", "AH", "AS"], ["AD"]), reserve=(1, 3))
    found = texts(s)
    assert any(t.count("AH") == 2 and t.count(",") == 1 for t in found)  # identical pair, N6
    assert any(sorted(u.split()[0] for u in t.split(", ")) == ["AD", "AH", "AS"] for t in found)  # three of a kind
    flush = formation(FORMING, (["7H", "8H", "9H"], ["AH"]), reserve=(1, 3))
    assert any(t.count(",") == 3 for t in texts(flush))  # a 4-card flush, all used
    # N11: a 3-card flush may hold identical cards; the Q kills d5 (c3-c4-c5-d5) with the 7.
    twin = formation(FORMING, (["QH", "QH", "7H"], ["6C"]), reserve=(1, 3))
    assert any(t.startswith("QH+7H c3xd5, QH ") or ", QH+7H c3xd5" in t for t in texts(twin))
    with pytest.raises(IllegalAction) as e:
        apply(s, "react AD AH AS")
    assert e.value.rule == "RH45"
    with pytest.raises(IllegalAction) as e:
        apply(flush, "discard 7H")  # leaves what "7H 0" leaves, but RH48 discards only when nothing is legal
    assert e.value.rule == "RH48"


def test_n6_an_action_uses_the_table_copy_of_identical_cards() -> None:
    s = formation(FORMING, (["AH", "6C", "6D"], ["AH"]), reserve=(1, 3))
    after = apply(s, "AH b4-a4")
    assert after.hand("SW") == ["AH"] and len(after.tables[0]) == 3


def test_the_classic_game_refuses_formation_forms() -> None:
    s = new_game(1)
    with pytest.raises(IllegalAction):
        apply(s, "discard " + str(s.table("SW")[0]))
    with pytest.raises(NotationError):
        apply(s, "discard")


# -- properties over random Formation games ---------------------------------------

SLOW = settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def play(seed: int, players: int, plies: int) -> list[State]:
    rng = random.Random(seed)
    s, out = new_game(seed, players=players, variant="formation"), []
    for _ in range(plies):
        out.append(s)
        if outcome(s) is not None:
            break
        s = apply(s, rng.choice(legal_actions(s)))
    return out


def check_counts(s: State) -> None:
    n = len(s.seats)
    held = [c for i in range(n) for c in s.tables[i] + s.hands[i]]
    assert sorted(held + list(s.pile) + list(s.discard)) == sorted(list(range(36)) * 2)  # RH42
    assert all(len(s.tables[i]) + len(s.hands[i]) == 4 for i in range(n))
    for i in range(n):  # RH44: every piece is on the board or in the reserve
        assert s.board.count(i) + s.reserve[i] == pieces_per_seat(n) and s.eliminated[i] == 0


@pytest.mark.parametrize("players", [2, 4])
@SLOW
@given(st.integers(0, 2**32))
def test_random_formation_games_keep_cards_and_pieces_and_round_trip(players: int, seed: int) -> None:
    for s in play(seed, players, 40):
        check_counts(s)
        assert from_json(to_json(s)) == s
        if outcome(s) is None:
            assert 0 <= s.quiet < 100


@pytest.mark.parametrize("players, seed, reason", [(2, 3, "RH27"), (4, 3, "RH43")])
def test_random_formation_playouts_end(players: int, seed: int, reason: str) -> None:
    """RH27, RH43: these random games end (counted once, ply 181 and 141)."""
    end = play(seed, players, 400)[-1]
    over = outcome(end)
    assert over is not None and over.reason == reason


@pytest.mark.parametrize("players", [2, 4])
@SLOW
@given(st.integers(0, 2**32), st.randoms(use_true_random=False))
def test_refusals_change_nothing_and_views_leak_nothing(players: int, seed: int, rng: random.Random) -> None:
    for s in play(seed, players, 30)[::6]:
        before = to_json(s)
        for text in ("discard AS, AS, AS", "entry 9S JS QS KS @xa1", "react 6C 6D 6H", "AH a1-a1"):
            try:
                apply(s, text)
            except (IllegalAction, NotationError):
                pass
            assert to_json(s) == before
        # RH29: a seat's view is the same whatever the others' hand cards and the pile order.
        for i, seat in enumerate(s.seats):
            pile, hands = list(reversed(s.pile)), list(s.hands)
            for j in range(len(s.seats)):
                if j != i:
                    hands[j], pile = tuple(pile[:len(hands[j])]), pile[len(hands[j]):] + list(hands[j])
            other = s._replace(hands=tuple(hands), pile=tuple(pile))
            assert view(s, seat).to_json() == view(other, seat).to_json()
            assert "pile" not in view(s, seat).to_json()
        for a in random.Random(seed).sample(legal_actions(s), min(8, len(legal_actions(s)))):
            assert apply(s, a.to_json()) == apply(s, str(a))


@pytest.mark.parametrize("players", [2, 4])
@SLOW
@given(st.integers(0, 2**32))
def test_n1_each_listed_text_replayed_use_by_use_gives_its_listed_outcome(players: int, seed: int) -> None:
    """check.key_of (which reads any text) agrees with the search (which lists the canonical ones)."""
    for s in play(seed, players, 40)[::5]:
        table = legal(s)
        for text, key in table.by_text.items():
            assert key_of(s, Action.parse(text)) == key, text
            uses = Action.parse(text).uses
            if len(uses) > 1:  # N1: the same uses in another order are the same action
                turned = ", ".join(u.text for u in reversed(uses))
                try:
                    assert key_of(s, Action.parse(turned)) == key, turned
                except IllegalAction:
                    pass  # that order may cross a square another use needs (RH11)
