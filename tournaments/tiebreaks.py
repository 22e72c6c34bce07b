"""Tiebreaks for Swiss and round-robin tournaments, as FIDE defines them
(Handbook C.07, the Tie-Break Regulations of 2023), and the standings they give.

Plain values, no Django: the input is the ``Player`` records of ``results.py``
(TRF-16 result codes), the output a list of ``Standing``. The organiser picks
an ordered list of codes from ``TIEBREAKS``; players are ranked by points,
then by each tiebreak in turn (C.07 art. 4.2), and players still level on
everything share a place ("3, 3, 5"); within a shared place they are listed
by pairing number.

The tiebreaks, with C.07's acronyms:

    DE     direct encounter (art. 6)
    WIN    rounds won, with or without playing (art. 7.1)
    WON    games won over the board (art. 7.2)
    BH     Buchholz (art. 8.1)
    BH-C1  Buchholz cut 1 (art. 8.1 with the modifier of art. 14.1)
    SB     Sonneborn-Berger (art. 9.1)
    ARO    average rating of opponents (art. 10.1)
    TPR    tournament performance rating (art. 10.2)

"Number of wins" is offered both ways because C.07 defines both. WON is the
one to use where a rule or page just says "number of wins": it counts only
what happened at the board, so a pairing-allocated bye or an opponent who did
not turn up (both frequent in an online event, where a lost connection is a
forfeit) buys nothing; WIN counts those too.

Unplayed rounds (C.07 art. 16, the part that changed in 2023)
-------------------------------------------------------------

A round is *unplayed* when no game was played at the board: byes ("U", "F",
"H", "Z"), forfeits ("+", "-") and absence (" "). The *voluntarily unplayed
rounds* (VUR, art. 16.2) are those the player chose or caused: half- and
zero-point byes, forfeit losses and absence ("H", "Z", "-", " "); a
pairing-allocated bye, a full-point bye and a forfeit win are not.

Swiss (``round_robin=False``):

- Buchholz family, the player's own unplayed rounds (art. 16.4): each counts
  as a game against a *dummy opponent* whose score is the player's own final
  score. (This replaced 2009's "virtual opponent" that started level and then
  drew every round.) For Sonneborn-Berger that value is multiplied by the
  points the player got in that round, as for a real opponent.
- Buchholz family, the opponents' scores (art. 16.3): an opponent counts with
  his score as it stands, except that his voluntarily unplayed rounds without
  an opponent after the last round he was available for (a withdrawal: the
  rounds he is no longer there for) count as draws (art. 16.3.2). A forfeit
  loss keeps its zero (16.3.1): he was paired and did not come.
- Cut 1 (art. 14.1 with art. 16): the value cut is a voluntarily unplayed
  round's if the player has one (the lowest of them), else the lowest value.
  So resting for a round does not let a player shed his weakest opponent.
- Direct encounter counts games played at the board only.

Round robin (``round_robin=True``): the pairings were fixed in advance, so a
forfeited game counts as a game against that opponent in every tiebreak
(BH, SB and DE alike), a round without an opponent (the bye of an odd field,
``(player, None)`` in ``berger.py``) adds nothing to Buchholz or
Sonneborn-Berger, and a withdrawn player's missing rounds count as nothing
for his opponents.

Ratings (art. 10): ARO and TPR count games played at the board only, with
the ratings in the ``Player`` records; a player with no such game has None.

The values agree with the answers to FIDE's own exercise on these rules
(TEC, "Tie-break exercise", 18 March 2024) for Buchholz, cut 1,
Sonneborn-Berger and the adjusted scores; see the tests. The sub-article
numbers under art. 16 follow the 2023 text as Otto Milvang's reference
implementation (the FIDE tie-break server) cites them; the handbook page
could not be read from here, so check them against it before quoting.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import NamedTuple

from tournaments.results import FORFEITS, Player, Round

Value = Fraction | int | None
"""A tiebreak value: points-like ones are exact fractions, counts and ratings
are ints, and None means the tiebreak does not apply to the player."""

VOLUNTARILY_UNPLAYED = frozenset("HZ- ")
_ABSENT = Round(None, None, " ")


# --------------------------------------------------------------------------
# The field: every player's record, padded, and the scores worked out once.


@dataclass(frozen=True)
class Field:
    """The players of one tournament with what every tiebreak needs, worked
    out once: records padded to the same number of rounds, points, and the
    scores opponents count in Buchholz (C.07 art. 16.3)."""

    players: Mapping[int, Player]
    records: Mapping[int, tuple[Round, ...]]
    round_robin: bool
    points: Mapping[int, float]
    adjusted: Mapping[int, float]

    @classmethod
    def of(cls, players: Iterable[Player], round_robin: bool = False) -> Field:
        listed = list(players)
        table = {p.number: p for p in listed}
        if len(table) != len(listed):
            raise ValueError("two players have the same pairing number")
        rounds = max((len(p.rounds) for p in table.values()), default=0)
        records = {n: p.rounds + (_ABSENT,) * (rounds - len(p.rounds)) for n, p in table.items()}
        _check_opponents(records)
        points = {n: sum(r.points for r in record) for n, record in records.items()}
        adjusted = {n: _adjusted_score(record, round_robin) for n, record in records.items()}
        return cls(table, records, round_robin, points, adjusted)

    @cached_property
    def opposition(self) -> dict[int, list[_Opposition]]:
        """Every player's rounds as the Buchholz family sees them, worked out
        once for BH, BH-C1 and SB alike."""
        return {n: _opposition(self, n) for n in self.records}

    @cached_property
    def rated_games(self) -> dict[int, tuple[float, list[int]]]:
        """Every player's points and opponents' ratings over games played at
        the board, for ARO and TPR alike."""
        return {n: _rated_games(self, n) for n in self.records}


def _check_opponents(records: Mapping[int, tuple[Round, ...]]) -> None:
    for number, record in records.items():
        for r in record:
            if r.opponent is not None and r.opponent not in records:
                raise ValueError(f"player {number} met {r.opponent}, who is not in the tournament")


def _adjusted_score(record: Sequence[Round], round_robin: bool) -> float:
    """The score a player brings to his opponents' Buchholz (C.07 art. 16.3).

    His rounds count as scored, except the voluntarily unplayed rounds without
    an opponent after the last round he was available for: those count as
    draws in a Swiss (16.3.2), so that his early opponents are not punished
    for his withdrawal, and as nothing in a round robin.
    """
    last_available = max((i for i, r in enumerate(record) if r.result not in VOLUNTARILY_UNPLAYED), default=-1)
    late_value = 0.0 if round_robin else 0.5
    return sum(late_value if i > last_available and r.opponent is None else r.points
               for i, r in enumerate(record))


# --------------------------------------------------------------------------
# Buchholz and Sonneborn-Berger (C.07 arts. 8, 9, 14, 16)


class _Opposition(NamedTuple):
    """One round as the Buchholz family sees it."""

    score: float          # the opponent's score, or the dummy opponent's
    result: float         # the points the player got in that round
    voluntary: bool       # a voluntarily unplayed round (cut first)


def _opposition(field: Field, number: int) -> list[_Opposition]:
    """Each round's opponent score for Buchholz and Sonneborn-Berger.

    Swiss: a game played at the board counts the opponent's adjusted score
    (art. 16.3); every unplayed round counts a dummy opponent with the
    player's own score (art. 16.4). Round robin: every paired round, forfeits
    included, counts the opponent; a round without opponent counts nothing.
    """
    own = field.points[number]
    rounds = []
    for r in field.records[number]:
        if r.opponent is not None and (r.played or field.round_robin):
            rounds.append(_Opposition(field.adjusted[r.opponent], r.points, False))
        elif not field.round_robin:
            rounds.append(_Opposition(own, r.points, r.result in VOLUNTARILY_UNPLAYED))
    return rounds


def buchholz(field: Field, tied: Sequence[Sequence[int]] = ()) -> Mapping[int, Value]:
    """BH (C.07 art. 8.1): the sum of the opponents' scores, unplayed rounds
    valued as art. 16 says (see ``_opposition``)."""
    return {n: Fraction(sum(o.score for o in rounds)) for n, rounds in field.opposition.items()}


def buchholz_cut1(field: Field, tied: Sequence[Sequence[int]] = ()) -> Mapping[int, Value]:
    """BH-C1 (C.07 art. 8.1 with art. 14.1): Buchholz without its least
    significant value; a voluntarily unplayed round's value goes first
    (art. 16), the lowest of them, even when a real opponent scored less."""
    return {n: Fraction(sum(o.score for o in rounds) - _cut(rounds)) for n, rounds in field.opposition.items()}


def _cut(rounds: Sequence[_Opposition]) -> float:
    if not rounds:
        return 0.0
    voluntary = [o.score for o in rounds if o.voluntary]
    return min(voluntary) if voluntary else min(o.score for o in rounds)


def sonneborn_berger(field: Field, tied: Sequence[Sequence[int]] = ()) -> Mapping[int, Value]:
    """SB (C.07 art. 9.1): for each round, the opponent's score times the
    points scored against him; unplayed rounds as for Buchholz (art. 16)."""
    return {n: Fraction(sum(o.score * o.result for o in rounds)) for n, rounds in field.opposition.items()}


# --------------------------------------------------------------------------
# Counts (C.07 art. 7)

_WON_AT_THE_BOARD = frozenset("1W")
_WON_ANYHOW = frozenset("1W+UF")


def games_won(field: Field, tied: Sequence[Sequence[int]] = ()) -> Mapping[int, Value]:
    """WON (C.07 art. 7.2): games won over the board."""
    return {n: sum(r.result in _WON_AT_THE_BOARD for r in record) for n, record in field.records.items()}


def rounds_won(field: Field, tied: Sequence[Sequence[int]] = ()) -> Mapping[int, Value]:
    """WIN (C.07 art. 7.1): rounds that brought a win's points, played or not
    (forfeit wins, pairing-allocated and full-point byes)."""
    return {n: sum(r.result in _WON_ANYHOW for r in record) for n, record in field.records.items()}


# --------------------------------------------------------------------------
# Ratings (C.07 art. 10; the dp table of FIDE Handbook B.02 art. 8.1.a)

# dp for a score fraction p = 0.50, 0.51, ..., 1.00; dp(1 - p) = -dp(p).
_DP_UPPER_HALF = (
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65,
    72, 80, 87, 95, 102, 110, 117, 125, 133, 141,
    149, 158, 166, 175, 184, 193, 202, 211, 220, 230,
    240, 251, 262, 273, 284, 296, 309, 322, 336, 351,
    366, 383, 401, 422, 444, 470, 501, 538, 589, 677,
    800,
)


def rating_difference(percent: int) -> int:
    """FIDE's dp (B.02 table 8.1.a) for a score of ``percent`` hundredths.

    >>> rating_difference(50), rating_difference(83), rating_difference(13), rating_difference(100)
    (0, 273, -322, 800)
    """
    if not 0 <= percent <= 100:
        raise ValueError(f"a score fraction is between 0 and 100 hundredths, not {percent}")
    return _DP_UPPER_HALF[percent - 50] if percent >= 50 else -_DP_UPPER_HALF[50 - percent]


def average_rating(ratings: Sequence[int]) -> int | None:
    """The mean rating rounded to the nearest whole number, halves up (art. 10.1)."""
    if not ratings:
        return None
    return (2 * sum(ratings) + len(ratings)) // (2 * len(ratings))


def performance_rating(points: float | Fraction, ratings: Sequence[int]) -> int | None:
    """TPR (art. 10.2): the average rating of the opponents plus dp for the
    fraction of the points scored, rounded to hundredths (halves up).

    >>> performance_rating(1, [1900, 2100]), performance_rating(2, [1900, 2100])
    (2000, 2800)
    """
    average = average_rating(ratings)
    if average is None:
        return None
    halves = int(Fraction(points) * 2)
    percent = (100 * halves + len(ratings)) // (2 * len(ratings))
    return average + rating_difference(percent)


def _rated_games(field: Field, number: int) -> tuple[float, list[int]]:
    """Points and opponents' ratings over the games played at the board."""
    games = [r for r in field.records[number] if r.played and r.opponent is not None]
    ratings = [field.players[r.opponent].rating for r in games if r.opponent is not None]
    return sum(r.points for r in games), ratings


