"""E-mail: the daily correspondence digest, the clock warnings, and one mail
per notice of the other kinds for a player who chose them by e-mail (a
challenge, a tournament starting...), in the recipient's language, each with an
unsubscribe link that works signed out.

lichess refused per-move e-mails, and so do we: the only mail about turns is a
digest, at most one a day. What is due is decided by games (games/reminders.py),
which hands plain lines here; this module never imports games.
"""

from __future__ import annotations

import logging
import smtplib
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import date, datetime, timedelta
from typing import Any, TypedDict
from urllib.parse import urljoin

from allauth.account.utils import has_verified_email
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.urls import reverse

from notify import notices
from notify.models import Channel, Kind, Preference, Sent, channels_of
from notify.texts import describe, game_title
from preferences.languages import speaking

log = logging.getLogger("notify")

# Its own salt: a token made for anything else never unsubscribes anybody.
UNSUBSCRIBE_SALT = "notify.unsubscribe"
ALL_KINDS = "all"


class GameLine(TypedDict):
    """One game of a reminder, public facts only: its name (a proper name) and
    player count, worded with the mail (texts.game_title), the other players, its page."""

    title: str
    players: int
    opponents: str
    url: str


def _worded(line: GameLine) -> dict[str, Any]:
    """``line`` as a mail shows it, in the active language: "Rhombus, 4 игрока", an absolute link."""
    return {**line, "title": game_title(line), "url": absolute(line["url"])}


# --- Unsubscribing ------------------------------------------------------------


def unsubscribe_token(user_id: int, kind: str) -> str:
    """A signed token that turns off ``kind``'s e-mail (ALL_KINDS: every e-mail) for the user."""
    return signing.dumps({"u": user_id, "k": kind}, salt=UNSUBSCRIBE_SALT, compress=True)


def read_unsubscribe_token(token: str) -> tuple[int, str]:
    """(user id, kind) from a token; signing.BadSignature if it was changed or cut."""
    data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    kinds = {ALL_KINDS, *Kind.values}
    if not isinstance(data, dict) or not isinstance(data.get("u"), int) or data.get("k") not in kinds:
        raise signing.BadSignature("unsubscribe token of the wrong shape")
    return data["u"], data["k"]


def unsubscribe_url(user_id: int, kind: str) -> str:
    return absolute(reverse("notify:unsubscribe", args=[unsubscribe_token(user_id, kind)]))


def stop_emails(user_id: int, kind: str) -> None:
    """Turn e-mail off for ``kind`` (or every kind), keeping the other channels as they were."""
    for each in Kind.values if kind == ALL_KINDS else [kind]:
        channels = channels_of(user_id, each)
        Preference.objects.update_or_create(user_id=user_id, kind=each,
                                            defaults={**channels, Channel.EMAIL: False})


# --- Sending ------------------------------------------------------------------


def absolute(path: str) -> str:
    return urljoin(settings.SITE_URL + "/", path)


def wants_email(user: Any, kind: str) -> bool:
    """Whether ``user`` gets ``kind`` by e-mail: chosen, and to an address they
    confirmed (issue 35, 14: anyone can type anyone's address)."""
    return bool(user.email) and channels_of(user.pk, kind)[Channel.EMAIL] and address_confirmed(user)


def address_confirmed(user: Any) -> bool:
    """Whether ``user.email`` is an address they confirmed by following
    allauth's link. An address entered before confirmation existed, or changed
    since (the admin), is not: no mail until it is."""
    return bool(user.email) and has_verified_email(user, user.email)


def claim(user_id: int, kind: str, key: str, *passed: str) -> bool:
    """Record that ``key`` is sent (and ``passed`` with it: reminders overtaken
    by it); False if it was already. Call inside the transaction that sends, so
    a failed send leaves no record and is tried again."""
    try:
        with transaction.atomic():
            Sent.objects.create(user_id=user_id, kind=kind, key=key)
    except IntegrityError:
        return False
    for other in passed:
        Sent.objects.get_or_create(user_id=user_id, kind=kind, key=other)
    return True


@contextmanager
def refused_by_server(user_id: int) -> Iterator[None]:
    """A mail the server refuses (a bad address, the server down) is logged and
    left unrecorded, to be tried at the next run, without stopping the others."""
    try:
        yield
    except (smtplib.SMTPException, OSError) as error:
        log.warning("e-mail to user %s not sent: %r", user_id, error)


