"""Tournament pages under /tournaments/."""

from __future__ import annotations

from django.urls import path

from ladder.tournaments import views

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("new/", views.create, name="create"),
    path("<int:tournament_id>/", views.detail, name="detail"),
    path("<int:tournament_id>/live/", views.live, name="live"),
    path("<int:tournament_id>/next/", views.next_round, name="next"),
    path("<int:tournament_id>/edit/", views.edit, name="edit"),
    path("<int:tournament_id>/trf/", views.trf_download, name="trf"),
    path("<int:tournament_id>/join/", views.join, name="join"),
    path("<int:tournament_id>/withdraw/", views.withdraw, name="withdraw"),
    path("<int:tournament_id>/check-in/", views.check_in, name="check-in"),
    path("<int:tournament_id>/remove/<int:entry_id>/", views.remove_player, name="remove"),
    path("<int:tournament_id>/invite-bot/", views.invite_bot, name="invite-bot"),
    path("<int:tournament_id>/adjudicate/<int:pairing_id>/", views.adjudicate, name="adjudicate"),
    path("<int:tournament_id>/seeds/", views.seeds, name="seeds"),
    path("<int:tournament_id>/forbid/", views.forbid, name="forbid"),
    path("<int:tournament_id>/chat-for/", views.chat_for, name="chat-for"),
    path("<int:tournament_id>/allow/<int:forbidden_id>/", views.allow, name="allow"),
    path("<int:tournament_id>/<str:verb>/", views.organize, name="organize"),
]
