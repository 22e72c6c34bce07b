"""Sockets follow the login (issue 10, docs/protocol.md "Signing out").

A websocket is authenticated once, by the session cookie of its handshake. So
that it never outlives that login, each socket of a signed-in user joins the
user's group here, and:

- logging out tells the sockets opened with that session to close
  (``session.ended``, naming the session by a digest, never by its key);
- a password change, which ends every other session of the user, asks each of
  the user's sockets to check its own session (``session.check``);
- each socket checks again when its session is due to expire, and before
  every action it takes (games.sockets.JsonFrameConsumer);
- an account closing (``is_active`` saved from True to False, in the admin,
  by a moderator or in a shell) is announced to the apps above
  (games.signals.account_closed), and its sockets are told ``account.closed``
  and close at once.

The same group carries ``mutes.changed`` when the user mutes or unmutes someone
(chat.lines.mutes_changed, issue 35): the sockets, and the user's API game
streams, which join the group too, read the mute list again. That check is one
  query (``still_signs_in``): it reads what Django's judgement depends on and
  judges again only when that has changed since the socket last checked.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from types import SimpleNamespace
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib import auth
from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_logged_out
from django.contrib.sessions.models import Session
from django.db import connection, transaction
from django.db.models.signals import post_save, pre_save
from django.utils import timezone
from importlib import import_module

from chat.lines import mutes_changed
from games import statements
from games.signals import account_closed
from notify import live as notify_live


def user_group(user_id: int) -> str:
    """The Channels group of every socket a user has open, game or lobby."""
    return f"signed-in-{user_id}"


def session_tag(session_key: str | None) -> str:
    """A session named in a group message: a digest, so that the key itself
    never passes through Redis."""
    return hashlib.sha256((session_key or "").encode()).hexdigest()[:32]


def signs_in(session_key: str | None, user_id: int) -> bool:
    """Whether the session still signs in this user: it exists, has not
    expired, names the user, and matches their current password (as
    ``django.contrib.auth.get_user`` judges a request)."""
    if not session_key:
        return False
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    user = auth.get_user(SimpleNamespace(session=store))  # type: ignore[arg-type]
    return bool(user.is_authenticated and user.pk == user_id)


Evidence = tuple[Any, ...]


UNREAD: Any = object()  # still_signs_in's ``evidence`` when the caller has not read it


def still_signs_in(session_key: str | None, user_id: int, checked: Evidence | None,
                   evidence: Evidence | None = UNREAD) -> tuple[bool, Evidence | None]:
    """``signs_in``, answered from one query when nothing it depends on has
    changed since the evidence ``checked`` was judged.

    ``auth.get_user`` judges from the session's stored data, and the user's
    password hash (the session carries a digest of it) and active flag; the
    query also drops an expired session. The same evidence is judged the same
    way, so only new evidence is judged again, by ``signs_in`` itself. Returns
    the answer and the evidence to pass next time (None: nothing judged good).

    A caller that read the ``evidence`` already, in a statement of its own
    (``evidence_sql``: a move's locked load, games.store), passes it, and this
    runs no query unless it must judge again.
    """
    if evidence is UNREAD:
        evidence = _evidence(session_key, user_id)
    if evidence is None:
        return False, None
    if evidence == checked:
        return True, evidence
    if not signs_in(session_key, user_id):
        return False, None
    # Kept only if it did not change while signs_in read it: the evidence
    # remembered is then exactly what was judged good.
    return True, evidence if _evidence(session_key, user_id) == evidence else None


def evidence_sql() -> str:
    """The SELECT of what ``still_signs_in`` judges from: one row of three
    columns or none, with three parameters (``evidence_params``)."""
    users = get_user_model()._meta
    sessions = Session._meta
    quote = connection.ops.quote_name
    return (f"SELECT s.{quote('session_data')}, u.{quote('password')}, u.{quote('is_active')}"
            f" FROM {quote(sessions.db_table)} s, {quote(users.db_table)} u"
            f" WHERE s.{quote('session_key')} = %s AND s.{quote('expire_date')} > %s"
            f" AND u.{quote(users.pk.column)} = %s")


def evidence_params(session_key: str | None, user_id: int) -> list[Any]:
    return [session_key, connection.ops.adapt_datetimefield_value(timezone.now()), user_id]


def _evidence(session_key: str | None, user_id: int) -> Evidence | None:
    if not session_key:
        return None
    with statements.cursor() as cursor:
        cursor.execute(evidence_sql(), evidence_params(session_key, user_id))
        return cursor.fetchone()


def expires_at(session_key: str | None) -> datetime | None:
    """When the session ends, unless it is renewed; None if it is gone."""
    if not session_key:
        return None
    return (Session.objects.filter(session_key=session_key, expire_date__gt=timezone.now())
            .values_list("expire_date", flat=True).first())


def _tell(user_id: int, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(user_group(user_id), message)


def _on_logout(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    """Sent before the session is flushed: the sockets close on the session's
    name, without checking a session that is still there at this instant."""
    if user is not None and getattr(request, "session", None) is not None:
        _tell(user.pk, {"type": "session.ended", "session": session_tag(request.session.session_key)})


PASSWORD_CHANGED = "_games_signins_password_changed"  # set on a user by pre_save, taken by post_save
CLOSING = "_games_signins_closing"  # the same, for is_active going from True to False


def _on_user_save(sender: Any, instance: Any, update_fields: Any = None, **kwargs: Any) -> None:
    """Compare what is saved with the stored row, before it is written (one
    query, for the fields saved): a new password ends the user's other
    sessions (their stored hash no longer matches), told once it is written
    (_on_user_saved); an account that was active and is not closes."""
    watched = [name for name in ("password", "is_active") if update_fields is None or name in update_fields]
    if instance.pk is None or not watched:
        return
    before = sender.objects.filter(pk=instance.pk).values(*watched).first()
    if before is None:
        return
    if "password" in before and before["password"] != instance.password:
        setattr(instance, PASSWORD_CHANGED, True)
    if before.get("is_active") and not instance.is_active:
        setattr(instance, CLOSING, True)


def _on_user_saved(sender: Any, instance: Any, **kwargs: Any) -> None:
    """Once the new password is committed, every socket of the user checks.
    From post_save, not pre_save: outside a transaction (allauth's password
    change runs in none) on_commit runs at once, and from pre_save that was
    before the UPDATE, so a socket could check, find the old hash, and stay
    signed in.

    A closed account is announced here (games.signals.account_closed), in a
    transaction: the admin's and a moderator's save are inside one already, so
    the receivers' work commits or rolls back with the closing itself."""
    if instance.__dict__.pop(PASSWORD_CHANGED, False):
        user_id = instance.pk
        transaction.on_commit(lambda: _tell(user_id, {"type": "session.check"}))
    if instance.__dict__.pop(CLOSING, False):
        with transaction.atomic():
            said = account_closed.send(sender=sender, user=instance)
        setattr(instance, CLOSED_WITH, [text for _receiver, text in said if text])


CLOSED_WITH = "_games_signins_closed_with"


def closing_outcome(user: Any) -> list[str]:
    """What the account_closed receivers said they did when ``user`` was last
    saved closed (each returns a short English line for the moderation log)."""
    return list(getattr(user, CLOSED_WITH, []))


def close_sockets(sender: Any, user: Any, **kwargs: Any) -> None:
    """account_closed: once committed, every socket of the user signs out and
    closes (``account.closed``, JsonFrameConsumer.account_closed), and the
    account's API streams end (api.streams); without waiting for each socket's
    next session check."""
    user_id = user.pk

    def tell() -> None:
        _tell(user_id, {"type": "account.closed"})
        notify_live.send(notify_live.user_group(user_id), {"type": "account.closed"})

    transaction.on_commit(tell)


def _on_mutes_changed(sender: Any, user: Any, **kwargs: Any) -> None:
    """chat.lines.mutes_changed, after commit: every socket and stream of the user
    reads its mute list again, so that a mute or unmute holds on pages already open."""
    _tell(user.pk, {"type": "mutes.changed"})


def connect_signals() -> None:
    """Called by GamesConfig.ready()."""
    mutes_changed.connect(_on_mutes_changed, dispatch_uid="games.signins.mutes_changed")
    user_logged_out.connect(_on_logout, dispatch_uid="games.signins.logout")
    pre_save.connect(_on_user_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="games.signins.password")
    post_save.connect(_on_user_saved, sender=settings.AUTH_USER_MODEL, dispatch_uid="games.signins.password_saved")
    account_closed.connect(close_sockets, dispatch_uid="games.signins.close_sockets")
