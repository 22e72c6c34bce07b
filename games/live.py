"""The running games as spectators find them: the live list, TV and their boards.

lichess's "current games" and TV. The running games are listed best rated
first, by ``Game.rating``: the players' mean ladder rating, snapshotted on the
game row when it started (``games.starting.provide_start_ratings``; games know no
ladder). Ordering by a column of the game row keeps a page at a constant
number of queries whatever the number of games (the games of the page, then
their seats and players), where asking the ladder per game would cost one
each, and the ratings a game started with are the ones its players played at.

A board is a *card*: the public facts of one game, taken from
``games.payloads.seat_view(game, None)``, the spectator's view, and never from
anything else, so no hand can reach a list, TV or its sockets (R18, RH29).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, TypedDict

from django.db.models import Count, Prefetch, Q, QuerySet
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from games import botmoves, payloads, starting
from games.models import Game, Seat
from games.timecontrols import SPEED_LABELS, TimeControl

PAGE_SIZE = 12  # boards a page of the live list shows (lichess shows a page of boards, not all)
HOME_SIZE = 6  # boards on the home page's panel
FOLLOWING_SIZE = 6  # the games of followed players, above the list

# The list's game filter: which rules, with how many players.
GAMES: dict[str, tuple[str, int]] = {"ace": (starting.ACE, 2), "rhombus": ("rhombus", 2), "rhombus-4": ("rhombus", 4)}
GAME_LABELS = {"ace": _("Ace in the Hole"), "rhombus": _("Rhombus"), "rhombus-4": _("Rhombus, 4 players")}
SPEEDS = tuple(SPEED_LABELS)


@dataclass(frozen=True)
class Filters:
    """A live list's choice: a key of GAMES and a speed (``""`` for any), and a slice."""

    game: str = ""
    speed: str = ""
    offset: int = 0
    limit: int = PAGE_SIZE

    @classmethod
    def from_query(cls, query: Any, limit: int = PAGE_SIZE) -> Filters:
        game, speed = query.get("game", ""), query.get("speed", "")
        try:
            page = max(1, min(1000, int(query.get("page", 1))))
        except (TypeError, ValueError):
            page = 1
        return cls(game if game in GAMES else "", speed if speed in SPEEDS else "", (page - 1) * limit, limit)

    @property
    def page(self) -> int:
        return self.offset // self.limit + 1

    @property
    def name(self) -> str:
        """The view's name in frames (docs/protocol.md, "The live-games socket")."""
        return f"{self.game or 'all'}/{self.speed or 'all'}/{self.offset}/{self.limit}"

    def admits(self, entry: Entry) -> bool:
        return (not self.game or entry.game == self.game) and (not self.speed or entry.speed == self.speed)


class SeatJSON(TypedDict):
    seat: str
    name: str
    rating: int | None


class CardJSON(TypedDict):
    """One board of the live list or TV: public only."""

    id: int
    url: str
    kind: str
    game: str  # a key of GAMES (the page words it: a card is built once for every reader)
    players: list[SeatJSON]
    sides: list[list[str]]  # the seats that play together: one each, or two teams of partners (RH31)
    rating: int | None
    time_control: str
    speed: str
    status: str
    ply: int
    to_move: str | None
    board: dict[str, str]
    clock: payloads.ClockJSON
    result: str
    event: str


def game_key(kind: str, players: int) -> str:
    return next((key for key, rules in GAMES.items() if rules == (kind, players)), kind)


def speed_of(initial_seconds: int, increment_seconds: int, days_per_move: int | None) -> str:
    return TimeControl(initial_seconds, increment_seconds, days_per_move).speed


# --- Reading the database --------------------------------------------------


def running() -> QuerySet[Game]:
    """Running games, best rated first (then newest), with their seats and players."""
    seats = Prefetch("seats", queryset=Seat.objects.select_related("user"))
    return (Game.objects.filter(status=Game.Status.RUNNING).prefetch_related(seats)
            .order_by("-rating", "-id"))


def filtered(filters: Filters) -> QuerySet[Game]:
    games = running()
    if filters.game:
        kind, players = GAMES[filters.game]
        games = games.filter(kind=kind, players=players)
    if filters.speed:
        games = games.filter(_of_speed(filters.speed))
    return games


def _of_speed(speed: str) -> Q:
    """The running games of one speed: the time controls in play are few, so
    they are read first (one query) and matched by value, as TimeControl.speed
    is worked out in Python."""
    controls = (Game.objects.filter(status=Game.Status.RUNNING)
                .values_list("initial_seconds", "increment_seconds", "days_per_move").order_by().distinct())
    match = Q(pk__in=[])
    for initial, increment, days in controls:
        if speed_of(initial, increment, days) == speed:
            match |= Q(initial_seconds=initial, increment_seconds=increment, days_per_move=days)
    return match


def page(filters: Filters) -> list[Game]:
    return list(filtered(filters)[filters.offset:filters.offset + filters.limit])


