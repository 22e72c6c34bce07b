from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.boards import starting_board


def home(request: HttpRequest) -> HttpResponse:
    """The front page: what the game is, with its starting position."""
    ctx = {"board": starting_board(), "captured": {"red": [], "black": []}}
    return render(request, "games/home.html", ctx)
