"""Game records and replays: a stored game as an engine record, its positions step by step,
and a player's recent games.

What leaves here for a page obeys R18/R19 like the socket does: while a game
runs, a record has no seed and a replay step is a spectator's view; once it is
over, the seed is public and the steps also show both hands.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypedDict

import engine
from engine.ace.actions import Action
from engine.record import Record, replay
from engine.ace.view import ViewJSON
from games.models import Game


class StepJSON(TypedDict):
    """One position of a replay: the public view, the action that led to it,
    and both hands once the game is over (None while it runs)."""

    index: int
    action: str | None
    seat: str | None  # who played `action`
    view: ViewJSON
    hands: dict[str, list[str]] | None


def record_of(game: Game) -> Record:
    """The game as an engine record: public (no seed) while it runs (R19)."""
    return _full_record(game).public()


def _full_record(game: Game) -> Record:
    """With the seed even while running: for server-side replay only, never sent."""
    over = not game.running
    return Record(
        commitment=game.commitment,
        red=game.seat("red").user.get_username(),
        black=game.seat("black").user.get_username(),
        seed=game.seed,
        actions=tuple(Action.parse(m.action) for m in game.moves.order_by("ply")),
        winner=(game.winner or None) if over else None,
        reason=(game.reason or None) if over else None,
        headers={
            "Site": "aceweb",
            "GameId": str(game.pk),
            "Date": game.created.strftime("%Y.%m.%d"),
            "TimeControl": game.time_control.key,
            "Rated": "yes" if game.rated else "no",
            **_event_headers(game),
        },
    )


def _event_headers(game: Game) -> dict[str, str]:
    """The tournament and round a game was played in, and an adjudication's reason."""
    headers = {"Event": game.event, "Round": game.event_round, "Adjudication": game.adjudication_note}
    return {name: value for name, value in headers.items() if value}


def steps_of_game(game: Game) -> list[StepJSON]:
    """Every position of a stored game, as much as anyone may see of it now.

    Replayed from the secret seed even while the game runs, but then only
    spectator views go out: no hand, no deck.
    """
    states = replay(_full_record(game))
    return _steps(states, reveal=not game.running)


def steps_of_record(record: Record) -> list[StepJSON]:
    """Every position of an imported record (RecordError if it does not replay).

    The record carries its seed, so everything in it is already public:
    the hands are shown.
    """
    return _steps(replay(record), reveal=True)


def _steps(states: list[engine.State], reveal: bool) -> list[StepJSON]:
    steps: list[StepJSON] = []
    for index, state in enumerate(states):
        view = engine.view(state, None).to_json()
        seat = None if index == 0 else ("red" if index % 2 == 1 else "black")
        hands = None
        if reveal:
            full = engine.to_json(state)
            hands = {s: list(full["hands"][s]) for s in ("red", "black")}
        steps.append({
            "index": index,
            "action": view["discards"][seat][-1] if seat else None,
            "seat": seat,
            "view": view,
            "hands": hands,
        })
    return steps


# --- A player's games --------------------------------------------------------


@dataclass(frozen=True)
class GameRow:
    """One line of a player's game list, from that player's point of view."""

    game_id: int
    opponents: tuple[str, ...]  # the other side's players: two in a team game
    seat: str
    title: str  # the game: "Ace in the Hole", "Rhombus, 4 players"
    result: str  # "win", "loss", "draw", "aborted" or "playing"
    reason: str  # the reason's label, e.g. "on time (R17)"; "" while running
    time_control: str
    rated: bool
    date: datetime
    replay_url: str
    live_url: str

    @property
    def running(self) -> bool:
        return self.result == "playing"


def games_of(user: Any, limit: int = 20) -> list[GameRow]:
    """``user``'s most recent games, newest first."""
    games = (Game.objects.filter(seats__user=user).prefetch_related("seats__user")
             .defer("position").order_by("-created")[:limit])
    return [_row(game, user) for game in games]


def _row(game: Game, user: Any) -> GameRow:
    seat = game.seat_of(user) or ""
    opponents = [s.user.get_username() for s in game.table if s.name not in game.side_of(seat)]
    return GameRow(
        game_id=game.pk,
        opponents=tuple(opponents),
        seat=seat,
        title=game.title,
        result=_result(game, seat),
        reason=game.reason_label if game.reason else "",
        time_control=game.time_control.label,
        rated=game.rated,
        date=game.finished or game.created,
        replay_url=f"/games/{game.pk}/replay/" if game.has_replay else "",
        live_url=f"/games/{game.pk}/",
    )


def _result(game: Game, seat: str) -> str:
    if game.running:
        return "playing"
    if game.status == Game.Status.ABORTED:
        return "aborted"
    if not game.winner:
        return "draw"
    return "win" if game.won(seat) else "loss"
