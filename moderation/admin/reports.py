"""The moderators' queue of reports: open ones first, newest first; closing one
(with an outcome and a note) tells its reporter; other open reports about the
same player close with it, and the selected ones close together."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.admin.models import CHANGE, LogEntry
from django.db.models import Count, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import lazy
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, gettext_lazy, ngettext, pgettext_lazy

from adminkit.export import Column, Export, ExportMixin
from adminkit.filters import DateRangeFilter
from moderation import reports
from moderation import admin_links as links
from moderation.models import ModerationAction, Report


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
               "action": "close_reports",
               "rows": queryset.select_related("reported", "reporter").order_by("created", "pk")}
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
