"""The export permissions: ``<app>.export_<model>`` for each list in the admin
that exports (adminkit/export.py), made after every migrate (and flush) as
Django makes its own add/change/delete/view ones, so none is ever missing and
no app needs a migration for it, auth's User included (its Meta is Django's).
They are held by no group: a superuser grants them to whom may take data away."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.db import DEFAULT_DB_ALIAS

from adminkit.export import ExportMixin


def make_export_permissions(using: str = DEFAULT_DB_ALIAS, **kwargs: Any) -> None:
    for model, model_admin in admin.site._registry.items():
        if not isinstance(model_admin, ExportMixin):
            continue
        content_type = ContentType.objects.db_manager(using).get_for_model(model)
        Permission.objects.db_manager(using).get_or_create(
            content_type=content_type, codename=f"export_{model._meta.model_name}",
            defaults={"name": f"Can export {model._meta.verbose_name_plural} as CSV"})
