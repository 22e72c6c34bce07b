from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from notify import mail, notices, push, texts
from notify.forms import NotifyPreferencesForm
from notify.models import Kind, Notification
from preferences.languages import speaking

PER_PAGE = 20


@login_required
def notifications(request: HttpRequest) -> HttpResponse:
    """The player's notices, newest first, the unread ones marked."""
    page = Paginator(Notification.objects.filter(user=request.user).order_by("-created", "-pk"), PER_PAGE) \
        .get_page(request.GET.get("page"))
    rows = [{"notification": n, "text": texts.describe(n.kind, n.params)} for n in page.object_list]
    return render(request, "notify/notifications.html", {"page": page, "rows": rows})


@login_required
def open_notification(request: HttpRequest, pk: int) -> HttpResponse:
    """Opening a notice marks it read and follows its link (the list if it has none)."""
    notification = notices.mark_read(request.user.pk, pk)
    url = notification.url if notification is not None else ""
    if url and url_has_allowed_host_and_scheme(url, allowed_hosts={request.get_host()}):
        return redirect(url)
    return redirect("notify:list")


@login_required
@require_POST
def mark_all_read(request: HttpRequest) -> HttpResponse:
    notices.mark_all_read(request.user.pk)
    return redirect("notify:list")


@login_required
@require_POST
def preferences(request: HttpRequest) -> HttpResponse:
    """The account page's "Notifications" form (preferences/preferences.html
    shows it through the notify_preferences tag)."""
    form = NotifyPreferencesForm(request.POST, user_id=request.user.pk)
    if form.is_valid():
        notices.hide_kinds(request.user.pk, form.save())
        messages.success(request, _("Your notification settings are saved."))
    return redirect(reverse("preferences:edit") + "#notifications")


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
    done = request.method == "POST"
    if done:
        mail.stop_emails(user_id, kind)
    elif request.method not in ("GET", "HEAD"):
        return HttpResponse(status=405)
    # The token says whose mail this is: their saved language, as the mail had
    # (issue 35, 14), not the language of whatever browser follows the link.
    with speaking(user, fallback=translation.get_language()) as language:
        what = _("every e-mail from aceweb") if kind == mail.ALL_KINDS else str(Kind(kind).label)
        response = render(request, "notify/unsubscribe.html", {"what": what, "done": done, "token": token,
                                                               "email": user.email, "site": settings.SITE_URL})
    response["Content-Language"] = language
    return response
