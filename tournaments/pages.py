"""What a tournament's page shows, built from a constant number of queries
whatever the field's size: standings with the tiebreaks, the crosstable,
each round's boards with their games, and the bracket of an elimination."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.db.models import QuerySet
from django.utils import formats
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, pgettext

from games import live
from ids.rows import row_id
from tournaments import brackets, pairers, scoring, tiebreaks, trf
from tournaments.bracket_svg import bracket_svg
from tournaments.models import Entry, Pairing, Round, Tournament
from tournaments.results import Player
from tournaments.tiebreaks import Standing


PAGE_SIZE = 100  # standings lines a page, as lichess pages its standings

# The list page's sections, in the page's order: the statuses each shows and how it sorts them.
SECTIONS: dict[str, tuple[list[str], str]] = {
    "running": ([Tournament.Status.RUNNING, Tournament.Status.PAUSED], "starts_at"),
    "upcoming": ([Tournament.Status.UPCOMING], "starts_at"),
    "finished": ([Tournament.Status.FINISHED, Tournament.Status.CANCELLED], "-finished_at"),
}


def listed(section: str) -> QuerySet[Tournament]:
    """One section of the tournament list (a key of SECTIONS), in its order, with the organizers."""
    statuses, order = SECTIONS[section]
    return Tournament.objects.select_related("organizer").filter(status__in=statuses).order_by(order)


@dataclass(frozen=True)
class Line:
    """One line of the standings and crosstable."""

    rank: int
    entry: Entry
    points: str
    tiebreaks: list[str]
    cells: list[str]  # per round: "12w1", "bye", "-" ...
    standing: Standing  # the same line as numbers (the API's standings)


@dataclass(frozen=True)
class RoundView:
    number: int
    status: str
    pairings: list[Pairing]


def standings(tournament: Tournament) -> tuple[list[str], list[Line]]:
    """The tiebreak labels and the lines, best first (Swiss and round robin)."""
    entries = scoring.entries_by_number(tournament)
    lines = []
    for standing in scoring.ranking(tournament, scoring.trf_players(tournament, entries)):
        player = standing.player
        lines.append(Line(standing.rank, entries[player.number], _number(standing.points),
                          [_value(v) for v in standing.tiebreaks], _cells(player), standing))
    return tiebreak_labels(tournament), lines


def tiebreak_labels(tournament: Tournament) -> list[str]:
    """The names of the tournament's tiebreaks, in its order, in the reader's language."""
    return [gettext(tiebreaks.TIEBREAKS[code].label) for code in tournament.tiebreak_codes]


def _cells(player: Player) -> list[str]:
    cells = []
    for r in player.rounds:
        if r.opponent is None:
            cells.append({"U": pgettext("tournament", "bye"), " ": "–"}.get(r.result, r.result))
        else:
            cells.append(f"{r.opponent}{r.colour or ''}{_RESULT_SHOWN.get(r.result, r.result)}")
    return cells


_RESULT_SHOWN = {"1": "1", "0": "0", "=": "½", "+": "+", "-": "−"}


def _number(points: Any) -> str:
    """Points as a crosstable prints them: "3", "3½", "½"."""
    doubled = Fraction(points) * 2
    if doubled.denominator != 1:
        return _decimal(points)
    whole, half = divmod(int(doubled), 2)
    return (str(whole) if whole or not half else "") + ("½" if half else "")


def _value(value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, int):
        return str(value)
    return _decimal(value)


def _decimal(value: Any) -> str:
    """A fractional figure with the reader's decimal separator ("2.5", German "2,5");
    the API and the TRF write their own numbers with a point."""
    return formats.number_format(Decimal(f"{float(value):g}"), use_l10n=True)


def trf_text(tournament: Tournament) -> str:
    """The results so far as FIDE's TRF-16 (a Swiss or round robin: an elimination has none)."""
    players = scoring.trf_players(tournament)
    ranks = {standing.player.number: standing.rank for standing in scoring.ranking(tournament, players)}
    for player in players:  # a disqualified player has no rank: the file's last places
        ranks.setdefault(player.number, len(ranks) + 1)
    return trf.write(trf.Tournament(tournament.name, tuple(players), pairers.planned_rounds(tournament),
                                    ranks=ranks))


