"""A round's boards per format: the Swiss by the Dutch system (``swiss``), the
round robin by Berger's tables (``berger``); an elimination's matches are
made as its bracket gets ready (tournaments.advancing).
"""

from __future__ import annotations

from collections.abc import Callable

from tournaments import berger, swiss
from tournaments.models import Entry, ForbiddenPairing, Tournament
from tournaments.scoring import entries_by_number, trf_players


class NoMoreRounds(Exception):
    """The tournament is over: its last round is played, or no legal pairing exists."""


Board = tuple[Entry, Entry | None]


def _pair_swiss(tournament: Tournament, number: int) -> list[Board]:
    if number > (tournament.rounds or 0):
        raise NoMoreRounds(f"all {tournament.rounds} rounds played")
    entries = entries_by_number(tournament)
    everyone = trf_players(tournament, entries)
    players = [p for p in everyone if entries[p.number].active]
    forbidden = [(f.first.number, f.second.number) for f in
                 ForbiddenPairing.objects.filter(tournament=tournament).select_related("first", "second")
                 if f.first.number and f.second.number]
    try:
        boards = swiss.pair(players, number, tournament.rounds or number, forbidden, everyone=everyone)
    except swiss.NoPairing as none:
        raise NoMoreRounds(f"ended after round {number - 1}: no legal pairing exists ({none})") from None
    return [(entries[red], entries[black] if black is not None else None) for red, black in boards]


def _pair_round_robin(tournament: Tournament, number: int) -> list[Board]:
    entries = entries_by_number(tournament)
    double = tournament.double_round_robin
    if number > berger.cycle_length(len(entries)) * (2 if double else 1):
        raise NoMoreRounds("every round played")
    boards: list[Board] = []
    for red, black in berger.round_of(len(entries), number, double):
        if black is None:
            boards.append((entries[red], None))
        elif not (entries[red].annulled or entries[black].annulled):  # annulled: the game is not played
            boards.append((entries[red], entries[black]))
    return boards


PAIRERS: dict[str, Callable[[Tournament, int], list[Board]]] = {
    Tournament.Format.SWISS: _pair_swiss,
    Tournament.Format.ROUND_ROBIN: _pair_round_robin,
}


def planned_rounds(tournament: Tournament) -> int | None:
    """Rounds a Swiss or round robin will have (TRF's XXR)."""
    if tournament.format == Tournament.Format.SWISS:
        return tournament.rounds
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        players = tournament.entries.filter(number__isnull=False).count()
        return berger.cycle_length(players) * (2 if tournament.double_round_robin else 1) if players > 1 else None
    return None
