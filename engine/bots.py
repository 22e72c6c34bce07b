"""Computer opponents that see only their own seat (R18).

A bot is a function of a :class:`~engine.ace.view.View`: :func:`choose` refuses
anything else, so it cannot be handed a full state by mistake.  Levels, from
weakest to strongest, are in :data:`LEVELS`:

- ``random``: a uniformly random legal action.
- ``greedy``: one ply ahead.  Each action is scored by the points it takes
  (a capture, or a release that takes a pawn back from the opponent's captured
  area, R12) minus the points it leaves in danger: for each of its pawns, the
  chance that the opponent's hand holds a card that captures it next turn,
  given the opponent's unseen cards, times its worth (an Ace whose partner is
  already captured is worth the game, R15).
- ``ismcts-1`` … ``ismcts-3``: information-set Monte Carlo tree search
  (single-observer ISMCTS, Cowling, Powley and Whitehouse 2012).  Every
  iteration deals the unseen cards afresh (:func:`engine.ace.determinize.sample`),
  walks one shared tree of actions with UCB restricted to the actions legal
  in that deal (at the root, biased towards the greedy level's choice), and
  finishes the game with a fast playout (:mod:`engine.ace.fastplay`) that
  prefers captures (:func:`playout_move`).

Every level is deterministic for a given ``seed``: the search budgets are
counted in iterations, never in time, so the same seed gives the same action
on any machine.  ``seconds=`` switches the search to a time budget (the
arena's "1 second per move"); that is not reproducible.
"""
from __future__ import annotations

import math
import random
import time
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Generic, TypeVar, overload

from .ace.actions import Action
from .ace.cards import ACES, CAPTURED, CARD_INDEX, POINTS, SEATS, SIDE_PAWNS
from .ace.determinize import Dealer, unseen
from .ace.fastplay import (
    FAST, Move, Sim, aces_down, best_capture, card_moves, legal_moves, play, points, result,
    to_action,
)
from .ace.moves import CARD_PAWNS, HOME_BIT, IS_FACE
from .ace.view import View
from .rhombus import Action as RhombusAction
from .rhombus import State as RhombusState
from .rhombus import View as RhombusView
from .rhombus import apply as rhombus_apply
from .rhombus.determinize import sample as rhombus_sample
from .rhombus.ismcts import search as rhombus_search

A = TypeVar("A", Action, RhombusAction)

# Iterations per move for each search level.
ISMCTS_ITERATIONS = {"ismcts-1": 200, "ismcts-2": 1000, "ismcts-3": 4000}

LEVELS: tuple[str, ...] = ("random", "greedy", *ISMCTS_ITERATIONS)
LEVEL_LABELS: dict[str, str] = {
    "random": "Level 1 (random moves)",
    "greedy": "Level 2 (greedy, one move ahead)",
    **{
        level: f"Level {i + 3} (search, {n} iterations)"
        for i, (level, n) in enumerate(ISMCTS_ITERATIONS.items())
    },
}

# UCB exploration constant for rewards in [0, 1].
EXPLORATION = 0.7
# How much of a playout's reward is the score margin rather than the result.
MARGIN_WEIGHT = 0.2
MAX_POINTS = sum(POINTS[p] for p in SIDE_PAWNS[0])  # 150: a side's whole army
# Visits after which the greedy prior at the root counts half (progressive bias).
PRIOR_VISITS = 10
# In playouts, how often a side ignores its best capture and plays at random.
PLAYOUT_NOISE = 0.25


@dataclass(frozen=True, slots=True)
class Decision(Generic[A]):
    """A bot's action, with what the search spent on it (iterations 0 for no search)."""

    action: A
    iterations: int
    seconds: float


@overload
def choose(view: View, level: str, *, seed: int | str, seconds: float | None = None) -> Action: ...
@overload
def choose(view: RhombusView, level: str, *, seed: int | str,
           seconds: float | None = None) -> RhombusAction: ...
def choose(view: View | RhombusView, level: str, *, seed: int | str,
           seconds: float | None = None) -> Action | RhombusAction:
    """The action the bot of ``level`` plays in ``view`` (its own seat's view).

    Raises TypeError unless ``view`` is a :class:`View`, ValueError for an
    unknown level or a view whose seat is not to move.  ``seconds`` (above 0)
    replaces a search level's iterations by a wall-clock budget, checked every
    8 iterations: not reproducible.  The random and greedy levels ignore it.

    >>> import engine
    >>> v = engine.view(engine.new_game(42), "red")
    >>> choose(v, "greedy", seed=1) == choose(v, "greedy", seed=1)
    True
    >>> choose(engine.new_game(42), "greedy", seed=1)
    Traceback (most recent call last):
    ...
    TypeError: a bot sees only its seat's engine.View, not State
    """
    return decide(view, level, seed=seed, seconds=seconds).action


