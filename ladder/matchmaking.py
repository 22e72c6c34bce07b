"""The rated pairing pool: "Play rated 5+3" puts a player in the pool; the matcher pairs.

Joining and leaving are called by the lobby socket (``ladder/consumers.py``),
and ``match`` by the Celery task ``ladder.tasks.match_pool`` (after every join,
and every few seconds by beat). The pairing itself, :func:`pairings`, is a pure
function of the waiting players and the time, so tests drive time directly.

How one matcher run pairs (issue 4):

- Only players waiting for the same game (rules: Ace in the Hole, Rhombus,
  Rhombus Formation; issue 13) and the same control are paired, and only inside
  both players' rating windows: ``window`` starts at ±100 around the rating a
  player joined with, on that game's ladder (a Rhombus wait uses the player's
  Rhombus rating), and widens by 50 every 10 seconds of waiting, up to ±600 (after
  100 s). So a 1500 and a 1700 meet once both have waited 20 s.
- Among the allowed pairs, networkx's ``max_weight_matching`` (Edmonds'
  blossom algorithm) picks as many pairs as possible and, among those, the
  smallest total rating difference: each edge weighs ``SCALE - difference``.
  Each player gets edges only to the ``NEIGHBOURS`` players nearest in rating
  on each side, which keeps a run of 200 waiting players near a quarter of a
  second (the algorithm is cubic) and, on random pools, pairs exactly as the
  full graph does.
- A pair who met in either player's previous game loses ``REPEAT_PENALTY``, so
  they meet again only when the pool offers no other pairing for as many
  players (short of a far worse one).
- Four players (Rhombus teams, RH31) wait apart from two: a table is four
  neighbours in rating on the team ladder whose windows all admit one
  another, seated as balanced teams (strongest and weakest against the middle
  two, as 4-player seeks are: ``seating.balanced_teams``) with a random side first.
- Colours: whoever had red (the first seat: SW in Rhombus) in their last game
  of that game gets black (and black gets red) where the two wishes agree;
  otherwise the colours are drawn at random.

With several workers, runs are serialized by a PostgreSQL advisory lock, and
each table's entries (two or four) are locked and re-checked as still waiting before the
game starts, so nobody is ever put in two games. The sockets are told after
commit and by id only (``pool.changed``, and ``game.started`` as the lobby
does), so each socket loads what its own user may see.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypedDict

import networkx as nx
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext

import engine
from games import partners, refusals, starting
from games.models import Game
from games.timestamps import stamp
from games.timecontrols import REAL_TIME, TimeControl
from ladder import inputs, lobby_groups, lobby_json, permits, seating
from ladder.models import ACE, PoolEntry, ladder_of
from ladder.ratings import standing_of

BASE_WINDOW = 100  # ± rating points on joining
WIDEN_STEP = 50  # points added ...
WIDEN_EVERY = 10  # ... every this many seconds of waiting
MAX_WINDOW = 600  # reached after (600 - 100) / 50 * 10 = 100 s
# Every allowed edge weighs SCALE - difference > 0. A repeat pairing costs
# REPEAT_PENALTY, four times the largest difference one pair can have: it is
# chosen only when avoiding it would leave someone unpaired, or make the other
# pairs worse by more than 2,400 rating points in all.
REPEAT_PENALTY = 4 * MAX_WINDOW
SCALE = 2 * REPEAT_PENALTY
# Edges per player to the players next above in rating (and as many from below).
NEIGHBOURS = 8
# Any fixed 64-bit key: the advisory lock every matcher run takes (PostgreSQL).
MATCHER_LOCK = 0x_ACE_B001


class PoolRefusal(inputs.LobbyRefusal):
    """Something the pool will not do; the message is meant for the player."""


class WindowJSON(TypedDict):
    low: int
    high: int
    width: int


class PoolJSON(TypedDict):
    entry: int
    rules: lobby_json.RulesJSON
    players: int  # 2, or 4 (Rhombus teams)
    time_control: lobby_json.TimeControlJSON
    rating: int
    joined: str
    waited_ms: int
    window: WindowJSON
    widens_in_ms: int | None  # None once the window is as wide as it gets


@dataclass(frozen=True)
class Window:
    """The ratings a waiting player may be paired with, at one moment."""

    low: int
    high: int
    width: int

    def admits(self, rating: int) -> bool:
        return self.low <= rating <= self.high


def width_after(seconds: float) -> int:
    """The window's half-width after waiting ``seconds``.

    >>> width_after(0), width_after(9.9), width_after(10), width_after(35), width_after(3600)
    (100, 100, 150, 250, 600)
    """
    steps = int(max(0.0, seconds) // WIDEN_EVERY)
    return min(MAX_WINDOW, BASE_WINDOW + WIDEN_STEP * steps)


def window(entry: Any, now: datetime) -> Window:
    """``entry``'s window at ``now``: anything with ``rating`` and ``joined``."""
    width = width_after((now - entry.joined).total_seconds())
    return Window(entry.rating - width, entry.rating + width, width)


