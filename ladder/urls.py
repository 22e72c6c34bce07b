"""Mounted at the site root: ladder pages name their own prefixes."""

from __future__ import annotations

from django.urls import path

from ladder import views

app_name = "ladder"

urlpatterns = [
    path("@/<str:username>/", views.profile, name="profile"),
    path("@/<str:username>/challenge/", views.challenge_create, name="challenge-create"),
    path("ladder/", views.leaderboard_page, name="leaderboard"),
    path("lobby/", views.lobby_page, name="lobby"),
    path("lobby/computer/", views.computer_create, name="computer-create"),
    path("lobby/seek/", views.seek_create, name="seek-create"),
    path("lobby/seek/<id:seek_id>/accept/", views.seek_accept, name="seek-accept"),
    path("lobby/seek/<id:seek_id>/join/", views.seek_join, name="seek-join"),
    path("lobby/seek/<id:seek_id>/leave/", views.seek_leave, name="seek-leave"),
    path("lobby/seek/<id:seek_id>/cancel/", views.seek_cancel, name="seek-cancel"),
    path("lobby/challenge/<id:challenge_id>/<str:answer>/", views.challenge_answer, name="challenge-answer"),
]
