"""Swiss pairings by the FIDE Dutch system (Handbook C.04.3), on a weighted matching.

Plain values, no Django: players are ``results.Player`` records (TRF-16
terms), a board is ``(red, black)`` pairing numbers, Red (TRF's "white")
first, and a bye is ``(player, None)``. The site calls :func:`pair`; the
command line pairs a TRF file the way bbpPairings does::

    python -m tournaments.swiss --dutch IN.trf -p OUT.txt

Why a matching and not Dutch's own search. The Handbook describes Dutch as
a search through transpositions and exchanges, bracket by bracket, with
backtracking; done literally (as caissify-pairings does) it takes tens of
seconds a round at a hundred players. bbpPairings showed that the same
criteria can be put on the edges of one graph and answered by a
maximum-weight matching, which is polynomial. We do the same, with our own
encoding:

- **Absolute criteria are missing edges** (C.04.1): no rematch, no pair the
  organiser forbade, no pair whose colours cannot both be legal (both
  players must have the same colour: a colour difference beyond +-2 or the
  same colour three times running). A pairing-allocated bye is an edge to
  one extra vertex, drawn only for players who have had no bye or win
  without playing (C.04.1 d).
- **Quality criteria are digits of one integer weight**, most important
  first, so the heaviest matching is the best one lexicographically:
  every player paired (the matching's cardinality); then the score
  differences top-down (for each boundary between adjacent score groups,
  highest first, the number of pairs that cross it: fewest downfloaters from
  the top group first); then how far above each crossed boundary the
  floaters started (C.7: floaters of the lowest score; the bye counts as a
  float below the lowest group); then colour preferences met (C.12), then
  strong ones (C.13); then floats repeated from the last round (C.14/C.15)
  and from the round before (C.16/C.17); then which player of a group floats
  (the lowest ranked); then Dutch's order inside a score group (S1 against
  S2, 1 v n/2+1, ..., transpositions before exchanges; a downfloater meets the
  top residents).
- A weight on one edge cannot know which residents a score group's
  downfloaters (MDPs) will take, yet Dutch pairs the rest of the group only
  after them. So after a first matching shows who floats where, we match
  twice more with the order digit worked out for those brackets, and keep
  the pairing that scores best by its own brackets.
- The weights are Python ints and rustworkx's matching works in 128-bit
  integers, so each digit is given just the width its sum can reach. Past
  what 125 bits hold (thousands of players, many score groups) headroom is
  taken from the order digit first, then from the score boundaries: the
  rules stay absolute, but ties between lower criteria may be broken less
  well.

Where we differ from FIDE Dutch and from caissify-pairings (the reference our
tests compare with; about 70-80 % of rounds identical on random tournaments
of 6-30 players):

- Dutch's order of transpositions and exchanges is approximated by one
  penalty per pair (S2's index weighted by the S1 player's rank, steeply for
  the top of S1), not reproduced exactly; so when several pairings are
  equally good on every numbered criterion, ours may pick a different one.
  That is most of the rounds that differ.
- The topscorer exception of the last round (C.04.1 f/g, C.10/C.11) is not
  made: nobody, topscorer or not, gets a colour difference beyond +-2 or one
  colour three times running.
- C.9 (the bye goes to a player with the fewest unplayed games) and the
  score-difference float criteria C.18-C.21 are not encoded.
- Any opponent counts for "no rematch", a forfeited game too (FIDE and
  bbpPairings let players whose game was forfeited meet again).
- Colours: E.4 grants the preference of the higher ranked player, ranked by
  score and then pairing number (A.2); caissify-pairings ranks by pairing
  number alone there, so in some rounds with the same pairs its colours on
  a board are the other way round.
- Above ``PRUNE_FROM`` players, each player is given edges only to likely
  partners (near the ideal one in the own score group, the edges of the two
  score groups either side, the lowest players for the bye); if that graph
  has no complete pairing, the full graph is used. The pruned graph can miss
  the best pairing when the best partner is far from the ideal one (on
  random 200-player Swisses, 25 of 27 rounds were the full graph's).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

import rustworkx as rx

from tournaments import trf
from tournaments.results import BLACK, RED, Colour, Player, Round

Board = tuple[int, int | None]
Float = Literal["up", "down"] | None

# Players from which the graph is pruned; below it every legal pair is an edge.
PRUNE_FROM = 120
# How many neighbours around the ideal partner, or at a score group's edge, a pruned graph keeps.
WINDOW = 8
# S1's first ORDER_TOP players weigh more the higher they stand (Dutch's transposition order).
ORDER_TOP = 32
# Order penalties beyond this are told apart no further (a partner far from the ideal one).
ORDER_CAP = 2**20 - 1
# Choosing a group's downfloater, only the last FLOATER_CAP places are told apart.
FLOATER_CAP = 63
# rustworkx keeps weights in 128-bit integers; the whole matching's weight must fit.
WEIGHT_BITS = 125

NONE, MILD, STRONG, ABSOLUTE = 0, 1, 2, 3


class NoPairing(ValueError):
    """No pairing meets the absolute criteria (C.04.1): the tournament cannot go on."""


@dataclass(frozen=True)
class Entrant:
    """What the pairing needs to know of one player, worked out once."""

    number: int
    score: int  # in half points, so that scores compare exactly
    colours: tuple[Colour, ...]
    preference: Colour | None
    strength: int
    last_float: Float
    float_before: Float
    can_have_bye: bool
    met: frozenset[int]

    @property
    def absolute(self) -> bool:
        return self.strength == ABSOLUTE


def colour_preference(colours: Sequence[Colour]) -> tuple[Colour | None, int]:
    """The colour a player should get next, and how strongly (C.04.3 A.6).

    >>> colour_preference(["w", "w"])
    ('b', 3)
    >>> colour_preference(["w", "b", "w"])
    ('b', 2)
    >>> colour_preference(["w", "b"])
    ('w', 1)
    """
    if not colours:
        return None, NONE
    difference = colours.count(RED) - colours.count(BLACK)
    last = colours[-1]
    other = BLACK if last == RED else RED
    if difference > 1:
        return BLACK, ABSOLUTE
    if difference < -1:
        return RED, ABSOLUTE
    if len(colours) >= 2 and colours[-2] == last:
        return other, ABSOLUTE
    if difference == 1:
        return BLACK, STRONG
    if difference == -1:
        return RED, STRONG
    return other, MILD


def _score_before(player: Player, index: int) -> int:
    return round(2 * sum(r.points for r in player.rounds[:index]))


def _float_in(player: Player, index: int, table: dict[int, Player]) -> Float:
    """The float of a player's round (A.4): a point without playing is a downfloat;
    a game against someone of another score floats the higher down and the lower up."""
    if index < 0 or index >= len(player.rounds):
        return None
    played = player.rounds[index]
    if played.result in "UF+":
        return "down"
    if not played.played or played.opponent not in table:
        return None
    mine = _score_before(player, index)
    theirs = _score_before(table[played.opponent], index)
    if mine == theirs:
        return None
    return "down" if mine > theirs else "up"


def entrant(player: Player, table: dict[int, Player]) -> Entrant:
    colours = tuple(player.colours())
    preference, strength = colour_preference(colours)
    last = len(player.rounds) - 1
    return Entrant(player.number, round(2 * player.points), colours, preference, strength,
                   _float_in(player, last, table), _float_in(player, last - 1, table),
                   not player.had_pairing_bye(), frozenset(player.opponents()))


def colours_compatible(a: Entrant, b: Entrant) -> bool:
    """Whether some colour allocation keeps both players within C.04.1 f and g."""
    return not (a.absolute and b.absolute and a.preference == b.preference)


def allocate(higher: Entrant, lower: Entrant, initial: Colour = RED) -> tuple[int, int]:
    """(red, black) for a pair by C.04.3 E; ``higher`` is the higher ranked player."""
    colour = _colour_of_higher(higher, lower, initial)
    return (higher.number, lower.number) if colour == RED else (lower.number, higher.number)


def _colour_of_higher(higher: Entrant, lower: Entrant, initial: Colour) -> Colour:
    wanted, other = higher.preference, lower.preference
    if wanted is not None and wanted != other:
        return wanted  # E.1: both granted, or the other has no preference
    if wanted is None and other is not None:
        return BLACK if other == RED else RED  # E.1
    if wanted is not None and higher.strength != lower.strength:
        stronger_wants_it = higher.strength > lower.strength  # E.2
        return wanted if stronger_wants_it else (BLACK if wanted == RED else RED)
    for mine, theirs in zip(reversed(higher.colours), reversed(lower.colours)):
        if mine != theirs:  # E.3: alternate from the last round they differed
            return BLACK if mine == RED else RED
    if wanted is not None:
        return wanted  # E.4
    odd = higher.number % 2 == 1  # E.5
    return initial if odd else (BLACK if initial == RED else RED)


class _Field:
    """The score groups, ranks and digit widths that turn a pair into a weight."""

    def __init__(self, entrants: Sequence[Entrant], floaters: Sequence[tuple[int, int]] | None = None,
                 by_partner: bool = True) -> None:
        self.ranked = sorted(entrants, key=lambda e: (-e.score, e.number))
        self.scores = sorted({e.score for e in entrants}, reverse=True)
        self.needs_bye = len(entrants) % 2 == 1
        group_of = {score: index for index, score in enumerate(self.scores)}
        self.group: dict[int, int] = {}
        self.position: dict[int, int] = {}
        self.size = [0] * len(self.scores)
        for e in self.ranked:
            g = group_of[e.score]
            self.group[e.number] = g
            self.position[e.number] = self.size[g]
            self.size[g] += 1
        self.bye_group = len(self.scores)  # a virtual group below everyone
        self._floater_index: dict[int, int] = {}
        self._rest_position: dict[int, int] = {}
        self._rest_size = [0] * len(self.size)
        if floaters is None:
            self._expected_rest()
        else:
            self._use_floaters(floaters, by_partner)
        self._set_widths(len(entrants))

    def _expected_rest(self) -> None:
        """Before any matching: a score group that an odd number of players above
        must float into gives its top resident to that floater."""
        above = 0
        for g, size in enumerate(self.size):
            taken = above % 2
            above += size
            for number in self._members(g)[:taken]:
                self._rest_position[number] = -1
            for index, number in enumerate(self._members(g)[taken:]):
                self._rest_position[number] = index
            self._rest_size[g] = size - taken

    def _members(self, g: int) -> list[int]:
        return [e.number for e in self.ranked if self.group[e.number] == g]

    def _use_floaters(self, floaters: Sequence[tuple[int, int]], by_partner: bool) -> None:
        """Take the downfloaters a matching found, (floater, partner) pairs: a score
        group's MDPs meet its top residents in rank order, and the residents they did
        not take pair among themselves. ``by_partner`` leaves out the residents the
        MDPs did meet; otherwise as many from the top of the group."""
        incoming = [0] * len(self.size)
        taken = set()
        for floater, partner in sorted(floaters, key=lambda fp: (self.group[fp[0]], self.position[fp[0]])):
            g = self.group[partner]
            self._floater_index[floater] = incoming[g]
            incoming[g] += 1
            taken.add(partner)
        if not by_partner:
            taken = {n for g in range(len(self.size)) for n in self._members(g)[:incoming[g]]}
        for g in range(len(self.size)):
            rest = [n for n in self._members(g) if n not in taken]
            for number in self._members(g):
                self._rest_position[number] = -1
            for index, number in enumerate(rest):
                self._rest_position[number] = index
            self._rest_size[g] = len(rest)

    def floaters(self, pairs: Iterable[tuple[int, int | None]]) -> list[tuple[int, int]]:
        """The (downfloater, partner) pairs of a pairing, byes left out."""
        found = []
        for a, b in pairs:
            if b is not None and self.group[a] != self.group[b]:
                high, low = (a, b) if self.group[a] < self.group[b] else (b, a)
                found.append((high, low))
        return found

    def _set_widths(self, players: int) -> None:
        """Give each digit the bits its sum over a whole pairing can reach, least
        significant first, then the score boundaries; if that is more than the
        128-bit budget, take headroom from the least important digits first."""
        pairs = (players + 1) // 2 or 1
        groups = len(self.size) + 1
        per_pair = [ORDER_CAP, FLOATER_CAP, 2, 2, 1, 1, groups * groups // 2]
        base = [most.bit_length() for most in per_pair]
        head = [pairs.bit_length()] * len(base)
        score = self._boundary_widths(players)
        budget = WEIGHT_BITS - pairs.bit_length()
        # order, floater, height, score boundaries, then the floats and colours
        for digit in (0, 1, 6):
            while sum(base) + sum(head) + sum(score) > budget and head[digit] > 0:
                head[digit] -= 1
        while sum(base) + sum(head) + sum(score) > budget and max(score) > 1:
            widest = max(score)
            score = [w - 1 if w == widest else w for w in score]
        for digit in (2, 3, 4, 5):
            while sum(base) + sum(head) + sum(score) > budget and head[digit] > 0:
                head[digit] -= 1
        lower = [b + h for b, h in zip(base, head)]
        self.shifts = [sum(lower[:i]) for i in range(len(lower) + 1)]
        # a pair crosses boundary k when one player's group is k or above and the other's below
        self.unit = [0] * len(score)
        for k in range(len(score) - 1, -1, -1):
            self.unit[k] = self.unit[k + 1] << score[k + 1] if k + 1 < len(score) else 1
        self.prefix = [0]
        for k in range(len(score)):
            self.prefix.append(self.prefix[-1] + self.unit[k])
        self.total_bits = self.shifts[-1] + sum(score)

    def _boundary_widths(self, players: int) -> list[int]:
        groups = self.size + ([1] if self.needs_bye else [])
        total, above, widths = sum(groups), 0, []
        for size in groups[:-1]:
            above += size
            widths.append(min(above, total - above).bit_length())
        return widths

    def crossing(self, g_high: int, g_low: int) -> int:
        """The score digits of a pair: one crossing of each boundary between its groups."""
        return self.prefix[g_low] - self.prefix[g_high]

    @staticmethod
    def height(g_high: int, g_low: int) -> int:
        """How far above each crossed boundary the floater started (C.7: floaters of the
        lowest score first; a floater from two groups up costs more than one from one)."""
        span = g_low - g_high
        return span * (span - 1) // 2

    def order_penalty(self, a: int, b: int) -> int:
        """Distance from Dutch's ideal partner (S1[i] v S2[i]; top residents for a floater)."""
        ga, gb = self.group[a], self.group[b]
        ra, rb = self.position[a], self.position[b]
        if ga != gb:
            high, low_rank = (a, rb) if ga < gb else (b, ra)
            ideal = self._floater_index.get(high, 0)
            return abs(low_rank - ideal) * _rank_weight(ideal)
        ra, rb = min(ra, rb), max(ra, rb)
        pa, pb = sorted((self._rest_position[a], self._rest_position[b]))
        size = self._rest_size[ga]
        half = size // 2
        if pa >= 0 and pa < half <= pb:
            # S1[i] against S2[j]: Dutch's transpositions try the top of S1 with the
            # top of S2 first, so a later S2 player costs more the higher S1[i]
            # stands (weights falling strictly, so S1[i] v S2[i] is the one best);
            # further down, the distance from the ideal partner.
            j = pb - half
            return _rank_weight(pa) * j if pa < ORDER_TOP else abs(j - pa)
        # An exchange (a pair inside S1 or inside S2) costs more than any transposition;
        # Dutch tries first those that move players nearest the S1/S2 border (D.2).
        if pb < half:
            border = (half - 1 - pa) + (half - 1 - pb)
        else:
            border = abs(pa - half) + abs(pb - half)
        return (size + border) * _rank_weight(0)

    def floater_penalty(self, a: int) -> int:
        """How far above its score group's last player a downfloater (or the bye) is."""
        return min(FLOATER_CAP, self.size[self.group[a]] - 1 - self.position[a])


