"""The moderators' admin: the queue of reports, the log of acts (adding a row
does the act), and the account's history on the User page."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.functional import lazy
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext, gettext_lazy, ngettext

from chat import lines as chat_lines
from chat.models import ChatTimeout, Line
from ladder.models import RatingChange
from moderation import actions, reports
from moderation.models import ModerationAction, Report, Restriction

RECENT = timedelta(days=90)  # "recent" reports against a player, in the queue

# The queue's column heading, worded in the moderator's language when shown.
_recent_heading = lazy(lambda: ngettext("reports on them (%(days)s day)", "reports on them (%(days)s days)",
                                        RECENT.days) % {"days": RECENT.days}, str)


class ReportForm(forms.ModelForm):  # type: ignore[type-arg]
    class Meta:
        model = Report
        fields = ("outcome", "note")

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.instance.status == Report.Status.CLOSED:
            raise forms.ValidationError(gettext("This report is closed already."))
        if not data.get("outcome") or not (data.get("note") or "").strip():
            raise forms.ValidationError(gettext("To close the report, choose the action taken and write a note."))
        return data


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """The queue: open reports first-come first-served; saving one with an
    action and a note closes it."""

    form = ReportForm
    list_display = ("id", "created", "reported", "reason", "game_link", "recent_reports", "reported_by", "status",
                    "outcome")
    list_filter = ("status", "reason", "outcome")
    search_fields = ("reported__username", "reporter__username")
    list_select_related = ("reported", "reporter")
    readonly_fields = ("reported_by", "reported", "game_link", "reason", "text", "created", "status", "closed_at",
                       "closed_by", "recent_reports", "act")
    fields = ("reported", "recent_reports", "act", "reported_by", "game_link", "reason", "text", "created",
              "status", "closed_at", "closed_by", "outcome", "note")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # reports come from players

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # closed, never lost

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

    @admin.display(description=_recent_heading())
    def recent_reports(self, report: Report) -> int:
        return Report.objects.filter(reported_id=report.reported_id, created__gte=timezone.now() - RECENT).count()

    @admin.display(description=gettext_lazy("act on them"))
    def act(self, report: Report) -> str:
        """Links to the act form, filled in with this report's player and game."""
        base = reverse("admin:moderation_moderationaction_add")
        query = {"user": report.reported_id, "report": report.pk} | ({"game": report.game_id} if report.game_id else {})
        return format_html_join(" · ", '<a href="{}">{}</a>', (
            (f"{base}?{urlencode(query | {'kind': kind})}", label) for kind, label in ModerationAction.Kind.choices))

    def save_model(self, request: HttpRequest, obj: Report, form: Any, change: bool) -> None:
        obj.status, obj.closed_at, obj.closed_by = Report.Status.CLOSED, timezone.now(), request.user
        super().save_model(request, obj, form, change)
        reports.tell_decision(obj.pk)


class ModerationActionForm(forms.ModelForm):  # type: ignore[type-arg]
    class Meta:
        model = ModerationAction
        fields = ("kind", "user", "game", "report", "days", "winner", "since", "until", "minutes", "chat_reason",
                  "chat_line", "room", "tournament", "scoring", "reason")

    request: HttpRequest

    def clean(self) -> dict[str, Any]:
        """The permission and what the kind needs, as form errors, before anything is done."""
        data = super().clean()
        candidate = ModerationAction(moderator=self.request.user, **{
            name: data.get(name) for name in self.Meta.fields if name in data})
        candidate.reason = candidate.reason or ""
        candidate.winner = candidate.winner or ""
        candidate.chat_reason, candidate.room = candidate.chat_reason or "", candidate.room or ""
        candidate.scoring = candidate.scoring or ""
        if (why := actions.refusal(candidate)) is not None:
            raise forms.ValidationError(why[0].upper() + why[1:] + ".")
        return data


