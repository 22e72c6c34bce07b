"""A room's lines, who muted whom, and who may not chat until when (issue 25)."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

ROOM_LENGTH = 64  # "game:123456789/w", "tournament:42": plain strings, never a foreign key
# A chat timeout's lengths (lichess's 15 minutes, and longer ones), and a room lock's.
TIMEOUT_MINUTES = [(15, _("15 minutes")), (60, _("1 hour")), (24 * 60, _("24 hours"))]


class Line(models.Model):
    """One line said in a room: free text, or one of the preset phrases (kept as its
    key, so that every reader sees it in their own language)."""

    room = models.CharField(_("room"), max_length=ROOM_LENGTH)
    author = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="chat_lines",
                               verbose_name=_("author"))
    text = models.CharField(_("text"), max_length=140, blank=True)
    preset = models.CharField(_("preset phrase"), max_length=16, blank=True)
    created = models.DateTimeField(_("said at"), default=timezone.now)
    # How abusive the abuse filter found it (chat.shutup): never shown, summed per author.
    weight = models.PositiveSmallIntegerField(_("abuse weight"), default=0)
    removed = models.BooleanField(_("removed by a moderator"), default=False)

    class Meta:
        verbose_name = _("chat line")
        verbose_name_plural = _("chat lines")
        indexes = [
            models.Index(fields=["room", "-id"], name="chat_line_room_idx"),
            models.Index(fields=["author", "-id"], name="chat_line_author_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.room} {self.author}: {self.preset or self.text}"


class Mute(models.Model):
    """``user`` no longer sees ``muted``'s lines, anywhere, nor their challenges."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, verbose_name=_("user"), related_name="mutes")
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, verbose_name=_("muted user"),
                              related_name="muted_by")
    created = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        verbose_name = _("mute")
        verbose_name_plural = _("mutes")
        constraints = [models.UniqueConstraint(fields=["user", "muted"], name="chat_mute_once")]

    def __str__(self) -> str:
        return gettext("%(user)s mutes %(muted)s") % {"user": self.user, "muted": self.muted}


class ChatTimeout(models.Model):
    """A moderator's "not in chat until" (lichess's chat timeout), with its reason."""

    class Reason(models.TextChoices):
        INSULT = "insult", _("disrespecting other players")
        SHAMING = "shaming", _("accusing players in public")
        SPAM = "spam", _("spamming the chat")
        OTHER = "other", _("inappropriate behaviour")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, verbose_name=_("user"),
                             related_name="chat_timeouts")
    reason = models.CharField(_("reason"), max_length=8, choices=Reason.choices)
    starts = models.DateTimeField(_("start"), default=timezone.now)
    ends = models.DateTimeField(_("until"))
    moderator = models.ForeignKey(settings.AUTH_USER_MODEL, models.PROTECT, verbose_name=_("moderator"),
                                  related_name="+")

    class Meta:
        verbose_name = _("chat timeout")
        verbose_name_plural = _("chat timeouts")
        indexes = [models.Index(fields=["user", "-ends"], name="chat_timeout_user_idx")]

    def __str__(self) -> str:
        return gettext("%(who)s until %(time)s") % {"who": self.user, "time": f"{self.ends:%Y-%m-%d %H:%M}"}

    def active(self, now: datetime) -> bool:
        return self.starts <= now < self.ends


class RoomLock(models.Model):
    """A room open only to established accounts for a while (lichess's chat panic)."""

    room = models.CharField(_("room"), max_length=ROOM_LENGTH, unique=True)
    ends = models.DateTimeField(_("until"))
    moderator = models.ForeignKey(settings.AUTH_USER_MODEL, models.PROTECT, verbose_name=_("moderator"),
                                  related_name="+")

    class Meta:
        verbose_name = _("room for established accounts only")
        verbose_name_plural = _("rooms for established accounts only")

    def __str__(self) -> str:
        return gettext("%(who)s until %(time)s") % {"who": self.room, "time": f"{self.ends:%Y-%m-%d %H:%M}"}
