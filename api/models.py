"""Personal access tokens for the public API (docs/api.md).

A token is shown once, when made; only its SHA-256 digest is kept, as GitHub
and lichess do: a token is 32 random bytes, so a plain digest is as safe as a
slow password hash and costs one indexed lookup a request.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

# What a token may do. A request names the scope it needs (api/auth.py).
SCOPES = {
    "read": _("Read your account, your challenges and your event stream"),
    "play": _("Play as yourself: seeks, challenges, moves, tournaments you enter"),
    "bot:play": _("Play as a BOT account (and turn a fresh account into one)"),
    "tournament:write": _("Create and run tournaments you organize"),
}
PREFIX = "acew_"  # tells a leaked token apart at a glance (secret scanners)


class ApiToken(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, verbose_name=_("user"),
                             related_name="api_tokens")
    name = models.CharField(_("name"), max_length=64)
    digest = models.CharField(_("digest"), max_length=64, unique=True)  # sha256 hex of the whole token
    hint = models.CharField(_("first characters"), max_length=16)  # the token's first characters, to tell tokens apart
    scopes = models.JSONField(_("scopes"), default=list)
    created = models.DateTimeField(_("created"), auto_now_add=True)
    last_used = models.DateTimeField(_("last used"), null=True, blank=True)
    revoked = models.DateTimeField(_("revoked"), null=True, blank=True)
    # Why and by whom, when revoked by someone other than its owner: staff in
    # the admin (a compromised token), or "account closed" (api.tokens).
    revoked_reason = models.TextField(_("why revoked"), blank=True, default="")
    revoked_by = models.ForeignKey(settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True,
                                   related_name="+", verbose_name=_("revoked by"))

    class Meta:
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"{self.user} {self.name} ({' '.join(self.scopes)})"

    @property
    def active(self) -> bool:
        return self.revoked is None
