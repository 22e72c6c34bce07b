"""The token's own account (GET /api/account) and the BOT upgrade."""

from __future__ import annotations

from datetime import datetime

from django.http import HttpRequest
from ninja import Router, Schema

from ladder import bot_accounts, lobby_groups
from api.auth import Token
from api.schemas import Scope, errors

router = Router(tags=["account"])


class AccountOut(Schema):
    id: int
    username: str
    bot: bool  # a BOT account (plays only through the API)
    joined: datetime
    scopes: list[Scope]  # of the token this request was sent with


def account_json(request: HttpRequest) -> dict[str, object]:
    user, row = request.user, request.auth  # type: ignore[attr-defined]
    return {"id": user.pk, "username": user.username, "bot": bot_accounts.is_api_bot(user),
            "joined": user.date_joined, "scopes": row.scopes}


@router.get("/account", response={200: AccountOut, **errors()}, auth=Token(), summary="Your account")
def account(request: HttpRequest) -> dict[str, object]:
    """The account the token belongs to, and the token's scopes. Any scope will do."""
    return account_json(request)


@router.post("/bot/account/upgrade", response={200: AccountOut, **errors(400, 403)}, auth=Token("bot:play"),
             summary="Turn this account into a BOT account (for ever)")
def upgrade(request: HttpRequest) -> dict[str, object]:
    """As lichess's BOT accounts: only an account that has never played a game
    may become one, it cannot be undone, the account is marked BOT everywhere,
    is rated on the same ladders, and plays only through the API (the site's
    lobby and game pages refuse it). Needs a token with ``bot:play``."""
    bot_accounts.make_api_bot(request.user)
    lobby_groups.lobby_changed_on_commit()  # its seeks, and seats at others' seeks, are gone from the lobby
    return account_json(request)
