"""The report form a player fills in from a profile or a finished game, and the appeal form."""

from __future__ import annotations

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy

from moderation.models import TEXT_LIMIT, Report


class ReportForm(forms.Form):
    reason = forms.ChoiceField(choices=[c for c in Report.Reason.choices if c[0] != Report.Reason.APPEAL],
                               widget=forms.RadioSelect, label=gettext_lazy("Reason"))
    text = forms.CharField(label=gettext_lazy("What happened"), required=False, max_length=TEXT_LIMIT,
                           widget=forms.Textarea(attrs={"rows": 6, "cols": 60, "maxlength": TEXT_LIMIT}),
                           help_text=format_lazy(gettext_lazy("Optional, at most {limit} characters: moves, times, "
                                                           "what was said."), limit=TEXT_LIMIT))


class GameReportForm(ReportForm):
    """From a game's page: which of its players, too."""

    player = forms.ChoiceField(label=gettext_lazy("Player"))

    def __init__(self, *args: object, players: list[str], **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["player"].choices = [(name, name) for name in players]  # type: ignore[attr-defined]
        self.order_fields(["player", "reason", "text"])


class AppealForm(forms.Form):
    """A restricted or playbanned player writes to the moderators."""

    text = forms.CharField(label=gettext_lazy("Your appeal"), max_length=TEXT_LIMIT, strip=False,
                           required=False,  # an empty one is refused with its reason (reports.file_appeal)
                           widget=forms.Textarea(attrs={"rows": 6, "cols": 60, "maxlength": TEXT_LIMIT}),
                           help_text=format_lazy(gettext_lazy("At most {limit} characters: what happened, and "
                                                              "why it should be lifted."), limit=TEXT_LIMIT))
