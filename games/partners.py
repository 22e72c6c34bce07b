"""Partners of a running team game pass each other nothing, anywhere on the site
(RH36, issue 35).

RH29 hides a partner's hand from its partner, and RH36 gives a team game's seated
players no chat but the preset phrases. The game's own rooms always kept that, but
two partners could meet in any other room the site offers at the same moment
(another game's spectators' room, a side game of their own, a tournament's chat).
So the rule is the site's, not the room's:

- ``silence`` (registered with chat.lines in GamesConfig.ready): while a player
  sits in a running team game, every line they try to write anywhere is refused,
  but a preset phrase in that game's own players' room. A preset elsewhere is
  refused too: a phrase agreed beforehand says "I hold 10C" as well as the words.
- ``refusal`` (registered with games.starting): no game starts that seats two
  partners of a running team game, whichever door it comes through (a challenge,
  a seek, the pool, a rematch, the API). The site's own computer players are not
  held to it: they share no hand with anyone and play many games at once.

"Running" is the game's status: a game over, aborted or adjudicated sets it free.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from itertools import combinations
from typing import Any

from django.utils.translation import gettext

from chat.lines import Refused
from games import bots, chat
from games.models import Game, Seat

TEAM_PLAYERS = 4  # Rhombus's four-player game, two teams of two (RH31): the only team game


def team_seats(user_ids: Iterable[int]) -> list[Seat]:
    """The users' seats in running team games, with their games, oldest game first."""
    return list(Seat.objects.filter(user_id__in=list(user_ids), game__status=Game.Status.RUNNING,
                                    game__players=TEAM_PLAYERS).select_related("game").order_by("game_id"))


def running_team_game(user: Any) -> Game | None:
    """The running team game ``user`` sits in (the oldest, if several)."""
    if not getattr(user, "is_authenticated", False):
        return None
    seats = team_seats([user.pk])
    return seats[0].game if seats else None


def silence(user: Any, room: str, preset: bool) -> Refused | None:
    """chat.lines' check: why ``user`` may not write this line in ``room`` now, or None."""
    seats = team_seats([user.pk]) if getattr(user, "is_authenticated", False) else []
    if not seats:
        return None
    own_rooms = {chat.room_name(seat.game_id, chat.PLAYERS): seat.game for seat in seats}
    if room in own_rooms:
        if preset:
            return None
        return Refused("presets-only", gettext(
            "While this team game runs, its players may say only the preset phrases, until it is over "
            "(RH36: no hints between partners)."))
    return Refused("team-game", gettext(
        "You are playing a team game (game %(number)s): until it is over you can write nothing anywhere "
        "else on the site, only its preset phrases in its own players' chat (RH36: no hints between "
        "partners).") % {"number": seats[0].game_id})


def _partner_seats(user_ids: Iterable[int]) -> Iterator[tuple[Seat, Seat]]:
    """Each two seats of these users on one side of a running team game (the
    site's computer players left out)."""
    people = [user_id for user_id in user_ids if bots.level_of(user_id) is None]
    if len(people) < 2:
        return
    seated: dict[int, list[Seat]] = defaultdict(list)
    for seat in team_seats(people):
        seated[seat.game_id].append(seat)
    for seats in seated.values():
        for first, second in combinations(seats, 2):
            if first.game.side_of(first.name) == first.game.side_of(second.name):
                yield first, second


def partners_of(user_ids: Iterable[int]) -> dict[int, set[int]]:
    """Each of these users who has a partner among them, with those partners."""
    found: dict[int, set[int]] = defaultdict(set)
    for first, second in _partner_seats(user_ids):
        found[first.user_id].add(second.user_id)
        found[second.user_id].add(first.user_id)
    return dict(found)


def partnered(users: Sequence[Any]) -> tuple[Any, Any, Game] | None:
    """Two of ``users`` who are partners in a running team game, and that game; or None."""
    by_id = {user.pk: user for user in users}
    for first, second in _partner_seats(by_id):
        return by_id[first.user_id], by_id[second.user_id], first.game
    return None


def refusal(users: Sequence[Any]) -> str | None:
    """Why a game seating ``users`` may not start now, or None."""
    found = partnered(users)
    if found is None:
        return None
    first, second, game = found
    return gettext("%(first)s and %(second)s are partners in a team game that is still running (game "
                   "%(number)s): they cannot start another game together until it is over (RH36: no hints "
                   "between partners).") % {"first": first.get_username(), "second": second.get_username(),
                                            "number": game.pk}
