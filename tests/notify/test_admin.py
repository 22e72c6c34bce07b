"""Staff see notify's rows in the admin, as the site wrote them: each list and
row opens, nothing can be added or edited by hand, and a push subscription's
keys are never shown."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from notify import notices
from notify.models import Kind, Notification, Preference, PushSubscription, Sent

pytestmark = pytest.mark.django_db


@pytest.fixture
def rows(alice: Any) -> dict[str, Any]:
    notices.send(alice.pk, Kind.FOLLOWER, "user:1", {"follower": "bob"}, url="/@/bob/")
    return {
        "notification": Notification.objects.get(user=alice),
        "preference": Preference.objects.create(user=alice, kind=Kind.TURN, email=True),
        "pushsubscription": PushSubscription.objects.create(
            user=alice, endpoint="https://push.example.org/send/abc", p256dh="P256DH-SECRET", auth="AUTH-SECRET"),
        "sent": Sent.objects.create(user=alice, kind=Kind.TURN, key="digest:2026-11-27"),
    }


def test_each_list_and_row_opens_and_keeps_the_keys_out(django_user_model: Any, rows: dict[str, Any]) -> None:
    client = Client()
    client.force_login(django_user_model.objects.create_superuser("root", "root@example.org", "pw"))
    for model, row in rows.items():
        for url in (reverse(f"admin:notify_{model}_changelist"), reverse(f"admin:notify_{model}_change", args=[row.pk])):
            response = client.get(url)
            assert response.status_code == 200, url
            html = response.content.decode()
            assert "P256DH-SECRET" not in html and "AUTH-SECRET" not in html, url
        assert client.get(reverse(f"admin:notify_{model}_add")).status_code == 403
    assert "push.example.org" in client.get(reverse("admin:notify_pushsubscription_changelist")).content.decode()
