"""A tournament's chat room (``tournament:7``, issue 25): everyone reads it
unless the organizer switched it off; who writes is the organizer's choice
(Tournament.chat_for, lichess Swiss's chatFor): the players entered and the
organizer, the players only, the organizer's announcements only, or nobody.

The checks of a line are chat.lines.post's; this module says who may write and
tells the tournament's sockets of each new line.
"""

from __future__ import annotations

from typing import Any, TypedDict

from django.db import transaction
from django.utils.translation import gettext

from chat import lines as chat_lines
from chat.lines import Refused
from chat.models import Line
from games import chat as game_chat
from games.timestamps import stamp
from ladder import lobby_groups
from tournaments import changes, organizing
from tournaments.models import Entry, Tournament

ChatFor = Tournament.ChatFor


class LineJSON(TypedDict):
    id: int
    user: str
    text: str
    preset: str
    removed: bool
    at: str


def room_name(tournament_id: int) -> str:
    return f"tournament:{tournament_id}"


def may_read(tournament: Tournament) -> bool:
    return tournament.chat_for != ChatFor.OFF


def may_write(tournament: Tournament, user: Any) -> bool:
    if not getattr(user, "is_authenticated", False) or tournament.chat_for == ChatFor.OFF:
        return False
    organizer = organizing.may_organize(user, tournament)
    if tournament.chat_for == ChatFor.ORGANIZER:
        return organizer
    entered = Entry.objects.filter(tournament=tournament, user=user, withdrawn_at__isnull=True).exists()
    return entered or (organizer and tournament.chat_for == ChatFor.ENTRANTS)


def say(tournament_id: int, user: Any, *, text: str = "", preset: str = "") -> LineJSON:
    """Post one line to the tournament's room and tell its pages, or raise Refused."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        raise Refused("tournament", gettext("There is no tournament %(number)s.") % {"number": tournament_id})
    if not may_write(tournament, user):
        raise Refused("room", refusal(tournament, user))
    line = chat_lines.post(room_name(tournament.pk), game_chat.speaker(user), text=text, preset=preset)
    shown = line_json(line)
    message = {"type": "chat.line", "line": shown}
    transaction.on_commit(lambda: lobby_groups.send_to_group(changes.group_name(tournament.pk), message))
    return shown


def closed(tournament: Tournament, user: Any) -> str:
    """Why the page shows ``user`` no field to write in, or "": the room's rule,
    or the site's (a player of a running team game writes nothing here, RH36)."""
    if not may_write(tournament, user):
        return refusal(tournament, user)
    silence = chat_lines.silenced(user, room_name(tournament.pk))
    return "" if silence is None else str(silence)


def refusal(tournament: Tournament, user: Any) -> str:
    """Why ``user`` may not write here, in words for them (the page shows it instead of the box)."""
    if tournament.chat_for == ChatFor.OFF:
        return gettext("The organizer has switched this tournament's chat off.")
    if not getattr(user, "is_authenticated", False):
        return gettext("Log in to chat.")
    if tournament.chat_for == ChatFor.ORGANIZER:
        return gettext("Only the organizer writes here: this chat is for announcements.")
    return gettext("Only the tournament's players write here.")


def line_json(line: Line) -> LineJSON:
    return {"id": line.pk, "user": line.author.get_username(), "removed": line.removed,
            "text": "" if line.removed else line.text, "preset": "" if line.removed else line.preset,
            "at": stamp(line.created)}


def lines_for(tournament: Tournament, reader: Any) -> list[Line]:
    """The room's last lines for the page, without those of authors the reader muted."""
    return chat_lines.recent_lines(room_name(tournament.pk), reader) if may_read(tournament) else []


def announce_removed(sender: Any, lines: list[Line], **kwargs: Any) -> None:
    """A moderator removed lines (chat.lines.lines_removed): the tournaments' pages show them removed."""
    prefix = "tournament:"
    for line in lines:
        number = line.room[len(prefix):]
        if line.room.startswith(prefix) and number.isdigit():
            lobby_groups.send_to_group(changes.group_name(int(number)), {"type": "chat.line", "line": line_json(line)})
