"""Following and unfollowing, and what the pages ask of it.

A new follow tells the followed player (notify's ``follower`` notice, with the
follower's public name and profile only); unfollowing tells nobody, as on lichess.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Count, Q
from django.urls import reverse
from django.utils.translation import gettext

from notify import notices
from relation.models import Follow

MAX_FOLLOWING = 400  # lichess's limit: following is for people, not for crawling the site


class Refusal(ValueError):
    """Why a follow was not made; nothing changed."""


def follow(follower: Any, followed: Any) -> bool:
    """``follower`` follows ``followed``; True if that is new (then the
    followed player is told), False if it was so already."""
    if follower.pk == followed.pk:
        raise Refusal(gettext("You cannot follow yourself."))
    if Follow.objects.filter(follower=follower, followed=followed).exists():
        return False
    if Follow.objects.filter(follower=follower).count() >= MAX_FOLLOWING:
        raise Refusal(gettext("You follow %(count)s players already, the most there can be: unfollow someone first.")
                      % {"count": MAX_FOLLOWING})
    try:
        with transaction.atomic():
            Follow.objects.create(follower=follower, followed=followed)
            name = follower.get_username()
            notices.send(followed.pk, "follower", key=f"user:{follower.pk}", params={"username": name},
                         url=reverse("ladder:profile", args=[name]))
    except IntegrityError:  # a second click raced the first: it is made, once
        return False
    return True


def unfollow(follower: Any, followed: Any) -> bool:
    """True if ``follower`` followed ``followed`` until now."""
    deleted, _ = Follow.objects.filter(follower=follower, followed=followed).delete()
    return deleted > 0


def follows(follower: Any, followed: Any) -> bool:
    return bool(getattr(follower, "is_authenticated", False)) and Follow.objects.filter(
        follower=follower, followed=followed).exists()


def followed_ids(user_id: int) -> list[int]:
    return list(Follow.objects.filter(follower_id=user_id).values_list("followed_id", flat=True))


def counts(user: Any) -> dict[str, int]:
    """{"followers": N, "following": M}, in one query."""
    mine = Follow.objects.filter(Q(followed=user) | Q(follower=user))
    totals = mine.aggregate(followers=Count("pk", filter=Q(followed=user)),
                            following=Count("pk", filter=Q(follower=user)))
    return {key: int(value or 0) for key, value in totals.items()}


def following(user: Any) -> list[Any]:
    """The players ``user`` follows, newest follow first."""
    return [row.followed for row in Follow.objects.filter(follower=user).select_related("followed")]
