"""Playing through the API: a seat's own view, an action, resigning, aborting,
claiming (docs/api.md, "Playing").

Each call is the same games function the game socket calls: the game's
row lock, the stale-ply guard (``ply`` must be the ply you saw), the rules'
check naming the rule an action breaks, one transaction, and the game's
sockets and streams told only after the commit.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from django.http import HttpRequest
from django.utils import translation
from django.utils.translation import gettext
from ninja import Field, Router, Schema
from ninja.errors import HttpError

from chat.lines import PRESETS, Refused
from chat.text import MAX_LENGTH
from games import botmoves, chat, finishing, moving, payloads, refusals, rematches, steps, store
from games.models import Game
from api import answers
from api.auth import Token
from api.schemas import Done, View, errors

router = Router(tags=["playing"])

MAX_ACTION_CHARS = 64  # as the game socket (games.consumers)


class ActionIn(Schema):
    ply: int = Field(description="The ply of the view you act on; a stale one is refused, never guessed at")
    action: str = Field(min_length=1, max_length=MAX_ACTION_CHARS,
                        description='An action in the rules\' notation, e.g. "5H e1-e6" (R10) or "KC b1-b3"')


def seated_game(game_id: int, user: Any) -> tuple[Game, str]:
    """The game and ``user``'s seat in it: 404 for no such game, 403 for a
    game the user does not play (the public view is GET /api/games/{id})."""
    game = store.load(game_id)
    if game is None:
        raise HttpError(404, gettext("there is no game %(id)s") % {"id": game_id})
    seat = game.seat_of(user)
    if seat is None:
        raise HttpError(403, gettext("you have no seat in game %(id)s: its public view is GET /api/games/%(id)s")
                        % {"id": game_id})
    return game, seat


@router.get("/games/{id:game_id}/seat", response={200: View, **errors(403, 404)}, auth=Token("play"),
            summary="Your seat's view of a game")
def seat(request: HttpRequest, game_id: int) -> payloads.PayloadJSON:
    """What your seat may see (your own hand; when it is your turn, the legal
    actions in Ace in the Hole, the card sets that have one in Rhombus, whose
    actions GET .../options builds use by use) and the game's public fields:
    the same payload as the game socket's."""
    game, _ = seated_game(game_id, request.user)
    botmoves.resume_waiting_move(game)  # shown: without a worker, a bot move this process lost
    return payloads.view_for(game, request.user)


class OptionsOut(Schema):
    ply: int = Field(description="The ply asked about")
    cards: list[str] = Field(description="The chosen cards, as asked")
    done: list[str] = Field(description="The uses already made, in the order made")
    uses: list[str] = Field(description='The next uses from which a legal action can still be completed, in string '
                                        'order ("QH b1-b4", "QH+7H c2xc5", "9D @a1", "10C 0", "8S mystery QD"); '
                                        'empty when nothing fits, or when ``done`` uses every card: then play '
                                        '", ".join(done)')
    actions: list[str] = Field(description="Whole actions of exactly these cards that are not made of uses "
                                           "(elim, react, entry, discard); only while ``done`` is empty")


@router.get("/games/{id:game_id}/options", response={200: OptionsOut, **errors(400, 403, 404, 422)}, auth=Token("play"),
            summary="Rhombus: which uses can follow")
def options(request: HttpRequest, game_id: int, ply: int, cards: str, done: str = "") -> steps.OptionsJSON:
    """Build a Rhombus action use by use, as the game page does (a Rhombus
    view names the card sets that have a legal action, ``sets``, not every
    action). ``cards``: the chosen cards, comma-separated (``QH,7H``);
    ``done``: the uses made so far, comma-separated in the order made
    (``QH+7H c2xc5,KH a1-a3``; encode ``+`` as ``%2B``). Answers the next uses
    that can still complete a legal action with exactly those cards, and the
    whole actions of those cards. Only the player to move is answered, from
    their own cards; a stale ply, another seat's turn or a finished game is
    refused. Play the action as the uses joined by ", " (POST .../actions);
    the record keeps its canonical text (N1)."""
    game, _ = seated_game(game_id, request.user)
    chosen = [card.strip() for card in cards.split(",") if card.strip()]
    made = [use.strip() for use in done.split(",") if use.strip()]
    wrong = steps.well_formed(chosen, made)
    if wrong is not None:
        raise HttpError(400, wrong)
    return steps.options(game, request.user, ply, chosen, made)


