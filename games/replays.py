"""Replays, record downloads and record import (R19, RH30): anyone may look, like lichess.

A running game's replay and record are public only: spectator views and no
seed. Once it is over the seed is revealed, the server replays the record
against the commitment, and the hands are shown at every step. Ace in the
Hole and Rhombus go the same way; only the page that draws a step differs.
"""

from __future__ import annotations

import logging
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext

from engine.errors import EngineError
from engine.record import BOTH_LOST, Record, RhombusRecord
from games import bots, records, refusals, results
from games.boards import rhombus_rows
from games.models import Game
from games.views import around_the_board

log = logging.getLogger("games")

MAX_RECORD_BYTES = 256 * 1024  # a full game is about 2 kB of text


def replay(request: HttpRequest, game_id: int) -> HttpResponse:
    """Step through every position of a stored game."""
    game = _game(game_id)
    record = records.record_of(game)
    try:
        steps = records.steps_of_game(game)
    except EngineError as error:  # a stored game that does not replay: a bug, not the user's
        log.error("game %s does not replay: %s", game.pk, error)
        return render(request, _template(record), {"error": str(error), "game": game}, status=500)
    return render(request, _template(record), _context(record, steps, game=game))


def record_json(request: HttpRequest, game_id: int) -> HttpResponse:
    """The record as JSON (the engine's form), public while the game runs."""
    game = _game(game_id)
    response = JsonResponse(records.record_of(game).to_json(), json_dumps_params={"indent": 2})
    response["Content-Disposition"] = f'attachment; filename="aceweb-{game.pk}.json"'
    return response


def record_txt(request: HttpRequest, game_id: int) -> HttpResponse:
    """The record as PGN-like text, public while the game runs."""
    game = _game(game_id)
    response = HttpResponse(records.record_of(game).to_text(), content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="aceweb-{game.pk}.txt"'
    return response


def import_record(request: HttpRequest) -> HttpResponse:
    """Paste or upload a record (JSON or text) and see it replayed; nothing is stored."""
    if request.method != "POST":
        return render(request, "games/import.html", {})
    text = request.POST.get("record", "")
    upload = request.FILES.get("file")
    try:
        if upload is not None:
            text = _uploaded_text(upload)
        if not text.strip():
            raise EngineError(gettext("paste a record or choose a file"))
        if len(text.encode()) > MAX_RECORD_BYTES:
            raise _too_long()
        record = records.read_record(text)
        steps = records.steps_of_record(record)
    except EngineError as error:
        return render(request, "games/import.html", {"error": refusals.describe(error), "text": text}, status=400)
    return render(request, _template(record), _context(record, steps, imported=True))


def _uploaded_text(upload: Any) -> str:
    if upload.size > MAX_RECORD_BYTES:
        raise _too_long()
    try:
        return str(upload.read().decode("utf-8"))
    except UnicodeDecodeError:
        raise EngineError(gettext("the file is not UTF-8 text: upload a .json or .txt record")) from None


def _too_long() -> EngineError:
    return EngineError(gettext("a record is at most %(size)s kB") % {"size": MAX_RECORD_BYTES // 1024})


def _game(game_id: int) -> Game:
    return get_object_or_404(Game, pk=game_id)


def _template(record: records.AnyRecord) -> str:
    return "games/replay_rhombus.html" if isinstance(record, RhombusRecord) else "games/replay.html"


def _context(record: records.AnyRecord, steps: list[records.StepJSON], *, game: Game | None = None,
             imported: bool = False) -> dict[str, Any]:
    if isinstance(record, RhombusRecord):
        return _rhombus_context(record, steps, game=game, imported=imported)
    last = steps[-1]
    view = last["view"]
    return {
        "game": game,
        "imported": imported,
        "record": record,
        "bots": _bots(game),
        "steps": steps,
        "turns": _turns(steps),
        "current": last["index"],
        "view": view,
        "board": view["board"],
        "captured": view["captured"],
        "hands": last["hands"],
        # replay() has checked SHA-256(seed) against the commitment when a seed is shown.
        "verified": record.seed is not None,
        "result": _result_text(record),
    }


def _bots(game: Game | None) -> dict[str, str]:
    """The seats bots play, to flag their names BOT; none in an imported record
    (its names are only text, no account)."""
    return bots.seat_levels(game) if game is not None else {}


def _rhombus_context(record: RhombusRecord, steps: list[records.StepJSON], *, game: Game | None,
                     imported: bool) -> dict[str, Any]:
    """The page opens at the last step, drawn by the server (the script redraws each step)."""
    last = steps[-1]
    view = last["view"]
    players = len(record.seats)
    return {
        "game": game,
        "imported": imported,
        "record": record,
        "bots": _bots(game),
        "steps": steps,
        "actions": steps[1:],  # each with its seat: the list reads round the table
        "current": last["index"],
        "view": view,
        "players": players,
        "variant": record.variant,
        "around": around_the_board(record.seats, record.seats[0], record.players),
        "rows": rhombus_rows(view["board"]),
        "hands": last["hands"],
        # replay_rhombus() has checked SHA-256(seed) against the commitment when a seed is shown.
        "verified": record.seed is not None,
        "result": _rhombus_result(record),
    }


def _rhombus_result(record: RhombusRecord) -> str:
    site = {engine_reason: name for name, engine_reason in records.RHOMBUS_REASONS.items()}
    reason = str(site.get(record.reason, record.reason)) if record.reason else None
    return results.result_line("rhombus", reason, record.winner, record.players,
                               both_lost=record.result == BOTH_LOST)


def _turns(steps: list[records.StepJSON]) -> list[dict[str, Any]]:
    """The move list in pairs: [{"number": 1, "red": step, "black": step}, ...]."""
    turns: list[dict[str, Any]] = []
    for step in steps[1:]:
        if step["seat"] == "red":
            turns.append({"number": len(turns) + 1, "red": step, "black": None})
        else:
            turns[-1]["black"] = step
    return turns


def _result_text(record: Record) -> str:
    return results.result_line("ace-in-the-hole", record.reason, record.winner,
                               {"red": record.red, "black": record.black}, both_lost=record.result == BOTH_LOST)
