"""Moderators in chat (issue 25): time a player out (with a reason from the list,
shown to them in their language), remove a line, clear a player's day, lock a
room to established accounts; each act is a logged ModerationAction, and a
refused act changes nothing."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import override

from chat import lines
from chat.lines import Refused, Speaker
from chat.models import ChatTimeout, Line, RoomLock
from moderation.actions import ModerationRefusal
from moderation.models import ModerationAction, Report
from tests.helpers import client_for
from tests.moderation.conftest import act

pytestmark = pytest.mark.django_db
Kind = ModerationAction.Kind


def test_a_timeout_keeps_the_player_out_of_chat_with_the_reason_in_their_language(moderator: Any,
                                                                                   alice: Any) -> None:
    action = act(moderator, Kind.CHAT_TIMEOUT, user=alice, minutes=60, chat_reason="insult")
    timeout = ChatTimeout.objects.get()
    assert (timeout.user, timeout.moderator, timeout.ends - timeout.starts) == (alice, moderator, timedelta(hours=1))
    assert "out of chat until" in action.outcome
    for language, words in [("en", "disrespecting other players"), ("de", "Respektlosigkeit"),
                            ("es", "faltar al respeto"), ("ru", "неуважение")]:
        with override(language), pytest.raises(Refused) as refusal:
            lines.post("game:1", Speaker(alice), text="hello")
        assert words in str(refusal.value)
    assert not Line.objects.exists()


@pytest.mark.parametrize("fields, why", [
    ({"minutes": 7, "chat_reason": "spam"}, "choose how long"),
    ({"minutes": 15, "chat_reason": ""}, "choose the reason"),
    ({"minutes": 15, "chat_reason": "spam", "reason": " "}, "say why"),
])
def test_a_timeout_needs_a_length_from_the_list_a_reason_and_a_why(moderator: Any, alice: Any,
                                                                    fields: dict[str, Any], why: str) -> None:
    with pytest.raises(ModerationRefusal, match=why):
        act(moderator, Kind.CHAT_TIMEOUT, user=alice, **fields)
    assert not ChatTimeout.objects.exists() and not ModerationAction.objects.exists()


def test_staff_without_the_permission_cannot_act_in_chat(staff: Any, alice: Any) -> None:
    line = lines.post("game:1", Speaker(alice), text="hi")
    with pytest.raises(ModerationRefusal, match="moderation.moderate_chat"):
        act(staff, Kind.CHAT_REMOVE, chat_line=line)
    assert not Line.objects.get().removed


def test_removing_a_line_shows_it_removed_and_closes_the_filters_report(moderator: Any, alice: Any) -> None:
    line = lines.post("game:1", Speaker(alice), text="kys")
    report = Report.objects.get()  # the chat filter's
    action = act(moderator, Kind.CHAT_REMOVE, chat_line=line, report=report)
    assert action.user == alice  # logged on the author's history
    assert [lines.shown_text(shown) for shown in lines.recent_lines("game:1")] == ["removed by a moderator"]
    report.refresh_from_db()
    assert (report.status, report.outcome) == (Report.Status.CLOSED, Report.Outcome.WARNED)
    with pytest.raises(ModerationRefusal, match="removed already"):
        act(moderator, Kind.CHAT_REMOVE, chat_line=line)


def test_clearing_removes_the_players_lines_of_the_last_day_everywhere(moderator: Any, alice: Any,
                                                                       bob: Any) -> None:
    old = lines.post("game:1", Speaker(alice), text="yesterday's line", now=timezone.now() - timedelta(hours=30))
    for room in ("game:1", "game:2/w", "tournament:3"):
        lines.post(room, Speaker(alice), text=f"spam in {room}")
    lines.post("game:1", Speaker(bob), text="bob stays")
    action = act(moderator, Kind.CHAT_CLEAR, user=alice)
    assert "removed 3 line(s)" in action.outcome and "tournament:3" in action.outcome
    removed = set(Line.objects.filter(removed=True).values_list("text", flat=True))
    assert removed == {"spam in game:1", "spam in game:2/w", "spam in tournament:3"}
    assert not Line.objects.get(pk=old.pk).removed


def test_locking_a_room_keeps_new_accounts_out_for_a_while(moderator: Any, alice: Any) -> None:
    act(moderator, Kind.CHAT_LOCK, room="game:4/w", minutes=15)
    assert RoomLock.objects.get().room == "game:4/w"
    with pytest.raises(Refused):
        lines.post("game:4/w", Speaker(alice), text="first!")
    assert lines.post("game:4/w", Speaker(alice), text="later", now=timezone.now() + timedelta(minutes=16))


def test_the_lines_page_links_each_act(moderator: Any, alice: Any) -> None:
    line = lines.post("game:1", Speaker(alice), text="rude words")
    page = client_for(moderator).get(reverse("admin:chat_line_changelist")).content.decode()
    assert "rude words" in page
    add = reverse("admin:moderation_moderationaction_add")
    assert f"{add}?chat_line={line.pk}&amp;user={alice.pk}&amp;kind=chat_remove" in page
    assert f"{add}?user={alice.pk}&amp;minutes=15&amp;kind=chat_timeout" in page
