"""Starting a game from the lobby: seating two sides by colour, or two teams
of a 4-player game, and the computer as a team (Rhombus).

Seeks (ladder.seeks), challenges (ladder.challenges) and the pool's matcher
(ladder.matchmaking) seat their players here. A real-time game takes its
players out of the pool first: the pool registers that step with
:func:`provide_before_real_time` (LadderConfig.ready()), since matchmaking
builds on this module.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext

from games import bots, refusals, starting
from games.models import Game
from games.timecontrols import TimeControl
from ladder import bot_accounts, lobby_groups, ratings
from ladder.inputs import LobbyRefusal, checked_players, checked_rules, logged_in
from ladder.models import Colour, Seek, SeekEntry

# ``step(*users)``: called inside the transaction that seats ``users`` in a real-time game, before it starts.
BeforeRealTime = Callable[..., None]
_before_real_time: list[BeforeRealTime] = []


def provide_before_real_time(step: BeforeRealTime) -> None:
    """Register a step for every real-time start (registering twice is harmless)."""
    if step not in _before_real_time:
        _before_real_time.append(step)


def start_sides(ours: Sequence[Any], theirs: Sequence[Any], colour: str, rated: bool, tc: TimeControl,
                chosen: starting.Setup) -> Game:
    """Seat two sides (a player each, or a team each, ours' creator first) by
    the creator's wish (random by `secrets`) and start the game. "Red" is the
    side of the first seat of any game (Rhombus: SW, who moves first, RH9)."""
    if colour == Colour.RANDOM:
        colour = secrets.choice([Colour.RED, Colour.BLACK])
    first, second = (ours, theirs) if colour == Colour.RED else (theirs, ours)
    return start_seated(team_seats(first, second), rated, tc, chosen)


def start_seated(seated: Sequence[Any], rated: bool, tc: TimeControl, chosen: starting.Setup) -> Game:
    """Start the game with the users in seat order, take them out of the pool and
    other real-time seeks, and send each to it after commit."""
    if not tc.correspondence:
        for step in _before_real_time:  # the pool: ladder.matchmaking.take_out_of_pool
            step(*seated)
    try:
        game = starting.start_game(*seated, rated=rated, time_control=tc, setup=chosen)
    except refusals.Refusal as refusal:
        raise LobbyRefusal(str(refusal)) from None
    if not tc.correspondence:
        withdraw_real_time_seeks(*seated)
    game_id, players = game.pk, tuple(user.pk for user in seated)
    transaction.on_commit(lambda: lobby_groups.send_game_started(game_id, players))
    return game


def team_seats(first: Sequence[Any], second: Sequence[Any]) -> tuple[Any, ...]:
    """Seat order for two sides of one or two players, ``first`` taking the
    first seat (Red; SW, who moves first, RH9): with teams, partners sit
    opposite, so the turn order SW, SE, NE, NW alternates the teams (RH31)."""
    return tuple(player for pair in zip(first, second, strict=True) for player in pair)


def balanced_teams(users: Sequence[Any], ladder: str) -> tuple[list[Any], list[Any]]:
    """Four players as two teams as even as ``ladder``'s ratings allow: the
    strongest and the weakest against the middle two (seeks and the pool)."""
    # Stable order on ties: the given order, so equal ratings pair the first with the last.
    by_rating = sorted(users, key=lambda user: -ratings.standing_of(user, ladder).rating)
    return [by_rating[0], by_rating[3]], [by_rating[1], by_rating[2]]


def play_computer_team(user: Any, level: Any, tc: TimeControl, *, rated: bool = False,
                       rules: Any = "rhombus") -> Game:
    """Play the computer with 4 players (Rhombus): the user at SW, who moves
    first (RH9, RH31), with a bot partner at NE, against two bots of the same level."""
    logged_in(user, lambda: gettext("log in to play the computer"))
    if bots.is_bot(user):
        raise LobbyRefusal(gettext("a bot cannot start games"))
    chosen = checked_rules(rules)
    checked_players(4, chosen)
    if not isinstance(level, str) or level not in bots.engine_bots().LEVELS:
        raise LobbyRefusal(gettext("%(level)s is not a bot level: choose one of %(levels)s")
                           % {"level": repr(level), "levels": ", ".join(bots.engine_bots().LEVELS)})
    try:
        bots.refuse_switched_off(level)
        partner, left, right = bot_accounts.team_bots(level)
        # Turn order SW, SE, NE, NW: the partner opposite, at NE.
        return starting.start_game(user, left, partner, right, rated=rated, time_control=tc, setup=chosen)
    except refusals.Refusal as refusal:
        raise LobbyRefusal(str(refusal)) from None


def withdraw_real_time_seeks(*players: Any) -> bool:
    """Someone sitting down to a real-time game is not waiting for another one:
    their open real-time seeks close and they leave the 4-player ones they joined.

    ``players`` are users or their ids; True if any seek was withdrawn or left.
    """
    ids = [getattr(player, "pk", player) for player in players]
    stale = [seek.pk for seek in Seek.objects.filter(creator_id__in=ids, status=Seek.Status.OPEN)
             if not seek.tc.correspondence]
    closed = bool(stale) and Seek.objects.filter(pk__in=stale).update(status=Seek.Status.CANCELLED) > 0
    seats = [entry.pk for entry in SeekEntry.objects.filter(user_id__in=ids, seek__status=Seek.Status.OPEN)
             .exclude(seek__creator_id__in=ids).select_related("seek") if not entry.seek.tc.correspondence]
    left = bool(seats) and SeekEntry.objects.filter(pk__in=seats).delete()[0] > 0
    return closed or left