def compose(user: Any, kind: str, template: str, words: Callable[[], dict[str, Any]]) -> EmailMultiAlternatives:
    """The mail ``template`` (notify/mail/<template>.txt, .html and _subject.txt)
    for ``user``, worded in their language (``words`` makes the context's texts
    while it is active), with the unsubscribe link as a header too (RFC 2369)
    and one-click unsubscribing (RFC 8058)."""
    with speaking(user):
        link = unsubscribe_url(user.pk, kind)
        context = {**words(), "user": user, "unsubscribe_url": link,
                   "unsubscribe_all_url": unsubscribe_url(user.pk, ALL_KINDS), "site_url": settings.SITE_URL,
                   "preferences_url": absolute(reverse("preferences:edit"))}
        subject = " ".join(render_to_string(f"notify/mail/{template}_subject.txt", context).split())
        text = render_to_string(f"notify/mail/{template}.txt", context)
        html = render_to_string(f"notify/mail/{template}.html", context)
    message = EmailMultiAlternatives(subject, text, settings.DEFAULT_FROM_EMAIL, [user.email], headers={
        "List-Unsubscribe": f"<{link}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        "Auto-Submitted": "auto-generated"})
    message.attach_alternative(html, "text/html")
    return message


def send_turn_digest(user_id: int, games: Sequence[GameLine], day: date) -> bool:
    """"It's your turn in 3 games": at most one a day (per ``day``), only to a
    player who chose the turn kind by e-mail, and nothing when no game waits."""
    user = get_user_model().objects.filter(pk=user_id).first()
    if not games or user is None or not wants_email(user, Kind.TURN):
        return False
    with refused_by_server(user_id), transaction.atomic():
        if not claim(user_id, Kind.TURN, f"digest:{day.isoformat()}"):
            return False
        compose(user, Kind.TURN, "digest", lambda: {"games": [_worded(line) for line in games],
                                                    "count": len(games)}).send()
        return True
    return False


def forget_old_reminders(now: datetime) -> int:
    """Drop the records of reminders over a week old: a digest's only guards
    its own day, a clock warning's its own turn (which ends within a day of it)."""
    deleted, _rows = Sent.objects.filter(kind__in=(Kind.TURN, Kind.CLOCK), created__lt=now - timedelta(days=7)).delete()
    return deleted


def warn_clock(user_id: int, game_key: str, turn: str, hours: int, game: GameLine, passed: Sequence[int] = ()) -> bool:
    """"A correspondence clock is about to run out": once per game, ``turn``
    (the ply and seat: a player short of time again on a later turn is warned
    again, issue 35, 14) and threshold (``hours`` before the end; ``passed``
    are larger thresholds this one overtakes, which are then never sent). By
    e-mail if the player chose it, and through notify.notices.send for the
    site and push."""
    user = get_user_model().objects.filter(pk=user_id).first()
    if user is None:
        return False
    with refused_by_server(user_id), transaction.atomic():
        if not claim(user_id, Kind.CLOCK, f"{game_key}:{turn}:{hours}h", *(f"{game_key}:{turn}:{h}h" for h in passed)):
            return False
        params = {"opponent": game["opponents"], "title": game["title"], "players": game["players"], "hours": hours}
        notices.send(user_id, Kind.CLOCK, game_key, params, game["url"])
        if wants_email(user, Kind.CLOCK):
            compose(user, Kind.CLOCK, "clock",
                    lambda: {"game": _worded(game), "hours": hours, "text": describe(Kind.CLOCK, params)}).send()
        return True
    return False



# Kinds with mail of their own above: the digest (turn) and the warning (clock).
NOT_ONE_BY_ONE = (Kind.TURN, Kind.CLOCK)


def wants_notice_mail(notice: notices.Notice) -> bool:
    """Whether ``notice`` goes by e-mail one by one: the player chose its kind by e-mail."""
    return notice.kind not in NOT_ONE_BY_ONE and notice.channels.get(Channel.EMAIL, False)


def send_notice(user_id: int, kind: str, params: dict[str, Any], url: str) -> bool:
    """One notice by e-mail, worded as on the site (notify/texts.py), with its link."""
    user = get_user_model().objects.filter(pk=user_id).first()
    if kind in NOT_ONE_BY_ONE or user is None or not wants_email(user, kind):
        return False
    link = absolute(url) if url else ""
    with refused_by_server(user_id):
        compose(user, kind, "notice", lambda: {"text": describe(kind, params), "url": link}).send()
        return True
    return False
