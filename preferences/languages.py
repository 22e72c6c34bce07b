"""Which language to speak to a person, wherever the words are made.

Views get it from the middleware (preferences.middleware); consumers and Celery
tasks run no middleware, so they ask here: ``with speaking(user): ...`` around
whatever they word for that person, and ``language_from_scope(scope)`` for a
socket's own client. Everything here is synchronous (it may query the database):
call it from a consumer's ``database_sync_to_async`` work.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from http.cookies import SimpleCookie
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation.trans_real import parse_accept_lang_header

from preferences.models import Preference

_CACHE = "_preferred_language"  # on the user object: one query per user per request or task


def supported(code: str | None) -> str | None:
    """``code`` as one of settings.LANGUAGES (``de-AT`` → ``de``), or None.

    >>> supported("de-AT"), supported("xx"), supported("")
    ('de', None, None)
    """
    if not code:
        return None
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return None


def language_of(user: Any) -> str | None:
    """The language ``user`` saved on their account, or None (anonymous, none
    saved, or one the site no longer offers). Remembered on the user object."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    if hasattr(user, _CACHE):
        return getattr(user, _CACHE)
    saved = Preference.objects.filter(user_id=user.pk).values_list("language", flat=True).first()
    language = supported(saved)
    setattr(user, _CACHE, language)
    return language


def forget_language(user: Any) -> None:
    """Drop the remembered answer (after the preference changes)."""
    if hasattr(user, _CACHE):
        delattr(user, _CACHE)


def save_language(user: Any, language: str) -> None:
    """Save ``language`` (a code from settings.LANGUAGES, or "" for the browser's)."""
    Preference.objects.update_or_create(user=user, defaults={"language": language})
    forget_language(user)


@contextmanager
def speaking(user: Any, fallback: str | None = None) -> Iterator[str]:
    """Translate in ``user``'s saved language, else ``fallback``, else the
    site's default; yields the language used."""
    language = language_of(user) or supported(fallback) or settings.LANGUAGE_CODE
    with translation.override(language):
        yield language


def _headers(scope: dict[str, Any]) -> dict[str, str]:
    return {
        name.decode("latin-1").lower(): value.decode("latin-1")
        for name, value in scope.get("headers", ())
    }


def _cookie_language(scope: dict[str, Any], headers: dict[str, str]) -> str | None:
    cookies = scope.get("cookies")
    if cookies is None:  # no CookieMiddleware in front: read the handshake's header
        jar = SimpleCookie()
        try:
            jar.load(headers.get("cookie", ""))
        except Exception:  # a malformed Cookie header is the client's problem, not a 500
            return None
        cookies = {key: morsel.value for key, morsel in jar.items()}
    return supported(cookies.get(settings.LANGUAGE_COOKIE_NAME))


def _accepted_language(headers: dict[str, str]) -> str | None:
    for code, _quality in parse_accept_lang_header(headers.get("accept-language", "")):
        if code != "*" and (language := supported(code)):
            return language
    return None


def language_from_scope(scope: dict[str, Any]) -> str | None:
    """The language of a Channels connection's person, as a page would pick it:
    their saved preference, else the language cookie sent with the handshake,
    else the handshake's Accept-Language; None when none of them names one of
    ours (use the site's default then)."""
    headers = _headers(scope)
    return (
        language_of(scope.get("user"))
        or _cookie_language(scope, headers)
        or _accepted_language(headers)
    )
