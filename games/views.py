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
    one view function, so nothing hidden can leak through this HTML (R18, RH29).
    """
    game = get_object_or_404(Game, pk=game_id)
    seat = game.seat_of(request.user)
    bottom = seat or game.seat_names[0]  # each player sits at the bottom; spectators watch from the first seat's
    names = {s.name: s.user.get_username() for s in game.table}
    ctx = {
        "game_id": game.pk,
        "title": game.title,
        "seat": seat or "",
        "names": names,
        "event": {"name": game.event, "round": game.event_round, "url": game.event_url} if game.event else None,
        "has_replay": game.has_replay,
        "finished": game.status == Game.Status.FINISHED,  # a finished game's players can be reported
    }
    if game.kind == "rhombus":
        ctx.update(kind=game.kind, variant=game.variant, players=game.players,
                   around=around_the_board(game.seat_names, bottom, names))
        return render(request, "games/rhombus.html", ctx)
    top = next(name for name in game.seat_names if name != bottom)
    ctx.update(top={"side": top, "name": names[top]}, bottom={"side": bottom, "name": names[bottom]})
    return render(request, "games/game.html", ctx)


def around_the_board(seats: tuple[str, ...], bottom: str, names: dict[str, str]) -> list[dict[str, str]]:
    """Rhombus's player bars, the viewer's at the bottom: with two players the
    other on top; with four, going on in turn order (counter-clockwise, RH31),
    the next on the right, the partner on top and the last on the left, as the
    corners of the board lie."""
    places = ("bottom", "top") if len(seats) == 2 else ("bottom", "right", "top", "left")
    first = seats.index(bottom)
    turn = seats[first:] + seats[:first]
    return [{"side": seat, "name": names[seat], "place": place} for seat, place in zip(turn, places)]
