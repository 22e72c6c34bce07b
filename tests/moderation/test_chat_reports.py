"""The chat's abuse filter files reports into the moderators' queue (issue 25):
a German and a Russian insult each lead to one, a critical word at once, and an
open report gathers the later lines instead of a second report."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from chat import lines
from chat.lines import Speaker
from moderation.models import Report

pytestmark = pytest.mark.django_db


def say(user: Any, *texts: str, room: str = "game:5") -> None:
    start = timezone.now()
    for second, text in enumerate(texts):
        lines.post(room, Speaker(user), text=text, now=start + timedelta(seconds=3 * second))


def test_german_insults_report_their_author_with_the_lines(alice: Any) -> None:
    say(alice, "Du Idiot", "gutes Spiel", "du Depp", "Vollidiot!")
    report = Report.objects.get()
    assert (report.reporter, report.reported, report.reason, report.status) == (
        None, alice, Report.Reason.ABUSE, Report.Status.OPEN)
    assert [quote in report.text for quote in ("Du Idiot", "du Depp", "Vollidiot!", "gutes Spiel")] == [
        True, True, True, False]
    assert "game:5" in report.text


def test_a_russian_slur_reports_at_once_and_later_lines_join_the_open_report(alice: Any) -> None:
    say(alice, "ну ты пидор")
    report = Report.objects.get()
    assert "ну ты пидор" in report.text
    say(alice, "и ещё раз: пидорас", room="tournament:2")
    report = Report.objects.get()  # still one
    assert "tournament:2" in report.text and "и ещё раз: пидорас" in report.text


def test_game_talk_reports_nobody(alice: Any) -> None:
    say(alice, "Hallo", "Viel Glück", "gutes Spiel", "Спасибо за игру")
    assert not Report.objects.exists()


def test_the_queue_names_the_chat_filter_as_reporter(alice: Any, admin_client: Any) -> None:
    say(alice, "kys")
    page = admin_client.get("/admin/moderation/report/")
    assert page.status_code == 200 and "the chat filter" in page.content.decode()
