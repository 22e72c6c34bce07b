from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest, HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.urls import include, path, re_path
from django.views.decorators.cache import cache_page
from django.utils.translation import gettext_lazy as _
from django.views.i18n import JavaScriptCatalog

from api.main import api, no_such_address
from notify import views as notify_views
from preferences import views as preferences_views


def favicon(request: HttpRequest) -> HttpResponsePermanentRedirect:
    """Browsers ask for /favicon.ico on pages that name no icon (the admin's, raw files)."""
    return HttpResponsePermanentRedirect(static("favicon.svg"))


# The admin's header, tab title and front page name the site, not Django, in the admin's language.
admin.site.site_header = _("aceweb administration")
admin.site.site_title = _("aceweb admin")
admin.site.index_title = _("aceweb site administration")

urlpatterns = [
    path("", include("games.urls")),
    path("", include("ladder.urls")),  # player profiles at /@/<username>/, lichess style
    path("", include("relation.urls")),  # following, at /@/<username>/follow/
    path("tournaments/", include("tournaments.urls")),
    path("report/", include("moderation.urls")),
    path("chat/", include("chat.urls")),
    path("notifications/", include("notify.urls")),
    # The web push service worker, at the root so that its scope is the whole site.
    path("sw.js", notify_views.service_worker, name="service-worker"),
    path("api/", api.urls),
    re_path(r"^api/", no_such_address),  # after the API's own: whatever none of them matched, newlines too
    path("account/tokens/", include("api.urls")),
    path("account/preferences/", include("preferences.urls")),
    path("accounts/", include("allauth.urls")),
    path("admin/", admin.site.urls),
    path("favicon.ico", favicon),
    # The footer's language menu: Django's set_language, which also saves a signed-in player's choice.
    path("i18n/setlang/", preferences_views.set_language, name="set_language"),
    # The catalog of the texts JavaScript writes. cache_page keys it by the active
    # language; base.html adds the language to its address, so a browser's cached
    # copy of one language is never used for another.
    path("jsi18n/", cache_page(3600)(JavaScriptCatalog.as_view()), name="javascript-catalog"),
]
