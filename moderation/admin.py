"""The moderators' admin: the queue of reports, the log of acts (adding a row
does the act), and the account's history on the User page."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import json
from collections.abc import Iterator

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import ReadOnlyPasswordHashField, ReadOnlyPasswordHashWidget
from django.db.models import Count, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import lazy
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, gettext_lazy, ngettext, pgettext_lazy

import engine
from adminkit import search
from adminkit.export import Column, Export, ExportMixin
from adminkit.filters import DateRangeFilter, user_filter
from adminkit.readonly import LookOnly
from chat import lines as chat_lines
from chat.models import ChatTimeout, Line
from ladder.models import RatingChange
from moderation import actions, reports
from moderation import admin_links as links
from moderation.models import ModerationAction, Report, Restriction

User = get_user_model()
RECENT = timedelta(days=90)  # "recent" reports against a player, in the queue

# The queue's column heading, worded in the moderator's language when shown.
_recent_heading = lazy(lambda: ngettext("reports on them (%(days)s day)", "reports on them (%(days)s days)",
                                        RECENT.days) % {"days": RECENT.days}, str)

# The exports (adminkit/export.py): what each list hands over, column by column.
REPORT_EXPORT = Export([
    Column("id", "pk"), Column("created", "created"), Column("reporter", "reporter__username"),
    Column("reported", "reported__username"), Column("game", "game_id"), Column("reason", "reason"),
    Column("text", "text"), Column("status", "status"), Column("closed_at", "closed_at"),
    Column("closed_by", "closed_by__username"), Column("outcome", "outcome"), Column("note", "note")],
    select_related=["reporter", "reported", "closed_by"])
ACT_EXPORT = Export([
    Column("id", "pk"), Column("created", "created"), Column("kind", "kind"),
    Column("moderator", "moderator__username"), Column("user", "user__username"), Column("game", "game_id"),
    Column("report", "report_id"), Column("reason", "reason"), Column("outcome", "outcome")],
    select_related=["moderator", "user"])
RATING_CHANGE_EXPORT = Export([
    Column("id", "pk"), Column("game", "game_id"), Column("ladder", "ladder"), Column("user", "user__username"),
    Column("opponent", "opponent__username"), Column("before", "before"), Column("after", "after"),
    Column("opponent_rating", "opponent_rating"), Column("score", "score"), Column("k", "k"),
    Column("created", "created"), Column("undone_at", "undone_at")], select_related=["user", "opponent"])
# Never a password hash; an e-mail address only in a superuser's export.
USER_EXPORT = Export([
    Column("id", "pk"), Column("username", "username"), Column("date_joined", "date_joined"),
    Column("last_login", "last_login"), Column("is_active", "is_active"), Column("is_staff", "is_staff"),
    Column("is_superuser", "is_superuser")], superuser_columns=[Column("email", "email")])


class ReportStatusFilter(admin.SimpleListFilter):
    """The queue opens on the open reports; "all" shows every one."""

    title = gettext_lazy("status")
    parameter_name = "status"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [*Report.Status.choices, ("all", pgettext_lazy("reports, open or closed", "All"))]

    def choices(self, changelist: Any) -> Iterator[dict[str, Any]]:
        current = self.value() or Report.Status.OPEN
        for value, label in self.lookup_choices:
            yield {"selected": current == value, "display": label,
                   "query_string": changelist.get_query_string({self.parameter_name: value})}

    def queryset(self, request: HttpRequest, queryset: QuerySet[Report]) -> QuerySet[Report]:
        value = self.value() or Report.Status.OPEN
        return queryset if value == "all" else queryset.filter(status=value)


def other_open_reports(report: Report) -> QuerySet[Report]:
    """The other open reports about the same player (an appeal goes with appeals only)."""
    appeals = Q(reason=Report.Reason.APPEAL)
    return (Report.objects.filter(reported_id=report.reported_id, status=Report.Status.OPEN)
            .filter(appeals if report.reason == Report.Reason.APPEAL else ~appeals)
            .exclude(pk=report.pk).select_related("reporter").order_by("created", "pk"))


def _closing_errors(data: dict[str, Any]) -> None:
    if not data.get("outcome") or not (data.get("note") or "").strip():
        raise forms.ValidationError(gettext("To close the report, choose the action taken and write a note."))


class ReportForm(forms.ModelForm):  # type: ignore[type-arg]
    close_others = forms.BooleanField(
        required=False, label=gettext_lazy("Close the other open reports about them too"),
        help_text=gettext_lazy("With the same action taken and note; each reporter is told."))

    class Meta:
        model = Report
        fields = ("outcome", "note")

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.instance.status == Report.Status.CLOSED:
            raise forms.ValidationError(gettext("This report is closed already."))
        _closing_errors(data)
        return data


class CloseReportsForm(forms.Form):
    """The bulk close's outcome and note, one for every selected report."""

    outcome = forms.ChoiceField(label=gettext_lazy("Action taken"), choices=Report.Outcome.choices)
    note = forms.CharField(label=gettext_lazy("Note"), widget=forms.Textarea(attrs={"rows": 3}))

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        _closing_errors(data)
        return data


