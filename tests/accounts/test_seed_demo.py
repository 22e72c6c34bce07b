"""`manage.py seed_demo`: the demo players that `make run` creates."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import Client
from pytest_django import Settings

from ladder.management.commands.seed_demo import PASSWORD, PLAYERS

pytestmark = pytest.mark.django_db


def seed_demo() -> str:
    out = StringIO()
    call_command("seed_demo", stdout=out)
    return out.getvalue()


@pytest.fixture
def debug(settings: Settings) -> None:
    settings.DEBUG = True  # as under `make run`; pytest-django turns it off


def test_it_creates_each_demo_player_once_and_can_run_again(debug: None) -> None:
    first = seed_demo()
    second = seed_demo()
    users = get_user_model().objects
    people = users.exclude(player__is_bot=True)  # seed_demo also runs seed_bots (tests/bots)
    assert sorted(people.values_list("username", flat=True)) == sorted(PLAYERS)
    assert first.count("Demo player created") == len(PLAYERS)
    assert f"password {PASSWORD!r}" in first
    assert second.count("exists") == len(PLAYERS)
    assert "created" not in second


def test_it_leaves_a_changed_password_alone(debug: None) -> None:
    seed_demo()
    ada = get_user_model().objects.get(username="ada")
    ada.set_password("my own secret")
    ada.save()
    seed_demo()
    ada.refresh_from_db()
    assert ada.check_password("my own secret")


def test_a_demo_player_can_sign_in(client: Client, debug: None) -> None:
    seed_demo()
    client.post("/accounts/login/", {"login": "ben", "password": PASSWORD})
    assert client.session["_auth_user_id"] == str(get_user_model().objects.get(username="ben").pk)


def test_it_refuses_without_debug(settings: Settings) -> None:
    settings.DEBUG = False
    with pytest.raises(CommandError, match="DEBUG is off"):
        seed_demo()
    assert not get_user_model().objects.exists()
