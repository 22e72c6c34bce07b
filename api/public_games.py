"""Public reads of one game (docs/api.md): what a spectator sees, and its record.

Nothing hidden may leave here (R18, R19, RH29, RH30): the state is the
spectator's payload from games.payloads's one view function, and a running
game's record is the public one, without its seed. Anyone may read them, as
anyone may watch a game or download its record on the site.
"""

from __future__ import annotations

from typing import Annotated, Any

from django.http import HttpRequest
from django.utils.translation import gettext
from ninja import Router, Schema
from ninja.errors import HttpError
from pydantic import BaseModel, ConfigDict, Field, RootModel

from games import botmoves, payloads, records, store
from games.models import Game
from api.auth import OptionalToken
from api.schemas import AceInTheHoleView, RhombusOtherSeat, RhombusView, errors

router = Router(tags=["games"], auth=OptionalToken())


class AceInTheHoleSpectatorView(AceInTheHoleView):
    """An Ace in the Hole game as a spectator sees it: no seat, no hand, nothing legal."""

    seat: None
    hand: None


class RhombusSpectatorView(RhombusView):
    """A Rhombus game as a spectator sees it: no seat, every hand a count (RH29)."""

    seat: None
    # Narrower than the seat's view (mypy calls narrowing a field unsafe; nothing assigns to it).
    seats: dict[str, RhombusOtherSeat]  # type: ignore[assignment]


class SpectatorView(RootModel[Annotated[AceInTheHoleSpectatorView | RhombusSpectatorView,
                                        Field(discriminator="kind")]]):
    """A spectator's view, as the game's socket sends it (docs/protocol.md):
    each game's own shape, told apart by ``kind``."""


class RecordBodyOut(BaseModel):
    """The engine's record (the site's JSON download): Ace in the Hole's has
    ``red`` and ``black``, Rhombus's ``players``, ``variant`` and ``dealer``."""

    model_config = ConfigDict(extra="allow")

    format: str
    commitment: str
    seed: str | None
    winner: str | None
    reason: str | None
    headers: dict[str, str]
    actions: list[str]


class RecordOut(Schema):
    game_id: int
    status: str  # running, finished, aborted
    # True once the game is over: the seed is revealed and the record replays
    # every hand. False while it runs: the public record, without the seed.
    complete: bool
    record: RecordBodyOut


@router.get("/games/{id:game_id}", response={200: SpectatorView, **errors(404)}, summary="A game's public state")
def game_state(request: HttpRequest, game_id: int) -> payloads.PayloadJSON:
    """Exactly what a spectator's socket is sent (docs/protocol.md): the board
    and every public fact of the position, the players, clocks and result. No
    hand, not even to a player of the game, nor a running game's seed: a
    player reads their own hand at GET /api/games/{id}/seat."""
    game = store.load(game_id)
    if game is None:
        raise HttpError(404, gettext("there is no game %(id)s") % {"id": game_id})
    botmoves.resume_waiting_move(game)  # shown: without a worker, a bot move this process lost
    return payloads.view_for(game, None)


@router.get("/games/{id:game_id}/record", response={200: RecordOut, **errors(404)}, summary="A game's record")
def game_record(request: HttpRequest, game_id: int) -> dict[str, Any]:
    """The record (R19, RH30) as the site's JSON download: once the game is
    over, the full record with its seed revealed, which replays every hand
    and can be checked against the commitment; while it runs, the public
    record only (the actions played, no seed), as its live replay shows."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise HttpError(404, gettext("there is no game %(id)s") % {"id": game_id})
    return {"game_id": game.pk, "status": game.status, "complete": not game.running,
            "record": records.record_of(game).to_json()}
