"""Tournaments in the Django admin: settings with inline players, rounds and
pairings, and the organizer's actions (start, pause, resume, cancel, remove a
player, adjudicate a game or correct its result, disqualify a player, recompute
the places) going through ``running`` and
``corrections`` as the site's do, so the admin keeps the same rules and tells
the same sockets.

Least privilege (issue 37): a staff member in Organizers sees and changes only
the tournaments they organize (and their entries, rounds and boards); a
superuser or a moderator sees every one. The tournament's form is the site's
own (forms.TournamentForm), checks and messages included. An entry is never
deleted once its tournament has started: its pairings keep it (Pairing's
RESTRICT), and a cheater is disqualified instead (corrections.disqualify)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.db import models
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from adminkit.filters import DateRangeFilter
from adminkit.readonly import LookOnly
from games import refusals
from games.models import Game
from tournaments import corrections, entering, organizing
from tournaments.forms import TournamentForm
from tournaments.models import Correction, Entry, ForbiddenPairing, Pairing, Round, Tournament


def oversees(user: Any) -> bool:
    """Superusers and moderators see every tournament; an organizer their own."""
    return bool(user.is_superuser or user.has_perm(corrections.PERMISSION))


class OwnTournaments:
    """A model admin showing an organizer only the rows of the tournaments they
    organize: ``organizer_lookup`` is the lookup from the row to the tournament's organizer."""

    organizer_lookup = "tournament__organizer"

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        rows = super().get_queryset(request)  # type: ignore[misc]
        return rows if oversees(request.user) else rows.filter(**{self.organizer_lookup: request.user})

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return super().has_view_permission(request, obj) and self._theirs(request, obj)  # type: ignore[misc]

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return super().has_change_permission(request, obj) and self._theirs(request, obj)  # type: ignore[misc]

    def _theirs(self, request: HttpRequest, obj: Any) -> bool:
        if obj is None or oversees(request.user):
            return True
        return type(obj).objects.filter(pk=obj.pk, **{self.organizer_lookup: request.user}).exists()


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
              "no_shows", "annulled", "place", "disqualified")
    readonly_fields = ("number", "rating", "withdrawn_at", "withdrawn_why", "no_shows", "annulled", "place",
                       "disqualified")
    raw_id_fields = ("user",)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """Before the start only: a player who has played is disqualified, never deleted."""
        return super().has_delete_permission(request, obj) and (
            obj is None or obj.status == Tournament.Status.UPCOMING)


class CorrectionInline(LookOnly, admin.TabularInline):  # type: ignore[type-arg]
    """The tournament's corrections, as corrections.py logged them; never edited."""

    model = Correction
    extra = 0
    fields = ("created", "kind", "by", "entry", "reason", "changes")
    readonly_fields = fields
    can_delete = False


class RoundInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Round
    extra = 0
    fields = ("number", "status", "started_at", "finished_at")
    readonly_fields = fields
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # rounds are paired by tournaments.advancing.advance


class ForbiddenPairingForm(forms.ModelForm):  # type: ignore[type-arg]
    """Both players are this tournament's: an entry typed by number from another
    tournament (an organizer's neighbour's) is refused."""

    class Meta:
        model = ForbiddenPairing
        fields = "__all__"

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        tournament = data.get("tournament")
        for name in ("first", "second"):
            entry = data.get(name)
            if tournament is not None and entry is not None and entry.tournament_id != tournament.pk:
                self.add_error(name, _("%(name)s is not entered in this tournament") % {"name": entry.user})
        return data


class ForbiddenPairingInline(admin.TabularInline):  # type: ignore[type-arg]
    model = ForbiddenPairing
    form = ForbiddenPairingForm
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


class RerankForm(forms.Form):
    reason = forms.CharField(label=gettext_lazy("Reason"), widget=forms.Textarea(attrs={"rows": 3}),
                             help_text=gettext_lazy("Kept in each tournament's corrections."))


@admin.action(description=gettext_lazy("Recompute the places of the selected tournaments"))
def rerank_selected(modeladmin: admin.ModelAdmin, request: HttpRequest,  # type: ignore[type-arg]
                    queryset: QuerySet[Tournament]) -> HttpResponse | None:
    """Asks for the reason on a page of its own (as Django's delete
    confirmation does), then recomputes each selected tournament's places
    (corrections.rerank), saying what moved or why not."""
    form = RerankForm(request.POST if "apply" in request.POST else None)
    if not form.is_valid():
        context = {**modeladmin.admin_site.each_context(request), "title": _("Recompute the places"),
                   "opts": modeladmin.opts, "form": form, "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
                   "action": "rerank_selected", "rows": queryset.order_by("pk")}
        return TemplateResponse(request, "admin/tournaments/tournament/rerank_selected.html", context)
    for tournament in queryset.order_by("pk"):
        try:
            correction = corrections.rerank(tournament.pk, request.user, form.cleaned_data["reason"])
            modeladmin.message_user(request, f"{tournament}: {correction.changes}", messages.SUCCESS)
        except refusals.Refusal as refusal:
            modeladmin.message_user(request, f"{tournament}: {refusal}", messages.ERROR)
    return None


