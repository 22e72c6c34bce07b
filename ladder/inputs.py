"""Checking what a player asks the lobby for: the game, time control, colour,
number of players and the players named, before anything is written.

Each check returns the value to use or raises :class:`LobbyRefusal`, whose
message is meant for the player. Seeks (ladder.seeks), challenges
(ladder.challenges), the pool (ladder.matchmaking), the forms and the API all
refuse through these.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.utils.translation import gettext

import engine
from games import bots, partners, refusals, starting
from games.timecontrols import OFFERED, TimeControl
from ladder import bot_accounts
from ladder.models import Challenge, Colour, Seek

ACE = starting.ACE  # the game a seek or challenge is for when none is named


class LobbyRefusal(ValueError):
    """Something the lobby will not do; the message is meant for the player."""


class NotYours(LobbyRefusal):
    """A seek or challenge that is someone else's to act on (the API's 403)."""


class NotFound(LobbyRefusal):
    """No such player, seek or challenge (the API's 404)."""


def offered_time_control(key: Any) -> TimeControl:
    """The offered control named by ``key`` ("5+3", "3d"), or a refusal."""
    offered = ", ".join(tc.key for tc in OFFERED)
    tc = TimeControl.from_request(key)
    if tc not in OFFERED:
        raise LobbyRefusal(gettext("%(key)s is not an offered time control: choose one of %(offered)s")
                           % {"key": repr(key), "offered": offered})
    return tc


def checked_colour(colour: Any) -> str:
    if colour not in Colour.values:
        raise LobbyRefusal(gettext('"colour" must be red, black or random'))
    return str(colour)


def checked_rules(key: Any) -> starting.Setup:
    """The game a seek or challenge is for, by its key ("rhombus-formation")."""
    try:
        return starting.setup_of(key)
    except refusals.Refusal as refusal:
        raise LobbyRefusal(str(refusal)) from None


def setup(row: Seek | Challenge) -> starting.Setup:
    return starting.Setup(row.kind, row.variant)


def checked_rated(rated: Any) -> bool:
    if not isinstance(rated, bool):
        raise LobbyRefusal(gettext('"rated" must be true or false'))
    return rated


def checked_players(players: Any, chosen: starting.Setup) -> int:
    """2 or 4, as the rules allow (Ace in the Hole: 2; Rhombus: 2 or 4, RH31)."""
    if players not in (2, 4) or isinstance(players, bool):
        raise LobbyRefusal(gettext('"players" must be 2 or 4'))
    try:
        engine.GAMES[chosen.kind].seats_for(players)
    except engine.EngineError as error:  # "Ace in the Hole is played by 2 players, not 4"
        raise LobbyRefusal(str(error)) from None
    return int(players)


def checked_partner(partner: Any, players: int, user: Any) -> Any:
    """The named partner's account, or None when the site is to pair the teams."""
    if partner is None or (isinstance(partner, str) and not partner.strip()):
        return None
    if players != 4:
        raise LobbyRefusal(gettext("only a 4-player seek has a partner: choose 4 players or leave the partner empty"))
    if not isinstance(partner, str):
        raise LobbyRefusal(gettext('"partner" must be a username'))
    found = named_player(partner)
    if found.pk == user.pk:
        raise LobbyRefusal(gettext("you cannot be your own partner: name another player or leave it empty"))
    if bots.is_bot(found):
        raise LobbyRefusal(gettext("%(name)s is a computer player: choose it under Play the computer in the lobby")
                           % {"name": found.get_username()})
    return found


def refuse_partners(users: Sequence[Any]) -> None:
    """No game, seek or challenge seating two partners of a running team game
    together (RH36: no hints between partners; games.partners)."""
    why = partners.refusal(users)
    if why is not None:
        raise LobbyRefusal(why)


def named_player(username: Any) -> Any:
    if not isinstance(username, str) or not username.strip():
        raise LobbyRefusal(gettext("name the player to challenge"))
    name = username.strip()
    opponent = None
    if could_be_username(name):
        opponent = get_user_model().objects.filter(username__iexact=name, is_active=True).first()
    if opponent is None:
        raise NotFound(gettext("there is no player called %(name)s") % {"name": repr(name)})
    return opponent


def could_be_username(name: str) -> bool:
    """Whether some account could be called NAME: it passes the username field's own
    validators (letters, digits and @.+-_, at most 150). Anything else is nobody,
    without a query: a client's text may hold what PostgreSQL cannot take (NUL, a
    lone surrogate from a JSON "\\ud800" escape)."""
    field = get_user_model()._meta.get_field(get_user_model().USERNAME_FIELD)
    try:
        field.run_validators(name)
    except ValidationError:
        return False
    return True


def logged_in(user: Any, refusal: Callable[[], str]) -> None:
    """Refuse a visitor with ``refusal()`` ("log in to ..."), worded only when needed."""
    if user is None or not getattr(user, "is_authenticated", False):
        raise LobbyRefusal(refusal())


_NOT_FOR_BOTS: dict[str, Callable[[], str]] = {
    "seeks": lambda: gettext("BOT accounts play challenges, the computer and tournaments, not seeks"),
    "the pool": lambda: gettext("BOT accounts play challenges, the computer and tournaments, not the pool"),
}


def refuse_api_bot(user: Any, where: str, error: type[LobbyRefusal] = LobbyRefusal) -> None:
    """A BOT account (ladder.bot_accounts) never waits for a stranger: as on
    lichess, it plays challenges, the computer and tournaments, not ``where``."""
    if bot_accounts.is_api_bot(user):
        raise error(_NOT_FOR_BOTS[where]())


def refuse_api_bot_on_site(user: Any) -> None:
    """The site's lobby (its forms and socket) is for people: a BOT account
    does everything through the API, which calls this module directly."""
    if bot_accounts.is_api_bot(user):
        raise LobbyRefusal(gettext("BOT accounts play through the API (see /api/docs)"))
