"""Running a tournament on the database: entering, starting, pairing rounds,
starting their games, results, no-shows, withdrawals, organizer's rights."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import finishing
from games.models import Game
from ladder.models import Player as LadderPlayer
from tournaments import advancing, berger, changes, entering, organizing, scoring
from tournaments.models import Entry, Pairing, Round, Tournament
from tests.tournaments.conftest import play_round

pytestmark = pytest.mark.django_db

Make = Callable[..., Tournament]


def fresh(tournament: Tournament) -> Tournament:
    return Tournament.objects.get(pk=tournament.pk)


def enter(tournament: Tournament, users: list[Any]) -> None:
    for user in users:
        entering.join(tournament.pk, user)


def boards(tournament: Tournament, number: int) -> list[tuple[int, int | None]]:
    pairings = Pairing.objects.filter(round__tournament=tournament, round__number=number).select_related(
        "red", "black")
    return [(p.red.number, p.black.number if p.black else None) for p in pairings]


def test_joining_checks_the_entry_conditions_and_changes_nothing_when_refused(
        tournament: Make, players: Callable[[int], list[Any]]) -> None:
    t = tournament(min_rating=1895, max_players=1)
    strong, weak = players(2)
    with pytest.raises(changes.Refusal, match="your rating 1890 is below the minimum 1895"):
        entering.join(t.pk, weak)
    entering.join(t.pk, strong)
    with pytest.raises(changes.Refusal, match="already joined"):
        entering.join(t.pk, strong)
    t.min_rating = None
    t.save()
    with pytest.raises(changes.Refusal, match="full"):
        entering.join(t.pk, weak)
    assert list(Entry.objects.values_list("user__username", flat=True)) == ["p01"]


def test_a_new_account_or_too_few_rated_games_cannot_enter(tournament: Make, players: Any) -> None:
    t = tournament(min_rated_games=21)
    user = players(1)[0]
    with pytest.raises(changes.Refusal, match="you have played 20 rated games; 21 are needed"):
        entering.join(t.pk, user)
    t.min_rated_games, t.min_account_days = 0, 3
    t.save()
    with pytest.raises(changes.Refusal, match="your account is 0 days old"):
        entering.join(t.pk, user)


def test_a_bot_enters_only_where_bots_are_allowed(tournament: Make, players: Any) -> None:
    bot = players(1)[0]
    LadderPlayer.objects.filter(user=bot).update(is_bot=True, bot_level="random")
    with pytest.raises(changes.Refusal, match="bots may not enter"):
        entering.join(tournament().pk, bot)
    assert entering.join(tournament(bots_allowed=True).pk, bot).active


def test_a_round_robin_starts_seeded_by_rating_with_fides_first_round(tournament: Make, players: Any) -> None:
    t = tournament(format=Tournament.Format.ROUND_ROBIN, starts_at=timezone.now() - timedelta(seconds=1))
    users = players(5)
    enter(t, list(reversed(users)))  # joined weakest first: seeding is by rating, not by joining
    assert advancing.advance(t.pk) == "round 1 started with 3 boards"
    assert dict(Entry.objects.values_list("user__username", "number")) == {
        "p01": 1, "p02": 2, "p03": 3, "p04": 4, "p05": 5}
    assert boards(t, 1) == berger.round_of(5, 1)
    games = Game.objects.filter(status=Game.Status.RUNNING)
    assert games.count() == 2
    assert {(g.event, g.event_round, g.event_round_number, g.event_url, g.forfeit_no_shows) for g in games} == {
        ("Autumn Cup", "1", 1, f"/tournaments/{t.pk}/", True)}
    assert advancing.advance(t.pk) == "nothing to do: the round is on"
    assert Round.objects.count() == 1


def test_the_next_round_starts_after_the_last_game_and_the_pause(tournament: Make, players: Any) -> None:
    t = tournament(format=Tournament.Format.ROUND_ROBIN, starts_at=timezone.now(), pause_seconds=60)
    enter(t, players(4))
    advancing.advance(t.pk)
    play_round(fresh(t), lambda pairing: "red")
    t = fresh(t)
    assert Round.objects.get(number=1).status == Round.Status.FINISHED
    assert t.next_round_at is not None and t.next_round_at > timezone.now() + timedelta(seconds=50)
    assert advancing.advance(t.pk) == "nothing to do: the round is on"
    Tournament.objects.filter(pk=t.pk).update(next_round_at=timezone.now())
    assert advancing.advance(t.pk) == "round 2 started with 2 boards"
    assert boards(t, 2) == berger.round_of(4, 2)


def test_a_round_robin_is_played_to_the_end_with_its_standings(tournament: Make, players: Any) -> None:
    t = tournament(format=Tournament.Format.ROUND_ROBIN, starts_at=timezone.now())
    enter(t, players(4))
    advancing.advance(t.pk)
    for _ in range(3):
        # The lower pairing number always wins: 1 scores 3, 2 scores 2, ...
        play_round(fresh(t), lambda p: "red" if p.red.number < p.black.number else "black")
        advancing.advance(t.pk)  # pause 0: due at once (the test's transaction runs no on_commit)
    t = fresh(t)
    assert (t.status, t.current_round, t.end_note) == ("finished", 3, "every round played")
    points = {p.number: p.points for p in scoring.trf_players(t)}
    assert points == {1: 3.0, 2: 2.0, 3: 1.0, 4: 0.0}


def test_no_shows_lose_by_forfeit_and_a_second_one_withdraws(tournament: Make, players: Any) -> None:
    t = tournament(format=Tournament.Format.ROUND_ROBIN, starts_at=timezone.now())
    enter(t, players(4))
    advancing.advance(t.pk)
    for _ in range(2):
        t = fresh(t)
        # Nobody moves: every first-move window passes; both sides are absent.
        Game.objects.filter(status=Game.Status.RUNNING).update(abort_at=timezone.now() - timedelta(seconds=1))
        for game_id in finishing.expired_game_ids(timezone.now()):
            finishing.claim_time(game_id)
        assert set(Pairing.objects.filter(round__number=t.current_round).values_list("result", flat=True)) == {"--"}
        if t.current_round == 1:
            Tournament.objects.filter(pk=t.pk).update(next_round_at=timezone.now())
            advancing.advance(t.pk)
    entries = Entry.objects.all()
    assert all(e.no_shows == 2 and not e.active for e in entries)
    assert {e.withdrawn_why for e in entries} == {"withdrawn after 2 no-shows"}


def test_advancing_again_while_the_round_is_on_pairs_nothing_more(tournament: Make, players: Any) -> None:
    """Here one after the other on one connection; tests/tournaments/test_workers.py races real workers."""
    t = tournament(format=Tournament.Format.ROUND_ROBIN, starts_at=timezone.now())
    enter(t, players(4))
    assert advancing.advance(t.pk).startswith("round 1 started")
    assert advancing.advance(t.pk) == "nothing to do: the round is on"
    assert Game.objects.count() == 2


def test_only_the_organizer_may_run_it(tournament: Make, players: Any, organizer: Any) -> None:
    t = tournament(format=Tournament.Format.ROUND_ROBIN)
    outsider = players(1)[0]
    with pytest.raises(changes.Refusal, match="only the tournament's organizer"):
        organizing.start_early(t.pk, outsider)
    assert fresh(t).status == "upcoming"
    enter(t, players(3)[1:])
    organizing.start_early(t.pk, organizer)
    assert fresh(t).status == "running"


def test_a_round_robin_withdrawal_before_half_annuls_the_results(tournament: Make, players: Any) -> None:
    t = tournament(format=Tournament.Format.ROUND_ROBIN, starts_at=timezone.now())
    users = players(4)
    enter(t, users)
    advancing.advance(t.pk)
    play_round(fresh(t), lambda p: "red")
    entering.withdraw(t.pk, users[0])  # player 1 played 1 of 3 games: annulled
    entry = Entry.objects.get(user=users[0])
    assert entry.annulled and entry.withdrawn_after_round == 1
    by_number = {p.number: p for p in scoring.trf_players(fresh(t))}
    assert by_number[1].points == 0 and by_number[4].rounds[0].result == " "  # 1 v 4 is gone
    Tournament.objects.filter(pk=t.pk).update(next_round_at=timezone.now())
    advancing.advance(t.pk)
    assert 1 not in {n for board in boards(t, 2) for n in board}


def test_a_late_round_robin_withdrawal_forfeits_the_rest(tournament: Make, players: Any) -> None:
    t = tournament(format=Tournament.Format.ROUND_ROBIN, starts_at=timezone.now())
    users = players(4)
    enter(t, users)
    advancing.advance(t.pk)
    for _ in range(2):
        play_round(fresh(t), lambda p: "red")
        Tournament.objects.filter(pk=t.pk).update(next_round_at=timezone.now())
        if fresh(t).current_round == 1:
            advancing.advance(t.pk)
    entering.withdraw(t.pk, users[0])
    assert not Entry.objects.get(user=users[0]).annulled
    advancing.advance(t.pk)
    third = Pairing.objects.get(round__number=3, red__number=1) if Pairing.objects.filter(
        round__number=3, red__number=1).exists() else Pairing.objects.get(round__number=3, black__number=1)
    assert third.game_id is None and third.result in ("-+", "+-")
    assert third.result == ("-+" if third.red.number == 1 else "+-")