def _rank_weight(index: int) -> int:
    """How much S1[index]'s choice of partner counts: falling steeply (as the square),
    so that, as in Dutch's lexicographic order, the top player's best partner outweighs
    the next ones' (exactly so only in small brackets)."""
    return max(1, ORDER_TOP - index) ** 2


def _pair_weight(field: _Field, a: Entrant, b: Entrant) -> int:
    """The weight of the edge a-b: the top bit minus the penalties, digit by digit."""
    return _pair_base(field, a, b) - min(ORDER_CAP, field.order_penalty(a.number, b.number))


def _pair_base(field: _Field, a: Entrant, b: Entrant) -> int:
    """The edge's weight but for the order digit, the only one that changes between passes."""
    if field.group[a.number] > field.group[b.number] or (
            field.group[a.number] == field.group[b.number]
            and field.position[a.number] > field.position[b.number]):
        a, b = b, a
    ga, gb = field.group[a.number], field.group[b.number]
    same = a.preference is not None and a.preference == b.preference
    colour_miss = 1 if same else 0
    strong_miss = 1 if same and a.strength >= STRONG and b.strength >= STRONG else 0
    floats = ga != gb
    repeat1 = int(floats and a.last_float == "down") + int(floats and b.last_float == "up")
    repeat2 = int(floats and a.float_before == "down") + int(floats and b.float_before == "up")
    floater = field.floater_penalty(a.number) if floats else 0
    height = field.height(ga, gb)
    digits = [0, floater, repeat2, repeat1, strong_miss, colour_miss, height]
    return _compose(field, digits, field.crossing(ga, gb))


