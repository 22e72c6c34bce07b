"""One e-mail a notice, for the kinds a player chose by e-mail other than the
turn (a daily digest) and the clock (its warning): a challenge, a tournament
starting, a new follower... (notify.mail.send_notice, the delivery
notify.tasks.queue_mail)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail as outbox
from django.db import connection
from django.test import Client

from notify import mail, notices
from notify.models import Kind
from preferences.languages import save_language
from tests.helpers import celery_worker, require_service, wait_for_other_sessions_to_end, worker_database_url
from tests.notify.mails import choose
from tests.notify.smtp_sink import smtp_sink

pytestmark = [pytest.mark.django_db]

CHALLENGE = {"challenger": "bob", "time_control": "5+3", "title": "Ace in the Hole", "players": 2, "rated": True}


@pytest.fixture(autouse=True)
def site_url(settings: Any) -> None:
    settings.SITE_URL = "https://aceweb.example"


def test_a_challenge_chosen_by_e_mail_is_mailed_with_its_link_and_an_unsubscribe_header(alice: Any) -> None:
    choose(alice, Kind.CHALLENGE, email=True)
    assert mail.send_notice(alice.pk, Kind.CHALLENGE, CHALLENGE, "/lobby/")
    [sent] = outbox.outbox
    assert sent.to == ["alice@example.org"]
    assert sent.subject == "A challenge"
    body = sent.body
    assert "bob challenges you to a rated 5+3 game of Ace in the Hole." in body
    assert "https://aceweb.example/lobby/" in body
    unsubscribe = sent.extra_headers["List-Unsubscribe"].strip("<>")
    assert Client().post(unsubscribe.removeprefix("https://aceweb.example")).status_code == 200
    assert not mail.send_notice(alice.pk, Kind.CHALLENGE, CHALLENGE, "/lobby/")  # that kind is off now
    assert len(outbox.outbox) == 1


def test_it_is_worded_in_the_players_language(alice: Any) -> None:
    save_language(alice, "de")
    choose(alice, Kind.FOLLOWER, email=True)
    assert mail.send_notice(alice.pk, Kind.FOLLOWER, {"username": "bob"}, "/@/bob/")
    [sent] = outbox.outbox
    assert "bob" in sent.body and "Hello" not in sent.body and "Hallo" in sent.body


def test_nothing_is_mailed_unless_chosen_and_never_a_turn_or_clock_one_by_one(alice: Any) -> None:
    assert not mail.send_notice(alice.pk, Kind.CHALLENGE, CHALLENGE, "/lobby/")  # e-mail is opt-in
    choose(alice, Kind.TURN, email=True)
    choose(alice, Kind.CLOCK, email=True)
    assert not mail.send_notice(alice.pk, Kind.TURN, {"opponents": ["bob"]}, "/games/1/")
    assert not mail.send_notice(alice.pk, Kind.CLOCK, {"opponent": "bob", "hours": 1}, "/games/1/")
    assert outbox.outbox == []


def test_the_delivery_queues_a_mail_only_for_a_notice_chosen_by_e_mail(alice: Any) -> None:
    choose(alice, Kind.CHALLENGE, email=True)
    chosen = notices.Notice(alice.pk, Kind.CHALLENGE, "challenge:1", CHALLENGE, "/lobby/",
                            channels={"site": True, "email": True, "push": False})
    assert mail.wants_notice_mail(chosen)
    assert not mail.wants_notice_mail(notices.Notice(alice.pk, Kind.CHALLENGE, "challenge:1", CHALLENGE,
                                                     "/lobby/", channels={"email": False}))
    assert not mail.wants_notice_mail(notices.Notice(alice.pk, Kind.TURN, "game:1", {}, "/games/1/",
                                                     channels={"email": True}))


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_mails_a_challenge_sent_through_notices(alice: Any, tmp_path: Any) -> None:
    """notices.send → after commit → queue_mail → the Celery worker → SMTP (the tests' own sink)."""
    redis_url = require_service("REDIS_URL", "a Celery worker")
    choose(alice, Kind.CHALLENGE, email=True, push=False)
    log = tmp_path / "worker.log"
    with smtp_sink() as sink:
        env = {"REDIS_URL": redis_url, "DATABASE_URL": worker_database_url(connection), "EMAIL_URL": sink.url,
               "SITE_URL": "https://aceweb.example"}
        try:
            with celery_worker(log, "notice-mail", **env):
                notices.send(alice.pk, Kind.CHALLENGE, "challenge:1", CHALLENGE, "/lobby/")  # autocommit: sent now
                sent = sink.messages.get(timeout=60)
        finally:
            wait_for_other_sessions_to_end(connection)
    assert sent["Subject"] == "A challenge"
    assert "https://aceweb.example/lobby/" in sent.get_body(("plain",)).get_content()
