"""Mounted at the site root: ladder pages name their own prefixes."""

from __future__ import annotations

from django.urls import path

from ladder import views

app_name = "ladder"

urlpatterns = [
    path("@/<str:username>/", views.profile, name="profile"),
]
