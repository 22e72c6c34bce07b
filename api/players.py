"""Public reads about players (docs/api.md): a profile, its rating history and
game list, and the leaderboard. A visitor may read them, as the pages.

Each is the profile's or the leaderboard page's own domain calls
(ladder.ratings, ladder.leaderboard, games.records), shaped as JSON.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.core.paginator import EmptyPage, Paginator
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext
from ninja import P, QueryEx, Router, Schema
from ninja.errors import HttpError

from games.models import Game
from games.records import games_played_by, row_of
from ladder import elo, leaderboard, rank_counts, ratings
from api.auth import OptionalToken
from api.schemas import (BotsShown, GameKind, GameStatus, Ladder, PlayerResult, Reason, Seat, Side,
                         TimeControl, Variant, errors)
from ladder.models import ACE, LADDERS, Player, Standing

router = Router(tags=["players"], auth=OptionalToken())

GAMES_PAGE_SIZE = 50
# Query parameters with their checks and words for the spec (ninja's mypy-friendly form).
LadderParam = QueryEx[Ladder, P(description=f"Which game's ladder: one of {', '.join(LADDERS)}")]
PageParam = QueryEx[int, P(ge=1, description="1 for the first page")]
ActiveParam = QueryEx[bool, P(description=f"only players rated in the last {leaderboard.ACTIVE_DAYS} days")]
SearchParam = QueryEx[str, P(description="a name's beginning: only the players it starts, with their real ranks")]


class LadderOut(Schema):
    name: str  # "Rhombus, teams"
    rating: int
    provisional: bool  # fewer rated games than elo.PROVISIONAL_GAMES: the site shows "1500?"
    rated_games: int
    wins: int
    draws: int
    losses: int
    streak: int  # wins in a row (positive) or losses in a row (negative)
    rank: int | None  # among every player on the ladder; None before a first rated game


class PlayerOut(Schema):
    username: str
    joined: datetime
    bot: bool  # a computer player or a BOT account (plays through the API)
    bot_level: str | None  # a computer player's engine level; None for people and BOT accounts
    ladders: dict[str, LadderOut]  # by ladder: every ladder, rated or not yet


class HistoryPointOut(Schema):
    date: datetime
    rating: int
    game_id: int | None  # the rated game that made this rating; None: the rating before the first


class HistoryOut(Schema):
    username: str
    ladder: Ladder
    points: list[HistoryPointOut]


class SeatOut(Schema):
    seat: Seat
    username: str


class GameSummaryOut(Schema):
    id: int
    kind: GameKind
    variant: Variant
    title: str  # "Ace in the Hole", "Rhombus Formation, 4 players"
    seats: list[SeatOut]  # in turn order
    seat: Seat  # the player's own
    status: GameStatus
    result: PlayerResult  # for the player
    winner: Side | None  # None for a draw or no result
    reason: Reason | None
    reason_text: str  # "by resignation (R17)"; "" while running
    rated: bool
    time_control: TimeControl
    started: datetime
    ended: datetime | None
    url: str  # the live game page, absolute (its replay is url + "replay/")


class GamesOut(Schema):
    username: str
    page: int
    pages: int
    count: int
    games: list[GameSummaryOut]  # newest first


class LeaderOut(Schema):
    rank: int
    username: str
    rating: int
    provisional: bool
    rated_games: int
    wins: int
    draws: int
    losses: int
    streak: int
    bot: bool
    last_active: datetime


class LeaderboardOut(Schema):
    ladder: Ladder
    active_only: bool
    bots: BotsShown
    q: str
    page: int
    pages: int
    count: int  # players shown over all pages
    your_page: int | None  # the page showing the token's own account, if it is on this board
    players: list[LeaderOut]


# --- Operations -------------------------------------------------------------


@router.get("/players/{username}", response={200: PlayerOut, **errors(404)}, summary="A player's profile")
def player(request: HttpRequest, username: str) -> dict[str, Any]:
    """As the profile page (/@/<username>/): when the player joined, whether it is
    a bot (a computer player, with its level, or a BOT account), and on every
    ladder its rating, rated games, wins, draws, losses and rank."""
    user = _player(username)
    account = ratings.standing_of(user)  # the Player row: bot or not
    assert isinstance(account, Player)
    now = timezone.now()
    return {"username": user.get_username(), "joined": user.date_joined, "bot": account.is_bot,
            "bot_level": account.bot_level or None,
            "ladders": {ladder: _ladder_json(ratings.standing_of(user, ladder), ladder, now) for ladder in LADDERS}}


@router.get("/players/{username}/rating-history", response={200: HistoryOut, **errors(404, 422)},
            summary="A player's rating history on one ladder")
def rating_history(request: HttpRequest, username: str, ladder: LadderParam = ACE) -> dict[str, Any]:
    """The points of the profile's chart: the rating before the first rated game
    (``game_id`` null), then the rating after each rated game that still counts
    (a moderator's undo takes a game out) and after each moderator's rating
    correction (``game_id`` null too), oldest first. Empty before a first rated
    game or correction."""
    user = _player(username)
    points = ratings.history_points(user, ladder)
    return {"username": user.get_username(), "ladder": ladder,
            "points": [{"date": p.when, "rating": p.rating, "game_id": p.game_id} for p in points]}


@router.get("/players/{username}/games", response={200: GamesOut, **errors(404, 422)}, summary="A player's games")
def player_games(request: HttpRequest, username: str, page: PageParam = 1) -> dict[str, Any]:
    """Every game the player has a seat in, running ones included, newest first,
    GAMES_PAGE_SIZE (50) a page; a page past the last is a 404."""
    user = _player(username)
    paginator = Paginator(games_played_by(user), GAMES_PAGE_SIZE)
    try:
        shown = paginator.page(page)
    except EmptyPage:
        raise HttpError(404, gettext("there is no page %(page)s: %(name)s has %(pages)s")
                        % {"page": page, "name": username, "pages": paginator.num_pages}) from None
    return {"username": user.get_username(), "page": page, "pages": paginator.num_pages, "count": paginator.count,
            "games": [_game_json(request, game, user) for game in shown]}


@router.get("/leaderboard", response={200: LeaderboardOut, **errors(404, 422)}, summary="The leaderboard of one ladder")
def leaderboard_list(request: HttpRequest, ladder: LadderParam = ACE, page: PageParam = 1,
                     active_only: ActiveParam = True, bots: BotsShown = BotsShown("show"),
                     q: SearchParam = "") -> dict[str, Any]:
    """As the leaderboard page (/ladder/), with the same filters: players
    by rating, 50 a page, with competition ranks ("1224") over everyone the
    filters keep, whatever the search. Only players with a rated game are on
    it. A page past the last is a 404."""
    now = timezone.now()
    filters = leaderboard.Filters.from_query({"game": ladder, "show": "active" if active_only else "all",
                                              "bots": bots, "q": q})
    board = leaderboard.board(filters, page, now)
    if board.page.number != page:  # Paginator.get_page gave the last page instead
        raise HttpError(404, gettext("there is no page %(page)s: the leaderboard has %(pages)s")
                        % {"page": page, "pages": board.page.paginator.num_pages})
    return {"ladder": ladder, "active_only": active_only, "bots": bots, "q": filters.search, "page": page,
            "pages": board.page.paginator.num_pages, "count": board.page.paginator.count,
            "your_page": _your_page(request, filters, now, board.counts),
            "players": [_leader_json(row) for row in board.rows]}


# --- Helpers ----------------------------------------------------------------


def _player(username: str) -> Any:
    """The active account named ``username`` (a closed one has no public page), or a 404."""
    user = get_user_model().objects.filter(username=username, is_active=True).first()
    if user is None:
        raise HttpError(404, gettext("there is no player %(name)s") % {"name": repr(username)})
    return user


def _ladder_json(standing: Standing, ladder: str, now: datetime) -> dict[str, Any]:
    """One ladder of a profile, its rank as the profile page counts it (all players, active or not)."""
    rank = leaderboard.rank_of(standing, leaderboard.Filters(active_only=False, ladder=ladder), now)
    return {"name": LADDERS[ladder], "rating": standing.rating, "provisional": elo.provisional(standing.rated_games),
            "rated_games": standing.rated_games, "wins": standing.wins, "draws": standing.draws,
            "losses": standing.losses, "streak": standing.streak, "rank": rank}


def _game_json(request: HttpRequest, game: Game, user: Any) -> dict[str, Any]:
    row = row_of(game, user)
    return {"id": game.pk, "kind": game.kind, "variant": game.variant, "title": row.title,
            "seats": [{"seat": seat.name, "username": seat.user.get_username()} for seat in game.table],
            "seat": row.seat, "status": game.status, "result": row.result, "winner": game.winner or None,
            "reason": game.reason or None, "reason_text": row.reason, "rated": row.rated,
            "time_control": game.time_control.key, "started": game.created, "ended": game.finished,
            "url": request.build_absolute_uri(row.live_url)}


def _leader_json(row: leaderboard.Row) -> dict[str, Any]:
    player = row.player
    return {"rank": row.rank, "username": player.user.get_username(), "rating": player.rating,
            "provisional": row.provisional, "rated_games": player.rated_games, "wins": player.wins,
            "draws": player.draws, "losses": player.losses, "streak": player.streak, "bot": player.is_bot,
            "last_active": player.last_active}


def _your_page(request: HttpRequest, filters: leaderboard.Filters, now: datetime,
               counts: rank_counts.Counts) -> int | None:
    """The page showing the token's own account, as the page's "my page" link (not for a search)."""
    if not request.user.is_authenticated or filters.search:
        return None
    standing = ratings.standing_of(request.user, filters.ladder)
    return leaderboard.page_of(standing, filters, now, counts) if standing.pk is not None else None