def widens_in(entry: Any, now: datetime) -> float | None:
    """Seconds until the window next widens, or None once it is at its widest."""
    waited = max(0.0, (now - entry.joined).total_seconds())
    if width_after(waited) >= MAX_WINDOW:
        return None
    return WIDEN_EVERY - waited % WIDEN_EVERY


# --- Pairing: pure --------------------------------------------------------


@dataclass(frozen=True)
class Candidate:
    """A waiting player as the matcher sees them."""

    entry: int
    user: int
    rating: int
    joined: datetime
    time_control: str
    last_opponent: int | None = None  # user id in their previous game
    last_colour: str | None = None  # "red" or "black" in their previous game
    rules: str = ACE  # the Setup's key: "ace-in-the-hole", "rhombus", "rhombus-formation"
    players: int = 2  # 2, or 4 (Rhombus teams)
    # Waiting users who are this one's partners in a running team game: never at one table (RH36, games.partners).
    partners: frozenset[int] = frozenset()

    def sits_with(self, other: Candidate) -> bool:
        """Whether the two may be seated at one table."""
        return self.user != other.user and other.user not in self.partners


def pairings(candidates: Iterable[Candidate], now: datetime) -> list[tuple[Candidate, ...]]:
    """One run's tables: per game, number of players and control, a
    maximum-weight matching over the allowed pairs, or tables of four.

    Each table is given in entry order (who joined first); seats are
    :func:`colours`' business (2 players) or ``seating.balanced_teams``' (4).
    """
    by_pool: dict[tuple[str, int, str], list[Candidate]] = {}
    for c in candidates:
        by_pool.setdefault((c.rules, c.players, c.time_control), []).append(c)
    tables: list[tuple[Candidate, ...]] = []
    for (_, players, _), group in by_pool.items():
        tables.extend(_match_group(group, now) if players == 2 else _tables_of_four(group, now))
    return sorted(tables, key=lambda table: table[0].entry)


def _tables_of_four(group: Sequence[Candidate], now: datetime) -> list[tuple[Candidate, ...]]:
    """Tables of four neighbours in rating whose windows all admit one another.

    Greedy from the lowest rating up: four consecutive players are the
    closest four there can be around them, and a table that fits is taken
    at once (nobody waits for a slightly better one). No repeat penalty: a
    table of four meets again only by the ratings' chance."""
    windows = {c.entry: window(c, now) for c in group}
    by_rating = sorted(group, key=lambda c: (c.rating, c.entry))
    tables = []
    i = 0
    while i + 4 <= len(by_rating):
        four = by_rating[i:i + 4]
        fits = all(a is b or (a.sits_with(b) and windows[a.entry].admits(b.rating)) for a in four for b in four)
        if fits:
            tables.append(tuple(sorted(four, key=lambda c: c.entry)))
            i += 4
        else:
            i += 1
    return tables


def _match_group(group: Sequence[Candidate], now: datetime) -> list[tuple[Candidate, Candidate]]:
    graph = nx.Graph()
    windows = {c.entry: window(c, now) for c in group}
    by_rating = sorted(group, key=lambda c: (c.rating, c.entry))
    for i, a in enumerate(by_rating):
        # Only the NEIGHBOURS nearest in rating above each player: the blossom
        # algorithm is cubic, and nobody's best opponent is further off than that.
        for b in by_rating[i + 1:i + 1 + NEIGHBOURS]:
            if not (a.sits_with(b) and windows[a.entry].admits(b.rating) and windows[b.entry].admits(a.rating)):
                continue
            graph.add_edge(a.entry, b.entry, weight=_weight(a, b))
    by_entry = {c.entry: c for c in group}
    pairs = []
    for u, v in nx.max_weight_matching(graph, maxcardinality=True):
        a, b = sorted((by_entry[u], by_entry[v]), key=lambda c: c.entry)
        pairs.append((a, b))
    return pairs


