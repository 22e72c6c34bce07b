"""A Formation replay past ply 1,000 writes its step counts as the reader's language
groups numbers (issue 23: "1,100" in English, "1.100" in German, "1 100" in Russian)."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from bench.replay import rhombus_record

pytestmark = pytest.mark.django_db(transaction=True)

PLIES = 1100  # random Formation play lasts: seed "count-a" runs past this (bench/replay.py)


@pytest.fixture(scope="module")
def long_record() -> str:
    record = rhombus_record("count-a", 2, "formation", PLIES)
    assert len(record.actions) == PLIES
    return json.dumps(record.to_json())


@pytest.mark.parametrize(("locale", "counts"), [
    ("en-US", r"^Step 1,100 of 1,100: "),
    ("de-DE", r"^Schritt 1\.100 von 1\.100: "),
    ("ru-RU", r"^Шаг 1\s100 из 1\s100: "),
])
def test_the_step_label_groups_the_counts_as_the_language_does(
        long_record: str, locale: str, counts: str, live_server: LiveServer, browser: Browser) -> None:
    page = browser.new_page(locale=locale, viewport={"width": 1280, "height": 900})
    try:
        page.goto(f"{live_server.url}/games/import/")
        page.fill("#record", long_record)
        page.locator("main form button[type=submit]").click()
        expect(page.locator("[data-step-label]")).to_have_text(re.compile(counts), timeout=20_000)
    finally:
        page.close()
