"""Mounted at the site root, beside the profiles (/@/<username>/)."""

from __future__ import annotations

from django.urls import path

from relation import views

app_name = "relation"

urlpatterns = [
    path("@/<str:username>/follow/", views.follow, name="follow"),
]
