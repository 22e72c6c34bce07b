"""The notices the ladder sends: a challenge (2 and 4 players) to the
challenged, a tournament starting in 5 minutes (once) and each paired round to
its players, and a moderator's decision to the reporter or appellant."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from chat import lines as chat_lines
from ladder import challenges
from moderation.models import ModerationAction, Report
from moderation.reports import file_report
from tournaments import notices as tournament_notices
from tournaments import advancing
from tournaments.models import Entry, Pairing, Tournament
from tournaments.tasks import tell_starting_soon
from notify.models import Notification
from tests.helpers import client_for
from tests.moderation.conftest import act, moderator  # noqa: F401
from tests.tournaments.conftest import organizer, players, tournament  # noqa: F401

pytestmark = pytest.mark.django_db


def notices_of(user: Any, kind: str) -> list[Notification]:
    return list(Notification.objects.filter(user=user, kind=kind))


# --- Challenges ------------------------------------------------------------------


def test_a_challenge_reaches_the_challenged_player_s_bell(alice: Any, bob: Any) -> None:
    challenge = challenges.create_challenge(alice, "bob", "3d", rated=False)
    [notice] = notices_of(bob, "challenge")
    assert notice.key == f"challenge:{challenge.pk}"
    assert notice.params == {"challenger": "alice", "time_control": "3d", "rated": False, "players": 2,
                             "title": "Ace in the Hole"}
    assert notice.url == reverse("ladder:lobby")
    assert notices_of(alice, "challenge") == []


def test_answering_a_challenge_reads_its_notice(alice: Any, bob: Any) -> None:
    challenge = challenges.create_challenge(alice, "bob", "5+3")
    challenges.decline_challenge(challenge.pk, bob)
    assert [n.read for n in notices_of(bob, "challenge")] == [True]


def test_a_four_player_challenge_reaches_all_three_invitees(alice: Any, bob: Any, charlie: Any, dave: Any) -> None:
    challenges.create_team_challenge(alice, "bob", ["charlie", "dave"], "3d")
    for user in (bob, charlie, dave):
        [notice] = notices_of(user, "challenge")
        assert (notice.params["players"], notice.params["title"]) == (4, "Rhombus")


def test_a_player_who_muted_the_challenger_hears_nothing(alice: Any, bob: Any) -> None:
    chat_lines.mute(bob, alice)
    challenges.create_challenge(alice, "bob", "5+3")
    assert notices_of(bob, "challenge") == []


# --- Tournaments -----------------------------------------------------------------


def test_entrants_hear_once_that_a_tournament_starts_in_5_minutes(tournament: Any, players: Any) -> None:
    cup = tournament(starts_at=timezone.now() + timedelta(minutes=4))
    later = tournament(name="Later Cup", starts_at=timezone.now() + timedelta(minutes=30))
    first, second, gone = players(3)
    for user in (first, second, gone):
        Entry.objects.create(tournament=cup, user=user)
    Entry.objects.create(tournament=later, user=first)
    Entry.objects.filter(user=gone).update(withdrawn_at=timezone.now())
    assert tournament_notices.tell_starting_soon(timezone.now()) == [cup.pk]
    assert tournament_notices.tell_starting_soon(timezone.now()) == []  # once
    [notice] = notices_of(first, "tournament-soon")
    assert notice.params == {"tournament": cup.pk, "name": "Autumn Cup"}
    assert notice.url == f"/tournaments/{cup.pk}/"
    assert len(notices_of(second, "tournament-soon")) == 1
    assert notices_of(gone, "tournament-soon") == []


def test_each_paired_player_hears_of_their_round_with_a_link_to_their_board(tournament: Any, players: Any) -> None:
    cup = tournament(rounds=3)
    entrants = players(3)
    for user in entrants:
        Entry.objects.create(tournament=cup, user=user)
    Tournament.objects.filter(pk=cup.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    advancing.advance(cup.pk)
    board = Pairing.objects.get(round__tournament=cup, black__isnull=False)
    red, black = board.red.user, board.black.user
    [notice] = notices_of(red, "tournament-round")
    assert notice.params == {"tournament": cup.pk, "name": "Autumn Cup", "round": 1,
                             "opponent": black.username, "game": board.game_id}
    assert notice.url == f"/games/{board.game_id}/"
    assert notices_of(black, "tournament-round")[0].params["opponent"] == red.username
    bye = Pairing.objects.get(round__tournament=cup, black__isnull=True).red.user
    assert notices_of(bye, "tournament-round")[0].params["bye"] is True


# --- Moderation --------------------------------------------------------------------


def test_the_reporter_hears_that_the_moderators_acted_but_not_what_they_wrote(
        moderator: Any, alice: Any, bob: Any) -> None:
    report = file_report(bob, "alice", Report.Reason.STALLING, "lets the clock run out")
    act(moderator, ModerationAction.Kind.RESTRICT_LOBBY, user=alice, days=1, report=report, reason="Stalling, again")
    [notice] = notices_of(bob, "report-decision")
    assert notice.params == {"reported": "alice", "acted": True}
    assert "Stalling" not in str(notice.params)
    assert notices_of(alice, "report-decision") == []


def test_a_report_closed_in_the_queue_with_no_action_tells_the_reporter_so(
        moderator: Any, alice: Any, bob: Any) -> None:
    report = file_report(alice, "bob", "abuse", "rude")
    url = reverse("admin:moderation_report_change", args=[report.pk])
    assert client_for(moderator).post(url, {"outcome": "none", "note": "nothing rude"}).status_code == 302
    [notice] = notices_of(alice, "report-decision")
    assert notice.params == {"reported": "bob", "acted": False}


def test_an_appellant_hears_their_appeal_was_granted(moderator: Any, alice: Any) -> None:
    act(moderator, ModerationAction.Kind.RESTRICT_RATED, user=alice)
    client_for(alice).post("/report/appeal/", {"text": "It was a mistake."})
    appeal = Report.objects.get()
    act(moderator, ModerationAction.Kind.LIFT_RATED, user=alice, report=appeal, reason="Agreed on appeal")
    [notice] = notices_of(alice, "report-decision")
    assert notice.params == {"appeal": True, "granted": True}


def test_the_beat_task_tells_the_entrants(tournament: Any, players: Any) -> None:
    cup = tournament(starts_at=timezone.now() + timedelta(minutes=2))
    [entrant] = players(1)
    Entry.objects.create(tournament=cup, user=entrant)
    assert tell_starting_soon.apply().get() == [cup.pk]
    assert len(notices_of(entrant, "tournament-soon")) == 1


def test_a_report_filed_by_the_chat_filter_tells_nobody(moderator: Any, alice: Any) -> None:
    report = Report.objects.create(reporter=None, reported=alice, reason=Report.Reason.ABUSE, text="filter")
    act(moderator, ModerationAction.Kind.CHAT_TIMEOUT, user=alice, report=report, chat_reason="spam",
        minutes=15)
    assert Notification.objects.filter(kind="report-decision").count() == 0


def test_an_appeal_kept_tells_the_appellant_so(moderator: Any, alice: Any) -> None:
    act(moderator, ModerationAction.Kind.RESTRICT_RATED, user=alice)
    client_for(alice).post("/report/appeal/", {"text": "It was a mistake."})
    appeal = Report.objects.get()
    url = reverse("admin:moderation_report_change", args=[appeal.pk])
    assert client_for(moderator).post(url, {"outcome": "none", "note": "The restriction stands."}).status_code == 302
    [notice] = notices_of(alice, "report-decision")
    assert notice.params == {"appeal": True, "granted": False}
