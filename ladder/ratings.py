"""Rated results: a finished rated game moves both players' ratings, exactly once.

``rate_game`` is called by ``Game.finish`` inside the transaction that records
the result, with the game row locked, so the result and the ratings commit or
roll back together. Exactly once: both Player rows are locked (in pk order, so
two games ending at once cannot deadlock), the game's RatingChange rows are
looked for under that lock, and the unique (game, user) constraint backs it.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any, NamedTuple, TypedDict

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Count, F, Q, QuerySet
from django.utils import timezone

from engine.record import DOUBLE_FORFEIT_REASONS
from games.models import Game, Seat
from ladder import bot_accounts, elo
from ladder.models import ACE, LADDERS, Player, Rating, RatingChange, Standing, ladder_of


def player_of(user: Any) -> Player:
    """The user's ladder row, made at 1500 on first need."""
    player, _ = Player.objects.get_or_create(user=user)
    return player


def standing_of(user: Any, ladder: str = ACE) -> Standing:
    """The user's row on ``ladder`` for reading: an unsaved newcomer's if none
    yet (a page view writes nothing)."""
    if ladder == ACE:
        return Player.objects.filter(user=user).first() or Player(user=user)
    return Rating.objects.filter(user=user, ladder=ladder).first() or Rating(user=user, ladder=ladder)


def ladder_from(query: Any) -> str:
    """The ladder a page's ``?game=`` names, Ace in the Hole's by default."""
    ladder = query.get("game", ACE)
    return ladder if ladder in LADDERS else ACE


def display_of(user: Any) -> str:
    """The user's rating as shown ("1500?" for a newcomer), without making a row."""
    player = getattr(user, "player", None)  # a missing reverse one-to-one raises AttributeError
    return elo.display(player.rating, player.rated_games) if player else f"{elo.START}?"


def standings(ladder: str) -> QuerySet[Any]:
    """Every standing on ``ladder``: Player rows for Ace in the Hole, Rating rows for the others."""
    return Player.objects.all() if ladder == ACE else Rating.objects.filter(ladder=ladder)


def _standing_for(ladder: str, user_id: int) -> Standing:
    if ladder == ACE:
        return Player.objects.get_or_create(user_id=user_id)[0]
    is_bot = Player.objects.filter(pk=user_id, is_bot=True).exists()
    return Rating.objects.get_or_create(user_id=user_id, ladder=ladder, defaults={"is_bot": is_bot})[0]


def side_score(game: Game, side: tuple[str, ...]) -> float:
    """The score of ``side`` (its seats): 1, ½ (no winner) or 0."""
    won = game.won(side[0])
    return 0.5 if won is None else float(won)


def rate_finished_game(sender: Any, game: Game, **kwargs: Any) -> None:
    """games.signals.game_finished's receiver."""
    rate_game(game)


def rate_game(game: Game) -> list[RatingChange]:
    """Rate a finished rated game on its game's ladder (a team game on its
    own: elo.rate_teams); casual, aborted, running or already rated: nothing."""
    if not game.rated or game.status != Game.Status.FINISHED or game.both_lost:
        return []  # a double forfeit was never played: no rating moves (as lichess)
    ladder = ladder_of(game.kind, game.players)
    sides = [[game.user_id_at(seat) for seat in side] for side in game.sides]
    with transaction.atomic():
        for user_id in sorted(sum(sides, [])):  # made in user order, as locked
            _standing_for(ladder, user_id)
        locked = {row.user_id: row for row in standings(ladder).select_for_update().filter(
            user_id__in=sum(sides, [])).order_by("user_id")}
        if RatingChange.objects.filter(game_id=game.pk).exists():
            return []
        teams = [[locked[user_id] for user_id in side] for side in sides]
        updates = elo.rate_teams([_rated(r) for r in teams[0]], [_rated(r) for r in teams[1]],
                                 side_score(game, game.sides[0]))
        now = game.finished or timezone.now()
        return [_apply(row, others[0], update, game, now, ladder)
                for team, team_updates, others in ((teams[0], updates[0], teams[1]), (teams[1], updates[1], teams[0]))
                for row, update in zip(team, team_updates)]


