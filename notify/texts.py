"""What a notice says, worded when it is read, in the reader's language.

A notice stores only its kind and public ``params`` (names, numbers, titles
that are proper names), never a sentence: the bell, the page, the live toast,
web push and e-mail all call :func:`describe` under the reader's language, so a
notice sent while the site spoke English reads in German to a German reader.
Nothing here may add what the params do not hold: no hand, no card.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from django.utils.translation import gettext, ngettext

from notify.models import Kind


class Text(NamedTuple):
    title: str
    body: str


Params = Mapping[str, Any]


def describe(kind: str, params: Params) -> Text:
    """The title and body of a notice of ``kind`` with ``params``, in the
    active language. An unknown kind (a notice from a newer version) still
    reads as something."""
    wording = _WORDINGS.get(kind)
    if wording is None:
        return Text(gettext("Notification"), "")
    return wording(params)


def game_title(params: Params) -> str:
    """"Rhombus" or "Rhombus, 4 players": the game's name (a proper name, stored
    as sent) and its player count, worded here. (The e-mail reminders name it
    ``game``, a string; elsewhere ``game`` is the game's id.)"""
    named = params.get("game")
    title = str(params.get("title") or (named if isinstance(named, str) else ""))
    players = int(params.get("players", 2) or 2)
    if players <= 2:
        return title
    return ngettext("%(game)s, %(count)s player", "%(game)s, %(count)s players", players) % {
        "game": title, "count": players}


def names(values: Any) -> str:
    """Usernames as a list: "bob", "bob and carol", "bob, carol and dave"
    (a string is taken as already written)."""
    if isinstance(values, str):
        return values
    people = [str(value) for value in (values or [])]
    if len(people) <= 1:
        return "".join(people)
    return gettext("%(names)s and %(last)s") % {"names": ", ".join(people[:-1]), "last": people[-1]}


def time_control(key: Any) -> str:
    """A time control's key as read: "5+3" as it is, "3d" as "3 days per move"."""
    found = re.fullmatch(r"(\d+)d", str(key))
    if not found:
        return str(key)
    days = int(found[1])
    return ngettext("%(days)s day per move", "%(days)s days per move", days) % {"days": days}


def time_left(seconds: Any) -> str:
    """A clock's time left, to the hour (or minute under an hour)."""
    seconds = max(0, int(seconds or 0))
    if seconds >= 3600:
        hours = seconds // 3600
        return ngettext("%(count)s hour", "%(count)s hours", hours) % {"count": hours}
    minutes = max(1, seconds // 60)
    return ngettext("%(count)s minute", "%(count)s minutes", minutes) % {"count": minutes}


def _turn(params: Params) -> Text:
    return Text(gettext("Your turn"),
                gettext("It is your move against %(opponents)s (%(game)s).") % {
                    "opponents": names(params.get("opponents")), "game": game_title(params)})


def _challenge(params: Params) -> Text:
    values = {"name": params.get("challenger", ""), "control": time_control(params.get("time_control")),
              "game": game_title(params)}
    if params.get("rated", True):
        body = gettext("%(name)s challenges you to a rated %(control)s game of %(game)s.") % values
    else:
        body = gettext("%(name)s challenges you to a casual %(control)s game of %(game)s.") % values
    return Text(gettext("A challenge"), body)


def _game_end(params: Params) -> Text:
    values = {"opponents": names(params.get("opponents")), "game": game_title(params)}
    result = params.get("result")
    if result == "won":
        body = gettext("You won against %(opponents)s (%(game)s).") % values
    elif result == "lost":
        body = gettext("You lost against %(opponents)s (%(game)s).") % values
    else:
        body = gettext("Your game against %(opponents)s was drawn (%(game)s).") % values
    return Text(gettext("Game over"), body)


def _tournament_soon(params: Params) -> Text:
    return Text(gettext("A tournament starts soon"),
                gettext("%(name)s starts in 5 minutes.") % {"name": params.get("name", "")})


def _tournament_round(params: Params) -> Text:
    values = {"name": params.get("name", ""), "round": params.get("round", "")}
    if params.get("bye"):
        body = gettext("Round %(round)s of %(name)s: you have a bye this round.") % values
    else:
        body = gettext("Round %(round)s of %(name)s is paired: your board against %(opponent)s is ready.") % {
            **values, "opponent": params.get("opponent", "")}
    return Text(gettext("Your next round"), body)


def _report_decision(params: Params) -> Text:
    if params.get("appeal"):
        if params.get("granted"):
            body = gettext("The moderators granted your appeal.")
        else:
            body = gettext("The moderators reviewed your appeal and kept the decision.")
        return Text(gettext("Your appeal was decided"), body)
    values = {"name": params.get("reported", "")}
    if params.get("acted"):
        body = gettext("Thank you: the moderators acted on your report about %(name)s.") % values
    else:
        body = gettext("The moderators reviewed your report about %(name)s and found nothing to act on.") % values
    return Text(gettext("Your report was decided"), body)


def _follower(params: Params) -> Text:
    return Text(gettext("A new follower"),
                gettext("%(name)s follows you now.") % {"name": params.get("username", "")})


def _clock(params: Params) -> Text:
    """``seconds_left``, or (the e-mail reminders' warnings) ``hours``: the
    threshold passed, so "less than"."""
    values = {"opponents": names(params.get("opponents", params.get("opponent"))), "game": game_title(params)}
    if "seconds_left" in params:
        body = gettext("You have %(left)s left to move against %(opponents)s (%(game)s).") % {
            **values, "left": time_left(params.get("seconds_left"))}
    else:
        body = gettext("You have less than %(left)s left to move against %(opponents)s (%(game)s).") % {
            **values, "left": time_left(int(params.get("hours", 0) or 0) * 3600)}
    return Text(gettext("Your clock is running out"), body)


_WORDINGS: dict[str, Callable[[Params], Text]] = {
    Kind.TURN: _turn, Kind.CHALLENGE: _challenge, Kind.GAME_END: _game_end,
    Kind.TOURNAMENT_SOON: _tournament_soon, Kind.TOURNAMENT_ROUND: _tournament_round,
    Kind.REPORT_DECISION: _report_decision, Kind.FOLLOWER: _follower, Kind.CLOCK: _clock,
}
