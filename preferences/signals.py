"""On sign-in, the saved language goes into the language cookie, so that it
travels with the browser (also to pages served before the middleware runs,
and to the sockets' handshakes)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.http import HttpRequest

from preferences.languages import language_of

_PENDING = "_language_cookie"


def remember_on_sign_in(sender: Any, request: HttpRequest, user: Any, **kwargs: Any) -> None:
    language = language_of(user)
    if language:
        setattr(request, _PENDING, language)


def set_language_cookie(response: Any, language: str) -> None:
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )


def pending_cookie(request: HttpRequest) -> str | None:
    """The language a sign-in during this request asks to put in the cookie."""
    return getattr(request, _PENDING, None)


def connect_signals() -> None:
    # Django's signal, not allauth's: allauth's sign-in goes through
    # django.contrib.auth.login, which sends it, and so does the admin's, and
    # this app imports only Django.
    user_logged_in.connect(remember_on_sign_in, dispatch_uid="preferences.remember_on_sign_in")
