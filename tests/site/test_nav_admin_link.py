"""The top menu's "Admin" link (issue 22, finding 20): only staff may use the
admin, so only staff see the way in; visitors and players do not."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

ADMIN_LINK = '<a href="/admin/">Admin</a>'


def test_a_visitor_does_not_see_the_admin_link(client: Client) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert "Lobby</a>" in page.content.decode()  # the menu is there
    assert ADMIN_LINK not in page.content.decode()


def test_a_plain_player_does_not_see_the_admin_link(client: Client, alice: Any) -> None:
    client.force_login(alice)
    page = client.get("/")
    assert "alice</a>" in page.content.decode()
    assert ADMIN_LINK not in page.content.decode()


def test_staff_see_the_admin_link(client: Client, django_user_model: Any) -> None:
    staff = django_user_model.objects.create_user("staffer", "staffer@example.org", "password", is_staff=True)
    client.force_login(staff)
    assert ADMIN_LINK in client.get("/").content.decode()
