"""The live bell and "your turn" list: what reaches a player's open pages.

Every signed-in page keeps one personal socket (the lobby socket, which joins
:func:`user_group`; static/js/notify.js). Two group messages reach it, neither
carrying a position or a card:

- ``notify.notice``: a stored notice (its kind, public params, link) and the
  reader's unread count, sent by :func:`deliver` after the notice commits;
  each socket words it in its own person's language (notify/texts.py).
- ``notify.turns``: "the games where it is your move changed"; each socket
  asks the registered turns provider (games/turns.py) for the new list.

Higher apps include :class:`NotifyConsumerMixin` in the consumer that joins the
user group; games registers its turns provider in its AppConfig.ready().
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from typing import Any, TypedDict

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.utils import translation

from notify import notices, texts
from notify.notices import Notice

NOTICE = "notify.notice"
TURNS = "notify.turns"


def user_group(user_id: int) -> str:
    """The Channels group of every personal socket of one user (tabs, devices)."""
    return f"user-{user_id}"


def turns_message() -> dict[str, Any]:
    return {"type": TURNS}


def turns_changed(user_ids: Iterable[int]) -> list[tuple[str, dict[str, Any]]]:
    """The group messages telling these users' pages to refresh their turns."""
    return [(user_group(user_id), turns_message()) for user_id in sorted(set(user_ids))]


# --- The "your turn" list: games provides it, notify only carries it --------


class TurnJSON(TypedDict):
    id: int
    url: str
    title: str
    opponents: list[str]
    correspondence: bool


TurnsProvider = Callable[[int], "list[TurnJSON]"]
_turns_providers: list[TurnsProvider] = []


def provide_turns(provider: TurnsProvider) -> None:
    """Register where a user's "your turn" games come from (registering twice is harmless)."""
    if provider not in _turns_providers:
        _turns_providers.append(provider)


def turns_of(user_id: int) -> list[TurnJSON]:
    return [turn for provider in _turns_providers for turn in provider(user_id)]


# --- Sending ------------------------------------------------------------------


def send(group: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(group, message)


def deliver(notice: Notice) -> None:
    """The site delivery (registered in NotifyConfig.ready): a stored notice
    reaches the player's open pages with their new unread count."""
    if notice.notification_id is None:  # the site channel is off for this kind
        return
    send(user_group(notice.user_id), {
        "type": NOTICE, "id": notice.notification_id, "kind": notice.kind, "params": notice.params,
        "url": notice.url, "unread": notices.unread_count(notice.user_id)})


# --- The consumer's side --------------------------------------------------------


class NotifyConsumerMixin:
    """For a consumer whose signed-in sockets join :func:`user_group`: turns
    the two group messages into the ``notification`` and ``turns`` frames
    (docs/protocol.md, "Notifications and your turn")."""

    language: str | None
    scope: dict[str, Any]
    # The consumer's own (AsyncJsonWebsocketConsumer): declared, not defined, so it is not shadowed.
    send_json: Callable[..., Awaitable[None]]

    async def notify_notice(self, event: dict[str, Any]) -> None:
        with translation.override(self.language or translation.get_language()):
            text = texts.describe(event["kind"], event["params"])
        await self.send_json({"type": "notification", "id": event["id"], "kind": event["kind"],
                              "title": text.title, "body": text.body, "url": event["url"],
                              "unread": event["unread"]})

    async def notify_turns(self, event: dict[str, Any]) -> None:
        await self.send_turns()

    async def send_turns(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            return
        turns = await database_sync_to_async(self._turns_in_language)(user.pk)
        await self.send_json({"type": "turns", "count": len(turns), "games": turns})

    async def send_bell(self) -> None:
        """The unread count, for a page whose socket came back after a break."""
        user = self.scope.get("user")
        if user is not None and user.is_authenticated:
            count = await database_sync_to_async(notices.unread_count)(user.pk)
            await self.send_json({"type": "bell", "unread": count})

    def _turns_in_language(self, user_id: int) -> list[TurnJSON]:
        with translation.override(self.language or translation.get_language()):
            return turns_of(user_id)
