from __future__ import annotations

from django.urls import path

from preferences import views

app_name = "preferences"

urlpatterns = [
    path("", views.preferences, name="edit"),
]
