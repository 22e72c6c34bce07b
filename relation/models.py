"""A follow: one player following another, as on lichess."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class Follow(models.Model):
    follower = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, verbose_name=_("follower"),
                                 related_name="following")
    followed = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, verbose_name=_("followed player"),
                                 related_name="followers")
    created = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("follow")
        verbose_name_plural = _("follows")
        ordering = ["-created"]
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="follow_once"),
            models.CheckConstraint(condition=~models.Q(follower=models.F("followed")), name="follow_not_self"),
        ]
        # "Who follows X" (the counts, the notice's audience); "whom X follows" is the unique index.
        indexes = [models.Index(fields=["followed", "follower"], name="follow_followed_idx")]

    def __str__(self) -> str:
        return gettext("%(follower)s follows %(followed)s") % {"follower": self.follower, "followed": self.followed}
