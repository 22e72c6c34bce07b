from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

from preferences.forms import LanguageForm
from preferences.languages import language_of, save_language
from preferences.signals import set_language_cookie


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """The footer's menu: Django's set_language (cookie, then back to ``next``),
    and for a signed-in player also their saved preference, which otherwise
    would win over the cookie on the next page."""
    language = request.POST.get("language", "")
    if request.user.is_authenticated and language in dict(settings.LANGUAGES):
        save_language(request.user, language)
    return django_set_language(request)


@login_required
def preferences(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        form = LanguageForm(request.POST)
        if form.is_valid():
            language = form.cleaned_data["language"]
            save_language(request.user, language)
            response = redirect("preferences:edit")
            if language:
                set_language_cookie(response, language)
                translation.activate(language)  # the message below in the language chosen
            else:  # the browser's choice: no cookie may stand in its way
                response.delete_cookie(settings.LANGUAGE_COOKIE_NAME, path=settings.LANGUAGE_COOKIE_PATH,
                                       domain=settings.LANGUAGE_COOKIE_DOMAIN)
            messages.success(request, _("Your preferences are saved."))
            return response
    else:
        form = LanguageForm(initial={"language": language_of(request.user) or ""})
    return render(request, "preferences/preferences.html", {"form": form})
