"""Properties over random games (OpenSpiel's random_sim_test, hypothesis).

Random playouts always end; every state keeps the pack and the pieces
(position format, RH4, RH24); legal actions are sorted, unique and all
playable (N1, N14); a refused action names a rule and leaves the state as it
was; a seat's view never holds another seat's hand or the pile order
(RH29), the partner's included (RH36); positions and actions round-trip
through JSON.  Each property runs for 2 players and for the 4-player team
game (RH31-RH35), where out players (RH34) must match the board.
"""
from __future__ import annotations

import json
import random
import re
from typing import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import EngineError, NotationError
from engine.rhombus import Action, State, apply, from_json, legal_actions, outcome, to_json, view
from engine.rhombus.cards import ALL_SQUARES, CARD_NAMES, EIGHT, MOVERS, NINE, SQUARE_NAMES, START, rank
from engine.rhombus.check import key_of
from engine.rhombus.rules import legal
from engine.rhombus.moves import occupied, protected, targets
from engine.rhombus.search import (
    Play, Result, Search, Spec, entered, mover_moves, moved, mystery_choices, start_play, use_combinations,
)
from engine.rhombus.state import EMPTY, new_game, pieces_per_seat, plays_for

CARD_TOKEN = re.compile(r"(?<![0-9A-Za-z])(?:10|[6-9AJQK])[CDHS](?![0-9A-Za-z])")
SLOW = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])


PLAYERS = pytest.mark.parametrize("players", [2, 4])


def check_counts(s: State) -> None:
    n = len(s.seats)
    cards = [c for seat in range(n) for c in s.tables[seat] + s.hands[seat]] + list(s.pile) + list(s.discard)
    assert sorted(cards) == list(range(36))
    assert all(len(s.tables[i]) + len(s.hands[i]) == 3 for i in range(n))
    assert s.pile  # RH24: never empty between actions
    for seat in range(n):
        on_board = sum(1 for who in s.board if who == seat)
        assert on_board + s.reserve[seat] + s.eliminated[seat] == pieces_per_seat(n)
        if n == 4:  # RH34: out exactly when no own piece is on the board, and the reserve is lost
            assert s.out[seat] == (on_board == 0)
            assert not (s.out[seat] and s.reserve[seat])
        else:
            assert not s.out[seat]


def check_view(s: State) -> None:
    for me, name in enumerate(s.seats):
        text = json.dumps(view(s, name).to_json())
        seen = set(CARD_TOKEN.findall(text))
        others = [h for i, h in enumerate(s.hands) if i != me]  # the partner's hand too (RH36)
        secret = {CARD_NAMES[c] for h in others for c in h} | {CARD_NAMES[c] for c in s.pile}
        assert not seen & secret, (name, seen & secret)
        assert "seed" not in text or '"seed_hex": null' in text


def playout(seed: int, check_every: int = 1, players: int = 2) -> State:
    rng = random.Random(seed)
    s = new_game(seed, players=players)
    while (over := outcome(s)) is None:
        legal = legal_actions(s)
        texts = [str(a) for a in legal]
        assert texts == sorted(texts) and len(set(texts)) == len(texts)
        before = to_json(s)
        after = apply(s, rng.choice(legal))
        assert to_json(s) == before  # apply never changes its input
        assert after.ply == s.ply + 1 and after.to_move == (s.to_move + 1) % players  # RH10, RH31
        s = after
        if s.ply % check_every == 0:
            check_counts(s)
        assert s.ply < 5000
    assert legal_actions(s) == [] and over.reason in ("RH25", "RH26", "RH27")
    return s


@PLAYERS
@SLOW
@given(st.integers(0, 2**32))
def test_random_games_end_and_keep_cards_and_pieces(players: int, seed: int) -> None:
    """RH27 ends every game; RH4/RH24/RH32: the pack and the pieces are kept; RH34 out; N14 order."""
    s = playout(seed, players=players)
    over = outcome(s)
    assert over is not None and (over.winner is None or over.winner == "+".join(over.seats))


