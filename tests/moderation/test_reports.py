"""A logged-in player reports another from a profile or a finished game; the
rules refuse with a message that names them and store nothing."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games import bots, starting
from ladder import bot_accounts
from moderation.models import Report
from moderation.reports import REPORTS_PER_DAY
from tests.moderation.conftest import SEED, finished_game
from tests.helpers import client_for

pytestmark = pytest.mark.django_db


def report_page(username: str) -> str:
    return reverse("moderation:report-player", args=[username])


def test_a_player_reports_another_from_the_profile(alice: Any, bob: Any) -> None:
    client = client_for(alice)
    profile = client.get(reverse("ladder:profile", args=["bob"]))
    assert report_page("bob") in profile.content.decode()
    page = client.get(report_page("bob"))
    assert page.status_code == 200 and "csrfmiddlewaretoken" in page.content.decode()
    response = client.post(report_page("bob"), {"reason": "abuse", "text": "called me names in chat"})
    assert response.status_code == 302 and response["Location"] == reverse("ladder:profile", args=["bob"])
    report = Report.objects.get()
    assert (report.reporter, report.reported, report.game, report.reason, report.text, report.status) == (
        alice, bob, None, "abuse", "called me names in chat", "open")


def test_the_form_needs_the_csrf_token(alice: Any, bob: Any) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    assert client.post(report_page("bob"), {"reason": "abuse"}).status_code == 403
    assert not Report.objects.exists()


def test_no_report_link_on_your_own_profile(alice: Any) -> None:
    page = client_for(alice).get(reverse("ladder:profile", args=["alice"])).content.decode()
    assert report_page("alice") not in page


def test_a_player_reports_an_opponent_from_a_finished_game(alice: Any, bob: Any) -> None:
    game = finished_game(bob, alice)
    client = client_for(alice)
    game_page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert reverse("moderation:report-game", args=[game.pk]) in game_page
    response = client.post(reverse("moderation:report-game", args=[game.pk]),
                           {"player": "bob", "reason": "cheating", "text": "moves instantly, all perfect"})
    assert response.status_code == 302 and response["Location"] == reverse("games:game", args=[game.pk])
    assert Report.objects.get().game == game


def test_a_running_game_shows_no_report_link_and_refuses_reports(alice: Any, bob: Any) -> None:
    game = starting.start_game(alice, bob, seed=SEED)
    client = client_for(alice)
    assert reverse("moderation:report-game", args=[game.pk]) not in client.get(
        reverse("games:game", args=[game.pk])).content.decode()
    response = client.post(reverse("moderation:report-game", args=[game.pk]), {"player": "bob", "reason": "other"})
    assert response.status_code == 400 and f"game {game.pk} is not over" in response.content.decode()
    assert not Report.objects.exists()


def refused(client: Client, url: str, data: dict[str, str]) -> str:
    response = client.post(url, data)
    assert response.status_code == 400
    return str(response.content.decode())


def test_you_cannot_report_yourself(alice: Any) -> None:
    assert "you cannot report yourself" in refused(client_for(alice), report_page("alice"), {"reason": "other"})
    assert not Report.objects.exists()


@pytest.fixture
def bot_accounts_made() -> Iterator[None]:
    bot_accounts.ensure_bot_accounts()
    yield
    bots.forget_bot_levels()  # the ids are free again after the test: they must not stay bots


@pytest.mark.usefixtures("bot_accounts_made")
def test_a_bot_cannot_be_reported(alice: Any) -> None:
    name = bots.bot_username(bots.engine_bots().LEVELS[0])
    assert "is a computer player" in refused(client_for(alice), report_page(name), {"reason": "cheating"})
    assert not Report.objects.exists()


def test_an_unknown_player_is_a_404_and_a_closed_account_too(alice: Any, bob: Any) -> None:
    client = client_for(alice)
    assert client.post(report_page("nobody"), {"reason": "other"}).status_code == 404
    bob.is_active = False
    bob.save()
    assert client.post(report_page("bob"), {"reason": "other"}).status_code == 404
    assert not Report.objects.exists()


def test_a_player_not_in_the_game_cannot_be_chosen(alice: Any, bob: Any, charlie: Any) -> None:
    game = finished_game(bob, alice)
    page = refused(client_for(alice), reverse("moderation:report-game", args=[game.pk]),
                   {"player": "charlie", "reason": "other"})
    assert "charlie is not one of the available choices" in page
    assert not Report.objects.exists()


def test_a_reason_from_the_list_and_a_length_limited_text(alice: Any, bob: Any) -> None:
    client = client_for(alice)
    assert "Select a valid choice" in refused(client, report_page("bob"), {"reason": "bad vibes"})
    assert "at most 1000 characters" in refused(client, report_page("bob"), {"reason": "other", "text": "x" * 1001})
    assert not Report.objects.exists()


def test_one_open_report_per_reporter_reported_and_game(alice: Any, bob: Any) -> None:
    client = client_for(alice)
    game = finished_game(bob, alice)
    client.post(report_page("bob"), {"reason": "abuse"})
    assert "you already have an open report on bob: a moderator" in refused(
        client, report_page("bob"), {"reason": "cheating"})
    # About a game it is another report; about the same game again it is not.
    url = reverse("moderation:report-game", args=[game.pk])
    assert client.post(url, {"player": "bob", "reason": "cheating"}).status_code == 302
    assert f"about game {game.pk}" in refused(client, url, {"player": "bob", "reason": "cheating"})
    assert Report.objects.count() == 2
    Report.objects.update(status=Report.Status.CLOSED)  # once closed, a new one may be made
    assert client.post(report_page("bob"), {"reason": "abuse"}).status_code == 302


def test_a_few_reports_a_day_at_most(alice: Any, django_user_model: Any) -> None:
    client = client_for(alice)
    for n in range(REPORTS_PER_DAY):
        django_user_model.objects.create_user(f"p{n}")
        assert client.post(report_page(f"p{n}"), {"reason": "other"}).status_code == 302
    django_user_model.objects.create_user("one_more")
    assert f"you have made {REPORTS_PER_DAY} reports in the last 24 hours" in refused(
        client, report_page("one_more"), {"reason": "other"})
    assert Report.objects.count() == REPORTS_PER_DAY


def test_reporting_needs_a_login(bob: Any) -> None:
    response = Client().post(report_page("bob"), {"reason": "other"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not Report.objects.exists()
