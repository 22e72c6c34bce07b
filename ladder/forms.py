"""The game-options form (time control, rated or casual, colour) behind the no-JS fallbacks."""

from __future__ import annotations

from typing import Any

from django import forms

from games.starting import setups
from games.timecontrols import OFFERED
from ladder.models import Colour


class GameOptionsForm(forms.Form):
    rules = forms.ChoiceField(choices=[(key, setup.title) for key, setup in setups().items()],
                              initial="ace-in-the-hole", required=False)
    time_control = forms.ChoiceField(choices=[(tc.key, tc.label) for tc in OFFERED])
    mode = forms.ChoiceField(choices=[("rated", "Rated"), ("casual", "Casual")], initial="rated")
    colour = forms.ChoiceField(choices=Colour.choices, initial=Colour.RANDOM)

    def options(self) -> dict[str, Any]:
        """Keyword arguments for ladder.seeks.create_seek / create_challenge."""
        data = self.cleaned_data
        return {"time_control": data["time_control"], "rated": data["mode"] == "rated",
                "colour": data["colour"], "rules": data["rules"] or "ace-in-the-hole"}


class ChallengeOptionsForm(GameOptionsForm):
    """The profile's Challenge form: the game options, and for Rhombus 4 players
    with a partner and two opponents (ladder.challenges.create_team_challenge checks them)."""

    players = forms.TypedChoiceField(choices=[("2", "2"), ("4", "4")], coerce=int, initial=2, required=False,
                                     empty_value=2)
    partner = forms.CharField(max_length=150, required=False)
    opponent1 = forms.CharField(max_length=150, required=False)
    opponent2 = forms.CharField(max_length=150, required=False)

    def team(self) -> dict[str, Any] | None:
        """The names for a 4-player challenge, or None for 2 players."""
        data = self.cleaned_data
        if data["players"] != 4:
            return None
        return {"partner": data["partner"], "opponents": [data["opponent1"], data["opponent2"]]}


class SeekOptionsForm(GameOptionsForm):
    """The lobby's Create form: the game options, and for Rhombus 4 players with
    an optional partner (ladder.seeks.create_seek checks the pairing)."""

    players = forms.TypedChoiceField(choices=[("2", "2"), ("4", "4")], coerce=int, initial=2, required=False,
                                     empty_value=2)
    partner = forms.CharField(max_length=150, required=False)

    def options(self) -> dict[str, Any]:
        return {**super().options(), "players": self.cleaned_data["players"],
                "partner": self.cleaned_data["partner"] or None}