def _weight(a: Candidate, b: Candidate) -> int:
    repeat = a.last_opponent == b.user or b.last_opponent == a.user
    return SCALE - abs(a.rating - b.rating) - (REPEAT_PENALTY if repeat else 0)


def colours(a: Candidate, b: Candidate,
            choose: Callable[[Sequence[bool]], bool] = secrets.choice) -> tuple[Candidate, Candidate]:
    """(red, black): each gets the other colour from last game when both wishes fit, else a draw."""
    a_red, b_red = _wants_red(a), _wants_red(b)
    if a_red == b_red:  # the same wish, or neither has one
        a_red = choose([True, False])
    elif a_red is None:
        a_red = not b_red
    return (a, b) if a_red else (b, a)


def _wants_red(c: Candidate) -> bool | None:
    return {"black": True, "red": False}.get(c.last_colour or "")


# --- Joining and leaving --------------------------------------------------


def join(user: Any, time_control: Any, now: datetime | None = None, *, rules: Any = ACE,
         players: Any = 2) -> PoolEntry:
    """Wait in the rated pool of a game (``rules``, a Setup key), a number of
    players (4: Rhombus teams) and a real-time control; a player already waiting moves here.

    Moving to another game or control starts the wait afresh, with a narrow
    window; asking again for the same keeps the wait (and window) it has.
    """
    _logged_in(user, lambda: gettext("log in to play rated games"))
    inputs.refuse_api_bot(user, "the pool", error=PoolRefusal)
    permits.check(user, "pool", error=PoolRefusal)
    tc = pool_control(time_control)
    setup = pool_rules(rules, players)
    players = int(players)
    now = now or timezone.now()
    with transaction.atomic():
        # Lock first: a matcher pairing this wait right now commits before we look for games.
        waiting = list(PoolEntry.objects.select_for_update().filter(user=user, status=PoolEntry.Status.WAITING))
        _check_not_playing(user)
        same = next((entry for entry in waiting if entry.time_control == tc.key and entry_setup(entry) == setup
                     and entry.players == players), None)
        if same is not None:  # the same button again, or a second tab: the wait goes on
            return same
        # That game's ladder, read only: a newcomer waits at 1500 and gets a row when rated.
        rating = standing_of(user, ladder_of(setup.kind, players)).rating
        PoolEntry.objects.filter(pk__in=[entry.pk for entry in waiting]).update(status=PoolEntry.Status.LEFT)
        try:
            with transaction.atomic():
                entry = PoolEntry.objects.create(user=user, kind=setup.kind, variant=setup.variant, players=players,
                                                 time_control=tc.key, rating=rating, joined=now)
        except IntegrityError:  # another tab joined at the same moment: the constraint keeps one
            raise PoolRefusal(gettext("you are already joining the pool from another tab")) from None
        _pool_changed_on_commit(user.pk)
        transaction.on_commit(_trigger_matcher, robust=True)  # no broker: beat tries again
    return entry


def leave(user: Any, entry_id: int | None = None, *, tell: bool = True) -> PoolEntry | None:
    """Stop waiting. With ``entry_id``, only that wait (a closing socket leaves its own).

    Returns the entry left, or None when there was nothing to leave (already
    paired, or left): leaving twice is harmless. ``tell=False``: the caller
    sends ``pool.changed`` itself (a consumer closing, from its own loop).
    """
    _logged_in(user, lambda: gettext("log in to leave the pool"))
    with transaction.atomic():
        waiting = PoolEntry.objects.select_for_update().filter(user=user, status=PoolEntry.Status.WAITING)
        if entry_id is not None:
            waiting = waiting.filter(pk=entry_id)
        entry = waiting.first()
        if entry is None:
            return None
        entry.status = PoolEntry.Status.LEFT
        entry.save(update_fields=["status"])
        if tell:
            _pool_changed_on_commit(user.pk)
    return entry


