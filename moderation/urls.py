"""Mounted at /report/."""

from __future__ import annotations

from django.urls import path

from moderation import views

app_name = "moderation"

urlpatterns = [
    path("@/<str:username>/", views.report_player, name="report-player"),
    path("game/<id:game_id>/", views.report_game, name="report-game"),
    path("appeal/", views.appeal, name="appeal"),
    path("line/<id:line_id>/", views.report_line, name="report-line"),
    path("chat/<id:line_id>/<str:act>/", views.chat_act, name="chat-act"),
]
