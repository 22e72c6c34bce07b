from __future__ import annotations

from django.urls import path

from notify import views

app_name = "notify"

urlpatterns = [
    path("", views.notifications, name="list"),
    path("<id:pk>/", views.open_notification, name="open"),
    path("read/", views.mark_all_read, name="read-all"),
    path("preferences/", views.preferences, name="preferences"),
    path("push/subscribe/", views.push_subscribe, name="push-subscribe"),
    path("push/unsubscribe/", views.push_unsubscribe, name="push-unsubscribe"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
