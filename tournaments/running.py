"""Running a tournament: entering it, starting it, pairing its rounds,
starting their games and recording their results.

Every change locks the tournament's row for its transaction, so that two
Celery workers, a redelivered task and a game ending at the same moment see
one another's work: a round is paired once and each game started once. A
game's result arrives through ``games.signals.game_finished`` inside the
transaction that records it (lock order: the game's row, then the
tournament's). Players and watchers are told after commit.

The rules of each format are the pure modules: ``swiss`` and ``berger``
give a round's boards, ``brackets`` the matches, ``tiebreaks`` the standings.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.db import connection, transaction
from django.db.models import F, Max, Q
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from games import finishing, refusals, starting
from games.models import Event, Game, Seat
from ladder import lobby, permits, ratings
from ladder.models import Player as LadderPlayer
from tournaments import berger, brackets, notices, results, tiebreaks
from tournaments.models import Entry, ForbiddenPairing, Pairing, Round, Tournament

NO_SHOWS_TO_WITHDRAW = 2  # a player who forfeits twice is withdrawn (issue 11)
WHY_LENGTH = Entry._meta.get_field("withdrawn_why").max_length


class Refusal(refusals.Refusal):
    """A tournament action the site will not take; the message is for the user."""


def group_name(tournament_id: int) -> str:
    """The Channels group of everyone watching one tournament's page."""
    return f"tournament-{tournament_id}"


def _locked(tournament_id: int) -> Tournament:
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None:
        raise Refusal(gettext("there is no tournament %(id)s") % {"id": tournament_id})
    return tournament


def _changed_on_commit(tournament: Tournament) -> None:
    """Every open page of the tournament reloads its standings, pairings and
    bracket: the new version is counted in the transaction, sent after it."""
    Tournament.objects.filter(pk=tournament.pk).update(version=F("version") + 1)
    version = Tournament.objects.values_list("version", flat=True).get(pk=tournament.pk)
    group = group_name(tournament.pk)
    transaction.on_commit(lambda: lobby.send_to_group(group, {"type": "tournament.changed", "version": version}))


# --- Entering -------------------------------------------------------------


def entry_refusal(tournament: Tournament, user: Any, now: datetime) -> str | None:
    """Why ``user`` may not join ``tournament`` now, or None if they may: what
    ``join`` checks, and what the page's Join button is shown by."""
    if not tournament.registration_open:
        return gettext("registration is closed")
    if tournament.entries.filter(withdrawn_at__isnull=True).count() >= tournament.max_players:
        return ngettext("the tournament is full (%(count)s player)", "the tournament is full (%(count)s players)",
                        tournament.max_players) % {"count": tournament.max_players}
    if tournament.registration_closes_at and now >= tournament.registration_closes_at:
        return gettext("registration closed at %(time)s") % {
            "time": tournament.registration_closes_at.isoformat(timespec="minutes")}
    if tournament.format == Tournament.Format.SWISS and tournament.current_round * 2 >= (tournament.rounds or 0) \
            and tournament.status != Tournament.Status.UPCOMING:
        return gettext("late entry is open only while fewer than half the rounds have been paired")
    ladder = ratings.standing_of(user, tournament.ladder)
    rating = ladder.rating
    is_bot = bool(LadderPlayer.objects.filter(user=user, is_bot=True).exists())
    if is_bot and not tournament.bots_allowed:
        return gettext("bots may not enter this tournament")
    if (restricted := permits.refusal(user, "tournament", rated=tournament.rated)) is not None:
        return restricted[:1].lower() + restricted[1:]  # a clause like the others: "you cannot join: a moderator..."
    if tournament.min_rating is not None and rating < tournament.min_rating:
        return gettext("your rating %(rating)s is below the minimum %(minimum)s") % {
            "rating": rating, "minimum": tournament.min_rating}
    if tournament.max_rating is not None and rating > tournament.max_rating:
        return gettext("your rating %(rating)s is above the maximum %(maximum)s") % {
            "rating": rating, "maximum": tournament.max_rating}
    games = ladder.rated_games
    if not is_bot and games < tournament.min_rated_games:
        return ngettext("you have played %(games)s rated games; %(count)s is needed",
                        "you have played %(games)s rated games; %(count)s are needed",
                        tournament.min_rated_games) % {"games": games, "count": tournament.min_rated_games}
    age = (now - user.date_joined).days
    if not is_bot and age < tournament.min_account_days:
        return ngettext("your account is %(age)s days old; it must be %(count)s day old",
                        "your account is %(age)s days old; it must be %(count)s days old",
                        tournament.min_account_days) % {"age": age, "count": tournament.min_account_days}
    return None


