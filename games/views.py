from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import select_template
from django.utils.translation import get_language

from games import chat
from games.boards import rhombus_rows, rhombus_starting_board, starting_board
from games.models import Game


def home(request: HttpRequest) -> HttpResponse:
    """The front page: the site and both games, each with its starting position."""
    return render(request, "games/home.html", {**_ace_start(), **_rhombus_start()})


def rules_ace(request: HttpRequest) -> HttpResponse:
    """Ace in the Hole's rules in brief (R1-R19), beside its starting board."""
    return render(request, "games/rules_ace.html", {**_ace_start(), "rules": _rules_in_language("ace")})


def rules_rhombus(request: HttpRequest) -> HttpResponse:
    """Rhombus's rules in brief (RH1-RH49), beside its starting boards."""
    return render(request, "games/rules_rhombus.html", {**_rhombus_start(), "rules": _rules_in_language("rhombus")})


def _rules_in_language(game: str) -> str:
    """The rules text in the active language: one template per language, as long
    prose reads better whole than cut into catalog entries; English otherwise."""
    language = (get_language() or "en").split("-")[0]
    names = [f"games/rules/{game}.{language}.html", f"games/rules/{game}.en.html"]
    return str(select_template(names).template.name)


def _ace_start() -> dict[str, object]:
    return {"board": starting_board(), "captured": {"red": [], "black": []}}


def _rhombus_start() -> dict[str, object]:
    """The two set-ups: two players (RH4) and the team game (RH32)."""
    return {"rh_rows": rhombus_rows(rhombus_starting_board(2)),
            "rh_rows_four": rhombus_rows(rhombus_starting_board(4))}


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
        "finished": game.status == Game.Status.FINISHED,  # a finished game's players can be reported
        "chat": chat.boxes(game, request.user),
    }
    if game.kind == "rhombus":
        ctx.update(kind=game.kind, variant=game.variant, players=game.players,
                   around=around_the_board(game.seat_names, bottom, names))
        return render(request, "games/rhombus.html", ctx)
    top = next(name for name in game.seat_names if name != bottom)
    ctx.update(top={"side": top, "name": names[top]}, bottom={"side": bottom, "name": names[bottom]})
    return render(request, "games/game.html", ctx)


def game_chat(request: HttpRequest, game_id: int) -> JsonResponse:
    """The game's chat rooms as the reader may see them now (games.chat.rooms_json):
    the page asks once the game is over, when the spectators' room opens to the players."""
    game = get_object_or_404(Game, pk=game_id)
    return JsonResponse(chat.rooms_json(game, request.user))


def around_the_board(seats: tuple[str, ...], bottom: str, names: dict[str, str]) -> list[dict[str, str]]:
    """Rhombus's player bars, the viewer's at the bottom: with two players the
    other on top; with four, going on in turn order (counter-clockwise, RH31),
    the next on the right, the partner on top and the last on the left, as the
    corners of the board lie."""
    places = ("bottom", "top") if len(seats) == 2 else ("bottom", "right", "top", "left")
    first = seats.index(bottom)
    turn = seats[first:] + seats[:first]
    return [{"side": seat, "name": names[seat], "place": place} for seat, place in zip(turn, places)]
