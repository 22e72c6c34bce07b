"""API tokens in the admin: find a token by its owner or its first characters
(the hint a leaked token shows: ``acew_Ab12…``) and revoke it with a reason.

Nothing of a token can be edited, nor a token made here (only its owner makes
one, on the account page); its digest is never shown. Revoking asks why,
keeps why and who on the token, and notes it in Django's admin history
(LogEntry) of each token revoked.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.admin.models import CHANGE, LogEntry
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.utils.translation import gettext, gettext_lazy, ngettext

from api import tokens
from api.models import PREFIX, ApiToken


class RevokeForm(forms.Form):
    reason = forms.CharField(label=gettext_lazy("Why"), widget=forms.Textarea(attrs={"rows": 3}), max_length=500,
                             help_text=gettext_lazy("Kept on each token revoked, with your name."))


@admin.action(description=gettext_lazy("Revoke the selected tokens"), permissions=["change"])
def revoke_selected(modeladmin: ApiTokenAdmin, request: HttpRequest,
                    queryset: QuerySet[ApiToken]) -> TemplateResponse | None:
    """First a page asking why; then, with a reason, the live ones are revoked."""
    form = RevokeForm(request.POST if "revoke" in request.POST else None)
    if not form.is_bound or not form.is_valid() or not form.cleaned_data["reason"].strip():
        if form.is_bound and form.is_valid():
            form.add_error("reason", gettext("say why: the reason is kept on the token"))
        return TemplateResponse(request, "admin/api/apitoken/revoke.html", {
            **modeladmin.admin_site.each_context(request), "title": gettext("Revoke API tokens"),
            "opts": modeladmin.model._meta, "tokens": queryset.select_related("user"), "form": form,
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME, "media": modeladmin.media})
    reason = form.cleaned_data["reason"].strip()
    with transaction.atomic():
        revoked = tokens.revoke_live(queryset, reason, by=request.user)
        if revoked:
            LogEntry.objects.log_actions(user_id=request.user.pk, queryset=revoked, action_flag=CHANGE,
                                         change_message=f"Revoked. Why: {reason}"[:2000], single_object=False)
    if revoked:
        modeladmin.message_user(request, ngettext("Revoked %(count)s token.", "Revoked %(count)s tokens.",
                                                  len(revoked)) % {"count": len(revoked)}, messages.SUCCESS)
    else:
        modeladmin.message_user(request, gettext("Nothing to revoke: those tokens were revoked already."),
                                messages.WARNING)
    return None


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("hint_shown", "user", "name", "scopes", "created", "last_used", "revoked", "revoked_by")
    list_filter = (("revoked", admin.EmptyFieldListFilter),)
    list_select_related = ("user", "revoked_by")
    search_fields = ("user__username",)
    search_help_text = gettext_lazy("A username, or a token's first characters (acew_…): "
                                    "a leaked token pasted whole finds its row.")
    fields = ("user", "name", "hint_shown", "scopes", "created", "last_used", "revoked", "revoked_reason",
              "revoked_by")
    readonly_fields = fields
    actions = [revoke_selected]
    ordering = ("-created",)

    @admin.display(description=gettext_lazy("token begins"), ordering="hint")
    def hint_shown(self, token: ApiToken) -> str:
        return f"{token.hint}…"

    def get_search_results(self, request: HttpRequest, queryset: QuerySet[ApiToken],
                           search_term: str) -> tuple[QuerySet[ApiToken], bool]:
        """A token's beginning is looked up by its hint (the first characters
        kept); only that much of a pasted token is compared, never stored or shown."""
        term = search_term.strip()
        if term.startswith(PREFIX):
            return queryset.filter(hint__startswith=term[:tokens.HINT_LENGTH]), False
        return super().get_search_results(request, queryset, search_term)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # only its owner makes a token, and sees it once

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # revoke instead: the row keeps when, why and who
