"""Web push (lichess's lila-push): a player's browsers subscribe with the Push
API, and each notice whose push channel is on is sent to them by a Celery task,
encrypted for each browser (RFC 8291, aes128gcm) and signed with our VAPID key
(RFC 8292). docs/notifications.md.

Only the notice's title, body and link are sent, worded in the recipient's
language from its public params: a push passes through the browser maker's push
service, so it never carries a card.
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
import json
import logging
from typing import Any, TypedDict
from urllib.parse import urljoin, urlsplit

import requests
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _
from pywebpush import WebPushException, webpush

from notify.models import Channel, PushSubscription
from notify.notices import Notice
from notify.texts import describe
from preferences.languages import speaking

log = logging.getLogger("notify")

# What a push service answers for a subscription that is no more (RFC 8030 §7.3).
GONE = {404, 410}


class Refused(ValueError):
    """A subscription we will not store; the message says why, for the player."""


class Payload(TypedDict):
    """What the service worker (templates/notify/sw.js, at /sw.js) is handed to show."""

    title: str
    body: str
    url: str
    tag: str


# --- Subscriptions ------------------------------------------------------------


def enabled() -> bool:
    """Push needs a VAPID key pair (settings; `make run` makes one)."""
    return bool(settings.WEBPUSH_VAPID_PUBLIC_KEY and settings.WEBPUSH_VAPID_PRIVATE_KEY)


def check_endpoint(endpoint: str) -> None:
    """Refuse an endpoint we must not post to: only a public https address, so
    that nobody can make the server post into its own network; a host listed
    in WEBPUSH_HTTP_HOSTS (a receiver of one's own, for testing) also over http."""
    if len(endpoint) > PushSubscription._meta.get_field("endpoint").max_length:
        raise Refused(_("The push endpoint is too long."))
    try:
        parts = urlsplit(endpoint)
        host = parts.hostname or ""
    except ValueError:  # an unclosed [ipv6 bracket
        parts, host = urlsplit(""), ""
    if host in settings.WEBPUSH_HTTP_HOSTS and parts.scheme in {"http", "https"}:
        return
    if parts.scheme != "https" or not host or _internal(host):
        raise Refused(_("A push endpoint must be a public https:// address; %(endpoint)s is not.")
                      % {"endpoint": endpoint[:80]})


def _internal(host: str) -> bool:
    """localhost, or an address literal that is not on the public internet."""
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return not ipaddress.ip_address(host).is_global
    except ValueError:
        return False  # a name: the push services' are public


def _key_bytes(value: str, length: int, name: str) -> None:
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        raw = b""
    if len(raw) != length:
        raise Refused(_("The subscription's %(key)s key is not valid.") % {"key": name})


def subscribe(user: Any, endpoint: str, p256dh: str, auth: str) -> PushSubscription:
    """Store a browser's subscription for ``user``; past the limit
    (WEBPUSH_MAX_SUBSCRIPTIONS) the oldest is dropped. The same endpoint again
    (a browser re-subscribing, or now another player on it) is updated, not doubled."""
    check_endpoint(endpoint)
    _key_bytes(p256dh, 65, "p256dh")  # an uncompressed P-256 point
    _key_bytes(auth, 16, "auth")
    with transaction.atomic():
        subscription, _created = PushSubscription.objects.update_or_create(
            endpoint=endpoint, defaults={"user": user, "p256dh": p256dh, "auth": auth})
        keep = PushSubscription.objects.filter(user=user).order_by("-created", "-pk")
        extra = list(keep.values_list("pk", flat=True)[settings.WEBPUSH_MAX_SUBSCRIPTIONS:])
        PushSubscription.objects.filter(pk__in=extra).delete()
    return subscription


def unsubscribe(user: Any, endpoint: str) -> bool:
    """Forget the browser's subscription; False if ``user`` had none there."""
    deleted, _rows = PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()
    return bool(deleted)


# --- Delivery -----------------------------------------------------------------


def wanted(notice: Notice) -> bool:
    """Whether a notice goes by push: the player wants this kind by push and
    has a subscription (and the site has keys)."""
    return (bool(notice.channels.get(Channel.PUSH)) and enabled()
            and PushSubscription.objects.filter(user_id=notice.user_id).exists())


def payload(user: Any, kind: str, key: str, params: dict[str, Any], url: str) -> Payload:
    """The notice as the recipient reads it, in their language, with a link to the page."""
    with speaking(user):
        title, body = describe(kind, params)
    return {"title": title, "body": body, "url": urljoin(settings.SITE_URL + "/", url or "/"),
            "tag": f"{kind}:{key}"}


def push_to(user_id: int, kind: str, key: str, params: dict[str, Any], url: str) -> int:
    """Send the notice to each of the player's subscriptions; those the push
    service calls gone (404, 410) are removed. Returns how many accepted it."""
    user = get_user_model().objects.filter(pk=user_id).first()
    if user is None:
        return 0
    data = json.dumps(payload(user, kind, key, params, url))
    with requests.Session() as session:
        # A push service answers; it never sends us elsewhere (a redirect could
        # point into our own network, past check_endpoint).
        session.max_redirects = 0
        return sum(_send(session, subscription, data)
                   for subscription in PushSubscription.objects.filter(user_id=user_id))


def _send(session: requests.Session, subscription: PushSubscription, data: str) -> bool:
    info = {"endpoint": subscription.endpoint, "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth}}
    try:
        webpush(info, data, vapid_private_key=settings.WEBPUSH_VAPID_PRIVATE_KEY,
                vapid_claims={"sub": settings.WEBPUSH_SUBJECT}, timeout=settings.WEBPUSH_TIMEOUT,
                ttl=settings.WEBPUSH_TTL, headers={"Urgency": "normal"}, requests_session=session)
    except WebPushException as error:
        status = error.response.status_code if error.response is not None else None
        if status in GONE:
            subscription.delete()
            log.info("push subscription %s of user %s is gone (%s): removed", subscription.pk, subscription.user_id,
                     status)
        else:
            log.warning("push to subscription %s failed: %s", subscription.pk, status or error)
        return False
    except requests.RequestException as error:  # unreachable, timed out: try again with the next notice
        log.warning("push to subscription %s failed: %s", subscription.pk, error.__class__.__name__)
        return False
    return True
