"""The report form a player fills in from a profile or a finished game."""

from __future__ import annotations

from django import forms

from ladder.moderation.models import TEXT_LIMIT, Report


class ReportForm(forms.Form):
    reason = forms.ChoiceField(choices=Report.Reason.choices, widget=forms.RadioSelect)
    text = forms.CharField(label="What happened", required=False, max_length=TEXT_LIMIT,
                           widget=forms.Textarea(attrs={"rows": 6, "cols": 60, "maxlength": TEXT_LIMIT}),
                           help_text=f"Optional, at most {TEXT_LIMIT} characters: moves, times, what was said.")


class GameReportForm(ReportForm):
    """From a game's page: which of its players, too."""

    player = forms.ChoiceField(label="Player")

    def __init__(self, *args: object, players: list[str], **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["player"].choices = [(name, name) for name in players]  # type: ignore[attr-defined]
        self.order_fields(["player", "reason", "text"])
