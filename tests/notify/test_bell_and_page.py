"""The bell (notify.context_processors.bell) and /notifications/: the unread
count in one query, the latest few, the page with unread ones marked, opening
one marks it read, "mark all read", and only the latest notices are kept."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from notify import notices
from notify.models import Notification
from tests.helpers import client_for

pytestmark = pytest.mark.django_db


def follower(user: Any, name: str) -> None:
    notices.send(user.pk, "follower", f"user:{name}", {"username": name}, url=f"/@/{name}/")


def test_the_bell_counts_unread_and_shows_the_latest_in_one_query(alice: Any) -> None:
    for index in range(7):
        follower(alice, f"fan{index}")
    Notification.objects.filter(params__username="fan0").update(read=True)
    with CaptureQueriesContext(connection) as captured:
        unread, latest = notices.bell(alice.pk)
    assert len(captured) == 1
    assert unread == 6
    assert [n.params["username"] for n in latest] == ["fan6", "fan5", "fan4", "fan3", "fan2"]


def test_the_navigation_bar_shows_the_bell_with_its_count(alice: Any, bob: Any) -> None:
    follower(alice, "bob")
    page = client_for(alice).get("/tournaments/").content.decode()
    assert 'data-bell-count aria-hidden="true">1</span>' in page
    assert "bob follows you now." in page
    assert 'data-bell-label aria-live="polite">1 unread</span>' in page  # what a screen reader hears
    assert 'data-bell-count aria-hidden="true" hidden>0</span>' in client_for(bob).get("/tournaments/").content.decode()


def test_the_page_marks_the_unread_and_opening_one_reads_it(alice: Any) -> None:
    follower(alice, "bob")
    follower(alice, "carol")
    client = client_for(alice)
    page = client.get("/notifications/").content.decode()
    assert page.count("notifications__item--unread") == 2
    assert "carol follows you now." in page
    carol = Notification.objects.get(params__username="carol")
    response = client.get(f"/notifications/{carol.pk}/")
    assert response.status_code == 302 and response["Location"] == "/@/carol/"
    assert Notification.objects.get(pk=carol.pk).read
    assert client.get("/notifications/").content.decode().count("notifications__item--unread") == 1


def test_mark_all_read_clears_the_count(alice: Any) -> None:
    follower(alice, "bob")
    follower(alice, "carol")
    response = client_for(alice).post("/notifications/read/")
    assert response.status_code == 302
    assert notices.unread_count(alice.pk) == 0


def test_another_player_s_notice_opens_nothing_of_theirs(alice: Any, bob: Any) -> None:
    follower(alice, "carol")
    notice = Notification.objects.get(user=alice)
    response = client_for(bob).get(f"/notifications/{notice.pk}/")
    assert response["Location"] == "/notifications/"
    assert not Notification.objects.get(pk=notice.pk).read


def test_only_the_latest_notices_are_kept(alice: Any) -> None:
    for index in range(notices.KEEP + 5):
        follower(alice, f"fan{index}")
    kept = Notification.objects.filter(user=alice)
    assert kept.count() == notices.KEEP
    assert not kept.filter(params__username="fan4").exists()
    assert kept.filter(params__username="fan5").exists()


def test_the_page_is_paginated_and_needs_a_sign_in(client: Any, alice: Any) -> None:
    for index in range(25):
        follower(alice, f"fan{index}")
    page = client_for(alice).get("/notifications/?page=2").content.decode()
    assert page.count("notifications__item--unread") == 5
    assert "Page 2 of 2" in page
    assert client.get("/notifications/")["Location"].startswith("/accounts/login/")
