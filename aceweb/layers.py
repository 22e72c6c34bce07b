"""The Redis channel layer: channels-redis's storage, with our own delivery.

channels-redis delivers every message for the sockets of one process through a
single Redis queue, popped by whichever socket's ``receive()`` holds a lock,
for all of them. That loses messages: when that socket closes, Channels
cancels its ``receive()``, and a message Redis had already handed over, unread
by the busy event loop, was gone for every socket it named (issue 10: a game
update Red and a spectator never got; django/channels#1683;
tests/games/test_channel_layer.py shows it). It is also dear: each message cost
four round trips to Redis, and each socket's wait two tasks and a lock.

Here one reader task per process queue, which no socket's coming or going
cancels, takes messages off Redis in batches (one round trip, a blocking
BZMPOP, for up to ``BATCH`` messages) and puts each in the waiting queue of every
socket it names, as lila-ws does. A ``group_send`` is one round trip, a
script that reads the group's members (dropping expired ones) and queues the
message once per process queue they are in (dropping expired messages); with
several Redis hosts, or encrypted messages, or capacities per channel, it is
two: the members, then the fan-out. Messages, groups, expiry and capacity are
stored exactly as channels-redis stores them, so processes running either
layer still talk to each other.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import logging
import random
import time
from collections.abc import Sequence
from typing import Any

import msgpack
from channels_redis.core import RedisChannelLayer as _RedisChannelLayer
from channels_redis.serializers import MsgPackSerializer
from redis.exceptions import NoScriptError, ResponseError

log = logging.getLogger(__name__)

BATCH = 100  # messages taken off a process queue per round trip
SCORE_STEP = 1e-6  # seconds between the scores of the messages of one group_send_many
RETRY_SECONDS = 1.0  # after Redis failed a read

# KEYS: the group. ARGV: the score (time) below which a member has expired.
GROUP_MEMBERS = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], 0, ARGV[1])
return redis.call('ZRANGE', KEYS[1], 0, -1)
"""

# KEYS: n queues. ARGV: n messages, n capacities, then the time, the queues'
# expiry in seconds, and the score below which a queued message has expired.
# Returns how many queues were full (their message dropped, as channels-redis does).
FAN_OUT = """
local n = #KEYS
local now, expiry, stale = ARGV[2 * n + 1], ARGV[2 * n + 2], ARGV[2 * n + 3]
local full = 0
for i = 1, n do
    redis.call('ZREMRANGEBYSCORE', KEYS[i], 0, stale)
    if redis.call('ZCARD', KEYS[i]) < tonumber(ARGV[n + i]) then
        redis.call('ZADD', KEYS[i], now, ARGV[i])
        redis.call('EXPIRE', KEYS[i], expiry)
    else
        full = full + 1
    end
end
return full
"""


# Both in one, for one group or several: KEYS: the groups. ARGV: the score
# below which a member has expired, the queues' capacity, their expiry in
# seconds, the score below which a queued message has expired, the layer's key
# prefix; then for each group, the channel to skip, the score (time) to store
# the message at, and the message stored without its channel list
# (channels-redis's random prefix, then a msgpack map whose last key is
# "__asgi_channel__", its value to follow). Each process queue ("specific.abc!")
# of a group's members gets its message once, naming its own channels, as
# channels-redis stores it. Returns the queues written to and how many of them
# were full.
GROUP_SEND = """
local written, full = 0, 0
for g = 1, #KEYS do
    local skip, score, message = ARGV[3 * g + 3], ARGV[3 * g + 4], ARGV[3 * g + 5]
    redis.call('ZREMRANGEBYSCORE', KEYS[g], 0, ARGV[1])
    local members = redis.call('ZRANGE', KEYS[g], 0, -1)
    local queues, order = {}, {}
    for _, name in ipairs(members) do
        if name ~= skip then
            local bang = string.find(name, '!', 1, true)
            local queue = bang and string.sub(name, 1, bang) or name
            local names = queues[queue]
            if names == nil then
                names = {}
                queues[queue] = names
                order[#order + 1] = queue
            end
            names[#names + 1] = name
        end
    end
    for _, queue in ipairs(order) do
        local key = ARGV[5] .. queue
        redis.call('ZREMRANGEBYSCORE', key, 0, ARGV[4])
        if redis.call('ZCARD', key) < tonumber(ARGV[2]) then
            redis.call('ZADD', key, score, message .. cmsgpack.pack(queues[queue]))
            redis.call('EXPIRE', key, ARGV[3])
        else
            full = full + 1
        end
    end
    written = written + #order
end
return {written, full}
"""