def pool_control(key: Any) -> TimeControl:
    """A real-time control the pool pairs for, or a refusal naming them."""
    keys = ", ".join(tc.key for tc in REAL_TIME)
    tc = TimeControl.from_request(key)
    if tc is not None and tc.correspondence:
        raise PoolRefusal(gettext("the rated pool is for real-time games only: choose one of %(keys)s, or create a "
                                  "correspondence seek") % {"keys": keys})
    if tc not in REAL_TIME:
        raise PoolRefusal(gettext("%(key)s is not a rated pool: choose one of %(keys)s")
                          % {"key": repr(key), "keys": keys})
    return tc


def pool_rules(key: Any, players: Any = 2) -> starting.Setup:
    """The game a wait is for, by its Setup key and number of players, or a
    refusal naming what is wrong (4 players: Rhombus only, RH31)."""
    try:
        setup = starting.setup_of(key)
    except refusals.Refusal as refusal:
        raise PoolRefusal(str(refusal)) from None
    if players not in (2, 4) or isinstance(players, bool):
        raise PoolRefusal(gettext('"players" must be 2 or 4'))
    if players not in engine.GAMES[setup.kind].player_counts:
        raise PoolRefusal(gettext("%(game)s is not played by %(players)s: choose %(counts)s players")
                          % {"game": setup.title, "players": players,
                             "counts": gettext(" or ").join(str(n) for n in engine.GAMES[setup.kind].player_counts)})
    return setup


def entry_setup(entry: PoolEntry) -> starting.Setup:
    return starting.Setup(entry.kind, entry.variant)


def _logged_in(user: Any, refusal: Callable[[], str]) -> None:
    if user is None or not getattr(user, "is_authenticated", False):
        raise PoolRefusal(refusal())


def _check_not_playing(user: Any) -> None:
    if _playing_real_time(user.pk):
        raise PoolRefusal(gettext("you are playing a real-time game: finish it before looking for another"))


def _playing_real_time(user_id: int) -> bool:
    return Game.objects.filter(seats__user_id=user_id, status=Game.Status.RUNNING,
                               days_per_move__isnull=True).exists()


def waiting_entry(user: Any) -> PoolEntry | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return PoolEntry.objects.filter(user=user, status=PoolEntry.Status.WAITING).first()


def pool_json(entry: PoolEntry | None, now: datetime | None = None) -> PoolJSON | None:
    """What the waiting player's sockets show: control, window, time waited."""
    if entry is None or entry.status != PoolEntry.Status.WAITING:
        return None
    now = now or timezone.now()
    w = window(entry, now)
    later = widens_in(entry, now)
    setup = entry_setup(entry)
    return {
        "entry": entry.pk,
        "rules": {"key": setup.key, "title": setup.title},
        "players": entry.players,
        "time_control": lobby_json.time_control_json(TimeControl.parse(entry.time_control)),
        "rating": entry.rating,
        "joined": stamp(entry.joined),
        "waited_ms": max(0, int((now - entry.joined).total_seconds() * 1000)),
        "window": {"low": w.low, "high": w.high, "width": w.width},
        "widens_in_ms": None if later is None else int(later * 1000) + 1,
    }


# --- The matcher ----------------------------------------------------------


def match(now: datetime | None = None) -> list[int]:
    """One matcher run: pair who can be paired and start their games; the new game ids."""
    now = now or timezone.now()
    started = []
    with transaction.atomic():
        _serialize_runs()
        for table in pairings(_candidates(), now):
            game = _start_table(table)
            if game is not None:
                started.append(game.pk)
    return started


