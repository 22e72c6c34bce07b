"""A reminder names a team game in its recipient's language, whatever language
the process that sends it was speaking (issue 35, 14): the title is worded
while the mail is, not when games/reminders.py finds the game. Through real
SMTP (the tests' sink)."""

from __future__ import annotations

import queue
from datetime import timedelta
from email.message import EmailMessage
from typing import Any

import pytest
from django.utils import timezone, translation

from games import reminders, starting
from notify.models import Notification
from preferences.languages import save_language
from tests.notify.mails import choose, correspondence

pytestmark = [pytest.mark.django_db]

RHOMBUS = starting.Setup("rhombus")
TEAM_TITLE = {"en": "Rhombus, 4 players", "de": "Rhombus, 4 Spieler", "ru": "Rhombus, 4 игрока"}


def texts(message: EmailMessage) -> str:
    return message.get_body(("plain",)).get_content() + message.get_body(("html",)).get_content()


def only(sink: Any) -> EmailMessage:
    message = sink.messages.get(timeout=5)
    with pytest.raises(queue.Empty):
        sink.messages.get_nowait()
    return message


def team_game(*players: Any, left: timedelta | None = None) -> Any:
    """A 3-day Rhombus team game, the first player (SW) to move with ``left`` on the clock."""
    started = None if left is None else timezone.now() - timedelta(days=3) + left
    return correspondence(*players, setup=RHOMBUS, turn_started=started)


@pytest.mark.parametrize(("reader", "process"), [("ru", "de"), ("ru", "en"), ("en", "de"), ("de", "ru")])
def test_the_digest_names_a_team_game_in_the_readers_language(
        reader: str, process: str, alice: Any, bob: Any, charlie: Any, dave: Any, mail_sink: Any,
        settings: Any) -> None:
    settings.TURN_DIGEST_HOUR = 0
    save_language(alice, reader)
    choose(alice, "turn", email=True)
    team_game(alice, bob, charlie, dave)
    with translation.override(process):  # e.g. a German request served by this process just before
        assert reminders.send_turn_digests(timezone.now()) == 1
    body = texts(only(mail_sink))
    assert body.count(TEAM_TITLE[reader]) == 2  # the text part and the HTML part
    assert all(title not in body for language, title in TEAM_TITLE.items() if language != reader)


@pytest.mark.parametrize(("reader", "process"), [("ru", "de"), ("en", "ru")])
def test_the_clock_warning_names_a_team_game_in_the_readers_language(
        reader: str, process: str, alice: Any, bob: Any, charlie: Any, dave: Any, mail_sink: Any) -> None:
    save_language(alice, reader)
    choose(alice, "clock", email=True)
    team_game(alice, bob, charlie, dave, left=timedelta(hours=5))
    with translation.override(process):
        assert reminders.send_clock_warnings(timezone.now()) == 1
    body = texts(only(mail_sink))
    assert body.count(TEAM_TITLE[reader]) == 4  # the sentence and the link, in each part
    assert all(title not in body for language, title in TEAM_TITLE.items() if language != reader)
    # The bell's notice keeps the facts, not a sentence: it reads in whoever's language reads it.
    [notice] = Notification.objects.filter(user=alice, kind="clock")
    assert (notice.params["title"], notice.params["players"]) == ("Rhombus", 4)
