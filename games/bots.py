"""Who is a computer player: the bot accounts and their engine levels (issue 5).

A bot is a user whose ladder ``Player`` row has ``is_bot`` set and names an
engine level (``engine.bots.LEVELS``); a BOT account (level "") is someone's
program, which plays through the public API. The ladder registers where to read
them (``provide_bot_levels``); every process keeps them cached and hears of
changes through Redis (``_ChangeListener``). When a bot moves, and the move
itself, are games.botmoves.
"""

from __future__ import annotations

import logging
import os
import re
import threading
import time
from collections.abc import Callable
from typing import Any, TypedDict

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext

from games import shared_redis
from games.models import Game
from games.refusals import Refusal

log = logging.getLogger("games")

# a process bumps this generation after making or changing a bot account.
BOT_CACHE_SECONDS = 60.0
BOT_GENERATION_KEY = "aceweb:bot-levels-generation"
LISTEN_RETRY_SECONDS = 1.0  # after the announcements' connection failed
LISTEN_PING_SECONDS = 10.0  # the announcements' connection is checked this often



class BotFlagJSON(TypedDict):
    """A bot named in a payload (the lobby's seeks and challenges): its badge."""
    level: str  # the engine level of a computer player, "" for a BOT account
    title: str  # what its BOT badge says (badge_title)


def engine_bots() -> Any:
    """The engine's bots module (imported late: the site starts without it)."""
    from engine import bots

    return bots


def level_label(level: str) -> str:
    """The level as people read it, in their language: the engine's LEVEL_LABELS
    worded by the site (the engine stays English)."""
    levels = engine_bots()
    if level == "random":
        return gettext("Level 1 (random moves)")
    if level == "greedy":
        return gettext("Level 2 (greedy, one move ahead)")
    iterations = levels.ISMCTS_ITERATIONS.get(level)
    if iterations is None or level not in levels.LEVELS:
        return str(levels.LEVEL_LABELS.get(level, level))
    return gettext("Level %(number)s (search, %(iterations)s iterations)") % {
        "number": levels.LEVELS.index(level) + 1, "iterations": iterations}


def level_choices() -> list[tuple[str, str]]:
    """The choices of ``Player.bot_level`` (ladder.models): "" for a person or
    a BOT account, then the engine's levels, weakest first. A callable, so that
    each form words them in its reader's language and a new engine level needs
    no migration."""
    return [("", gettext("None: a person, or a BOT account")),
            *((level, level_label(level)) for level in engine_bots().LEVELS)]


# --- Accounts -----------------------------------------------------------------


def bot_username(level: str) -> str:
    """``bot-greedy``: a name no sign-up can take (allauth refuses existing names)."""
    return "bot-" + re.sub(r"[^\w.+-]", "-", level)


def switched_off_levels() -> set[str]:
    """The levels whose computer player an administrator has switched off (its
    account unticked "Active", or closed by a moderator): "Play the computer"
    neither offers nor starts them. One query, not cached: it decides."""
    names = {bot_username(level): level for level in engine_bots().LEVELS}
    closed = get_user_model().objects.filter(username__in=names, is_active=False).values_list("username", flat=True)
    return {names[name] for name in closed}


def offered_levels() -> list[str]:
    """The engine's levels "Play the computer" offers, weakest first."""
    off = switched_off_levels()
    return [level for level in engine_bots().LEVELS if level not in off]


def refuse_switched_off(level: str) -> None:
    """Refuse a game against the computer player of ``level`` if it is switched off."""
    if level in switched_off_levels():
        raise Refusal(gettext("the computer player %(level)s is switched off: choose another level")
                      % {"level": level_label(level)})


_bot_cache: dict[str, Any] = {}

# Who is a bot is kept with the accounts, in the ladder (ladder.bot_accounts),
# which registers where to read it in its AppConfig.ready(): games never
# imports the ladder (games.signals).
_level_sources: list[Callable[[], dict[int, str]]] = []


def provide_bot_levels(source: Callable[[], dict[int, str]]) -> None:
    """Register a reader of {user id: engine level} for every bot (twice is harmless)."""
    if source not in _level_sources:
        _level_sources.append(source)
    _bot_cache.clear()


def forget_bot_levels() -> None:
    """Read the bots again at the next question: in this process at once, and in
    every process (web, workers) once the change has committed.

    Called by whatever makes or changes a bot account. The other processes
    learn it from a generation number in Redis that ``bot_levels`` compares
    before each answer (issue 22, 1: a worker that had read the bots a moment
    before a 4-player game made its seat-mates decided "not-a-bot" for them).
    """
    _bot_cache.clear()
    transaction.on_commit(_announce_changed_bots)


def _announce_changed_bots() -> None:
    _bot_cache.clear()
    client = _redis()
    if client is None:
        return  # one process, no worker: clearing our own cache was enough
    try:
        client.incr(BOT_GENERATION_KEY)
        client.publish(_changes_channel(), b"1")
    except Exception:  # noqa: BLE001 - the account is made; others re-read within BOT_CACHE_SECONDS
        log.warning("could not announce changed bot accounts", exc_info=True)


def _changes_channel() -> str:
    """Where changes are announced: Redis's channels are server-wide, so the
    name carries the database's number (a test run's bots are not another's)."""
    return f"{BOT_GENERATION_KEY}:{shared_redis.database_number()}"