class RedisChannelLayer(_RedisChannelLayer):  # type: ignore[misc]
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._readers: dict[str, asyncio.Task[None]] = {}  # per process queue
        self._blocking_batches = True  # BZMPOP, until Redis says it has none

    async def receive(self, channel: str) -> dict[str, Any]:
        if "!" not in channel:  # a plain channel: nobody else's messages are at stake
            return await super().receive(channel)  # type: ignore[no-any-return]
        assert self.require_valid_channel_name(channel)
        self._start_reader(self.non_local_name(channel))
        try:
            message: dict[str, Any] = await self.receive_buffer[channel].get()
        except asyncio.CancelledError:
            self.receive_buffer.pop(channel, None)  # its consumer has gone, as channels-redis assumes
            raise
        if self.receive_buffer[channel].empty():
            del self.receive_buffer[channel]
        return message

    def _start_reader(self, queue: str) -> None:
        reader = self._readers.get(queue)
        loop = asyncio.get_running_loop()
        if reader is None or reader.done() or reader.get_loop() is not loop:
            self._readers[queue] = loop.create_task(self._read(queue))

    async def _read(self, queue: str) -> None:
        """Deliver the process queue's messages for as long as the process runs."""
        index = self.consistent_hash(queue)
        key = self.prefix + queue
        while True:
            try:
                for raw in await self._pop(index, key):
                    self._deliver(queue, raw)
            except Exception:  # Redis away: the sockets wait, and the reader tries again
                log.exception("reading %s from Redis failed; trying again in %s s", key, RETRY_SECONDS)
                await asyncio.sleep(RETRY_SECONDS)

    async def _pop(self, index: int, key: str) -> list[bytes]:
        """The oldest messages waiting, else the next to arrive (or none, after
        ``brpop_timeout``): one round trip, BZMPOP, where Redis has it (7.0 on),
        else ZPOPMIN and, when nothing waits, BZPOPMIN."""
        connection = self.connection(index)
        if self._blocking_batches:
            try:
                popped = await connection.bzmpop(self.brpop_timeout, 1, [key], min=True, count=BATCH)
            except ResponseError:  # an older Redis: no BZMPOP
                log.info("Redis has no BZMPOP: the channel layer pops in two round trips")
                self._blocking_batches = False
            else:
                return [] if popped is None else [member for member, _score in popped[1]]
        waiting = await connection.zpopmin(key, BATCH)
        if waiting:
            return [member for member, _score in waiting]
        arrived = await connection.bzpopmin(key, timeout=self.brpop_timeout)
        return [] if arrived is None else [arrived[1]]

    def _deliver(self, queue: str, raw: bytes) -> None:
        message = self.deserialize(raw)
        names = message.pop("__asgi_channel__", queue)
        for name in [names] if isinstance(names, str) else names:
            self.receive_buffer[name].put_nowait(message)

    async def group_send(self, group: str, message: dict[str, Any], *, skipping: str | None = None) -> None:
        """Send to every member of ``group``, but for the channel ``skipping``:
        a sender that has answered its own socket already (a move's mover)
        spares its process the message's round trip to Redis and back."""
        await self.group_send_many([(group, message, skipping)])

    async def group_send_many(self, sends: Sequence[tuple[str, dict[str, Any], str | None]]) -> None:
        """Each ``(group, message, skipping)`` as ``group_send`` sends it, in
        this order, in one round trip where one script can do it: a move tells
        its game's group and the players whose turn changed (issue 26) at the
        cost of one call."""
        for group, _message, _skipping in sends:
            assert self.require_valid_group_name(group), "Group name not valid"
        if not sends:
            return
        if self._sends_in_one_script():
            await self._group_send_in_one(sends)
            return
        for group, message, skipping in sends:
            await self._group_send_in_two(group, message, skipping)

    async def _group_send_in_two(self, group: str, message: dict[str, Any], skipping: str | None) -> None:
        connection = self.connection(self.consistent_hash(group))
        members = await connection.eval(GROUP_MEMBERS, 1, self._group_key(group),
                                        int(time.time()) - self.group_expiry)
        names = [name for name in (member.decode() for member in members) if name != skipping]
        if not names:
            return
        by_connection, messages, capacities = self._map_channel_keys_to_connection(names, message)
        for index, keys in by_connection.items():
            now = time.time()
            full = await self.connection(index).eval(
                FAN_OUT, len(keys), *keys, *(messages[k] for k in keys), *(capacities[k] for k in keys),
                now, int(self.expiry), int(now) - int(self.expiry))
            if full:
                log.info("%s of %s channels over capacity in group %s", full, len(names), group)

    def _sends_in_one_script(self) -> bool:
        """Whether a group_send can be one script: one Redis host (every key on
        it), plain msgpack messages and one capacity for every channel."""
        serializer = self._serializer
        return (self.ring_size == 1 and not self.channel_capacity and type(serializer) is MsgPackSerializer
                and getattr(serializer, "crypter", None) is None)

    async def _group_send_in_one(self, sends: Sequence[tuple[str, dict[str, Any], str | None]]) -> None:
        now = time.time()
        per_group: list[Any] = []
        for index, (_group, message, skipping) in enumerate(sends):
            # Distinct, rising scores: a queue's messages keep the order they were sent in.
            per_group += [skipping or "", repr(now + index * SCORE_STEP), self._stored_without_channels(message)]
        keys = [self._group_key(group) for group, _message, _skipping in sends]
        written, full = await self._run(GROUP_SEND, keys, [
            int(now) - self.group_expiry, self.capacity, int(self.expiry), int(now) - int(self.expiry), self.prefix,
            *per_group])
        if full:
            log.info("%s of %s process queues over capacity in groups %s", full, written,
                     ", ".join(group for group, _message, _skipping in sends))

    async def _run(self, script: str, keys: list[str], args: list[Any]) -> Any:
        """The script by its digest (EVALSHA: 40 bytes, not its text, each
        time); sent whole once, when Redis does not know it yet."""
        connection = self.connection(0)
        try:
            return await connection.evalsha(_digest(script), len(keys), *keys, *args)
        except NoScriptError:
            return await connection.eval(script, len(keys), *keys, *args)

    def _stored_without_channels(self, message: dict[str, Any]) -> bytes:
        """The message packed as channels-redis packs it, its channel list left
        for the script to append (a nil is msgpack's one byte, 0xc0)."""
        packed = msgpack.packb({**message, "__asgi_channel__": None})
        assert packed[-1:] == b"\xc0"
        length = self._serializer.random_prefix_length
        return bytes(random.getrandbits(8 * length).to_bytes(length, "big") + packed[:-1])

    async def close_pools(self) -> None:
        """As channels-redis does (and ``flush``, through it), after stopping
        the readers, whose connections are about to close."""
        readers, self._readers = list(self._readers.values()), {}
        loop = asyncio.get_running_loop()
        for reader in readers:
            reader.cancel()
            if reader.get_loop() is loop:
                with contextlib.suppress(asyncio.CancelledError):
                    await reader
        await super().close_pools()


@functools.cache
def _digest(script: str) -> str:
    return hashlib.sha1(script.encode()).hexdigest()
