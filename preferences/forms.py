from __future__ import annotations

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _


class LanguageForm(forms.Form):
    language = forms.ChoiceField(
        label=_("Language"),
        required=False,
        # Each language named in itself, as in the footer's menu.
        choices=[("", _("The browser's choice"))] + list(settings.LANGUAGES),
        widget=forms.RadioSelect,
        help_text=_("The browser's choice follows your browser's language settings on each device."),
    )
