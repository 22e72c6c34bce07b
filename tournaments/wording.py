"""A tournament's stored notes worded in the reader's language, and its podium.

Why a player left (``Entry.withdrawn_why``) and why a tournament ended
(``Tournament.end_note``) are kept as ``running`` writes them, in English:
the API, the admin and the record read them so. The pages show them through
these functions, which recognise each kind of note and translate it; a note
of an unknown kind is shown as it is.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext, gettext_lazy, ngettext

_REMOVED = re.compile(r"removed by the organizer(?:: (?P<reason>.*))?", re.DOTALL)
_DISQUALIFIED = re.compile(r"disqualified(?:: (?P<reason>.*))?", re.DOTALL)
_NO_SHOWS = re.compile(r"withdrawn after (?P<count>\d+) no-shows")
_ALL_ROUNDS = re.compile(r"all (?P<count>\d+) rounds played")
_TOO_FEW = re.compile(r"(?P<count>\d+) player\(s\) at the start: not enough")
_NO_PAIRING = re.compile(r"ended after round (?P<number>\d+): no legal pairing exists \((?P<detail>.*)\)", re.DOTALL)


def withdrawal(why: str) -> str:
    """Why a player left, e.g. "withdrew", "removed by the organizer: left the club"."""
    if why == "withdrew":
        return gettext("withdrew")
    if why == "account closed":  # tournaments.closing
        return gettext("account closed")
    if removed := _REMOVED.fullmatch(why):
        reason = removed["reason"]
        if reason == "removed in the admin":  # the admin's own reason (admin.py); an organizer's is theirs
            reason = gettext("removed in the admin")
        if reason:
            return gettext("removed by the organizer: %(reason)s") % {"reason": reason}
        return gettext("removed by the organizer")
    if disqualified := _DISQUALIFIED.fullmatch(why):  # tournaments.corrections
        if disqualified["reason"]:
            return gettext("disqualified: %(reason)s") % {"reason": disqualified["reason"]}
        return gettext("disqualified")
    if no_shows := _NO_SHOWS.fullmatch(why):
        count = int(no_shows["count"])
        return ngettext("withdrawn after %(count)s no-show", "withdrawn after %(count)s no-shows", count) % {
            "count": count}
    return why


def end_note(note: str) -> str:
    """Why a tournament ended, e.g. "all 7 rounds played", "cancelled by the organizer"."""
    fixed = {
        "cancelled by the organizer": gettext("cancelled by the organizer"),
        "the bracket is complete": gettext("the bracket is complete"),
        "every round played": gettext("every round played"),
    }
    if note in fixed:
        return fixed[note]
    if rounds := _ALL_ROUNDS.fullmatch(note):
        count = int(rounds["count"])
        return ngettext("all %(count)s round played", "all %(count)s rounds played", count) % {"count": count}
    if too_few := _TOO_FEW.fullmatch(note):
        count = int(too_few["count"])
        return ngettext("%(count)s player at the start: not enough", "%(count)s players at the start: not enough",
                        count) % {"count": count}
    if stuck := _NO_PAIRING.fullmatch(note):
        return gettext("ended after round %(number)s: no legal pairing exists (%(detail)s)") % {
            "number": stuck["number"], "detail": _pairing_detail(stuck["detail"])}
    return note


def _pairing_detail(detail: str) -> str:
    """swiss.NoPairing's reason (the pure module words it in English)."""
    if detail == "no pairing meets the absolute criteria (rematches, forbidden pairs, colours, byes)":
        return gettext("no pairing meets the absolute criteria (rematches, forbidden pairs, colours, byes)")
    return detail


# The podium's places, each a whole line a translation can word as its
# language does (no English ordinal glued to a number).
PODIUM = {1: gettext_lazy("Winner: %(names)s"), 2: gettext_lazy("2nd: %(names)s"), 3: gettext_lazy("3rd: %(names)s")}
# A place shared in the standings (Swiss, round robin): the players are level on
# points and on every tiebreak the organizer chose, which the line names, so that
# "Winner: a, b, c" does not read as a mistake (issue 35).
SHARED = {
    1: gettext_lazy("Shared first place: %(names)s — equal on points and on every tiebreak (%(tiebreaks)s)"),
    2: gettext_lazy("Shared second place: %(names)s — equal on points and on every tiebreak (%(tiebreaks)s)"),
    3: gettext_lazy("Shared third place: %(names)s — equal on points and on every tiebreak (%(tiebreaks)s)"),
}


def podium_line(place: int, names: list[str], tiebreaks: list[str] | None) -> str:
    """One place of a finished tournament's podium, e.g. "Winner: alice".
    ``tiebreaks``: the labels of the tiebreaks that ranked the standings, or
    None for a bracket's places (two losers of the semi-finals share the third
    place there by the bracket's design, not by a tie)."""
    if len(names) > 1 and tiebreaks is not None:
        return SHARED[place] % {"names": ", ".join(names), "tiebreaks": ", ".join(tiebreaks)}
    return PODIUM[place] % {"names": ", ".join(names)}
