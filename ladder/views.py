"""Ladder pages: player profiles, the lobby, and the form fallbacks for seeks and challenges.

With JavaScript the pages act over the lobby socket (static/js/lobby.js); the
POST views below do the same through ladder.lobby for browsers without it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from games.models import Game
from games.records import games_of
from games.timecontrols import CORRESPONDENCE, REAL_TIME
from ladder import lobby
from ladder.forms import GameOptionsForm


def _options_context() -> dict[str, Any]:
    """What the game-options partial needs: every offered control, grouped."""
    return {"real_time": REAL_TIME, "correspondence": CORRESPONDENCE, "default_control": "5+3"}


def profile(request: HttpRequest, username: str) -> HttpResponse:
    """A player's public page, as lichess's /@/<username>: recent games, and a
    Challenge form for others."""
    player = get_object_or_404(get_user_model(), username=username, is_active=True)
    is_self = request.user == player
    context = {
        "player": player,
        "is_self": is_self,
        "can_challenge": request.user.is_authenticated and not is_self,
        "game_rows": games_of(player, 20),
        "challenges": lobby.pending_challenges(request.user),
        **_options_context(),
    }
    return render(request, "ladder/profile.html", context)


def lobby_page(request: HttpRequest) -> HttpResponse:
    """Open seeks (live over the lobby socket), the Create form and the player's challenges."""
    context = {
        "seeks": lobby.open_seeks(request.user),
        "challenges": lobby.pending_challenges(request.user),
        **_options_context(),
    }
    return render(request, "ladder/lobby.html", context)


# --- Form fallbacks -------------------------------------------------------


def _attempt(request: HttpRequest, change: Callable[[], Any], back: str, done: str) -> HttpResponse:
    """Run a lobby change: to the game if one started, else back with a message."""
    try:
        result = change()
    except lobby.LobbyRefusal as refusal:
        messages.error(request, str(refusal))
        return redirect(back)
    if isinstance(result, Game):
        return HttpResponseRedirect(lobby.game_url(result.pk))
    messages.success(request, done)
    return redirect(back)


def _options(request: HttpRequest) -> dict[str, Any]:
    form = GameOptionsForm(request.POST)
    if not form.is_valid():
        raise lobby.LobbyRefusal("choose a time control, rated or casual, and a colour")
    return form.options()


@login_required
@require_POST
def seek_create(request: HttpRequest) -> HttpResponse:
    return _attempt(request, lambda: lobby.create_seek(request.user, **_options(request)),
                    reverse("ladder:lobby"), "Your seek is in the lobby.")


@login_required
@require_POST
def seek_accept(request: HttpRequest, seek_id: int) -> HttpResponse:
    return _attempt(request, lambda: lobby.accept_seek(seek_id, request.user), reverse("ladder:lobby"), "")


@login_required
@require_POST
def seek_cancel(request: HttpRequest, seek_id: int) -> HttpResponse:
    return _attempt(request, lambda: lobby.cancel_seek(seek_id, request.user),
                    reverse("ladder:lobby"), "Seek cancelled.")


@login_required
@require_POST
def challenge_create(request: HttpRequest, username: str) -> HttpResponse:
    return _attempt(request, lambda: lobby.create_challenge(request.user, username, **_options(request)),
                    reverse("ladder:profile", args=[username]), f"You challenged {username}.")


ANSWERS = {"accept": lobby.accept_challenge, "decline": lobby.decline_challenge,
           "cancel": lobby.cancel_challenge}


@login_required
@require_POST
def challenge_answer(request: HttpRequest, challenge_id: int, answer: str) -> HttpResponse:
    change = ANSWERS.get(answer)
    if change is None:
        return HttpResponse(status=404)
    return _attempt(request, lambda: change(challenge_id, request.user), reverse("ladder:lobby"),
                    f"Challenge {answer}d." if answer != "cancel" else "Challenge cancelled.")
