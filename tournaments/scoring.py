"""Who stands where: every player's rounds as TRF-16 records, the standings
and final places, and an elimination's bracket filled with the matches decided.
"""

from __future__ import annotations

import dataclasses
import functools

from tournaments import brackets, results, tiebreaks
from tournaments.models import Entry, Pairing, Tournament


ENTRY_FIELDS = ("number", "rating", "user_id", "user__username", "withdrawn_at", "withdrawn_why", "annulled",
                "tournament_id", "no_shows", "checked_in_at", "disqualified")


def entries_by_number(tournament: Tournament) -> dict[int, Entry]:
    # Only the user's name: a whole user row (password hash and all) a player
    # was a third of a 1,000-player page's time (bench/tournaments.py).
    entries = tournament.entries.filter(number__isnull=False).select_related("user").only(*ENTRY_FIELDS)
    return {e.number: e for e in entries}


_RED_CODE = {"1-0": "1", "0-1": "0", "1/2": "=", "+-": "+", "-+": "-", "--": "-"}


_BLACK_CODE = {"1-0": "0", "0-1": "1", "1/2": "=", "+-": "-", "-+": "+", "--": "-"}


def trf_players(tournament: Tournament, entries: dict[int, Entry] | None = None) -> list[results.Player]:
    """Every numbered entry with their rounds so far, in TRF-16's terms (results.py).

    A round without a board for a player is " " (not paired: absent, late, or
    withdrawn); a game against an annulled player (round robin) counts for
    neither side; a game of a player disqualified with forfeits
    (tournaments.corrections) counts as lost by forfeit for them and won by
    forfeit for the opponent, whatever its result.
    """
    entries = entries if entries is not None else entries_by_number(tournament)
    by_entry = {e.pk: e for e in entries.values()}
    played = tournament.current_round
    rounds: dict[int, list[results.Round]] = {n: [_round(None, None, " ")] * played for n in entries}
    boards = (Pairing.objects.filter(round__tournament=tournament).order_by("round__number", "board")
              .values_list("round__number", "red_id", "black_id", "result"))
    for number, red_id, black_id, result in boards.iterator(chunk_size=2000):
        _place(number - 1, by_entry[red_id], by_entry.get(black_id), result, rounds)
    return [results.Player(n, e.user.get_username(), e.rating, tuple(rounds[n])) for n, e in entries.items()]


@functools.lru_cache(maxsize=65536)
def _round(opponent: int | None, colour: results.Colour | None, code: str) -> results.Round:
    """Rounds are values: the same few are shared rather than built (and checked) a thousand times."""
    return results.Round(opponent, colour, code)


def _place(index: int, red: Entry, black: Entry | None, result: str,
           rounds: dict[int, list[results.Round]]) -> None:
    if black is None:
        rounds[red.number][index] = _round(None, None, "U")
        return
    if red.annulled or black.annulled or not result:
        return  # not counted (annulled), or still being played
    if red.forfeits_all or black.forfeits_all:
        result = _FORFEITED[red.forfeits_all, black.forfeits_all]
    rounds[red.number][index] = _round(black.number, results.RED, _RED_CODE[result])
    rounds[black.number][index] = _round(red.number, results.BLACK, _BLACK_CODE[result])


# A board with a disqualified player (forfeit scoring), by (red's, black's) disqualification.
_FORFEITED = {(True, False): "-+", (False, True): "+-", (True, True): "--"}


def ranking(tournament: Tournament, players: list[results.Player] | None = None) -> list[tiebreaks.Standing]:
    """The standings, best first: points, then the tournament's tiebreaks.
    The page, the API, the TRF download and the final places all rank by this.

    A disqualified player is ranked with the rest (their points count in their
    opponents' tiebreaks) and then left out, those below moving up."""
    players = players if players is not None else trf_players(tournament)
    lines = tiebreaks.standings(players, tournament.tiebreak_codes,
                                round_robin=tournament.format == Tournament.Format.ROUND_ROBIN)
    return without(lines, disqualified_numbers(tournament))