def average_rating_of_opponents(field: Field, tied: Sequence[Sequence[int]] = ()) -> Mapping[int, Value]:
    """ARO (C.07 art. 10.1), over games played at the board."""
    return {n: average_rating(ratings) for n, (_, ratings) in field.rated_games.items()}


def tournament_performance(field: Field, tied: Sequence[Sequence[int]] = ()) -> Mapping[int, Value]:
    """TPR (C.07 art. 10.2), over games played at the board."""
    return {n: performance_rating(points, ratings) for n, (points, ratings) in field.rated_games.items()}


# --------------------------------------------------------------------------
# Direct encounter (C.07 art. 6)


def direct_encounter(field: Field, tied: Sequence[Sequence[int]] = ()) -> Mapping[int, Value]:
    """DE (C.07 art. 6): each player's place within the group he is tied with
    when this tiebreak is applied (1 is first; lower is better), or None for
    a player who is not tied with anyone.

    The places come from the points the tied players scored against each
    other (``_encounter_tiers``); players DE cannot separate share a place.
    """
    places: dict[int, Value] = {n: None for n in field.records}
    for group in tied:
        if len(group) < 2:
            continue
        place = 1
        for tier in _encounter_tiers(field, group):
            places.update((n, place) for n in tier)
            place += len(tier)
    return places