def counts() -> dict[str, dict[str, int]]:
    """Running games by game key and by speed, and the total, in one query:
    {"game": {"ace": 3, ...}, "speed": {"blitz": 2, ...}, "all": 5}."""
    rows = (Game.objects.filter(status=Game.Status.RUNNING)
            .values_list("kind", "players", "initial_seconds", "increment_seconds", "days_per_move")
            .annotate(n=Count("id")).order_by())
    by_game = dict.fromkeys(GAMES, 0)
    by_speed = dict.fromkeys(SPEEDS, 0)
    total = 0
    for kind, players, initial, increment, days, n in rows:
        key = game_key(kind, players)
        by_game[key] = by_game.get(key, 0) + n
        by_speed[speed_of(initial, increment, days)] += n
        total += n
    return {"game": by_game, "speed": by_speed, "all": {"all": total}}


def of_players(user_ids: Iterable[int], limit: int = FOLLOWING_SIZE) -> list[Game]:
    """The running games of these players (the ones a user follows), best rated first."""
    ids = list(user_ids)
    if not ids:
        return []
    return list(running().filter(seats__user_id__in=ids).distinct()[:limit])


# --- The boards -----------------------------------------------------------


def card(game: Game) -> CardJSON:
    """A game's board for the live list and TV, from the spectator's view.

    ``since=game.ply``: the view's list of actions played (Rhombus) is not
    wanted here, and asking from the current ply reads none, so a page of
    cards costs no query per game.
    """
    botmoves.resume_waiting_move(game)  # shown: without a worker, a bot move this process lost
    view = payloads.seat_view(game, None, since=game.ply)
    public = view["game"]
    return {
        "id": game.pk,
        "url": reverse("games:game", args=[game.pk]),
        "kind": game.kind,
        "game": game_key(game.kind, game.players),
        "players": [{"seat": seat.name, "name": public["players"][seat.name], "rating": seat.rating}
                    for seat in game.table],
        "sides": public["sides"],
        "rating": game.rating or None,  # 0: started before ratings were kept with games
        "time_control": game.time_control.key,
        "speed": game.time_control.speed,
        "status": public["status"],
        "ply": view["ply"],
        "to_move": view["to_move"] if game.running else None,
        "board": dict(view["board"]),
        "clock": public["clock"],
        "result": public["result"],
        "event": game.event,
    }


@dataclass(frozen=True)
class Entry:
    """What a hub (games/watch.py) keeps of every running game to rank it,
    without its position: a thousand games are a few hundred kilobytes."""

    id: int
    game: str
    speed: str
    rating: int
    player_ids: frozenset[int]

    @property
    def rank(self) -> tuple[int, int]:
        """Sorts best rated first, then newest, as ``running()`` does."""
        return (-self.rating, -self.id)


def entries(game_ids: Iterable[int] | None = None) -> dict[int, Entry]:
    """The running games' entries (or those among ``game_ids``), in two queries."""
    games = Game.objects.filter(status=Game.Status.RUNNING)
    if game_ids is not None:
        games = games.filter(pk__in=list(game_ids))
    rows = games.values_list("pk", "kind", "players", "initial_seconds", "increment_seconds", "days_per_move",
                             "rating")
    players: dict[int, set[int]] = {}
    for game_id, user_id in Seat.objects.filter(game__in=games).values_list("game_id", "user_id"):
        players.setdefault(game_id, set()).add(user_id)
    return {pk: Entry(pk, game_key(kind, n), speed_of(initial, increment, days), rating,
                      frozenset(players.get(pk, ())))
            for pk, kind, n, initial, increment, days, rating in rows}


def cards(game_ids: Iterable[int]) -> dict[int, CardJSON]:
    """The boards of these games, running or not, in two queries."""
    seats = Prefetch("seats", queryset=Seat.objects.select_related("user"))
    return {game.pk: card(game) for game in Game.objects.filter(pk__in=list(game_ids)).prefetch_related(seats)}


# --- TV -----------------------------------------------------------------------

# lichess TV's channels: the best game of all, and of each game.
TV_CHANNELS = {"best": "", **{key: key for key in GAMES}}
TV_LABELS = {"best": _("Top rated"), **GAME_LABELS}


def tv(channel: str) -> Filters:
    """A TV channel: a list of one, the best rated running game of its kind."""
    return Filters(game=TV_CHANNELS[channel], limit=1)


MAX_LISTS = 6  # lists one socket may show


def lists_from(query: dict[str, list[str]]) -> tuple[Filters, ...]:
    """The lists a live-games socket asks for in its query string:
    ``list=1`` with ``game``, ``speed``, ``page`` (the live page), ``home=1``
    (the home page's panel: the first boards and the top-rated TV), and
    ``tv=<channel>``, repeated (docs/protocol.md)."""
    lists: list[Filters] = []
    if query.get("list") == ["1"]:
        lists.append(Filters.from_query({key: values[0] for key, values in query.items() if values}))
    if query.get("home") == ["1"]:
        lists += [Filters(limit=HOME_SIZE), tv("best")]
    lists += [tv(channel) for channel in query.get("tv", []) if channel in TV_CHANNELS]
    return tuple(dict.fromkeys(lists))[:MAX_LISTS]
