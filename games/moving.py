"""A move: the seat to move plays an action at the ply it saw.

The game row is locked, the move checked and applied with the engine, the
clocks run and the result recorded when the rules end the game, all in one
transaction; a refusal raises :class:`games.refusals.Refusal` and leaves the
database as it was. Clients are told only that the game changed
(games.broadcast): each socket then loads its own seat's view, so hidden cards
never go through the channel layer.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

import engine
from games import broadcast, finishing, refusals, store
from games.models import FIRST_MOVE_WINDOW, TURN_RULE, Game
from games.refusals import Refusal, seat_title


# How Rhombus's rules name its endings (engine.rhombus.Outcome.reason).
RULE_REASONS = {"RH25": Game.Reason.NO_PIECES, "RH26": Game.Reason.NO_ACTION,
                "RH27": Game.Reason.QUIET, "RH43": Game.Reason.FORMATION}


def submit(game_id: int, user: Any, ply: int, action_text: str, *, session: store.SessionCheck | None = None) -> Game:
    """Play ``action_text`` for ``user`` at ``ply``, or raise :class:`games.refusals.Refusal`.

    ``ply`` is the ply the client saw: a mismatch means the client is behind
    (or replaying an old frame), so the action is refused, not guessed at.
    A websocket's move passes its ``session``, judged first thing.
    """
    try:
        return _submit(game_id, user, ply, action_text, session)
    except IntegrityError:
        # Only reachable if the row lock were bypassed: (game, ply) is unique.
        raise Refusal(gettext("ply %(ply)s has already been played") % {"ply": ply}) from None


def _submit(game_id: int, user: Any, ply: int, action_text: str, session: store.SessionCheck | None) -> Game:
    with transaction.atomic():
        game, seat = store.running_game_of(game_id, user, session)
        if ply != game.ply:
            raise Refusal(gettext("stale ply %(ply)s: the game is at ply %(current)s; resync and try again")
                          % {"ply": ply, "current": game.ply})
        if game.to_move != seat:
            raise Refusal(gettext("it is %(seat)s's turn (%(rule)s)")
                          % {"seat": seat_title(game.to_move), "rule": TURN_RULE[game.kind]})
        # Too late: aborted, or lost on time (R17, RH27).
        if finishing.abort_unstarted(game) or finishing.end_on_time(game):
            return game
        state, played = _apply(game, action_text)
        _record(game, state)
        store.save_move(game, ply, seat, played)
        store.keep_actions(game, ply, [{"seat": seat, "action": played}])  # the mover's view needs no query
        broadcast.notify_on_commit(game, mover=seat, moved=True)
        broadcast.turn_began(game)
        broadcast.moved(game)
    return game


def _apply(game: Game, action_text: str) -> tuple[Any, str]:
    """The state after the action, and the action as the record keeps it
    (canonical: Ace in the Hole's capture mark included, Rhombus's N1 form)."""
    try:
        return game.rules.play(game.rules.from_json(game.position), action_text)
    except engine.EngineError as error:  # IllegalAction names the rule; NotationError the format
        raise Refusal(refusals.describe(error)) from None


def _record(game: Game, state: Any) -> None:
    """Store the new state, run the clocks, and the result if the rules say it is over."""
    now = timezone.now()
    game.charge_clock(now, increment=True)
    game.position = dict(game.rules.to_json(state))
    game._parsed = (game.position, state)  # the mover's view reads it (state_of), not the JSON again
    game.ply = state.ply
    if game.abort_at is not None:  # a first move: the next seat's is due, or the clocks start
        started = game.ply >= game.players
        game.abort_at = None if started else now + FIRST_MOVE_WINDOW
        game.turn_started_at = now if started else None
    over = game.rules.outcome(state)
    if over is not None:
        game.finish(now, over.winner, RULE_REASONS.get(over.reason, over.reason), getattr(over, "score", None))
