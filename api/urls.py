from __future__ import annotations

from django.urls import path

from api import views

app_name = "api-tokens"

urlpatterns = [
    path("", views.token_list, name="list"),
    path("<id:token_id>/revoke/", views.token_revoke, name="revoke"),
]