def _close_and_log(request: HttpRequest, report_ids: list[int], outcome: str, note: str, why: str) -> int:
    """Close the open ones of ``report_ids``, each noted in its admin History."""
    closed = reports.close(report_ids, request.user, outcome, note)
    if closed:
        LogEntry.objects.log_actions(user_id=request.user.pk, queryset=Report.objects.filter(pk__in=closed),
                                     action_flag=CHANGE, change_message=why)
    return len(closed)


@admin.action(description=gettext_lazy("Close the selected reports"), permissions=["change"])
def close_reports(modeladmin: admin.ModelAdmin, request: HttpRequest,  # type: ignore[type-arg]
                  queryset: QuerySet[Report]) -> HttpResponse | None:
    """Asks for the outcome and note on a page of its own (as Django's delete
    confirmation does), then closes every selected open report with them."""
    form = CloseReportsForm(request.POST if "apply" in request.POST else None)
    if form.is_valid():
        selected = list(queryset.values_list("pk", flat=True))
        closed = _close_and_log(request, selected, form.cleaned_data["outcome"], form.cleaned_data["note"],
                                "Closed with other selected reports")
        done = ngettext("Closed %(count)s report.", "Closed %(count)s reports.", closed) % {"count": closed}
        if closed < len(selected):
            done += " " + gettext("The others were closed already.")
        modeladmin.message_user(request, done, messages.SUCCESS if closed else messages.WARNING)
        return None
    context = {**modeladmin.admin_site.each_context(request), "title": gettext("Close the selected reports"),
               "opts": modeladmin.opts, "form": form, "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
               "reports": queryset.select_related("reported", "reporter").order_by("created", "pk")}
    return TemplateResponse(request, "admin/moderation/report/close_selected.html", context)