def _bye_weight(field: _Field, a: Entrant) -> int:
    repeat1 = int(a.last_float == "down")
    repeat2 = int(a.float_before == "down")
    # The bye is a float to a virtual group below everyone: a bye to a higher
    # score group is worse than that player floating and the bye going lower.
    height = field.height(field.group[a.number], field.bye_group)
    digits = [0, field.floater_penalty(a.number), repeat2, repeat1, 0, 0, height]
    return _compose(field, digits, field.crossing(field.group[a.number], field.bye_group))


def _compose(field: _Field, digits: list[int], crossing: int) -> int:
    penalty = sum(d << s for d, s in zip(digits, field.shifts)) + (crossing << field.shifts[-1])
    return (1 << field.total_bits) - penalty


def _legal(a: Entrant, b: Entrant, forbidden: set[frozenset[int]]) -> bool:
    return (b.number not in a.met and a.number not in b.met
            and frozenset((a.number, b.number)) not in forbidden and colours_compatible(a, b))


def _candidates(field: _Field, full: bool) -> Iterable[tuple[Entrant, Entrant]]:
    ranked = field.ranked
    if full:
        for i, a in enumerate(ranked):
            for b in ranked[i + 1:]:
                yield a, b
        return
    seen: set[tuple[int, int]] = set()
    for i, j in _pruned_indices(field):
        key = (min(i, j), max(i, j))
        if i != j and key not in seen:
            seen.add(key)
            yield ranked[key[0]], ranked[key[1]]