def _serialize_runs() -> None:
    """Hold the matcher lock until commit; a second run waits, then sees the first's pairs.

    SQLite has no such lock and needs none: it lets one writer at a time.
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [MATCHER_LOCK])


def take_out_of_pool(*users: Any) -> None:
    """Inside the transaction that seats ``users`` in a real-time game elsewhere
    (a seek, a challenge: ladder.seating, which calls this as registered in
    LadderConfig.ready()), end their waits.

    It takes the matcher's lock first, so a run cannot pair them in between:
    either the run finished before (and the lobby's game is the second one the
    player chose to start), or it starts after and no longer sees them waiting.
    """
    _serialize_runs()
    waiting = PoolEntry.objects.select_for_update().filter(user__in=users, status=PoolEntry.Status.WAITING)
    for entry in waiting:
        entry.status = PoolEntry.Status.LEFT
        entry.save(update_fields=["status"])
        _pool_changed_on_commit(entry.user_id)


def _candidates() -> list[Candidate]:
    # A closed account's wait ends when it closes (ladder.withdrawals); one
    # closed by a queryset update, which sends nothing, is still never paired.
    entries = list(PoolEntry.objects.filter(status=PoolEntry.Status.WAITING, user__is_active=True))
    mates = partners.partners_of({entry.user_id for entry in entries})
    return [_candidate(entry, frozenset(mates.get(entry.user_id, ()))) for entry in entries]


def _candidate(entry: PoolEntry, mates: frozenset[int] = frozenset()) -> Candidate:
    # The player's last two-player game of this game: its opponent, and its
    # first seat ("red": Red, or SW in Rhombus) or second ("black").
    last = (Game.objects.filter(seats__user_id=entry.user_id, kind=entry.kind, players=2)
            .order_by("-created", "-pk").only("pk", "kind", "players").first())
    opponent = colour = None
    if last is not None:
        first, second = (seat.user_id for seat in last.table)
        colour = "red" if first == entry.user_id else "black"
        opponent = second if colour == "red" else first
    return Candidate(entry.pk, entry.user_id, entry.rating, entry.joined, entry.time_control,
                     opponent, colour, entry_setup(entry).key, entry.players, mates)


def _start_table(table: Sequence[Candidate]) -> Game | None:
    """Lock the table's entries (two or four), check they all still wait, and
    start their game; None if not."""
    with transaction.atomic():  # a savepoint: one failed table leaves the others
        entries = list(PoolEntry.objects.select_for_update().select_related("user")
                       .filter(pk__in=[c.entry for c in table], status=PoolEntry.Status.WAITING).order_by("pk"))
        if len(entries) != len(table):
            return None
        busy = [e for e in entries if _playing_real_time(e.user_id)]
        if busy:  # sat down to another game meanwhile (a seek, a challenge)
            _leave_busy(busy)
            return None
        users = {e.pk: e.user for e in entries}
        seated = _seats(table, users)
        try:
            game = starting.start_game(*seated, rated=True, time_control=TimeControl.parse(table[0].time_control),
                                       setup=entry_setup(entries[0]))
        except refusals.Refusal:  # partners of a team game that started since the run read the pool (RH36)
            return None
        for entry in entries:
            entry.status, entry.game = PoolEntry.Status.PAIRED, game
            entry.save(update_fields=["status", "game"])
        players = tuple(c.user for c in table)
        if seating.withdraw_real_time_seeks(*players):
            lobby_groups.lobby_changed_on_commit()
        game_id = game.pk
        transaction.on_commit(lambda: lobby_groups.send_game_started(game_id, players))
    return game


def _seats(table: Sequence[Candidate], users: dict[int, Any]) -> tuple[Any, ...]:
    """The users in seat order: a pair by :func:`colours`; four as balanced
    teams on the team ladder, which team sits first (SW) drawn at random."""
    if len(table) == 2:
        red, black = colours(table[0], table[1])
        return users[red.entry], users[black.entry]
    kind = starting.setup_of(table[0].rules).kind
    pair, rest = seating.balanced_teams([users[c.entry] for c in table], ladder_of(kind, 4))
    first, second = (pair, rest) if secrets.choice([True, False]) else (rest, pair)
    return seating.team_seats(first, second)


def _leave_busy(entries: list[PoolEntry]) -> None:
    for entry in entries:
        entry.status = PoolEntry.Status.LEFT
        entry.save(update_fields=["status"])
        _pool_changed_on_commit(entry.user_id)


# --- Telling the sockets and the matcher ----------------------------------


def _pool_changed_on_commit(user_id: int) -> None:
    group = lobby_groups.user_group(user_id)
    transaction.on_commit(lambda: lobby_groups.send_to_group(group, {"type": "pool.changed"}))


def _trigger_matcher() -> None:
    # The one import in a body: a module queuing its own Celery task (tasks import this module).
    from ladder.tasks import match_pool

    match_pool.delay()
