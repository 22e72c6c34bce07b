"""Tournament pages under /tournaments/."""

from __future__ import annotations

from django.urls import path

from tournaments import views

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("new/", views.create, name="create"),
    path("<id:tournament_id>/", views.detail, name="detail"),
    path("<id:tournament_id>/live/", views.live, name="live"),
    path("<id:tournament_id>/next/", views.next_round, name="next"),
    path("<id:tournament_id>/edit/", views.edit, name="edit"),
    path("<id:tournament_id>/trf/", views.trf_download, name="trf"),
    path("<id:tournament_id>/join/", views.join, name="join"),
    path("<id:tournament_id>/withdraw/", views.withdraw, name="withdraw"),
    path("<id:tournament_id>/check-in/", views.check_in, name="check-in"),
    path("<id:tournament_id>/remove/<id:entry_id>/", views.remove_player, name="remove"),
    path("<id:tournament_id>/disqualify/<id:entry_id>/", views.disqualify, name="disqualify"),
    path("<id:tournament_id>/invite-bot/", views.invite_bot, name="invite-bot"),
    path("<id:tournament_id>/adjudicate/<id:pairing_id>/", views.adjudicate, name="adjudicate"),
    path("<id:tournament_id>/seeds/", views.seeds, name="seeds"),
    path("<id:tournament_id>/forbid/", views.forbid, name="forbid"),
    path("<id:tournament_id>/chat-for/", views.chat_for, name="chat-for"),
    path("<id:tournament_id>/allow/<id:forbidden_id>/", views.allow, name="allow"),
    path("<id:tournament_id>/<str:verb>/", views.organize, name="organize"),
]
