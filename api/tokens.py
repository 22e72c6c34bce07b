"""Making, revoking and finding personal access tokens (api.models)."""

from __future__ import annotations

import functools
import hashlib
import secrets
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.utils import timezone

from games import signins, statements
from api.models import PREFIX, SCOPES, ApiToken
from ladder import lobby_groups
from ladder.models import Player

MAX_TOKENS = 20  # live tokens per account: enough for every tool, few enough to review
HINT_LENGTH = 10  # the token's first characters kept to tell it apart (and to find a leaked one: api.admin)
TOUCH_EVERY = timedelta(minutes=1)  # last_used is written at most this often, not every request


class TokenRefusal(ValueError):
    pass


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def make(user: Any, name: str, scopes: list[str]) -> tuple[ApiToken, str]:
    """A new token for ``user``; returns the row and the token itself, which is
    never stored and so can be shown only now."""
    name = name.strip()
    if not name:
        raise TokenRefusal("name the token (what will use it?)")
    unknown = sorted(set(scopes) - set(SCOPES))
    if unknown:
        raise TokenRefusal(f"unknown scope {unknown[0]!r}: choose from {', '.join(SCOPES)}")
    if not scopes:
        raise TokenRefusal("choose at least one scope")
    if ApiToken.objects.filter(user=user, revoked=None).count() >= MAX_TOKENS:
        raise TokenRefusal(f"you have {MAX_TOKENS} live tokens: revoke one first")
    token = PREFIX + secrets.token_urlsafe(32)
    row = ApiToken.objects.create(user=user, name=name[:64], digest=digest(token), hint=token[:HINT_LENGTH],
                                  scopes=[scope for scope in SCOPES if scope in scopes])
    return row, token


def revoke(user: Any, token_id: int) -> ApiToken:
    row = ApiToken.objects.filter(user=user, pk=token_id, revoked=None).first()
    if row is None:
        raise TokenRefusal("no such live token of yours")
    row.revoked, row.revoked_by = timezone.now(), user
    row.save(update_fields=["revoked", "revoked_by"])
    _end_streams_on_commit([row])
    return row


def revoke_live(tokens: Any, reason: str, by: Any = None) -> list[ApiToken]:
    """Revoke the live ones among ``tokens`` (a queryset) now, noting why and
    who (None: the site itself); the tokens revoked. Any request made with one
    from now on is a 401 (``find`` reads only live tokens)."""
    with transaction.atomic():
        # Locked by their keys alone: the admin's queryset joins the users, nullable ones included.
        rows = list(ApiToken.objects.select_for_update().filter(pk__in=tokens.values("pk"), revoked=None))
        now = timezone.now()
        for row in rows:
            row.revoked, row.revoked_reason, row.revoked_by = now, reason, by
        ApiToken.objects.bulk_update(rows, ["revoked", "revoked_reason", "revoked_by"])
        _end_streams_on_commit(rows)
    return rows


def _end_streams_on_commit(rows: list[ApiToken]) -> None:
    """Once the revocation commits, the streams opened with these tokens end
    (api.streams.ends): told on both groups of each owner a stream listens on
    (the account's events: notify's; a seat's: games.signins')."""
    revoked: dict[int, list[int]] = {}
    for row in rows:
        revoked.setdefault(row.user_id, []).append(row.pk)
    messages = [(group, {"type": "token.revoked", "tokens": ids}) for user_id, ids in sorted(revoked.items())
                for group in (lobby_groups.user_group(user_id), signins.user_group(user_id))]
    if messages:
        transaction.on_commit(lambda: lobby_groups.send_to_groups(messages))


ACCOUNT_CLOSED = "account closed"


def account_closed(sender: Any, user: Any, **kwargs: Any) -> str:
    """games.signals.account_closed: a closed account's tokens are revoked
    (its open streams end: games.signins, api.streams)."""
    return f"revoked {len(revoke_live(ApiToken.objects.filter(user=user), ACCOUNT_CLOSED))} API token(s)"


def find(token: str) -> ApiToken | None:
    """The live token ``token`` names, with its user and whether that is a BOT
    account (``is_bot_account``: one query for both), or None. Touches last_used.

    Every API request asks this, so the query is written once as SQL (the
    ORM's compiling of it was a third of an API move's CPU, issue 24) and run
    on a cursor that PostgreSQL prepares (games.statements); the rows become
    models with each field's own conversion, as the ORM would make them."""
    if not token.startswith(PREFIX) or len(token) > 128:
        return None
    with statements.cursor() as cursor:
        cursor.execute(_find_sql(), [True, "", digest(token), True])
        found = cursor.fetchone()
    if found is None:
        return None
    tokens_width = len(statements.fields(ApiToken))
    row: ApiToken = _model(ApiToken, found[:tokens_width])
    row.user = _model(get_user_model(), found[tokens_width:-1])
    row.is_bot_account = bool(found[-1])  # type: ignore[attr-defined]
    now = timezone.now()
    if row.last_used is None or now - row.last_used > TOUCH_EVERY:
        ApiToken.objects.filter(pk=row.pk).update(last_used=now)
        row.last_used = now
    return row


@functools.cache
def _find_sql() -> str:
    """A live token by digest, its active user, and whether that user is a BOT account."""
    tokens, users, players = ApiToken._meta, get_user_model()._meta, Player._meta
    columns = ", ".join([*(f't."{f.column}"' for f in statements.fields(ApiToken)),
                         *(f'u."{f.column}"' for f in statements.fields(get_user_model()))])
    return (f'SELECT {columns}, EXISTS (SELECT 1 FROM "{players.db_table}" p '
            f'WHERE p."{players.get_field("user").column}" = t."{tokens.get_field("user").column}" '
            f'AND p."{players.get_field("is_bot").column}" = %s AND p."{players.get_field("bot_level").column}" = %s) '
            f'FROM "{tokens.db_table}" t JOIN "{users.db_table}" u '
            f'ON u."{users.pk.column}" = t."{tokens.get_field("user").column}" '
            f'WHERE t."{tokens.get_field("digest").column}" = %s AND t."{tokens.get_field("revoked").column}" IS NULL '
            f'AND u."{users.get_field("is_active").column}" = %s')


def _model(model: Any, values: Sequence[Any]) -> Any:
    """A model instance from its columns' values, each converted as the ORM's
    compiler does (SQLCompiler.get_converters: the backend's, then the field's)."""
    db = connections[DEFAULT_DB_ALIAS]
    converted = list(values)
    for i, converters, column in statements.converters(model, DEFAULT_DB_ALIAS):
        for convert in converters:
            converted[i] = convert(converted[i], column, db)
    return model.from_db(DEFAULT_DB_ALIAS, [f.attname for f in statements.fields(model)], converted)


def live_tokens(user: Any) -> list[ApiToken]:
    return list(ApiToken.objects.filter(user=user, revoked=None))