def _pruned_indices(field: _Field) -> Iterable[tuple[int, int]]:
    """Pairs of indices into ``field.ranked`` worth an edge: near the ideal partner in the
    own score group, and between the edges of score groups up to two apart."""
    starts, start = [], 0
    for size in field.size:
        starts.append(start)
        start += size
    for g, size in enumerate(field.size):
        first = starts[g]
        half = size // 2
        for p in range(size):
            for centre in (p, p + half, p - half):
                for q in range(max(0, centre - WINDOW), min(size, centre + WINDOW + 1)):
                    yield first + p, first + q
        for h in (g + 1, g + 2):
            if h >= len(field.size):
                break
            bottom = range(first + max(0, size - WINDOW), first + size)
            top = range(starts[h], starts[h] + min(field.size[h], WINDOW))
            for i in bottom:
                for j in top:
                    yield i, j


def _bye_candidates(field: _Field, full: bool) -> list[Entrant]:
    eligible = [e for e in reversed(field.ranked) if e.can_have_bye]
    return eligible if full else eligible[:2 * WINDOW]


Edge = tuple[int, int, int]  # indices into the ranked players (the bye is the last), weight


def _edges(field: _Field, forbidden: set[frozenset[int]], full: bool) -> list[Edge]:
    """The legal edges, weighted but for the order digit (the bye's has none)."""
    index = {e.number: i for i, e in enumerate(field.ranked)}
    edges = [(index[a.number], index[b.number], _pair_base(field, a, b))
             for a, b in _candidates(field, full) if _legal(a, b, forbidden)]
    if field.needs_bye:
        bye = len(field.ranked)
        edges += [(index[a.number], bye, _bye_weight(field, a)) for a in _bye_candidates(field, full)]
    return edges