@admin.register(Report)
class ReportAdmin(ExportMixin, admin.ModelAdmin):  # type: ignore[type-arg]
    """The queue: open reports, newest first; saving one with an action and a
    note closes it (and, if ticked, the other open reports about the player)."""

    form = ReportForm
    list_display = ("id", "created", "reported", "reason", "game_link", "recent_reports", "reported_by", "status",
                    "outcome")
    list_filter = (ReportStatusFilter, "reason", "outcome", ("created", DateRangeFilter))
    search_fields = ("reported__username", "reporter__username")
    list_select_related = ("reported", "reporter")
    ordering = ("-created", "-pk")
    actions = [close_reports]
    export_columns = REPORT_EXPORT
    readonly_fields = ("reported_by", "reported", "game_link", "reason", "text", "created", "status", "closed_at",
                       "closed_by", "recent_reports", "act", "other_open")
    fields = ("reported", "recent_reports", "act", "reported_by", "game_link", "reason", "text", "created",
              "status", "closed_at", "closed_by", "other_open", "outcome", "note", "close_others")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # reports come from players

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # closed, never lost

    def get_queryset(self, request: HttpRequest) -> QuerySet[Report]:
        """Each report with the count of recent reports on its player: one
        subquery in the list's one query, not a count per row."""
        recent = (Report.objects.filter(reported_id=OuterRef("reported_id"), created__gte=timezone.now() - RECENT)
                  .order_by().values("reported_id").annotate(count=Count("pk")).values("count"))
        return (super().get_queryset(request).select_related("reported", "reporter")  # for autocomplete too
                .annotate(recent_count=Coalesce(Subquery(recent), 0)))

    def get_fields(self, request: HttpRequest, obj: Report | None = None) -> Any:
        fields = super().get_fields(request, obj)
        if obj is None or obj.status != Report.Status.OPEN or not other_open_reports(obj).exists():
            fields = [name for name in fields if name != "close_others"]
        return fields

    @admin.display(description=gettext_lazy("game"))
    def game_link(self, report: Report) -> str:
        if report.game_id is None:
            return "—"
        return format_html('<a href="{}">{}</a> (<a href="{}">{}</a>)', reverse("games:game", args=[report.game_id]),
                           gettext("game %(number)s") % {"number": report.game_id},
                           reverse("admin:games_game_change", args=[report.game_id]), gettext("admin"))

    @admin.display(description=gettext_lazy("reporter"), ordering="reporter__username")
    def reported_by(self, report: Report) -> str:
        return report.reporter.get_username() if report.reporter else gettext("the chat filter")

    @admin.display(description=_recent_heading(), ordering="recent_count")
    def recent_reports(self, report: Report) -> int:
        if hasattr(report, "recent_count"):
            return int(report.recent_count)
        return Report.objects.filter(reported_id=report.reported_id, created__gte=timezone.now() - RECENT).count()

    @admin.display(description=gettext_lazy("act on them"))
    def act(self, report: Report) -> str:
        """Links to the act form, filled in with this report's player and game;
        none on a closed report (an act would not close it)."""
        if report.status != Report.Status.OPEN:
            return "—"
        query = {"user": report.reported_id, "report": report.pk} | ({"game": report.game_id} if report.game_id else {})
        return format_html_join(" · ", '<a href="{}">{}</a>', (
            (links.act_url(kind, **query), label) for kind, label in ModerationAction.Kind.choices))

    @admin.display(description=gettext_lazy("other open reports about them"))
    def other_open(self, report: Report) -> str:
        others = other_open_reports(report)
        if not others:
            return "—"
        return format_html_join(mark_safe("<br>"), '<a href="{}">{}</a>: {}, {} ({}) {}', (
            (reverse("admin:moderation_report_change", args=[other.pk]),
             gettext("report %(number)s") % {"number": other.pk}, other.get_reason_display(),
             other.reporter.get_username() if other.reporter else gettext("the chat filter"),
             f"{other.created:%Y-%m-%d}",
             other.text[:200]) for other in others))

    def save_model(self, request: HttpRequest, obj: Report, form: Any, change: bool) -> None:
        others = list(other_open_reports(obj).values_list("pk", flat=True)) if form.cleaned_data.get(
            "close_others") else []
        obj.status, obj.closed_at, obj.closed_by = Report.Status.CLOSED, timezone.now(), request.user
        super().save_model(request, obj, form, change)
        reports.tell_decision(obj.pk)
        if others:
            closed = _close_and_log(request, others, obj.outcome, obj.note, f"Closed with report {obj.pk}")
            self.message_user(request, ngettext("Closed %(count)s other report about them.",
                                                "Closed %(count)s other reports about them.", closed)
                              % {"count": closed}, messages.SUCCESS)


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


@admin.display(description=gettext_lazy("lift"))
def lift_link(restriction: Restriction) -> str:
    """The act form that lifts a restriction in force, filled in; nothing for one that is over."""
    if not restriction.active(timezone.now()) or (url := links.lift_url(restriction)) is None:
        return "—"
    return format_html('<a href="{}">{}</a>', url, links.lift_label(restriction))


@admin.register(Restriction)
class RestrictionAdmin(ReadOnlyAdmin):
    """Restrictions are made and lifted through moderation acts, so each is logged."""

    list_display = ("user", "scope", "starts", "ends", "lifted_at", lift_link)
    list_filter = ("scope", ("lifted_at", admin.EmptyFieldListFilter))
    list_select_related = ("user",)
    search_fields = ("user__username",)
    list_select_related = ("user",)


