from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from notify import notices, texts
from notify.forms import NotifyPreferencesForm
from notify.models import Notification

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
