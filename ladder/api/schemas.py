"""Shapes shared by every part of the API (ladder/api/main.py)."""

from __future__ import annotations

from typing import Any

from ninja import Schema
from ninja.responses import codes_4xx


class Error(Schema):
    """Every refusal: ``error`` says what was wrong (a move's names the rule it breaks)."""

    error: str
    detail: list[dict[str, Any]] | None = None  # bad input: where, as pydantic reports it


class Done(Schema):
    ok: bool = True


# Every operation answers errors in one shape; add this to its ``response``.
ERRORS: dict[Any, Any] = {codes_4xx: Error}
