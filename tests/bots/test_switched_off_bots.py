"""Switching a computer player off (issue 37): an administrator unticks
"Active" on ``bot-greedy`` in the admin, and "Play the computer" no longer
offers that level; asking for it anyway, on the page or through the API, alone
or as a team, is refused with the reason in the player's language, and nothing
starts. Organizers cannot invite it, and the tournaments it was entered in
let it go. Before, the level was still offered and a game started against it."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from api import tokens
from engine import bots as engine_bots
from games.models import Game
from ladder.models import Player
from tests.helpers import client_for, staff_group
from tests.moderation.test_closing_accounts import admin_form
from tournaments import organizing
from tournaments.changes import Refusal
from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db
OFF = "the computer player Level 2 (greedy, one move ahead) is switched off: choose another level"


@pytest.fixture
def greedy_off(bot_accounts: dict[str, Any], django_user_model: Any) -> Any:
    """bot-greedy, switched off by a superuser in the admin."""
    root = django_user_model.objects.create_superuser("root", "root@example.org", "password")
    client = client_for(root)
    bot = bot_accounts["greedy"]
    data = admin_form(client, bot)
    data.pop("is_active")
    assert client.post(reverse("admin:auth_user_change", args=[bot.pk]), data).status_code == 302
    return bot


def test_the_lobby_no_longer_offers_a_switched_off_level(alice: Any, greedy_off: Any) -> None:
    html = client_for(alice).get("/lobby/").content.decode()
    offered = [level for level in engine_bots.LEVELS if f'<option value="{level}"' in html]
    assert offered == [level for level in engine_bots.LEVELS if level != "greedy"]


@pytest.mark.parametrize("form", [
    {"level": "greedy", "colour": "red", "time_control": "5+3"},
    {"level": "greedy", "players": "4", "rules": "rhombus", "time_control": "5+3"},
], ids=["two players", "a team"])
def test_asking_for_it_on_the_page_is_refused_and_starts_nothing(alice: Any, greedy_off: Any,
                                                                 form: dict[str, str]) -> None:
    response = client_for(alice).post("/lobby/computer/", form, follow=True)
    assert OFF in response.content.decode()
    assert not Game.objects.exists()


@pytest.mark.parametrize("body", [
    {"level": "greedy", "time_control": "5+3"},
    {"level": "greedy", "time_control": "5+3", "players": 4, "rules": "rhombus"},
], ids=["two players", "a team"])
def test_asking_for_it_through_the_api_is_refused_in_the_callers_language(alice: Any, greedy_off: Any,
                                                                         body: dict[str, Any]) -> None:
    token = tokens.make(alice, "bot", ["play"])[1]
    client = Client(HTTP_HOST="localhost")
    response = client.post("/api/computer", body, content_type="application/json",
                           headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 400 and response.json()["error"] == OFF
    german = client.post("/api/computer", body, content_type="application/json",
                         headers={"Authorization": f"Bearer {token}", "Accept-Language": "de"})
    assert german.status_code == 400
    assert german.json()["error"] == "der Computergegner Stufe 2 (gierig, einen Zug voraus) ist abgeschaltet: " \
                                     "wähle eine andere Stufe"
    assert not Game.objects.exists()


def test_another_level_still_plays(alice: Any, greedy_off: Any) -> None:
    response = client_for(alice).post("/lobby/computer/", {"level": "random", "colour": "red", "time_control": "5+3"})
    assert response.status_code == 302 and Game.objects.get().running


def test_switched_on_again_it_is_offered_and_plays(alice: Any, greedy_off: Any) -> None:
    greedy_off.is_active = True
    greedy_off.save()
    assert '<option value="greedy"' in client_for(alice).get("/lobby/").content.decode()
    client_for(alice).post("/lobby/computer/", {"level": "greedy", "colour": "red", "time_control": "5+3"})
    assert Game.objects.get().seat("black").user == greedy_off


def test_organizers_cannot_invite_it_and_its_entries_go(bot_accounts: dict[str, Any], alice: Any) -> None:
    alice.groups.add(staff_group("Organizers"))
    tournament = Tournament.objects.create(name="Bots Cup", organizer=alice, time_control="5+3", rated=False,
                                           bots_allowed=True, starts_at=timezone.now() + timedelta(hours=1))
    greedy, random_bot = bot_accounts["greedy"], bot_accounts["random"]
    organizing.invite_bot(tournament.pk, alice, greedy.pk)
    greedy.is_active = False
    greedy.save()  # as the admin saves it: the entry goes (tournaments.closing), so it is never paired
    assert not Entry.objects.filter(user=greedy).exists()
    assert greedy not in organizing.invitable_bots(tournament) and random_bot in organizing.invitable_bots(tournament)
    with pytest.raises(Refusal, match="bot-greedy is switched off"):
        organizing.invite_bot(tournament.pk, alice, greedy.pk)


def test_bot_level_is_one_of_the_levels_the_site_knows(bot_accounts: dict[str, Any], alice: Any) -> None:
    player = Player.objects.get(user=bot_accounts["greedy"])
    player.bot_level = "grredy"
    with pytest.raises(ValidationError, match="grredy"):
        player.full_clean()
    assert [value for value, _label in Player._meta.get_field("bot_level").choices] == ["", *engine_bots.LEVELS]
