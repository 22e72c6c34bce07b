"""The nav bar: sign in / sign up for visitors; the player's name and sign out for players."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_a_visitor_is_offered_sign_in_and_sign_up(client: Client) -> None:
    page = client.get("/").content.decode()
    assert '<a href="/accounts/login/">Sign in</a>' in page
    assert '<a href="/accounts/signup/">Sign up</a>' in page
    assert "Sign out" not in page


def test_a_player_sees_their_name_linking_to_their_profile(client: Client, alice: Any) -> None:
    client.force_login(alice)
    page = client.get("/").content.decode()
    assert '<a class="nav__user" href="/@/alice/">alice</a>' in page
    assert "Sign in</a>" not in page
    assert "Sign up</a>" not in page


def test_sign_out_in_the_nav_is_a_post_form_that_works(client: Client, alice: Any) -> None:
    client.force_login(alice)
    page = client.get("/").content.decode()
    assert '<form class="nav__form" method="post" action="/accounts/logout/">' in page
    client.post("/accounts/logout/")
    assert "Sign in</a>" in client.get("/").content.decode()


def test_account_pages_use_the_site_nav(client: Client) -> None:
    page = client.get("/accounts/login/").content.decode()
    assert 'class="nav"' in page
    assert "<title>" in page and "Sign In" in page and "· aceweb</title>" in page