def _encounter_tiers(field: Field, group: Sequence[int]) -> list[list[int]]:
    """The group split into places by direct encounter, best first.

    When every tied player has met every other (art. 6.1; always so in a
    round robin, whose pairings were fixed), they are ranked by the points
    they scored against each other. In a Swiss where not all have met
    (art. 6.2), a player is placed ahead only if he scored more than each of
    the players below could have, had they won their missing encounters; the
    rest stay tied. Players still level are compared again among themselves
    alone, until nothing changes.
    """
    scores, ceilings, all_met = _encounter_scores(field, group)
    if all_met:
        tiers = _runs(sorted(group, key=lambda n: -scores[n]), lambda n: scores[n])
    else:
        tiers = _clear_leaders(group, scores, ceilings)
    if len(tiers) == 1:
        return tiers
    return [sub for tier in tiers for sub in (_encounter_tiers(field, tier) if len(tier) > 1 else [tier])]


def _encounter_scores(field: Field, group: Sequence[int]) -> tuple[dict[int, Fraction], dict[int, Fraction], bool]:
    """Points each scored against the others in the group, the most each
    could have scored had he won the encounters he has not had, and whether
    all have met.

    Players who met more than once count the average of their games, so
    that a repeated pairing weighs as one encounter.
    """
    members = set(group)
    scores: dict[int, Fraction] = {}
    ceilings: dict[int, Fraction] = {}
    all_met = True
    for n in group:
        games: dict[int, list[float]] = {}
        for r in field.records[n]:
            counts = r.played or (field.round_robin and r.result in FORFEITS)
            if r.opponent in members and counts:
                games.setdefault(r.opponent, []).append(r.points)
        scores[n] = sum((Fraction(sum(g)) / len(g) for g in games.values()), Fraction(0))
        unmet = len(group) - 1 - len(games)
        ceilings[n] = scores[n] + unmet
        all_met = all_met and unmet == 0
    return scores, ceilings, all_met or field.round_robin