def _match(field: _Field, edges: list[Edge]) -> list[tuple[int, int | None]] | None:
    """A complete pairing from the graph, or None when this graph has none."""
    numbers = [e.number for e in field.ranked]
    graph: rx.PyGraph = rx.PyGraph()
    graph.add_nodes_from(numbers)
    if field.needs_bye:
        graph.add_node(None)
    bye = len(numbers)
    graph.add_edges_from([
        (i, j, w if j == bye else w - min(ORDER_CAP, field.order_penalty(numbers[i], numbers[j])))
        for i, j, w in edges])
    matching = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=lambda w: int(w))
    if 2 * len(matching) < graph.num_nodes():
        return None
    boards: list[tuple[int, int | None]] = []
    for i, j in matching:
        low, high = min(i, j), max(i, j)
        boards.append((numbers[low], None if high == bye else numbers[high]))
    return boards


class _Graphs:
    """The pruned and the full graph's edges, each worked out once for all the passes."""

    def __init__(self, field: _Field, forbidden: set[frozenset[int]]) -> None:
        self.field, self.forbidden = field, forbidden
        self._edges: dict[bool, list[Edge]] = {}

    def edges(self, full: bool) -> list[Edge]:
        if full not in self._edges:
            self._edges[full] = _edges(self.field, self.forbidden, full)
        return self._edges[full]

    def complete(self, field: _Field) -> list[tuple[int, int | None]]:
        """The best complete pairing: on the pruned graph if it has one, else the full one."""
        pairs = None
        if len(field.ranked) >= PRUNE_FROM:
            pairs = _match(field, self.edges(full=False))
        if pairs is None:
            pairs = _match(field, self.edges(full=True))
        if pairs is None:
            raise NoPairing("no pairing meets the absolute criteria (rematches, forbidden pairs, colours, byes)")
        return pairs