@PLAYERS
@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 60), st.randoms(use_true_random=False))
def test_a_refused_action_names_a_rule_and_leaves_the_state_unchanged(
    players: int, seed: int, plies: int, rng: random.Random,
) -> None:
    """A refusal ends with its rule, (RHnn) or (Nn), and the state is as before;
    a text that spells no action (the garbled card made "react 7C 7D 7H" into
    "6C 7C 7D 7H") may instead show the form to write, from the rules' Notation
    table, whose forms have no numbers."""
    s = new_game(seed, players=players)
    for _ in range(plies):
        if outcome(s) is not None:
            break
        s = apply(s, rng.choice(legal_actions(s)))
    if outcome(s) is not None:
        return
    text = str(rng.choice(legal_actions(s)))
    squares = re.findall(r"[a-e][1-5]", text)
    if squares:
        text = text.replace(squares[-1], rng.choice(SQUARE_NAMES))
    else:
        text = text.replace(text.split()[0].split("+")[0], rng.choice(CARD_NAMES), 1)
    before = to_json(s)
    try:
        after = apply(s, text)
    except NotationError as e:
        assert re.search(r"\((RH\d+|N\d+)\)$|: write '", str(e)), str(e)
    except EngineError as e:
        assert re.search(r"\((RH\d+|N\d+)\)$", str(e)), str(e)
    else:
        assert after.ply == s.ply + 1
    assert to_json(s) == before


@PLAYERS
@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 80), st.randoms(use_true_random=False))
def test_views_json_and_texts_round_trip(players: int, seed: int, plies: int, rng: random.Random) -> None:
    """RH29/RH36 views hide other hands and the pile; the position format and N1 texts round-trip."""
    s = new_game(seed, players=players)
    for _ in range(plies):
        if outcome(s) is not None:
            break
        check_view(s)
        assert from_json(json.loads(json.dumps(to_json(s)))) == s
        legal = legal_actions(s)
        for a in legal[:: max(1, len(legal) // 25)]:
            assert Action.parse(str(a)) == a  # the fast reader of canonical texts agrees with the parser
            assert str(Action.from_json(json.loads(json.dumps(a.to_json())))) == str(a)
        s = apply(s, rng.choice(legal))


@PLAYERS
@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 40), st.randoms(use_true_random=False))
def test_n1_the_uses_of_an_action_in_another_order_are_the_same_action(
    players: int, seed: int, plies: int, rng: random.Random,
) -> None:
    s = new_game(seed, players=players)
    for _ in range(plies):
        if outcome(s) is not None:
            return
        s = apply(s, rng.choice(legal_actions(s)))
    if outcome(s) is not None:
        return
    for a in legal_actions(s):
        if len(a.uses) > 1:
            uses = list(a.uses)
            rng.shuffle(uses)
            try:
                other = apply(s, ", ".join(u.text for u in uses))
            except EngineError:
                continue  # that order may break RH13, as a reversed pair of steps does
            assert other == apply(s, a)


def test_board_entries_are_seats_or_empty() -> None:
    """RH3, RH4: a square holds one seat's piece or nothing."""
    s = new_game(1)
    assert set(s.board) <= {EMPTY, 0, 1}


class NaiveSearch:
    """The search without its shortcuts: one state per visited set, always kept, nothing remembered,
    every order and walk (not :class:`Search`'s outcome sets, packed positions and cut visited sets)."""

    def __init__(self, me: int, start: int, specs: tuple[Spec, ...], taken: tuple[int, ...]) -> None:
        self.me, self.start, self.specs, self.taken = me, start, specs, taken
        self.eights = sum(1 << i for i, (c, _) in enumerate(specs) if rank(c) == EIGHT)

    def expand(self, spec: Spec, play: Play, left: int) -> Iterator[tuple[str, Play]]:
        card, kill = spec
        name = CARD_NAMES[card]
        if rank(card) in MOVERS:
            yield from self.moves(card, kill, play)
        elif rank(card) == NINE:  # RH18
            me, start = self.me, self.start
            if kill is None:
                yield f"{name} 0", play
            if play.reserve[me] > 0:
                who = play.board[start]
                if kill is None and who == EMPTY:
                    yield f"{name} @{SQUARE_NAMES[start]}", entered(play, me, start, False)
                elif kill is not None and who != EMPTY and who % 2 != me % 2 and not protected(play.board, start):
                    yield f"{name}+{CARD_NAMES[kill]} @x{SQUARE_NAMES[start]}", entered(play, me, start, True)
        elif rank(card) == EIGHT:  # RH19, N4: the taken cards go on the first 8s
            done = bin(self.eights & ~left).count("1")
            yield (f"{name} mystery {CARD_NAMES[self.taken[done]]}" if done < len(self.taken)
                   else f"{name} mystery"), play
        else:
            yield f"{name} 0", play

    def moves(self, card: int, kill: int | None, play: Play) -> Iterator[tuple[str, Play]]:
        free = ALL_SQUARES & ~occupied(play.board)
        final = targets(play.board, self.me % 2) if kill is not None else free
        head = f"{CARD_NAMES[card]}+{CARD_NAMES[kill]}" if kill is not None else CARD_NAMES[card]
        for frm in range(25):
            if play.board[frm] != self.me:
                continue
            for mask in play.visited(frm):
                for end, after in mover_moves(card, frm, mask, free, final):
                    text = f"{head} {SQUARE_NAMES[frm]}{'x' if kill is not None else '-'}{SQUARE_NAMES[end]}"
                    yield text, moved(play, frm, end, kill is not None, frozenset((after,)))

    def run(self, play: Play) -> dict[Result, str]:
        return self.explore((1 << len(self.specs)) - 1, play)

    def explore(self, left: int, play: Play) -> dict[Result, str]:
        if not left:
            return {(play.board, play.reserve, play.eliminated): ""}
        best: dict[Result, str] = {}
        for i, spec in enumerate(self.specs):
            if left >> i & 1:
                for text, after in self.expand(spec, play, left):
                    for out, suffix in self.explore(left & ~(1 << i), after).items():
                        full = f"{text}, {suffix}" if suffix else text
                        if out not in best or full < best[out]:
                            best[out] = full
        return best


