"""Computer players' moves: when a bot moves, and the move itself (issue 5).

Who is a bot is games.bots. When a running game's side to move is a bot,
``after_change`` (registered in GamesConfig.ready() with
``games.broadcast.listen_to_turns``, so it hears of every game started and every
move accepted) queues the Celery task ``games.tasks.play_bot_move`` with the
game id and the ply, once the transaction has committed. The task calls
:func:`play_move`, which:

- drops the task when the game is over or the ply has passed (stale);
- gives up, with a logged error, after ``MAX_DELIVERIES`` deliveries of one
  task (a move that kills its worker every time must not loop for ever);
- hands the engine bot only the rules' ``view(state, seat)``, the bot seat's own
  view, never the state (R18), with a seed derived one-way from the game's
  secret seed and the ply, so a game against a bot can be replayed exactly;
- submits through ``games.moving.submit`` as the bot user: the same row lock,
  validation, transaction and broadcast as a human move. A stale-ply refusal
  there means another delivery already played this ply: done.

The task runs with ``acks_late`` and ``reject_on_worker_lost``: a worker that
dies mid-move leaves the message unacknowledged in Redis, and the broker hands
it out again after its visibility timeout (``CELERY_BROKER_TRANSPORT_OPTIONS``
in settings); the ply check and the row lock make the move happen once.

Whether a worker has taken the move is kept in Redis (games.botwaits), which
the game payload's ``bot`` field reads. Without a worker, whoever shows a game
calls :func:`resume_waiting_move`, so that a move this process lost is played.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
import threading
import time
from datetime import datetime
from typing import Any

from asgiref.sync import async_to_sync, sync_to_async
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import OperationalError, connections, transaction
from django.utils import timezone
from django.utils.translation import gettext

from games import bots, botwaits, broadcast, moving, refusals, shared_redis, starting, store
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
# The bot accounts' user ids are re-read at least this often, and at once when


# --- Playing the computer -------------------------------------------------------


def play_computer(user: Any, level: str, time_control: TimeControl, *, rated: bool = False,
                  colour: str = "random", setup: starting.Setup = starting.Setup()) -> Game:
    """Start a game at once between ``user`` and the bot of ``level``, of the
    game ``setup`` names (two players).

    ``colour`` is the human's wish: red (the first seat), black or random.
    Refuses (and changes nothing) for a visitor, a bot, an unknown or
    switched-off level, or an unknown control.
    """
    if user is None or not getattr(user, "is_authenticated", False):
        raise refusals.Refusal(gettext("log in to play the computer"))
    if bots.is_bot(user):
        raise refusals.Refusal(gettext("a bot cannot start games"))
    if level not in bots.engine_bots().LEVELS:
        raise refusals.Refusal(gettext("%(level)s is not a bot level: choose one of %(levels)s") % {
            "level": repr(level), "levels": ", ".join(bots.engine_bots().LEVELS)})
    bots.refuse_switched_off(level)
    if time_control not in OFFERED:
        raise refusals.Refusal(gettext("%(control)s is not an offered time control") % {
            "control": repr(time_control.key)})
    if colour not in ("red", "black", "random"):
        raise refusals.Refusal(gettext('"colour" must be red, black or random'))
    bot = get_user_model().objects.filter(username=bots.bot_username(level)).first()
    if bot is None or bots.level_of(bot.pk) != level:
        raise refusals.Refusal(gettext("the %(level)s bot has no account yet: run manage.py seed_bots") % {
            "level": bots.level_label(level)})
    if colour == "random":
        colour = secrets.choice(["red", "black"])
    red, black = (user, bot) if colour == "red" else (bot, user)
    return starting.start_game(red, black, rated=rated, time_control=time_control, setup=setup)


# --- Scheduling -------------------------------------------------------------------


def after_change(game: Game) -> None:
    """Queue the bot's move, after commit, when a running game waits on a bot.

    Registered with games.broadcast.listen_to_turns: called inside the
    transaction that started ``game`` or saved a move of it.
    """
    if not game.running or bots.level_of(game.user_id_at(game.to_move)) is None:
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
    from games.tasks import play_bot_move  # its own Celery task: games.tasks imports this module

    if play_bot_move.app.conf.task_always_eager:  # no worker: apply_async would play it right here
        play_later_in_process(game_id, ply, delay)
        return
    botwaits.mark(game_id, ply, "queued")
    try:
        play_bot_move.apply_async((game_id, ply), countdown=delay)
    except Exception:  # noqa: BLE001 - kombu raises many kinds; the move itself is saved
        log.exception("bot move for game %s ply %s could not be queued", game_id, ply)
        botwaits.unmark(game_id)  # requeue_lost_moves tries again


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
    if shared_redis.client() is None or not bots.bot_levels():
        return []
    ids = list(bots.bot_levels())
    waiting = (Game.objects.filter(seats__user_id__in=ids, status=Game.Status.RUNNING).distinct()
               .prefetch_related("seats"))
    lost = []
    for game in waiting.iterator(chunk_size=500):
        waits_on_bot = bots.level_of(game.user_id_at(game.to_move)) is not None
        if waits_on_bot and _unsent(botwaits.wait_record(game.pk), game.ply):
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
    from games.tasks import play_bot_move  # its own Celery task: games.tasks imports this module

    if not play_bot_move.app.conf.task_always_eager or transaction.get_connection().in_atomic_block:
        return  # a worker's job; or not committed yet, and after_change will schedule it
    with _in_process_lock:
        if (game.pk, game.ply) in _in_process:
            return
    play_later_in_process(game.pk, game.ply, pace_delay(game))


def resume_waiting_move(game: Game) -> None:
    """Someone is shown ``game``: without a worker, play the bot move it waits
    on if this process has not set it off (``resume_in_process``). Called by
    whatever shows a game (the game socket, the API, the live list), never by
    the building of its payload, which only reads."""
    if game.running and bots.bot_plays(game, game.to_move):
        resume_in_process(game)


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
    iterations = getattr(bots.engine_bots(), "ISMCTS_ITERATIONS", {}).get(level)
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
            botwaits.release(game_id, ply)
    return outcome


def _play_move(game_id: int, ply: int, task_id: str | None) -> str:
    if task_id is not None and botwaits.count_delivery(task_id) > MAX_DELIVERIES:
        log.error("bot move for game %s ply %s given up after %s deliveries (task %s)",
                  game_id, ply, MAX_DELIVERIES, task_id)
        return "gave-up"
    game = store.load(game_id)
    if game is None or not game.running:
        return "over"
    if game.ply != ply:
        return "stale"
    seat = game.to_move
    level = bots.level_of(game.user_id_at(seat))
    if level is None:  # queued because someone took it for a bot: ask the database itself
        bots.read_bots_again()
        level = bots.level_of(game.user_id_at(seat))
    if level is None:
        return "not-a-bot"
    botwaits.mark(game_id, ply, "started")
    broadcast.notify(game_id, ply)  # the pages now say "thinking"
    view = game.rules.view(game.rules.from_json(game.position), seat)  # the bot's seat only (R18, RH29)
    seconds = time_limit(level, think_seconds(game))
    action = bots.engine_bots().choose(view, level, seed=bot_seed(game, ply), seconds=seconds)
    return _submit(game, seat, ply, str(action))


def _submit(game: Game, seat: str, ply: int, action: str) -> str:
    try:
        moving.submit(game.pk, game.seat(seat).user, ply, action)
    except refusals.Refusal as refusal:
        game.refresh_from_db()
        if game.ply != ply or not game.running:
            return "stale"  # another delivery of this move got there first
        log.error("bot move %r refused in game %s at ply %s: %s", action, game.pk, ply, refusal)
        return "refused"
    return "played"


def _unsent(record: dict[str, Any], ply: int) -> bool:
    """Whether the move at ``ply`` may never have reached the broker (``requeue_lost_moves``)."""
    if record.get("ply") != ply:
        return True
    waited = time.time() - (record.get("queued") or 0)
    return record.get("started") is None and waited > _visibility_timeout() + MIN_DELAY_SECONDS


def _visibility_timeout() -> float:
    return float(settings.CELERY_BROKER_TRANSPORT_OPTIONS.get("visibility_timeout", 3600))
