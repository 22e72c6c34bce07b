"""The language and the time zone of each request.

LanguageMiddleware runs after AuthenticationMiddleware: Django's LocaleMiddleware
has already picked the cookie's or the browser's language, and a signed-in
player's saved language wins over both. TimeZoneMiddleware makes every time
Django renders the viewer's, from the ``tz`` cookie that static/js/zone.js sets.
"""

from __future__ import annotations

import zoneinfo

from django.http import HttpRequest, HttpResponse
from django.utils import timezone, translation
from django.utils.deprecation import MiddlewareMixin

from preferences.languages import language_of
from preferences.signals import pending_cookie, set_language_cookie

TIME_ZONE_COOKIE = "tz"


class LanguageMiddleware(MiddlewareMixin):
    """A signed-in player's saved language, over the cookie's and the browser's.
    (MiddlewareMixin: the API's async streams keep running as coroutines.)"""

    def process_request(self, request: HttpRequest) -> None:
        language = language_of(getattr(request, "user", None))
        if language:
            translation.activate(language)
            request.LANGUAGE_CODE = language

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        # A sign-in in this request: the saved language travels in the cookie.
        signed_in_language = pending_cookie(request)
        if signed_in_language:
            set_language_cookie(response, signed_in_language)
        return response


def zone_named(name: str) -> zoneinfo.ZoneInfo | None:
    """The IANA zone ``name`` (``Europe/Berlin``), or None if it is not one.

    >>> zone_named("Europe/Berlin").key, zone_named("Mars/Olympus"), zone_named("../etc/passwd")
    ('Europe/Berlin', None, None)
    """
    if not name or len(name) > 64:
        return None
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
        return None


class TimeZoneMiddleware(MiddlewareMixin):
    """The viewer's zone for every time rendered; UTC without a valid cookie."""

    def process_request(self, request: HttpRequest) -> None:
        zone = zone_named(request.COOKIES.get(TIME_ZONE_COOKIE, ""))
        if zone is None:
            timezone.deactivate()  # settings.TIME_ZONE, UTC
        else:
            timezone.activate(zone)

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        timezone.deactivate()  # the thread serves another viewer next
        return response
