from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from games.boards import starting_board
from games.models import Game


def home(request: HttpRequest) -> HttpResponse:
    """The front page: what the game is, with its starting position."""
    ctx = {"board": starting_board(), "captured": {"red": [], "black": []}}
    return render(request, "games/home.html", ctx)


def game(request: HttpRequest, game_id: int) -> HttpResponse:
    """The live game page, for players and spectators alike.

    Only the shell: who plays and where the socket is. The position, hands and
    clocks arrive over the websocket (docs/protocol.md), built per seat by the
    one view function, so nothing hidden can leak through this HTML (R18).
    """
    game = get_object_or_404(Game.objects.select_related("red", "black"), pk=game_id)
    seat = game.seat_of(request.user)
    bottom = seat or "red"  # each player sits at the bottom; spectators watch from Red's side
    top = "black" if bottom == "red" else "red"
    names = {"red": game.red.get_username(), "black": game.black.get_username()}
    ctx = {
        "game_id": game.pk,
        "seat": seat or "",
        "names": names,
        "top": {"side": top, "name": names[top]},
        "bottom": {"side": bottom, "name": names[bottom]},
        "event": {"name": game.event, "round": game.event_round, "url": game.event_url} if game.event else None,
    }
    return render(request, "games/game.html", ctx)
