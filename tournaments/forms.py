"""The organizer's tournament form, as lichess lays its own out: sections
(game and time control, format, schedule, entry conditions), the settings of
the chosen format only (the others are reset to their defaults), presets, and
times in the organizer's own time zone.

Its ``clean`` is the one check of a tournament's settings: the site's form and
the API's create (api/tournaments.py) both go through it.
"""

from __future__ import annotations

import zoneinfo
from datetime import datetime, timedelta
from typing import Any

from django import forms
from django.utils import formats, timezone
from django.utils.functional import lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from chat import lines as chat_lines
from games.timecontrols import OFFERED
from tournaments.models import TIEBREAK_CHOICES, Tournament

F = Tournament.Format
ALL_FORMATS = frozenset(F)

# The settings that only some formats use; the others are used by every format.
FORMAT_FIELDS: dict[str, frozenset[str]] = {
    "rounds": frozenset({F.SWISS}),
    "double_round_robin": frozenset({F.ROUND_ROBIN}),
    "tiebreaks": frozenset({F.SWISS, F.ROUND_ROBIN}),
    "match_length": frozenset({F.SINGLE, F.DOUBLE}),
    "check_in_minutes": frozenset({F.SINGLE, F.DOUBLE}),
    "third_place": frozenset({F.SINGLE}),
    "grand_final_reset": frozenset({F.DOUBLE}),
}

SECTIONS: list[tuple[str, Any, list[str]]] = [
    ("game", gettext_lazy("Game and time control"), ["name", "description", "rules", "time_control", "rated",
                                                     "chat_for"]),
    ("format", gettext_lazy("Format"), ["format", "rounds", "double_round_robin", "match_length", "third_place",
                                        "grand_final_reset", "seeding", "tiebreaks", "pause_seconds"]),
    ("schedule", gettext_lazy("Schedule"), ["starts_at", "registration_closes_at", "check_in_minutes"]),
    ("entry", gettext_lazy("Entry conditions"), ["max_players", "min_rating", "max_rating", "min_rated_games",
                                                  "min_account_days", "bots_allowed"]),
]

# Starting points offered above the form (?preset=<key>): lichess's quick choices.
PRESETS: dict[str, tuple[Any, dict[str, Any]]] = {
    "blitz-swiss": (gettext_lazy("Blitz Swiss: 3+2, 7 rounds"),
                    {"format": F.SWISS, "time_control": "3+2", "rounds": 7, "max_players": 64}),
    "round-robin": (gettext_lazy("Round robin of 8: 5+3"),
                    {"format": F.ROUND_ROBIN, "time_control": "5+3", "max_players": 8}),
    "knockout": (gettext_lazy("Knockout of 16: 5+3, best of 3, check-in"),
                 {"format": F.SINGLE, "time_control": "5+3", "max_players": 16, "match_length": 3,
                  "third_place": True, "check_in_minutes": 15}),
    "correspondence": (gettext_lazy("Correspondence Swiss: 3 days a move, 5 rounds"),
                       {"format": F.SWISS, "time_control": "3d", "rounds": 5, "max_players": 32}),
}


def _tiebreaks_help() -> str:
    return _("Comma-separated, in order: %(codes)s") % {"codes": ", ".join(TIEBREAK_CHOICES)}


def time_zone_named(name: str | None) -> zoneinfo.ZoneInfo:
    """The IANA zone the browser reported (Intl), or UTC when none or unknown."""
    if name and name in zoneinfo.available_timezones():
        return zoneinfo.ZoneInfo(name)
    return zoneinfo.ZoneInfo("UTC")


def max_swiss_rounds(players: int) -> int:
    """The most rounds a Swiss of ``players`` can pair with nobody meeting
    twice: each player meets every other once, plus a bye each when odd."""
    return players if players % 2 else players - 1


def default_start(now: datetime) -> datetime:
    """An hour from now, on the next five minutes: the form's first start."""
    start = now + timedelta(hours=1)
    return start.replace(second=0, microsecond=0) + timedelta(minutes=-start.minute % 5)


def time_control_choices() -> list[tuple[str, str]]:
    """The offered time controls, labelled in the reader's language ("1 Tag pro Zug")."""
    return [(tc.key, tc.label) for tc in OFFERED]