def pair_entrants(entrants: Sequence[Entrant], forbidden: Iterable[tuple[int, int]] = (),
                  initial: Colour = RED) -> list[Board]:
    """Pair entrants already worked out; boards in board order, colours allocated."""
    if not entrants:
        return []
    first = _Field(entrants)
    graphs = _Graphs(first, {frozenset(p) for p in forbidden})
    pairs = graphs.complete(first)
    # Dutch pairs a score group's residents among themselves only after its
    # downfloaters (MDPs) have their partners, which a static weight cannot know.
    # So once a matching shows who floats where, match again with those brackets'
    # order, in two readings of it, and keep the pairing that is best by its own.
    candidates = [pairs]
    floaters = first.floaters(pairs)
    if floaters:
        for by_partner in (False, True):
            candidates.append(graphs.complete(_Field(entrants, floaters, by_partner)))
    field, pairs = max(((_Field(entrants, first.floaters(c)), c) for c in candidates),
                       key=lambda fc: _total_weight(fc[0], fc[1]))
    return _boards(field, pairs, initial)


def _total_weight(field: _Field, pairs: list[tuple[int, int | None]]) -> int:
    by = {e.number: e for e in field.ranked}
    return sum(_pair_weight(field, by[a], by[b]) if b is not None else _bye_weight(field, by[a]) for a, b in pairs)