@router.post("/games/{id:game_id}/actions", response={200: View, **errors(400, 403, 404, 422)}, auth=Token("play"),
             summary="Play an action")
def act(request: HttpRequest, game_id: int, body: ActionIn) -> payloads.PayloadJSON:
    """Play ``action`` at ``ply``. An illegal action is refused with the rule it
    breaks, a stale ply with the game's ply, and nothing changes; an accepted
    one is committed before anyone is told. Answers your view after it."""
    payload = _change(lambda game, user: moving.submit(game, user, body.ply, body.action), request, game_id)
    answers.answered(game_id, request.user.pk, translation.get_language(), payload)  # for this user's streams
    return payload


def _change(change: Callable[[int, Any], Game], request: HttpRequest, game_id: int) -> payloads.PayloadJSON:
    """The change, and the caller's view after it. Whose game it is, is asked
    only when the change is refused: a 404 or 403 says so rather than the
    refusal (a move costs no extra load)."""
    try:
        game = change(game_id, request.user)
    except refusals.Refusal:
        seated_game(game_id, request.user)
        raise
    return payloads.view_for(game, request.user)


@router.post("/games/{id:game_id}/resign", response={200: View, **errors(400, 403, 404)}, auth=Token("play"), summary="Resign")
def resign(request: HttpRequest, game_id: int) -> payloads.PayloadJSON:
    """Give up: the other side wins by resignation (R17; a team's, RH27)."""
    return _change(finishing.resign, request, game_id)


@router.post("/games/{id:game_id}/abort", response={200: View, **errors(400, 403, 404)}, auth=Token("play"), summary="Abort")
def abort(request: HttpRequest, game_id: int) -> payloads.PayloadJSON:
    """Call the game off before every player has moved once: no result, unrated (R17, RH27)."""
    return _change(finishing.abort, request, game_id)


@router.post("/games/{id:game_id}/claim-victory", response={200: View, **errors(400, 403, 404)}, auth=Token("play"),
             summary="Claim the win: your opponent left")
def claim_victory(request: HttpRequest, game_id: int) -> payloads.PayloadJSON:
    """Win because the player to move, on the other side, left the game and
    did not come back in time (R17, RH27); refused, with when it becomes
    possible, before then."""
    return _change(finishing.claim_abandonment, request, game_id)


@router.post("/games/{id:game_id}/claim-time", response={200: View, **errors(400, 403, 404)}, auth=Token("play"),
             summary="Claim the win on time")
def claim_time(request: HttpRequest, game_id: int) -> payloads.PayloadJSON:
    """End the game if the side to move has run out of time (R17), or abort it
    if they let their first-move window pass. Changes nothing otherwise."""
    return _change(finishing.flag, request, game_id)


@router.post("/games/{id:game_id}/rematch", response={200: View, **errors(400, 403, 404)}, auth=Token("play"),
             summary="Offer or accept a rematch")
def rematch(request: HttpRequest, game_id: int) -> payloads.PayloadJSON:
    """Offer a rematch of a finished game, or accept the offer; once every
    player has asked, the new game's id is in ``game.rematch.game_id``."""
    return _change(rematches.rematch, request, game_id)


class ChatIn(Schema):
    room: Literal["player", "spectator"] = Field(
        description="player: the game's players (presets only while a 4-player game runs, RH36); spectator: "
                    "the watchers, open to the players once the game is over")
    text: str = Field("", max_length=4 * MAX_LENGTH, description="One line of free text (at most 140 characters "
                                                                  "once cleaned)")
    preset: Literal[("", *PRESETS)] = Field("", description="Or a preset phrase, shown in each reader's "  # type: ignore[valid-type]
                                                            "language")


@router.post("/games/{id:game_id}/chat", response={200: Done, **errors(400, 403, 404, 422)}, auth=Token("play"), summary="Say a chat line")
def say(request: HttpRequest, game_id: int, body: ChatIn) -> Done:
    """Post a line to one of the game's rooms, as lichess's bot API does (so a
    bot can say "good game"). Every check of the site's chat applies (length,
    links, flood, timeouts, the abuse filter); a refusal is a 400 saying why,
    and nothing is stored. Lines reach the game's pages, and your game stream
    as ``chatLine`` events."""
    try:
        chat.say(game_id, request.user, body.room, text=body.text, preset=body.preset)
    except Refused as refused:
        raise HttpError(404 if refused.code == "game" else 400, str(refused)) from None
    return Done()