class TournamentAdminForm(TournamentForm):
    """The site's own form (its checks and messages: at least 2 players, a
    Swiss's most rounds, a start in the future), written by the admin's user."""

    author: Any = None  # set per request by TournamentAdmin.get_form

    class Meta(TournamentForm.Meta):
        fields = [*TournamentForm.Meta.fields, "organizer"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("author", type(self).author)
        super().__init__(*args, **kwargs)


@admin.register(Tournament)
class TournamentAdmin(OwnTournaments, admin.ModelAdmin):  # type: ignore[type-arg]
    organizer_lookup = "organizer"
    form = TournamentAdminForm
    # The site's form's own widgets (a datetime-local start), not the admin's split date and time.
    formfield_overrides = {models.DateTimeField: {"form_class": forms.DateTimeField}}
    list_display = ("name", "format", "time_control", "status", "current_round", "starts_at", "organizer")
    list_filter = ("status", "format", "rated", ("starts_at", DateRangeFilter), ("finished_at", DateRangeFilter))
    list_select_related = ("organizer",)
    search_fields = ("name", "organizer__username")
    raw_id_fields = ("organizer",)
    readonly_fields = ("status", "current_round", "next_round_at", "started_at", "finished_at", "end_note",
                       "created")
    fields = (*TournamentAdminForm.Meta.fields, *readonly_fields)
    inlines = [EntryInline, ForbiddenPairingInline, RoundInline, CorrectionInline]
    actions = [
        _each(organizing.start_early, gettext_lazy("Start the selected tournaments now"),
              gettext_lazy("%(tournament)s: started.")),
        _each(organizing.pause, gettext_lazy("Pause the selected tournaments"),
              gettext_lazy("%(tournament)s: paused.")),
        _each(organizing.resume, gettext_lazy("Resume the selected tournaments"),
              gettext_lazy("%(tournament)s: resumed.")),
        _each(organizing.cancel, gettext_lazy("Cancel the selected tournaments"),
              gettext_lazy("%(tournament)s: cancelled.")),
        rerank_selected,
    ]

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any) -> Any:
        form = super().get_form(request, obj, change, **kwargs)
        return type(form.__name__, (form,), {"author": request.user})

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        """An organizer's tournaments are theirs: they name no other organizer."""
        fields = super().get_readonly_fields(request, obj)
        return fields if request.user.is_superuser else (*fields, "organizer")

    def save_model(self, request: HttpRequest, obj: Tournament, form: Any, change: bool) -> None:
        if not change and not request.user.is_superuser:
            obj.organizer = request.user
        super().save_model(request, obj, form, change)


@admin.action(description=gettext_lazy("Remove the selected players from their tournaments"))
def remove_players(modeladmin: admin.ModelAdmin, request: HttpRequest,  # type: ignore[type-arg]
                   queryset: QuerySet[Entry]) -> None:
    for entry in queryset:
        try:
            organizing.remove_player(entry.tournament_id, request.user, entry.pk, "removed in the admin")
        except refusals.Refusal as refusal:
            modeladmin.message_user(request, f"{entry}: {refusal}", messages.ERROR)


class EntryCorrectionForm(EntryForm):
    """An entry's page: its player may be disqualified here, with a written reason (corrections.disqualify)."""

    disqualify = forms.ChoiceField(required=False, choices=[
        ("", gettext_lazy("— leave the player alone —")), *Entry.Disqualified.choices],
        label=gettext_lazy("Disqualify"))
    reason = forms.CharField(required=False, widget=forms.Textarea, label=gettext_lazy("Reason"),
                             help_text=gettext_lazy("Required to disqualify; kept in the tournament's corrections."))


