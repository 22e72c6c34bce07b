"""Building an action use by use (engine/rhombus/builder.py, issue 24) against the full list.

The builder never lists a position; each of its answers must be exactly what the
full list (``rules.legal``) implies: the card sets that have a legal action, every
legal action reachable use by use in the order of its canonical text and in any
other order the rules allow (RH11), nothing offered that cannot be completed, and
the canonical text (N1) of any outcome found without listing.
"""
from __future__ import annotations

import itertools
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import EngineError, IllegalAction, NotationError
from engine.rhombus import Action, State, apply, legal_actions, new_game, rules, step, view
from engine.rhombus.actions import card_order
from engine.rhombus.builder import NOTHING, canonical, card_sets, options, sets_and_firsts
from engine.rhombus.check import key_of
from engine.rhombus.rules import legal

from .test_formation import BLOCKED, NO_SW_PIECE, formation
from .test_search_oracle import reached, with_cards

KINDS = [(2, "classic"), (4, "classic"), (2, "formation"), (4, "formation")]


def cards_of(action: Action) -> tuple[str, ...]:
    return card_order(list(action.all_cards()))


def assert_sets_and_texts_are_the_lists(s: State) -> None:
    actions = legal_actions(s)
    assert set(card_sets(s)) == {cards_of(a) for a in actions}
    for a in actions:
        if a.kind == "uses":
            assert canonical(s, key_of(s, a)) == a.text


def assert_every_action_is_offered_use_by_use(s: State) -> None:
    for a in legal_actions(s):
        cards = cards_of(a)
        if a.kind != "uses":
            assert a.text in options(s, cards, []).actions, a.text
            continue
        done: list[str] = []
        for use in a.uses:
            offered = options(s, cards, done)
            assert use.text in offered.uses, (a.text, done)
            assert not done or not offered.actions  # whole actions only before the first use
            done.append(use.text)
        assert options(s, cards, done) == NOTHING  # every card used: nothing more to make


def walk_options(s: State, rng: random.Random, cards: tuple[str, ...]) -> str:
    """A random action built from the options alone: whole, or use after use."""
    offered = options(s, cards, [])
    if offered.actions and (not offered.uses or rng.random() < 0.3):
        return rng.choice(offered.actions)
    done: list[str] = []
    while offered.uses:
        done.append(rng.choice(offered.uses))
        offered = options(s, cards, done)
    return ", ".join(done)


@pytest.mark.parametrize("players, variant", KINDS)
def test_sets_canonical_texts_and_options_are_the_full_lists_on_seeded_positions(players: int, variant: str) -> None:
    rng = random.Random(f"builder-{players}-{variant}")
    checked = 0
    for seed in range(40):
        s = reached(players, variant, seed, rng.randrange(0, 60))
        assert_sets_and_texts_are_the_lists(s)
        if len(legal(s).actions) < 2000:
            assert_every_action_is_offered_use_by_use(s)
        checked += len(legal(s).actions)
    assert checked > 400


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(KINDS), st.integers(0, 2**32), st.integers(0, 80), st.randoms(use_true_random=False))
def test_whatever_the_options_build_is_legal_and_recorded_as_the_list_writes_it(
    kind: tuple[int, str], seed: int, plies: int, rng: random.Random,
) -> None:
    s = reached(*kind, seed, plies)
    sets = card_sets(s)
    if not sets:  # over (N12), or no legal action (RH26)
        assert legal(s).actions == ()
        return
    for _ in range(6):
        text = walk_options(s, rng, rng.choice(sets))
        after, played = step(s, text)  # searched towards its outcome, not listed
        key = key_of(s, Action.parse(text))
        assert played == legal(s).by_key[key] and after == apply(s, played)


@pytest.mark.parametrize("players, variant", KINDS)
def test_an_action_s_uses_in_any_order_the_rules_allow_are_offered_rh11(players: int, variant: str) -> None:
    rng = random.Random(f"orders-{players}-{variant}")
    tried = 0
    for seed in range(30 if variant == "classic" else 6):
        s = reached(players, variant, seed, rng.randrange(0, 40))
        for a in legal_actions(s):
            if a.kind != "uses" or len(a.uses) < 2:
                continue
            for order in itertools.permutations(a.uses):
                text = ", ".join(u.text for u in order)
                try:
                    if key_of(s, Action.parse(text)) != key_of(s, a):
                        continue
                except IllegalAction:
                    continue  # a use blocked in this order (RH11: legal when made)
                done: list[str] = []
                for use in order:
                    assert use.text in options(s, cards_of(a), done).uses, (text, done)
                    done.append(use.text)
                tried += 1
    assert tried > 8


