from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest, HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.urls import include, path

from ladder.api.main import api


def favicon(request: HttpRequest) -> HttpResponsePermanentRedirect:
    """Browsers ask for /favicon.ico on pages that name no icon (the admin's, raw files)."""
    return HttpResponsePermanentRedirect(static("favicon.svg"))


urlpatterns = [
    path("", include("games.urls")),
    path("", include("ladder.urls")),  # player profiles at /@/<username>/, lichess style
    path("tournaments/", include("ladder.tournaments.urls")),
    path("report/", include("ladder.moderation.urls")),
    path("api/", api.urls),
    path("account/tokens/", include("ladder.api.urls")),
    path("accounts/", include("allauth.urls")),
    path("admin/", admin.site.urls),
    path("favicon.ico", favicon),
]
