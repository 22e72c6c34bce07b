"""Single- and double-elimination brackets as plain values (no Django).

A bracket is a pure function of the number of entrants and the format
options: a tuple of ``Match`` slots with stable ids, each naming where its two
players come from (``Seed``, ``WinnerOf``, ``LoserOf``). The site stores only
the results, match id -> winner, and ``resolve`` derives everything else from
them: who sits in each slot, which matches can be played now, the champion,
whether the grand final needs its reset, and the final ranking. Nothing is
stored that could drift from the results.

Match ids:

- ``W{r}-{i}``: winners' bracket (the whole of single elimination), round r,
  match i counted from the top, both 1-based;
- ``L{r}-{i}``: losers' bracket of double elimination;
- ``3P``: third-place match between the semi-final losers (single elimination);
- ``GF``: grand final between the two brackets' winners, and ``GF2``, the
  reset, played only when the losers'-bracket winner wins ``GF`` (until then
  the winners'-bracket winner has not lost at all).

Seeding is the classic recursive one (1 v 8, 4 v 5, 2 v 7, 3 v 6 for eight),
so seeds 1 and 2 can meet only in the final and 1-4 only from the semis on.
A field that is not a power of two is filled up with absent seeds; the top
seeds face them, and a match against an absent seed is a bye: it is not a
match at all, the seed's next match takes the seed directly, and in double
elimination the bye has no loser to drop. Ids keep their positions in the full
power-of-two bracket, so ``W1-1`` is simply missing when seed 1 has a bye.

In double elimination the winners'-bracket losers of round r + 1 drop into
losers'-bracket round 2r against the survivors of the round before, in an
order that alternates from one drop-in round to the next (see
``drop_order``), so that a dropped player does not meet at once someone he
has just beaten where the bracket leaves a choice.

>>> bracket = single_elimination(4)
>>> [(m.id, m.top, m.bottom) for m in bracket.matches]  # doctest: +NORMALIZE_WHITESPACE
[('W1-1', Seed(number=1), Seed(number=4)), ('W1-2', Seed(number=2), Seed(number=3)),
 ('W2-1', WinnerOf(match='W1-1'), WinnerOf(match='W1-2'))]
>>> state = resolve(bracket, [11, 12, 13, 14], {"W1-1": 11, "W1-2": 13})
>>> state.ready
('W2-1',)
>>> state["W2-1"].top, state["W2-1"].bottom
(11, 13)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

Section = Literal["W", "L", "3P", "GF"]
Status = Literal["waiting", "ready", "done", "void"]


class BracketError(ValueError):
    """A result that the bracket cannot accept (unknown match, a winner who is
    not in it, a match that is not ready to be played)."""


@dataclass(frozen=True)
class Seed:
    """The entrant seeded ``number`` (1-based)."""

    number: int

    def __str__(self) -> str:
        return f"Seed {self.number}"


@dataclass(frozen=True)
class WinnerOf:
    match: str

    def __str__(self) -> str:
        return f"Winner of {self.match}"


@dataclass(frozen=True)
class LoserOf:
    match: str

    def __str__(self) -> str:
        return f"Loser of {self.match}"


Source = Seed | WinnerOf | LoserOf


@dataclass(frozen=True)
class Match:
    """One match slot: where its two players come from and where they go.

    ``winner_to``/``loser_to`` name the next match, or None when the winner
    has won the bracket (or a place) and when the loser is out. ``GF2`` is
    fed by ``GF`` but played only if the losers'-bracket winner won ``GF``.
    """

    id: str
    section: Section
    round: int
    index: int
    top: Source
    bottom: Source
    winner_to: str | None = None
    loser_to: str | None = None

    @property
    def conditional(self) -> bool:
        """Whether the match may never be played (the grand-final reset)."""
        return self.id == "GF2"


@dataclass(frozen=True)
class Bracket:
    entrants: int
    double: bool
    third_place: bool
    size: int
    matches: tuple[Match, ...]
    byes: tuple[int, ...]
    _by_id: Mapping[str, Match] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {m.id: m for m in self.matches})

    def __getitem__(self, match_id: str) -> Match:
        return self._by_id[match_id]

    def __contains__(self, match_id: object) -> bool:
        return match_id in self._by_id

    def rounds(self, section: Section) -> list[list[Match]]:
        """The section's matches grouped by round, first round first (empty rounds left out)."""
        grouped: dict[int, list[Match]] = {}
        for match in self.matches:
            if match.section == section:
                grouped.setdefault(match.round, []).append(match)
        return [grouped[r] for r in sorted(grouped)]

    def round_count(self, section: Section) -> int:
        """Rounds of the section in the full power-of-two bracket (byes included)."""
        return max((m.round for m in self.matches if m.section == section), default=0)


