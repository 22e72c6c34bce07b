"""Tournaments in the Django admin: settings with inline players, rounds and
pairings, and the organizer's actions (start, pause, resume, cancel, remove a
player, adjudicate a game) going through ``running`` as the site's do, so the
admin keeps the same rules and tells the same sockets."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from adminkit.filters import DateRangeFilter
from games import refusals
from tournaments import entering, organizing
from tournaments.models import Entry, ForbiddenPairing, Pairing, Round, Tournament


class EntryForm(forms.ModelForm):  # type: ignore[type-arg]
    """A player entered by hand meets every entry condition the site's Join
    does (entering.entry_refusal: bots allowed, room, registration and late
    entry, rating range, restrictions...), and is made as join makes it."""

    class Meta:
        model = Entry
        fields = "__all__"

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.instance.pk is not None:
            return data  # an entry already made: its conditions were met then
        # An inline's "tournament" is its parent (Django's InlineForeignKeyField), unsaved when new.
        tournament, user = data.get("tournament"), data.get("user")
        if tournament is None or user is None:
            return data
        if tournament.pk is None:
            raise forms.ValidationError(_("save the tournament first, then enter its players"))
        if (why := entering.entry_refusal(tournament, user, timezone.now())) is not None:
            raise forms.ValidationError(_("%(name)s cannot enter: %(why)s") % {"name": user.get_username(), "why": why})
        return data

    def save(self, commit: bool = True) -> Entry:
        entry = super().save(commit=False)
        if entry._state.adding:
            entering.fill_new_entry(entry.tournament, entry, timezone.now())
        if commit:
            entry.save()
        return entry


class EntryInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Entry
    form = EntryForm
    extra = 0
    fields = ("user", "number", "manual_seed", "rating", "checked_in_at", "withdrawn_at", "withdrawn_why",
              "no_shows", "annulled")
    readonly_fields = ("number", "rating", "withdrawn_at", "withdrawn_why", "no_shows", "annulled")
    raw_id_fields = ("user",)


class RoundInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Round
    extra = 0
    fields = ("number", "status", "started_at", "finished_at")
    readonly_fields = fields
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # rounds are paired by tournaments.advancing.advance


class ForbiddenPairingInline(admin.TabularInline):  # type: ignore[type-arg]
    model = ForbiddenPairing
    fk_name = "tournament"
    extra = 0
    raw_id_fields = ("first", "second")


def _each(action: Any, description: Any, done: Any) -> Any:
    """An admin action applying ``action(tournament_id, user)`` to each selected tournament;
    ``done`` words one that went through ("%(tournament)s: started.")."""
    def run(modeladmin: admin.ModelAdmin, request: HttpRequest,  # type: ignore[type-arg]
            queryset: QuerySet[Tournament]) -> None:
        for tournament in queryset:
            try:
                action(tournament.pk, request.user)
                modeladmin.message_user(request, str(done) % {"tournament": tournament}, messages.SUCCESS)
            except refusals.Refusal as refusal:
                modeladmin.message_user(request, f"{tournament}: {refusal}", messages.ERROR)

    run.__name__ = f"{action.__name__}_selected"
    return admin.action(description=description)(run)


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("name", "format", "time_control", "status", "current_round", "starts_at", "organizer")
    list_filter = ("status", "format", "rated", ("starts_at", DateRangeFilter), ("finished_at", DateRangeFilter))
    list_select_related = ("organizer",)
    search_fields = ("name", "organizer__username")
    raw_id_fields = ("organizer",)
    readonly_fields = ("status", "current_round", "next_round_at", "started_at", "finished_at", "end_note",
                       "created")
    inlines = [EntryInline, ForbiddenPairingInline, RoundInline]
    actions = [
        _each(organizing.start_early, gettext_lazy("Start the selected tournaments now"),
              gettext_lazy("%(tournament)s: started.")),
        _each(organizing.pause, gettext_lazy("Pause the selected tournaments"),
              gettext_lazy("%(tournament)s: paused.")),
        _each(organizing.resume, gettext_lazy("Resume the selected tournaments"),
              gettext_lazy("%(tournament)s: resumed.")),
        _each(organizing.cancel, gettext_lazy("Cancel the selected tournaments"),
              gettext_lazy("%(tournament)s: cancelled.")),
    ]


@admin.action(description=gettext_lazy("Remove the selected players from their tournaments"))
def remove_players(modeladmin: admin.ModelAdmin, request: HttpRequest,  # type: ignore[type-arg]
                   queryset: QuerySet[Entry]) -> None:
    for entry in queryset:
        try:
            organizing.remove_player(entry.tournament_id, request.user, entry.pk, "removed in the admin")
        except refusals.Refusal as refusal:
            modeladmin.message_user(request, f"{entry}: {refusal}", messages.ERROR)


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    form = EntryForm
    list_display = ("user", "tournament", "number", "rating", "checked_in_at", "withdrawn_at", "no_shows")
    list_filter = (("withdrawn_at", admin.EmptyFieldListFilter),)
    list_select_related = ("user", "tournament")
    search_fields = ("user__username", "tournament__name")
    raw_id_fields = ("user", "tournament")
    actions = [remove_players]


class PairingInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Pairing
    extra = 0
    fields = ("board", "red", "black", "result", "match", "match_game", "game")
    readonly_fields = fields
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("tournament", "number", "status", "started_at", "finished_at")
    list_select_related = ("tournament",)
    readonly_fields = ("tournament", "number", "status", "started_at", "finished_at")
    inlines = [PairingInline]


class AdjudicationForm(forms.ModelForm):  # type: ignore[type-arg]
    """A pairing's page: its game's result may be decided here, with a written reason."""

    adjudicate = forms.ChoiceField(required=False, choices=[
        ("", gettext_lazy("— leave the game alone —")), ("red", gettext_lazy("Red wins")),
        ("black", gettext_lazy("Black wins")), ("draw", gettext_lazy("Draw"))],
        label=gettext_lazy("Adjudicate"))
    reason = forms.CharField(required=False, widget=forms.Textarea, label=gettext_lazy("Reason"),
                             help_text=gettext_lazy("Required to adjudicate; kept on the game and shown on its page."))

    class Meta:
        model = Pairing
        fields: list[str] = []


@admin.register(Pairing)
class PairingAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    form = AdjudicationForm
    list_display = ("round", "board", "red", "black", "result", "game")
    list_select_related = ("round__tournament", "red__user", "black__user", "game")
    search_fields = ("red__user__username", "black__user__username", "round__tournament__name")
    readonly_fields = ("round", "board", "red", "black", "result", "match", "match_game", "game",
                       "adjudication_note")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Pairing]:
        # The game's name shows its players (Game.__str__): their seats once for the page.
        return super().get_queryset(request).prefetch_related("game__seats__user")

    @admin.display(description=gettext_lazy("adjudication note"))
    def adjudication_note(self, pairing: Pairing) -> str:
        return pairing.game.adjudication_note if pairing.game else ""

    def save_model(self, request: HttpRequest, obj: Pairing, form: Any, change: bool) -> None:
        choice = form.cleaned_data.get("adjudicate")
        if not choice:
            return
        winner = None if choice == "draw" else choice
        try:
            organizing.adjudicate(obj.round.tournament_id, request.user, obj.pk, winner,
                                  form.cleaned_data.get("reason") or "")
        except refusals.Refusal as refusal:
            self.message_user(request, str(refusal), messages.ERROR)
            request.adjudication_refused = True  # type: ignore[attr-defined]

    def response_change(self, request: HttpRequest, obj: Pairing) -> HttpResponse:
        """Back to the board, without "changed successfully", when the adjudication was refused."""
        if getattr(request, "adjudication_refused", False):
            return HttpResponseRedirect(request.path)
        return super().response_change(request, obj)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
