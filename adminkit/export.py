"""The admin's CSV export (issue 37): an action "Export selected as CSV" on the
lists that declare ``export_columns``, offered only to those holding the model's
``export_<model>`` permission (made by adminkit's migration; a superuser holds
every one). Django's csv writer and a StreamingHttpResponse: a one-way export
needs no import library (docs/admin.md).

Columns are named, never "all fields": what a list exports is chosen field by
field, so that nothing hidden (a game's position or seed, a password hash) can
slip in when a model grows a field."""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.contrib import admin
from django.contrib.admin.options import IS_POPUP_VAR
from django.db.models import Model, QuerySet
from django.http import HttpRequest, StreamingHttpResponse
from django.utils import timezone
from django.utils.translation import gettext_lazy

ACTION = "export_csv"
CHUNK = 2000  # rows read a query at a time: a 1,000-row export is one query (and one a prefetch)
# A cell a spreadsheet would take for a formula (CWE-1236): written as text instead.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


@dataclass(frozen=True)
class Column:
    """One CSV column: its header (a stable key, the same in every language, as
    the API's) and how a row gives its value: a ``__`` path through the row's
    attributes, or a function of the row."""

    header: str
    value: str | Callable[[Any], Any]

    def of(self, row: Model) -> Any:
        if callable(self.value):
            return self.value(row)
        for name in self.value.split("__"):
            row = getattr(row, name) if row is not None else None
        return row


@dataclass(frozen=True)
class Export:
    """What one list exports, and what to load with it so the export is a
    constant number of queries whatever the number of rows."""

    columns: Sequence[Column]
    select_related: Sequence[str] = ()
    prefetch_related: Sequence[str] = ()
    # Columns only a superuser's export has (a user's e-mail address).
    superuser_columns: Sequence[Column] = field(default_factory=tuple)

    def columns_for(self, request: HttpRequest) -> list[Column]:
        return [*self.columns, *(self.superuser_columns if request.user.is_superuser else ())]


def cell(value: Any) -> Any:
    """A value as written: dates in ISO form, text that looks like a formula quoted."""
    if value is None:
        return ""
    if hasattr(value, "isoformat"):
        return value.isoformat()
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


class _Echo:
    """csv.writer's file: hands each written line back instead of keeping it."""

    def write(self, value: str) -> str:
        return value


def csv_lines(columns: Sequence[Column], rows: Iterable[Model]) -> Iterator[str]:
    writer = csv.writer(_Echo())
    yield writer.writerow([column.header for column in columns])
    for row in rows:
        yield writer.writerow([cell(column.of(row)) for column in columns])


def response(export: Export, request: HttpRequest, queryset: QuerySet[Any], name: str) -> StreamingHttpResponse:
    rows = queryset.select_related(*export.select_related).prefetch_related(*export.prefetch_related)
    lines = csv_lines(export.columns_for(request), rows.iterator(chunk_size=CHUNK))
    stamp = timezone.localtime().strftime("%Y%m%d-%H%M")
    return StreamingHttpResponse(lines, content_type="text/csv; charset=utf-8", headers={
        "Content-Disposition": f'attachment; filename="{name}-{stamp}.csv"'})


@admin.action(description=gettext_lazy("Export selected as CSV"), permissions=["export"])
def export_csv(modeladmin: ExportMixin, request: HttpRequest, queryset: QuerySet[Any]) -> StreamingHttpResponse:
    return response(modeladmin.export_columns, request, queryset, modeladmin.model._meta.model_name or "rows")


def permission_of(model: type[Model]) -> str:
    """"games.export_game": the permission adminkit's migration makes for each exported model."""
    return f"{model._meta.app_label}.export_{model._meta.model_name}"


class ExportMixin:
    """Put before ModelAdmin and set ``export_columns``; the action is added to
    whatever actions the list has, and only for holders of the permission
    (Django then refuses the action to anyone else, a forged POST included)."""

    export_columns: Export
    model: type[Model]

    def has_export_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.has_perm(permission_of(self.model)))

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        actions: dict[str, Any] = super().get_actions(request)  # type: ignore[misc]
        offered = self.actions is not None and IS_POPUP_VAR not in request.GET  # type: ignore[attr-defined]
        if not offered or not self.has_export_permission(request):
            return actions
        return {**actions, ACTION: (export_csv, ACTION, export_csv.short_description)}  # type: ignore[attr-defined]
