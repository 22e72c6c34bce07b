"""Starting games: which games there are (``Setup``), and a new game's table,
deal and clocks, checked first by what other apps register (playbans,
partners of a running team game).

The ladder and games.partners register their checks and the rating snapshot
in their ``AppConfig.ready()``; a game that starts is announced to the
live-games hubs and to whoever acts on a new turn (games.broadcast).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from django.utils import timezone
from django.utils.translation import gettext

import engine
from games import broadcast, refusals
from games.models import FIRST_MOVE_WINDOW, Event, Game, Seat
from games.refusals import Refusal
from games.timecontrols import TimeControl


ACE = "ace-in-the-hole"


# Whether a user may start a game with other people now (a playban, a
# moderator's restriction): the ladder registers the check, for the same reason.
StartCheck = Callable[[Any, bool], "str | None"]
_start_checks: list[StartCheck] = []


def provide_start_check(check: StartCheck) -> None:
    """Register a check ``check(user, rated)``: None, or why ``user`` may not start a game."""
    if check not in _start_checks:
        _start_checks.append(check)


def may_start(user: Any, rated: bool) -> None:
    """Refuse, saying why, if ``user`` may not start a game now."""
    _refuse_if_any(_start_checks, user, rated)


# Whether these users may sit down to one new game together: games.partners
# registers its check (no two partners of a running team game, RH36) in
# GamesConfig.ready(), beside its chat silence (issue 35).
TableCheck = Callable[[Sequence[Any]], "str | None"]
_table_checks: list[TableCheck] = []


def provide_table_check(check: TableCheck) -> None:
    """Register a check ``check(users)``: None, or why these users may not start a game together."""
    if check not in _table_checks:
        _table_checks.append(check)


def may_sit_together(users: Sequence[Any]) -> None:
    """Refuse, saying why, if these users may not sit down to one game together."""
    _refuse_if_any(_table_checks, users)


def _refuse_closed(users: Sequence[Any]) -> None:
    """A closed account (or a switched-off computer player) sits down to no new
    game: the last guard, behind the withdrawals that closing makes
    (games.signals.account_closed), for what they cannot reach (a queryset
    update, a rematch offered before)."""
    for user in users:
        if not getattr(user, "is_active", True):
            raise Refusal(gettext("%(name)s's account is closed: no new game starts with it")
                          % {"name": user.get_username()})


def _refuse_if_any(checks: Sequence[Callable[..., str | None]], *args: Any) -> None:
    for check in checks:
        if (why := check(*args)) is not None:
            raise Refusal(why)


# A new game's players' ratings, for the live list's "best rated first" (games/live.py):
# the ladder registers a function that fills ``Seat.rating`` of each new game's
# seats and ``Game.rating`` before they are inserted, so the snapshot costs no
# statement of its own and the list orders by an indexed column of the game row,
# with no join into the ladder per page or per game.
StartRatings = Callable[[list[Game]], None]
_start_ratings: list[StartRatings] = []


def provide_start_ratings(provider: StartRatings) -> None:
    """Register a filler of new games' rating snapshots (registering twice is harmless)."""
    if provider not in _start_ratings:
        _start_ratings.append(provider)


def snapshot_ratings(games: list[Game]) -> None:
    for provider in _start_ratings:
        provider(games)


class Setup(NamedTuple):
    """Which game to start: a game of ``engine.GAMES`` and its variant, and
    (Rhombus, a series' later games) the seat that deals. The player count is
    the number of users given."""

    kind: str = ACE
    variant: str = "classic"
    dealer: str | None = None

    @property
    def key(self) -> str:
        """"ace-in-the-hole", "rhombus", "rhombus-formation": the rules as
        forms, seeks and challenges name them."""
        rules = engine.GAMES[self.kind]
        return self.kind if self.variant == rules.variants[0] else f"{self.kind}-{self.variant}"

    @property
    def title(self) -> str:
        rules = engine.GAMES[self.kind]
        return rules.title if self.variant == rules.variants[0] else f"{rules.title} {self.variant.title()}"


def setups() -> dict[str, Setup]:
    """Every game and variant a player can choose, by key, in engine.GAMES's order."""
    found = (Setup(rules.name, variant) for rules in engine.GAMES.values() for variant in rules.variants)
    return {setup.key: setup for setup in found}


