from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class Preference(models.Model):
    """What a player chose for themselves; a missing row means every default."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="preference",
        verbose_name=_("user"),
    )
    # Blank: follow the browser (the language cookie, then Accept-Language).
    language = models.CharField(
        _("language"), max_length=10, blank=True, default="", choices=settings.LANGUAGES
    )

    class Meta:
        verbose_name = _("preference")
        verbose_name_plural = _("preferences")

    def __str__(self) -> str:
        language = self.get_language_display() if self.language else gettext("as the browser asks")
        return f"{self.user} ({language})"