class ActionInline(admin.TabularInline):  # type: ignore[type-arg]
    """The account's moderation history on its User page."""

    model = ModerationAction
    fk_name = "user"
    extra = 0
    fields = ("created", "kind", "moderator", "game", "reason", "outcome")
    readonly_fields = fields
    can_delete = False
    verbose_name_plural = gettext_lazy("moderation history")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class RestrictionInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Restriction
    extra = 0
    fields = ("scope", "starts", "ends", "lifted_at", lift_link)
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class PasswordSummaryWidget(ReadOnlyPasswordHashWidget):
    """The password's summary without Django's "Reset password" button, for a
    viewer who may not change the user: the password page would answer 403."""

    def render(self, name: str, value: Any, attrs: Any = None, renderer: Any = None) -> str:
        return render_to_string("admin/auth/user/password_summary.html", self.get_context(name, value, attrs))


class ModeratedUserAdmin(ExportMixin, UserAdmin):  # type: ignore[type-arg]
    """Django's User admin with the account's moderation: its restrictions and
    acts, links to everything about the player, and nothing the viewer may not use."""

    inlines = [*UserAdmin.inlines, RestrictionInline, ActionInline]
    change_form_template = "admin/auth/user/moderated_change_form.html"
    export_columns = USER_EXPORT

    def get_form(self, request: HttpRequest, obj: Any = None, **kwargs: Any) -> Any:
        form = super().get_form(request, obj, **kwargs)
        # Django's password page asks for the change permission on the user.
        if obj is not None and "password" in form.base_fields and not self.has_change_permission(request, obj):
            shown = form.base_fields["password"]
            form = type(form.__name__, (form,), {"password": ReadOnlyPasswordHashField(
                label=shown.label, help_text=shown.help_text, widget=PasswordSummaryWidget)})
        return form

    def change_view(self, request: HttpRequest, object_id: str, form_url: str = "",
                    extra_context: dict[str, Any] | None = None) -> HttpResponse:
        user = self.get_object(request, object_id)
        extra = {"moderation_links": links.user_links(request, user), "links_heading": links.LINKS_HEADING} \
            if user is not None else {}
        return super().change_view(request, object_id, form_url, {**(extra_context or {}), **extra})


if admin.site.is_registered(User):
    admin.site.unregister(User)
admin.site.register(User, ModeratedUserAdmin)


ChosenAuthorFilter = user_filter("author", gettext_lazy("author"), parameter="author")


@admin.register(Line)
class LineAdmin(ReadOnlyAdmin):
    """Every room's lines, newest first, for moderators: each with links to act on
    it (remove the line, time its author out, clear their day), each act logged."""

    list_display = ("created", "room_link", "by", "said", "removed", "act")
    list_filter = ("removed", ChosenAuthorFilter)
    search_fields = ("room", "author__username", "text")
    list_select_related = ("author",)
    ordering = ("-id",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Line]:
        return super().get_queryset(request).select_related("author")  # a line's name, in the act form's picker

    @admin.display(description=gettext_lazy("room"), ordering="room")
    def room_link(self, line: Line) -> str:
        """The room, with its game's or tournament's page on the site and in the admin."""
        found = links.room_links(line.room)
        if not found:
            return line.room
        return format_html("{} ({})", line.room, format_html_join(" · ", '<a href="{}">{}</a>', (
            (url, label) for label, url in found)))

    @admin.display(description=gettext_lazy("author"), ordering="author__username")
    def by(self, line: Line) -> str:
        """The author, linking to this list of their lines only."""
        return format_html('<a href="?author={}">{}</a>', line.author_id, line.author.get_username())

    @admin.display(description=gettext_lazy("said"))
    def said(self, line: Line) -> str:
        """The words as said, a removed line's too; a preset in brackets."""
        return f"[{chat_lines.PRESETS.get(line.preset, line.preset)}]" if line.preset else line.text

    @admin.display(description=gettext_lazy("act on it"))
    def act(self, line: Line) -> str:
        kinds = [(ModerationAction.Kind.CHAT_REMOVE, {"chat_line": line.pk, "user": line.author_id}),
                 (ModerationAction.Kind.CHAT_TIMEOUT, {"user": line.author_id, "minutes": 15}),
                 (ModerationAction.Kind.CHAT_CLEAR, {"user": line.author_id}),
                 (ModerationAction.Kind.CHAT_LOCK, {"room": line.room, "minutes": 60})]
        return format_html_join(" · ", '<a href="{}">{}</a>', (
            (links.act_url(kind, **query), kind.label) for kind, query in kinds))


