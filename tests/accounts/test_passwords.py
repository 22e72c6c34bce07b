"""Changing a password, and resetting a forgotten one by e-mail."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core import mail
from django.test import Client

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "a-fresh-pawn-42"


def signs_in(username: str, password: str) -> bool:
    client = Client()
    client.post("/accounts/login/", {"login": username, "password": password})
    return "_auth_user_id" in client.session


def test_a_player_changes_their_password(client: Client, alice: Any) -> None:
    client.force_login(alice)
    response = client.post("/accounts/password/change/", {
        "oldpassword": "password", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD,
    })
    assert response.status_code == 302
    assert signs_in("alice", NEW_PASSWORD)
    assert not signs_in("alice", "password")


def test_a_wrong_old_password_changes_nothing(client: Client, alice: Any) -> None:
    client.force_login(alice)
    response = client.post("/accounts/password/change/", {
        "oldpassword": "not it", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD,
    })
    assert response.status_code == 200
    assert signs_in("alice", "password")


def reset_link(message: mail.EmailMessage) -> str:
    match = re.search(r"http://testserver(/accounts/password/reset/key/\S+/)", str(message.body))
    assert match, message.body
    return match.group(1)


def test_a_forgotten_password_is_reset_through_the_emailed_link(client: Client, alice: Any) -> None:
    response = client.post("/accounts/password/reset/", {"email": "alice@example.org"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["alice@example.org"]

    key_page = client.get(reset_link(mail.outbox[0]), follow=True)
    form_url = key_page.redirect_chain[-1][0]  # allauth moves the key into the session
    assert 'name="password1"' in key_page.content.decode()
    done = client.post(form_url, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    assert done.status_code == 302
    assert signs_in("alice", NEW_PASSWORD)
    assert not signs_in("alice", "password")


def test_a_reset_link_works_only_once(client: Client, alice: Any) -> None:
    client.post("/accounts/password/reset/", {"email": "alice@example.org"})
    link = reset_link(mail.outbox[0])
    form_url = client.get(link, follow=True).redirect_chain[-1][0]
    client.post(form_url, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    again = Client().get(link, follow=True)
    assert 'name="password1"' not in again.content.decode()


def test_an_unknown_address_learns_nothing_and_gets_no_reset_link(client: Client, alice: Any) -> None:
    response = client.post("/accounts/password/reset/", {"email": "nobody@example.org"})
    assert response.status_code == 302  # same answer as for a known address
    assert all("/password/reset/key/" not in str(m.body) for m in mail.outbox)
