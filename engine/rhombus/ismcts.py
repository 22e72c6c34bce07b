"""The Rhombus search levels: ISMCTS on the fast playout code (issue 12).

Single-observer ISMCTS (Cowling, Powley and Whitehouse 2012), as
:func:`engine.bots.ismcts` plays Ace in the Hole, with what Rhombus needs:

- **Candidates.**  A Rhombus position has tens to hundreds of legal actions,
  far more than a search of a few hundred iterations can try; the root keeps
  the :data:`CANDIDATES` best by a static value (:func:`static_value`:
  material as the greedy level counts it, plus pieces protected by a
  blockade, RH17, and in Formation the progress towards an X, RH43), ties
  broken at random.
- **Iterations.**  Each deals the unseen cards afresh
  (:func:`engine.rhombus.determinize.sample`), picks a root action by UCB1
  (untried ones first, best static value first), plays it on a
  :class:`~engine.rhombus.fastplay.Sim`, and plays :data:`ROLLOUT_PLIES`
  more plies with :func:`rollout_move`: the best kill the mover has in that
  deal, else a random move.  So an action that leaves a piece where the
  opponent's cards (two of three are on the table, RH7) can kill it scores
  badly, which the greedy level never sees.
- **Reward.**  The exact result if the game ended, else the material
  (:func:`static_value`) squashed into [0, 1].

Moves are outcomes (:data:`engine.rhombus.fastplay.Move`), which depend only
on the mover's own cards and the board, so a root action is the same move
in every deal.  Budgets are iterations, so a seed gives one action on any
machine; ``seconds`` replaces them by a wall-clock budget.
"""
from __future__ import annotations

import math
import random
import time

from .actions import Action
from .cards import KILLERS, rank
from .determinize import sample
from .fastplay import Move, Sim, card_groups, ended, group_moves, play, random_move
from .moves import protected
from .rules import FORMATION_CENTRES, legal
from .state import EMPTY, FORMATION
from .view import View

CANDIDATES = 16
ROLLOUT_PLIES = 2
# How often a rollout side plays its best kill when it has one, rather than a random move.
KILL_RATE = 0.9
EXPLORATION = 0.5
ON_BOARD, IN_RESERVE, PROTECTED, FORMATION_STEP = 10.0, 4.0, 2.0, 3.0
WIN = 1000.0


def material(board: tuple[int, ...], reserve: tuple[int, ...], side: int) -> float:
    """Pieces on the board and in the reserve, ``side``'s minus the other side's (as the greedy level)."""
    value = 0.0
    for who in board:
        if who != EMPTY:
            value += ON_BOARD if who % 2 == side else -ON_BOARD
    for seat, n in enumerate(reserve):
        value += IN_RESERVE * n if seat % 2 == side else -IN_RESERVE * n
    return value


def static_value(board: tuple[int, ...], reserve: tuple[int, ...], side: int, variant: str) -> float:
    """``side``'s value of a position: material, blockades (RH17), Formation progress (RH43); ±WIN at RH25/RH43."""
    mine = [sq for sq, who in enumerate(board) if who != EMPTY and who % 2 == side]
    theirs = [sq for sq, who in enumerate(board) if who != EMPTY and who % 2 != side]
    if variant == FORMATION:
        best = {0: 0, 1: 0}
        for centre in FORMATION_CENTRES:
            for s in (0, 1):
                n = sum(1 for sq in (centre, centre - 6, centre - 4, centre + 4, centre + 6)
                        if board[sq] != EMPTY and board[sq] % 2 == s)
                best[s] = max(best[s], n)
        if best[side] == 5:
            return WIN
        if best[1 - side] == 5:
            return -WIN
        progress = FORMATION_STEP * (best[side] - best[1 - side])
    else:
        if not theirs:
            return WIN
        if not mine:
            return -WIN
        progress = 0.0
    guarded = sum(1 for sq in mine if protected(board, sq)) - sum(1 for sq in theirs if protected(board, sq))
    return material(board, reserve, side) + PROTECTED * guarded + progress


