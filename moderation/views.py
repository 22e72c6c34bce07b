"""Reporting a player: a page with a POST form, from a profile or a finished game;
and appealing: the page where a restricted or playbanned player writes to the moderators."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from games.models import Game
from ids.rows import row_id
from moderation import restrictions
from moderation.forms import AppealForm, GameReportForm, ReportForm
from chat.models import Line
from moderation import actions
from moderation.models import ModerationAction
from moderation.reports import (ReportRefusal, file_appeal, file_line_report, file_report,
                                       players_to_report)


@login_required
def report_player(request: HttpRequest, username: str) -> HttpResponse:
    reported = get_object_or_404(get_user_model(), username=username, is_active=True)
    form = ReportForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        done = _file(request, form, username, None, reverse("ladder:profile", args=[username]))
        if done is not None:
            return done
    title = gettext("Report %(name)s") % {"name": reported.get_username()}
    return _page(request, form, title, None, status=400 if form.errors else 200)


@login_required
def report_game(request: HttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    form = GameReportForm(request.POST or None, players=players_to_report(game, request.user))
    if request.method == "POST" and form.is_valid():
        done = _file(request, form, form.cleaned_data["player"], game.pk, reverse("games:game", args=[game.pk]))
        if done is not None:
            return done
    title = gettext("Report a player of game %(game)s") % {"game": game.pk}
    return _page(request, form, title, game, status=400 if form.errors else 200)


def _file(request: HttpRequest, form: ReportForm, username: str, game_id: int | None,
          back: str) -> HttpResponseRedirect | None:
    """Store the report and go back where the reporter came from, or put the refusal on the form."""
    try:
        file_report(request.user, username, form.cleaned_data["reason"], form.cleaned_data["text"], game_id)
    except ReportRefusal as refusal:
        form.add_error(None, str(refusal))
        return None
    messages.success(request, gettext("Thank you: your report on %(name)s is with the moderators.")
                     % {"name": username})
    return redirect(back)


def _page(request: HttpRequest, form: ReportForm, title: str, game: Game | None, status: int) -> HttpResponse:
    return render(request, "moderation/report.html", {"form": form, "title": title, "game": game}, status=status)


@login_required
def appeal(request: HttpRequest) -> HttpResponse:
    """What the player is under now, with the reasons, and a form to appeal."""
    form = AppealForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            file_appeal(request.user, form.cleaned_data["text"])
        except ReportRefusal as refusal:
            form.add_error(None, str(refusal))
        else:
            messages.success(request, gettext("Your appeal is with the moderators."))
            return redirect("ladder:lobby")
    return render(request, "moderation/appeal.html", {"form": form, "in_force": restrictions.in_force(request.user)},
                  status=400 if form.errors else 200)


# --- From a chat line's menu (issue 25): JSON for the page's script -------------------


@require_POST
@login_required
def report_line(request: HttpRequest, line_id: int) -> JsonResponse:
    try:
        file_line_report(request.user, line_id)
    except ReportRefusal as refusal:
        return JsonResponse({"message": _sentence(str(refusal))}, status=400)
    return JsonResponse({"message": gettext("Thank you: the line is with the moderators.")})


# A chat act done from the page, and what it needs besides the line.
_PAGE_ACTS = {"remove": ModerationAction.Kind.CHAT_REMOVE, "timeout": ModerationAction.Kind.CHAT_TIMEOUT,
              "clear": ModerationAction.Kind.CHAT_CLEAR}


@require_POST
@login_required
def chat_act(request: HttpRequest, line_id: int, act: str) -> JsonResponse:
    """A moderator's act on a line from the page, logged as a ModerationAction
    like the admin's (moderation.actions checks the permission)."""
    line = get_object_or_404(Line.objects.select_related("author"), pk=line_id)
    if act not in _PAGE_ACTS:
        return JsonResponse({"message": gettext("Unknown act.")}, status=400)
    minutes = request.POST.get("minutes", "")
    reason = request.POST.get("reason", "")
    action = ModerationAction(
        kind=_PAGE_ACTS[act], moderator=request.user, user=line.author, chat_line=line,
        minutes=row_id(minutes), chat_reason=reason if act == "timeout" else "",
        reason=gettext("From the chat of %(room)s, about: %(said)s") % {
            "room": line.room, "said": line.text or line.preset})
    try:
        actions.perform(action)
    except actions.ModerationRefusal as refusal:
        return JsonResponse({"message": _sentence(str(refusal))}, status=400)
    return JsonResponse({"message": gettext("Done: %(outcome)s.") % {"outcome": action.outcome}})


def _sentence(clause: str) -> str:
    return clause[:1].upper() + clause[1:]
