from __future__ import annotations

from django import forms

from ladder.api.models import SCOPES


class TokenForm(forms.Form):
    name = forms.CharField(max_length=64, help_text="What will use it: a bot, a script, a tournament tool.")
    scopes = forms.MultipleChoiceField(choices=[(key, f"{key}: {text}") for key, text in SCOPES.items()],
                                       widget=forms.CheckboxSelectMultiple)
