"""Shapes shared by every part of the API (api/main.py)."""

from __future__ import annotations

from typing import Any, Literal

from ninja import Schema
from pydantic import BaseModel, ConfigDict

from games import starting
from games.timecontrols import OFFERED
from ladder.models import LADDERS


class Error(Schema):
    """Every refusal: ``error`` says what was wrong (a move's names the rule it breaks)."""

    error: str
    detail: list[dict[str, Any]] | None = None  # bad input: where, as pydantic reports it


class Done(Schema):
    ok: bool = True


# The site's fixed vocabularies, as enums in the spec: a value outside them is a
# 422 naming the choices, and a client generated from the spec offers only these.
LadderKey = Literal[tuple(LADDERS)]  # type: ignore[valid-type]
TimeControlKey = Literal[tuple(tc.key for tc in OFFERED)]  # type: ignore[valid-type]
RulesKey = Literal[tuple(starting.setups())]  # type: ignore[valid-type]
ColourKey = Literal["red", "black", "random"]


# Every operation answers errors in one shape; add this to its ``response``.
# 400 refused (the domain's words), 401 no or bad token, 403 wrong scope or not
# yours, 404 no such thing, 422 bad input, 429 over a rate limit (Retry-After).
ERROR_CODES = frozenset({400, 401, 403, 404, 422, 429})
ERRORS: dict[Any, Any] = {ERROR_CODES: Error}


class View(BaseModel):
    """A seat's own view of a game, or a spectator's: the same payload as the
    game socket's ``sync`` (docs/protocol.md), built by games.payloads.seat_view.
    Its position fields depend on the game (``kind``); ``game`` holds the
    public fields (players, clocks, status, result)."""

    # A plain pydantic model: ninja's Schema reads only the declared fields off
    # its input, and a view's other fields must pass through as they are.
    model_config = ConfigDict(extra="allow")

    ply: int
    game: dict[str, Any]
