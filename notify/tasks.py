"""Celery tasks of notify: thin wrappers taking plain data (STYLE.md)."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from notify import mail, push
from notify.notices import Notice


# Bounded: each push service has WEBPUSH_TIMEOUT s, and a player at most 5 subscriptions.
@shared_task(ignore_result=True, soft_time_limit=120, time_limit=150)
def send_push(user_id: int, kind: str, key: str, params: dict[str, Any], url: str) -> int:
    return push.push_to(user_id, kind, key, params, url)


def queue_push(notice: Notice) -> None:
    """The delivery registered with notify.notices (NotifyConfig.ready): web
    push leaves the request at once and is sent by a worker."""
    if push.wanted(notice):
        send_push.delay(notice.user_id, notice.kind, notice.key, notice.params, notice.url)


@shared_task(ignore_result=True, soft_time_limit=60, time_limit=90)
def send_notice_mail(user_id: int, kind: str, params: dict[str, Any], url: str) -> bool:
    return mail.send_notice(user_id, kind, params, url)


def queue_mail(notice: Notice) -> None:
    """The e-mail delivery (NotifyConfig.ready): a notice of a kind the player
    chose by e-mail is mailed by a worker (the turn digest and the clock
    warning are sent by beat instead)."""
    if mail.wants_notice_mail(notice):
        send_notice_mail.delay(notice.user_id, notice.kind, notice.params, notice.url)
