"""A tournament's stored notes worded in the reader's language.

Why a player left (``Entry.withdrawn_why``) and why a tournament ended
(``Tournament.end_note``) are kept as ``running`` writes them, in English:
the API, the admin and the record read them so. The pages show them through
these functions, which recognise each kind of note and translate it; a note
of an unknown kind is shown as it is.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext, ngettext

_REMOVED = re.compile(r"removed by the organizer(?:: (?P<reason>.*))?", re.DOTALL)
_NO_SHOWS = re.compile(r"withdrawn after (?P<count>\d+) no-shows")
_ALL_ROUNDS = re.compile(r"all (?P<count>\d+) rounds played")
_TOO_FEW = re.compile(r"(?P<count>\d+) player\(s\) at the start: not enough")
_NO_PAIRING = re.compile(r"ended after round (?P<number>\d+): no legal pairing exists \((?P<detail>.*)\)", re.DOTALL)


def withdrawal(why: str) -> str:
    """Why a player left, e.g. "withdrew", "removed by the organizer: left the club"."""
    if why == "withdrew":
        return gettext("withdrew")
    if removed := _REMOVED.fullmatch(why):
        reason = removed["reason"]
        if reason == "removed in the admin":  # the admin's own reason (admin.py); an organizer's is theirs
            reason = gettext("removed in the admin")
        if reason:
            return gettext("removed by the organizer: %(reason)s") % {"reason": reason}
        return gettext("removed by the organizer")
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
