"""Muting from a profile (issue 25): POST only, back to where the form was."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from chat import lines


@require_POST
@login_required
def mute(request: HttpRequest, username: str) -> HttpResponse:
    other = get_object_or_404(get_user_model(), username=username)
    if other.pk == request.user.pk:
        messages.error(request, gettext("You cannot mute yourself."))
    elif request.POST.get("mute") == "off":
        lines.unmute(request.user, other)
        messages.success(request, gettext("You no longer mute %(name)s.") % {"name": other.get_username()})
    else:
        lines.mute(request.user, other)
        messages.success(request, gettext("You mute %(name)s: their chat lines are hidden from you everywhere, "
                                          "and their challenges to you are declined.")
                         % {"name": other.get_username()})
    return HttpResponseRedirect(_back(request))


def _back(request: HttpRequest) -> str:
    target = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(target, {request.get_host()}, require_https=request.is_secure()):
        return target
    return "/"