def disqualified_numbers(tournament: Tournament) -> set[int]:
    return set(tournament.entries.exclude(disqualified="").filter(number__isnull=False)
               .values_list("number", flat=True))


def without(lines: list[tiebreaks.Standing], numbers: set[int]) -> list[tiebreaks.Standing]:
    """The standings less the players ``numbers``, ranked again: a shared
    rank stays shared, and each rank counts only the players left above it."""
    if not numbers:
        return lines
    kept: list[tiebreaks.Standing] = []
    previous = 0  # the rank the last line kept had before
    for line in lines:
        if line.player.number in numbers:
            continue
        rank = kept[-1].rank if kept and line.rank == previous else len(kept) + 1
        previous = line.rank
        kept.append(dataclasses.replace(line, rank=rank))
    return kept


def final_places(tournament: Tournament) -> dict[int, int]:
    """{pairing number: place}: the standings' ranks, or the bracket's places.

    A bracket stays as played: a disqualified player's place is left empty and
    nobody moves up into it (they were beaten by whom they were beaten by)."""
    if tournament.elimination:
        out = disqualified_numbers(tournament)
        return {number: place for place, number in brackets.final_ranking(bracket_of(tournament))
                if number not in out}
    return {standing.player.number: standing.rank for standing in ranking(tournament)}


def store_places(tournament: Tournament) -> None:
    """Keep each entry's final place (profiles list them without ranking every tournament again)."""
    places = final_places(tournament)
    entries = list(tournament.entries.filter(number__isnull=False))
    for entry in entries:
        entry.place = places.get(entry.number)  # type: ignore[arg-type]
    Entry.objects.bulk_update(entries, ["place"])


MatchGame = tuple[int, int | None, str]  # (red number, black number, board result)


def bracket_of(tournament: Tournament) -> brackets.BracketState:
    """The bracket filled with the matches decided so far; players are pairing numbers."""
    entries = tournament.entries.filter(number__isnull=False)
    seeds = sorted(entries.values_list("number", flat=True))
    bracket = brackets.build(len(seeds), double=tournament.format == Tournament.Format.DOUBLE,
                             third_place=tournament.third_place and tournament.format == Tournament.Format.SINGLE)
    games = match_games(tournament)
    winners = {match: winner for match, played in games.items()
               if (winner := match_winner(played, tournament.match_length)) is not None}
    return brackets.resolve(bracket, seeds, winners)


def match_games(tournament: Tournament) -> dict[str, list[MatchGame]]:
    pairings = (Pairing.objects.filter(round__tournament=tournament).exclude(match="")
                .select_related("red", "black").order_by("match", "match_game"))
    games: dict[str, list[MatchGame]] = {}
    for p in pairings:
        games.setdefault(p.match, []).append((p.red.number, p.black.number if p.black else None, p.result))
    return games


_RED_POINTS = {"1-0": 1.0, "+-": 1.0, "1/2": 0.5, "0-1": 0.0, "-+": 0.0, "--": 0.0}


_BLACK_POINTS = {"0-1": 1.0, "-+": 1.0, "1/2": 0.5, "1-0": 0.0, "+-": 0.0, "--": 0.0}


def match_winner(games: list[MatchGame], length: int) -> int | None:
    """Who has won a match of ``length`` games (best of), or None while it goes on.

    Decided once one side cannot be caught in the games left; after ``length``
    games a level match goes on game by game until one is ahead (issue 11).
    A walkover (a board won by forfeit with no game after the opponent left)
    is a game like any other.
    """
    if any(not result for _, _, result in games):
        return None
    points: dict[int, float] = {}
    for red, black, result in games:
        points[red] = points.get(red, 0.0) + _RED_POINTS[result]
        if black is not None:
            points[black] = points.get(black, 0.0) + _BLACK_POINTS[result]
    if len(points) < 2:
        return None
    (first, a), (second, b) = sorted(points.items(), key=lambda item: -item[1])
    left = max(length - len(games), 0)
    if a > b + left:
        return first
    return None
