"""The weights of the Dutch pairing's graph (tournaments.swiss): every quality
criterion a digit of one integer, most important first, so that the heaviest
matching is the best pairing lexicographically (see tournaments.swiss's
docstring for the digits and the widths they are given).

Plain values, no Django, as tournaments.swiss.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tournaments.swiss_entrants import STRONG, Entrant

# S1's first ORDER_TOP players weigh more the higher they stand (Dutch's transposition order).
ORDER_TOP = 32
# Order penalties beyond this are told apart no further (a partner far from the ideal one).
ORDER_CAP = 2**20 - 1
# Choosing a group's downfloater, only the last FLOATER_CAP places are told apart.
FLOATER_CAP = 63
# rustworkx keeps weights in 128-bit integers; the whole matching's weight must fit.
WEIGHT_BITS = 125


class Field:
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


def pair_weight(field: Field, a: Entrant, b: Entrant) -> int:
    """The weight of the edge a-b: the top bit minus the penalties, digit by digit."""
    return pair_base(field, a, b) - min(ORDER_CAP, field.order_penalty(a.number, b.number))


def pair_base(field: Field, a: Entrant, b: Entrant) -> int:
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


def bye_weight(field: Field, a: Entrant) -> int:
    repeat1 = int(a.last_float == "down")
    repeat2 = int(a.float_before == "down")
    # The bye is a float to a virtual group below everyone: a bye to a higher
    # score group is worse than that player floating and the bye going lower.
    height = field.height(field.group[a.number], field.bye_group)
    digits = [0, field.floater_penalty(a.number), repeat2, repeat1, 0, 0, height]
    return _compose(field, digits, field.crossing(field.group[a.number], field.bye_group))


def _compose(field: Field, digits: list[int], crossing: int) -> int:
    penalty = sum(d << s for d, s in zip(digits, field.shifts)) + (crossing << field.shifts[-1])
    return (1 << field.total_bits) - penalty
