from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from notify import mail, push
from notify.models import Kind


def _json_body(request: HttpRequest) -> dict[str, Any]:
    try:
        data = json.loads(request.body or b"{}")
    except (UnicodeDecodeError, ValueError):
        raise push.Refused(_("The request is not JSON.")) from None
    if not isinstance(data, dict):
        raise push.Refused(_("The request is not a JSON object."))
    return data


def _signed_in(request: HttpRequest) -> JsonResponse | None:
    """JSON callers get a JSON refusal, not the sign-in page."""
    if request.user.is_authenticated:
        return None
    return JsonResponse({"error": _("Sign in to turn on browser notifications.")}, status=403)


@require_POST
def push_subscribe(request: HttpRequest) -> JsonResponse:
    """The browser's PushSubscription.toJSON(): {endpoint, keys: {p256dh, auth}}."""
    if refused := _signed_in(request):
        return refused
    if not push.enabled():
        return JsonResponse({"error": _("Browser notifications are not set up on this site.")}, status=503)
    try:
        data = _json_body(request)
        keys = data.get("keys")
        keys = keys if isinstance(keys, dict) else {}
        push.subscribe(request.user, str(data.get("endpoint", "")), str(keys.get("p256dh", "")),
                       str(keys.get("auth", "")))
    except push.Refused as error:
        return JsonResponse({"error": str(error)}, status=400)
    return JsonResponse({"subscribed": True}, status=201)


@require_POST
def push_unsubscribe(request: HttpRequest) -> JsonResponse:
    if refused := _signed_in(request):
        return refused
    try:
        endpoint = str(_json_body(request).get("endpoint", ""))
    except push.Refused as error:
        return JsonResponse({"error": str(error)}, status=400)
    return JsonResponse({"unsubscribed": push.unsubscribe(request.user, endpoint)})


@require_GET
@cache_control(no_cache=True)  # browsers look for a new worker on each visit; always ask
def service_worker(request: HttpRequest) -> HttpResponse:
    """static/js/sw.js at the site's root, so that its scope is the whole site."""
    response = HttpResponse(render_to_string("notify/sw.js"), content_type="text/javascript")
    response["Service-Worker-Allowed"] = "/"
    return response


@csrf_exempt  # mail programs post here without a cookie (RFC 8058); the signed token is the authority
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """An e-mail's unsubscribe link, signed out: GET asks, POST (the page's
    button, or a mail program's one-click List-Unsubscribe-Post) does it."""
    try:
        user_id, kind = mail.read_unsubscribe_token(token)
    except signing.BadSignature:
        return render(request, "notify/unsubscribe.html", {"invalid": True}, status=400)
    user = get_user_model().objects.filter(pk=user_id).first()
    if user is None:
        return render(request, "notify/unsubscribe.html", {"invalid": True}, status=400)
    what = _("every e-mail from aceweb") if kind == mail.ALL_KINDS else str(Kind(kind).label)
    done = request.method == "POST"
    if done:
        mail.stop_emails(user_id, kind)
    elif request.method not in ("GET", "HEAD"):
        return HttpResponse(status=405)
    return render(request, "notify/unsubscribe.html", {"what": what, "done": done, "token": token,
                                                       "email": user.email, "site": settings.SITE_URL})