def setup_of(key: Any) -> Setup:
    """The Setup a key names, or a Refusal listing the keys."""
    offered = setups()
    if not isinstance(key, str) or key not in offered:
        raise Refusal(gettext("%(key)s is not a game here: choose one of %(keys)s")
                      % {"key": repr(key), "keys": ", ".join(offered)})
    return offered[key]


def start_game(*users: Any, rated: bool = True, initial_seconds: int = 600,
               increment_seconds: int = 5, seed: str | None = None,
               time_control: TimeControl | None = None, event: Event | None = None,
               setup: Setup = Setup()) -> Game:
    """A new running game between different users, seated in the rules' turn
    order (Ace in the Hole: Red, who moves first (R6), then Black; Rhombus:
    SW, NE or SW, SE, NE, NW (RH3, RH31)).

    ``time_control`` (e.g. ``TimeControl.parse("3d")``) wins over the two
    seconds arguments, which stay for callers that only play real time.
    ``event`` names the tournament round a game belongs to.
    """
    tc = time_control or TimeControl(initial_seconds, increment_seconds)
    game = _new_game(users, setup, rated, tc, event, seed)
    snapshot_ratings([game])
    game.save()
    Seat.objects.bulk_create(_seats_of([game]))
    broadcast.turn_began(game)
    broadcast.announce_live([game.pk])
    return game


def start_games(tables: list[tuple[Any, ...]], *, rated: bool, time_control: TimeControl,
                event: Event, setup: Setup = Setup()) -> list[Game]:
    """Many games at once, as a tournament round starts them: one INSERT for
    the games and one for their seats."""
    new = [_new_game(users, setup, rated, time_control, event) for users in tables]
    snapshot_ratings(new)
    games = Game.objects.bulk_create(new)
    Seat.objects.bulk_create(_seats_of(games))
    for game in games:
        broadcast.turn_began(game)
    broadcast.announce_live([game.pk for game in games])
    return games


def _seats_of(games: list[Game]) -> list[Seat]:
    """The new games' seats, pointed at their games now that these have keys."""
    for game in games:
        for seat in game.table:
            seat.game = game
    return [seat for game in games for seat in game.table]


def _new_game(users: tuple[Any, ...], setup: Setup, rated: bool, tc: TimeControl, event: Event | None = None,
              seed: str | None = None) -> Game:
    rules = engine.GAMES.get(setup.kind)
    if rules is None:
        raise Refusal(gettext("there is no game %(kind)s: choose one of %(kinds)s")
                      % {"kind": repr(setup.kind), "kinds": ", ".join(engine.GAMES)})
    try:
        names = rules.seats_for(len(users))
    except engine.EngineError as error:  # "Rhombus is played by 2 or 4 players, not 3"
        raise Refusal(refusals.describe(error)) from None
    if setup.variant not in rules.variants:
        raise Refusal(gettext("%(game)s has the variants %(variants)s, not %(variant)s")
                      % {"game": rules.title, "variants": ", ".join(rules.variants), "variant": repr(setup.variant)})
    if len({user.pk for user in users}) != len(users):
        raise Refusal(gettext("a game needs %(count)s different players") % {"count": len(users)})
    if event is None:  # a tournament's pairings are the event's, not its players' choice
        _refuse_closed(users)
        may_sit_together(users)
    now = timezone.now()
    game = Game(kind=rules.name, variant=setup.variant, players=len(users), rated=rated,
                initial_seconds=tc.initial_seconds, increment_seconds=tc.increment_seconds,
                days_per_move=tc.days_per_move, clocks={name: tc.budget_ms for name in names})
    game._table = [Seat(number=number, name=name, user=user) for number, (name, user) in enumerate(zip(names, users))]
    if tc.correspondence:  # days per move from the start
        game.turn_started_at = now
    else:  # the clocks wait for each side's first move (FIRST_MOVE_WINDOW)
        game.abort_at = now + FIRST_MOVE_WINDOW
    if seed is not None:  # tests and replays only; the default is a fresh secret
        game.seed = seed
    if event is not None:
        game.event, game.event_round, game.event_url = event.name, event.round, event.url
        game.event_round_number = event.number
        game.forfeit_no_shows = event.forfeit_no_shows
    game.commitment = rules.commitment(game.seed)
    game.position = dict(rules.to_json(rules.start(game.seed, len(users), setup.variant, setup.dealer)))
    return game
