"""Every check a chat line goes through, in one place (issue 25), for the game and
tournament sockets, the pages and the API alike.

``post`` either stores the line and returns it, or raises ``Refused`` with a
sentence for the sender alone, storing nothing. The caller decides the room's
rules (who may read and write it, whether only presets may be said) and who the
speaker is (``Speaker``); this module knows no game and no tournament.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.dispatch import Signal
from django.utils import formats, timezone
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from chat import shutup, text as texts
from chat.models import ChatTimeout, Line, Mute, RoomLock

SHOWN = 100  # lines of a room shown (lichess keeps the last 100 too)
FLOOD_LINES = 5  # lichess's Flood: at most 5 lines ...
FLOOD_SECONDS = 10  # ... in 10 seconds
REPEAT_SECONDS = 60  # a near-repeat counts in the same room within a minute (lichess's flood source and expiry)
LINKS_FROM_GAMES = 10  # an account's finished games before it may post links
SCORE_LINES = 20  # the abuse score sums the author's last 20 lines ...
SCORE_HOURS = 24  # ... of the last day
REPORT_SCORE = 3  # three insults in that window report the author

# The preset phrases (lichess's set), stored by key and shown in the reader's language.
PRESETS: dict[str, Promise] = {
    "hello": pgettext_lazy("chat preset", "Hello"),
    "goodluck": pgettext_lazy("chat preset", "Good luck"),
    "havefun": pgettext_lazy("chat preset", "Have fun"),
    "youtoo": pgettext_lazy("chat preset", "You too"),
    "goodgame": pgettext_lazy("chat preset", "Good game"),
    "wellplayed": pgettext_lazy("chat preset", "Well played"),
    "thanks": pgettext_lazy("chat preset", "Thank you"),
    "gottago": pgettext_lazy("chat preset", "I've got to go"),
    "sorry": pgettext_lazy("chat preset", "Sorry"),
}

# Sent when a line takes its author's abuse score over REPORT_SCORE, or holds a
# critical word: moderation turns it into a report with these lines.
abuse_found = Signal()  # sender=Line, author, lines (the scored window), critical (bool)
# Sent after a moderator removed lines: the floors whose rooms they were tell their pages.
lines_removed = Signal()  # sender=Line, lines
# Sent after commit when a user mutes or unmutes someone: the floors tell that user's
# open sockets and streams, which keep the mute list while they are open.
mutes_changed = Signal()  # sender=Mute, user


class Refused(ValueError):
    """A line not taken, and why, in words for its sender."""

    def __init__(self, code: str, message: Any) -> None:
        super().__init__(str(message))
        self.code = code
        self.message = message


# Who may say nothing here now, whatever the room: a higher floor registers the
# check (games: a player seated in a running team game, RH36), so that every room,
# today's and any added later, is held to it by this one function.
Silence = Callable[[Any, str, bool], "Refused | None"]  # (user, room, preset) -> why not, or None
_silences: list[Silence] = []


def provide_silence(check: Silence) -> None:
    """Register ``check(user, room, preset)`` (registering twice is harmless)."""
    if check not in _silences:
        _silences.append(check)


def silenced(user: Any, room: str = "", preset: bool = False) -> Refused | None:
    """The first registered check's refusal of such a line by ``user`` now, or
    None. ``room`` "" asks for text written elsewhere than in a chat room (a
    tournament's name, say); pages ask it to show a closed box, not a field."""
    for check in _silences:
        if (refusal := check(user, room, preset)) is not None:
            return refusal
    return None


def refuse_silenced(user: Any, room: str = "", preset: bool = False) -> None:
    if (refusal := silenced(user, room, preset)) is not None:
        raise refusal


@dataclass(frozen=True)
class Speaker:
    """Who speaks, as the calling floor knows them: ``established`` when the account
    has LINKS_FROM_GAMES finished games, ``bot`` for computer and BOT accounts."""

    user: Any
    established: bool = False
    bot: bool = False


def post(room: str, speaker: Speaker, *, text: str = "", preset: str = "",
         now: datetime | None = None) -> Line:
    """Store one line in room, or raise Refused and store nothing."""
    now = now or timezone.now()
    refuse_timed_out(speaker.user, now)
    refuse_silenced(speaker.user, room, bool(preset))
    if preset:
        refuse_unknown_preset(preset)
        text = ""
    else:
        text = checked_text(text, speaker)
        refuse_locked_room(room, speaker, now)
    recent = list(Line.objects.filter(author=speaker.user).order_by("-id")[:SCORE_LINES])
    refuse_flood(recent, now)
    if text:
        refuse_repeat(speaker.user, room, text, now)
    with transaction.atomic():
        line = Line.objects.create(room=room, author=speaker.user, text=text, preset=preset, created=now,
                                   weight=shutup.weight(text) if text else 0)
        score_abuse(line, recent, now)
    return line


def checked_text(raw: str, speaker: Speaker) -> str:
    cleaned = texts.clean(raw)
    if not cleaned:
        raise Refused("empty", _("Write something first."))
    if len(cleaned) > texts.MAX_LENGTH:
        raise Refused("too-long", _("A line holds at most %(limit)d characters; this one has %(length)d.")
                      % {"limit": texts.MAX_LENGTH, "length": len(cleaned)})
    if texts.has_link(cleaned) and (speaker.bot or not speaker.established):
        raise Refused("link", _("Links may be posted only by accounts with %(games)d finished games, "
                                "and never by bots.") % {"games": LINKS_FROM_GAMES})
    return cleaned


def refuse_unknown_preset(preset: str) -> None:
    if preset not in PRESETS:
        raise Refused("preset", _("There is no such preset phrase."))


def refuse_timed_out(user: Any, now: datetime) -> None:
    timeout = active_timeout(user, now)
    if timeout is not None:
        raise Refused("timeout", timeout_sentence(timeout))


def timeout_sentence(timeout: ChatTimeout) -> str:
    """Why and until when, in the reader's language and time zone."""
    until = formats.date_format(timezone.localtime(timeout.ends), "DATETIME_FORMAT")
    return str(_("A moderator has kept you out of chat until %(until)s, for %(reason)s.")
               % {"until": until, "reason": timeout.get_reason_display()})


def active_timeout(user: Any, now: datetime) -> ChatTimeout | None:
    return ChatTimeout.objects.filter(user=user, starts__lte=now, ends__gt=now).order_by("-ends").first()


def refuse_locked_room(room: str, speaker: Speaker, now: datetime) -> None:
    lock = None if speaker.established else RoomLock.objects.filter(room=room, ends__gt=now).first()
    if lock is not None:
        until = formats.date_format(timezone.localtime(lock.ends), "DATETIME_FORMAT")
        raise Refused("locked", _("Until %(until)s, only accounts with %(games)d finished games may write here.")
                      % {"until": until, "games": LINKS_FROM_GAMES})


def refuse_flood(recent: list[Line], now: datetime) -> None:
    """At most FLOOD_LINES in FLOOD_SECONDS, in any rooms."""
    window = recent[:FLOOD_LINES]
    if len(window) == FLOOD_LINES and now - window[-1].created < timedelta(seconds=FLOOD_SECONDS):
        raise Refused("flood", _("Too many lines at once: wait a few seconds."))


def refuse_repeat(user: Any, room: str, text: str, now: datetime) -> None:
    """Free text not nearly the same as either of the author's last two lines in
    this room within REPEAT_SECONDS, as lichess's flood keeps a source's lines a
    minute: a greeting may be said again in the next game (presets always may)."""
    since = now - timedelta(seconds=REPEAT_SECONDS)
    said = Line.objects.filter(author=user, room=room, created__gte=since).order_by("-id")
    if any(earlier and texts.too_close(text, earlier) for earlier in said.values_list("text", flat=True)[:2]):
        raise Refused("repeat", _("You said nearly the same a moment ago."))


def score_abuse(line: Line, recent: list[Line], now: datetime) -> None:
    """Announce the author to moderation when this line is critical, or when it
    takes the author's score over REPORT_SCORE (not again while it stays over)."""
    if not line.weight:
        return
    since = now - timedelta(hours=SCORE_HOURS)
    window = [line, *(old for old in recent[:SCORE_LINES - 1] if old.created >= since)]
    score = sum(old.weight for old in window)
    critical = line.weight >= shutup.CRITICAL
    if critical or score - line.weight < REPORT_SCORE <= score:
        flagged = [old for old in window if old.weight]
        abuse_found.send(sender=Line, author=line.author, lines=flagged, critical=critical)


def recent_lines(room: str, reader: Any = None) -> list[Line]:
    """The room's last SHOWN lines, oldest first, without those of authors the
    reader muted; removed lines stay (shown as removed)."""
    lines = Line.objects.filter(room=room).select_related("author")
    if reader is not None and reader.is_authenticated:
        lines = lines.exclude(author__in=Mute.objects.filter(user=reader).values("muted"))
    return list(reversed(lines.order_by("-id")[:SHOWN]))


def shown_text(line: Line) -> str:
    """What a reader sees: the preset in their language, the text, or that it went."""
    return words(line.text, line.preset, line.removed)


def words(text: str, preset: str, removed: bool = False) -> str:
    """What a line shown from its JSON says, in the active language."""
    if removed:
        return str(_("removed by a moderator"))
    return str(PRESETS[preset]) if preset in PRESETS else text


def muted_names(user: Any) -> set[str]:
    """The usernames ``user`` muted: a socket leaves their lines out."""
    return set(Mute.objects.filter(user=user).values_list("muted__username", flat=True))


def mute(user: Any, other: Any) -> None:
    if user.pk != other.pk:
        Mute.objects.get_or_create(user=user, muted=other)
        _mutes_changed(user)


def unmute(user: Any, other: Any) -> None:
    Mute.objects.filter(user=user, muted=other).delete()
    _mutes_changed(user)


def _mutes_changed(user: Any) -> None:
    """After commit, so that a socket reading the list again reads the new one."""
    transaction.on_commit(lambda: mutes_changed.send(sender=Mute, user=user))


def mutes(user: Any, other: Any) -> bool:
    """Whether user muted other (their challenges to user are then refused quietly)."""
    return Mute.objects.filter(user=user, muted=other).exists()


def time_out(user: Any, moderator: Any, reason: str, minutes: int, now: datetime | None = None) -> ChatTimeout:
    now = now or timezone.now()
    return ChatTimeout.objects.create(user=user, moderator=moderator, reason=reason, starts=now,
                                      ends=now + timedelta(minutes=minutes))


def remove(line_ids: Iterable[int]) -> list[Line]:
    """Mark lines removed; returns those that were not yet (for the rooms to be told)."""
    lines = list(Line.objects.filter(pk__in=list(line_ids), removed=False).select_related("author"))
    Line.objects.filter(pk__in=[line.pk for line in lines]).update(removed=True)
    for line in lines:
        line.removed = True
    if lines:
        transaction.on_commit(lambda: lines_removed.send(sender=Line, lines=lines))
    return lines


def clear(user: Any, hours: int = SCORE_HOURS, now: datetime | None = None) -> list[Line]:
    """Remove everything user said in every room in the last hours."""
    since = (now or timezone.now()) - timedelta(hours=hours)
    return remove(Line.objects.filter(author=user, created__gte=since).values_list("pk", flat=True))


def lock_room(room: str, moderator: Any, minutes: int, now: datetime | None = None) -> RoomLock:
    ends = (now or timezone.now()) + timedelta(minutes=minutes)
    lock, _created = RoomLock.objects.update_or_create(room=room, defaults={"ends": ends, "moderator": moderator})
    return lock
