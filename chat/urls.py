"""Mounted at /chat/."""

from __future__ import annotations

from django.urls import path

from chat import views

app_name = "chat"

urlpatterns = [
    path("mute/<str:username>/", views.mute, name="mute"),
]
