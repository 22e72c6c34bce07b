"""In Chromium, signed out, in the browser's language: the link of a digest
e-mail asks, unsubscribes on the click, and says so; a link cut short is
refused with a message saying what to do."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.core import mail as outbox
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from games import reminders
from notify.models import channels_of
from tests.notify.mails import at, choose, correspondence

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_signed_out_reader_unsubscribes_from_the_digest_in_german(
        alice: Any, bob: Any, live_server: LiveServer, browser: Browser, settings: Any,
        orm: Callable[..., Any]) -> None:
    settings.SITE_URL = live_server.url
    settings.TURN_DIGEST_HOUR = 0
    # The database from another thread: Playwright's loop runs in this one (orm).
    orm(choose, alice, "turn", True)
    orm(correspondence, alice, bob)
    orm(reminders.send_turn_digests, at(26, 8))
    [message] = outbox.outbox
    link = message.extra_headers["List-Unsubscribe"].strip("<>")
    assert link.startswith(f"{live_server.url}/notifications/unsubscribe/")

    page = browser.new_context(locale="de-DE").new_page()
    page.goto(link[:-10] + "/")
    expect(page.locator("[data-unsubscribe-invalid]")).to_contain_text("Dieser Abbestell-Link ist ungültig")
    page.goto(link)
    expect(page.locator("[data-unsubscribe-ask]")).to_contain_text(
        "Keine E-Mails mehr an alice@example.org für „Du bist in einer Fernpartie am Zug“ senden?")
    assert orm(channels_of, alice.pk, "turn")["email"]  # opening the link changed nothing
    page.get_by_role("button", name="Abbestellen").click()
    expect(page.locator("[data-unsubscribe-done]")).to_contain_text("Erledigt: alice@example.org bekommt keine")
    assert orm(channels_of, alice.pk, "turn") == {"site": True, "email": False, "push": True}
