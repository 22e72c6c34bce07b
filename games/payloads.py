"""What one person sees of a game: a seat's (or a spectator's) view plus the
public game fields, the only thing ever sent to a client or handed to a bot.

Building a payload changes nothing: it reads the game, the bots and the
providers registered by the apps above (ratings), and nothing more.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypedDict

from django.utils import timezone

from games import botwaits
from games.models import Game, Move
from games.timestamps import stamp


class ClockJSON(TypedDict):
    ms: dict[str, int]  # each seat's time at the start of the turn
    running: str | None
    turn_started_at: str | None
    initial_seconds: int
    increment_seconds: int
    days_per_move: int | None
    time_control: str
    abort_at: str | None


class RematchJSON(TypedDict):
    offered_by: list[str]  # the seats that asked; a rematch starts once every player has
    game_id: int | None


class GameJSON(TypedDict):
    id: int
    kind: str  # engine.GAMES's name: "ace-in-the-hole", "rhombus"
    title: str
    variant: str
    seats: list[str]  # in turn order
    sides: list[list[str]]  # the seats that win or lose together
    players: dict[str, str]  # each seat's username
    status: str
    winner: str | None
    reason: str | None
    # As the record writes it, from the first seat's side: "1-0", "0-1",
    # "1/2-1/2", "0-0" (both lost: a double forfeit), "*" (running, aborted).
    result: str
    score: dict[str, int] | None
    rated: bool
    commitment: str
    seed: str | None
    clock: ClockJSON
    presence: dict[str, bool]
    claim_win_at: str | None
    rematch: RematchJSON
    bot: botwaits.BotJSON | None
    ratings: dict[str, RatingJSON] | None
    event: EventJSON | None  # the tournament round it belongs to
    adjudication: str | None  # why the result was adjudicated
    ending: str | None  # how it ended, worded as every page words it (games/results.py)


class EventJSON(TypedDict):
    name: str
    round: int  # the round's number, as the event stream's tournament_round_started has it
    label: str  # as the record's Round header names it: "3", or an elimination game's "W1-2 game 1"
    url: str


class RatingJSON(TypedDict):
    before: int
    after: int
    change: int


# A seat's (or a spectator's) view: ``kind`` (the game's name), then the rules'
# ``view(...).to_json()`` whose keys differ by game (engine.ace.view.ViewJSON,
# engine.rhombus.view.ViewJSON), plus ``game``: the public GameJSON. The API
# declares each game's shape field by field (api/schemas.py, View).
PayloadJSON = dict[str, Any]


# Where a finished rated game's rating changes come from: the ladder registers a
# provider in its AppConfig.ready(), since games must never import the ladder.
RatingsProvider = Callable[[Game], "dict[str, RatingJSON] | None"]
_ratings_providers: list[RatingsProvider] = []


def provide_ratings(provider: RatingsProvider) -> None:
    """Register a source of GameJSON's ``ratings`` (registering twice is harmless)."""
    if provider not in _ratings_providers:
        _ratings_providers.append(provider)


def _ratings_json(game: Game) -> dict[str, RatingJSON] | None:
    """Each seat's rating before and after a finished rated game, or None."""
    if not game.rated or game.status != Game.Status.FINISHED:
        return None  # no query for the moves of a running game
    for provider in _ratings_providers:
        ratings = provider(game)
        if ratings is not None:
            return ratings
    return None


def view_for(game: Game, user: Any, *, since: int | None = None) -> PayloadJSON:
    """The user's seat's view (spectator view for anyone else) plus the public
    game fields: the only thing ever sent to a client."""
    return seat_view(game, game.seat_of(user), since=since)


def seat_view(game: Game, seat: str | None, *, since: int | None = None) -> PayloadJSON:
    """What ``seat`` (None: a spectator) may see, from the rules' own view
    (R18, RH29): its own hand and no other, not even a partner's (RH36), and
    never the pile's order before the end. Every socket frame and every bot's
    input is built here.

    A game whose view does not spell its moves (Rhombus) adds the actions
    played: all of them, or with ``since`` (a ply the receiver already has)
    only those from that ply on, ``actions_from`` saying where they start. A
    long game's list would otherwise be rebuilt and sent in every frame.
    """
    # Rhombus's mover gets the card sets that have an action, not every legal
    # text (a Formation flush has tens of thousands): games.steps answers, use
    # by use, what can follow (issue 24). Ace in the Hole's list is cheap: kept.
    view = dict(game.rules.seat_view(state_of(game), seat, listing=False).to_json())
    if "discards" not in view:  # Ace in the Hole's discards spell its moves; Rhombus's pile does not
        start = 0 if since is None else min(since, game.ply)
        view["actions"] = _actions(game, start)
        view["actions_from"] = start
    if not game.running:  # resigned, out of time or aborted: the engine does not know it is over
        view.update({key: [] for key in ("legal", "sets") if key in view})
        if "firsts" in view:  # the one-card sets' first uses: nothing left to offer (docs/protocol.md)
            view["firsts"] = {}
    if "seed_hex" in view:  # Rhombus: the seed is public once the game is over, however it ended (RH30)
        view["seed_hex"] = None if game.running else game.position.get("seed_hex")
    # ``kind`` first: it tells a client (and the API spec's oneOf) which game's shape the rest has.
    payload: PayloadJSON = {"kind": game.kind, **view, "game": game_json(game)}
    return payload