class _ChangeListener:
    """Counts the bot changes announced on Redis, on a thread of this process.

    While it is subscribed, ``bot_levels`` compares this count instead of
    reading the generation from Redis on every call (issue 24: three reads a
    move); a change reaches every process's count in a round trip. Before it is
    subscribed, and whenever its connection drops, ``changes`` is None: the
    generation is read as before, and the count starts again afresh (anything
    announced meanwhile is covered: the caches compare a new count).
    """

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.pid = 0  # the process whose thread this is (a worker's fork needs its own)
        self.count = 0
        self.subscribed = False

    def changes(self) -> int | None:
        if self.pid != os.getpid():
            self._start()
        return self.count if self.subscribed else None

    def _start(self) -> None:
        with self.lock:
            if self.pid == os.getpid():
                return
            self.pid, self.subscribed = os.getpid(), False
            threading.Thread(target=self._listen, name="bot-changes", daemon=True).start()

    def _listen(self) -> None:
        while True:
            try:
                self._follow()
            except Exception:  # noqa: BLE001 - Redis away: bot_levels reads the generation meanwhile
                log.warning("listening for changed bot accounts failed; trying again", exc_info=True)
            self.subscribed = False
            time.sleep(LISTEN_RETRY_SECONDS)

    def _follow(self) -> None:
        """Count the announcements until the connection fails or goes silent:
        a PING every LISTEN_PING_SECONDS must be answered (a connection that died
        quietly would otherwise look subscribed and hear nothing)."""
        pubsub = shared_redis.client().pubsub()
        try:
            pubsub.subscribe(_changes_channel())
            answered = time.monotonic()
            while time.monotonic() - answered < 3 * LISTEN_PING_SECONDS:
                message = pubsub.get_message(timeout=LISTEN_PING_SECONDS)
                if message is None:
                    pubsub.ping()
                    continue
                answered = time.monotonic()
                if message["type"] in ("subscribe", "message"):
                    # Once subscribed, every announcement reaches this process; one
                    # made before it did is covered by the count's changing now.
                    self.count += 1
                    self.subscribed = True
        finally:
            pubsub.close()


_changes = _ChangeListener()


def _current_generation() -> Any:
    """What the cached bots must have been read under to be current: the
    changes heard (no round trip) while this process listens, else the
    generation in Redis."""
    if _redis() is None:
        return None
    heard = _changes.changes()
    return ("heard", heard) if heard is not None else _bot_generation()


def _bot_generation() -> Any:
    """The shared generation of the bot accounts (None without Redis, or unknown)."""
    client = _redis()
    if client is None:
        return None
    try:
        return client.get(BOT_GENERATION_KEY)
    except Exception:  # noqa: BLE001 - Redis down: fall back on BOT_CACHE_SECONDS
        log.warning("could not read the bot accounts' generation", exc_info=True)
        return _bot_cache.get("generation")


def bot_levels() -> dict[int, str]:
    """Every bot's user id and level, re-read when any process has changed the
    bot accounts since (a generation in Redis), and at least every BOT_CACHE_SECONDS.

    Asked on every move and every view: with Redis, the count of changes this
    process has heard announced (``_ChangeListener``), no round trip; until it
    listens, one Redis read. The generation is taken before the bots are read:
    a change committed between the two is read again at the next question.
    """
    generation = _current_generation()
    if (time.monotonic() - _bot_cache.get("at", -1e9) > BOT_CACHE_SECONDS
            or _bot_cache.get("generation") != generation):
        _bot_cache["levels"] = {user_id: level for source in _level_sources
                                for user_id, level in source().items()}
        _bot_cache["at"] = time.monotonic()
        _bot_cache["generation"] = generation
    levels: dict[int, str] = _bot_cache["levels"]
    return levels


# BOT accounts (ladder.bot_accounts): a person's program, which plays only
# through the public API. The ladder registers how to tell them.
_api_only_checks: list[Callable[[Any], bool]] = []


def provide_api_only_check(check: Callable[[Any], bool]) -> None:
    if check not in _api_only_checks:
        _api_only_checks.append(check)


def plays_only_through_api(user: Any) -> bool:
    """Whether ``user`` is a BOT account: its game sockets may watch, not act.
    A query (no cache): it must hold from the moment an account becomes one."""
    return any(check(user) for check in _api_only_checks)


def level_of(user_id: int | None) -> str | None:
    """The engine level the computer player ``user_id`` plays; None for anyone
    else, a BOT account included (its program plays it, not ours)."""
    return (bot_levels().get(user_id) or None) if user_id is not None else None


def is_bot_account(user_id: int | None) -> bool:
    """A BOT account (from the cache: for flagging it BOT, not for deciding what it may do)."""
    return user_id is not None and bot_levels().get(user_id) == ""


def badge_title(level: str) -> str:
    """What a BOT badge says on hover: the computer player's level, or that a
    BOT account (``level`` "") is someone's program."""
    if level:
        return gettext("Computer player: %(level)s") % {"level": level_label(level)}
    return gettext("BOT account: a program playing through the API")


def flag_json(level: str) -> BotFlagJSON:
    return {"level": level, "title": badge_title(level)}


def is_bot(user: Any) -> bool:
    return level_of(getattr(user, "pk", None)) is not None


def seat_levels(game: Game) -> dict[str, str]:
    """{seat: level} for every seat of ``game`` a bot plays, "" for a BOT
    account's: what a page flags BOT (games templatetags bot_badge)."""
    levels = bot_levels()
    return {seat.name: levels[seat.user_id] for seat in game.table if seat.user_id in levels}


def bot_seats(game: Game) -> dict[str, str]:
    """{seat: level} for the seats of ``game`` a bot plays."""
    return {seat: level for seat, level in seat_levels(game).items() if level}


def bot_plays(game: Game, seat: str) -> bool:
    """Whether a computer player plays ``seat`` of ``game`` (not a BOT account)."""
    return seat in bot_seats(game)


def read_bots_again() -> None:
    """Read the bots anew at the next question, in this process only: a bot move
    queued for someone who is no longer taken for a bot asks the database itself."""
    _bot_cache.clear()


def _redis() -> Any:
    return shared_redis.client()
