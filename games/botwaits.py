"""Where a bot's move stands, kept in Redis (``aceweb:bot-wait:<id>``): queued
when games.botmoves schedules it, started when a worker picks it up; and the
game payload's ``bot`` field, which carries it so that the page says "thinking"
or, when no worker has answered for ``WORKER_LATE_SECONDS``, "waiting for a bot
worker". Reading it (``bot_json``) changes nothing.
"""

from __future__ import annotations

import json
import logging
import time
from datetime import datetime, timezone as dt_timezone
from typing import Any, TypedDict

from games import bots, shared_redis, timestamps
from games.models import Game

log = logging.getLogger("games")

# After this long with no worker on a queued move, the page says so.
WORKER_LATE_SECONDS = 5.0
# Redis keys live this long: a day covers any real-time game.
KEY_TTL_SECONDS = 86_400


class BotSeatJSON(TypedDict):
    level: str
    label: str


class BotWaitJSON(TypedDict):
    ply: int
    queued_at: str | None
    started_at: str | None  # None until a worker picks the move up
    worker_late: bool  # queued WORKER_LATE_SECONDS ago and no worker has it yet


class BotJSON(TypedDict):
    accounts: list[str]  # seats played by BOT accounts (programs, through the API)
    seats: dict[str, BotSeatJSON]
    waiting: BotWaitJSON | None  # the bot move the game is waiting for, if any


def _redis() -> Any:
    return shared_redis.client()


def _wait_key(game_id: int) -> str:
    return f"aceweb:bot-wait:{game_id}"


def mark(game_id: int, ply: int, stage: str) -> None:
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


def unmark(game_id: int) -> None:
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


def release(game_id: int, ply: int) -> None:
    """Forget that the move at ``ply`` was queued or started: it was not played."""
    client = _redis()
    if client is None:
        return
    try:
        client.eval(_RELEASE_SCRIPT, 1, _wait_key(game_id), ply)
    except Exception:  # noqa: BLE001 - the key then expires after KEY_TTL_SECONDS
        log.warning("could not release the bot move of game %s at ply %s", game_id, ply, exc_info=True)


def wait_record(game_id: int) -> dict[str, Any]:
    client = _redis()
    raw = client.get(_wait_key(game_id)) if client is not None else None
    return json.loads(raw) if raw else {}


def count_delivery(task_id: str) -> int:
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
    flagged = bots.seat_levels(game)  # one read of the bots for the whole payload
    seats = {seat: level for seat, level in flagged.items() if level}
    accounts = [seat for seat, level in flagged.items() if not level]
    if not seats and not accounts:
        return None
    waiting = _waiting(game.pk, game.ply) if game.running and game.to_move in seats else None
    return {"seats": {seat: {"level": level, "label": bots.level_label(level)} for seat, level in seats.items()},
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
    return None if stamp is None else timestamps.stamp(datetime.fromtimestamp(stamp, dt_timezone.utc))
