"""A game's two chat rooms (issue 25), as lichess has them: the players' room
(``game:12``) and the spectators' (``game:12/w``).

- The players' room is its seated players' only, during and after the game. In
  a running 4-player team game only the preset phrases may be said (RH36: no
  hints between partners, whose hands are hidden from each other, RH29); the
  site holds its players to that in every room (games.partners).
- The spectators' room is everyone else's; the players neither read nor write
  it until the game is over, so that nothing a watcher says reaches a player
  while it could help them.

The checks of a line are chat.lines.post's; this module says who may read and
write which room, and tells the game's sockets and streams of each new line.
"""

from __future__ import annotations

from typing import Any, TypedDict

from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from chat import lines as chat_lines
from chat.lines import Refused, Speaker
from chat.models import Line
from games import bots, broadcast
from games.timestamps import stamp
from games.models import Game, Seat

PLAYERS, SPECTATORS = "player", "spectator"
ROOMS = (PLAYERS, SPECTATORS)


class LineJSON(TypedDict):
    id: int
    room: str
    user: str
    text: str
    preset: str
    removed: bool
    at: str


def room_name(game_id: int, room: str) -> str:
    return f"game:{game_id}" if room == PLAYERS else f"game:{game_id}/w"


def may_read(game: Game, user: Any, room: str) -> bool:
    seated = game.seat_of(user) is not None
    if room == PLAYERS:
        return seated
    return not seated or not game.running


def may_write(game: Game, user: Any, room: str) -> bool:
    return bool(getattr(user, "is_authenticated", False)) and may_read(game, user, room)


def presets_only(game: Game, room: str) -> bool:
    """RH36: partners give no hints, so a running team game's players say only presets
    (what the page offers; the refusal is games.partners.silence's, as anywhere else)."""
    return room == PLAYERS and game.running and game.players == 4


def speaker(user: Any) -> Speaker:
    finished = Seat.objects.filter(user=user, game__status=Game.Status.FINISHED)[:chat_lines.LINKS_FROM_GAMES]
    return Speaker(user, established=finished.count() >= chat_lines.LINKS_FROM_GAMES,
                   bot=bots.level_of(user.pk) is not None)


def say(game_id: int, user: Any, room: str, *, text: str = "", preset: str = "") -> LineJSON:
    """Post one line to one of the game's rooms and tell the game's sockets, or
    raise Refused (nothing stored, only the sender told)."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise Refused("game", gettext("There is no game %(number)s.") % {"number": game_id})
    if room not in ROOMS:
        raise Refused("room", gettext("A game's chat rooms are %(rooms)s.") % {"rooms": ", ".join(ROOMS)})
    if not may_write(game, user, room):
        raise Refused("room", _room_refusal(game, user, room))
    line = chat_lines.post(room_name(game.pk, room), speaker(user), text=text, preset=preset, now=timezone.now())
    shown = line_json(line, room)
    broadcast.notify(game.pk, game.ply, "chat.line", room=room, line=shown)
    return shown


def _room_refusal(game: Game, user: Any, room: str) -> str:
    if not getattr(user, "is_authenticated", False):
        return gettext("Log in to chat.")
    if room == PLAYERS:
        return gettext("Only the game's players write in its players' chat.")
    return gettext("The spectators' chat opens to the players when the game is over.")


def line_json(line: Line, room: str) -> LineJSON:
    """A line as frames and pages carry it: the preset's key (the page words it in
    its reader's language), never a removed line's words."""
    return {"id": line.pk, "room": room, "user": line.author.get_username(), "removed": line.removed,
            "text": "" if line.removed else line.text, "preset": "" if line.removed else line.preset,
            "at": stamp(line.created)}


def lines_for(game: Game, user: Any) -> dict[str, list[LineJSON]]:
    """Each room the user may read, with its last lines (those of authors they muted left out)."""
    return {room: [line_json(line, room) for line in chat_lines.recent_lines(room_name(game.pk, room), user)]
            for room in ROOMS if may_read(game, user, room)}


def boxes(game: Game, user: Any) -> list[dict[str, Any]]:
    """The game page's chat boxes (templates/chat/_box.html): each room the user
    may read, its last lines, and whether and how they may write there."""
    titles = {PLAYERS: gettext_lazy("Players' chat"), SPECTATORS: gettext_lazy("Spectators' chat")}
    shown = []
    for room in ROOMS:
        if may_read(game, user, room):
            closed = _closed(game, user, room)
            shown.append({"room": room, "title": titles[room], "presets": room == PLAYERS,
                          "lines": chat_lines.recent_lines(room_name(game.pk, room), user),
                          "may_write": not closed, "presets_only": presets_only(game, room), "closed": closed})
    return shown


def _closed(game: Game, user: Any, room: str) -> str:
    """Why the box offers its reader no way to write, or "": the room's own rule,
    or the site's (a player of a running team game writes only that game's
    presets, games.partners; its own box offers them with a sentence saying why)."""
    if not may_write(game, user, room):
        return _room_refusal(game, user, room)
    if presets_only(game, room):
        return ""
    silence = chat_lines.silenced(user, room_name(game.pk, room))
    return "" if silence is None else str(silence)


def rooms_json(game: Game, user: Any) -> dict[str, Any]:
    """The rooms again, for a page whose game just ended (the spectators' room opens
    to the players, free text to a team game's): lines worded for the reader."""
    return {"rooms": [{"room": box["room"], "title": str(box["title"]), "may_write": box["may_write"],
                       "presets_only": box["presets_only"],
                       "lines": [{**line_json(line, box["room"]), "said": chat_lines.shown_text(line)}
                                 for line in box["lines"]]}
                      for box in boxes(game, user)]}


def seated(game_id: int, user: Any) -> bool:
    """Whether ``user`` sits at the game: a player's socket gets the spectators'
    lines only once it is over, one watching their own game's replay included."""
    return bool(getattr(user, "is_authenticated", False)) and Seat.objects.filter(game_id=game_id, user=user).exists()


def announce_removed(sender: Any, lines: list[Line], **kwargs: Any) -> None:
    """A moderator removed lines (chat.lines.lines_removed): the games' pages show them removed."""
    for line in lines:
        game_id, room = _game_room(line.room)
        if game_id is not None:
            broadcast.notify(game_id, 0, "chat.line", room=room, line=line_json(line, room))


def may_read_room(name: str, user: Any) -> bool:
    """Whether ``user`` may read the room called ``name``: a game's as its rules
    say; any other room is public (a tournament's, unless its chat is off, which
    hides the lines but keeps them)."""
    game_id, room = _game_room(name)
    if game_id is None:
        return True
    game = Game.objects.filter(pk=game_id).first()
    return game is not None and may_read(game, user, room)


def _game_room(name: str) -> tuple[int | None, str]:
    """(12, "player") for "game:12", (12, "spectator") for "game:12/w", (None, "") otherwise."""
    if not name.startswith("game:"):
        return None, ""
    number, _slash, watchers = name[len("game:"):].partition("/")
    return (int(number), SPECTATORS if watchers == "w" else PLAYERS) if number.isdigit() else (None, "")
