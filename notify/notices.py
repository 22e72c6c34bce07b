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
from django.db.models import Case, IntegerField, Sum, Value, When, Window

from notify.models import Channel, Notification, channels_of

# Stored notices kept per player: the latest this many (lichess keeps a few
# weeks' worth); older ones go as new ones come.
KEEP = 100


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
        _prune(user_id)
    notice = Notice(user_id, kind, key, params or {}, url, notification_id, channels)
    transaction.on_commit(lambda: _deliver(notice))
    return notice


def _deliver(notice: Notice) -> None:
    for delivery in _deliveries:
        delivery(notice)


def _prune(user_id: int) -> None:
    """Keep the player's latest KEEP notices."""
    older = Notification.objects.filter(user_id=user_id).order_by("-created", "-pk").values("pk")[KEEP:]
    Notification.objects.filter(pk__in=older).delete()


# --- Reading ------------------------------------------------------------------


def unread_count(user_id: int) -> int:
    return Notification.objects.filter(user_id=user_id, read=False).count()


def bell(user_id: int, latest: int = 5) -> tuple[int, list[Notification]]:
    """The unread count and the latest few notices, in one query: the count
    rides on each row as a window over all the player's notices (at most KEEP)."""
    unread = Window(Sum(Case(When(read=False, then=Value(1)), default=Value(0), output_field=IntegerField())))
    rows = list(Notification.objects.filter(user_id=user_id).annotate(unread_total=unread)
                .order_by("-created", "-pk")[:latest])
    return (int(rows[0].unread_total or 0) if rows else 0), rows


def mark_read(user_id: int, notification_id: int) -> Notification | None:
    """The player's notice, now read; None if it is not theirs (or gone)."""
    notification = Notification.objects.filter(user_id=user_id, pk=notification_id).first()
    if notification is not None and not notification.read:
        notification.read = True
        notification.save(update_fields=["read"])
    return notification


def mark_all_read(user_id: int) -> int:
    return Notification.objects.filter(user_id=user_id, read=False).update(read=True)


def mark_key_read(user_ids: list[int], kind: str, key: str) -> int:
    """What the notices of ``key`` were about is settled (a challenge answered):
    they stop counting as unread."""
    return Notification.objects.filter(user_id__in=user_ids, kind=kind, key=key, read=False).update(read=True)


def hide_kinds(user_id: int, kinds: list[str]) -> int:
    """The player turned the site channel off for ``kinds``: their stored
    notices of those kinds leave the bell and the page."""
    return Notification.objects.filter(user_id=user_id, kind__in=kinds).delete()[0]