# --- building -------------------------------------------------------------


def bracket_size(entrants: int) -> int:
    """The power of two that seats the field.

    >>> [bracket_size(n) for n in (2, 3, 4, 5, 8, 9)]
    [2, 4, 4, 8, 8, 16]
    """
    if entrants < 2:
        raise ValueError(f"a bracket needs at least 2 entrants, not {entrants}")
    size = 1
    while size < entrants:
        size *= 2
    return size


def seeding_order(size: int) -> list[int]:
    """Seeds in bracket order, top line first; match i pairs places 2i-1 and 2i.

    Each doubling puts every seed s against ``2 * current + 1 - s`` beside it,
    so the two halves hold seeds 1 and 2, the four quarters 1-4, and so on.

    >>> seeding_order(8)
    [1, 8, 4, 5, 2, 7, 3, 6]
    """
    if size < 1 or size & (size - 1):
        raise ValueError(f"the seeding order needs a power of two, not {size}")
    order = [1]
    while len(order) < size:
        mirror = 2 * len(order) + 1
        order = [seed for s in order for seed in (s, mirror - s)]
    return order


def drop_order(drop_round: int, count: int) -> list[int]:
    """Which winners'-bracket match (1-based) drops its loser into each
    losers'-bracket match of drop-in round ``drop_round`` (the losers of
    winners' round ``drop_round + 1``), listed by losers'-bracket match.

    The survivor of losers' match i came up through the part of the winners'
    bracket under winners' match i, so the natural order would set a drop-in
    against a player he has just beaten. Odd drop-in rounds reverse the order
    (survivors from the top meet losers from the bottom); even ones swap the
    halves, which keeps survivors away from the winners' block that reversing
    twice would bring back. The last two drop-in rounds (two matches, then
    one) keep the natural order: there every survivor has come through both
    blocks, and with the seeds winning it is the order that avoids the
    rematch. The schedule is the one that, simulated over all seeds winning
    and over random results for 8 to 128 entrants, gave the fewest rematches
    of any kind in the losers' bracket among the usual candidates (natural,
    reversed, halves swapped, reversed halves, pairs swapped).

    >>> drop_order(1, 4), drop_order(2, 4), drop_order(1, 2), drop_order(2, 2)
    ([4, 3, 2, 1], [3, 4, 1, 2], [2, 1], [1, 2])
    """
    natural = list(range(1, count + 1))
    if count == 1 or (count == 2 and drop_round > 1):
        return natural
    if drop_round % 2 == 1:
        return natural[::-1]
    half = count // 2
    return natural[half:] + natural[:half]


