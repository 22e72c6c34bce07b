"""A player's notifications, their per-kind choice of channels, and their
browsers' web push subscriptions."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import models
from django.utils.translation import gettext_lazy as _


class Kind(models.TextChoices):
    """What a notification is about. The text shown is worded per reader, at
    display time, from the kind and its public ``params`` (notify/texts.py)."""

    TURN = "turn", _("Your turn in a correspondence game")
    CHALLENGE = "challenge", _("A challenge")
    GAME_END = "game-end", _("A game of yours ended")
    TOURNAMENT_SOON = "tournament-soon", _("A tournament of yours starts in 5 minutes")
    TOURNAMENT_ROUND = "tournament-round", _("Your next tournament round")
    REPORT_DECISION = "report-decision", _("A moderator's decision on your report")
    FOLLOWER = "follower", _("A new follower")
    CLOCK = "clock", _("A correspondence clock is about to run out")


class Channel(models.TextChoices):
    SITE = "site", _("On the site")
    EMAIL = "email", _("By e-mail")
    PUSH = "push", _("By web push")


# A player's channels for a kind when they never chose (no Preference row).
# E-mail is opt-in throughout: lichess sends none per move, and we send at most
# a daily digest of correspondence turns (Kind.TURN) and a clock warning (Kind.CLOCK).
DEFAULTS: dict[str, dict[str, bool]] = {
    kind: {Channel.SITE: True, Channel.EMAIL: False, Channel.PUSH: True} for kind in Kind.values
}


class Notification(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, verbose_name=_("user"),
                             related_name="notifications")
    kind = models.CharField(_("about"), max_length=20, choices=Kind.choices)
    # What it is about, as a plain key ("game:12", "tournament:7", "user:5"):
    # a later notice of the same kind and key replaces an unread one.
    key = models.CharField(_("key"), max_length=40)
    # Public facts only (names, numbers, the page's path): never a card or a
    # hand. The text is worded from these in the reader's language.
    params = models.JSONField(_("parameters"), default=dict)
    url = models.CharField(_("address"), max_length=200, blank=True)
    created = models.DateTimeField(_("created"), auto_now_add=True)
    read = models.BooleanField(_("read"), default=False)

    class Meta:
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        ordering = ["-created"]
        indexes = [models.Index(fields=["user", "read", "-created"], name="notice_user_unread_idx")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind} {self.key}"


class Preference(models.Model):
    """One player's channels for one kind; a missing row means DEFAULTS."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, verbose_name=_("user"),
                             related_name="notify_preferences")
    kind = models.CharField(_("about"), max_length=20, choices=Kind.choices)
    site = models.BooleanField(_("on the site"), default=True)
    email = models.BooleanField(_("by e-mail"), default=False)
    push = models.BooleanField(_("by web push"), default=True)

    class Meta:
        verbose_name = _("notification setting")
        verbose_name_plural = _("notification settings")
        constraints = [models.UniqueConstraint(fields=["user", "kind"], name="notify_preference_once")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind}"

    def allows(self, channel: str) -> bool:
        return bool(getattr(self, channel))


def channels_of(user_id: int, kind: str) -> dict[str, bool]:
    """The user's channels for ``kind``: their choice, or DEFAULTS."""
    row: Any = Preference.objects.filter(user_id=user_id, kind=kind).values("site", "email", "push").first()
    return dict(row) if row is not None else dict(DEFAULTS[kind])


class PushSubscription(models.Model):
    """One browser's Push API subscription (at most settings.WEBPUSH_MAX_SUBSCRIPTIONS a user)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, verbose_name=_("user"),
                             related_name="push_subscriptions")
    endpoint = models.URLField(_("endpoint"), max_length=500, unique=True)
    p256dh = models.CharField(_("public key"), max_length=100)
    auth = models.CharField(_("authentication secret"), max_length=40)
    created = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("push subscription")
        verbose_name_plural = _("push subscriptions")

    def __str__(self) -> str:
        return f"{self.user} ({self.service})"

    @property
    def service(self) -> str:
        """The push service's host (fcm.googleapis.com, updates.push.services.mozilla.com): which browser."""
        return self.endpoint.split("/")[2] if "://" in self.endpoint else "?"


class Sent(models.Model):
    """A reminder already sent (a day's digest, a game's clock warning), so that
    none goes twice, across restarts and several workers alike: the unique row
    is taken first, in the transaction that sends."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, verbose_name=_("user"),
                             related_name="notify_sent")
    kind = models.CharField(_("about"), max_length=20, choices=Kind.choices)
    # What was sent, as a plain key: "digest:2026-11-26", "game:12:40SW:24h" (ply 40, seat SW).
    key = models.CharField(_("key"), max_length=60)
    created = models.DateTimeField(_("sent at"), auto_now_add=True)

    class Meta:
        verbose_name = _("sent reminder")
        verbose_name_plural = _("sent reminders")
        constraints = [models.UniqueConstraint(fields=["user", "kind", "key"], name="notify_sent_once")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind} {self.key}"


def choosing(kind: str, channel: str) -> Any:
    """The ids of the users who have ``channel`` on for ``kind`` (a queryset)."""
    chosen = Preference.objects.filter(kind=kind, **{channel: True}).values("user_id")
    if not DEFAULTS[kind][channel]:
        return chosen
    refused = Preference.objects.filter(kind=kind, **{channel: False}).values("user_id")
    return get_user_model().objects.exclude(pk__in=refused).values("pk")