FLUSHES = [("8H", "6H", "QH", "QH"), ("6S", "6S", "QS", "AS"), ("JH", "QH", "KH", "AH"), ("6C", "6C", "AC", "KC")]


@pytest.mark.parametrize("cards", FLUSHES)
def test_a_four_card_flush_is_built_and_recorded_without_its_list(cards: tuple[str, ...]) -> None:
    """The flushes whose full lists run to thousands of actions (issue 24): random actions
    built from the options are legal and their recorded texts are the list's."""
    rng = random.Random(" ".join(cards))
    s = with_cards(reached(2, "formation", 7, 30), cards)
    sets = card_sets(s)
    flush = card_order(list(cards))
    assert flush in sets
    built = [walk_options(s, rng, flush) for _ in range(15)]
    table = legal(s)  # listed once, to compare
    assert len(table.actions) > 500
    for text in built:
        key = key_of(s, Action.parse(text))
        assert canonical(s, key) == table.by_key[key].text


def test_no_piece_on_the_board_offers_bring_ins_and_discards_only_rh47() -> None:
    s = formation(NO_SW_PIECE, (["9H", "10H", "6C"], ["6C"]), reserve=(6, 3))
    assert card_sets(s) == (("6C",), ("9H",), ("10H",), ("6C", "6C"), ("9H", "10H"))
    assert options(s, ["9H"], []) == (("9H @a1",), ("discard 9H",))  # "9H 0" brings nothing in
    assert options(s, ["9H", "10H"], []) == (("10H 0", "9H @a1"), ("discard 9H, 10H",))
    assert options(s, ["9H", "10H"], ["10H 0"]).uses == ("9H @a1",)
    assert options(s, ["10H"], []) == ((), ("discard 10H",))


def test_pieces_but_no_legal_action_offers_the_one_card_discards_rh48() -> None:
    s = formation(BLOCKED, (["6C", "QD", "KH"], ["AS"]), reserve=(5, 2))
    assert card_sets(s) == (("6C",), ("QD",), ("KH",), ("AS",))
    assert options(s, ["QD"], []) == ((), ("discard QD",))
    assert options(s, ["6C", "QD"], []) == NOTHING


def test_what_cannot_be_built_is_offered_nothing_and_unreadable_uses_are_refused() -> None:
    s = new_game("demo")  # SW holds 8D 10S | KC
    assert options(s, ["QH"], []) == NOTHING  # not SW's card
    assert options(s, ["KC", "KC"], []) == NOTHING  # one KC only
    assert options(s, ["KC"], ["KC e4-e2"]) == NOTHING  # no SW piece there
    assert options(s, ["KC"], ["KC b1-b3"]) == NOTHING  # done: every card used
    with pytest.raises(NotationError):
        options(s, ["KC"], ["KC b1"])
    with pytest.raises(NotationError):
        options(s, ["ZZ"], [])
    with pytest.raises(NotationError):
        options(s, ["KC"], ["react AD AH AS"])


def test_the_live_view_has_the_sets_and_no_list() -> None:
    s = with_cards(reached(2, "formation", 7, 30), ("JH", "QH", "KH", "AH"))
    rules._LISTED.clear()  # other tests of this process may have listed it
    live = view(s, s.turn, listing=False)
    assert live.legal == () and "legal" not in live.to_json()
    assert live.to_json()["sets"] == [list(c) for c in card_sets(s)]
    assert rules.listed(s) is None  # nothing listed the position
    assert view(s, s.turn).to_json()["sets"] == live.to_json()["sets"]
    singles = [c for c in card_sets(s) if len(c) == 1]
    assert singles and live.to_json()["firsts"] == {  # a one-card action needs no question
        c[0]: {"uses": list(options(s, c, []).uses), "actions": list(options(s, c, []).actions)} for c in singles}
    assert "firsts" not in view(s, s.turn).to_json()
    other = [seat for seat in s.seats if seat != s.turn][0]
    assert view(s, other, listing=False).to_json()["sets"] == []  # a seat not to move sees no card set
    assert view(s, None, listing=False).to_json()["sets"] == []