def _clear_leaders(group: Sequence[int], scores: Mapping[int, Fraction],
                   ceilings: Mapping[int, Fraction]) -> list[list[int]]:
    ordered = sorted(group, key=lambda n: (-scores[n], -ceilings[n], n))
    tiers = []
    start = 0
    while start < len(ordered) - 1:
        if scores[ordered[start]] <= max(ceilings[n] for n in ordered[start + 1:]):
            break
        tiers.append([ordered[start]])
        start += 1
    tiers.append(ordered[start:])
    return tiers


# --------------------------------------------------------------------------
# The catalogue and the standings

Compute = Callable[[Field, Sequence[Sequence[int]]], Mapping[int, Value]]


class Tiebreak(NamedTuple):
    """A tiebreak the organiser may choose: its label, how it is computed
    (from the field and the groups still tied when it is applied; only DE
    looks at those), and whether a higher value ranks higher."""

    label: str
    compute: Compute
    higher_is_better: bool = True


def gettext_noop(label: str) -> str:
    """Marks a label for the site's translation catalogs (makemessages looks
    for this name) while this module stays free of Django; the pages
    translate the label where they show it."""
    return label


TIEBREAKS: dict[str, Tiebreak] = {
    "BH": Tiebreak(gettext_noop("Buchholz"), buchholz),
    "BH-C1": Tiebreak(gettext_noop("Buchholz cut 1"), buchholz_cut1),
    "SB": Tiebreak(gettext_noop("Sonneborn-Berger"), sonneborn_berger),
    "DE": Tiebreak(gettext_noop("Direct encounter"), direct_encounter, higher_is_better=False),
    "WON": Tiebreak(gettext_noop("Games won"), games_won),
    "WIN": Tiebreak(gettext_noop("Rounds won"), rounds_won),
    "ARO": Tiebreak(gettext_noop("Average rating of opponents"), average_rating_of_opponents),
    "TPR": Tiebreak(gettext_noop("Performance rating"), tournament_performance),
}