def _winners_rounds(size: int) -> list[Match]:
    order = seeding_order(size)
    matches = [
        Match(f"W1-{i + 1}", "W", 1, i + 1, Seed(order[2 * i]), Seed(order[2 * i + 1]))
        for i in range(size // 2)
    ]
    count, rnd = size // 4, 2
    while count >= 1:
        matches += [
            Match(f"W{rnd}-{i}", "W", rnd, i, WinnerOf(f"W{rnd - 1}-{2 * i - 1}"), WinnerOf(f"W{rnd - 1}-{2 * i}"))
            for i in range(1, count + 1)
        ]
        count, rnd = count // 2, rnd + 1
    return matches


def _losers_rounds(size: int) -> list[Match]:
    """The losers' bracket of a full ``size`` field: round 1 pairs the
    winners' round-1 losers; each even round 2d takes in the losers of
    winners' round d + 1; each odd round after the first halves the field."""
    if size < 4:
        return []
    first = size // 4
    matches = [Match(f"L1-{i}", "L", 1, i, LoserOf(f"W1-{2 * i - 1}"), LoserOf(f"W1-{2 * i}"))
               for i in range(1, first + 1)]
    drop_round, count = 1, first
    while count >= 1:
        rnd = 2 * drop_round
        order = drop_order(drop_round, count)
        matches += [Match(f"L{rnd}-{i}", "L", rnd, i, WinnerOf(f"L{rnd - 1}-{i}"),
                          LoserOf(f"W{drop_round + 1}-{order[i - 1]}"))
                    for i in range(1, count + 1)]
        if count > 1:
            matches += [Match(f"L{rnd + 1}-{i}", "L", rnd + 1, i, WinnerOf(f"L{rnd}-{2 * i - 1}"),
                              WinnerOf(f"L{rnd}-{2 * i}"))
                        for i in range(1, count // 2 + 1)]
        drop_round, count = drop_round + 1, count // 2
    return matches


def _finals(size: int, double: bool, third_place: bool) -> list[Match]:
    winners_rounds = size.bit_length() - 1
    final = f"W{winners_rounds}-1"
    if double:
        losers_champion: Source = WinnerOf(f"L{2 * (winners_rounds - 1)}-1") if size >= 4 else LoserOf(final)
        return [
            Match("GF", "GF", 1, 1, WinnerOf(final), losers_champion),
            # The winners'-bracket player stays on top in the reset.
            Match("GF2", "GF", 2, 1, LoserOf("GF"), WinnerOf("GF")),
        ]
    if third_place and size >= 4:
        semi = winners_rounds - 1
        return [Match("3P", "3P", 1, 1, LoserOf(f"W{semi}-1"), LoserOf(f"W{semi}-2"))]
    return []


def _without_byes(matches: list[Match], entrants: int) -> list[Match]:
    """Drop the matches that have fewer than two players (a bye, or a
    losers'-bracket slot fed by byes) and send their one player on directly."""
    passed: dict[str, Source | None] = {}  # a dropped match -> whom it passes on

    def settle(source: Source) -> Source | None:
        if isinstance(source, Seed):
            return source if source.number <= entrants else None
        if source.match not in passed:
            return source
        # A bye has no loser; its winner is the one player it had.
        return passed[source.match] if isinstance(source, WinnerOf) else None

    kept = []
    for match in matches:
        top, bottom = settle(match.top), settle(match.bottom)
        if top is None or bottom is None:
            passed[match.id] = top if bottom is None else bottom
        else:
            kept.append(Match(match.id, match.section, match.round, match.index, top, bottom))
    return kept


def _with_destinations(matches: list[Match]) -> tuple[Match, ...]:
    winner_to: dict[str, str] = {}
    loser_to: dict[str, str] = {}
    for match in matches:
        for source in (match.top, match.bottom):
            if isinstance(source, WinnerOf):
                winner_to[source.match] = match.id
            elif isinstance(source, LoserOf):
                loser_to[source.match] = match.id
    return tuple(Match(m.id, m.section, m.round, m.index, m.top, m.bottom,
                       winner_to.get(m.id), loser_to.get(m.id)) for m in matches)


def build(entrants: int, double: bool = False, third_place: bool = False) -> Bracket:
    """The bracket for ``entrants`` players, in playing order (every match
    after the matches it depends on)."""
    if double and third_place:
        raise ValueError("double elimination decides third place in the losers' bracket")
    size = bracket_size(entrants)
    full = _winners_rounds(size) + (_losers_rounds(size) if double else []) + _finals(size, double, third_place)
    matches = _with_destinations(_without_byes(full, entrants))
    byes = tuple(range(1, size - entrants + 1))
    return Bracket(entrants, double, third_place, size, matches, byes)


def single_elimination(entrants: int, third_place: bool = False) -> Bracket:
    return build(entrants, double=False, third_place=third_place)


def double_elimination(entrants: int) -> Bracket:
    return build(entrants, double=True)


# --- resolving results ----------------------------------------------------


@dataclass(frozen=True)
class Slot:
    """A match as the results so far fill it: its players (None while
    unknown), its winner and loser, and its status: "waiting" for a player,
    "ready" to be played, "done", or "void" (a reset that is not needed)."""

    match: Match
    top: int | None
    bottom: int | None
    winner: int | None
    status: Status

    @property
    def id(self) -> str:
        return self.match.id

    @property
    def loser(self) -> int | None:
        if self.winner is None:
            return None
        return self.bottom if self.winner == self.top else self.top


@dataclass(frozen=True)
class BracketState:
    """The bracket filled from the results; ``seeds`` are the players' ids in seed order."""

    bracket: Bracket
    seeds: tuple[int, ...]
    slots: tuple[Slot, ...]
    _by_id: Mapping[str, Slot] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {s.id: s for s in self.slots})

    def seed_of(self, player: int) -> int:
        """The player's seed number (1-based)."""
        return self.seeds.index(player) + 1

    def __getitem__(self, match_id: str) -> Slot:
        return self._by_id[match_id]

    def __iter__(self) -> Iterator[Slot]:
        return iter(self.slots)

    def _with_status(self, status: Status) -> tuple[str, ...]:
        return tuple(s.id for s in self.slots if s.status == status)

    @property
    def ready(self) -> tuple[str, ...]:
        """Matches that can be played now, in playing order."""
        return self._with_status("ready")

    @property
    def finished(self) -> tuple[str, ...]:
        return self._with_status("done")

    @property
    def reset_needed(self) -> bool | None:
        """Whether GF2 is to be played: None before GF (or without a grand final)."""
        if "GF" not in self.bracket:
            return None
        grand_final = self["GF"]
        if grand_final.winner is None:
            return None
        return grand_final.winner == grand_final.bottom

    @property
    def champion(self) -> int | None:
        last = self._deciding_match()
        return last.winner if last is not None else None

    @property
    def runner_up(self) -> int | None:
        last = self._deciding_match()
        return last.loser if last is not None else None

    @property
    def complete(self) -> bool:
        return all(s.status in ("done", "void") for s in self.slots)

    def _deciding_match(self) -> Slot | None:
        """The match whose winner is the champion, once it is known."""
        if self.bracket.double:
            reset = self.reset_needed
            if reset is None:
                return None
            return self["GF2"] if reset else self["GF"]
        final = f"W{self.bracket.round_count('W')}-1"
        return self[final]


def _player(source: Source, seeds: Sequence[int], slots: Mapping[str, Slot]) -> int | None:
    if isinstance(source, Seed):
        return seeds[source.number - 1]
    slot = slots[source.match]
    return slot.winner if isinstance(source, WinnerOf) else slot.loser


def resolve(bracket: Bracket, seeds: Sequence[int], winners: Mapping[str, int]) -> BracketState:
    """Fill the bracket from the results.

    ``seeds`` are the players' ids in seed order (``seeds[0]`` is seed 1);
    ``winners`` maps a match id to the id of its winner. A result for a match
    that is not ready, or a winner who is not in the match, raises
    ``BracketError``: the stored results must always tell one story.
    """
    if len(seeds) != bracket.entrants:
        raise BracketError(f"the bracket is for {bracket.entrants} entrants, not {len(seeds)}")
    if len(set(seeds)) != len(seeds):
        raise BracketError("a player is seeded twice")
    unknown = set(winners) - {m.id for m in bracket.matches}
    if unknown:
        raise BracketError(f"no such match: {', '.join(sorted(unknown))}")
    slots: dict[str, Slot] = {}
    for match in bracket.matches:
        slots[match.id] = _slot(match, seeds, slots, winners.get(match.id))
    return BracketState(bracket, tuple(seeds), tuple(slots.values()))


def _slot(match: Match, seeds: Sequence[int], slots: Mapping[str, Slot], winner: int | None) -> Slot:
    top, bottom = _player(match.top, seeds, slots), _player(match.bottom, seeds, slots)
    if match.conditional and _reset_not_needed(slots["GF"]):
        if winner is not None:
            raise BracketError("GF2 is played only when the losers'-bracket winner wins GF")
        return Slot(match, None, None, None, "void")
    if top is None or bottom is None:
        if winner is not None:
            raise BracketError(f"{match.id} has a result but not yet both players")
        return Slot(match, top, bottom, None, "waiting")
    if winner is None:
        return Slot(match, top, bottom, None, "ready")
    if winner not in (top, bottom):
        raise BracketError(f"{winner} did not play in {match.id}")
    return Slot(match, top, bottom, winner, "done")


def _reset_not_needed(grand_final: Slot) -> bool:
    return grand_final.winner is not None and grand_final.winner == grand_final.top


# --- ranking ----------------------------------------------------------------


def _elimination_stage(match: Match) -> int | None:
    """The round in which a match's loser is out, for ranking (later is
    better); None when the loser plays on or the match is a final."""
    if match.loser_to is not None or match.section in ("GF", "3P") or match.winner_to is None:
        return None
    return match.round


def final_ranking(state: BracketState) -> list[tuple[int, int]]:
    """(place, player) for every player whose place is settled, best first.

    Champion 1 and runner-up 2; then the third-place match's winner and
    loser, or else the semi-final losers (single elimination) or the
    losers'-bracket final's loser (double) share or take 3; everybody else
    ranks by the round he went out in, later rounds first, and those out in
    the same round share a place (5-8, 9-16 ...). Places count the players
    above by the bracket's shape, so they are right before the end too.
    """
    ranking: list[tuple[int, int]] = []
    above = 0
    for group in _place_groups(state):
        players = [p for p in group if p is not None]
        ranking += [(above + 1, p) for p in sorted(players)]
        above += len(group)
    return ranking


def _place_groups(state: BracketState) -> list[list[int | None]]:
    """Players by the place they share, best first; None for a player whose
    match is not yet decided (he still counts, so places below are right)."""
    groups: list[list[int | None]] = [[state.champion], [state.runner_up]]
    if "3P" in state.bracket:
        third = state["3P"]
        groups += [[third.winner], [third.loser]]
    stages: dict[int, list[int | None]] = {}
    for slot in state.slots:
        stage = _elimination_stage(slot.match)
        if stage is not None:
            stages.setdefault(stage, []).append(slot.loser)
    return groups + [stages[s] for s in sorted(stages, reverse=True)]
