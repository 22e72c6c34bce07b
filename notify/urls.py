from __future__ import annotations

from django.urls import path

from notify import views

app_name = "notify"

urlpatterns = [
    path("push/subscribe/", views.push_subscribe, name="push-subscribe"),
    path("push/unsubscribe/", views.push_unsubscribe, name="push-unsubscribe"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