@overload
def decide(view: View, level: str, *, seed: int | str,
           seconds: float | None = None) -> Decision[Action]: ...
@overload
def decide(view: RhombusView, level: str, *, seed: int | str,
           seconds: float | None = None) -> Decision[RhombusAction]: ...
def decide(view: View | RhombusView, level: str, *, seed: int | str,
           seconds: float | None = None) -> Decision[Action] | Decision[RhombusAction]:
    """Like :func:`choose`, with the search's iteration count and time."""
    if not isinstance(view, (View, RhombusView)):
        raise TypeError(f"a bot sees only its seat's engine.View, not {type(view).__name__}")
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}: one of {', '.join(LEVELS)}")
    if view.seat is None or view.outcome is not None or view.to_move != view.seat or not view.legal:
        raise ValueError(f"it is not {view.seat or 'a spectator'}'s turn to move in this view")
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise TypeError(f"a bot's seed is an int or str, not {type(seed).__name__}")
    if seconds is not None and not seconds > 0:
        raise ValueError(f"a bot's time budget is a number of seconds above 0, not {seconds!r}")
    rng = random.Random(f"{level}/{seed}/{view.ply}")
    start = time.perf_counter()
    if isinstance(view, RhombusView):
        return _rhombus_decide(view, level, rng, seconds, start)
    if len(view.legal) == 1:
        return Decision(view.legal[0], 0, time.perf_counter() - start)
    if level == "random":
        return Decision(view.legal[rng.randrange(len(view.legal))], 0, time.perf_counter() - start)
    if level == "greedy":
        return Decision(greedy(view, rng), 0, time.perf_counter() - start)
    budget = ISMCTS_ITERATIONS[level]
    action, iterations = ismcts(view, rng, budget if seconds is None else None, seconds)
    return Decision(action, iterations, time.perf_counter() - start)


# --- greedy -------------------------------------------------------------------------

def _sim_of(view: View) -> Sim:
    """The view's board with the seat's own hand; the other hand and decks left empty."""
    me = SEATS.index(view.to_move)
    hands: list[list[int]] = [[], []]
    hands[me] = [CARD_INDEX[c] for c in view.hand or ()]
    return Sim(list(view.where), hands, [[], []], me)


def _capture_squares(sim: Sim, card: int, side: int) -> int:
    """Mask of ``1 - side``'s pawns that ``card`` (of ``side``) could capture now."""
    where = sim.where
    own = sim.occ[side]
    theirs = sim.occ[1 - side]
    occ = own | theirs
    hits = 0
    for pawn in CARD_PAWNS[card]:
        sq = where[pawn]
        if sq >= 0:
            for path, bit, _ in FAST[card][sq]:
                if theirs & bit and not occ & path:
                    hits |= bit
        elif sq == CAPTURED and IS_FACE[card] and theirs & HOME_BIT[pawn]:
            hits |= HOME_BIT[pawn]
    return hits


def _holds_one(pool: int, good: int, hand: int) -> float:
    """Chance that ``hand`` cards drawn from ``pool`` include one of ``good`` cards."""
    if good <= 0 or hand <= 0:
        return 0.0
    if pool - good < hand:
        return 1.0
    return 1.0 - math.comb(pool - good, hand) / math.comb(pool, hand)


def _danger(sim: Sim, side: int, threats: list[int], hand: int) -> float:
    """Expected points ``side`` loses to the opponent's next move (its best capture)."""
    where = sim.where
    aces_left = sum(1 for a in ACES[side] if where[a] >= 0)
    masks = [_capture_squares(sim, card, 1 - side) for card in threats]
    worst = 0.0
    for pawn in SIDE_PAWNS[side]:
        sq = where[pawn]
        if sq < 0:
            continue
        bit = 1 << sq
        good = sum(1 for m in masks if m & bit)
        if not good:
            continue
        worth = POINTS[pawn]
        if pawn in ACES[side] and aces_left == 1:
            worth = 400  # the second Ace lost ends the game (R15)
        worst = max(worst, worth * _holds_one(len(threats), good, hand))
    return worst


