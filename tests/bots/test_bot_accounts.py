"""Bot accounts (manage.py seed_bots): one per engine level, flagged, and unable to sign in."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from pytest_django import Settings

from engine import bots as engine_bots
from games import bots
from ladder import bot_accounts as bot_module, challenges, inputs
from ladder.models import Challenge, Player

pytestmark = pytest.mark.django_db


def seed_bots() -> str:
    out = StringIO()
    call_command("seed_bots", stdout=out)
    return out.getvalue()


def test_it_creates_one_flagged_bot_per_level_once() -> None:
    first, second = seed_bots(), seed_bots()
    players = Player.objects.filter(is_bot=True).select_related("user")
    assert sorted(p.bot_level for p in players) == sorted(engine_bots.LEVELS)
    assert {p.user.username for p in players} == {f"bot-{level}" for level in engine_bots.LEVELS}
    assert first.count("Bot account added") == len(engine_bots.LEVELS)
    assert second.count("Bot account kept") == len(engine_bots.LEVELS) and "added" not in second
    assert get_user_model().objects.count() == len(engine_bots.LEVELS)


def test_seed_demo_seeds_the_bots_too(settings: Settings) -> None:
    settings.DEBUG = True
    call_command("seed_demo", stdout=StringIO())
    assert Player.objects.filter(is_bot=True).count() == len(engine_bots.LEVELS)


def test_a_bot_cannot_sign_in_or_reset_a_password(client: Client) -> None:
    seed_bots()
    bot = get_user_model().objects.get(username="bot-greedy")
    assert not bot.has_usable_password() and bot.email == ""
    for password in ("", "password", "bot-greedy"):
        client.post("/accounts/login/", {"login": "bot-greedy", "password": password})
        assert "_auth_user_id" not in client.session


def test_challenging_a_bot_is_refused_and_changes_nothing(alice: Any) -> None:
    seed_bots()
    with pytest.raises(inputs.LobbyRefusal, match="bot-greedy is a computer player: choose it under Play the computer"):
        challenges.create_challenge(alice, "bot-greedy", "3d")
    assert not Challenge.objects.exists()


def test_a_bots_profile_offers_no_challenge_form(client: Client, alice: Any) -> None:
    seed_bots()
    client.force_login(alice)
    assert "data-challenge-form" not in client.get("/@/bot-greedy/").content.decode()
    assert "data-challenge-form" in client.get(f"/@/{get_user_model().objects.create_user('zed').username}/").content.decode()


def test_bots_are_known_by_user_id(alice: Any) -> None:
    accounts = {user.player.bot_level: user for user, _ in bot_module.ensure_bot_accounts()}
    assert bots.is_bot(accounts["random"]) and not bots.is_bot(alice)
    assert bots.level_of(accounts["greedy"].pk) == "greedy"
