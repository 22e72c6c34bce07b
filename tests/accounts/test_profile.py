"""Public player pages at /@/<username>/, lichess style."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games import finishing, starting

pytestmark = pytest.mark.django_db


def test_anyone_sees_a_players_name_and_join_date(client: Client, alice: Any) -> None:
    alice.date_joined = alice.date_joined.replace(year=2026, month=3, day=14)
    alice.save()
    response = client.get("/@/alice/")
    assert response.status_code == 200
    page = response.content.decode()
    assert '<h1 class="profile__name">alice</h1>' in page
    assert "Joined" in page and "14 March 2026" in page


def test_a_player_without_games_is_told_so(client: Client, alice: Any) -> None:
    page = client.get("/@/alice/").content.decode()
    assert '<h2 id="games-title">Games</h2>' in page and "No games yet." in page


def test_the_profile_lists_the_players_games_with_replays(client: Client, alice: Any, bob: Any) -> None:
    game = starting.start_game(alice, bob, seed="profile-games")
    finishing.resign(game.pk, bob)
    page = client.get("/@/alice/").content.decode()
    assert "No games yet." not in page
    assert f"/games/{game.pk}/replay/" in page
    assert 'href="/@/bob/"' in page and "<td>Win</td>" in page


def test_an_unknown_player_is_not_found(client: Client) -> None:
    assert client.get("/@/nobody/").status_code == 404


def test_a_deactivated_player_is_not_found(client: Client, alice: Any) -> None:
    alice.is_active = False
    alice.save()
    assert client.get("/@/alice/").status_code == 404


def test_only_the_player_sees_their_account_links(client: Client, alice: Any, bob: Any) -> None:
    client.force_login(bob)
    assert "Change password" not in client.get("/@/alice/").content.decode()
    client.force_login(alice)
    assert 'href="/accounts/password/change/"' in client.get("/@/alice/").content.decode()
