"""Requests no page can answer, refused before any view sees them; the API's own
shorter chain."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import ImproperlyConfigured, MiddlewareNotUsed
from django.core.handlers.base import BaseHandler
from django.core.handlers.exception import convert_exception_to_response
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.utils.deprecation import MiddlewareMixin
from django.utils.module_loading import import_string

from aceweb.http_limit import STREAMS as API_STREAMS

API_PREFIX = "/api/"


class RefuseNulInUrlMiddleware(MiddlewareMixin):
    """A URL holding a NUL character (``%00``) gets 400 Bad Request.

    URL parts reach queries straight from the views (``/@/<username>/``, the
    leaderboard's ``?q=``), and PostgreSQL text cannot hold NUL: each such view
    would otherwise answer 500. No address, search or id of this site contains
    one, so the whole request is refused here, once, for every view present and
    future (the admin's and allauth's included). Form fields need nothing here:
    Django's form fields refuse NUL themselves, as a form error. Lone
    surrogates cannot arrive over HTTP: the URL is decoded from UTF-8 with
    replacement characters.
    """

    def process_request(self, request: HttpRequest) -> HttpResponse | None:
        if "\x00" in request.path or any("\x00" in key or any("\x00" in value for value in values)
                                         for key, values in request.GET.lists()):
            message = "the address holds a NUL character (%00), which no page of this site accepts"
            if request.path.startswith("/api/"):  # the API answers every error in its one JSON shape
                return JsonResponse({"error": message}, status=400)
            return HttpResponseBadRequest(f"Bad request: {message}.", content_type="text/plain; charset=utf-8")
        return None


class ApiShortcutMiddleware:
    """Requests for the API (/api/, its streams apart) go through
    ``API_MIDDLEWARE``, a chain of its own, instead of the site's.

    A program calling the API with a token has no use for the site's session,
    CSRF, sign-in, messages, saved language, time zone cookie or allauth: the
    token says who calls (api/auth.py), ninja's views are CSRF-exempt,
    and Accept-Language alone picks the language (api/middleware.py).
    Their cost was most of an API move's: under daphne most of that middleware
    ran async, one hop to a thread and back for each hook of each one. This
    chain is all sync, so an API request takes one hop. The site's pages and
    the API's streams (async views, long-lived) keep the site's chain.

    First in MIDDLEWARE, sync only: the site's chain starts with sync
    middleware (SecurityMiddleware, WhiteNoise) as it always did.
    """

    sync_capable, async_capable = True, False

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response
        self.api = _ApiHandler()
        self.api.load_middleware()

    def __call__(self, request: HttpRequest) -> HttpResponse:
        path = request.path_info
        if path.startswith(API_PREFIX) and not path.startswith(API_STREAMS):
            request.user = AnonymousUser()  # only a token says who calls (api.auth sets it)
            return self.api.chain(request)
        return self.get_response(request)


class _ApiHandler(BaseHandler):
    """Django's request handler with API_MIDDLEWARE for MIDDLEWARE, sync only.
    Only its chain is used: the outer handler (ASGI, WSGI or the test client)
    already did the rest (urlconf, signals, logging, closing)."""

    def load_middleware(self, is_async: bool = False) -> None:
        self._view_middleware: list[Any] = []
        self._template_response_middleware: list[Any] = []
        self._exception_middleware: list[Any] = []
        handler = convert_exception_to_response(self._get_response)
        for middleware_path in reversed(settings.API_MIDDLEWARE):
            middleware = import_string(middleware_path)
            if not getattr(middleware, "sync_capable", True):
                raise ImproperlyConfigured(f"API_MIDDLEWARE: {middleware_path} is async only")
            try:
                instance = middleware(handler)
            except MiddlewareNotUsed:
                continue
            if hasattr(instance, "process_view"):
                self._view_middleware.insert(0, instance.process_view)
            if hasattr(instance, "process_template_response"):
                self._template_response_middleware.append(instance.process_template_response)
            if hasattr(instance, "process_exception"):
                self._exception_middleware.append(instance.process_exception)
            handler = convert_exception_to_response(instance)
        self.chain = handler
