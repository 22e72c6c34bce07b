"""List filters that stay small however big the table: a date range (two dates
typed in, beside Django's own Today / Past 7 days / This month / This year), and
a filter by one user that shows only the user chosen, never a list of them all
(Django's RelatedOnlyFieldListFilter listed 953 authors on the chat lines)."""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.admin.options import IncorrectLookupParameters
from django.contrib.auth import get_user_model
from django.db import models
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone


class DateRangeFilter(admin.DateFieldListFilter):
    """Django's date links, and a "from" and "to" date (both days included):
    ``?created__from=2026-11-01&created__to=2026-11-28``. Used as
    ``list_filter = [("created", DateRangeFilter)]``."""

    template = "adminkit/date_range_filter.html"

    def __init__(self, field: Any, request: HttpRequest, params: dict[str, Any], model: Any, model_admin: Any,
                 field_path: str) -> None:
        self.from_param, self.to_param = f"{field_path}__from", f"{field_path}__to"
        super().__init__(field, request, params, model, model_admin, field_path)
        self.range = {name: self.used_parameters.pop(name, [""])[-1] for name in (self.from_param, self.to_param)}

    def expected_parameters(self) -> list[str]:
        return [*super().expected_parameters(), self.from_param, self.to_param]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        queryset = super().queryset(request, queryset)
        start, end = self._day(self.range[self.from_param]), self._day(self.range[self.to_param])
        if start is not None:
            queryset = queryset.filter(**{f"{self.field_path}__gte": self._moment(start)})
        if end is not None:  # the whole of the last day
            queryset = queryset.filter(**{f"{self.field_path}__lt": self._moment(end + datetime.timedelta(days=1))})
        return queryset

    def _day(self, text: str) -> datetime.date | None:
        if not text:
            return None
        try:
            return forms.DateField().clean(text)  # type: ignore[no-any-return]
        except forms.ValidationError as error:
            raise IncorrectLookupParameters(error) from error  # the admin's own "?e=1" page

    def _moment(self, day: datetime.date) -> datetime.date | datetime.datetime:
        """A day's start in the admin's time zone, for a date-time field."""
        if isinstance(self.field, models.DateTimeField):
            return timezone.make_aware(datetime.datetime.combine(day, datetime.time()))
        return day

    def choices(self, changelist: Any) -> Iterator[dict[str, Any]]:
        yield from super().choices(changelist)
        mine = {self.from_param, self.to_param} | {name for name in changelist.params
                                                   if name.startswith(self.field_generic)}
        yield {"form": True, "selected": any(self.range.values()),
               "from_name": self.from_param, "from": self.range[self.from_param],
               "to_name": self.to_param, "to": self.range[self.to_param],
               "hidden": [(name, value) for name, value in changelist.params.items() if name not in mine]}


def user_filter(field: str, title: Any, parameter: str = "") -> type[admin.SimpleListFilter]:
    """A filter on ``field`` (a foreign key to a user) that lists only the user
    chosen, reached by a ``?<parameter>=<id>`` link (a user's page, a name in a
    list; ``<field>__id__exact`` unless named) or cleared with "All"; searching
    finds anyone else. One query, and only when a user is chosen."""

    class UserFilter(admin.SimpleListFilter):
        parameter_name = parameter or f"{field}__id__exact"

        def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
            chosen = self.value()
            if not chosen or not chosen.isdigit():
                return []
            users = get_user_model().objects.filter(pk=chosen).values_list("pk", "username")
            return [(str(pk), name) for pk, name in users]

        def has_output(self) -> bool:
            return bool(self.value())

        def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
            chosen = self.value()
            if not chosen:
                return queryset
            if not chosen.isdigit():
                raise IncorrectLookupParameters(chosen)
            return queryset.filter(**{f"{field}__id": int(chosen)})

    UserFilter.title = title
    UserFilter.__name__ = f"{field.title()}Filter"
    return UserFilter

