"""A follow: one player following another, as on lichess."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Follow(models.Model):
    follower = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="following")
    followed = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="followers")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created"]
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="follow_once"),
            models.CheckConstraint(condition=~models.Q(follower=models.F("followed")), name="follow_not_self"),
        ]
        # "Who follows X" (the counts, the notice's audience); "whom X follows" is the unique index.
        indexes = [models.Index(fields=["followed", "follower"], name="follow_followed_idx")]

    def __str__(self) -> str:
        return f"{self.follower_id} follows {self.followed_id}"
