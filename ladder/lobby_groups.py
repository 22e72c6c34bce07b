"""The lobby's Channels groups and what is sent to them: the ``lobby`` group
of every lobby socket, each user's own group, and the ``game.started`` message
that sends players to a new game.

Tournaments and moderation send through these too. Messages hold ids only
(``lobby.changed``, ``challenge.changed``, ``game.started``): each socket then
loads what its own user may see.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from notify import live as notify_live

LOBBY_GROUP = "lobby"


def user_group(user_id: int) -> str:
    """The Channels group of every lobby socket of one user (tabs, devices):
    notify's, which its notices and "your turn" changes reach too."""
    return notify_live.user_group(user_id)


def send_to_group(group: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    send: Callable[[str, dict[str, Any]], Any] = async_to_sync(layer.group_send)
    send(group, message)


def send_to_groups(messages: Sequence[tuple[str, dict[str, Any]]]) -> None:
    """Many group messages in one trip to the event loop: async_to_sync costs a
    thread hand-off each time, which for a tournament round's thousand
    notices was most of the round's start (bench/tournaments.py)."""
    layer = get_channel_layer()
    if layer is None or not messages:
        return

    async def send_all() -> None:
        for group, message in messages:
            await layer.group_send(group, message)

    async_to_sync(send_all)()


def lobby_changed_on_commit() -> None:
    transaction.on_commit(lambda: send_to_group(LOBBY_GROUP, {"type": "lobby.changed"}))


def send_game_started(game_id: int, players: tuple[int, ...]) -> None:
    send_games_started([(game_id, players)])


def send_games_started(games: Sequence[tuple[int, tuple[int, ...]]]) -> None:
    """Each player of each game is sent to it, on whatever page they are."""
    send_to_groups(games_started_messages(games))


def games_started_messages(games: Sequence[tuple[int, tuple[int, ...]]]) -> list[tuple[str, dict[str, Any]]]:
    return [(user_group(pk), {"type": "game.started", "game": game_id})
            for game_id, players in games for pk in players]