@admin.register(ChatTimeout)
class ChatTimeoutAdmin(ReadOnlyAdmin):
    """Timeouts are made through moderation acts, so each is logged."""

    list_display = ("user", "reason", "starts", "ends", "moderator")
    search_fields = ("user__username",)
    list_select_related = ("user", "moderator")


# --- The ladder's rating changes: a moderator undoes a game's (its model is the ladder's) ---


@admin.action(description=gettext_lazy("Undo the rating effect of the selected changes' games (both players)"),
              permissions=["undo"])
def undo_rating_effect(modeladmin: admin.ModelAdmin, request: HttpRequest,  # type: ignore[type-arg]
                       queryset: QuerySet[RatingChange]) -> None:
    games = sorted(set(queryset.filter(undone_at__isnull=True, game__isnull=False).values_list("game_id", flat=True)))
    undone = 0
    for game_id in games:  # each one a logged moderation act, as from its own form
        pending = RatingChange.objects.filter(game_id=game_id, undone_at__isnull=True).count()
        try:
            actions.perform(ModerationAction(kind=ModerationAction.Kind.UNDO_RATING, moderator=request.user,
                                                game_id=game_id, reason="undone from the rating changes list"))
        except actions.ModerationRefusal:  # undone meanwhile
            continue
        undone += pending
    if undone:
        done = ngettext("Undid %(changes)s rating change from %(games)s game(s).",
                        "Undid %(changes)s rating changes from %(games)s game(s).", undone)
        modeladmin.message_user(request, done % {"changes": undone, "games": len(games)}, messages.SUCCESS)
    else:
        modeladmin.message_user(request, gettext("Nothing to undo: those changes were already undone."),
                                messages.WARNING)


@admin.register(RatingChange)
class RatingChangeAdmin(ExportMixin, admin.ModelAdmin):  # type: ignore[type-arg]
    """Searching a number lists that game's changes; ``?user__id__exact=`` one player's."""

    list_display = ("id", "game", "ladder", "user", "opponent", "before", "after", "score", "k", "created",
                    "undone_at")
    list_filter = ("ladder", ("created", DateRangeFilter), ("undone_at", admin.EmptyFieldListFilter),
                   user_filter("user", gettext_lazy("player")))
    list_select_related = ("game", "user", "opponent")
    search_fields = ("user__username", "opponent__username")
    export_columns = RATING_CHANGE_EXPORT
    raw_id_fields = ("game", "user", "opponent")
    readonly_fields = ("game", "user", "opponent", "before", "after", "opponent_rating", "score", "k",
                       "created", "undone_at")
    actions = [undo_rating_effect]

    def has_undo_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.has_perm(actions.PERMISSION[ModerationAction.Kind.UNDO_RATING]))

    def get_queryset(self, request: HttpRequest) -> QuerySet[RatingChange]:
        # The game's name shows its players (Game.__str__): their seats once for the page.
        return super().get_queryset(request).prefetch_related("game__seats__user")

    def get_search_results(self, request: HttpRequest, queryset: QuerySet[RatingChange],
                           search_term: str) -> tuple[QuerySet[RatingChange], bool]:
        found, duplicates = super().get_search_results(request, queryset, search_term)
        return search.or_number(found, queryset, search_term, "game_id"), duplicates

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # changes come from games and logged corrections only

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # the history the ratings are made of: undone, never edited

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # not even a superuser: a deleted change leaves the ratings disagreeing with it
