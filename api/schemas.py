"""Shapes shared by every part of the API (api/main.py)."""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum, StrEnum
from typing import Any

from ninja import Schema
from pydantic import BaseModel, ConfigDict

from games import starting
from games.models import Game
from games.timecontrols import OFFERED
from ladder.models import LADDERS


class Error(Schema):
    """Every refusal: ``error`` says what was wrong (a move's names the rule it breaks)."""

    error: str
    detail: list[dict[str, Any]] | None = None  # bad input: where, as pydantic reports it


class Done(Schema):
    ok: bool = True


# The site's fixed vocabularies, as named enums in the spec (components/schemas):
# a value outside one is a 422 naming the choices, and a client generated from the
# spec gets one type for each (one TimeControl wherever a time control is taken or
# given), with member names from ``x-enum-varnames``. Each is a StrEnum (an IntEnum
# for Players): its members are the plain strings (numbers) the domain takes.


def _named(name: str, values: Iterable[str], doc: str) -> Any:
    """A StrEnum called ``name`` whose members are ``values``; its docstring
    describes it in the spec."""
    members = {_member_name(value): value for value in values}
    enum = StrEnum(name, members)  # type: ignore[misc]
    enum.__doc__ = doc
    enum.__get_pydantic_json_schema__ = classmethod(_with_names)  # type: ignore[attr-defined]
    return enum


def _member_name(value: str) -> str:
    """A value as an identifier a generated client can name a member by:
    "5+3" is MINUTES_5_3, "3d" DAYS_3, "SW+NE" SW_NE, "ismcts-2" ISMCTS_2."""
    if value[:1].isdigit():
        minutes, _, increment = value.partition("+")
        return f"DAYS_{value[:-1]}" if value.endswith("d") else f"MINUTES_{minutes}_{increment}"
    return "".join(c if c.isalnum() else "_" for c in value).upper()


def _with_names(cls: Any, core_schema: Any, handler: Any) -> dict[str, Any]:
    schema = dict(handler(core_schema))
    schema["x-enum-varnames"] = [member.name for member in cls]
    return schema


TimeControl = _named("TimeControl", (tc.key for tc in OFFERED),
                     'A time control: "5+3" is 5 minutes and 3 seconds a move, "3d" three days a move')
Rules = _named("Rules", starting.setups(), "A game and its variant")
Ladder = _named("Ladder", LADDERS, "A rating ladder: one a game, and Rhombus's team games")
Colour = _named("Colour", ("red", "black", "random"), "The side wished for: random lets the site draw it")
Seat = _named("Seat", ("red", "black", "SW", "SE", "NE", "NW"),
              "A seat: red and black in Ace in the Hole; SW, SE, NE, NW around a Rhombus table (RH31)")
Side = _named("Side", ("red", "black", "SW", "NE", "SW+NE", "SE+NW"),
              "Who won: a seat, or a team's seats joined by '+' (RH35)")
GameStatus = _named("GameStatus", Game.Status.values, "A game's status")
Reason = _named("Reason", Game.Reason.values, "How a game ended (R15-R17, RH25-RH27, RH43)")


class Players(IntEnum):
    """How many play: 2, or 4 (Rhombus teams, RH31)."""

    TWO = 2
    FOUR = 4

    @classmethod
    def __get_pydantic_json_schema__(cls, core_schema: Any, handler: Any) -> dict[str, Any]:
        return _with_names(cls, core_schema, handler)



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