class TournamentForm(forms.ModelForm):  # type: ignore[type-arg]
    time_control = forms.ChoiceField(choices=time_control_choices, initial="5+3",
                                     label=gettext_lazy("Time control"))
    # Ace in the Hole when left out, as before games could be chosen.
    rules = forms.ChoiceField(choices=Tournament._meta.get_field("rules").choices, initial="ace-in-the-hole",
                              required=False, label=gettext_lazy("Game"))
    # Players and the organizer when left out (the API's older clients send none).
    chat_for = forms.ChoiceField(choices=Tournament.ChatFor.choices, initial=Tournament.ChatFor.ENTRANTS,
                                 required=False, label=gettext_lazy("Who may write in the chat"))
    # The organizer's IANA zone, filled in by the page's script; times are read in it.
    time_zone = forms.CharField(required=False, widget=forms.HiddenInput, initial="UTC")

    class Meta:
        model = Tournament
        fields = ["name", "description", "rules", "format", "time_control", "rated", "starts_at", "max_players",
                  "min_rating", "max_rating", "min_rated_games", "min_account_days", "bots_allowed",
                  "registration_closes_at", "check_in_minutes", "seeding", "rounds", "double_round_robin",
                  "match_length", "third_place", "grand_final_reset", "pause_seconds", "tiebreaks", "chat_for"]
        widgets = {
            "starts_at": forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
            "registration_closes_at": forms.DateTimeInput(attrs={"type": "datetime-local"},
                                                          format="%Y-%m-%dT%H:%M"),
            "description": forms.Textarea(attrs={"rows": 3}),
            "rounds": forms.NumberInput(attrs={"min": 1}),
            "max_players": forms.NumberInput(attrs={"min": 2}),
        }
        labels = {
            "name": gettext_lazy("Name"), "description": gettext_lazy("Description"),
            "format": gettext_lazy("Format"), "rated": pgettext_lazy("tournament", "Rated"),
            "starts_at": gettext_lazy("Starts at"), "max_players": gettext_lazy("Most players"),
            "min_rating": gettext_lazy("Lowest rating"), "max_rating": gettext_lazy("Highest rating"),
            "min_rated_games": gettext_lazy("Rated games played, at least"),
            "min_account_days": gettext_lazy("Account age in days, at least"),
            "bots_allowed": gettext_lazy("Bots may enter"),
            "registration_closes_at": gettext_lazy("Registration closes at"),
            "check_in_minutes": gettext_lazy("Check-in (minutes before the start)"),
            "seeding": gettext_lazy("Seeding"), "rounds": gettext_lazy("Rounds"),
            "double_round_robin": gettext_lazy("Double round robin (each pair plays twice)"),
            "match_length": gettext_lazy("Match length"), "third_place": gettext_lazy("Third-place match"),
            "grand_final_reset": gettext_lazy("Grand final reset"),
            "pause_seconds": gettext_lazy("Pause between rounds (seconds)"),
            "tiebreaks": gettext_lazy("Tiebreaks"),
        }
        help_texts = {
            "registration_closes_at": gettext_lazy(
                "Blank: entries until the start (a Swiss then takes late entries while fewer than half its "
                "rounds are paired)."),
            "check_in_minutes": gettext_lazy("0: no check-in. Who has not checked in is dropped at the start."),
            "match_length": gettext_lazy("A tied match goes to extra games."),
            # Worded when shown, in the reader's language (a lazy text's % would word it now, in English).
            "tiebreaks": lazy(_tiebreaks_help, str)(),
            "rounds": gettext_lazy("At most the number of players less one (each pair meets once)."),
        }

    def __init__(self, *args: Any, author: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.author = author  # who writes the name and description, which everyone reads
        self.zone = time_zone_named(self.data.get("time_zone") if self.is_bound else self.initial.get("time_zone"))

    def full_clean(self) -> None:
        # Django reads a datetime without an offset in the current zone: make that the organizer's.
        with timezone.override(self.zone):
            super().full_clean()

    def sections(self) -> list[tuple[str, Any, list[tuple[forms.BoundField, str]]]]:
        """The form's fields by section, for the template, each with the
        formats that use it ("" for all): the page's script hides the others."""
        return [(key, title, [(self[name], " ".join(sorted(FORMAT_FIELDS.get(name, ()))))
                              for name in names]) for key, title, names in SECTIONS]

    def clean_chat_for(self) -> str:
        return str(self.cleaned_data.get("chat_for") or Tournament.ChatFor.ENTRANTS)

    def clean_rules(self) -> str:
        return str(self.cleaned_data.get("rules") or "ace-in-the-hole")

    def clean_time_zone(self) -> str:
        return self.zone.key

    def clean_tiebreaks(self) -> str:
        """Codes in the organizer's order, e.g. "BH-C1,BH,SB"; each known, none twice."""
        codes = [code.strip().upper() for code in self.cleaned_data["tiebreaks"].split(",") if code.strip()]
        unknown = [code for code in codes if code not in TIEBREAK_CHOICES]
        if unknown:
            raise forms.ValidationError(
                _("unknown tiebreak %(codes)s: choose from %(choices)s")
                % {"codes": ", ".join(unknown),
                   "choices": ", ".join(f"{c} ({_(label)})" for c, label in TIEBREAK_CHOICES.items())})
        if len(set(codes)) != len(codes):
            raise forms.ValidationError(_("each tiebreak once"))
        return ",".join(codes)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        self._check_author_may_write()
        self._reset_other_formats(data)
        self._check_players_and_rounds(data)
        self._check_schedule(data, timezone.now())
        if data.get("min_rating") and data.get("max_rating") and data["min_rating"] > data["max_rating"]:
            self.add_error("max_rating", _("the maximum rating is below the minimum"))
        return data

    def _check_author_may_write(self) -> None:
        """A tournament's name and description are text the whole site reads: a
        player seated in a running team game writes none (RH36, games.partners)."""
        if self.author is None or not {"name", "description"} & set(self.changed_data):
            return
        try:
            chat_lines.refuse_silenced(self.author)
        except chat_lines.Refused as refused:
            self.add_error(None, str(refused))

    def _reset_other_formats(self, data: dict[str, Any]) -> None:
        """A setting the chosen format does not use goes back to its default,
        so that a tournament never keeps one that would mislead its page."""
        fmt = data.get("format")
        if fmt not in ALL_FORMATS:
            return
        for name, formats in FORMAT_FIELDS.items():
            if fmt not in formats:
                self.errors.pop(name, None)  # a hidden field's slip is no error
                data[name] = Tournament._meta.get_field(name).get_default()

    def _check_players_and_rounds(self, data: dict[str, Any]) -> None:
        players = data.get("max_players")
        if players is not None and players < 2:
            self.add_error("max_players", _("a tournament needs at least 2 players"))
            return
        if data.get("format") != F.SWISS or "rounds" in self.errors:
            return
        rounds = data.get("rounds")
        if not rounds:
            self.add_error("rounds", _("a Swiss needs its number of rounds"))
        elif players and rounds > max_swiss_rounds(players):
            self.add_error("rounds", _("a Swiss of at most %(players)d players has at most %(most)d rounds "
                                       "(nobody meets the same opponent twice)")
                           % {"players": players, "most": max_swiss_rounds(players)})

    def _check_schedule(self, data: dict[str, Any], now: datetime) -> None:
        starts, closes = data.get("starts_at"), data.get("registration_closes_at")
        new = self.instance.pk is None
        if starts and (new or "starts_at" in self.changed_data) and starts <= now:
            self.add_error("starts_at", _("the start must be in the future (it is now %(now)s)")
                           % {"now": self._shown(now)})
        if closes and (new or "registration_closes_at" in self.changed_data) and closes <= now:
            self.add_error("registration_closes_at", _("registration must close in the future"))
        elif closes and starts and closes > starts:
            self.add_error("registration_closes_at", _("registration must close by the start (%(start)s)")
                           % {"start": self._shown(starts)})

    def _shown(self, moment: datetime) -> str:
        """A moment as the organizer reads it: in their zone, named."""
        return f"{formats.date_format(timezone.localtime(moment, self.zone), 'DATETIME_FORMAT')} {self.zone.key}"
