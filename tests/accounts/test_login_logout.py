"""Signing in by username or e-mail, and signing out (POST only)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

LOGIN = "/accounts/login/"
LOGOUT = "/accounts/logout/"


def test_a_player_signs_in_with_username(client: Client, alice: Any) -> None:
    response = client.post(LOGIN, {"login": "alice", "password": "password"})
    assert response.status_code == 302
    assert response["Location"] == "/"
    assert client.session["_auth_user_id"] == str(alice.pk)


def test_a_player_signs_in_with_email(client: Client, alice: Any) -> None:
    client.post(LOGIN, {"login": "alice@example.org", "password": "password"})
    assert client.session["_auth_user_id"] == str(alice.pk)


def test_a_wrong_password_is_refused(client: Client, alice: Any) -> None:
    response = client.post(LOGIN, {"login": "alice", "password": "wrong"})
    assert response.status_code == 200
    assert "_auth_user_id" not in client.session


def test_sign_in_goes_back_to_next(client: Client, alice: Any) -> None:
    response = client.post(f"{LOGIN}?next=/@/bob/", {"login": "alice", "password": "password"})
    assert response["Location"] == "/@/bob/"


def test_signing_out_takes_a_post(client: Client, alice: Any) -> None:
    client.force_login(alice)
    client.get(LOGOUT)  # only asks to confirm
    assert client.session["_auth_user_id"] == str(alice.pk)
    response = client.post(LOGOUT)
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session


def test_login_required_pages_send_players_to_the_sign_in_page(client: Client) -> None:
    response = client.get("/accounts/password/change/")
    assert response.status_code == 302
    assert response["Location"].startswith(LOGIN)