def _after(sim: Sim, move: Move) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The board and reserve ``move`` leaves; in Formation killed pieces are back in reserve (RH44)."""
    _, board, reserve, eliminated, _, _, _ = move
    if sim.variant == FORMATION:
        reserve = tuple(r + e - e0 for r, e, e0 in zip(reserve, eliminated, sim.eliminated))
    return board, reserve


def best_kill(sim: Sim) -> Move | None:
    """The mover's kill (RH16, RH18, RH22, RH46) leaving the best :func:`static_value`, or None."""
    side = sim.to_move % 2
    best: Move | None = None
    best_value = -math.inf
    for group in card_groups(sim):
        cards, _, elim, _, entry = group
        if not (elim or entry or (len(cards) > 1 and any(rank(c) in KILLERS for c in cards))):
            continue
        for move in group_moves(sim, group):
            if not any(e > e0 for seat, (e, e0) in enumerate(zip(move[3], sim.eliminated)) if seat % 2 != side):
                continue
            board, reserve = _after(sim, move)
            value = static_value(board, reserve, side, sim.variant)
            if value > best_value or (value == best_value and best is not None and move < best):
                best, best_value = move, value
    return best


def rollout_move(sim: Sim, rng: random.Random) -> Move | None:
    """The rollout policy: the best kill :data:`KILL_RATE` of the time, else a random move."""
    if rng.random() < KILL_RATE:
        kill = best_kill(sim)
        if kill is not None:
            return kill
    return random_move(sim, rng)


class _Child:
    __slots__ = ("move", "prior", "visits", "reward")

    def __init__(self, move: Move, prior: float) -> None:
        self.move, self.prior, self.visits, self.reward = move, prior, 0, 0.0


def _reward(sim: Sim, side: int) -> float:
    over = ended(sim)
    if over is not None:
        return 0.5 if over[0] is None else float(over[0] == side)
    value = static_value(sim.board, sim.reserve, side, sim.variant)
    if value >= WIN:
        return 1.0
    if value <= -WIN:
        return 0.0
    return 1.0 / (1.0 + math.exp(-value / 20.0))


def search(view: View, rng: random.Random, iterations: int | None,
           seconds: float | None = None) -> tuple[Action, int]:
    """ISMCTS from ``view`` for ``iterations`` (or ``seconds``); the most visited candidate and the count."""
    me = view.seats.index(view.to_move)
    side = me % 2
    first = sample(view, rng)
    by_key = legal(first).by_key
    by_text = {a.text: a for a in view.legal}
    base = Sim(first)
    ranked = sorted(by_key, key=lambda m: (-static_value(*_after(base, m), side, view.variant), rng.random()))
    children = [_Child(m, -i) for i, m in enumerate(ranked[:CANDIDATES])]
    total = 0
    deadline = time.perf_counter() + (seconds or 0.0)
    while True:
        if iterations is not None:
            if total >= iterations:
                break
        elif total > 0 and time.perf_counter() >= deadline:
            break
        child = _select(children, total)
        sim = Sim(sample(view, rng))
        play(sim, child.move)
        stuck: float | None = None
        for _ in range(ROLLOUT_PLIES):
            if ended(sim) is not None:
                break
            move = rollout_move(sim, rng)
            if move is None:  # RH26: the player to move has no action, and their side loses
                stuck = 0.0 if sim.to_move % 2 == side else 1.0
                break
            play(sim, move)
        child.visits += 1
        child.reward += _reward(sim, side) if stuck is None else stuck
        total += 1
    best = max(children, key=lambda c: (c.visits, c.reward / max(c.visits, 1), c.prior))
    return by_text[by_key[best.move].text], total


def _select(children: list[_Child], total: int) -> _Child:
    untried = [c for c in children if c.visits == 0]
    if untried:
        return max(untried, key=lambda c: c.prior)
    log_total = math.log(total)
    return max(children, key=lambda c: c.reward / c.visits + EXPLORATION * math.sqrt(log_total / c.visits))


__all__ = ["CANDIDATES", "ROLLOUT_PLIES", "best_kill", "material", "rollout_move", "search", "static_value"]
