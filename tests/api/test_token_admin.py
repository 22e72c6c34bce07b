"""API tokens in the admin (issue 37): a superuser finds a compromised token
by its owner or its first characters, and revokes it with a reason; from then
on the token is refused (401). Nothing of a token is edited, added or deleted
there, and its digest is never shown. Staff in the Moderators or Organizers
groups do not see tokens."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.admin.models import LogEntry
from django.test import Client
from django.urls import reverse

from api import tokens
from api.models import ApiToken
from tests.helpers import client_for, staff_group

pytestmark = pytest.mark.django_db
LIST = reverse("admin:api_apitoken_changelist")


@pytest.fixture
def root(django_user_model: Any) -> Any:
    return django_user_model.objects.create_superuser("root", "root@example.org", "password")


def api(token: str) -> Client:
    client = Client(HTTP_HOST="localhost")
    client.defaults["HTTP_AUTHORIZATION"] = f"Bearer {token}"
    return client


def test_the_list_finds_a_token_by_owner_or_beginning_and_never_shows_its_digest(root: Any, alice: Any,
                                                                                 bob: Any) -> None:
    row, token = tokens.make(alice, "laptop script", ["play"])
    tokens.make(bob, "bob's bot", ["read"])
    client = client_for(root)
    page = client.get(LIST).content.decode()
    assert "laptop script" in page and "bob&#x27;s bot" in page and row.hint in page
    assert row.digest not in page and token not in page
    by_owner = client.get(LIST, {"q": "alice"}).content.decode()
    assert "laptop script" in by_owner and "bob&#x27;s bot" not in by_owner
    for pasted in (token[:8], token):  # a beginning, or the whole leaked token
        found = client.get(LIST, {"q": pasted}).context["cl"].result_list
        assert [found_row.pk for found_row in found] == [row.pk]
    change = client.get(reverse("admin:api_apitoken_change", args=[row.pk])).content.decode()
    assert row.digest not in change and "laptop script" in change


def test_nothing_of_a_token_is_edited_added_or_deleted_in_the_admin(root: Any, alice: Any) -> None:
    row, _token = tokens.make(alice, "laptop script", ["read"])
    client = client_for(root)
    client.post(reverse("admin:api_apitoken_change", args=[row.pk]),
                {"name": "renamed", "scopes": '["tournament:write"]', "revoked_reason": "x"})
    assert ApiToken.objects.filter(pk=row.pk, name="laptop script", scopes=["read"], revoked=None,
                                   revoked_reason="").exists()
    assert client.get(reverse("admin:api_apitoken_add")).status_code == 403
    assert client.post(reverse("admin:api_apitoken_delete", args=[row.pk]), {"post": "yes"}).status_code == 403
    assert ApiToken.objects.filter(pk=row.pk).exists()


def test_revoking_asks_why_then_refuses_the_token_at_once_and_is_logged(root: Any, alice: Any) -> None:
    row, token = tokens.make(alice, "laptop script", ["play"])
    assert api(token).get("/api/account").status_code == 200
    client = client_for(root)
    chosen = {"action": "revoke_selected", "_selected_action": [row.pk]}
    asked = client.post(LIST, chosen)
    assert asked.status_code == 200 and "Why" in asked.content.decode()
    client.post(LIST, {**chosen, "revoke": "1", "reason": "   "})  # no reason: nothing happens
    assert ApiToken.objects.get(pk=row.pk).revoked is None
    assert api(token).get("/api/account").status_code == 200
    done = client.post(LIST, {**chosen, "revoke": "1", "reason": "posted in a public gist"}, follow=True)
    assert "Revoked 1 token." in done.content.decode()
    revoked = ApiToken.objects.get(pk=row.pk)
    assert revoked.revoked is not None and revoked.revoked_reason == "posted in a public gist"
    assert revoked.revoked_by == root
    refused = api(token).get("/api/account")
    assert refused.status_code == 401 and refused.json()["error"] == "unknown or revoked token"
    logged = LogEntry.objects.get(object_id=str(row.pk), content_type__model="apitoken")
    assert logged.user == root and "posted in a public gist" in logged.change_message
    page = client.get(reverse("admin:api_apitoken_change", args=[row.pk])).content.decode()
    assert "posted in a public gist" in page


def test_moderators_and_organizers_do_not_see_tokens(django_user_model: Any, alice: Any) -> None:
    row, _token = tokens.make(alice, "laptop script", ["play"])
    for group in ("Moderators", "Organizers"):
        staff = django_user_model.objects.create_user(f"staff-{group}", password="password", is_staff=True)
        staff.groups.add(staff_group(group))
        client = client_for(staff)
        assert client.get(LIST).status_code == 403
        client.post(LIST, {"action": "revoke_selected", "_selected_action": [row.pk], "revoke": "1",
                           "reason": "because"})
        assert ApiToken.objects.get(pk=row.pk).revoked is None
