"""Running a tournament's rounds: starting it, pairing and starting each round
and its games, pausing between rounds, and finishing it.

``advance`` is what the Celery tasks call (tournaments.tasks), and is safe to
call any number of times at once: it locks the tournament's row and does only
what is due. The rules of each format are the pure modules: ``swiss`` and
``berger`` give a round's boards (through tournaments.pairers), ``brackets``
the matches, ``tiebreaks`` the standings.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any

from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from games import starting
from games.models import Event
from ladder import lobby_groups, ratings
from tournaments import notices
from tournaments.changes import changed_on_commit, locked
from tournaments.models import Entry, Pairing, Round, Tournament
from tournaments.pairers import PAIRERS, Board, NoMoreRounds, planned_rounds
from tournaments.scoring import bracket_of, entries_by_number, match_games, store_places


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
        tournament = locked(tournament_id)
        now = timezone.now()
        if tournament.status == Tournament.Status.UPCOMING and tournament.starts_at <= now:
            return start_tournament(tournament)
        if tournament.status != Tournament.Status.RUNNING:
            return f"nothing to do: {tournament.status}"
        if tournament.next_round_at is None or tournament.next_round_at > now:
            return "nothing to do: the round is on"
        if tournament.elimination:
            return _advance_bracket(tournament)
        return _next_round(tournament)


def advance_on_commit(tournament: Tournament, countdown: float = 0) -> None:
    # The one import in a body: a module queuing its own Celery task (tasks imports this module).
    from tournaments import tasks

    tournament_id = tournament.pk
    transaction.on_commit(lambda: tasks.advance.apply_async((tournament_id,), countdown=countdown))


def start_tournament(tournament: Tournament) -> str:
    """Close the entries: drop who did not check in, number the rest by the
    seeding, and pair the first round."""
    now = timezone.now()
    if tournament.check_in_minutes:
        for entry in tournament.entries.filter(withdrawn_at__isnull=True, checked_in_at__isnull=True):
            entry.delete()  # never started: they simply were not there
    entries = list(tournament.entries.filter(withdrawn_at__isnull=True).select_related("user"))
    if len(entries) < 2:
        end_tournament(tournament, Tournament.Status.CANCELLED, f"{len(entries)} player(s) at the start: not enough")
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
        end_tournament(tournament, Tournament.Status.FINISHED, str(done))
        return f"finished: {done}"
    _start_round(tournament, number, boards)
    return f"round {number} started with {len(boards)} boards"


def _round_running(tournament: Tournament) -> bool:
    return tournament.round_set.filter(status=Round.Status.RUNNING).exists()


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
        finish_round(tournament, round_)
    messages = _round_notices(tournament, number, pairings) + lobby_groups.games_started_messages(started)
    transaction.on_commit(lambda: lobby_groups.send_to_groups(messages))
    notices.tell_round(tournament, number, pairings)
    changed_on_commit(tournament)
    return round_


def _round_notices(tournament: Tournament, number: int, pairings: list[Pairing]) -> list[tuple[str, dict[str, Any]]]:
    """Every paired player (a bye too) hears that the round has started: the
    API's event stream reports it (api/streams.py), the site's notifier
    ignores it (the game start sends players to their boards)."""
    message = {"type": "tournament.round", "tournament": tournament.pk, "round": number}
    users = {entry.user_id for pairing in pairings for entry in (pairing.red, pairing.black) if entry is not None}
    return [(lobby_groups.user_group(user_id), message) for user_id in sorted(users)]


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
        event = Event(tournament.name, label, tournament.get_absolute_url(), number=number)
        games = starting.start_games([(p.red.user, p.black.user) for p in group],  # type: ignore[union-attr]
                                     rated=tournament.rated, time_control=tournament.tc, event=event,
                                     setup=starting.setup_of(tournament.rules))
        for pairing, game in zip(group, games):
            pairing.game = game
            started.append((game.pk, tuple(seat.user_id for seat in game.table)))
    return started


def end_tournament(tournament: Tournament, status: str, note: str) -> None:
    tournament.status, tournament.end_note = status, note
    tournament.finished_at, tournament.next_round_at = timezone.now(), None
    tournament.save(update_fields=["status", "end_note", "finished_at", "next_round_at"])
    if status == Tournament.Status.FINISHED:
        store_places(tournament)
    changed_on_commit(tournament)


def finish_if_over(tournament: Tournament) -> bool:
    """End the tournament now if its last game has ended (issue 22: not one
    pause later, when ``advance`` would have found nothing more to pair)."""
    note = _over(tournament)
    if note is None:
        return False
    end_tournament(tournament, Tournament.Status.FINISHED, note)
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


# --- Elimination: matches as the bracket makes them ready -------------------


def _advance_bracket(tournament: Tournament) -> str:
    """Start the next game of every ready match with no game running, or finish."""
    if finish_if_over(tournament):
        return f"finished: {tournament.end_note}"
    state = bracket_of(tournament)
    games = match_games(tournament)
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
        due_after_pause(tournament)


def finish_round(tournament: Tournament, round_: Round) -> None:
    round_.status, round_.finished_at = Round.Status.FINISHED, timezone.now()
    round_.save(update_fields=["status", "finished_at"])
    if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
        return
    if not finish_if_over(tournament):
        due_after_pause(tournament)


def due_after_pause(tournament: Tournament) -> None:
    if tournament.next_round_at is not None and tournament.next_round_at <= timezone.now():
        return  # already due
    tournament.next_round_at = timezone.now() + timedelta(seconds=tournament.pause_seconds)
    tournament.save(update_fields=["next_round_at"])
    advance_on_commit(tournament, countdown=tournament.pause_seconds)
