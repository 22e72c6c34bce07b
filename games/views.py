from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import select_template
from django.utils.translation import get_language

from games import chat, live
from games.boards import rhombus_rows, rhombus_starting_board, starting_board
from games.models import Game
from games.timecontrols import SPEED_LABELS
from relation import follows


def home(request: HttpRequest) -> HttpResponse:
    """The front page: the games being played now (a few boards and the top-rated
    TV game, live), then the site and both games with their starting positions."""
    boards = live.page(live.Filters(limit=live.HOME_SIZE))
    context = {**_ace_start(), **_rhombus_start(), **_labels(),
               "boards": [live.card(game) for game in boards], "home_list": live.Filters(limit=live.HOME_SIZE).name,
               "tv_list": live.tv("best").name, "tv_card": live.card(boards[0]) if boards else None}
    return render(request, "games/home.html", context)


def live_games(request: HttpRequest) -> HttpResponse:
    """The running games, best rated first, a page of boards at a time, filtered
    by game and speed; a signed-in player sees the games of the players they
    follow first. The same number of queries whatever the number of games."""
    filters = live.Filters.from_query(request.GET)
    games = live.filtered(filters)
    total = games.count()
    followed = follows.followed_ids(request.user.pk) if request.user.is_authenticated else []
    context = {
        **_labels(),
        "filters": filters, "list_name": filters.name, "total": total, "counts": live.counts(),
        "boards": [live.card(game) for game in games[filters.offset:filters.offset + filters.limit]],
        "following": [live.card(game) for game in live.of_players(followed)] if followed else None,
        "pages": _pages(filters, total),
    }
    return render(request, "games/live.html", context)


def tv(request: HttpRequest, channel: str = "") -> HttpResponse:
    """lichess's TV: the best rated running game of each game (``/tv/``) or of one
    channel (``/tv/<channel>/``), live, going on to the next when it ends."""
    if channel and channel not in live.TV_CHANNELS:
        raise Http404
    channels = [channel] if channel else list(live.GAMES)
    screens = []
    for name in channels:
        shown = live.page(live.tv(name))
        screens.append({"channel": name, "label": live.TV_LABELS[name], "list_name": live.tv(name).name,
                        "card": live.card(shown[0]) if shown else None})
    return render(request, "games/tv.html", {**_labels(), "screens": screens, "channel": channel,
                                             "channels": live.TV_LABELS})


def _labels() -> dict[str, Any]:
    """The words a board's script shows, in the reader's language: a card is built
    once for every reader of every language (games/watch.py)."""
    return {"game_labels": {key: str(label) for key, label in live.GAME_LABELS.items()},
            "speed_labels": {key: str(label) for key, label in SPEED_LABELS.items()}}


def _pages(filters: live.Filters, total: int) -> list[int]:
    """The page links: the first, the last, and two either side of this one."""
    last = max(1, -(-total // filters.limit))
    if last == 1:
        return []
    here = filters.page
    return sorted({1, last, *range(max(1, here - 2), min(last, here + 2) + 1)})


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
        around = around_the_board(game.seat_names, bottom, names)
        for bar in around:
            bar.update(whose_seat(game, bar["side"], seat))
        ctx.update(kind=game.kind, variant=game.variant, players=game.players, around=around)
        return render(request, "games/rhombus.html", ctx)
    top = next(name for name in game.seat_names if name != bottom)
    ctx.update(top={"side": top, "name": names[top]}, bottom={"side": bottom, "name": names[bottom]})
    return render(request, "games/game.html", ctx)


def game_chat(request: HttpRequest, game_id: int) -> JsonResponse:
    """The game's chat rooms as the reader may see them now (games.chat.rooms_json):
    the page asks once the game is over, when the spectators' room opens to the players."""
    game = get_object_or_404(Game, pk=game_id)
    return JsonResponse(chat.rooms_json(game, request.user))


def whose_seat(game: Game, seat: str, viewer: str | None) -> dict[str, str]:
    """In a team game (RH31), what a seat is to the page's reader, for its bar:
    {"relation": "you" | "partner" | "opponent"}, or to a spectator the team it
    plays for ({"relation": "team", "team": "SW–NE"}). Nothing when each side
    is one seat: the bars say it already."""
    if len(game.sides) == len(game.seat_names):
        return {}
    if viewer is None:
        return {"relation": "team", "team": "\u2013".join(game.side_of(seat))}
    if seat == viewer:
        return {"relation": "you"}
    return {"relation": "partner" if seat in game.side_of(viewer) else "opponent"}


def around_the_board(seats: tuple[str, ...], bottom: str, names: dict[str, str]) -> list[dict[str, str]]:
    """Rhombus's player bars, the viewer's at the bottom: with two players the
    other on top; with four, going on in turn order (counter-clockwise, RH31),
    the next on the right, the partner on top and the last on the left, as the
    corners of the board lie."""
    places = ("bottom", "top") if len(seats) == 2 else ("bottom", "right", "top", "left")
    first = seats.index(bottom)
    turn = seats[first:] + seats[:first]
    return [{"side": seat, "name": names[seat], "place": place} for seat, place in zip(turn, places)]