def greedy_values(view: View) -> list[tuple[Move, Action, float]]:
    """Every legal action with its one-ply value in points (see the module docstring)."""
    me = SEATS.index(view.to_move)
    base = _sim_of(view)
    threats = unseen(view, 1 - me)
    their_hand = view.hand_counts[1 - me]
    by_text = {a.text: a for a in view.legal}
    before = points(base.where, me) - points(base.where, 1 - me)
    out = []
    for move in legal_moves(base):
        action = by_text[to_action(base, move).text]
        sim = base.copy()
        play(sim, move)
        gained = points(sim.where, me) - points(sim.where, 1 - me) - before
        if all(sim.where[a] == CAPTURED for a in ACES[1 - me]):
            gained += 200  # they lose at once unless they hold an Ace to release (R15)
        out.append((move, action, gained - _danger(sim, me, threats, their_hand)))
    return out


def greedy(view: View, rng: random.Random) -> Action:
    """The one-ply greedy choice; ties broken by ``rng``."""
    values = greedy_values(view)
    top = max(value for _, _, value in values)
    best = sorted((a for _, a, value in values if value > top - 1e-9), key=lambda a: a.order)
    return best[rng.randrange(len(best))]


# --- ISMCTS -------------------------------------------------------------------------

Key = TypeVar("Key", bound=Hashable)


class Node(Generic[Key]):
    """A tree node: the action into it was made by ``side``; rewards are ``side``'s.
    Children are keyed by Ace's packed moves or Rhombus's action texts."""

    __slots__ = ("side", "children", "visits", "reward", "available")

    def __init__(self, side: int) -> None:
        self.side = side
        self.children: dict[Key, Node[Key]] = {}
        self.visits = 0
        self.reward = 0.0
        self.available = 1


def ismcts(view: View, rng: random.Random, iterations: int | None,
           seconds: float | None) -> tuple[Action, int]:
    """Search ``iterations`` times (or for ``seconds``); the most visited root action."""
    me = SEATS.index(view.to_move)
    root: Node[Move] = Node(1 - me)
    # Progressive bias: the greedy value of each root action, fading with visits.
    prior = {move: max(-1.0, min(1.0, value / 100)) for move, _, value in greedy_values(view)}
    dealer = Dealer(view)
    base = Sim(list(view.where), [[], []], [[], []], me)
    done = 0
    deadline = time.perf_counter() + (seconds or 0.0)
    while True:
        if iterations is not None:
            if done >= iterations:
                break
        elif done % 8 == 0 and time.perf_counter() >= deadline and done > 0:
            break
        _iterate(root, _dealt(base, dealer, rng), rng, prior)
        done += 1
    by_text = {a.text: a for a in view.legal}
    ranked = sorted(root.children.items(), key=lambda kv: (-kv[1].visits, kv[0]))
    return by_text[to_action(base, ranked[0][0]).text], done


def _dealt(base: Sim, dealer: Dealer, rng: random.Random) -> Sim:
    """``base`` (the view's board) with the hidden cards dealt afresh."""
    sim = base.copy()
    hands, decks = dealer.deal(rng)
    sim.hands = [list(hands[0]), list(hands[1])]
    sim.decks = [list(reversed(decks[0])), list(reversed(decks[1]))]
    return sim


def _iterate(root: Node[Move], sim: Sim, rng: random.Random, prior: dict[Move, float]) -> None:
    """One ISMCTS iteration on ``sim``, a fresh deal: select, expand, play out, back up.

    At the root, untried actions are tried best ``prior`` first, and UCB adds
    the prior weighted by PRIOR_VISITS / (PRIOR_VISITS + visits).
    """
    node = root
    path = [root]
    log = math.log
    sqrt = math.sqrt
    while result(sim) is None:
        moves = legal_moves(sim)
        children = node.children
        side = sim.to_move
        untried = [m for m in moves if m not in children]
        if untried:
            if node is root:
                move = max(untried, key=prior.__getitem__)
            else:
                move = untried[rng.randrange(len(untried))]
            child: Node[Move] = Node(side)
            children[move] = child
            for m in moves:
                if m in children:
                    children[m].available += 1
            play(sim, move)
            path.append(child)
            break
        best_value = -math.inf
        best: Node[Move] | None = None
        best_move = moves[0]
        for m in moves:
            c = children[m]
            c.available += 1
            value = c.reward / c.visits + EXPLORATION * sqrt(log(c.available) / c.visits)
            if node is root:
                value += prior[m] * PRIOR_VISITS / (PRIOR_VISITS + c.visits)
            if value > best_value:
                best_value, best, best_move = value, c, m
        assert best is not None
        play(sim, best_move)
        node = best
        path.append(node)
    red_reward = _playout(sim, rng)
    for n in path[1:]:
        n.visits += 1
        n.reward += red_reward if n.side == 0 else 1.0 - red_reward
    root.visits += 1