def join(tournament_id: int, user: Any) -> Entry:
    """Enter ``user``; a Swiss that has started takes them as a late entry
    with the next pairing number and no points for the rounds missed."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        now = timezone.now()
        entry = Entry.objects.filter(tournament=tournament, user=user).first()
        if entry is not None and entry.active:
            raise Refusal(gettext("you have already joined"))
        if entry is not None and tournament.status != Tournament.Status.UPCOMING:
            raise Refusal(gettext("you withdrew: you cannot enter this tournament again"))
        if (why := entry_refusal(tournament, user, now)) is not None:
            raise Refusal(gettext("you cannot join: %(why)s") % {"why": why})
        entry = fill_new_entry(tournament, entry or Entry(tournament=tournament, user=user), now)
        entry.save()
        _changed_on_commit(tournament)
    return entry


def fill_new_entry(tournament: Tournament, entry: Entry, now: datetime) -> Entry:
    """An entry as it is made, however it is made (join, invite, admin):
    the ladder's rating now; a late entry into a running Swiss gets the next
    pairing number and no points for the rounds missed."""
    entry.withdrawn_at, entry.withdrawn_why = None, ""
    entry.rating = ratings.standing_of(entry.user, tournament.ladder).rating
    if tournament.status != Tournament.Status.UPCOMING:
        entry.number = (tournament.entries.aggregate(top=Max("number"))["top"] or 0) + 1
        entry.checked_in_at = now
    return entry


def invitable_bots(tournament: Tournament) -> list[Any]:
    """The site's computer players an organizer may invite (users, by name):
    none where bots may not enter or entries are closed."""
    if not tournament.bots_allowed or not tournament.registration_open:
        return []
    entered = tournament.entries.values("user_id")
    return [player.user for player in LadderPlayer.objects.filter(is_bot=True).exclude(bot_level="")
            .exclude(user_id__in=entered).select_related("user").order_by("user__username")]


def invite_bot(tournament_id: int, organizer: Any, bot_user_id: int) -> Entry:
    """The organizer enters one of the site's computer players (engine bots,
    one account per level), on the conditions any entry meets (``entry_refusal``).
    A BOT account (a person's program) joins by itself, through the API."""
    with transaction.atomic():
        tournament = _organized(tournament_id, organizer)
        bot = (LadderPlayer.objects.filter(user_id=bot_user_id, is_bot=True).exclude(bot_level="")
               .select_related("user").first())
        if bot is None:
            raise Refusal(gettext("choose one of the site's computer players to invite"))
        name, now = bot.user.get_username(), timezone.now()
        if Entry.objects.filter(tournament=tournament, user=bot.user).exists():
            raise Refusal(gettext("%(name)s is already in this tournament, or has left it") % {"name": name})
        if (why := entry_refusal(tournament, bot.user, now)) is not None:
            raise Refusal(gettext("%(name)s cannot enter: %(why)s") % {"name": name, "why": why})
        entry = fill_new_entry(tournament, Entry(tournament=tournament, user=bot.user), now)
        entry.save()
        _changed_on_commit(tournament)
    return entry


def withdraw(tournament_id: int, user: Any) -> Entry:
    """``user`` leaves: before the start their entry is gone; after it they
    are not paired again, and their results stand (round robin: see ``_leave``)."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        entry = _active_entry(tournament, user)
        if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
            raise Refusal(gettext("the tournament is over"))
        _leave(tournament, entry, "withdrew")
        _changed_on_commit(tournament)
    return entry


def check_in(tournament_id: int, user: Any) -> Entry:
    with transaction.atomic():
        tournament = _locked(tournament_id)
        entry = _active_entry(tournament, user)
        opens = tournament.check_in_opens_at
        now = timezone.now()
        if opens is None:
            raise Refusal(gettext("this tournament has no check-in"))
        if tournament.status != Tournament.Status.UPCOMING:
            raise Refusal(gettext("check-in has closed: the tournament has started"))
        if now < opens:
            raise Refusal(gettext("check-in opens at %(time)s") % {"time": opens.isoformat(timespec="minutes")})
        entry.checked_in_at = now
        entry.save(update_fields=["checked_in_at"])
        _changed_on_commit(tournament)
    return entry


def _active_entry(tournament: Tournament, user: Any) -> Entry:
    entry = Entry.objects.filter(tournament=tournament, user=user, withdrawn_at__isnull=True).first()
    if entry is None:
        raise Refusal(gettext("you are not in this tournament"))
    return entry


def _leave(tournament: Tournament, entry: Entry, why: str) -> None:
    """Take ``entry`` out of the pairings from now on.

    Round robin (issue 11, as FIDE C.05 suggests): a player who leaves before
    playing half of their games has every result annulled; later, their
    remaining games are lost by forfeit.
    """
    if tournament.status == Tournament.Status.UPCOMING:
        entry.delete()
        return
    # Cut to the column: "removed by the organizer: " and the site's 80-character
    # reason overflowed it (PostgreSQL refuses the save; SQLite kept it whole).
    entry.withdrawn_at, entry.withdrawn_why = timezone.now(), why[:WHY_LENGTH]
    entry.withdrawn_after_round = tournament.current_round
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        entry.annulled = _games_played(entry) * 2 < _games_scheduled(tournament)
    entry.save()


def _games_played(entry: Entry) -> int:
    return Pairing.objects.filter(Q(red=entry) | Q(black=entry), black__isnull=False).exclude(result="").count()


def _games_scheduled(tournament: Tournament) -> int:
    """Games each player of a round robin plays (all of the field's others, once or twice)."""
    players = tournament.entries.filter(number__isnull=False).count()
    return (players - 1) * (2 if tournament.double_round_robin else 1)


# --- Organizing ------------------------------------------------------------


def may_organize(user: Any, tournament: Tournament | None = None) -> bool:
    """Organizers (the "Organizers" group's permission) run their own
    tournaments; superusers run every one."""
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_superuser:
        return True
    return user.has_perm("tournaments.organize_tournament") and (
        tournament is None or tournament.organizer_id == user.pk)


def _organized(tournament_id: int, user: Any) -> Tournament:
    tournament = _locked(tournament_id)
    if not may_organize(user, tournament):
        raise Refusal(gettext("only the tournament's organizer may do that"))
    return tournament


def remove_player(tournament_id: int, organizer: Any, entry_id: int, why: str) -> Entry:
    """Take a player out, at any time until the end: before the start their
    entry is gone; after it they are not paired again, their played games
    stand, and a game they are playing is left to finish and counts (as a FIDE
    withdrawal; the organizer may adjudicate it)."""
    with transaction.atomic():
        tournament = _organized(tournament_id, organizer)
        if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
            raise Refusal(gettext("the tournament is over: its players stay as they finished"))
        entry = tournament.entries.filter(pk=entry_id, withdrawn_at__isnull=True).first()
        if entry is None:
            raise Refusal(gettext("that player is not in the tournament"))
        _leave(tournament, entry, f"removed by the organizer: {why}".strip(": "))
        _changed_on_commit(tournament)
    return entry


def set_seeds(tournament_id: int, organizer: Any, seeds: dict[int, int | None]) -> None:
    """The organizer's seeding order ({entry id: seed}, lowest first), used
    when the tournament seeds manually; until the start only."""
    with transaction.atomic():
        tournament = _organized(tournament_id, organizer)
        if tournament.status != Tournament.Status.UPCOMING:
            raise Refusal(gettext("the seeding is fixed once the tournament has started"))
        entries = {e.pk: e for e in tournament.entries.filter(pk__in=seeds)}
        if len(entries) != len(seeds):
            raise Refusal(gettext("some of those players are not in this tournament"))
        field = tournament.entries.count()
        if any(seed is not None and not 1 <= seed <= field for seed in seeds.values()):
            raise Refusal(gettext("a seed is a place in the field, from 1 to %(count)s") % {"count": field})
        for pk, seed in seeds.items():
            entries[pk].manual_seed = seed
        Entry.objects.bulk_update(entries.values(), ["manual_seed"])
        _changed_on_commit(tournament)


def set_chat_for(tournament_id: int, organizer: Any, chat_for: str) -> Tournament:
    """Who may write in the tournament's chat (Tournament.ChatFor), at any time;
    the pages reload their chat box with the tournament (issue 25)."""
    if chat_for not in Tournament.ChatFor.values:
        raise Refusal(gettext("choose who may write: %(choices)s")
                      % {"choices": ", ".join(str(label) for label in Tournament.ChatFor.labels)})
    with transaction.atomic():
        tournament = _organized(tournament_id, organizer)
        tournament.chat_for = chat_for
        tournament.save(update_fields=["chat_for"])
        _changed_on_commit(tournament)
    return tournament


def forbid(tournament_id: int, organizer: Any, first_id: int, second_id: int) -> ForbiddenPairing:
    """Two players the Swiss must never pair (family, club mates, ...)."""
    with transaction.atomic():
        tournament = _organized(tournament_id, organizer)
        if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
            raise Refusal(gettext("the tournament is over"))
        if first_id == second_id:
            raise Refusal(gettext("choose two different players"))
        entries = list(tournament.entries.filter(pk__in=[first_id, second_id]))
        if len(entries) != 2:
            raise Refusal(gettext("both players must be in this tournament"))
        pair = Q(first_id=first_id, second_id=second_id) | Q(first_id=second_id, second_id=first_id)
        if tournament.forbidden_pairings.filter(pair).exists():
            raise Refusal(gettext("those two are already kept apart"))
        forbidden = ForbiddenPairing.objects.create(tournament=tournament, first_id=first_id, second_id=second_id)
        _changed_on_commit(tournament)
    return forbidden


def allow(tournament_id: int, organizer: Any, forbidden_id: int) -> None:
    with transaction.atomic():
        tournament = _organized(tournament_id, organizer)
        if not tournament.forbidden_pairings.filter(pk=forbidden_id).delete()[0]:
            raise Refusal(gettext("there is no such forbidden pairing"))
        _changed_on_commit(tournament)


def pause(tournament_id: int, organizer: Any) -> Tournament:
    """No new round starts while paused; games already running finish."""
    with transaction.atomic():
        tournament = _organized(tournament_id, organizer)
        if tournament.status != Tournament.Status.RUNNING:
            raise Refusal(gettext("only a running tournament can be paused; this one is %(status)s")
                          % {"status": str(tournament.get_status_display()).lower()})
        tournament.status = Tournament.Status.PAUSED
        tournament.save(update_fields=["status"])
        _changed_on_commit(tournament)
    return tournament


def resume(tournament_id: int, organizer: Any) -> Tournament:
    with transaction.atomic():
        tournament = _organized(tournament_id, organizer)
        if tournament.status != Tournament.Status.PAUSED:
            raise Refusal(gettext("the tournament is not paused"))
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
        _advance_on_commit(tournament)
        _changed_on_commit(tournament)
    return tournament


def cancel(tournament_id: int, organizer: Any) -> Tournament:
    """Call the tournament off; games already running are played out, unrecorded."""
    with transaction.atomic():
        tournament = _organized(tournament_id, organizer)
        if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
            finished = tournament.status == Tournament.Status.FINISHED
            raise Refusal(gettext("the tournament is already finished") if finished
                          else gettext("the tournament is already cancelled"))
        _end(tournament, Tournament.Status.CANCELLED, "cancelled by the organizer")
    return tournament


def start_early(tournament_id: int, organizer: Any) -> Tournament:
    with transaction.atomic():
        tournament = _organized(tournament_id, organizer)
        if tournament.status != Tournament.Status.UPCOMING:
            raise Refusal(gettext("the tournament has already started"))
        _start(tournament)
    return tournament


def adjudicate(tournament_id: int, organizer: Any, pairing_id: int, winner: str | None, note: str) -> Game:
    """Decide a running tournament game's result, with the written reason the game keeps."""
    with transaction.atomic():
        tournament = _organized(tournament_id, organizer)
        pairing = Pairing.objects.filter(pk=pairing_id, round__tournament=tournament).first()
        if pairing is None or pairing.game_id is None:
            raise Refusal(gettext("there is no such game in this tournament"))
    return finishing.adjudicate(pairing.game_id, _seat_of_side(pairing, winner), note)


def _seat_of_side(pairing: Pairing, winner: str | None) -> str | None:
    """The pages name a board's sides as its pairing does, red and black (the
    first and second seat); in Rhombus those seats are SW and NE. A seat's own
    name (the API's) is taken as it is."""
    sides = ("red", "black")
    if winner not in sides:
        return winner
    seats = Seat.objects.filter(game_id=pairing.game_id).order_by("number").values_list("name", flat=True)
    return list(seats)[sides.index(winner)]


# --- Advancing (Celery: tasks.advance) -------------------------------------


def due_tournament_ids(now: datetime) -> list[int]:
    """Tournaments with a transition due: to start, or to pair their next round."""
    due = Tournament.objects.filter(
        Q(status=Tournament.Status.UPCOMING, starts_at__lte=now)
        | Q(status=Tournament.Status.RUNNING, next_round_at__lte=now))
    return list(due.values_list("pk", flat=True))


def advance(tournament_id: int) -> str:
    """Do what is due for one tournament, once: start it, pair and start the
    next round, or finish it. Safe to call any number of times at once."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        now = timezone.now()
        if tournament.status == Tournament.Status.UPCOMING and tournament.starts_at <= now:
            return _start(tournament)
        if tournament.status != Tournament.Status.RUNNING:
            return f"nothing to do: {tournament.status}"
        if tournament.next_round_at is None or tournament.next_round_at > now:
            return "nothing to do: the round is on"
        if tournament.elimination:
            return _advance_bracket(tournament)
        return _next_round(tournament)


def _advance_on_commit(tournament: Tournament, countdown: float = 0) -> None:
    from tournaments import tasks  # lazy: tasks imports this module

    tournament_id = tournament.pk
    transaction.on_commit(lambda: tasks.advance.apply_async((tournament_id,), countdown=countdown))


def _start(tournament: Tournament) -> str:
    """Close the entries: drop who did not check in, number the rest by the
    seeding, and pair the first round."""
    now = timezone.now()
    if tournament.check_in_minutes:
        for entry in tournament.entries.filter(withdrawn_at__isnull=True, checked_in_at__isnull=True):
            entry.delete()  # never started: they simply were not there
    entries = list(tournament.entries.filter(withdrawn_at__isnull=True).select_related("user"))
    if len(entries) < 2:
        _end(tournament, Tournament.Status.CANCELLED, f"{len(entries)} player(s) at the start: not enough")
        return "cancelled: not enough players"
    _refresh_ratings(tournament, entries)
    _number(_seeded(tournament, entries))
    tournament.status, tournament.started_at = Tournament.Status.RUNNING, now
    tournament.next_round_at = now
    tournament.save(update_fields=["status", "started_at", "next_round_at"])
    if tournament.elimination:
        return _advance_bracket(tournament)
    return _next_round(tournament)


def _number(seeded: list[Entry]) -> None:
    """Pairing numbers in seeding order, with the ratings they were seeded by.

    One statement, many parameter sets (psycopg pipelines them): bulk_update's
    CASE expressions took most of a 1,000-player start in Python."""
    rows = []
    for number, entry in enumerate(seeded, start=1):
        entry.number = number
        rows.append((number, entry.rating, entry.pk))
    table = Entry._meta.db_table
    with connection.cursor() as cursor:
        cursor.executemany(f'UPDATE "{table}" SET "number" = %s, "rating" = %s WHERE "id" = %s', rows)


def _refresh_ratings(tournament: Tournament, entries: list[Entry]) -> None:
    """Each entry's rating now, on the tournament's game's ladder."""
    now = dict(ratings.standings(tournament.ladder).filter(user__in=[e.user_id for e in entries])
               .values_list("user_id", "rating"))
    for entry in entries:
        entry.rating = now.get(entry.user_id, entry.rating)


def _seeded(tournament: Tournament, entries: list[Entry]) -> list[Entry]:
    """Pairing numbers in seeding order: by rating (then who joined first),
    by the organizer's order, or at random."""
    if tournament.seeding == Tournament.Seeding.RANDOM:
        shuffled = list(entries)
        random.SystemRandom().shuffle(shuffled)
        return shuffled
    if tournament.seeding == Tournament.Seeding.MANUAL:
        return sorted(entries, key=lambda e: (e.manual_seed is None, e.manual_seed or 0, -e.rating, e.joined_at))
    return sorted(entries, key=lambda e: (-e.rating, e.joined_at, e.pk))


def _next_round(tournament: Tournament) -> str:
    """Pair and start round current + 1, or finish the tournament."""
    if _round_running(tournament):
        return "nothing to do: the round is on"
    pairer = PAIRERS[tournament.format]
    number = tournament.current_round + 1
    try:
        boards = pairer(tournament, number)
    except NoMoreRounds as done:
        _end(tournament, Tournament.Status.FINISHED, str(done))
        return f"finished: {done}"
    _start_round(tournament, number, boards)
    return f"round {number} started with {len(boards)} boards"


def _round_running(tournament: Tournament) -> bool:
    return tournament.round_set.filter(status=Round.Status.RUNNING).exists()


class NoMoreRounds(Exception):
    """The tournament is over: its last round is played, or no legal pairing exists."""


Board = tuple[Entry, Entry | None]


def _start_round(tournament: Tournament, number: int, boards: list[Board],
                 matches: list[tuple[str, int]] | None = None) -> Round:
    """One transaction: the round, its boards, their games; then everyone is
    told. ``matches`` gives each board's bracket match and game number."""
    round_ = Round.objects.create(tournament=tournament, number=number)
    pairings = []
    for board, (red, black) in enumerate(boards, start=1):
        match, match_game = matches[board - 1] if matches else ("", 1)
        pairing = Pairing(round=round_, board=board, red=red, black=black, match=match, match_game=match_game)
        if black is None:
            pairing.result = Pairing.Result.BYE
        elif not red.active or not black.active:
            pairing.result = _forfeit_against_absent(red, black, walkover=bool(match))
        pairings.append(pairing)
    to_play = [p for p in pairings if not p.result]
    started = _start_games(tournament, number, to_play)
    Pairing.objects.bulk_create(pairings)
    tournament.current_round, tournament.next_round_at = number, None
    tournament.save(update_fields=["current_round", "next_round_at"])
    if not started:  # every board a bye or a forfeit: the round is already over
        _finish_round(tournament, round_)
    messages = _round_notices(tournament, number, pairings) + lobby.games_started_messages(started)
    transaction.on_commit(lambda: lobby.send_to_groups(messages))
    notices.tell_round(tournament, number, pairings)
    _changed_on_commit(tournament)
    return round_


def _round_notices(tournament: Tournament, number: int, pairings: list[Pairing]) -> list[tuple[str, dict[str, Any]]]:
    """Every paired player (a bye too) hears that the round has started: the
    API's event stream reports it (api/streams.py), the site's notifier
    ignores it (the game start sends players to their boards)."""
    message = {"type": "tournament.round", "tournament": tournament.pk, "round": number}
    users = {entry.user_id for pairing in pairings for entry in (pairing.red, pairing.black) if entry is not None}
    return [(lobby.user_group(user_id), message) for user_id in sorted(users)]


def _forfeit_against_absent(red: Entry, black: Entry, walkover: bool = False) -> str:
    """A game against a player who has left: the one still here wins by
    forfeit. If both have left, a knockout match still needs a winner
    (``walkover``): Red, the higher slot in the match's first game."""
    if red.active or (walkover and not black.active):
        return Pairing.Result.RED_FORFEIT_WIN
    if black.active:
        return Pairing.Result.BLACK_FORFEIT_WIN
    return Pairing.Result.DOUBLE_FORFEIT


def _start_games(tournament: Tournament, number: int,
                 pairings: list[Pairing]) -> list[tuple[int, tuple[int, int]]]:
    """The boards' games, in one INSERT per kind of label; (game id, player ids) for the notices."""
    by_label: dict[str, list[Pairing]] = {}
    for pairing in pairings:  # an elimination game's record names its match
        label = f"{pairing.match} game {pairing.match_game}" if pairing.match else str(number)
        by_label.setdefault(label, []).append(pairing)
    started = []
    for label, group in by_label.items():
        event = Event(tournament.name, label, tournament.get_absolute_url())
        games = starting.start_games([(p.red.user, p.black.user) for p in group],  # type: ignore[union-attr]
                                     rated=tournament.rated, time_control=tournament.tc, event=event,
                                     setup=starting.setup_of(tournament.rules))
        for pairing, game in zip(group, games):
            pairing.game = game
            started.append((game.pk, tuple(seat.user_id for seat in game.table)))
    return started


def _end(tournament: Tournament, status: str, note: str) -> None:
    tournament.status, tournament.end_note = status, note
    tournament.finished_at, tournament.next_round_at = timezone.now(), None
    tournament.save(update_fields=["status", "end_note", "finished_at", "next_round_at"])
    if status == Tournament.Status.FINISHED:
        store_places(tournament)
    _changed_on_commit(tournament)


def _finish_if_over(tournament: Tournament) -> bool:
    """End the tournament now if its last game has ended (issue 22: not one
    pause later, when ``advance`` would have found nothing more to pair)."""
    note = _over(tournament)
    if note is None:
        return False
    _end(tournament, Tournament.Status.FINISHED, note)
    return True


def _over(tournament: Tournament) -> str | None:
    """Why the tournament is over with its games played, or None if more are to come."""
    if tournament.elimination:
        state = bracket_of(tournament)
        if state.complete or (not tournament.grand_final_reset and "GF" in state.bracket
                              and state["GF"].winner is not None):
            return "the bracket is complete"
        return None
    planned = planned_rounds(tournament)
    if planned is None or tournament.current_round < planned or _round_running(tournament):
        return None
    return f"all {planned} rounds played" if tournament.format == Tournament.Format.SWISS else "every round played"


def ranking(tournament: Tournament, players: list[results.Player] | None = None) -> list[tiebreaks.Standing]:
    """The standings, best first: points, then the tournament's tiebreaks.
    The page, the API, the TRF download and the final places all rank by this."""
    players = players if players is not None else trf_players(tournament)
    return tiebreaks.standings(players, tournament.tiebreak_codes,
                               round_robin=tournament.format == Tournament.Format.ROUND_ROBIN)


def final_places(tournament: Tournament) -> dict[int, int]:
    """{pairing number: place}: the standings' ranks, or the bracket's places."""
    if tournament.elimination:
        return {number: place for place, number in brackets.final_ranking(bracket_of(tournament))}
    return {standing.player.number: standing.rank for standing in ranking(tournament)}


def store_places(tournament: Tournament) -> None:
    """Keep each entry's final place (profiles list them without ranking every tournament again)."""
    places = final_places(tournament)
    entries = list(tournament.entries.filter(number__isnull=False))
    for entry in entries:
        entry.place = places.get(entry.number)  # type: ignore[arg-type]
    Entry.objects.bulk_update(entries, ["place"])


# --- Pairing a round, per format ------------------------------------------


def entries_by_number(tournament: Tournament) -> dict[int, Entry]:
    # Only the user's name: a whole user row (password hash and all) a player
    # was a third of a 1,000-player page's time (bench/tournaments.py).
    entries = tournament.entries.filter(number__isnull=False).select_related("user").only(*ENTRY_FIELDS)
    return {e.number: e for e in entries}


ENTRY_FIELDS = ("number", "rating", "user_id", "user__username", "withdrawn_at", "withdrawn_why", "annulled",
                "tournament_id", "no_shows", "checked_in_at")


def _pair_swiss(tournament: Tournament, number: int) -> list[Board]:
    from tournaments import swiss

    if number > (tournament.rounds or 0):
        raise NoMoreRounds(f"all {tournament.rounds} rounds played")
    entries = entries_by_number(tournament)
    everyone = trf_players(tournament, entries)
    players = [p for p in everyone if entries[p.number].active]
    forbidden = [(f.first.number, f.second.number) for f in
                 ForbiddenPairing.objects.filter(tournament=tournament).select_related("first", "second")
                 if f.first.number and f.second.number]
    try:
        boards = swiss.pair(players, number, tournament.rounds or number, forbidden, everyone=everyone)
    except swiss.NoPairing as none:
        raise NoMoreRounds(f"ended after round {number - 1}: no legal pairing exists ({none})") from None
    return [(entries[red], entries[black] if black is not None else None) for red, black in boards]


def _pair_round_robin(tournament: Tournament, number: int) -> list[Board]:
    entries = entries_by_number(tournament)
    double = tournament.double_round_robin
    if number > berger.cycle_length(len(entries)) * (2 if double else 1):
        raise NoMoreRounds("every round played")
    boards: list[Board] = []
    for red, black in berger.round_of(len(entries), number, double):
        if black is None:
            boards.append((entries[red], None))
        elif not (entries[red].annulled or entries[black].annulled):  # annulled: the game is not played
            boards.append((entries[red], entries[black]))
    return boards


PAIRERS: dict[str, Callable[[Tournament, int], list[Board]]] = {
    Tournament.Format.SWISS: _pair_swiss,
    Tournament.Format.ROUND_ROBIN: _pair_round_robin,
}


def planned_rounds(tournament: Tournament) -> int | None:
    """Rounds a Swiss or round robin will have (TRF's XXR)."""
    if tournament.format == Tournament.Format.SWISS:
        return tournament.rounds
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        players = tournament.entries.filter(number__isnull=False).count()
        return berger.cycle_length(players) * (2 if tournament.double_round_robin else 1) if players > 1 else None
    return None


# --- Elimination: matches as the bracket makes them ready -------------------


def bracket_of(tournament: Tournament) -> brackets.BracketState:
    """The bracket filled with the matches decided so far; players are pairing numbers."""
    entries = tournament.entries.filter(number__isnull=False)
    seeds = sorted(entries.values_list("number", flat=True))
    bracket = brackets.build(len(seeds), double=tournament.format == Tournament.Format.DOUBLE,
                             third_place=tournament.third_place and tournament.format == Tournament.Format.SINGLE)
    games = _match_games(tournament)
    winners = {match: winner for match, played in games.items()
               if (winner := match_winner(played, tournament.match_length)) is not None}
    return brackets.resolve(bracket, seeds, winners)


MatchGame = tuple[int, int | None, str]  # (red number, black number, board result)


def _match_games(tournament: Tournament) -> dict[str, list[MatchGame]]:
    pairings = (Pairing.objects.filter(round__tournament=tournament).exclude(match="")
                .select_related("red", "black").order_by("match", "match_game"))
    games: dict[str, list[MatchGame]] = {}
    for p in pairings:
        games.setdefault(p.match, []).append((p.red.number, p.black.number if p.black else None, p.result))
    return games


_RED_POINTS = {"1-0": 1.0, "+-": 1.0, "1/2": 0.5, "0-1": 0.0, "-+": 0.0, "--": 0.0}
_BLACK_POINTS = {"0-1": 1.0, "-+": 1.0, "1/2": 0.5, "1-0": 0.0, "+-": 0.0, "--": 0.0}


def match_winner(games: list[MatchGame], length: int) -> int | None:
    """Who has won a match of ``length`` games (best of), or None while it goes on.

    Decided once one side cannot be caught in the games left; after ``length``
    games a level match goes on game by game until one is ahead (issue 11).
    A walkover (a board won by forfeit with no game after the opponent left)
    is a game like any other.
    """
    if any(not result for _, _, result in games):
        return None
    points: dict[int, float] = {}
    for red, black, result in games:
        points[red] = points.get(red, 0.0) + _RED_POINTS[result]
        if black is not None:
            points[black] = points.get(black, 0.0) + _BLACK_POINTS[result]
    if len(points) < 2:
        return None
    (first, a), (second, b) = sorted(points.items(), key=lambda item: -item[1])
    left = max(length - len(games), 0)
    if a > b + left:
        return first
    return None


def _advance_bracket(tournament: Tournament) -> str:
    """Start the next game of every ready match with no game running, or finish."""
    if _finish_if_over(tournament):
        return f"finished: {tournament.end_note}"
    state = bracket_of(tournament)
    games = _match_games(tournament)
    entries = entries_by_number(tournament)
    boards: list[Board] = []
    matches: list[tuple[str, int]] = []
    for match_id in state.ready:
        played = games.get(match_id, [])
        if played and not played[-1][2]:
            continue  # its game is on
        slot = state[match_id]
        top, bottom = entries[slot.top], entries[slot.bottom]  # type: ignore[index]
        # Colours alternate within a match, the higher slot Red first.
        red, black = (top, bottom) if len(played) % 2 == 0 else (bottom, top)
        boards.append((red, black))
        matches.append((match_id, len(played) + 1))
    tournament.next_round_at = None
    tournament.save(update_fields=["next_round_at"])
    if not boards:
        return "nothing to do: the matches are on"
    number = tournament.current_round + 1
    _start_bracket_round(tournament, number, boards, matches)
    return f"round {number} started with {len(boards)} boards"


def _start_bracket_round(tournament: Tournament, number: int, boards: list[Board],
                         matches: list[tuple[str, int]]) -> None:
    _start_round(tournament, number, boards, matches)
    # A walkover (the opponent has left) decides a match at once: go on.
    if Pairing.objects.filter(round__tournament=tournament, round__number=number, game__isnull=True).exists():
        _due_after_pause(tournament)


# --- Results ----------------------------------------------------------------


def record_game_result(sender: Any, game: Game, **kwargs: Any) -> None:
    """games.signals.game_finished's receiver: the board's result, a no-show
    counted, and the round closed when its last game ends."""
    pairing = Pairing.objects.filter(game_id=game.pk).select_related("round", "red", "black").first()
    if pairing is None:
        return
    tournament = _locked(pairing.round.tournament_id)
    pairing.result = board_result(game)
    pairing.save(update_fields=["result"])
    if game.reason == Game.Reason.NO_SHOW:
        _count_no_shows(tournament, pairing, game)
    if not Pairing.objects.filter(round=pairing.round, result="").exists():
        _finish_round(tournament, pairing.round)
    elif tournament.elimination and not _finish_if_over(tournament):
        _due_after_pause(tournament)  # a match goes on without waiting for the others
    _changed_on_commit(tournament)


def board_result(game: Game) -> str:
    """The board's result: a pairing's "red" entry sits in the game's first
    seat (Rhombus: SW), "black" in the second."""
    first, second = game.seat_names
    if game.both_lost:  # both no-shows: the game's own result (engine.record.both_lost)
        return Pairing.Result.DOUBLE_FORFEIT
    if game.reason == Game.Reason.NO_SHOW:
        return {first: Pairing.Result.RED_FORFEIT_WIN, second: Pairing.Result.BLACK_FORFEIT_WIN}[game.winner]
    return {first: Pairing.Result.RED, second: Pairing.Result.BLACK}.get(game.winner, Pairing.Result.DRAW)


def _count_no_shows(tournament: Tournament, pairing: Pairing, game: Game) -> None:
    absent = [entry for seat, entry in zip(game.seat_names, (pairing.red, pairing.black))
              if entry is not None and game.winner != seat]
    for entry in absent:
        entry.no_shows += 1
        entry.save(update_fields=["no_shows"])
        if entry.no_shows >= NO_SHOWS_TO_WITHDRAW and entry.active:
            _leave(tournament, entry, f"withdrawn after {entry.no_shows} no-shows")


def _finish_round(tournament: Tournament, round_: Round) -> None:
    round_.status, round_.finished_at = Round.Status.FINISHED, timezone.now()
    round_.save(update_fields=["status", "finished_at"])
    if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
        return
    if not _finish_if_over(tournament):
        _due_after_pause(tournament)


def _due_after_pause(tournament: Tournament) -> None:
    if tournament.next_round_at is not None and tournament.next_round_at <= timezone.now():
        return  # already due
    tournament.next_round_at = timezone.now() + timedelta(seconds=tournament.pause_seconds)
    tournament.save(update_fields=["next_round_at"])
    _advance_on_commit(tournament, countdown=tournament.pause_seconds)


# --- Results as TRF-16 -------------------------------------------------------

_RED_CODE = {"1-0": "1", "0-1": "0", "1/2": "=", "+-": "+", "-+": "-", "--": "-"}
_BLACK_CODE = {"1-0": "0", "0-1": "1", "1/2": "=", "+-": "-", "-+": "+", "--": "-"}


def trf_players(tournament: Tournament, entries: dict[int, Entry] | None = None) -> list[results.Player]:
    """Every numbered entry with their rounds so far, in TRF-16's terms (results.py).

    A round without a board for a player is " " (not paired: absent, late, or
    withdrawn); a game against an annulled player (round robin) counts for
    neither side.
    """
    entries = entries if entries is not None else entries_by_number(tournament)
    by_entry = {e.pk: e for e in entries.values()}
    played = tournament.current_round
    rounds: dict[int, list[results.Round]] = {n: [_round(None, None, " ")] * played for n in entries}
    boards = (Pairing.objects.filter(round__tournament=tournament).order_by("round__number", "board")
              .values_list("round__number", "red_id", "black_id", "result"))
    for number, red_id, black_id, result in boards.iterator(chunk_size=2000):
        _place(number - 1, by_entry[red_id], by_entry.get(black_id), result, rounds)
    return [results.Player(n, e.user.get_username(), e.rating, tuple(rounds[n])) for n, e in entries.items()]


@functools.lru_cache(maxsize=65536)
def _round(opponent: int | None, colour: results.Colour | None, code: str) -> results.Round:
    """Rounds are values: the same few are shared rather than built (and checked) a thousand times."""
    return results.Round(opponent, colour, code)


def _place(index: int, red: Entry, black: Entry | None, result: str,
           rounds: dict[int, list[results.Round]]) -> None:
    if black is None:
        rounds[red.number][index] = _round(None, None, "U")
        return
    if red.annulled or black.annulled or not result:
        return  # not counted (annulled), or still being played
    rounds[red.number][index] = _round(black.number, results.RED, _RED_CODE[result])
    rounds[black.number][index] = _round(red.number, results.BLACK, _BLACK_CODE[result])
