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

import rustworkx as rx

from tournaments import trf
from tournaments.results import RED, Colour, Player, Round
from tournaments.swiss_entrants import Entrant, allocate, colours_compatible, entrant
from tournaments.swiss_weights import ORDER_CAP, Field, bye_weight, pair_base, pair_weight

Board = tuple[int, int | None]

# Players from which the graph is pruned; below it every legal pair is an edge.
PRUNE_FROM = 120
# How many neighbours around the ideal partner, or at a score group's edge, a pruned graph keeps.
WINDOW = 8


class NoPairing(ValueError):
    """No pairing meets the absolute criteria (C.04.1): the tournament cannot go on."""


def _legal(a: Entrant, b: Entrant, forbidden: set[frozenset[int]]) -> bool:
    return (b.number not in a.met and a.number not in b.met
            and frozenset((a.number, b.number)) not in forbidden and colours_compatible(a, b))


def _candidates(field: Field, full: bool) -> Iterable[tuple[Entrant, Entrant]]:
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


def _pruned_indices(field: Field) -> Iterable[tuple[int, int]]:
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


def _bye_candidates(field: Field, full: bool) -> list[Entrant]:
    eligible = [e for e in reversed(field.ranked) if e.can_have_bye]
    return eligible if full else eligible[:2 * WINDOW]


Edge = tuple[int, int, int]  # indices into the ranked players (the bye is the last), weight


def _edges(field: Field, forbidden: set[frozenset[int]], full: bool) -> list[Edge]:
    """The legal edges, weighted but for the order digit (the bye's has none)."""
    index = {e.number: i for i, e in enumerate(field.ranked)}
    edges = [(index[a.number], index[b.number], pair_base(field, a, b))
             for a, b in _candidates(field, full) if _legal(a, b, forbidden)]
    if field.needs_bye:
        bye = len(field.ranked)
        edges += [(index[a.number], bye, bye_weight(field, a)) for a in _bye_candidates(field, full)]
    return edges


def _match(field: Field, edges: list[Edge]) -> list[tuple[int, int | None]] | None:
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

    def __init__(self, field: Field, forbidden: set[frozenset[int]]) -> None:
        self.field, self.forbidden = field, forbidden
        self._edges: dict[bool, list[Edge]] = {}

    def edges(self, full: bool) -> list[Edge]:
        if full not in self._edges:
            self._edges[full] = _edges(self.field, self.forbidden, full)
        return self._edges[full]

    def complete(self, field: Field) -> list[tuple[int, int | None]]:
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
    first = Field(entrants)
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
            candidates.append(graphs.complete(Field(entrants, floaters, by_partner)))
    field, pairs = max(((Field(entrants, first.floaters(c)), c) for c in candidates),
                       key=lambda fc: _total_weight(fc[0], fc[1]))
    return _boards(field, pairs, initial)


def _total_weight(field: Field, pairs: list[tuple[int, int | None]]) -> int:
    by = {e.number: e for e in field.ranked}
    return sum(pair_weight(field, by[a], by[b]) if b is not None else bye_weight(field, by[a]) for a, b in pairs)


def _boards(field: Field, pairs: list[tuple[int, int | None]], initial: Colour) -> list[Board]:
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
