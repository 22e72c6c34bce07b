"""Shapes shared by every part of the API (api/main.py)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from enum import IntEnum, StrEnum
from typing import Annotated, Any, Literal

from ninja import Schema
from pydantic import BaseModel, ConfigDict, Field, RootModel

import engine
from engine import bots as engine_bots
from games import starting
from games.models import Game
from games.records import RESULT_LABELS
from api.models import SCOPES
from games.timecontrols import OFFERED, SPEED_LABELS
from ladder.models import LADDERS, Challenge
from tournaments.models import Pairing, Round, Tournament


class Error(Schema):
    """Every refusal: ``error`` says what was wrong (a move's names the rule it breaks)."""

    error: str


class Problem(Schema):
    """One bad value of a request."""

    loc: list[str | int] = Field(description='Where it was, as the client wrote it: ["body", "ply"], '
                                             '["query", "page"], ["body", "opponents", 1]; ["body"] for the '
                                             "body as a whole")
    msg: str = Field(description="What was wrong with it")
    type: str = Field(description='What kind of problem: pydantic\'s error type ("missing", "int_parsing", '
                                  '"enum", ...), or "invalid" for a check of the site\'s own form')


class BadInput(Error):
    """422: a value of the wrong shape. ``error`` is the first problem as
    "body.ply: message"; ``detail`` lists every one."""

    detail: list[Problem]


class Done(Schema):
    ok: bool = True


# The site's fixed vocabularies, as named enums in the spec (components/schemas):
# a value outside one is a 422 naming the choices, and a client generated from the
# spec gets one type for each (one TimeControl wherever a time control is taken or
# given), with member names from ``x-enum-varnames``. Each is a StrEnum (an IntEnum
# for Players): its members are the plain strings (numbers) the domain takes.


def named(name: str, values: Iterable[str], doc: str) -> Any:
    """A StrEnum called ``name`` whose members are ``values``; its docstring
    describes it in the spec."""
    members = {_member_name(value): value for value in values}
    enum = StrEnum(name, members)  # type: ignore[misc]
    enum.__doc__ = doc
    enum.__get_pydantic_json_schema__ = classmethod(_with_names)  # type: ignore[attr-defined]
    enum.__repr__ = _plain_repr  # type: ignore[method-assign]
    return enum


def _plain_repr(member: Any) -> str:
    """A member as its value's repr: the domain words a refusal with repr(value)
    ("not 'SW'"), and must not show "<Seat.SW: 'SW'>"."""
    return repr(member.value)


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


TimeControl = named("TimeControl", (tc.key for tc in OFFERED),
                     'A time control: "5+3" is 5 minutes and 3 seconds a move, "3d" three days a move')
Rules = named("Rules", starting.setups(), "A game and its variant")
Ladder = named("Ladder", LADDERS, "A rating ladder: one a game, and Rhombus's team games")
Colour = named("Colour", ("red", "black", "random"), "The side wished for: random lets the site draw it")
Seat = named("Seat", ("red", "black", "SW", "SE", "NE", "NW"),
              "A seat: red and black in Ace in the Hole; SW, SE, NE, NW around a Rhombus table (RH31)")
Side = named("Side", ("red", "black", "SW", "NE", "SW+NE", "SE+NW"),
              "Who won: a seat, or a team's seats joined by '+' (RH35)")
GameStatus = named("GameStatus", Game.Status.values, "A game's status")
BotLevel = named("BotLevel", engine_bots.LEVELS, "A computer player's engine level, weakest first (an "
                  "administrator may switch a level off: then it is refused with a 400)")
GameKind = named("GameKind", engine.GAMES, "Which game: Ace in the Hole or Rhombus")
Variant = named("Variant", dict.fromkeys(v for rules in engine.GAMES.values() for v in rules.variants),
                 "A game's variant: Rhombus has its Formation (RH41-RH49)")
PlayerResult = named("PlayerResult", RESULT_LABELS, "A game's result for one player")
Scope = named("Scope", SCOPES, "What a token may do (docs/api.md, Tokens)")
BotsShown = named("BotsShown", ("show", "hide"), "Whether a list shows bots")
Speed = named("Speed", SPEED_LABELS, "A time control's speed")
ChallengeStatus = named("ChallengeStatus", Challenge.Status.values, "Where a challenge is in its life")
Direction = named("Direction", ("incoming", "outgoing"), "A challenge seen from the caller: to them, or from them")
TournamentFormat = named("TournamentFormat", Tournament.Format.values,
                          "Swiss, round robin, or single or double elimination")
TournamentStatus = named("TournamentStatus", Tournament.Status.values, "Where a tournament is in its life")
Seeding = named("Seeding", Tournament.Seeding.values, "How players are seeded at the start")
RoundStatus = named("RoundStatus", Round.Status.values, "Whether a tournament round is being played")
PairingResult = named("PairingResult", [value for value in Pairing.Result.values if value],
                       'A board\'s result from the first seat\'s side: "1/2" a draw, "+-" and "-+" a forfeit win, '
                       '"--" both forfeited, "bye" a bye')
ChatFor = named("ChatFor", Tournament.ChatFor.values, "Who writes in a tournament's chat (everyone reads it "
                 "unless it is off)")
Reason = named("Reason", Game.Reason.values, "How a game ended (R15-R17, RH25-RH27, RH43)")


class Players(IntEnum):
    """How many play: 2, or 4 (Rhombus teams, RH31)."""

    TWO = 2
    FOUR = 4

    __repr__ = _plain_repr

    @classmethod
    def __get_pydantic_json_schema__(cls, core_schema: Any, handler: Any) -> dict[str, Any]:
        return _with_names(cls, core_schema, handler)



# The error answers, one rule everywhere (docs/api.md): 400 refused (the rules'
# or the site's own words), 401 no or bad token, 403 the token lacks the scope or
# the thing is not yours, 404 no such thing, 422 a value of the wrong shape, 429
# over a rate limit (with Retry-After). Every operation may answer 401 and 429.
ERROR_CODES = frozenset({400, 401, 403, 404, 422, 429})


def errors(*codes: int) -> dict[Any, Any]:
    """An operation's error answers for its ``response``: 401 and 429, and
    ``codes`` (of 400, 403, 404, 422) which it can answer too."""
    assert set(codes) <= ERROR_CODES, codes
    plain = frozenset({401, 429, *codes} - {422})
    return {plain: Error, **({422: BadInput} if 422 in codes else {})}



# --- A game's view: what a seat (or a spectator) sees, one shape per game ------
# The same payload as the game socket's ``sync`` (docs/protocol.md), built by
# games.payloads.seat_view. Every field is declared and none other is allowed
# (``extra="forbid"``, ``additionalProperties: false`` in the spec): ninja
# validates each answer through these models, and a key the payload grew but a
# model lacks is an error in tests/api/test_typed_views.py, never a key that
# silently vanishes from the API's answers.


class _Closed(BaseModel):
    model_config = ConfigDict(extra="forbid")


class GameClock(_Closed):
    """games.payloads.ClockJSON: each seat's time at the start of the turn."""

    ms: dict[str, int]
    running: Seat | None  # the seat whose clock runs; null once the game is over
    turn_started_at: datetime | None
    initial_seconds: int
    increment_seconds: int
    days_per_move: int | None
    time_control: str  # "5+3", "3d"
    abort_at: datetime | None  # the first-move window's end, while it runs


class GameRematch(_Closed):
    offered_by: list[Seat]  # the seats that asked; a rematch starts once every player has
    game_id: int | None


class GameRating(_Closed):
    before: int
    after: int
    change: int


class GameBotSeat(_Closed):
    level: str
    label: str


class GameBotWait(_Closed):
    ply: int
    queued_at: datetime | None
    started_at: datetime | None  # null until a worker picks the move up
    worker_late: bool


class GameBot(_Closed):
    """games.botwaits.BotJSON: who is a bot, and the bot move the game waits on."""

    accounts: list[Seat]  # seats played by BOT accounts (programs, through the API)
    seats: dict[str, GameBotSeat]  # seats played by the site's computer players
    waiting: GameBotWait | None


class GameEvent(_Closed):
    """The tournament round a game belongs to."""

    name: str
    round: int
    label: str  # the round as its pages and records name it: "3", or an elimination game's "W1-2 game 1"
    url: str


class GameFields(_Closed):
    """games.payloads.GameJSON: who plays, the result, clocks; the seed only once it is over."""

    id: int
    kind: Literal["ace-in-the-hole", "rhombus"]
    title: str
    variant: str
    seats: list[Seat]  # in turn order
    sides: list[list[Seat]]  # the seats that win or lose together
    players: dict[str, str]  # each seat's username
    status: GameStatus
    winner: Side | None
    reason: Reason | None
    result: str  # "1-0", "0-1" (from the first seat's side), "1/2-1/2", "0-0" (both lost by forfeit), "*"
    score: dict[str, int] | None
    rated: bool
    commitment: str  # SHA-256 of the seed (R19, RH30)
    seed: str | None  # null while the game runs
    clock: GameClock
    presence: dict[str, bool]
    claim_win_at: datetime | None
    rematch: GameRematch
    bot: GameBot | None
    ratings: dict[str, GameRating] | None
    event: GameEvent | None
    adjudication: str | None
    ending: str | None  # how it ended, in words


class AceInTheHoleOutcome(_Closed):
    winner: Side | None  # red or black; null: a draw
    reason: Literal["aces", "points"]  # R15, R16
    score: dict[str, int]


class AceInTheHoleView(_Closed):
    """engine.ace.view.ViewJSON plus ``kind`` and ``game``."""

    kind: Literal["ace-in-the-hole"]
    seat: Seat | None  # red or black; null: a spectator's
    ply: int
    to_move: Seat
    board: dict[str, str]  # square ("e1") to card ("5H")
    captured: dict[str, list[str]]
    hand: list[str] | None  # your own hand; null for a spectator
    hand_counts: dict[str, int]
    deck_counts: dict[str, int]
    discards: dict[str, list[str]]  # each seat's actions played, in order
    legal: list[str]  # your legal actions when it is your turn, else empty
    outcome: AceInTheHoleOutcome | None
    game: GameFields


class RhombusOwnSeat(_Closed):
    """Your own seat at the table: its hand."""

    table: list[str]
    hand: list[str]
    reserve: int
    eliminated: int
    out: bool


class RhombusOtherSeat(_Closed):
    """Another seat (every seat, for a spectator): its hand as a count (RH29)."""

    table: list[str]
    hand_count: int
    reserve: int
    eliminated: int
    out: bool


class RhombusFirst(_Closed):
    """A one-card set's first uses and whole actions (GET .../options with no use made)."""

    uses: list[str]
    actions: list[str]


class RhombusOutcome(_Closed):
    winner: Side | None
    seats: list[Seat]  # the winning seats
    reason: Literal["RH25", "RH26", "RH27", "RH43"]


class RhombusAction(_Closed):
    seat: Seat
    action: str


class RhombusView(_Closed):
    """engine.rhombus.view.ViewJSON plus ``kind``, ``actions``, ``actions_from`` and ``game``."""

    kind: Literal["rhombus"]
    seat: Seat | None  # null: a spectator's
    variant: str
    ply: int
    board: dict[str, Seat]  # square to the seat whose piece stands there
    seats: dict[str, RhombusOwnSeat | RhombusOtherSeat]
    pile_count: int
    discard: list[str]
    reshuffles: int
    dealer: Seat
    to_move: Seat
    quiet: int
    commitment: str | None
    seed_hex: str | None  # null while the game runs (RH30)
    sets: list[list[str]]  # your card sets that have a legal action, when it is your turn
    firsts: dict[str, RhombusFirst]
    outcome: RhombusOutcome | None
    actions: list[RhombusAction]  # the actions played, from ply ``actions_from`` on
    actions_from: int
    game: GameFields


class View(RootModel[Annotated[AceInTheHoleView | RhombusView, Field(discriminator="kind")]]):
    """A seat's own view of a game: the same payload as the game socket's
    ``sync`` (docs/protocol.md). ``kind`` says which game's shape it has."""
