from __future__ import annotations

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy

from api.models import SCOPES


class TokenForm(forms.Form):
    name = forms.CharField(max_length=64, label=gettext_lazy("Name"),
                           help_text=gettext_lazy("What will use it: a bot, a script, a tournament tool."))
    scopes = forms.MultipleChoiceField(choices=[(key, format_lazy("{}: {}", key, text))
                                                for key, text in SCOPES.items()],
                                       widget=forms.CheckboxSelectMultiple)