def round_shown(tournament: Tournament, asked: str | None) -> RoundView | None:
    """One round's boards and their games (the current one unless another is
    asked for): a round of a big Swiss is hundreds of boards, so one at a time."""
    numbers = list(Round.objects.filter(tournament=tournament).values_list("number", "status"))
    if not numbers:
        return None
    statuses = dict(numbers)
    number = wanted if (wanted := row_id(asked)) in statuses else max(statuses)  # 5,000 digits: no int() (issue 35)
    pairings = list(Pairing.objects.filter(round__tournament=tournament, round__number=number)
                    .select_related("red__user", "black__user").order_by("board")
                    .only("board", "result", "match", "match_game", "game_id", "round_id", "red__user__username",
                          "black__user__username"))
    return RoundView(number, statuses[number], pairings)


RUNNING_BOARDS = 60  # the running boards listed at once (a big Swiss round is hundreds)


def running_boards(tournament: Tournament) -> list[Any]:
    """The tournament's games being played now, best rated first (as the live
    list orders them, games.live), each with its board number: what a
    spectator opens to watch. Two queries whatever the number of boards."""
    games = (live.running().filter(tournament_pairing__round__tournament=tournament)
             .select_related("tournament_pairing")[:RUNNING_BOARDS])
    return [{"board": game.tournament_pairing.board, "card": live.card(game)} for game in games]


def page_of(lines: list[Line], asked: str | None) -> tuple[list[Line], int, int]:
    """A page of the standings (PAGE_SIZE lines), its number and the number of pages."""
    pages = max(1, -(-len(lines) // PAGE_SIZE))
    page = min(wanted, pages) if (wanted := row_id(asked)) else 1
    return lines[(page - 1) * PAGE_SIZE:page * PAGE_SIZE], page, pages


def my_entry(tournament: Tournament, user: Any) -> Entry | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return Entry.objects.filter(tournament=tournament, user=user).first()


@dataclass(frozen=True)
class BracketView:
    svg: str  # drawn on the server (bracket_svg), safe: names are escaped there
    ranking: list[tuple[int, Entry]]


def bracket(tournament: Tournament, bots: Mapping[int, str]) -> BracketView | None:
    """The bracket picture, each match linked to its latest game, and the places settled so far.
    A bot's name is drawn "BOT name", as lichess writes a BOT's title: the
    picture's text cannot hold the pages' badge."""
    entries = scoring.entries_by_number(tournament)
    if len(entries) < 2:
        return None
    state = scoring.bracket_of(tournament)
    names = {number: ("BOT " if entry.user_id in bots else "") + entry.user.get_username()
             for number, entry in entries.items()}
    links = {}
    for match, game_id in (Pairing.objects.filter(round__tournament=tournament, game__isnull=False)
                           .exclude(match="").order_by("match_game").values_list("match", "game_id")):
        links[match] = f"/games/{game_id}/"  # the latest game of the match wins
    # A match decided by a forfeit with no game (its player had left): a walkover.
    walkovers = {match: gettext("w/o") for match in Pairing.objects.filter(
        round__tournament=tournament, game__isnull=True,
        result__in=[Pairing.Result.RED_FORFEIT_WIN, Pairing.Result.BLACK_FORFEIT_WIN]).exclude(match="")
        .values_list("match", flat=True)}
    # A disqualified player keeps their matches in the picture but has no place (corrections.py).
    ranking = [(place, entries[number]) for place, number in brackets.final_ranking(state)
               if not entries[number].disqualified]
    drawing = bracket_svg(state, names, links, walkovers, translate=gettext)
    return BracketView(mark_safe(drawing), ranking)  # noqa: S308
