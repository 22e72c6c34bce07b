"""Signing up: username, e-mail for recovery, one password; the new player is signed in."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

pytestmark = pytest.mark.django_db

SIGNUP = "/accounts/signup/"


def sign_up(client: Client, username: str = "dora", email: str = "dora@example.org") -> Any:
    return client.post(SIGNUP, {"username": username, "email": email, "password1": "pawns-and-cards-7"})


def test_the_signup_form_asks_for_username_email_and_one_password(client: Client) -> None:
    page = client.get(SIGNUP).content.decode()
    assert 'name="username"' in page
    assert 'name="email"' in page
    assert 'name="password1"' in page
    assert 'name="password2"' not in page
    assert "aceweb" in page  # inside the site's own layout, not allauth's bare one


def test_signing_up_creates_the_player_and_signs_them_in(client: Client) -> None:
    response = sign_up(client)
    assert response.status_code == 302
    assert response["Location"] == "/"
    player = get_user_model().objects.get(username="dora")
    assert player.email == "dora@example.org"
    assert player.check_password("pawns-and-cards-7")
    assert client.session["_auth_user_id"] == str(player.pk)


def test_a_taken_username_is_refused(client: Client, alice: Any) -> None:
    response = sign_up(client, username="alice", email="other@example.org")
    assert response.status_code == 200
    assert "already" in response.content.decode()
    assert get_user_model().objects.filter(username="alice").count() == 1


def test_the_email_address_is_required(client: Client) -> None:
    response = sign_up(client, email="")
    assert response.status_code == 200
    assert not get_user_model().objects.filter(username="dora").exists()


def test_reserved_usernames_are_refused(client: Client) -> None:
    response = sign_up(client, username="Admin", email="x@example.org")
    assert response.status_code == 200
    assert not get_user_model().objects.filter(username__iexact="admin").exists()
