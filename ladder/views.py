"""Ladder pages: player profiles (standings and tournaments come later)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render


def profile(request: HttpRequest, username: str) -> HttpResponse:
    """A player's public page, as lichess's /@/<username>.

    `games` is empty until the games app can list a player's games; the
    template already shows the list, or says there is none.
    """
    player = get_object_or_404(get_user_model(), username=username, is_active=True)
    context = {
        "player": player,
        "is_self": request.user == player,
        "games": [],
    }
    return render(request, "ladder/profile.html", context)
