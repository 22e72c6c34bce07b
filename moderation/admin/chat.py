"""Every room's chat lines for moderators, with the acts on each, and the
timeouts those acts made."""

from __future__ import annotations


from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy

from adminkit.filters import user_filter
from chat import lines as chat_lines
from chat.models import ChatTimeout, Line
from moderation import admin_links as links
from moderation.admin.acts import ReadOnlyAdmin
from moderation.models import ModerationAction


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