def _playout(sim: Sim, rng: random.Random) -> float:
    """Play ``sim`` to the end; Red's reward.  See :func:`playout_move` for the policy."""
    while (winner := result(sim)) is None:
        play(sim, playout_move(sim, rng))
    margin = (points(sim.where, 0) - points(sim.where, 1)) / (2 * MAX_POINTS) + 0.5
    won = 0.5 if winner == 2 else (1.0 if winner == 0 else 0.0)
    return (1 - MARGIN_WEIGHT) * won + MARGIN_WEIGHT * margin


def playout_move(sim: Sim, rng: random.Random) -> Move:
    """The playout policy: the most valuable capture three times in four, else a
    random card of the hand and a random move of it (a burn if it has none)."""
    rand = rng.random
    if aces_down(sim):
        moves = legal_moves(sim)  # R15: Ace releases only
        return moves[int(rand() * len(moves))]
    if rand() >= PLAYOUT_NOISE:
        capture = best_capture(sim)
        if capture is not None:
            return capture
    hand = sim.hands[sim.to_move]
    card = hand[int(rand() * len(hand))]
    moves = card_moves(sim, card)
    return moves[int(rand() * len(moves))] if moves else (card, -1, -1)


# --- Rhombus -----------------------------------------------------------------------
#
# The same levels through the same functions, on a Rhombus view.  The search
# levels run engine.rhombus.ismcts (on engine.rhombus.fastplay): a root of the
# best candidates by static value, short rollouts that take the best kill, and
# the position scored where they stop. 480 iterations take about 0.12 s a move
# (ismcts-3 at 480 beat greedy in 184 of 200 games, 151 of 200 in teams;
# docs/engine.md).
RHOMBUS_ITERATIONS = {"ismcts-1": 24, "ismcts-2": 120, "ismcts-3": 480}
# Material weights: a piece on the board, a piece in the reserve (RH25 counts
# only the board; a reserve piece can still come in, so it is worth something).
ON_BOARD = 10.0
IN_RESERVE = 4.0
WIN = 1000.0


def _side_alive(board: tuple[int, ...], side: int) -> bool:
    return any(who >= 0 and who % 2 == side for who in board)


def rhombus_score(s: RhombusState, side: int) -> float:
    """Material from ``side``'s point of view: pieces on the board and in reserve,
    its own minus the other side's; a side with no piece on the board has lost (RH25).

    Formation has no RH25 loss (RH47), so there only the material counts.
    """
    players = len(s.seats)
    if s.variant != "formation":
        if not _side_alive(s.board, 1 - side):
            return WIN
        if not _side_alive(s.board, side):
            return -WIN
    value = 0.0
    for seat in range(players):
        sign = 1.0 if seat % 2 == side else -1.0
        on_board = sum(1 for who in s.board if who == seat)
        value += sign * (ON_BOARD * on_board + IN_RESERVE * s.reserve[seat])
    return value


def _rhombus_decide(view: RhombusView, level: str, rng: random.Random, seconds: float | None,
                    start: float) -> Decision[RhombusAction]:
    if len(view.legal) == 1 or level == "random":
        return Decision(view.legal[rng.randrange(len(view.legal))], 0, time.perf_counter() - start)
    if level == "greedy":
        return Decision(rhombus_greedy(view, rng), 0, time.perf_counter() - start)
    budget = RHOMBUS_ITERATIONS[level]
    action, done = rhombus_search(view, rng, budget if seconds is None else None, seconds)
    return Decision(action, done, time.perf_counter() - start)


def rhombus_greedy_values(view: RhombusView, rng: random.Random) -> list[tuple[RhombusAction, float]]:
    """Every legal action with the material it leaves (:func:`rhombus_score`).

    The action's effect on the board and reserves depends only on the
    mover's own cards, so one sampled state serves for all actions; the
    refill it draws is not scored.
    """
    s = rhombus_sample(view, rng)
    side = s.to_move % 2
    return [(a, rhombus_score(rhombus_apply(s, a), side)) for a in view.legal]


def rhombus_greedy(view: RhombusView, rng: random.Random) -> RhombusAction:
    """The action leaving the best material; ties broken by ``rng``."""
    values = rhombus_greedy_values(view, rng)
    top = max(value for _, value in values)
    best = sorted((a for a, value in values if value > top - 1e-9), key=lambda a: a.text)
    return best[rng.randrange(len(best))]


__all__ = ["Decision", "LEVELS", "LEVEL_LABELS", "RHOMBUS_ITERATIONS", "choose", "decide", "playout_move",
           "rhombus_greedy", "rhombus_score"]
