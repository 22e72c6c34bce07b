from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("", include("games.urls")),
    path("", include("ladder.urls")),  # player profiles at /@/<username>/, lichess style
    path("accounts/", include("allauth.urls")),
    path("admin/", admin.site.urls),
]