def _rated(player: Standing) -> elo.Rated:
    return elo.Rated(player.rating, player.rated_games, player.reached_2400)


def _apply(player: Standing, opponent: Standing, update: elo.Update, game: Game, now: datetime,
           ladder: str) -> RatingChange:
    change = RatingChange.objects.create(
        game=game, ladder=ladder, user_id=player.user_id, opponent_id=opponent.user_id,
        before=update.before, after=update.after,
        opponent_rating=update.opponent, score=update.score, k=update.k)
    player.rating = update.after
    player.rated_games += 1
    _count(player, update.score, +1)
    player.streak = _next_streak(player.streak, update.score)
    player.reached_2400 = player.reached_2400 or update.after >= elo.MASTER
    player.last_active = now
    player.save()
    return change


def _count(player: Standing, score: float, by: int) -> None:
    field = "wins" if score == 1 else "losses" if score == 0 else "draws"
    setattr(player, field, getattr(player, field) + by)


def _next_streak(streak: int, score: float) -> int:
    """Wins in a row (positive) or losses in a row (negative); a draw ends either."""
    if score == 1:
        return streak + 1 if streak > 0 else 1
    if score == 0:
        return streak - 1 if streak < 0 else -1
    return 0


# --- A moderator's undo -------------------------------------------------------


def undo_game(game_id: int) -> int:
    """Take one game's rating effect back from both players; the number of changes undone.

    Each player loses (or regains) exactly the points that game moved, whatever
    they played since; their counters drop by the game, and the streak and the
    2400 mark are recounted from the changes that remain. The changes stay,
    marked undone, so the history shows what happened. A second undo does nothing.
    """
    with transaction.atomic():
        changes = list(RatingChange.objects.filter(game_id=game_id, undone_at__isnull=True))
        if not changes:
            return 0
        ladder = changes[0].ladder  # one game, one ladder
        players = standings(ladder).select_for_update().filter(
            user_id__in=[c.user_id for c in changes]).order_by("user_id")
        by_user = {p.user_id: p for p in players}
        changes = list(RatingChange.objects.select_for_update().filter(
            game_id=game_id, undone_at__isnull=True))
        now = timezone.now()
        for change in changes:
            change.undone_at = now
            change.save(update_fields=["undone_at"])
            _take_back(by_user[change.user_id], change)
        return len(changes)


def undo_change(change_id: int) -> bool:
    """Take back one player's change from a game, leaving the other players'
    (a moderator's refund to an offender's victim); False if already undone."""
    with transaction.atomic():
        change = RatingChange.objects.filter(pk=change_id).first()
        if change is None or change.game_id is None:  # a correction is not a game's to take back
            return False
        player = standings(change.ladder).select_for_update().get(user_id=change.user_id)
        change = RatingChange.objects.select_for_update().get(pk=change_id)  # after the player, as undo_game
        if change.undone_at is not None:
            return False
        change.undone_at = timezone.now()
        change.save(update_fields=["undone_at"])
        _take_back(player, change)
        return True


def _take_back(player: Standing, change: RatingChange) -> None:
    player.rating -= change.after - change.before
    player.rated_games -= 1
    _count(player, change.score, -1)
    remaining = RatingChange.objects.filter(user_id=change.user_id, ladder=change.ladder, undone_at__isnull=True,
                                            game__isnull=False)  # games only: a correction has no score
    player.streak = streak_of(remaining.order_by("-created", "-pk").values_list("score", flat=True)[:200])
    player.reached_2400 = player.rating >= elo.MASTER or remaining.filter(after__gte=elo.MASTER).exists()
    player.save()


def streak_of(latest_first: Iterable[float]) -> int:
    """The current streak from a player's scores, most recent first.

    >>> streak_of([1, 1, 0, 1]), streak_of([0, 0, 0.5]), streak_of([0.5, 1]), streak_of([])
    (2, -2, 0, 0)
    """
    run, last = 0, None
    for score in latest_first:
        if score == 0.5 or (last is not None and score != last):
            break
        run, last = run + 1, score
    return run if last == 1 else -run


