"""Telling the watchers: the group messages that say a game changed, started or
ended, and the listeners other modules register for a new turn or an
accepted move.

A message carries no position at all (each socket loads its own seat's view),
so nothing hidden reaches the channel layer.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from games.models import Game
from notify import live as notify_live


def group_name(game_id: int) -> str:
    """The Channels group of everyone watching one game."""
    return f"game-{game_id}"


# Who hears of a game's news inside its transaction, registered in
# GamesConfig.ready() (registering twice is harmless):
# - "move", each accepted move (after it is recorded): games.notices queues the
#   correspondence "your turn" notice; it needs the Celery tasks, which import games.moving;
# - "turn", each turn that begins (a game started, a move accepted): games.botmoves
#   queues a bot's move when a bot is to move; it starts and submits games itself,
#   so the modules that do so cannot import it.
Listener = Callable[[Game], None]
_listeners: dict[str, list[Listener]] = {"move": [], "turn": []}


def listen_to_moves(listener: Listener) -> None:
    """Register ``listener(game)`` for every accepted move."""
    _listen("move", listener)


def listen_to_turns(listener: Listener) -> None:
    """Register ``listener(game)`` for every game started and every move accepted."""
    _listen("turn", listener)


def moved(game: Game) -> None:
    """Tell the move listeners of the move just recorded (games.moving)."""
    _tell("move", game)


def turn_began(game: Game) -> None:
    """Tell the turn listeners that ``game`` (started, or just moved) waits on its side to move."""
    _tell("turn", game)


def _listen(news: str, listener: Listener) -> None:
    if listener not in _listeners[news]:
        _listeners[news].append(listener)


def _tell(news: str, game: Game) -> None:
    for listener in _listeners[news]:
        listener(game)


def notify_on_commit(game: Game, kind: str = "game.changed", *, mover: str | None = None,
                      turns_for: list[int] | None = None, **extra: Any) -> None:
    """After commit, the game's sockets reload, and the players whose "your
    turn" list changed (``turns_for``, or worked out from the move) are told so
    on their personal sockets (notify.live)."""
    game_id, ply = game.pk, game.ply
    turns = notify_live.turns_changed(_turn_changed_for(game, mover) if turns_for is None else turns_for)

    def send() -> None:
        _send_to_groups([_game_message(game_id, ply, kind, **extra), *turns])

    transaction.on_commit(send)
    if not game.running:  # it leaves the live list (a rematch's offer says so again: harmless)
        announce_live([game_id])


def _turn_changed_for(game: Game, mover: str | None) -> list[int]:
    """The players who gained or lost the move: the mover and the next to move,
    or, when the game ended without a move, the one who had it. From the
    loaded seats: no query on the move path."""
    if mover is not None:
        seats = [mover, game.to_move] if game.running else [mover]
    elif not game.running:
        seats = [game.to_move]
    else:
        return []
    return [game.user_id_at(seat) for seat in dict.fromkeys(seats)]


# Every daphne process's live-games hub (games/watch.py) is one member of this
# group: told of each game that starts or ends, it re-reads that game's row.
# Moves are not sent here: a hub hears them through the groups of the games
# its sockets show, where the move's message goes anyway.
LIVE_GROUP = "games-live"


def announce_live(game_ids: list[int]) -> None:
    """After commit, tell the live-games hubs that these games started or ended."""
    transaction.on_commit(lambda: _send_to_groups([(LIVE_GROUP, {"type": "live.changed", "games": game_ids})]))


def notify(game_id: int, ply: int, kind: str = "game.changed", **extra: Any) -> None:
    """Tell every consumer of the game to reload its own view.

    The message carries no position at all, so nothing hidden can reach the
    channel layer (Redis) or the wrong socket. ``game.left`` (with the seat)
    also asks that seat's remaining sockets to say they are still there.
    """
    _send_to_groups([_game_message(game_id, ply, kind, **extra)])


def _game_message(game_id: int, ply: int, kind: str, **extra: Any) -> tuple[str, dict[str, Any]]:
    # "game" for the live-games hubs (games/watch.py), members of many games' groups.
    return group_name(game_id), {"type": kind, "game": game_id, "ply": ply, **extra}


def _send_to_groups(messages: list[tuple[str, dict[str, Any]]]) -> None:
    """Group messages now, in one call to the layer, or into this thread's
    outbox (held_notifications)."""
    outbox = getattr(_outboxes, "current", None)
    if outbox is not None:
        outbox.extend(messages)
        return
    layer = get_channel_layer()
    if layer is None:
        return
    async_to_sync(send_to_groups)(layer, [(group, message, None) for group, message in messages])


GroupSend = tuple[str, dict[str, Any], "str | None"]  # a group, its message, the channel it skips


async def send_to_groups(layer: Any, sends: list[GroupSend]) -> None:
    """Each ``(group, message, skipping)`` in order: in one round trip where
    the layer can (aceweb.layers.RedisChannelLayer.group_send_many), else one
    ``group_send`` each, skipping no one (an in-process layer's is cheap)."""
    many = getattr(layer, "group_send_many", None)
    if many is not None:
        await many(sends)
        return
    for group, message, _skipping in sends:
        await layer.group_send(group, message)


_outboxes = threading.local()


@contextlib.contextmanager
def held_notifications() -> Iterator[list[tuple[str, dict[str, Any]]]]:
    """Within this block, on this thread, ``notify`` collects its group
    messages (after commit, as always) into the yielded list instead of
    sending them; the caller sends them.

    For the websocket consumers, whose database work runs on pool threads:
    sending from their own event loop is cheaper than hopping back to it with
    async_to_sync, and cannot block on a loop that has stopped (see presence.arrive).
    """
    outbox: list[tuple[str, dict[str, Any]]] = []
    outer = getattr(_outboxes, "current", None)
    _outboxes.current = outbox
    try:
        yield outbox
    finally:
        _outboxes.current = outer