def _boards(field: _Field, pairs: list[tuple[int, int | None]], initial: Colour) -> list[Board]:
    """Colours by C.04.3 E, boards ordered by the higher score, the score sum, then rank."""
    by = {e.number: e for e in field.ranked}
    rank = {e.number: i for i, e in enumerate(field.ranked)}
    boards: list[tuple[tuple[int, int, int], Board]] = []
    for first, second in pairs:  # first is the higher ranked
        if second is None:
            boards.append(((1, 0, 0), (first, None)))
            continue
        a, b = by[first], by[second]
        key = (0, -max(a.score, b.score) * 1000 - (a.score + b.score), rank[first])
        boards.append((key, allocate(a, b, initial)))
    return [board for _, board in sorted(boards)]


def pair(players: Sequence[Player], round_number: int, total_rounds: int,
         forbidden: Iterable[tuple[int, int]] = (), *, initial: Colour = RED,
         everyone: Sequence[Player] = ()) -> list[Board]:
    """Pair round ``round_number`` of a Swiss by the Dutch system.

    ``players`` are those to pair (the withdrawn and those absent this round
    left out); their ``rounds`` hold rounds 1..round_number-1 so far (a late
    entrant's missing rounds count as absent). ``everyone`` adds players no
    longer paired whose games still decide others' floats. Returns boards
    ``(red, black)``, highest scores first, a bye last as ``(player, None)``;
    raises :class:`NoPairing` when no legal pairing exists.
    ``total_rounds`` is accepted for FIDE's last-round exceptions, which we
    do not make (see the module docstring).

    >>> from tournaments.results import Player
    >>> pair([Player(n, f"p{n}", 2000 - n) for n in range(1, 6)], 1, 5)
    [(1, 3), (4, 2), (5, None)]
    """
    if round_number < 1 or round_number > max(total_rounds, 1):
        raise ValueError(f"round {round_number} is not among rounds 1..{total_rounds}")
    for p in players:
        if len(p.rounds) >= round_number:
            raise ValueError(f"player {p.number} already has a round {round_number}")
    table = {p.number: p for p in everyone}
    table.update({p.number: p for p in players})
    padded = {n: _padded(p, round_number - 1) for n, p in table.items()}
    entrants = [entrant(padded[p.number], padded) for p in players]
    return pair_entrants(entrants, forbidden, initial)


def _padded(player: Player, rounds: int) -> Player:
    """The player's record with missing rounds filled in as absent (" ")."""
    missing = rounds - len(player.rounds)
    if missing <= 0:
        return player
    absent = tuple(Round(None, None, " ") for _ in range(missing))
    return Player(player.number, player.name, player.rating, player.rounds + absent)


def pair_next(tournament: trf.Tournament, forbidden: Iterable[tuple[int, int]] = ()) -> list[Board]:
    """Pair the next round of a TRF tournament; players with an entry already
    written for that round (withdrawn, absent, organiser's bye) are left out."""
    number = trf.next_round(tournament.players)
    history = [trf.before_round(p, number) for p in tournament.players]
    to_pair = [h for h, p in zip(history, tournament.players) if len(p.rounds) < number]
    total = max(tournament.total_rounds or number, number)
    return pair(to_pair, number, total, forbidden, initial=tournament.initial, everyone=history)


def format_pairs(boards: Sequence[Board]) -> str:
    """bbpPairings' output: the number of pairs, then "red black" a line, "n 0" for a bye."""
    lines = [str(len(boards))] + [f"{red} {black or 0}" for red, black in boards]
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Pair the next round of a TRF-16 tournament (FIDE Dutch).")
    parser.add_argument("--dutch", metavar="IN.trf", required=True, help="the tournament so far")
    parser.add_argument("-p", metavar="OUT.txt", dest="output", help="where to write the pairs (default stdout)")
    args = parser.parse_args(argv)
    with open(args.dutch, encoding="utf-8") as handle:
        tournament = trf.read(handle.read())
    try:
        boards = pair_next(tournament)
    except NoPairing as error:
        print(f"no pairing: {error}", file=sys.stderr)
        return 1
    text = format_pairs(boards)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as handle:
            handle.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
