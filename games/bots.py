"""Computer players: their accounts, when they move, and the move itself (issue 5).

A bot is a user whose ladder ``Player`` row has ``is_bot`` set and names an
engine level (``engine.bots.LEVELS``). When a running game's side to move is a
bot, ``after_change`` (called by ``games.play`` after every accepted move and
at the start of a game) queues the Celery task ``games.tasks.play_bot_move``
with the game id and the ply, once the transaction has committed. The task
calls :func:`play_move`, which:

- drops the task when the game is over or the ply has passed (stale);
- gives up, with a logged error, after ``MAX_DELIVERIES`` deliveries of one
  task (a move that kills its worker every time must not loop for ever);
- hands the engine bot only the rules' ``view(state, seat)``, the bot seat's own
  view, never the state (R18), with a seed derived one-way from the game's
  secret seed and the ply, so a game against a bot can be replayed exactly;
- submits through ``games.play.submit`` as the bot user: the same row lock,
  validation, transaction and broadcast as a human move. A stale-ply refusal
  there means another delivery already played this ply: done.

The task runs with ``acks_late`` and ``reject_on_worker_lost``: a worker that
dies mid-move leaves the message unacknowledged in Redis, and the broker hands
it out again after its visibility timeout (``CELERY_BROKER_TRANSPORT_OPTIONS``
in settings); the ply check and the row lock make the move happen once.

Whether a worker has taken the move is kept in Redis (``aceweb:bot-wait:<id>``):
queued when scheduled, started when a worker picks it up. The game payload's
``bot`` field carries both, so the page says "thinking" or, when no worker has
answered for ``WORKER_LATE`` seconds, "waiting for a bot worker".
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import re
import secrets
import threading
import time
from collections.abc import Callable
from datetime import datetime, timezone as dt_timezone
from typing import Any, TypedDict

from asgiref.sync import async_to_sync, sync_to_async
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import OperationalError, connections, transaction
from django.utils import timezone
from django.utils.translation import gettext

from games import play, shared_redis
from games.models import Game
from games.timecontrols import OFFERED, TimeControl

log = logging.getLogger("games")

# A human-friendly pace in real time: the answer never lands before this.
MIN_DELAY_SECONDS = 0.6
# A bot spends at most this share of its remaining real-time clock on a move...
CLOCK_SHARE = 1 / 30
# ...and never more than this, whatever the clock (correspondence included).
MAX_THINK_SECONDS = 2.0
# A search level keeps its fixed (reproducible) iteration count while that
# fits its time at this rate, well under the ~5,000/s measured on one core.
SLOW_ITERATIONS_PER_SECOND = 2_000
# Deliveries of one task before it is given up (a worker lost each time).
MAX_DELIVERIES = 3
# After this long with no worker on a queued move, the page says so.
WORKER_LATE_SECONDS = 5.0
# Redis keys live this long: a day covers any real-time game.
KEY_TTL_SECONDS = 86_400
# The bot accounts' user ids are re-read at least this often, and at once when
# a process bumps this generation after making or changing a bot account.
BOT_CACHE_SECONDS = 60.0
BOT_GENERATION_KEY = "aceweb:bot-levels-generation"
LISTEN_RETRY_SECONDS = 1.0  # after the announcements' connection failed
LISTEN_PING_SECONDS = 10.0  # the announcements' connection is checked this often


class BotSeatJSON(TypedDict):
    level: str
    label: str


class BotFlagJSON(TypedDict):
    """A bot named in a payload (the lobby's seeks and challenges): its badge."""
    level: str  # the engine level of a computer player, "" for a BOT account
    title: str  # what its BOT badge says (badge_title)


class BotWaitJSON(TypedDict):
    ply: int
    queued_at: str | None
    started_at: str | None  # None until a worker picks the move up
    worker_late: bool  # queued WORKER_LATE_SECONDS ago and no worker has it yet


class BotJSON(TypedDict):
    accounts: list[str]  # seats played by BOT accounts (programs, through the API)
    seats: dict[str, BotSeatJSON]
    waiting: BotWaitJSON | None  # the bot move the game is waiting for, if any


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


# --- Accounts -----------------------------------------------------------------


def bot_username(level: str) -> str:
    """``bot-greedy``: a name no sign-up can take (allauth refuses existing names)."""
    return "bot-" + re.sub(r"[^\w.+-]", "-", level)


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


# --- Playing the computer -------------------------------------------------------


def play_computer(user: Any, level: str, time_control: TimeControl, *, rated: bool = False,
                  colour: str = "random", setup: play.Setup = play.Setup()) -> Game:
    """Start a game at once between ``user`` and the bot of ``level``, of the
    game ``setup`` names (two players).

    ``colour`` is the human's wish: red (the first seat), black or random.
    Refuses (and changes nothing) for a visitor, a bot, an unknown level or control.
    """
    if user is None or not getattr(user, "is_authenticated", False):
        raise play.Refusal("log in to play the computer")
    if is_bot(user):
        raise play.Refusal("a bot cannot start games")
    if level not in engine_bots().LEVELS:
        raise play.Refusal(f"{level!r} is not a bot level: choose one of {', '.join(engine_bots().LEVELS)}")
    if time_control not in OFFERED:
        raise play.Refusal(f"{time_control.key!r} is not an offered time control")
    if colour not in ("red", "black", "random"):
        raise play.Refusal('"colour" must be red, black or random')
    bot = get_user_model().objects.filter(username=bot_username(level)).first()
    if bot is None or level_of(bot.pk) != level:
        raise play.Refusal(f"the {level_label(level)} bot has no account yet: run manage.py seed_bots")
    if colour == "random":
        colour = secrets.choice(["red", "black"])
    red, black = (user, bot) if colour == "red" else (bot, user)
    return play.start_game(red, black, rated=rated, time_control=time_control, setup=setup)


# --- Scheduling -------------------------------------------------------------------


def after_change(game: Game) -> None:
    """Queue the bot's move, after commit, when a running game waits on a bot.

    Called by games.play inside the transaction that saved ``game``.
    """
    if not game.running or level_of(game.user_id_at(game.to_move)) is None:
        return
    game_id, ply = game.pk, game.ply
    transaction.on_commit(lambda: schedule(game_id, ply, pace_delay(game)))


def pace_delay(game: Game) -> float:
    """How long the bot waits before it starts: a human pace, shrinking with its
    clock (1% of the time left) so that the wait never loses it the game."""
    if game.time_control.correspondence:
        return 0.0
    left = max(0, game.remaining_ms(timezone.now())) / 1000
    return min(MIN_DELAY_SECONDS, left * 0.01)


def schedule(game_id: int, ply: int, delay: float = MIN_DELAY_SECONDS) -> None:
    """Send the task; a broker that is down is logged, never raised into a player's move."""
    from games.tasks import play_bot_move  # tasks imports this module

    if play_bot_move.app.conf.task_always_eager:  # no worker: apply_async would play it right here
        play_later_in_process(game_id, ply, delay)
        return
    _mark(game_id, ply, "queued")
    try:
        play_bot_move.apply_async((game_id, ply), countdown=delay)
    except Exception:  # noqa: BLE001 - kombu raises many kinds; the move itself is saved
        log.exception("bot move for game %s ply %s could not be queued", game_id, ply)
        _unmark(game_id)  # requeue_lost_moves tries again


def requeue_lost_moves() -> list[int]:
    """Queue the bot moves that running games wait on but nobody queued; their ids.

    For a periodic task: a move whose sending failed (broker down) or whose
    record Redis lost; and one recorded as queued that no worker has started
    within the broker's visibility timeout and the bot's pace, as when the
    process that recorded it died before its message reached the broker (a web
    host killed just after the human's move it answers). A move queued more lately is left
    alone, even with no worker running: the first worker to come will play it.
    A second message for a move still queued costs a stale-ply check, no more.
    """
    if _redis() is None or not bot_levels():
        return []
    ids = list(bot_levels())
    waiting = (Game.objects.filter(seats__user_id__in=ids, status=Game.Status.RUNNING).distinct()
               .prefetch_related("seats"))
    lost = []
    for game in waiting.iterator(chunk_size=500):
        if level_of(game.user_id_at(game.to_move)) is not None and _unsent(_wait_record(game.pk), game.ply):
            schedule(game.pk, game.ply, delay=0)
            lost.append(game.pk)
    return lost


# --- Without a worker (no REDIS_URL) ------------------------------------------------
# Celery then runs a task inside apply_async, countdown ignored: the bot would
# answer inside the player's own request, before the page has even loaded. So
# this process plays the move itself, after the same pace, off the request.

_in_process: set[tuple[int, int]] = set()  # (game id, ply) of the moves this process is to play
_in_process_lock = threading.Lock()
_tasks: set[asyncio.Task[None]] = set()  # the loop keeps only weak references to its tasks


def play_later_in_process(game_id: int, ply: int, delay: float) -> None:
    """Play the bot's move at ``ply`` in ``delay`` seconds, in this process; return at once.

    Under daphne, from its event loop: the move's notices then reach the
    in-memory channel layer from the loop its sockets wait on. With no loop (a
    shell, a command, a test client), from a timer thread, which the
    interpreter waits for before it exits.
    """
    with _in_process_lock:
        _in_process.add((game_id, ply))
    loop = _serving_loop()
    if loop is None:
        threading.Timer(delay, _play_then_close, (game_id, ply)).start()
    else:
        loop.call_soon_threadsafe(_start_task, game_id, ply, delay)


def resume_in_process(game: Game) -> None:
    """Without a worker, play a bot move this process has not set off: one it
    lost by restarting. Called whenever someone is shown a game that waits on a bot."""
    from games.tasks import play_bot_move

    if not play_bot_move.app.conf.task_always_eager or transaction.get_connection().in_atomic_block:
        return  # a worker's job; or not committed yet, and after_change will schedule it
    with _in_process_lock:
        if (game.pk, game.ply) in _in_process:
            return
    play_later_in_process(game.pk, game.ply, pace_delay(game))


async def _running_loop() -> asyncio.AbstractEventLoop:
    return asyncio.get_running_loop()


def _serving_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop this thread works for (daphne's), or None outside one.

    async_to_sync finds it as Django and Channels do; with none, it runs the
    coroutine on a loop of its own, which has stopped by the time it returns.
    """
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        loop = async_to_sync(_running_loop)()
    return loop if loop.is_running() else None


def _start_task(game_id: int, ply: int, delay: float) -> None:
    task = asyncio.get_running_loop().create_task(_play_after(game_id, ply, delay))
    _tasks.add(task)
    task.add_done_callback(_tasks.discard)


async def _play_after(game_id: int, ply: int, delay: float) -> None:
    await asyncio.sleep(delay)
    # Not on the thread of Django's synchronous views: a search must not hold up pages.
    await sync_to_async(_play_then_close, thread_sensitive=False)(game_id, ply)


def _play_in_process(game_id: int, ply: int) -> None:
    """The move, tried again after a database error (SQLite busy) as the task is."""
    try:
        for attempt in range(1, MAX_DELIVERIES + 1):
            try:
                play_move(game_id, ply)
                return
            except OperationalError:
                log.warning("bot move for game %s ply %s failed (attempt %s)", game_id, ply, attempt,
                            exc_info=True)
                time.sleep(attempt)
        log.error("bot move for game %s ply %s given up after %s attempts", game_id, ply, MAX_DELIVERIES)
    except Exception:  # noqa: BLE001 - a thread or task has nobody else to tell
        log.exception("bot move for game %s ply %s failed", game_id, ply)
    finally:
        with _in_process_lock:
            _in_process.discard((game_id, ply))


def _play_then_close(game_id: int, ply: int) -> None:
    try:
        _play_in_process(game_id, ply)
    finally:
        connections.close_all()  # this thread's own: a timer's ends here, an executor's idles


# --- The move ---------------------------------------------------------------------


def bot_seed(game: Game, ply: int) -> str:
    """The bot's random seed for one ply: fixed by the game, yet one-way.

    Derived from the game's secret seed by SHA-256, so the bot cannot turn
    it back into the shuffle (the deck orders stay hidden from it too).
    """
    return hashlib.sha256(f"aceweb-bot:{game.seed}:{ply}".encode()).hexdigest()


def think_seconds(game: Game, now: datetime | None = None) -> float:
    """The time a bot may take: a small share of its clock, and a ceiling."""
    if game.time_control.correspondence:
        return MAX_THINK_SECONDS
    left = max(0, game.remaining_ms(now or timezone.now())) / 1000
    return max(0.01, min(MAX_THINK_SECONDS, left * CLOCK_SHARE))


def time_limit(level: str, budget: float) -> float | None:
    """``seconds`` for engine.bots.choose: None (the level's own iteration
    count: reproducible) while that surely fits in ``budget``, else ``budget``.
    """
    iterations = getattr(engine_bots(), "ISMCTS_ITERATIONS", {}).get(level)
    if iterations is None or iterations / SLOW_ITERATIONS_PER_SECOND <= budget:
        return None
    return budget


def play_move(game_id: int, ply: int, *, task_id: str | None = None) -> str:
    """Compute and submit the bot's move at ``ply``; what happened, as a word.

    "played", "stale" (the ply has passed), "over", "not-a-bot",
    "gave-up" (too many deliveries) or "refused" (logged: a bot bug).

    Ended any other way than "played" or "gave-up" (an error included), the
    move's record in Redis is dropped, so that ``requeue_lost_moves`` sends the
    move again if the game still waits on a bot: a move once marked queued was
    otherwise left alone for a day (issue 22, 1). "gave-up" keeps it: that move
    killed its worker every time.
    """
    outcome = "raised"
    try:
        outcome = _play_move(game_id, ply, task_id)
    finally:
        if outcome not in ("played", "gave-up"):
            _release(game_id, ply)
    return outcome


def _play_move(game_id: int, ply: int, task_id: str | None) -> str:
    if task_id is not None and _count_delivery(task_id) > MAX_DELIVERIES:
        log.error("bot move for game %s ply %s given up after %s deliveries (task %s)",
                  game_id, ply, MAX_DELIVERIES, task_id)
        return "gave-up"
    game = play.load(game_id)
    if game is None or not game.running:
        return "over"
    if game.ply != ply:
        return "stale"
    seat = game.to_move
    level = level_of(game.user_id_at(seat))
    if level is None:  # queued because someone took it for a bot: ask the database itself
        _bot_cache.clear()
        level = level_of(game.user_id_at(seat))
    if level is None:
        return "not-a-bot"
    _mark(game_id, ply, "started")
    play.notify(game_id, ply)  # the pages now say "thinking"
    view = game.rules.view(game.rules.from_json(game.position), seat)  # the bot's seat only (R18, RH29)
    seconds = time_limit(level, think_seconds(game))
    action = engine_bots().choose(view, level, seed=bot_seed(game, ply), seconds=seconds)
    return _submit(game, seat, ply, str(action))


def _submit(game: Game, seat: str, ply: int, action: str) -> str:
    try:
        play.submit(game.pk, game.seat(seat).user, ply, action)
    except play.Refusal as refusal:
        game.refresh_from_db()
        if game.ply != ply or not game.running:
            return "stale"  # another delivery of this move got there first
        log.error("bot move %r refused in game %s at ply %s: %s", action, game.pk, ply, refusal)
        return "refused"
    return "played"


# --- Waiting state, kept in Redis ------------------------------------------------------


def _redis() -> Any:
    return shared_redis.client()


def _wait_key(game_id: int) -> str:
    return f"aceweb:bot-wait:{game_id}"


def _mark(game_id: int, ply: int, stage: str) -> None:
    """Record that the move at ``ply`` was queued or started (now)."""
    client = _redis()
    if client is None:
        return
    try:
        key, now = _wait_key(game_id), time.time()
        if stage == "queued":
            client.set(key, json.dumps({"ply": ply, "queued": now, "started": None}), ex=KEY_TTL_SECONDS)
            return
        old = json.loads(client.get(key) or "{}")
        queued = old.get("queued") if old.get("ply") == ply else None
        client.set(key, json.dumps({"ply": ply, "queued": queued, "started": now}), ex=KEY_TTL_SECONDS)
    except Exception:  # noqa: BLE001 - the move matters more than the notice
        log.warning("could not record bot move state for game %s", game_id, exc_info=True)


def _unmark(game_id: int) -> None:
    client = _redis()
    if client is not None:
        client.delete(_wait_key(game_id))


# Deletes the record only if it is still the one of this ply: a later ply's,
# queued meanwhile by the move that made this one stale, stays.
_RELEASE_SCRIPT = """
local raw = redis.call('get', KEYS[1])
if raw and cjson.decode(raw).ply == tonumber(ARGV[1]) then
  return redis.call('del', KEYS[1])
end
return 0
"""


def _release(game_id: int, ply: int) -> None:
    """Forget that the move at ``ply`` was queued or started: it was not played."""
    client = _redis()
    if client is None:
        return
    try:
        client.eval(_RELEASE_SCRIPT, 1, _wait_key(game_id), ply)
    except Exception:  # noqa: BLE001 - the key then expires after KEY_TTL_SECONDS
        log.warning("could not release the bot move of game %s at ply %s", game_id, ply, exc_info=True)


def _wait_record(game_id: int) -> dict[str, Any]:
    client = _redis()
    raw = client.get(_wait_key(game_id)) if client is not None else None
    return json.loads(raw) if raw else {}


def _unsent(record: dict[str, Any], ply: int) -> bool:
    """Whether the move at ``ply`` may never have reached the broker (``requeue_lost_moves``)."""
    if record.get("ply") != ply:
        return True
    waited = time.time() - (record.get("queued") or 0)
    return record.get("started") is None and waited > _visibility_timeout() + MIN_DELAY_SECONDS


def _visibility_timeout() -> float:
    return float(settings.CELERY_BROKER_TRANSPORT_OPTIONS.get("visibility_timeout", 3600))


def _count_delivery(task_id: str) -> int:
    """This delivery's number for the task (1 the first time); 1 without Redis."""
    client = _redis()
    if client is None:
        return 1
    key = f"aceweb:bot-deliveries:{task_id}"
    count = int(client.incr(key))
    client.expire(key, KEY_TTL_SECONDS)
    return count


def bot_json(game: Game) -> BotJSON | None:
    """The payload's ``bot`` field: who is a bot, and the move the game waits on."""
    flagged = seat_levels(game)  # one read of the bots for the whole payload
    seats = {seat: level for seat, level in flagged.items() if level}
    accounts = [seat for seat, level in flagged.items() if not level]
    if not seats and not accounts:
        return None
    waiting = None
    if game.running and game.to_move in seats:
        waiting = _waiting(game.pk, game.ply)
        resume_in_process(game)
    return {"seats": {seat: {"level": level, "label": level_label(level)} for seat, level in seats.items()},
            "accounts": accounts, "waiting": waiting}


def _waiting(game_id: int, ply: int) -> BotWaitJSON:
    state: dict[str, Any] = {}
    client = _redis()
    if client is not None:
        try:
            state = json.loads(client.get(_wait_key(game_id)) or "{}")
        except Exception:  # noqa: BLE001
            log.warning("could not read bot move state for game %s", game_id, exc_info=True)
    if state.get("ply") != ply:
        state = {}
    queued, started = state.get("queued"), state.get("started")
    late = client is not None and started is None and (
        queued is None or time.time() - queued > WORKER_LATE_SECONDS)
    return {"ply": ply, "queued_at": _iso(queued), "started_at": _iso(started), "worker_late": late}


def _iso(stamp: float | None) -> str | None:
    return None if stamp is None else datetime.fromtimestamp(stamp, dt_timezone.utc).isoformat()
