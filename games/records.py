"""Game records and replays: a stored game as an engine record, its positions step by step,
and a player's recent games.

Both games go the same way, Ace in the Hole (R18, R19) and Rhombus (RH29,
RH30): what leaves here for a page obeys the rules like the socket does:
while a game runs, a record has no seed and a replay step is a spectator's
view (no hand, no deck or pile); once it is over, the seed is public and the
steps also show every seat's hand.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypedDict

from django.db.models import QuerySet
from django.utils.translation import gettext_lazy, pgettext_lazy

import engine
from engine import rhombus
from engine.ace.actions import Action
from engine.errors import RecordError
from engine.record import (FORMAT, RHOMBUS_FORMAT, Record, RhombusRecord, read, read_rhombus, replay,
                           replay_rhombus)
from games import bots
from games.models import Game

# Any game's record: Ace in the Hole's (R19) or Rhombus's (RH30).
AnyRecord = Record | RhombusRecord

# The site's reasons as the Rhombus record writes them: the rules' endings by
# their rule (engine.rhombus.Outcome.reason), the platform's as they are.
RHOMBUS_REASONS = {
    Game.Reason.NO_PIECES: "RH25", Game.Reason.NO_ACTION: "RH26",
    Game.Reason.QUIET: "RH27", Game.Reason.FORMATION: "RH43",
}


class StepJSON(TypedDict):
    """One position of a replay: the public (spectator's) view, the action
    that led to it, and every hand once the game is over (None while it runs)."""

    index: int
    action: str | None
    seat: str | None  # who played `action`
    view: dict[str, Any]  # engine.ace.view.ViewJSON or engine.rhombus.view.ViewJSON
    hands: dict[str, list[str]] | None


def record_of(game: Game) -> AnyRecord:
    """The game as an engine record: public (no seed) while it runs (R19, RH30)."""
    return _full_record(game).public()


def _full_record(game: Game) -> AnyRecord:
    """With the seed even while running: for server-side replay only, never sent."""
    if game.kind == "rhombus":
        return _rhombus_record(game)
    over = not game.running
    return Record(
        commitment=game.commitment,
        red=game.seat("red").user.get_username(),
        black=game.seat("black").user.get_username(),
        seed=game.seed,
        actions=tuple(Action.parse(action) for action in played_actions(game)),
        winner=(game.winner or None) if over else None,
        reason=(game.reason or None) if over else None,
        headers=_headers(game),
    )


def _rhombus_record(game: Game) -> RhombusRecord:
    over = not game.running
    reason = (RHOMBUS_REASONS.get(game.reason, game.reason) or None) if over else None
    return RhombusRecord(
        commitment=game.commitment,
        players={seat.name: seat.user.get_username() for seat in game.table},
        variant=game.variant,
        dealer=str(game.position["dealer"]),  # fixed for the whole game (RH9), so the current position has it
        seed=game.seed,
        actions=tuple(rhombus.Action.parse(action) for action in played_actions(game)),
        winner=(game.winner or None) if over else None,
        reason=reason,
        headers=_headers(game),
    )


def played_actions(game: Game) -> list[str]:
    """The actions that led to ``game``'s position, as read: those before its
    ply only, so that a move committed since the row was read does not join a
    record of the earlier moment (issue 22, 6)."""
    return list(game.moves.filter(ply__lt=game.ply).order_by("ply").values_list("action", flat=True))


def _headers(game: Game) -> dict[str, str]:
    return {
        "Site": "aceweb",
        "GameId": str(game.pk),
        "Date": game.created.strftime("%Y.%m.%d"),
        "TimeControl": game.time_control.key,
        "Rated": "yes" if game.rated else "no",
        **_event_headers(game),
    }


def _event_headers(game: Game) -> dict[str, str]:
    """The tournament and round a game was played in, and an adjudication's reason."""
    headers = {"Event": game.event, "Round": game.event_round, "Adjudication": game.adjudication_note}
    return {name: value for name, value in headers.items() if value}


def kind_of(record: AnyRecord) -> str:
    """The engine.GAMES name of the game a record is of."""
    return "rhombus" if isinstance(record, RhombusRecord) else "ace-in-the-hole"


def read_record(text: str) -> AnyRecord:
    """A pasted or uploaded record of either game, in either form (RecordError
    saying what is wrong): JSON by its ``format``, text by its Game header, or
    by its seats' headers (Red/Black, or SW/NE/...) when it has none."""
    if text.lstrip().startswith("{"):
        data = _json(text)
        kind = data.get("format") if isinstance(data, dict) else None
        if kind == RHOMBUS_FORMAT or (kind is None and isinstance(data, dict) and "players" in data):
            return RhombusRecord.from_json(data)
        if kind not in (None, FORMAT):
            raise RecordError(f"unknown record format {kind!r}: aceweb reads {FORMAT} (Ace in the Hole) "
                              f"and {RHOMBUS_FORMAT} (Rhombus)")
        return Record.from_json(data)
    game = _GAME_TAG.search(text)
    if game is not None and game["name"] not in ("Ace in the Hole", "Rhombus"):
        raise RecordError(f"this is a record of {game['name']!r}: aceweb reads records of "
                          f"Ace in the Hole and of Rhombus")
    if (game is not None and game["name"] == "Rhombus") or (game is None and _SEAT_TAG.search(text)):
        return read_rhombus(text)
    return read(text)


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as e:  # a number over 4300 digits, nesting too deep
        raise RecordError(f"not valid JSON: {e}") from None


_GAME_TAG = re.compile(r'^\s*\[Game\s+"(?P<name>[^"]*)"\]', re.MULTILINE)
_SEAT_TAG = re.compile(r'^\s*\[(?:SW|SE|NE|NW)\s+"', re.MULTILINE)


def steps_of_game(game: Game) -> list[StepJSON]:
    """Every position of a stored game, as much as anyone may see of it now.

    Replayed from the secret seed even while the game runs, but then only
    spectator views go out: no hand, no deck, no pile.
    """
    record = _full_record(game)
    return _steps(record, _replayed(record), reveal=not game.running)


def steps_of_record(record: AnyRecord) -> list[StepJSON]:
    """Every position of an imported record (RecordError if it does not replay).

    The record carries its seed, so everything in it is already public:
    the hands are shown.
    """
    return _steps(record, _replayed(record), reveal=True)


def _replayed(record: AnyRecord) -> list[Any]:
    """Every state of the game; checks the seed against the commitment (R19, RH30)."""
    if isinstance(record, RhombusRecord):
        return list(replay_rhombus(record))
    return list(replay(record))


def _steps(record: AnyRecord, states: list[Any], reveal: bool) -> list[StepJSON]:
    rules = engine.GAMES[kind_of(record)]
    steps: list[StepJSON] = []
    for index, state in enumerate(states):
        view: dict[str, Any] = dict(rules.view(state, None).to_json())
        hands = None
        if reveal:  # the full position: only its hands leave, never a pile or deck order
            full = rules.to_json(state)
            hands = _hands(full)
        seat, action = _played(record, states, index, view)
        steps.append({"index": index, "action": action, "seat": seat, "view": view, "hands": hands})
    return steps


def _hands(full: dict[str, Any]) -> dict[str, list[str]]:
    if "seats" in full:  # Rhombus: a hand per seat (RH7)
        return {seat: list(shown["hand"]) for seat, shown in full["seats"].items()}
    return {seat: list(full["hands"][seat]) for seat in ("red", "black")}


def _played(record: AnyRecord, states: list[Any], index: int, view: dict[str, Any]) -> tuple[str | None, str | None]:
    """Who made the action leading to step ``index``, and its text as the record writes it."""
    if index == 0:
        return None, None
    if isinstance(record, RhombusRecord):
        return str(states[index - 1].turn), str(record.actions[index - 1])
    seat = "red" if index % 2 == 1 else "black"
    return seat, str(view["discards"][seat][-1])  # with its capture mark


# --- A player's games --------------------------------------------------------


@dataclass(frozen=True)
class GameRow:
    """One line of a player's game list, from that player's point of view."""

    game_id: int
    opponents: tuple[str, ...]  # the other side's players: two in a team game
    bots: dict[str, str]  # the bots among them: {name: engine level, "" for a BOT account}
    seat: str
    title: str  # the game: "Ace in the Hole", "Rhombus, 4 players"
    result: str  # "win", "loss", "draw", "aborted" or "playing"
    reason: str  # the reason's label, e.g. "on time (R17)"; "" while running
    time_control: str
    rated: bool
    date: datetime
    replay_url: str
    live_url: str
    partners: tuple[str, ...] = ()  # the player's own side but themselves: one in a team game

    @property
    def running(self) -> bool:
        return self.result == "playing"

    @property
    def result_label(self) -> str:
        """The result as the list shows it: "Win", "Loss", "Draw", "Aborted", "Playing"."""
        return str(RESULT_LABELS.get(self.result, self.result))

    @property
    def seat_label(self) -> str:
        """The seat as the list shows it: "Red", "Black", or a Rhombus seat ("SW") as it is."""
        return str(SEAT_LABELS.get(self.seat, self.seat))


RESULT_LABELS = {"win": pgettext_lazy("game result", "Win"), "loss": pgettext_lazy("game result", "Loss"),
                 "draw": pgettext_lazy("game result", "Draw"), "aborted": pgettext_lazy("game result", "Aborted"),
                 "playing": pgettext_lazy("game result", "Playing")}
SEAT_LABELS = {"red": gettext_lazy("Red"), "black": gettext_lazy("Black")}


def games_of(user: Any, limit: int = 20) -> list[GameRow]:
    """``user``'s most recent games, newest first."""
    return [row_of(game, user) for game in games_played_by(user)[:limit]]


def games_played_by(user: Any) -> QuerySet[Game]:
    """Every game ``user`` has a seat in, newest first, with the seats and
    their players loaded with them: slice it, or page it (the API)."""
    return (Game.objects.filter(seats__user=user).prefetch_related("seats__user")
            .defer("position").order_by("-created", "-pk"))


def row_of(game: Game, user: Any) -> GameRow:
    """``game`` as a line of ``user``'s game list."""
    seat = game.seat_of(user) or ""
    others = [s for s in game.table if s.name not in game.side_of(seat)]
    partners = [s for s in game.table if s.name in game.side_of(seat) and s.name != seat]
    levels = bots.bot_levels()  # cached per process: a list of 20 games asks nothing more
    return GameRow(
        game_id=game.pk,
        opponents=tuple(s.user.get_username() for s in others),
        partners=tuple(s.user.get_username() for s in partners),
        bots={s.user.get_username(): levels[s.user_id] for s in others + partners if s.user_id in levels},
        seat=seat,
        title=game.title,
        result=_result(game, seat),
        reason=game.reason_label if game.reason else "",
        time_control=game.time_control.label,
        rated=game.rated,
        date=game.finished or game.created,
        replay_url=f"/games/{game.pk}/replay/",
        live_url=f"/games/{game.pk}/",
    )


def _result(game: Game, seat: str) -> str:
    if game.running:
        return "playing"
    if game.status == Game.Status.ABORTED:
        return "aborted"
    won = game.won(seat)  # False for both sides of a double forfeit
    return "draw" if won is None else "win" if won else "loss"
