"""Requests no page can answer, refused before any view sees them."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.utils.deprecation import MiddlewareMixin


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
