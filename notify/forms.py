"""The per-kind channel choices (the account page's "Notifications")."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from notify.models import DEFAULTS, Channel, Kind, Preference

# What e-mail means for each kind, said plainly beside its box: per move would
# be too many (lichess refused them), so turns come as a daily digest.
EMAIL_MEANS = {
    Kind.TURN: _("By e-mail: one daily digest of the correspondence games where it is your move."),
    Kind.CLOCK: _("By e-mail: a warning 24 hours and 1 hour before your correspondence clock runs out."),
}
EMAIL_MEANS_OTHERWISE = _("By e-mail: one e-mail each time.")


def field_name(kind: str, channel: str) -> str:
    return f"{kind}__{channel}"


class NotifyPreferencesForm(forms.Form):
    """One checkbox per kind and channel, starting from the player's choices."""

    def __init__(self, *args: Any, user_id: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user_id = user_id
        chosen = {row["kind"]: row for row in Preference.objects.filter(user_id=user_id)
                  .values("kind", "site", "email", "push")}
        for kind in Kind.values:
            current = chosen.get(kind, DEFAULTS[kind])
            for channel, label in Channel.choices:
                self.fields[field_name(kind, channel)] = forms.BooleanField(
                    label=label, required=False, initial=bool(current[channel]))

    def rows(self) -> list[dict[str, Any]]:
        """For the template: each kind with its label, its boxes and what e-mail means."""
        return [{"kind": kind, "label": label,
                 "fields": [self[field_name(kind, channel)] for channel in Channel.values],
                 "email_means": EMAIL_MEANS.get(kind, EMAIL_MEANS_OTHERWISE)}
                for kind, label in Kind.choices]

    def save(self) -> list[str]:
        """Store every kind's channels; returns the kinds whose site channel is now off."""
        off = []
        for kind in Kind.values:
            channels = {channel: bool(self.cleaned_data[field_name(kind, channel)]) for channel in Channel.values}
            Preference.objects.update_or_create(user_id=self.user_id, kind=kind, defaults=channels)
            if not channels[Channel.SITE]:
                off.append(kind)
        return off
