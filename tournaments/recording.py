"""Recording a tournament game's result: the board's result, a no-show counted,
and the round closed when its last game ends.

A game's result arrives through ``games.signals.game_finished`` inside the
transaction that records it (lock order: the game's row, then the
tournament's); TournamentsConfig.ready() connects it.
"""

from __future__ import annotations

from typing import Any

from games.models import Game
from tournaments.advancing import due_after_pause, finish_if_over, finish_round
from tournaments.changes import changed_on_commit, locked
from tournaments.entering import leave
from tournaments.models import Pairing, Tournament

NO_SHOWS_TO_WITHDRAW = 2  # a player who forfeits twice is withdrawn (issue 11)


def record_game_result(sender: Any, game: Game, **kwargs: Any) -> None:
    """games.signals.game_finished's receiver: the board's result, a no-show
    counted, and the round closed when its last game ends."""
    pairing = Pairing.objects.filter(game_id=game.pk).select_related("round", "red", "black").first()
    if pairing is None:
        return
    tournament = locked(pairing.round.tournament_id)
    pairing.result = board_result(game)
    pairing.save(update_fields=["result"])
    if game.reason == Game.Reason.NO_SHOW:
        _count_no_shows(tournament, pairing, game)
    if not Pairing.objects.filter(round=pairing.round, result="").exists():
        finish_round(tournament, pairing.round)
    elif tournament.elimination and not finish_if_over(tournament):
        due_after_pause(tournament)  # a match goes on without waiting for the others
    changed_on_commit(tournament)


def board_result(game: Game) -> str:
    """The board's result: a pairing's "red" entry sits in the game's first
    seat (Rhombus: SW), "black" in the second."""
    first, second = game.seat_names
    if game.both_lost:  # both no-shows: the game's own result (engine.record.both_lost)
        return Pairing.Result.DOUBLE_FORFEIT
    if game.reason == Game.Reason.NO_SHOW:
        return {first: Pairing.Result.RED_FORFEIT_WIN, second: Pairing.Result.BLACK_FORFEIT_WIN}[game.winner]
    return {first: Pairing.Result.RED, second: Pairing.Result.BLACK}.get(game.winner, Pairing.Result.DRAW)


def _count_no_shows(tournament: Tournament, pairing: Pairing, game: Game) -> None:
    absent = [entry for seat, entry in zip(game.seat_names, (pairing.red, pairing.black))
              if entry is not None and game.winner != seat]
    for entry in absent:
        entry.no_shows += 1
        entry.save(update_fields=["no_shows"])
        if entry.no_shows >= NO_SHOWS_TO_WITHDRAW and entry.active:
            leave(tournament, entry, f"withdrawn after {entry.no_shows} no-shows")
