"""What a lobby socket or the API is sent of a seek or a challenge, as one user sees it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypedDict

from games import bots
from games.timecontrols import TimeControl
from games.timestamps import stamp
from ladder import ratings
from ladder.inputs import setup
from ladder.models import Challenge, ChallengeInvitee, Seek


class TimeControlJSON(TypedDict):
    key: str
    label: str
    speed: str


class RulesJSON(TypedDict):
    key: str  # games.starting.Setup.key: "ace-in-the-hole", "rhombus", "rhombus-formation"
    title: str


class SeekJSON(TypedDict):
    id: int
    rules: RulesJSON
    creator: str
    rating: str  # as shown: "1512", or "1512?" while provisional (ladder.elo.display)
    time_control: TimeControlJSON
    rated: bool
    colour: str
    mine: bool
    players: int  # 2, or 4 for a Rhombus team game filling seat by seat
    joined: list[str]  # who sits at it so far, in the order they joined, the creator first
    partner: str | None  # the creator's named partner (4 players), joined or not
    held: bool  # a seat is held for that partner, who has not joined yet
    joined_me: bool  # the socket's user sits at this seek (and may leave it)
    bots: dict[str, bots.BotFlagJSON]  # the bots among the names above, to flag them BOT


class ChallengeJSON(TypedDict):
    id: int
    rules: RulesJSON
    challenger: str
    challenged: str
    time_control: TimeControlJSON
    rated: bool
    colour: str  # the challenger's wish
    status: str
    expires_at: str
    direction: str  # "incoming" or "outgoing", seen from the socket's user
    game: int | None
    url: str | None
    players: int  # 2, or 4: then ``challenged`` is the partner
    partner: str | None  # 4 players: the challenger's partner
    opponents: list[str]  # 4 players: the two named to play against them
    accepted: list[str]  # 4 players: who has accepted so far
    declined_by: str | None  # 4 players: who declined, closing it for all
    answered: bool  # the socket's user is an invitee who has accepted already
    bots: dict[str, bots.BotFlagJSON]  # the bots among the names above, to flag them BOT


def game_url(game_id: int) -> str:
    """The game page (built by the games app) for a game id."""
    return f"/games/{game_id}/"


def rules_json(row: Seek | Challenge) -> RulesJSON:
    return {"key": setup(row).key, "title": setup(row).title}


def time_control_json(tc: TimeControl) -> TimeControlJSON:
    return {"key": tc.key, "label": tc.label, "speed": tc.speed}


def bot_flags(named: Sequence[Any]) -> dict[str, bots.BotFlagJSON]:
    """{name: flag} for the bots among the users ``named``, from the cached bot
    list (games.bots.bot_levels): every lobby socket rebuilds these lists at
    every lobby change, so no query for them."""
    levels = bots.bot_levels()
    return {user.get_username(): bots.flag_json(levels[user.pk]) for user in named if user.pk in levels}


def seek_json(seek: Seek, user: Any = None) -> SeekJSON:
    """One seek as ``user`` sees it."""
    me = getattr(user, "pk", None)
    seated = _seated(seek)
    partner = seek.partner.get_username() if seek.partner_id is not None else None
    return {
        "id": seek.pk,
        "rules": rules_json(seek),
        "creator": seek.creator.get_username(),
        "rating": ratings.display_of(seek.creator),
        "time_control": time_control_json(seek.tc),
        "rated": seek.rated,
        "colour": seek.colour,
        "mine": user is not None and seek.creator_id == me,
        "players": seek.players,
        "joined": [seated_user.get_username() for seated_user in seated],
        "partner": partner,
        "held": partner is not None and all(seated_user.pk != seek.partner_id for seated_user in seated),
        "joined_me": me is not None and any(seated_user.pk == me for seated_user in seated),
        "bots": bot_flags(_named_at(seek)),
    }


def _seated(seek: Seek) -> list[Any]:
    return [entry.user for entry in seek.entries.all()] if seek.players == 4 else [seek.creator]


def _named_at(seek: Seek) -> list[Any]:
    """Everyone a seek names: who sits at it and the partner it holds a seat for."""
    return _seated(seek) + ([seek.partner] if seek.partner_id is not None else [])


def challenge_json(challenge: Challenge, user: Any) -> ChallengeJSON:
    """One challenge as ``user`` sees it."""
    me = getattr(user, "pk", None)
    invitees = list(challenge.invitees.all()) if challenge.players == 4 else []
    named = {invitee.role: invitee.user.get_username() for invitee in invitees}  # the partner's name
    return {
        "id": challenge.pk,
        "rules": rules_json(challenge),
        "challenger": challenge.challenger.get_username(),
        "challenged": challenge.challenged.get_username(),
        "time_control": time_control_json(challenge.tc),
        "rated": challenge.rated,
        "colour": challenge.colour,
        "status": challenge.status,
        "expires_at": stamp(challenge.expires_at),
        "direction": "outgoing" if challenge.challenger_id == getattr(user, "pk", None) else "incoming",
        "game": challenge.game_id,
        "url": game_url(challenge.game_id) if challenge.game_id else None,
        "players": challenge.players,
        "partner": named.get(ChallengeInvitee.Role.PARTNER),
        "opponents": [i.user.get_username() for i in invitees if i.role == ChallengeInvitee.Role.OPPONENT],
        "accepted": [i.user.get_username() for i in invitees if i.answer == ChallengeInvitee.Answer.ACCEPTED],
        "declined_by": next((i.user.get_username() for i in invitees
                             if i.answer == ChallengeInvitee.Answer.DECLINED), None),
        "answered": any(i.user_id == me and i.answer == ChallengeInvitee.Answer.ACCEPTED for i in invitees),
        "bots": bot_flags(_named_in(challenge)),
    }


def _named_in(challenge: Challenge) -> list[Any]:
    """Everyone a challenge names: its challenger, the challenged and (4 players) the invitees."""
    invitees = [invitee.user for invitee in challenge.invitees.all()] if challenge.players == 4 else []
    return [challenge.challenger, challenge.challenged, *invitees]
