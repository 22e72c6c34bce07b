"""The 4-player team game (RH31-RH37): seats, set-up, friendly pieces, out players, the end.

Diagrams as on the rules page, rank 5 on top; ``S`` is a ``SW`` piece,
``E`` ``SE``, ``N`` ``NE`` and ``W`` ``NW``.  Teams are ``SW``+``NE`` and
``SE``+``NW``.
"""
from __future__ import annotations

import json

import pytest

from engine.errors import IllegalAction, PositionError
from engine.rhombus import Outcome, apply, from_json, legal_actions, new_game, outcome, seating, to_json, view
from engine.rhombus.cards import CARD_NAMES
from engine.rhombus.rules import next_dealer
from engine.shuffle import dealt_pack

from .positions import team_position, texts


def refused(s, text: str, rule: str, words: str = "") -> None:
    with pytest.raises(IllegalAction, match=words or None) as e:
        apply(s, text)
    assert e.value.rule == rule, str(e.value)


# -- RH31, RH32, RH8, RH9: seats, set-up, deal ---------------------------------


def test_rh31_rh32_rh8_the_start_of_a_team_game() -> None:
    s = new_game(7, players=4)
    assert s.seats == ("SW", "SE", "NE", "NW")
    assert s.pieces() == {
        "b1": "SW", "d1": "SE", "a2": "SW", "e2": "SE", "a4": "NW", "e4": "NE", "b5": "NW", "d5": "NE",
    }  # RH32: the white neighbours; the four start squares stay empty
    assert s.reserve == (2, 2, 2, 2) and s.eliminated == (0, 0, 0, 0) and s.out == (False,) * 4
    assert s.turn == "SW" and to_json(s)["dealer"] == "NW"  # RH9: NW deals, so SW starts
    pack = [CARD_NAMES[c] for c in dealt_pack(7)]
    for n, seat in enumerate(("SW", "SE", "NE", "NW")):  # RH8: in turn order from the first player
        assert s.table(seat) == pack[3 * n:3 * n + 2] and s.hand(seat) == pack[3 * n + 2:3 * n + 3]
    assert len(s.pile) == 24 and s.discard == ()  # RH32: 24 cards left in the pile


def test_rh9_rh31_the_player_after_the_dealer_starts_and_gets_the_first_cards() -> None:
    s = new_game(7, players=4, dealer="SE")
    pack = [CARD_NAMES[c] for c in dealt_pack(7)]
    assert s.turn == "NE" and s.table("NE") == pack[0:2] and s.hand("NE") == pack[2:3]
    assert s.table("NW") == pack[3:5] and s.table("SW") == pack[6:8] and s.table("SE") == pack[9:11]
    with pytest.raises(ValueError):
        new_game(7, players=4, dealer="N")


def test_rh31_play_goes_counter_clockwise_and_alternates_between_the_teams() -> None:
    s = new_game("order", players=4)
    turns = []
    for _ in range(5):
        turns.append(s.turn)
        s = apply(s, legal_actions(s)[0])
    assert turns == ["SW", "SE", "NE", "NW", "SW"]


def test_rh32_the_team_game_start_is_a_hand_counted_golden_position() -> None:
    # new_game("demo", players=4): SW on b1 a2 holds 8D 10S (table) and KC (hand), a1 empty.
    # KC, 2 steps (RH13): b1 -> b3 c2 (b1-c1-d1 ends on SE's d1; via a1 the next step is
    # a2, own); a2 -> b3 c2 (a2-a3-a4 ends on NW's a4).  10S 0, 8D mystery.  No pair.  6.
    s = new_game("demo", players=4)
    assert s.table("SW") == ["8D", "10S"] and s.hand("SW") == ["KC"]
    assert texts(s) == ["10S 0", "8D mystery", "KC a2-b3", "KC a2-c2", "KC b1-b3", "KC b1-c2"]


# -- RH33, RH12, RH16-RH18: partners' pieces are friendly -------------------------


PARTNER_BESIDE = """
. . . . W
. . . . .
. . . . .
. N E . .
. S . . .
"""


def test_rh33_a_partners_piece_blocks_and_is_never_killed_or_moved() -> None:
    # SW on b1 holds AH 7H and 9C, no reserve.  AH: a1, c1 (b2 holds partner NE).
    # AH+7H would kill only on an adjacent opponent: b2 is the partner's.  4 actions.
    s = team_position(PARTNER_BESIDE, {"SW": (["AH", "7H"], ["9C"])})
    assert texts(s) == ["7H 0", "9C 0", "AH b1-a1", "AH b1-c1"]
    refused(s, "AH+7H b1xb2", "RH12", "friendly")
    refused(s, "AH b2-b3", "RH33", "partner NE")
    refused(s, "AH c2-c3", "RH12")


