"""The lines of the API's NDJSON streams (api/streams.py), one schema per
line type, for the spec (docs/api.md, "Streams").

A stream's 200 declares the schema of ONE line: a ``oneOf`` over the stream's
line types with a ``discriminator`` on ``type``. The sync and update lines are
a seat's view with ``type`` beside its fields, so each is itself a ``oneOf``
of the two games' views, told apart by ``kind`` as View is. The empty
keep-alive lines are no JSON and have no schema: a client skips them.

ninja makes schemas only of what an operation answers through a model; a
stream's view answers a StreamingHttpResponse, so these models reach the spec's
components through ``with_line_schemas``.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict
from pydantic.json_schema import models_json_schema
from ninja.openapi.schema import REF_TEMPLATE
from ninja.schema import NinjaGenerateJsonSchema

from api.schemas import AceInTheHoleView, GameStatus, Reason, RhombusView, Side
from api.seeks import ChallengeOut

GAME_STREAM = "GameStreamLine"
EVENT_STREAM = "EventStreamLine"


class AceInTheHoleSyncLine(AceInTheHoleView):
    """The game stream's first line: your seat's view of an Ace in the Hole game."""

    type: Literal["sync"]


class RhombusSyncLine(RhombusView):
    """The game stream's first line: your seat's view of a Rhombus game."""

    type: Literal["sync"]


class AceInTheHoleUpdateLine(AceInTheHoleView):
    """Your seat's view after a change of an Ace in the Hole game."""

    type: Literal["update"]


class RhombusUpdateLine(RhombusView):
    """Your seat's view after a change of a Rhombus game: ``actions`` are only
    the new ones, from ``actions_from`` on."""

    type: Literal["update"]


class ChatLine(BaseModel):
    """A line of the players' chat, as lichess's bot API streams it."""

    model_config = ConfigDict(extra="forbid")

    type: Literal["chatLine"]
    room: Literal["player"]
    id: int
    username: str
    text: str  # in the stream's language for a preset; "" once removed
    preset: str  # the preset phrase's key, or ""
    removed: bool  # removed by a moderator


class ChallengeLine(BaseModel):
    """A challenge to or from you, pending on opening, then each time it
    changes: its ``status`` and ``direction`` say what happened."""

    model_config = ConfigDict(extra="forbid")

    type: Literal["challenge"]
    challenge: ChallengeOut


class GameStartedLine(BaseModel):
    """A game of yours started (on opening: each you are playing)."""

    model_config = ConfigDict(extra="forbid")

    type: Literal["game_started"]
    game: int
    url: str  # the game's page


class GameFinishedLine(BaseModel):
    """A game of yours is over."""

    model_config = ConfigDict(extra="forbid")

    type: Literal["game_finished"]
    game: int
    status: GameStatus
    winner: Side | None
    reason: Reason | None
    result: str  # as the record writes it: "1-0", "0-1", "1/2-1/2", "0-0", "*"


class TournamentRoundStartedLine(BaseModel):
    """A round of a tournament you play in was paired."""

    model_config = ConfigDict(extra="forbid")

    type: Literal["tournament_round_started"]
    tournament: int
    round: int
    url: str  # the tournament's page


# Each stream's lines: (name, discriminator, {value: schema}); a value's schema
# is a model, or the name of another of these unions.
UNIONS: list[tuple[str, str, dict[str, Any]]] = [
    ("SyncLine", "kind", {"ace-in-the-hole": AceInTheHoleSyncLine, "rhombus": RhombusSyncLine}),
    ("UpdateLine", "kind", {"ace-in-the-hole": AceInTheHoleUpdateLine, "rhombus": RhombusUpdateLine}),
    (GAME_STREAM, "type", {"sync": "SyncLine", "update": "UpdateLine", "chatLine": ChatLine}),
    (EVENT_STREAM, "type", {"challenge": ChallengeLine, "game_started": GameStartedLine,
                            "game_finished": GameFinishedLine,
                            "tournament_round_started": TournamentRoundStartedLine}),
]


def line_ref(name: str) -> dict[str, str]:
    return {"$ref": REF_TEMPLATE.format(model=name)}


def _name(schema: Any) -> str:
    return schema if isinstance(schema, str) else schema.__name__


def _union(discriminator: str, choices: dict[str, Any]) -> dict[str, Any]:
    refs = {value: line_ref(_name(schema))["$ref"] for value, schema in choices.items()}
    return {"oneOf": [{"$ref": ref} for ref in dict.fromkeys(refs.values())],
            "discriminator": {"propertyName": discriminator, "mapping": refs}}


def line_schemas() -> dict[str, Any]:
    """Every line model's schema and every union's, by component name (with the
    models they use: the views' parts, the enums, ChallengeOut)."""
    models = [schema for _, _, choices in UNIONS for schema in choices.values() if not isinstance(schema, str)]
    _, found = models_json_schema([(model, "validation") for model in models], ref_template=REF_TEMPLATE,
                                  schema_generator=NinjaGenerateJsonSchema)
    schemas: dict[str, Any] = dict(found.get("$defs", {}))
    for name, discriminator, choices in UNIONS:
        schemas[name] = _union(discriminator, choices)
    return schemas


def with_line_schemas(spec: dict[str, Any]) -> dict[str, Any]:
    """``spec`` with the streams' line schemas among its components (a schema
    ninja made already, an enum or a view's part, is left as it is)."""
    components = spec.setdefault("components", {}).setdefault("schemas", {})
    for name, schema in line_schemas().items():
        components.setdefault(name, schema)
    return spec
