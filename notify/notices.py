"""Sending a notification: the one entry point every app calls.

``send`` stores the notice (when the player wants it on the site) and, after
the transaction commits, hands it to each delivery registered here: the live
bell (notify/live.py), web push (notify/push.py). E-mail is not per notice: it is
a daily digest and clock warnings, sent by Celery beat (notify/mail.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from notify.models import Channel, Notification, channels_of


@dataclass(frozen=True)
class Notice:
    """What a delivery is handed: one notice for one player, after commit."""

    user_id: int
    kind: str
    key: str
    params: dict[str, Any] = field(default_factory=dict)
    url: str = ""
    notification_id: int | None = None  # the stored row, when the site channel is on
    channels: dict[str, bool] = field(default_factory=dict)


Delivery = Callable[[Notice], None]
_deliveries: list[Delivery] = []


def deliver_with(delivery: Delivery) -> None:
    """Register a delivery (registering twice is harmless)."""
    if delivery not in _deliveries:
        _deliveries.append(delivery)


def send(user_id: int, kind: str, key: str, params: dict[str, Any] | None = None, url: str = "") -> Notice:
    """Tell ``user_id`` about ``key``. ``params`` must be public or the
    recipient's own: they reach the page, the push service and the mail."""
    channels = channels_of(user_id, kind)
    notification_id = None
    if channels[Channel.SITE]:
        # An unread notice of the same kind and key is replaced, not repeated.
        Notification.objects.filter(user_id=user_id, kind=kind, key=key, read=False).delete()
        notification_id = Notification.objects.create(
            user_id=user_id, kind=kind, key=key, params=params or {}, url=url).pk
    notice = Notice(user_id, kind, key, params or {}, url, notification_id, channels)
    transaction.on_commit(lambda: _deliver(notice))
    return notice


def _deliver(notice: Notice) -> None:
    for delivery in _deliveries:
        delivery(notice)
