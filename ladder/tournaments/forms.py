"""The organizer's tournament form: every setting of issue 11, checked together."""

from __future__ import annotations

from typing import Any

from django import forms

from games.timecontrols import OFFERED
from ladder.tournaments.models import TIEBREAK_CHOICES, Tournament


class TournamentForm(forms.ModelForm):  # type: ignore[type-arg]
    time_control = forms.ChoiceField(choices=[(tc.key, tc.label) for tc in OFFERED], initial="5+3")
    # Ace in the Hole when left out, as before games could be chosen.
    rules = forms.ChoiceField(choices=Tournament._meta.get_field("rules").choices, initial="ace-in-the-hole",
                              required=False, label="Game")

    def clean_rules(self) -> str:
        return str(self.cleaned_data.get("rules") or "ace-in-the-hole")

    class Meta:
        model = Tournament
        fields = ["name", "description", "rules", "format", "time_control", "rated", "starts_at", "max_players",
                  "min_rating", "max_rating", "min_rated_games", "min_account_days", "bots_allowed",
                  "registration_closes_at", "check_in_minutes", "seeding", "rounds", "double_round_robin",
                  "match_length", "third_place", "grand_final_reset", "pause_seconds", "tiebreaks"]
        widgets = {
            "starts_at": forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
            "registration_closes_at": forms.DateTimeInput(attrs={"type": "datetime-local"},
                                                          format="%Y-%m-%dT%H:%M"),
            "description": forms.Textarea(attrs={"rows": 3}),
        }

    def clean_tiebreaks(self) -> str:
        """Codes in the organizer's order, e.g. "BH-C1,BH,SB"; each known, none twice."""
        codes = [code.strip().upper() for code in self.cleaned_data["tiebreaks"].split(",") if code.strip()]
        unknown = [code for code in codes if code not in TIEBREAK_CHOICES]
        if unknown:
            raise forms.ValidationError(f"unknown tiebreak {', '.join(unknown)}: choose from "
                                        + ", ".join(f"{c} ({label})" for c, label in TIEBREAK_CHOICES.items()))
        if len(set(codes)) != len(codes):
            raise forms.ValidationError("each tiebreak once")
        return ",".join(codes)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        fmt = data.get("format")
        if fmt == Tournament.Format.SWISS and not data.get("rounds"):
            self.add_error("rounds", "a Swiss needs its number of rounds")
        if data.get("min_rating") and data.get("max_rating") and data["min_rating"] > data["max_rating"]:
            self.add_error("max_rating", "the maximum rating is below the minimum")
        closes, starts = data.get("registration_closes_at"), data.get("starts_at")
        if closes and starts and closes > starts and fmt != Tournament.Format.SWISS:
            self.add_error("registration_closes_at", "registration must close by the start")
        if (data.get("max_players") or 0) < 2:
            self.add_error("max_players", "a tournament needs at least 2 players")
        return data