def view_since(payload: PayloadJSON, since: int | None) -> PayloadJSON:
    """``seat_view(game, seat, since=since)`` from ``payload``, the same seat's
    ``seat_view(game, seat)`` of the same game: the actions a Rhombus view
    lists cut to those from ``since`` on. No other part of a view depends on
    ``since``."""
    if since is None or "actions_from" not in payload:
        return payload
    start = min(since, payload["ply"])
    return {**payload, "actions": payload["actions"][start - payload["actions_from"]:], "actions_from": start}


def state_of(game: Game) -> Any:
    """The rules' state of ``game.position``, read from its JSON once: a move
    keeps the state it made (games.moving's ``_record``) for the mover's view. Kept beside the
    very position object it was read from, so a new position is read anew."""
    kept = getattr(game, "_parsed", None)
    if kept is not None and kept[0] is game.position:
        return kept[1]
    state = game.rules.from_json(game.position)
    game._parsed = (game.position, state)
    return state


def _actions(game: Game, start: int) -> list[dict[str, str]]:
    """The actions from ply ``start`` up to the game's own ply, public as written
    (RH29): [{"seat": "SW", "action": "KC b1-b3"}, ...]. No query when there are
    none (a presence change, a clock's end), nor when ``game`` came with them:
    the move that made it (``moving.submit``) or a load that read them (``store.load``).

    Bounded by ``game.ply``: a move committed since ``game`` was read is not this
    view's (moves are only ever added), so the list and the view are of one
    moment (issue 22, 6: frames carried the action after their own ply).
    """
    if start >= game.ply:
        return []
    kept = getattr(game, "_actions_kept", None)
    if kept is not None and kept[0] <= start and kept[0] + len(kept[1]) == game.ply:
        return kept[1][start - kept[0]:]
    moves = (Move.objects.filter(game_id=game.pk, ply__gte=start, ply__lt=game.ply).order_by("ply")
             .values_list("seat", "action"))
    return [{"seat": seat, "action": action} for seat, action in moves]


def game_json(game: Game) -> GameJSON:
    over = not game.running
    now = timezone.now()
    claim_at = game.claim_win_at(now)
    finished = game.status == Game.Status.FINISHED
    return {
        "id": game.pk,
        "kind": game.kind,
        "title": game.title,
        "variant": game.variant,
        "seats": list(game.seat_names),
        "sides": [list(side) for side in game.sides],
        "players": {seat.name: player_name(game, seat.name) for seat in game.table},
        "status": game.status,
        "winner": game.winner or None,
        "reason": game.reason or None,
        "result": game.result,
        "score": game.score if finished else None,
        "rated": game.rated,
        "commitment": game.commitment,
        # R19: the seed becomes public once the game is over, never before.
        "seed": game.seed if over else None,
        "clock": clock_json(game),
        "presence": {seat.name: seat.present(now) for seat in game.table},
        "claim_win_at": stamp(claim_at) if claim_at else None,
        "rematch": {"offered_by": list(game.rematch_offers),
                    "game_id": game.rematch_game_id},
        "bot": botwaits.bot_json(game),
        "ratings": _ratings_json(game),
        "event": _event_json(game),
        "adjudication": game.adjudication_note or None,
        "ending": game.reason_label if game.reason and not game.running else None,
    }


def _event_json(game: Game) -> EventJSON | None:
    if not game.event:
        return None
    return {"name": game.event, "round": game.event_round_number, "label": game.event_round, "url": game.event_url}


def clock_json(game: Game) -> ClockJSON:
    running = game.to_move if game.running else None
    started = stamp(game.turn_started_at) if game.turn_started_at and running else None
    return {
        "ms": {seat: game.clock_ms(seat) for seat in game.seat_names},
        "running": running,
        "turn_started_at": started,
        "initial_seconds": game.initial_seconds,
        "increment_seconds": game.increment_seconds,
        "days_per_move": game.days_per_move,
        "time_control": game.time_control.key,
        "abort_at": stamp(game.abort_at) if game.abort_at and running else None,
    }


def player_name(game: Game, seat: str) -> str:
    """A seat's username; from the loaded row when ``store.load`` fetched it."""
    row = game.seat(seat)
    name = getattr(row, "user_name", None)
    return str(name) if name is not None else str(row.user.get_username())
