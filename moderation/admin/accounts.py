"""An account as moderators see it on the User page: links to everything about
the player, their restrictions (with a lift link each) and acts, and nothing
the viewer may not use (no password link without the right to change it)."""

from __future__ import annotations

from typing import Any


from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import ReadOnlyPasswordHashField, ReadOnlyPasswordHashWidget
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext_lazy

from adminkit.export import Column, Export, ExportMixin
from moderation import admin_links as links
from moderation.admin.acts import ReadOnlyAdmin
from moderation.models import ModerationAction, Restriction

User = get_user_model()

# Never a password hash; an e-mail address only in a superuser's export.
USER_EXPORT = Export([
    Column("id", "pk"), Column("username", "username"), Column("date_joined", "date_joined"),
    Column("last_login", "last_login"), Column("is_active", "is_active"), Column("is_staff", "is_staff"),
    Column("is_superuser", "is_superuser")], superuser_columns=[Column("email", "email")])

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
