"""A chat line's menu (issue 25): a player reports a line into the moderators'
queue; a moderator removes, times out or clears from the page, each logged as
in the admin; anyone else is refused and nothing changes."""

from __future__ import annotations

from typing import Any

import pytest

from chat import lines
from chat.lines import Speaker
from chat.models import ChatTimeout, Line
from games import starting
from moderation.models import ModerationAction, Report
from tests.helpers import client_for

pytestmark = pytest.mark.django_db


def test_a_player_reports_a_line_they_can_read(alice: Any, bob: Any, charlie: Any) -> None:
    game = starting.start_game(alice, bob, seed="menu")
    line = lines.post(f"game:{game.pk}", Speaker(alice), text="you are hopeless")
    answer = client_for(bob).post(f"/report/line/{line.pk}/")
    assert answer.status_code == 200 and "with the moderators" in answer.json()["message"]
    report = Report.objects.get()
    assert (report.reporter, report.reported, report.reason) == (bob, alice, Report.Reason.ABUSE)
    assert "you are hopeless" in report.text and f"game:{game.pk}" in report.text
    # charlie watches: the players' room is not his to read, so not his to report.
    refused = client_for(charlie).post(f"/report/line/{line.pk}/")
    assert refused.status_code == 400 and refused.json()["message"] == "There is no such chat line"
    assert Report.objects.count() == 1


def test_a_moderator_acts_from_the_page_and_each_act_is_logged(moderator: Any, alice: Any) -> None:
    line = lines.post("tournament:1", Speaker(alice), text="spam spam spam")
    client = client_for(moderator)
    done = client.post(f"/report/chat/{line.pk}/timeout/", {"minutes": "15", "reason": "spam"})
    assert done.status_code == 200 and done.json()["message"].startswith("Done: out of chat until")
    assert client.post(f"/report/chat/{line.pk}/remove/").status_code == 200
    assert client.post(f"/report/chat/{line.pk}/clear/").status_code == 200
    actions = ModerationAction.objects.order_by("pk")
    assert [(a.kind, a.user, a.moderator) for a in actions] == [
        ("chat_timeout", alice, moderator), ("chat_remove", alice, moderator), ("chat_clear", alice, moderator)]
    assert ChatTimeout.objects.get().reason == "spam" and Line.objects.get().removed


def test_anyone_else_is_refused_and_nothing_changes(alice: Any, bob: Any) -> None:
    line = lines.post("tournament:1", Speaker(alice), text="hello")
    refused = client_for(bob).post(f"/report/chat/{line.pk}/remove/")
    assert refused.status_code == 400 and "moderation.moderate_chat" in refused.json()["message"]
    assert client_for(bob).post(f"/report/chat/{line.pk}/dance/").status_code == 400
    assert not Line.objects.get().removed and not ModerationAction.objects.exists()


@pytest.mark.parametrize("minutes", ["9" * 5000, "99999999999999999999999", "0", "soon"])
def test_a_time_out_of_no_offered_length_is_refused_and_changes_nothing(minutes: str, moderator: Any,
                                                                         alice: Any) -> None:
    """5,000 digits were past what int() reads: a 500 (issue 35, 11's kind)."""
    line = lines.post("tournament:1", Speaker(alice), text="spam spam spam")
    refused = client_for(moderator).post(f"/report/chat/{line.pk}/timeout/", {"minutes": minutes, "reason": "spam"})
    assert refused.status_code == 400 and refused.json()["message"].startswith("Choose how long:")
    assert not ChatTimeout.objects.exists() and not ModerationAction.objects.exists()