MIXED_BLOCKADE = """
. . . . .
. . . . E
. N . W .
. S E . .
. . . . .
"""


def test_rh17_rh33_a_blockade_of_both_partners_protects_hand_counted() -> None:
    # SW on b2 holds AH 7H (table) and 9C (hand), 1 piece in reserve, a1 empty.
    # AH: a2, b1 (b3 partner, c2 opponent).  7H 0, 9C 0, 9C @a1.
    # AH+7H b2xc2 is not legal: SE c2, NW d3 and SE e4 are three pieces of one team on
    # consecutive squares of the diagonal c2 d3 e4, a blockade (RH17, RH33).  5 actions.
    s = team_position(MIXED_BLOCKADE, {"SW": (["AH", "7H"], ["9C"])}, reserve={"SW": 1})
    assert texts(s) == ["7H 0", "9C 0", "9C @a1", "AH b2-a2", "AH b2-b1"]
    refused(s, "AH+7H b2xc2", "RH17", "protected")
    # Without NW's d3 the line has a gap: the same position has the kill as a 6th action.
    gap = team_position(MIXED_BLOCKADE.replace("W", "."), {"SW": (["AH", "7H"], ["9C"])},
                        reserve={"SW": 1})
    assert len(texts(gap)) == 6 and "AH+7H b2xc2" in texts(gap)


def test_rh17_rh33_the_same_holds_for_the_other_team() -> None:
    # SE to move with AH 7H beside SW's c2; SW c2, NE d3 and SW e4 are a mixed blockade.
    diagram = """
. . . . .
. . . . S
. . . N .
. . S E .
. . . . W
"""
    s = team_position(diagram, {"SE": (["AH", "7H"], ["9C"])}, to_move="SE")
    assert not [t for t in texts(s) if "+" in t]
    refused(s, "AH+7H d2xc2", "RH17")


PARTNER_ON_START = """
. . . . .
. . . . .
. . . . .
. . E . .
N S . . W
"""


def test_rh18_rh33_a_partner_on_the_start_square_blocks_the_9() -> None:
    # SW has a reserve piece and holds 9D 10D; NE's piece stands on SW's start square a1.
    s = team_position(PARTNER_ON_START, {"SW": (["9D", "10D"], ["6S"])}, reserve={"SW": 1})
    assert [t for t in texts(s) if "9D" in t] == ["10D 0, 9D 0", "9D 0"]  # zero only (RH18)
    refused(s, "9D @a1", "RH18", "not empty")
    refused(s, "9D+10D @xa1", "RH18", "opponent")
    # With an opponent (NW) there instead, the Entry-Kill is legal.
    s = team_position(PARTNER_ON_START.replace("N S", "W S"), {"SW": (["9D", "10D"], ["6S"])},
                      reserve={"SW": 1})
    after = apply(s, "9D+10D @xa1")
    assert after.pieces()["a1"] == "SW" and after.eliminated == (0, 0, 0, 1)


def test_rh22_rh33_the_eliminator_moves_an_own_piece_onto_an_opponent_only() -> None:
    s = team_position(MIXED_BLOCKADE, {"SW": (["10C", "JC"], ["QC"])})
    after = apply(s, "elim 10C JC QC b2xc2")  # protected by the mixed blockade: still taken
    assert after.pieces()["c2"] == "SW" and after.eliminated == (0, 1, 0, 0)
    refused(s, "elim 10C JC QC b3xc2", "RH22", "own")  # the partner's piece is not SW's to lift
    refused(s, "elim 10C JC QC b2xb3", "RH22", "opponent")  # nor a target


# -- RH34: out players ---------------------------------------------------------------


LAST_PIECE = """
W . . . N
. . . . .
. . . . .
. . S E .
. . . . .
"""


def test_rh34_losing_the_last_piece_puts_a_player_out_and_the_reserve_is_lost() -> None:
    s = team_position(LAST_PIECE, {"SE": (["AH", "7H"], ["9C"])}, to_move="SE",
                      reserve={"SW": 1}, eliminated={"SW": 2})
    after = apply(s, "AH+7H d2xc2")
    assert after.out == (True, False, False, False)
    assert after.reserve[0] == 0 and after.eliminated[0] == 4  # 2 before, the piece, the reserve
    assert outcome(after) is None and after.turn == "NE"  # NE still has a piece: play goes on
    assert from_json(json.loads(json.dumps(to_json(after)))) == after
    assert to_json(after)["seats"]["SW"]["out"] is True