# --- A moderator's correction ---------------------------------------------------

# A typo's guard: wider than any rating a ladder has seen.
LOWEST_CORRECTION, HIGHEST_CORRECTION = 100, 3500


def correct(user: Any, ladder: str, new_rating: int, note: str) -> RatingChange | None:
    """Set ``user``'s rating on ``ladder`` to ``new_rating`` (a moderator's act,
    moderation.actions), recorded as a RatingChange with no game whose ``note``
    says why and who: the history then ends where the standing does. The
    counters stay (no game was played or unplayed); the 2400 mark is
    recounted as an undo recounts it. None if the rating is that already."""
    with transaction.atomic():
        _standing_for(ladder, user.pk)
        standing = standings(ladder).select_for_update().get(user_id=user.pk)
        if standing.rating == new_rating:
            return None
        change = RatingChange.objects.create(ladder=ladder, user_id=user.pk, before=standing.rating,
                                             after=new_rating, note=note.strip())
        standing.rating = new_rating
        played = RatingChange.objects.filter(user_id=user.pk, ladder=ladder, undone_at__isnull=True,
                                             game__isnull=False)
        standing.reached_2400 = new_rating >= elo.MASTER or played.filter(after__gte=elo.MASTER).exists()
        standing.save()
    return change


# --- What a profile shows -------------------------------------------------------


class HistoryPoint(NamedTuple):
    when: datetime
    rating: int
    game_id: int | None  # the rated game that made it; None for the rating before the first, or a correction


def history(user: Any, ladder: str = ACE) -> list[tuple[datetime, int]]:
    """(when, rating after) for each rated game on ``ladder`` that still counts,
    and each moderator's correction, starting from the rating before the first:
    the points of the profile's chart."""
    return [(point.when, point.rating) for point in history_points(user, ladder)]


def history_points(user: Any, ladder: str = ACE) -> list[HistoryPoint]:
    """``history`` with the game behind each point (the API's rating history)."""
    changes = list(RatingChange.objects.filter(user=user, ladder=ladder, undone_at__isnull=True)
                   .order_by("created", "pk").values_list("created", "before", "after", "game_id"))
    if not changes:
        return []
    first_when, first_before, _, _ = changes[0]
    return [HistoryPoint(first_when, first_before, None)] + [
        HistoryPoint(when, after, game_id) for when, _, after, game_id in changes]


class OpponentRecord(TypedDict):
    opponent: str
    bot: str | None  # the opponent's engine level if a bot ("" a BOT account), None for a person
    games: int
    wins: int
    draws: int
    losses: int


def record_against_opponents(user: Any, limit: int = 20) -> list[OpponentRecord]:
    """Finished games against each opponent (most played first): wins, draws, losses."""
    # The opponents' seats in the user's finished two-player games: the user
    # won where the winner is neither that seat nor a draw.
    seats = (Seat.objects.filter(game__seats__user=user, game__status=Game.Status.FINISHED, game__players=2)
             .exclude(user=user))
    won = ~Q(game__winner=F("name")) & ~Q(game__winner="")
    # No winner is a draw, unless both sides forfeited (engine.record.both_lost): a loss for both.
    drawn = Q(game__winner="") & ~Q(game__reason__in=DOUBLE_FORFEIT_REASONS)
    rows = (seats.values(opponent=F("user"))
            .annotate(games=Count("game"), wins=Count("game", filter=won),
                      draws=Count("game", filter=drawn))
            .order_by("-games", "opponent")[:limit])
    rows = list(rows)
    ids = [r["opponent"] for r in rows]
    names = dict(get_user_model().objects.filter(pk__in=ids).values_list("pk", "username"))
    levels = bot_accounts.bots_among(ids)
    return [{"opponent": names[r["opponent"]], "bot": levels.get(r["opponent"]), "games": r["games"],
             "wins": r["wins"], "draws": r["draws"], "losses": r["games"] - r["wins"] - r["draws"]} for r in rows]
