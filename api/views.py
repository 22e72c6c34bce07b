"""The account page's personal access tokens (/account/tokens/): make one (shown
once), see the live ones, revoke one."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from ladder import bot_accounts
from api import tokens
from api.forms import TokenForm

NEW_TOKEN = "new-api-token"  # the session key holding a new token until its page shows it


@login_required
def token_list(request: HttpRequest) -> HttpResponse:
    """The tokens, and a form for a new one. A new token is shown on the page
    the form redirects to, then never again: it is kept in the session only
    until that page takes it (and a reload does not make a second one)."""
    form = TokenForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            _, token = tokens.make(request.user, form.cleaned_data["name"], form.cleaned_data["scopes"])
        except tokens.TokenRefusal as refusal:
            form.add_error(None, str(refusal))
        else:
            request.session[NEW_TOKEN] = token
            return redirect("api-tokens:list")
    context = {"form": form, "new_token": request.session.pop(NEW_TOKEN, None) if request.method == "GET" else None,
               "tokens": tokens.live_tokens(request.user), "is_bot": bot_accounts.is_api_bot(request.user)}
    return render(request, "ladder/api_tokens.html", context, status=400 if request.method == "POST" else 200)


@login_required
@require_POST
def token_revoke(request: HttpRequest, token_id: int) -> HttpResponseRedirect:
    try:
        row = tokens.revoke(request.user, token_id)
    except tokens.TokenRefusal as refusal:
        messages.error(request, str(refusal))
    else:
        messages.success(request, gettext("Revoked %(name)s: programs using it are refused from now on.")
                         % {"name": row.name})
    return redirect("api-tokens:list")
