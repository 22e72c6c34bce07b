"""Following a player from their profile: the button, the counts, your own list,
and the ``follower`` notice the followed player gets (relation/follows.py)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from notify.models import Notification
from relation import follows
from relation.models import Follow

pytestmark = pytest.mark.django_db(transaction=True)  # the notice is delivered after commit


def test_following_from_the_profile_tells_the_followed_player(client: Client, alice: Any, bob: Any) -> None:
    client.force_login(alice)
    page = client.get("/@/bob/").content.decode()
    assert "Follow bob" in page and "0 followers" in page
    response = client.post("/@/bob/follow/", {"next": "/@/bob/"}, follow=True)
    assert response.redirect_chain[-1][0] == "/@/bob/"
    assert Follow.objects.filter(follower=alice, followed=bob).exists()
    page = response.content.decode()
    assert "Unfollow bob" in page and "1 follower" in page
    notice = Notification.objects.get(user=bob)
    assert (notice.kind, notice.key, notice.params, notice.url) == (
        "follower", f"user:{alice.pk}", {"username": "alice"}, "/@/alice/")


def test_following_twice_makes_one_follow_and_one_notice(client: Client, alice: Any, bob: Any) -> None:
    client.force_login(alice)
    client.post("/@/bob/follow/")
    client.post("/@/bob/follow/")
    assert Follow.objects.count() == 1
    assert Notification.objects.filter(user=bob, kind="follower").count() == 1


def test_unfollowing_removes_the_follow_and_tells_nobody(client: Client, alice: Any, bob: Any) -> None:
    follows.follow(alice, bob)
    Notification.objects.all().delete()
    client.force_login(alice)
    response = client.post("/@/bob/follow/", {"follow": "off"}, follow=True)
    assert "You no longer follow bob." in response.content.decode()
    assert not Follow.objects.exists()
    assert not Notification.objects.exists()


def test_nobody_follows_themselves_and_a_visitor_must_sign_in(client: Client, alice: Any) -> None:
    response = client.post("/@/alice/follow/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    client.force_login(alice)
    response = client.post("/@/alice/follow/", follow=True)
    assert "You cannot follow yourself." in response.content.decode()
    assert not Follow.objects.exists()
    assert client.get("/@/alice/follow/").status_code == 405


def test_your_own_profile_lists_whom_you_follow(client: Client, alice: Any, bob: Any, charlie: Any) -> None:
    follows.follow(alice, bob)
    follows.follow(alice, charlie)
    follows.follow(bob, alice)
    client.force_login(alice)
    page = client.get("/@/alice/").content.decode()
    following = page[page.index('id="following-title"'):]
    assert 'href="/@/charlie/"' in following and 'href="/@/bob/"' in following
    assert "1 follower" in page and "follows 2 players" in page
    assert 'id="following-title"' not in client.get("/@/bob/").content.decode()  # only on your own


def test_following_stops_at_400_players(alice: Any, bob: Any, django_user_model: Any) -> None:
    others = django_user_model.objects.bulk_create(
        [django_user_model(username=f"u{n}") for n in range(follows.MAX_FOLLOWING)])
    Follow.objects.bulk_create([Follow(follower=alice, followed=other) for other in others])
    with pytest.raises(follows.Refusal, match="400 players already.*unfollow someone first"):
        follows.follow(alice, bob)
    assert not Follow.objects.filter(followed=bob).exists()
