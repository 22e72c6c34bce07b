"""The Django admin, and the demo admin account that `make run` creates."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import Client
from pytest_django import Settings

pytestmark = pytest.mark.django_db


def ensure_demo_admin() -> str:
    out = StringIO()
    call_command("ensure_demo_admin", stdout=out)
    return out.getvalue()


@pytest.fixture
def debug(settings: Settings) -> None:
    settings.DEBUG = True  # as under `make run`; pytest-django turns it off


def test_ensure_demo_admin_creates_one_superuser_and_can_run_again(debug: None) -> None:
    first = ensure_demo_admin()
    second = ensure_demo_admin()
    admins = get_user_model().objects.filter(username="admin")
    assert admins.count() == 1
    admin = admins.get()
    assert admin.is_superuser and admin.is_staff
    assert admin.check_password("admin")
    assert "username 'admin', password 'admin'" in first
    assert "exists" in second


def test_ensure_demo_admin_leaves_a_changed_password_alone(debug: None) -> None:
    ensure_demo_admin()
    admin = get_user_model().objects.get(username="admin")
    admin.set_password("a much better password")
    admin.save()
    ensure_demo_admin()
    admin.refresh_from_db()
    assert admin.check_password("a much better password")


def test_ensure_demo_admin_refuses_without_debug(settings: Settings) -> None:
    settings.DEBUG = False
    with pytest.raises(CommandError, match="DEBUG off"):
        ensure_demo_admin()
    assert not get_user_model().objects.filter(username="admin").exists()


def test_the_demo_admin_can_log_in_to_the_admin(client: Client, debug: None) -> None:
    ensure_demo_admin()
    login_page = client.get("/admin/login/")
    assert login_page.status_code == 200
    assert b'name="username"' in login_page.content
    response = client.post("/admin/login/?next=/admin/", {"username": "admin", "password": "admin"})
    assert response.status_code == 302
    assert response["Location"] == "/admin/"
    index = client.get("/admin/").content.decode()
    assert "aceweb site administration" in index and "Django" not in index


def test_a_player_cannot_log_in_to_the_admin(client: Client, charlie: Any) -> None:
    response = client.post("/admin/login/?next=/admin/", {"username": "charlie", "password": "password"})
    assert response.status_code == 200
    assert b"staff account" in response.content
    assert client.get("/admin/").status_code == 302