@dataclass(frozen=True)
class Standing:
    """One line of the standings: shared ranks repeat ("3, 3, 5"); the
    tiebreak values are in the order the organiser chose."""

    rank: int
    player: Player
    points: Fraction
    tiebreaks: tuple[Value, ...]


def standings(players: Sequence[Player], order: Sequence[str], *, round_robin: bool = False) -> list[Standing]:
    """Rank the players by points, then by each tiebreak in ``order``
    (codes of ``TIEBREAKS``), players level on all of them sharing a place.

    Each tiebreak only breaks the ties left by those before it, which is
    what makes direct encounter compare the right group of players.
    """
    unknown = [code for code in order if code not in TIEBREAKS]
    if unknown:
        raise ValueError(f"unknown tiebreaks {unknown}; known: {list(TIEBREAKS)}")
    field = Field.of(players, round_robin)
    groups = _runs(sorted(field.records, key=lambda n: -field.points[n]), lambda n: field.points[n])
    columns = []
    for code in order:
        tiebreak = TIEBREAKS[code]
        values = tiebreak.compute(field, groups)
        columns.append(values)
        groups = [tier for group in groups for tier in _break(group, values, tiebreak.higher_is_better)]
    return _lines(field, groups, columns)


def _break(group: list[int], values: Mapping[int, Value], higher_is_better: bool) -> list[list[int]]:
    """Split a tied group by one tiebreak, best first, None (does not apply) last."""
    if len(group) == 1:
        return [group]
    sign = -1 if higher_is_better else 1
    keys = {n: _sortable(values[n], sign) for n in group}
    return _runs(sorted(group, key=keys.__getitem__), keys.__getitem__)


def _sortable(value: Value, sign: int) -> float:
    if value is None:
        return float("inf")
    if isinstance(value, Fraction):
        return sign * value.numerator / value.denominator
    return float(sign * value)


def _runs(ordered: Sequence[int], key: Callable[[int], object]) -> list[list[int]]:
    """Split an ordered list into runs of equal key."""
    runs: list[list[int]] = []
    previous: object = object()
    for n in ordered:
        current = key(n)
        if not runs or current != previous:
            runs.append([])
        runs[-1].append(n)
        previous = current
    return runs


def _lines(field: Field, groups: Sequence[Sequence[int]], columns: Sequence[Mapping[int, Value]]) -> list[Standing]:
    lines = []
    rank = 1
    for group in groups:
        for n in sorted(group):
            lines.append(Standing(rank, field.players[n], Fraction(field.points[n]),
                                  tuple(column[n] for column in columns)))
        rank += len(group)
    return lines
