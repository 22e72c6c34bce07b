from __future__ import annotations

from django.urls import path

from games import replays, views

app_name = "games"

urlpatterns = [
    path("", views.home, name="home"),
    path("rules/ace-in-the-hole/", views.rules_ace, name="rules-ace"),
    path("rules/rhombus/", views.rules_rhombus, name="rules-rhombus"),
    path("games/live/", views.live_games, name="live"),
    path("tv/", views.tv, name="tv"),
    path("tv/<str:channel>/", views.tv, name="tv-channel"),
    path("games/<id:game_id>/", views.game, name="game"),
    path("games/<id:game_id>/chat/", views.game_chat, name="chat"),
    path("games/<id:game_id>/replay/", replays.replay, name="replay"),
    path("games/<id:game_id>/record.json", replays.record_json, name="record-json"),
    path("games/<id:game_id>/record.txt", replays.record_txt, name="record-txt"),
    path("games/import/", replays.import_record, name="import"),
]