@admin.register(ModerationAction)
class ModerationActionAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """The log of acts. Adding a row does the act; rows are never changed."""

    form = ModerationActionForm
    list_display = ("created", "kind", "user", "game", "moderator", "reason", "outcome")
    list_filter = ("kind", ("user", admin.RelatedOnlyFieldListFilter), ("moderator", admin.RelatedOnlyFieldListFilter))
    search_fields = ("user__username", "moderator__username", "reason")
    raw_id_fields = ("user", "game", "report", "chat_line")
    date_hierarchy = "created"

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any) -> Any:
        form = super().get_form(request, obj, change, **kwargs)
        return type(form.__name__, (form,), {"request": request})

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: ModerationAction, form: Any, change: bool) -> None:
        obj.moderator = request.user
        try:
            actions.perform(obj)
        except actions.ModerationRefusal as refusal:  # found only when doing it (e.g. the game is over)
            request.moderation_refused = str(refusal)  # type: ignore[attr-defined]

    def log_addition(self, request: HttpRequest, obj: Any, message: Any) -> Any:
        return super().log_addition(request, obj, message) if obj.pk else None

    def response_add(self, request: HttpRequest, obj: ModerationAction, post_url_continue: Any = None) -> HttpResponse:
        refused = getattr(request, "moderation_refused", None)
        if refused:
            self.message_user(request, gettext("Not done: %(why)s.") % {"why": refused}, messages.ERROR)
            return HttpResponseRedirect(request.get_full_path())
        # The outcome is the log's, kept in English as it was written.
        self.message_user(request, gettext("Done: %(outcome)s.") % {"outcome": obj.outcome}, messages.SUCCESS)
        return HttpResponseRedirect(reverse("admin:moderation_moderationaction_changelist")
                                    + (f"?user__id__exact={obj.user_id}" if obj.user_id else ""))


class ReadOnlyAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Rows made by moderation acts (each logged), so never added, changed or deleted here."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Restriction)
class RestrictionAdmin(ReadOnlyAdmin):
    """Restrictions are made and lifted through moderation acts, so each is logged."""

    list_display = ("user", "scope", "starts", "ends", "lifted_at")
    list_filter = ("scope", ("lifted_at", admin.EmptyFieldListFilter))
    search_fields = ("user__username",)


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
    fields = ("scope", "starts", "ends", "lifted_at")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


User = get_user_model()


class ModeratedUserAdmin(UserAdmin):  # type: ignore[type-arg]
    inlines = [*UserAdmin.inlines, RestrictionInline, ActionInline]


if admin.site.is_registered(User):
    admin.site.unregister(User)
admin.site.register(User, ModeratedUserAdmin)


@admin.register(Line)
class LineAdmin(ReadOnlyAdmin):
    """Every room's lines, newest first, for moderators: each with links to act on
    it (remove the line, time its author out, clear their day), each act logged."""

    list_display = ("created", "room", "author", "said", "removed", "act")
    list_filter = ("removed", ("author", admin.RelatedOnlyFieldListFilter))
    search_fields = ("room", "author__username", "text")
    list_select_related = ("author",)
    ordering = ("-id",)

    @admin.display(description=gettext_lazy("said"))
    def said(self, line: Line) -> str:
        """The words as said, a removed line's too; a preset in brackets."""
        return f"[{chat_lines.PRESETS.get(line.preset, line.preset)}]" if line.preset else line.text

    @admin.display(description=gettext_lazy("act on it"))
    def act(self, line: Line) -> str:
        base = reverse("admin:moderation_moderationaction_add")
        kinds = [(ModerationAction.Kind.CHAT_REMOVE, {"chat_line": line.pk, "user": line.author_id}),
                 (ModerationAction.Kind.CHAT_TIMEOUT, {"user": line.author_id, "minutes": 15}),
                 (ModerationAction.Kind.CHAT_CLEAR, {"user": line.author_id}),
                 (ModerationAction.Kind.CHAT_LOCK, {"room": line.room, "minutes": 60})]
        return format_html_join(" · ", '<a href="{}">{}</a>', (
            (f"{base}?{urlencode(query | {'kind': kind})}", kind.label) for kind, query in kinds))


@admin.register(ChatTimeout)
class ChatTimeoutAdmin(ReadOnlyAdmin):
    """Timeouts are made through moderation acts, so each is logged."""

    list_display = ("user", "reason", "starts", "ends", "moderator")
    search_fields = ("user__username",)


# --- The ladder's rating changes: a moderator undoes a game's (its model is the ladder's) ---


@admin.action(description=gettext_lazy("Undo the rating effect of the selected changes' games (both players)"),
              permissions=["undo"])
def undo_rating_effect(modeladmin: admin.ModelAdmin, request: HttpRequest,  # type: ignore[type-arg]
                       queryset: QuerySet[RatingChange]) -> None:
    games = sorted(set(queryset.filter(undone_at__isnull=True).values_list("game_id", flat=True)))
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
class RatingChangeAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("id", "game", "user", "opponent", "before", "after", "score", "k", "created", "undone_at")
    list_filter = (("undone_at", admin.EmptyFieldListFilter),)
    search_fields = ("user__username", "opponent__username")
    raw_id_fields = ("game", "user", "opponent")
    readonly_fields = ("game", "user", "opponent", "before", "after", "opponent_rating", "score", "k",
                       "created", "undone_at")
    actions = [undo_rating_effect]

    def has_undo_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.has_perm(actions.PERMISSION[ModerationAction.Kind.UNDO_RATING]))

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # changes come from games only
