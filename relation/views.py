"""The follow button's POST (a player's profile, templates/ladder/profile.html)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from relation import follows


@require_POST
@login_required
def follow(request: HttpRequest, username: str) -> HttpResponse:
    """Follow ``username`` (``follow=off``: unfollow), then back to the page."""
    other = get_object_or_404(get_user_model(), username=username, is_active=True)
    name = other.get_username()
    if request.POST.get("follow") == "off":
        follows.unfollow(request.user, other)
        messages.success(request, gettext("You no longer follow %(name)s.") % {"name": name})
    else:
        try:
            follows.follow(request.user, other)
        except follows.Refusal as refusal:
            messages.error(request, str(refusal))
        else:
            messages.success(request, gettext("You follow %(name)s: their games show first on the live list.")
                             % {"name": name})
    return HttpResponseRedirect(_back(request, reverse("ladder:profile", args=[name])))


def _back(request: HttpRequest, default: str) -> str:
    target = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(target, {request.get_host()}, require_https=request.is_secure()):
        return target
    return default
