"""What a restricted player is told, how they appeal, and what acting on a
report does to it (issue 22, finding 19).

A restriction's or playban's notice is a sentence with the reason and the way to
appeal; the appeal is a report to the moderators' queue (one open at a time, only
while something is in force); an act a moderator does on a report closes it,
with who and when."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from ladder import inputs, matchmaking, playban, seeks
from moderation.actions import ModerationRefusal
from moderation.models import ModerationAction, Report, Restriction
from moderation.reports import file_report
from tests.moderation.conftest import act
from tests.helpers import client_for

pytestmark = pytest.mark.django_db
Kind = ModerationAction.Kind
APPEAL = "/report/appeal/"


# --- Notices -------------------------------------------------------------------


def test_a_restriction_notice_is_a_sentence_with_the_reason_and_the_way_to_appeal(moderator: Any,
                                                                                 alice: Any) -> None:
    act(moderator, Kind.RESTRICT_LOBBY, user=alice, days=3, reason="Insults in every challenge message")
    with pytest.raises(inputs.LobbyRefusal) as refused:
        seeks.create_seek(alice, "5+3", rated=False)
    notice = str(refused.value)
    # The end in the language's DATETIME_FORMAT, in UTC (English: "1 Dec 2026 17:16 UTC").
    assert re.match(r"A moderator has restricted your account: you may not create or accept seeks "
                    r"until \d{1,2} [A-Z][a-z]{2} 20\d\d \d\d:\d\d UTC\. ", notice), notice
    assert "Reason: Insults in every challenge message." in notice
    assert notice.endswith(f"To appeal, write to the moderators at {APPEAL}")
    with pytest.raises(matchmaking.PoolRefusal, match=r"^A moderator has restricted your account"):
        matchmaking.join(alice, "5+3")


def test_a_playban_notice_is_a_sentence_with_the_way_to_appeal(alice: Any) -> None:
    for _ in range(playban.LIMIT):
        playban.record(alice, playban.ABORT)
    with pytest.raises(inputs.LobbyRefusal) as refused:
        seeks.create_seek(alice, "5+3", rated=False)
    notice = str(refused.value)
    assert notice.startswith("You may not start games for 1")
    assert "Reason: a playban for aborting games; it grows if it happens again." in notice
    assert notice.endswith(f"To appeal, write to the moderators at {APPEAL}")


def test_the_lobby_shows_a_restricted_player_the_notice_and_a_link_to_appeal(moderator: Any, alice: Any,
                                                                             bob: Any) -> None:
    act(moderator, Kind.RESTRICT_RATED, user=alice, reason="Boosting with a second account")
    page = client_for(alice).get(reverse("ladder:lobby")).content.decode()
    assert "A moderator has restricted your account: you may not play rated games until a moderator lifts it." \
        in page and "Reason: Boosting with a second account." in page
    assert f'href="{APPEAL}"' in page
    assert f'href="{APPEAL}"' not in client_for(bob).get(reverse("ladder:lobby")).content.decode()


# --- Appeals ---------------------------------------------------------------------


def test_a_restricted_player_appeals_and_the_appeal_waits_in_the_queue(moderator: Any, alice: Any) -> None:
    act(moderator, Kind.RESTRICT_RATED, user=alice, reason="Boosting with a second account")
    client = client_for(alice)
    page = client.get(APPEAL).content.decode()
    assert "Boosting with a second account" in page and "csrfmiddlewaretoken" in page
    response = client.post(APPEAL, {"text": "That was my brother on the same wifi."})
    assert response.status_code == 302
    appeal = Report.objects.get()
    assert (appeal.reporter, appeal.reported, appeal.reason, appeal.status, appeal.text) == (
        alice, alice, Report.Reason.APPEAL, Report.Status.OPEN, "That was my brother on the same wifi.")


def test_an_appeal_is_refused_with_nothing_to_appeal(charlie: Any) -> None:
    response = client_for(charlie).post(APPEAL, {"text": "please"})
    assert response.status_code == 400
    assert "Your account has no restriction or playban in force: there is nothing to appeal." \
        in response.content.decode()
    assert not Report.objects.exists()


def test_an_appeal_needs_a_text_and_one_is_open_at_a_time(moderator: Any, alice: Any) -> None:
    act(moderator, Kind.RESTRICT_LOBBY, user=alice)
    client = client_for(alice)
    assert client.post(APPEAL, {"text": "  "}).status_code == 400
    assert not Report.objects.exists()
    assert client.post(APPEAL, {"text": "I was not there"}).status_code == 302
    again = client.post(APPEAL, {"text": "Hello?"})
    assert again.status_code == 400 and "You already have an open appeal" in again.content.decode()
    assert Report.objects.count() == 1


def test_a_player_cannot_file_an_appeal_as_a_report_on_someone(alice: Any, bob: Any) -> None:
    with pytest.raises(ValueError, match="choose a reason from the list"):
        file_report(alice, "bob", Report.Reason.APPEAL)
    assert not Report.objects.exists()


# --- Acting on a report closes it --------------------------------------------------


def test_restricting_on_a_report_closes_it_with_who_and_when(moderator: Any, alice: Any, bob: Any) -> None:
    report = file_report(bob, "alice", Report.Reason.STALLING, "lets the clock run out")
    action = act(moderator, Kind.RESTRICT_LOBBY, user=alice, days=1, report=report, reason="Stalling, again")
    report.refresh_from_db()
    assert (report.status, report.closed_by, report.closed_at, report.outcome) == (
        Report.Status.CLOSED, moderator, action.created, Report.Outcome.RESTRICTED)
    assert "Stalling, again" in report.note


def test_lifting_on_an_appeal_closes_the_appeal(moderator: Any, alice: Any) -> None:
    act(moderator, Kind.RESTRICT_RATED, user=alice)
    client_for(alice).post(APPEAL, {"text": "It was a mistake."})
    appeal = Report.objects.get()
    act(moderator, Kind.LIFT_RATED, user=alice, report=appeal, reason="Agreed on appeal")
    appeal.refresh_from_db()
    assert (appeal.status, appeal.closed_by, appeal.outcome) == (Report.Status.CLOSED, moderator,
                                                                 Report.Outcome.LIFTED)
    assert not Restriction.objects.filter(user=alice, lifted_at__isnull=True).exists()


def test_a_refused_act_leaves_the_report_open(moderator: Any, alice: Any, bob: Any) -> None:
    report = file_report(bob, "alice", Report.Reason.ABUSE)
    with pytest.raises(ModerationRefusal):
        act(moderator, Kind.LIFT_LOBBY, user=alice, report=report)  # nothing to lift
    report.refresh_from_db()
    assert (report.status, report.closed_by, report.closed_at) == (Report.Status.OPEN, None, None)
