"""The API's language: the ``Accept-Language`` header, and nothing else.

Pages take a signed-in player's saved language, then the language cookie, then
the browser's (django's LocaleMiddleware, preferences.middleware). A program is
not a browser: an API answer must not change with a cookie or a session that
happens to travel with the request, and a client that asks for no language
gets English, as the API has always answered (docs/api.md, "Languages").
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.deprecation import MiddlewareMixin
from django.utils.translation.trans_real import parse_accept_lang_header

API_PREFIX = "/api/"


def accepted_language(header: str) -> str | None:
    """The first of ``header``'s languages that the site speaks, or None.

    >>> accepted_language("fr-CH, de-AT;q=0.8"), accepted_language(""), accepted_language("*")
    ('de', None, None)
    """
    for code, _quality in parse_accept_lang_header(header):
        if code == "*":
            continue
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return None


class ApiLanguageMiddleware(MiddlewareMixin):
    """Under /api/, the language of ``Accept-Language`` (English without one),
    over whatever the cookie, the session or a saved preference chose; and the
    headers that say so, as LocaleMiddleware's (which the API's own chain,
    aceweb.middleware.ApiShortcutMiddleware, goes without)."""

    def process_request(self, request: HttpRequest) -> None:
        if request.path_info.startswith(API_PREFIX):
            language = accepted_language(request.META.get("HTTP_ACCEPT_LANGUAGE", "")) or settings.LANGUAGE_CODE
            translation.activate(language)
            request.LANGUAGE_CODE = language

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        if request.path_info.startswith(API_PREFIX):
            patch_vary_headers(response, ("Accept-Language",))
            response.headers.setdefault("Content-Language", translation.get_language())
        return response