@admin.register(Entry)
class EntryAdmin(OwnTournaments, admin.ModelAdmin):  # type: ignore[type-arg]
    form = EntryForm
    list_display = ("user", "tournament", "number", "rating", "checked_in_at", "withdrawn_at", "no_shows")
    list_filter = (("withdrawn_at", admin.EmptyFieldListFilter),)
    list_select_related = ("user", "tournament")
    search_fields = ("user__username", "tournament__name")
    raw_id_fields = ("user", "tournament")
    actions = [remove_players]
    # Results, places and leaving are the site's to write (running, corrections).
    results = ("number", "rating", "withdrawn_at", "withdrawn_why", "withdrawn_after_round", "no_shows", "annulled",
               "place", "disqualified")

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        if obj is None:
            return ("tournament", "user", "manual_seed", "checked_in_at")
        fields = ("tournament", "user", "manual_seed", "checked_in_at", *self.results)
        return (*fields, "disqualify", "reason") if self.has_change_permission(request, obj) else fields

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return () if obj is None else ("tournament", "user", *self.results)

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any) -> Any:
        if obj is not None:
            kwargs["form"] = EntryCorrectionForm
        return super().get_form(request, obj, change, **kwargs)

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "tournament" and not oversees(request.user):
            kwargs["queryset"] = Tournament.objects.filter(organizer=request.user)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def get_actions(self, request: HttpRequest) -> Any:
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)  # one by one, before the start only (has_delete_permission)
        return actions

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """Before the start only: a player who has played is disqualified, never
        deleted (their opponents' results and the podium would go with them)."""
        return super().has_delete_permission(request, obj) and (
            obj is None or obj.tournament.status == Tournament.Status.UPCOMING)

    def save_model(self, request: HttpRequest, obj: Entry, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        scoring = form.cleaned_data.get("disqualify") if change else None
        if not scoring:
            return
        try:
            correction = corrections.disqualify(obj.tournament_id, request.user, obj.pk, scoring,
                                                form.cleaned_data.get("reason") or "")
            self.message_user(request, _("Disqualified: %(changes)s") % {"changes": correction.changes},
                              messages.SUCCESS)
        except refusals.Refusal as refusal:
            self.message_user(request, str(refusal), messages.ERROR)
            request.correction_refused = True  # type: ignore[attr-defined]

    def response_change(self, request: HttpRequest, obj: Entry) -> HttpResponse:
        """Back to the entry, without "changed successfully", when the disqualification was refused."""
        if getattr(request, "correction_refused", False):
            return HttpResponseRedirect(request.path)
        return super().response_change(request, obj)


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
class RoundAdmin(OwnTournaments, admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("tournament", "number", "status", "started_at", "finished_at")
    list_select_related = ("tournament",)
    readonly_fields = ("tournament", "number", "status", "started_at", "finished_at")
    inlines = [PairingInline]


class AdjudicationForm(forms.ModelForm):  # type: ignore[type-arg]
    """A pairing's page: its running game's result may be decided here, with a written reason."""

    adjudicate = forms.ChoiceField(required=False, choices=[
        ("", gettext_lazy("— leave the game alone —")), ("red", gettext_lazy("Red wins")),
        ("black", gettext_lazy("Black wins")), ("draw", gettext_lazy("Draw"))],
        label=gettext_lazy("Adjudicate"))
    reason = forms.CharField(required=False, widget=forms.Textarea, label=gettext_lazy("Reason"),
                             help_text=gettext_lazy("Required to adjudicate; kept on the game and shown on its page."))

    class Meta:
        model = Pairing
        fields: list[str] = []


class ResultCorrectionForm(AdjudicationForm):
    """A pairing's page once its game is over: its result may be corrected
    (corrections.correct_result), a forfeit too."""

    adjudicate = forms.ChoiceField(required=False, choices=[
        ("", gettext_lazy("— leave the result alone —")), (Pairing.Result.RED, gettext_lazy("Red wins")),
        (Pairing.Result.BLACK, gettext_lazy("Black wins")), (Pairing.Result.DRAW, gettext_lazy("Draw")),
        (Pairing.Result.RED_FORFEIT_WIN, gettext_lazy("Red wins by forfeit")),
        (Pairing.Result.BLACK_FORFEIT_WIN, gettext_lazy("Black wins by forfeit"))],
        label=gettext_lazy("Correct the result"))
    reason = forms.CharField(required=False, widget=forms.Textarea, label=gettext_lazy("Reason"),
                             help_text=gettext_lazy("Required to correct the result; kept in the tournament's "
                                                    "corrections and on the game, which becomes unrated."))


@admin.register(Pairing)
class PairingAdmin(OwnTournaments, admin.ModelAdmin):  # type: ignore[type-arg]
    organizer_lookup = "round__tournament__organizer"
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

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any) -> Any:
        if obj is not None and _game_over(obj):
            kwargs["form"] = ResultCorrectionForm
        return super().get_form(request, obj, change, **kwargs)

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        """Who may only look (a moderator: they correct through their act) sees the
        board without the adjudication's inputs, which a view-only page would show
        as bare English names."""
        fields = super().get_fields(request, obj)
        if obj is not None and not self.has_change_permission(request, obj):
            fields = [name for name in fields if name not in ("adjudicate", "reason")]
        return fields

    def save_model(self, request: HttpRequest, obj: Pairing, form: Any, change: bool) -> None:
        choice = form.cleaned_data.get("adjudicate")
        if not choice:
            return
        reason = form.cleaned_data.get("reason") or ""
        try:
            if isinstance(form, ResultCorrectionForm):
                correction = corrections.correct_result(obj.round.tournament_id, request.user, obj.pk, choice, reason)
                self.message_user(request, _("Result corrected: %(changes)s") % {"changes": correction.changes},
                                  messages.SUCCESS)
            else:
                organizing.adjudicate(obj.round.tournament_id, request.user, obj.pk,
                                      None if choice == "draw" else choice, reason)
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


def _game_over(pairing: Pairing) -> bool:
    """Whether the board's game has ended: its result is then corrected, not adjudicated."""
    return pairing.game is not None and pairing.game.status == Game.Status.FINISHED
