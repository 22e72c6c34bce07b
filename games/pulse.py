"""The site's pulse: was it serving players at a given time? (issue 14)

Every daphne process's heartbeat (games/heartbeat.py) beats while it has game
sockets, every ``GAME_BEAT_SECONDS``, and each beat is recorded here: the time
of the site's last beat, whichever process gave it. When a beat finds the last
one older than ``OUTAGE_GAP``, the gap between them was an outage: nobody could
play, and it is kept (the last ``OUTAGES_KEPT``).

Penalties ask ``served(start, end)`` before punishing what happened between
``start`` and ``end`` (ladder/playban.py): a player is never penalised for the
site's own outage. With Redis the pulse is shared by every process; without it
(the in-process setup, one process) it is kept in memory.

A site with no game socket open anywhere gives no beat either, so a timeout
judged then counts as the site's fault: a lenient mistake, never a harsh one.
"""

from __future__ import annotations

import threading
from datetime import datetime, timedelta, timezone as dt_timezone

from django.utils import timezone

from games import shared_redis

OUTAGE_GAP = timedelta(seconds=30)  # six missed beats
OUTAGES_KEPT = 500
LAST_KEY = "aceweb:pulse:last"
OUTAGES_KEY = "aceweb:pulse:outages"


def beat(now: datetime | None = None) -> None:
    """The site is serving now: record it, and the outage before it if there was one."""
    now = now or timezone.now()
    last = _store().swap_last(now)
    if last is not None and now - last > OUTAGE_GAP:
        _store().add_outage(last, now)


def served(start: datetime, end: datetime, now: datetime | None = None) -> bool:
    """Whether the site was serving all along from ``start`` to ``end``: no
    outage overlaps that time, and if it reaches the last ``OUTAGE_GAP`` the
    site is beating now."""
    now = now or timezone.now()
    store = _store()
    if end > now - OUTAGE_GAP:
        last = store.last()
        if last is None or now - last > OUTAGE_GAP:
            return False
    return not any(down < end and up > start for down, up in store.outages())


def forget() -> None:
    """Tests only: no pulse recorded yet."""
    _store().clear()


# --- Where the pulse is kept --------------------------------------------------


def _stamp(moment: datetime) -> str:
    return f"{moment.timestamp():.3f}"


def _time(stamp: bytes | str) -> datetime:
    return datetime.fromtimestamp(float(stamp), tz=dt_timezone.utc)


class _RedisPulse:
    def __init__(self, client: object) -> None:
        self.client = client

    def swap_last(self, now: datetime) -> datetime | None:
        old = self.client.set(LAST_KEY, _stamp(now), get=True)  # type: ignore[attr-defined]
        return None if old is None else _time(old)

    def last(self) -> datetime | None:
        stamp = self.client.get(LAST_KEY)  # type: ignore[attr-defined]
        return None if stamp is None else _time(stamp)

    def add_outage(self, down: datetime, up: datetime) -> None:
        pipe = self.client.pipeline()  # type: ignore[attr-defined]
        pipe.lpush(OUTAGES_KEY, f"{_stamp(down)} {_stamp(up)}")
        pipe.ltrim(OUTAGES_KEY, 0, OUTAGES_KEPT - 1)
        pipe.execute()

    def outages(self) -> list[tuple[datetime, datetime]]:
        rows = self.client.lrange(OUTAGES_KEY, 0, -1)  # type: ignore[attr-defined]
        return [(_time(down), _time(up)) for down, up in (row.split() for row in rows)]

    def clear(self) -> None:
        self.client.delete(LAST_KEY, OUTAGES_KEY)  # type: ignore[attr-defined]


class _MemoryPulse:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.latest: datetime | None = None
        self.gaps: list[tuple[datetime, datetime]] = []

    def swap_last(self, now: datetime) -> datetime | None:
        with self.lock:
            old, self.latest = self.latest, now
        return old

    def last(self) -> datetime | None:
        return self.latest

    def add_outage(self, down: datetime, up: datetime) -> None:
        with self.lock:
            self.gaps = [(down, up), *self.gaps][:OUTAGES_KEPT]

    def outages(self) -> list[tuple[datetime, datetime]]:
        return list(self.gaps)

    def clear(self) -> None:
        with self.lock:
            self.latest, self.gaps = None, []


_MEMORY = _MemoryPulse()


def _store() -> _RedisPulse | _MemoryPulse:
    client = shared_redis.client()
    return _RedisPulse(client) if client is not None else _MEMORY
