from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("", include("games.urls")),
    path("ladder/", include("ladder.urls")),
    path("admin/", admin.site.urls),
]