def states_along(seed: int, plies: int, players: int = 2) -> list[State]:
    rng = random.Random(seed)
    s, out = new_game(seed, players=players), []
    for _ in range(plies):
        if outcome(s) is not None:
            break
        out.append(s)
        s = apply(s, rng.choice(legal_actions(s)))
    return out


@PLAYERS
@settings(max_examples=5, deadline=None)
@given(st.integers(0, 2**32))
def test_n1_the_search_shortcuts_change_no_outcome_and_no_text(players: int, seed: int) -> None:
    for s in states_along(seed, 40, players)[::4]:
        me = s.to_move
        owner = plays_for(s, me)  # RH34
        held = s.tables[me] + s.hands[me]
        for cards, ways in use_combinations(held):
            for taken in mystery_choices(cards, s.tables[me], s.hands[me]):
                for specs in ways:
                    start = START[s.seats[owner]]
                    fast = Search(owner, start, specs, taken).run(start_play(s))
                    slow = NaiveSearch(owner, start, specs, taken).run(start_play(s))
                    assert fast == slow


@PLAYERS
@settings(max_examples=5, deadline=None)
@given(st.integers(0, 2**32))
def test_n1_replaying_each_listed_text_gives_the_listed_outcome(players: int, seed: int) -> None:
    for s in states_along(seed, 60, players)[::3]:
        table = legal(s)
        for a in table.actions:
            assert key_of(s, a) == table.by_text[str(a)]


def out_player_states(seed: int, most: int) -> list[State]:
    """Up to ``most`` states of a random team game in which the player to act is out (RH34)."""
    rng = random.Random(seed)
    s, found = new_game(seed, players=4), []
    while outcome(s) is None and len(found) < most:
        if s.out[s.to_move]:
            found.append(s)
        s = apply(s, rng.choice(legal_actions(s)))
    return found


@pytest.mark.parametrize("seed", [0, 9, 10])  # random team games in which a player goes out
def test_rh34_out_players_actions_along_random_games(seed: int) -> None:
    """An out player's every listed action moves or brings in the partner's pieces only; N1 holds."""
    states = out_player_states(seed, 4)
    assert states, "this seed's game was chosen because a player goes out"
    for s in states:
        me, owner = s.to_move, plays_for(s, s.to_move)
        assert owner == (me + 2) % 4 and me not in s.board
        table = legal(s)
        for a in table.actions:
            after = apply(s, a)
            assert me not in after.board and after.out[me] and after.reserve[me] == 0
            assert all(u.enter in (None, SQUARE_NAMES[START[s.seats[owner]]]) for u in a.uses)
            assert key_of(s, a) == table.by_text[str(a)]
        held = s.tables[me] + s.hands[me]
        for cards, ways in use_combinations(held):
            for taken in mystery_choices(cards, s.tables[me], s.hands[me]):
                for specs in ways:
                    start = START[s.seats[owner]]
                    assert Search(owner, start, specs, taken).run(start_play(s)) == \
                        NaiveSearch(owner, start, specs, taken).run(start_play(s))