OUT_SW = """
W . . . .
. . . . .
. . N . .
. . . . .
. . . . E
"""


def out_sw(cards: tuple[list[str], list[str]]):
    return team_position(OUT_SW, {"SW": cards}, reserve={"NE": 1, "SE": 1},
                         eliminated={"SW": 4, "NE": 2})


def test_rh34_an_out_player_plays_the_partners_pieces_hand_counted() -> None:
    # SW is out; NE has c3 on the board, 1 in the reserve, e5 empty.  SW holds AS 9D (table), 9H.
    # AS moves NE's c3: b3 c2 c4 d3 (4).  Each 9: zero, or NE's reserve piece onto NE's start
    # square e5 (2 + 2).  No two cards pair (RH20), no flush.  8 actions.
    s = out_sw((["AS", "9D"], ["9H"]))
    assert s.out == (True, False, False, False)
    assert texts(s) == ["9D 0", "9D @e5", "9H 0", "9H @e5", "AS c3-b3", "AS c3-c2", "AS c3-c4", "AS c3-d3"]
    after = apply(s, "9D @e5")
    assert after.pieces()["e5"] == "NE" and after.reserve == (0, 1, 0, 0) and after.out[0]
    refused(s, "9D @a1", "RH34", "NE's start square e5")
    moved = apply(s, "AS c3-c4")
    assert moved.pieces() == {"a5": "NW", "c4": "NE", "e1": "SE"}


def test_rh34_an_out_players_reactivation_returns_the_partners_piece() -> None:
    s = out_sw((["AD", "AH"], ["AS"]))
    after = apply(s, "react AD AH AS")
    assert after.eliminated == (4, 0, 1, 0) and after.reserve == (0, 1, 2, 0)


def test_rh34_an_out_player_eliminates_with_the_partners_piece() -> None:
    # SE loses its only piece on the board and is out too; NW still plays, so the game goes on.
    s = out_sw((["10C", "JC"], ["QC"]))
    after = apply(s, "elim 10C JC QC c3xe1")
    assert after.pieces() == {"a5": "NW", "e1": "NE"}
    assert after.out == (True, True, False, False) and after.reserve[1] == 0 and after.eliminated[1] == 2
    assert outcome(after) is None and after.turn == "SE"  # RH34: an out player keeps their turns


def test_rh34_an_out_player_never_comes_back_with_own_pieces() -> None:
    s = out_sw((["AS", "9D"], ["9H"]))
    refused(s, "9D @a1", "RH34")
    assert all("@a1" not in t for t in texts(s))


# -- RH35: the end ---------------------------------------------------------------


def test_rh35_rh25_a_team_with_no_piece_on_the_board_loses() -> None:
    diagram = """
W . . . .
. . . . .
. . N . .
. . E . .
. . . . .
"""
    s = team_position(diagram, {"SE": (["AH", "7H"], ["9S"])}, to_move="SE", eliminated={"SW": 4, "NE": 3})
    after = apply(s, "AH+7H c2xc3")
    assert after.out == (True, False, True, False)
    assert outcome(after) == Outcome("SE+NW", ("SE", "NW"), "RH25")
    assert legal_actions(after) == []  # N12


def test_rh35_rh26_a_player_with_no_legal_action_loses_for_the_team() -> None:
    # SW's a1 is walled in by partner NE's b1 and a2, and SW cannot move those (RH33);
    # 6C, QD and AH form no combination.  NE could move, but it is SW's turn.
    diagram = """
. . . . .
. . W . .
. . . . .
N . . . .
S N . . E
"""
    s = team_position(diagram, {"SW": (["6C", "QD"], ["AH"])})
    assert legal_actions(s) == []
    assert outcome(s) == Outcome("SE+NW", ("SE", "NW"), "RH26")


# -- RH29, RH36: who sees what -----------------------------------------------------


