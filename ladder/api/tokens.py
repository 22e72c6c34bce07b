"""Making, revoking and finding personal access tokens (ladder.api.models)."""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta
from typing import Any

from django.db.models import Exists, OuterRef
from django.utils import timezone

from ladder.api.models import PREFIX, SCOPES, ApiToken
from ladder.models import Player

MAX_TOKENS = 20  # live tokens per account: enough for every tool, few enough to review
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
    row = ApiToken.objects.create(user=user, name=name[:64], digest=digest(token), hint=token[:10],
                                  scopes=[scope for scope in SCOPES if scope in scopes])
    return row, token


def revoke(user: Any, token_id: int) -> ApiToken:
    row = ApiToken.objects.filter(user=user, pk=token_id, revoked=None).first()
    if row is None:
        raise TokenRefusal("no such live token of yours")
    row.revoked = timezone.now()
    row.save(update_fields=["revoked"])
    return row


def find(token: str) -> ApiToken | None:
    """The live token ``token`` names, with its user and whether that is a BOT
    account (``is_bot_account``: one query for both), or None. Touches last_used."""
    if not token.startswith(PREFIX) or len(token) > 128:
        return None
    bot = Player.objects.filter(user_id=OuterRef("user_id"), is_bot=True, bot_level="")
    row = (ApiToken.objects.select_related("user").annotate(is_bot_account=Exists(bot))
           .filter(digest=digest(token), revoked=None, user__is_active=True).first())
    if row is not None:
        now = timezone.now()
        if row.last_used is None or now - row.last_used > TOUCH_EVERY:
            ApiToken.objects.filter(pk=row.pk).update(last_used=now)
            row.last_used = now
    return row


def live_tokens(user: Any) -> list[ApiToken]:
    return list(ApiToken.objects.filter(user=user, revoked=None))