def sets_then_options(s: State) -> tuple[object, object]:
    sets = card_sets(s)
    return sets, tuple((c[0], *options(s, c, [])) for c in sets if len(c) == 1)


@pytest.mark.parametrize("players, variant", KINDS)
def test_the_view_s_one_pass_is_card_sets_and_each_single_card_s_options(players: int, variant: str) -> None:
    """sets_and_firsts (the mover's view, one pass over the searches) says what card_sets and
    options say one card at a time, on positions of every phase and on RH47's and RH48's."""
    rng = random.Random(f"firsts-{players}-{variant}")
    positions = [reached(players, variant, seed, rng.randrange(0, 90)) for seed in range(40)]
    if variant == "formation":
        positions += [formation(NO_SW_PIECE, (["9H", "10H", "6C"], ["6C"]), reserve=(6, 3)),  # RH47
                      formation(BLOCKED, (["6C", "QD", "KH"], ["AS"]), reserve=(5, 2))]  # RH48
        positions += [with_cards(reached(players, variant, 7, 30), cards) for cards in FLUSHES]
    with_singles = 0
    for s in positions:
        assert sets_and_firsts(s) == sets_then_options(s)
        with_singles += bool(sets_and_firsts(s)[1])
    assert with_singles > len(positions) // 2


def played_or_refused(s: State, text: str, listed_first: bool) -> object:
    """What ``step`` says of ``text``: its state and canonical text, or its refusal (code, rule,
    message), from a position nobody listed, or one listed first."""
    rules._LISTED.clear()
    rules._STEPPED.clear()
    if listed_first:
        legal(s)
    try:
        after, played = step(s, text)
        return after, played.text
    except EngineError as error:
        return type(error).__name__, getattr(error, "code", None), getattr(error, "rule", None), str(error)


def near_misses(s: State, rng: random.Random) -> list[str]:
    """A few legal texts, legal texts with one square changed, and every one-card discard."""
    texts = [a.text for a in legal_actions(s)]
    out = rng.sample(texts, min(3, len(texts)))
    for text in rng.sample(texts, min(12, len(texts))):
        squares = list(re.finditer(r"[a-e][1-5]", text))
        if squares:
            at = rng.choice(squares)
            out.append(text[:at.start()] + rng.choice("abcde") + rng.choice("12345") + text[at.end():])
    out += [f"discard {c}" for c in sorted({c for a in legal_actions(s) for c in a.all_cards()})]
    return out


@pytest.mark.parametrize("players, variant", KINDS)
def test_a_position_nobody_listed_plays_and_refuses_exactly_as_a_listed_one(players: int, variant: str) -> None:
    """step() decides without the list where it can (the action's outcome searched for, RH48's
    discards by a search for any other action): same states, texts and refusals as with it."""
    rng = random.Random(f"refusals-{players}-{variant}")
    compared = 0
    for seed in range(15):
        s = reached(players, variant, seed, rng.randrange(0, 60))
        if not card_sets(s):
            continue
        for text in near_misses(s, rng):
            assert played_or_refused(s, text, False) == played_or_refused(s, text, True), text
            compared += 1
    assert compared > 100


def test_rh48_discards_are_decided_without_the_list() -> None:
    blocked = formation(BLOCKED, (["6C", "QD", "KH"], ["AS"]), reserve=(5, 2))
    assert played_or_refused(blocked, "discard QD", False) == played_or_refused(blocked, "discard QD", True)
    assert played_or_refused(blocked, "discard 6C, QD", False) == played_or_refused(blocked, "discard 6C, QD", True)
    open_board = reached(2, "formation", 3, 20)
    for card in sorted({c for a in legal_actions(open_board) for c in a.all_cards()}):
        refused = played_or_refused(open_board, f"discard {card}", False)
        assert refused == played_or_refused(open_board, f"discard {card}", True)
        assert refused[0] == "IllegalAction" and refused[2] in ("RH48", "N1")