def test_rh29_rh36_a_seat_sees_its_own_hand_only_not_the_partners() -> None:
    s = new_game("secret", players=4)
    for seat in s.seats:
        seen = view(s, seat).to_json()
        text = json.dumps(seen)
        assert seen["seats"][seat]["hand"] == s.hand(seat)
        for other in s.seats:
            if other != seat:
                assert "hand" not in seen["seats"][other] and seen["seats"][other]["hand_count"] == 1
                assert seen["seats"][other]["table"] == s.table(other)
                assert not set(s.hand(other)) & set(text.replace('"', " ").replace(",", " ").split())
        assert seen["pile_count"] == 24
    assert view(s, "SW").legal == tuple(legal_actions(s)) and view(s, "NE").legal == ()


# -- RH37, RH28: series ------------------------------------------------------------------


def test_rh37_the_winning_team_deals_next_the_first_of_it_after_the_dealer() -> None:
    s = new_game(1, players=4)  # NW dealt
    assert next_dealer(s, Outcome("SW+NE", ("SW", "NE"), "RH25")) == "SW"
    assert next_dealer(s, Outcome("SE+NW", ("SE", "NW"), "RH26")) == "SE"  # before NW itself
    assert next_dealer(s, Outcome(None, (), "RH27")) == "SW"  # a draw: the next seat
    s = new_game(1, players=4, dealer="SW")
    assert next_dealer(s, Outcome("SW+NE", ("SW", "NE"), "RH25")) == "NE"
    nxt = new_game(2, players=4, dealer=next_dealer(s, Outcome("SE+NW", ("SE", "NW"), "RH25")))
    assert to_json(nxt)["dealer"] == "SE" and nxt.turn == "NE"  # a loser moves first


def test_rh28_the_winner_deals_in_the_two_player_game() -> None:
    s = new_game(1)  # NE dealt
    assert next_dealer(s, Outcome("SW", ("SW",), "RH25")) == "SW"
    assert next_dealer(s, Outcome("NE", ("NE",), "RH25")) == "NE"
    assert next_dealer(s, Outcome(None, (), "RH27")) == "SW"


# -- position format ---------------------------------------------------------------


def test_position_format_for_four_players_round_trips() -> None:
    s = new_game("round trip", players=4)
    for _ in range(8):
        s = apply(s, legal_actions(s)[-1])
        data = to_json(s)
        assert list(data["seats"]) == ["SW", "SE", "NE", "NW"]
        assert from_json(json.loads(json.dumps(data))) == s
    shuffled_keys = dict(reversed(list(to_json(s)["seats"].items())))  # keys in any order
    assert from_json({**to_json(s), "seats": shuffled_keys}) == s


@pytest.mark.parametrize("change, message", [
    (lambda d: d["seats"].pop("NW"), "4 players"),
    (lambda d: d["seats"]["SE"].update(reserve=3), "pieces"),
    (lambda d: d["seats"]["SE"].update(out=True), "out must be false"),
    (lambda d: d["board"].pop("a4") and d["board"].pop("b5"), "out must be true"),
    (lambda d: d["pile"].pop(), "missing"),
])
def test_team_position_errors_say_what_is_wrong(change, message) -> None:
    """Position format (Cards, Pieces: 4 a player, RH32) and RH34's out flag."""
    data = to_json(new_game(3, players=4))
    change(data)
    with pytest.raises(PositionError, match=message):
        from_json(data)


def test_rh34_an_out_players_reserve_must_be_empty_in_a_position() -> None:
    data = to_json(out_sw((["AS", "9D"], ["9H"])))
    data["seats"]["SW"].update(reserve=1, eliminated=3)
    with pytest.raises(PositionError, match="reserve must be 0"):
        from_json(data)


def test_rh34_the_two_player_game_has_no_out_players() -> None:
    """RH34 is the team game's: a 2-player position's out flag changes nothing, as before stage 2."""
    data = to_json(new_game("two"))
    data["seats"]["SW"]["out"] = True
    s = from_json(data)
    assert texts(s) == texts(new_game("two"))
    assert apply(s, legal_actions(s)[0]).out == (True, False)


def test_rh9_the_first_seat_draw_for_four_players_is_a_seeded_permutation() -> None:
    drawn = seating("table 1", 4)
    assert sorted(drawn) == [0, 1, 2, 3] and seating("table 1", 4) == drawn
    assert len({seating(f"table {n}", 4) for n in range(20)}) > 1  # the seed decides


def test_rh24_rh32_a_team_game_reshuffles_and_keeps_its_24_cards_in_play() -> None:
    s = new_game("long", players=4)
    while s.reshuffles == 0 and outcome(s) is None:
        s = apply(s, legal_actions(s)[0])
    assert s.reshuffles == 1 and len(s.pile) + len(s.discard) == 24
