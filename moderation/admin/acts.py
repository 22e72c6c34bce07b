"""The log of moderators' acts: adding a row does the act (moderation.actions),
with a form that shows the chosen kind's fields; rows are never changed."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext, gettext_lazy

import engine
from adminkit.export import Column, Export, ExportMixin
from adminkit.filters import user_filter
from adminkit.readonly import LookOnly
from moderation import actions
from moderation import admin_links as links
from moderation.models import ModerationAction


ACT_EXPORT = Export([
    Column("id", "pk"), Column("created", "created"), Column("kind", "kind"),
    Column("moderator", "moderator__username"), Column("user", "user__username"), Column("game", "game_id"),
    Column("report", "report_id"), Column("reason", "reason"), Column("outcome", "outcome")],
    select_related=["moderator", "user"])

# Every seat a game can have, for the adjudication's winner; the game's own
# seats are checked when the form is sent.
_SEATS = list(dict.fromkeys(seat for rules in engine.GAMES.values()
                            for seats in (rules.seats, *rules.seats_by_players.values()) for seat in seats))
WINNER_CHOICES = [("", gettext_lazy("nobody: a draw")), *((seat, seat) for seat in _SEATS)]


class ModerationActionForm(forms.ModelForm):  # type: ignore[type-arg]
    class Meta:
        model = ModerationAction
        fields = ("kind", "user", "game", "report", "days", "winner", "since", "until", "minutes", "chat_reason",
                  "chat_line", "room", "ladder", "rating", "tournament", "scoring", "reason")

    request: HttpRequest

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if "winner" in self.fields:
            model_field = self.fields["winner"]
            self.fields["winner"] = forms.ChoiceField(
                choices=WINNER_CHOICES, required=False, label=model_field.label,
                help_text=gettext_lazy("Adjudication: the winning seat, one of the game's, or nobody (a draw)."))
        if "kind" in self.fields:  # what the script (moderation_act_form.js) shows for each kind
            self.fields["kind"].widget.attrs.update({
                "data-kind-fields": json.dumps(links.KIND_FIELDS), "data-always-shown": json.dumps(links.ALWAYS_SHOWN)})

    def clean(self) -> dict[str, Any]:
        """The permission and what the kind needs, as form errors, before anything is done.
        The fields the kind does not use are emptied: sent without the script, they are ignored."""
        data = super().clean()
        shown = links.fields_of(data.get("kind") or "", self.Meta.fields)
        for name in self.Meta.fields:
            if name not in shown and name in data:
                field = ModerationAction._meta.get_field(name)
                data[name] = "" if field.empty_strings_allowed and not field.null else None
        self._check_winner(data)
        candidate = ModerationAction(moderator=self.request.user, **{
            name: data.get(name) for name in self.Meta.fields if name in data})
        candidate.reason = candidate.reason or ""
        candidate.winner = candidate.winner or ""
        candidate.chat_reason, candidate.room = candidate.chat_reason or "", candidate.room or ""
        candidate.ladder = candidate.ladder or ""
        candidate.scoring = candidate.scoring or ""
        if (why := actions.refusal(candidate)) is not None:
            raise forms.ValidationError(why[0].upper() + why[1:] + ".")
        return data

    def _check_winner(self, data: dict[str, Any]) -> None:
        game, winner = data.get("game"), data.get("winner")
        if game is not None and winner and winner not in game.seat_names:
            self.add_error("winner", gettext("Game %(number)s has the seats %(seats)s: choose one of them or a draw.")
                           % {"number": game.pk, "seats": ", ".join(game.seat_names)})


# Filters by one account that list only the one chosen (from a link on a row or
# on the User page), never every user who ever appears in the list.
ChosenUserFilter = user_filter("user", gettext_lazy("account"), parameter="user")
ChosenModeratorFilter = user_filter("moderator", gettext_lazy("moderator"), parameter="moderator")


@admin.register(ModerationAction)
class ModerationActionAdmin(ExportMixin, admin.ModelAdmin):  # type: ignore[type-arg]
    """The log of acts. Adding a row does the act; rows are never changed."""

    form = ModerationActionForm
    list_display = ("created", "kind", "account", "game_link", "by", "reason", "outcome")
    list_filter = ("kind", ChosenUserFilter, ChosenModeratorFilter)
    list_select_related = ("user", "moderator")
    search_fields = ("user__username", "moderator__username", "reason")
    autocomplete_fields = ("user", "game", "report", "chat_line")
    date_hierarchy = "created"
    list_select_related = ("user", "game", "moderator")
    export_columns = ACT_EXPORT

    def get_queryset(self, request: HttpRequest) -> QuerySet[ModerationAction]:
        # The game's name shows its players (Game.__str__): their seats once for the page.
        return super().get_queryset(request).prefetch_related("game__seats__user")

    class Media:
        js = ("js/moderation_act_form.js",)

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any) -> Any:
        form = super().get_form(request, obj, change, **kwargs)
        return type(form.__name__, (form,), {"request": request})

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description=gettext_lazy("account"), ordering="user__username")
    def account(self, action: ModerationAction) -> str:
        """The account, linking to its other acts."""
        if action.user_id is None:
            return "—"
        return format_html('<a href="?user={}">{}</a>', action.user_id, action.user.get_username())

    @admin.display(description=gettext_lazy("moderator"), ordering="moderator__username")
    def by(self, action: ModerationAction) -> str:
        return format_html('<a href="?moderator={}">{}</a>', action.moderator_id, action.moderator.get_username())

    @admin.display(description=gettext_lazy("game"), ordering="game_id")
    def game_link(self, action: ModerationAction) -> str:
        if action.game_id is None:
            return "—"
        return format_html('<a href="{}">{}</a>', reverse("admin:games_game_change", args=[action.game_id]),
                           gettext("game %(number)s") % {"number": action.game_id})

    def save_model(self, request: HttpRequest, obj: ModerationAction, form: Any, change: bool) -> None:
        obj.moderator = request.user
        try:
            actions.perform(obj)
        except actions.ModerationRefusal as refusal:  # found only when doing it (e.g. the game is over)
            request.moderation_refused = (form, str(refusal))  # type: ignore[attr-defined]

    def log_addition(self, request: HttpRequest, obj: Any, message: Any) -> Any:
        return super().log_addition(request, obj, message) if obj.pk else None

    def response_add(self, request: HttpRequest, obj: ModerationAction, post_url_continue: Any = None) -> HttpResponse:
        refused = getattr(request, "moderation_refused", None)
        if refused:
            return self._refused(request, *refused)
        # The outcome is the log's, kept in English as it was written.
        self.message_user(request, gettext("Done: %(outcome)s.") % {"outcome": obj.outcome}, messages.SUCCESS)
        return HttpResponseRedirect(reverse("admin:moderation_moderationaction_changelist")
                                    + (f"?user={obj.user_id}" if obj.user_id else ""))

    def _refused(self, request: HttpRequest, form: Any, why: str) -> HttpResponse:
        """The form again, as typed, with why the act was not done (nothing was written)."""
        form.add_error(None, gettext("Not done: %(why)s.") % {"why": why})
        admin_form = helpers.AdminForm(form, list(self.get_fieldsets(request)), {},
                                       self.get_readonly_fields(request), model_admin=self)
        context = {
            **self.admin_site.each_context(request), "title": gettext(_DJANGOS_ADD) % self.opts.verbose_name,
            "subtitle": None, "adminform": admin_form, "object_id": None, "original": None, "is_popup": False,
            "to_field": None, "media": self.media + admin_form.media, "inline_admin_formsets": [],
            "errors": helpers.AdminErrorList(form, []), "preserved_filters": self.get_preserved_filters(request)}
        return self.render_change_form(request, context, add=True)


# Django's own title of an add form, translated by Django's catalogs (a variable,
# so that it is not copied into the site's).
_DJANGOS_ADD = "Add %s"


class ReadOnlyAdmin(LookOnly, admin.ModelAdmin):  # type: ignore[type-arg]
    """Rows made by moderation acts (each logged), so never added, changed or deleted here."""
