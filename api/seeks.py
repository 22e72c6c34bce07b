"""The lobby through the API: open seeks, direct challenges, and playing the computer.

Each operation calls the ladder.seeks or ladder.challenges function the lobby
socket and forms call (games.botmoves.play_computer for the computer), so the same
locks, checks and refusals apply; their refusals become 400s in their own words. An id that names
no seek or challenge at all is a 404; one that exists but is not the caller's
to touch is the lobby's refusal ("only its creator can cancel a seek").

A BOT account may challenge, be challenged and play the computer here, never
seek (the lobby refuses it); a person's token needs "play", a BOT's "bot:play".
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.http import Http404, HttpRequest
from django.utils.translation import gettext
from ninja import Router, Schema
from ninja.errors import ValidationError
from pydantic import ConfigDict

from games import botmoves, starting
from games.models import Game
from ladder import challenges, inputs, lobby_json, seating, seeks
from api.auth import OptionalToken, Token
from api.schemas import (BotLevel, ChallengeStatus, Colour, Direction, Done, Players, Rules, Speed,
                         TimeControl, errors)
from ladder.models import Challenge, Seek

router = Router(tags=["seeks"])


# --- Shapes ---------------------------------------------------------------


class TimeControlOut(Schema):
    key: TimeControl
    label: str
    speed: Speed


class RulesOut(Schema):
    key: Rules
    title: str


class BotFlagOut(Schema):
    """A bot named in a seek or challenge (games.bots.BotFlagJSON)."""

    level: str  # a computer player's engine level, "" for a BOT account (a program, through the API)
    title: str  # what the site's BOT badge says: "Computer player: Level 2 (...)", "BOT account: ..."


class SeekOut(Schema):
    """An open seek as the caller sees it (lobby_json.SeekJSON)."""

    id: int
    rules: RulesOut
    creator: str
    rating: str  # "1512", or "1512?" while provisional
    time_control: TimeControlOut
    rated: bool
    colour: Colour  # the creator's wish
    mine: bool
    players: Players  # 4: Rhombus teams, filling seat by seat
    joined: list[str]  # who sits at it so far, the creator first
    partner: str | None  # the creator's named partner (4 players)
    held: bool  # a seat is held for that partner, who has not joined yet
    joined_me: bool  # the caller sits at it (and may leave it)
    bots: dict[str, BotFlagOut]  # the bots among the names above, by name


class ChallengeOut(Schema):
    """A challenge as the caller sees it (lobby_json.ChallengeJSON)."""

    id: int
    rules: RulesOut
    challenger: str
    challenged: str  # 4 players: the challenger's partner
    time_control: TimeControlOut
    rated: bool
    colour: Colour  # the challenger's wish
    status: ChallengeStatus
    expires_at: datetime
    direction: Direction  # seen from the caller
    game: int | None
    url: str | None
    players: Players
    partner: str | None
    opponents: list[str]
    accepted: list[str]  # 4 players: who has accepted so far
    declined_by: str | None
    answered: bool  # the caller is an invitee who has accepted already
    bots: dict[str, BotFlagOut]  # the bots among the names above, by name


class GameOut(Schema):
    game: int
    url: str  # the game's page; play it through the API's game endpoints


class SeekAcceptOut(Schema):
    """A 2-player seek starts its game at once; a 4-player seek is joined, and
    starts its game when the fourth player joins: until then ``game`` is null
    and ``seek`` shows who sits at it."""

    game: int | None = None
    url: str | None = None
    seek: SeekOut | None = None


class ChallengeAcceptOut(Schema):
    """A 2-player challenge starts its game at once; a 4-player one when its
    third invitee accepts: until then ``game`` is null."""

    game: int | None = None
    url: str | None = None
    challenge: ChallengeOut


class SeekIn(Schema):
    time_control: TimeControl  # one offered control: "5+3", "10+5", "1d", ...
    rated: bool = True
    colour: Colour = "random"  # the side you would like
    rules: Rules = inputs.ACE  # "ace-in-the-hole", "rhombus" or "rhombus-formation"
    players: Players = Players.TWO  # 4: a Rhombus team game, seated as players join
    partner: str | None = None  # 4 players: who sits opposite you (else the site pairs the teams)


class ChallengeIn(Schema):
    """A challenge: with 2 players (the default) to ``username``; with 4
    (Rhombus teams) with ``partner`` against the two ``opponents``."""

    # Which names each kind needs, in the schema: "if" holds when players is 4.
    model_config = ConfigDict(json_schema_extra={
        "if": {"properties": {"players": {"const": 4}}, "required": ["players"]},
        "then": {"required": ["partner", "opponents"],
                 "properties": {"partner": {"type": "string"}, "opponents": {"type": "array"}}},
        "else": {"required": ["username"], "properties": {"username": {"type": "string"}}}})

    time_control: TimeControl
    username: str | None = None  # 2 players: whom to challenge
    rated: bool = True
    colour: Colour = "random"
    rules: Rules = inputs.ACE
    players: Players = Players.TWO  # 4: Rhombus teams, you and ``partner`` against ``opponents``
    partner: str | None = None
    opponents: list[str] | None = None

    def missing(self) -> list[str]:
        """The names this kind of challenge needs and lacks (the schema's if/then/else)."""
        needed = ("partner", "opponents") if self.players == Players.FOUR else ("username",)
        return [name for name in needed if getattr(self, name) is None]


class ComputerIn(Schema):
    level: BotLevel
    time_control: TimeControl
    rated: bool = False
    colour: Colour = "random"  # 2 players; with 4 you sit at SW, who moves first
    rules: Rules = inputs.ACE
    players: Players = Players.TWO  # 4: Rhombus, you and a bot partner against two bots


# --- Seeks ----------------------------------------------------------------


@router.get("/seeks", response={200: list[SeekOut], **errors()}, auth=OptionalToken(),
            summary="Open seeks")
def seek_list(request: HttpRequest) -> list[lobby_json.SeekJSON]:
    """The lobby's open seeks, oldest first, as the caller sees them (``mine``,
    ``joined_me``). No token needed."""
    return seeks.open_seeks(request.user)


@router.post("/seeks", response={200: SeekOut, **errors(400, 403, 404, 422)}, auth=Token("play"), summary="Create a seek")
def seek_create(request: HttpRequest, body: SeekIn) -> lobby_json.SeekJSON:
    """Put an open seek in the lobby: one per account, game and time control.
    A 4-player seek (Rhombus) seats you at once and waits for three more.
    BOT accounts cannot seek: they play challenges, the computer and tournaments."""
    seek = seeks.create_seek(request.user, body.time_control, rated=body.rated, colour=body.colour,
                             rules=body.rules, players=body.players, partner=body.partner)
    return lobby_json.seek_json(seek, request.user)


@router.delete("/seeks/{id:seek_id}", response={200: Done, **errors(400, 403, 404)}, auth=Token("play"),
               summary="Cancel your seek")
def seek_cancel(request: HttpRequest, seek_id: int) -> dict[str, bool]:
    """Take your open seek back (only its creator can)."""
    seeks.cancel_seek(_existing_seek(seek_id), request.user)
    return {"ok": True}


@router.post("/seeks/{id:seek_id}/accept", response={200: SeekAcceptOut, **errors(400, 403, 404)}, auth=Token("play"),
             summary="Accept or join a seek")
def seek_accept(request: HttpRequest, seek_id: int) -> dict[str, Any]:
    """Accept someone's 2-player seek: the game starts at once, and its id and
    page come back. A 4-player seek is joined instead: the seek comes back until
    the fourth player's join starts the game."""
    result = seeks.accept_seek(_existing_seek(seek_id), request.user)
    if isinstance(result, Game):
        return _started(result)
    return {"seek": lobby_json.seek_json(result, request.user)}


@router.post("/seeks/{id:seek_id}/leave", response={200: SeekOut, **errors(400, 403, 404)}, auth=Token("play"),
             summary="Leave a 4-player seek")
def seek_leave(request: HttpRequest, seek_id: int) -> lobby_json.SeekJSON:
    """Give up your seat at a 4-player seek before it fills (its creator cancels it instead)."""
    return lobby_json.seek_json(seeks.leave_seek(_existing_seek(seek_id), request.user), request.user)


def _existing_seek(seek_id: int) -> int:
    """``seek_id``, or a 404 when no seek ever had it; the lobby judges the rest."""
    if not Seek.objects.filter(pk=seek_id).exists():
        raise Http404(gettext("there is no seek %(id)s") % {"id": seek_id})
    return seek_id


# --- Challenges -----------------------------------------------------------


@router.get("/challenges", response={200: list[ChallengeOut], **errors(403)}, auth=Token("read"),
            tags=["challenges"], summary="Your pending challenges")
def challenge_list(request: HttpRequest) -> list[lobby_json.ChallengeJSON]:
    """Pending challenges to and from you (and 4-player ones you are invited to), oldest first."""
    return challenges.pending_challenges(request.user)


@router.post("/challenges", response={200: ChallengeOut, **errors(400, 403, 404, 422)}, auth=Token("play"),
             tags=["challenges"], summary="Challenge a player")
def challenge_create(request: HttpRequest, body: ChallengeIn) -> lobby_json.ChallengeJSON:
    """Challenge ``username``; it lapses if unanswered. With ``players: 4``
    (Rhombus teams) name a ``partner`` and two ``opponents`` instead: the game
    starts when all three have accepted. BOT accounts may be challenged; the
    site's computer players are played through POST /api/computer."""
    missing = body.missing()
    if missing:
        raise ValidationError([{"type": "missing", "loc": ("body", name), "msg": "Field required"} for name in missing])
    options: dict[str, Any] = {"rated": body.rated, "colour": body.colour, "rules": body.rules}
    if body.players == 4:
        challenge = challenges.create_team_challenge(request.user, body.partner, body.opponents, body.time_control,
                                                     **options)
    else:
        challenge = challenges.create_challenge(request.user, body.username, body.time_control, **options)
    return lobby_json.challenge_json(challenge, request.user)


@router.post("/challenges/{id:challenge_id}/accept", response={200: ChallengeAcceptOut, **errors(400, 403, 404)},
             auth=Token("play"), tags=["challenges"], summary="Accept a challenge")
def challenge_accept(request: HttpRequest, challenge_id: int) -> dict[str, Any]:
    """Say yes to a challenge to you: a 2-player game starts at once; a
    4-player one when the last of its three invitees accepts."""
    result = challenges.accept_challenge(_existing_challenge(challenge_id), request.user)
    if isinstance(result, Game):
        return {**_started(result), "challenge": challenges.challenge_for(challenge_id, request.user)}
    return {"challenge": lobby_json.challenge_json(result, request.user)}


@router.post("/challenges/{id:challenge_id}/decline", response={200: ChallengeOut, **errors(400, 403, 404)},
             auth=Token("play"), tags=["challenges"], summary="Decline a challenge")
def challenge_decline(request: HttpRequest, challenge_id: int) -> lobby_json.ChallengeJSON:
    """Say no to a challenge to you (a 4-player one closes for everyone)."""
    return lobby_json.challenge_json(challenges.decline_challenge(_existing_challenge(challenge_id), request.user),
                                     request.user)


@router.post("/challenges/{id:challenge_id}/cancel", response={200: ChallengeOut, **errors(400, 403, 404)},
             auth=Token("play"), tags=["challenges"], summary="Cancel your challenge")
def challenge_cancel(request: HttpRequest, challenge_id: int) -> lobby_json.ChallengeJSON:
    """Withdraw a challenge you sent."""
    return lobby_json.challenge_json(challenges.cancel_challenge(_existing_challenge(challenge_id), request.user),
                                     request.user)


def _existing_challenge(challenge_id: int) -> int:
    """``challenge_id``, or a 404 when no challenge ever had it; the lobby judges the rest."""
    if not Challenge.objects.filter(pk=challenge_id).exists():
        raise Http404(gettext("there is no challenge %(id)s") % {"id": challenge_id})
    return challenge_id


# --- The computer ---------------------------------------------------------


@router.post("/computer", response={200: GameOut, **errors(400, 403, 422)}, auth=Token("play"), tags=["computer"],
             summary="Play the computer")
def computer(request: HttpRequest, body: ComputerIn) -> dict[str, Any]:
    """Start a game against the site's computer player of ``level`` at once.
    With ``players: 4`` (Rhombus) you and a bot partner play two bots of that
    level, you at SW, who moves first."""
    tc = inputs.offered_time_control(body.time_control)
    if body.players == 4:
        game = seating.play_computer_team(request.user, body.level, tc, rated=body.rated, rules=body.rules)
    else:
        game = botmoves.play_computer(request.user, body.level, tc, rated=body.rated, colour=body.colour,
                                      setup=starting.setup_of(body.rules))
    return _started(game)


def _started(game: Game) -> dict[str, Any]:
    return {"game": game.pk, "url": lobby_json.game_url(game.pk)}
