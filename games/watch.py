"""The live-games hub: one per daphne process, for every watcher of the live
list, the home page's panel and TV (docs/protocol.md, "The live-games socket").

Why a hub, and not a group per socket: 2,000 watchers of a page of boards
would cost, with a group message per socket per move, 2,000 Redis deliveries
and 2,000 loads of the same game for every move of a game on that page. Here
each process has one channel-layer channel of its own, a member of

- ``games.broadcast.LIVE_GROUP``, told of every game that starts or ends, and
- the group of each game that one of its sockets shows now (only those): a
  move's group message, which is sent to its game's group anyway, reaches the
  hub as one more member, so the move path pays nothing more when the process
  already watches that game, and one more queue write when not.

The hub keeps a small ``games.live.Entry`` of every running game (to rank
them without the database), the board (``games.live.card``) of each game a
socket of this process shows, and for each list shown (``live.Filters``: a
game, a speed, a page; TV is a list of one) the games in it. A change is
loaded once (one query for all games changed since the last pass), encoded
once, and the same text frame goes to every socket showing it; a socket gets
only the boards it shows. As the game sockets' heartbeat does, a periodic pass
re-reads what may have been missed, since a group message can be lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterable
from typing import Any, Protocol

import ujson
from channels.layers import get_channel_layer

from games import broadcast, live, store
from games.sockets import db_work

log = logging.getLogger(__name__)

REFRESH_SECONDS = 10.0  # the pass that catches lost messages


class Watcher(Protocol):
    """What the hub needs of a live-games socket (games.consumers.LiveConsumer)."""

    lists: tuple[live.Filters, ...]  # the lists it shows
    followed: frozenset[int]  # the players it follows: their games show first

    async def send_frame(self, text: str) -> None: ...


def encode(content: Any) -> str:
    """As every socket frame is encoded (games.sockets.JsonFrameConsumer.encode_json)."""
    return str(ujson.dumps(content, ensure_ascii=True, escape_forward_slashes=False))


class Hub:
    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self._reset()

    def _reset(self) -> None:
        self.channel: str | None = None
        self.tasks: list[asyncio.Task[None]] = []
        self.lock = asyncio.Lock()
        self.wake = asyncio.Event()
        self.entries: dict[int, live.Entry] = {}
        self.ranked: list[live.Entry] = []
        self.cards: dict[int, live.CardJSON] = {}
        self.lists: dict[live.Filters, set[Watcher]] = {}  # the lists shown, with their sockets
        self.shown: dict[live.Filters, tuple[int, ...]] = {}
        self.totals: dict[live.Filters, int] = {}
        self.fans: dict[int, set[Watcher]] = {}  # a followed player: the sockets following them
        self.following: dict[Watcher, tuple[int, ...]] = {}
        self.subscribed: set[int] = set()  # the games whose groups this hub's channel joined
        self.started: set[int] = set()  # games started or ended since the last pass
        self.moved: set[int] = set()  # shown games changed since the last pass

    # --- Sockets come and go -------------------------------------------------

    async def join(self, watcher: Watcher) -> None:
        """Show ``watcher`` its lists (and the games of the players it follows) now,
        and from now on every change to them."""
        await self._start()
        async with self.lock:
            new = [filters for filters in watcher.lists if filters not in self.lists]
            for filters in watcher.lists:
                self.lists.setdefault(filters, set()).add(watcher)
            for user_id in watcher.followed:
                self.fans.setdefault(user_id, set()).add(watcher)
            for filters in new:
                self._rank(filters)
            if watcher.followed:
                self.following[watcher] = self._followed_games(watcher)
            await self._subscribe()  # before loading: a move in between is heard, not missed
            await self._load_cards(self._visible() - self.cards.keys())
            for filters in watcher.lists:
                await watcher.send_frame(self._list_frame(filters))
            if watcher.followed:
                await watcher.send_frame(self._following_frame(watcher))

    async def leave(self, watcher: Watcher) -> None:
        if self.loop is not asyncio.get_running_loop():
            return
        async with self.lock:
            for filters in watcher.lists:
                if _discard(self.lists, filters, watcher):  # its last socket: nobody shows it now
                    self.shown.pop(filters, None)
            for user_id in watcher.followed:
                _discard(self.fans, user_id, watcher)
            self.following.pop(watcher, None)
            for game_id in set(self.cards) - self._visible():
                del self.cards[game_id]
            await self._subscribe()

    # --- The process's one channel ----------------------------------------------

    async def _start(self) -> None:
        """On the first socket (or the first of a new event loop, in tests):
        one channel, the live group, every running game's entry."""
        loop = asyncio.get_running_loop()
        if self.loop is loop:
            return
        if self.loop is not None:
            self._reset()
        self.loop = loop
        async with self.lock:  # taken before any await: a socket joining meanwhile waits for it
            layer = get_channel_layer()
            self.channel = await layer.new_channel("live-hub.")
            await layer.group_add(broadcast.LIVE_GROUP, self.channel)
            self.entries = await db_work(live.entries)()
            self._sort()
        self.tasks = [loop.create_task(self._read()), loop.create_task(self._work()),
                      loop.create_task(self._refresh())]

    async def _read(self) -> None:
        """Messages for this hub: a game started or ended; a shown game changed."""
        layer = get_channel_layer()
        while True:
            message = await layer.receive(self.channel)
            kind = message.get("type")
            if kind == "live.changed":
                self.started.update(message.get("games", ()))
            elif kind == "game.changed" and "game" in message:
                game_id = message["game"]
                shown = self.cards.get(game_id)
                if shown is None and game_id not in self.subscribed:
                    continue  # a group just left: nobody here shows it
                if shown is not None and message.get("ply", 0) <= shown["ply"]:
                    continue  # a presence change (same ply): no board moved
                self.moved.add(game_id)  # (no board yet: it may be loading, from before this move)
            else:
                continue  # chat lines, players leaving: nothing on a board
            self.wake.set()

    async def _refresh(self) -> None:
        """Every REFRESH_SECONDS while someone watches: what a lost message would
        have said, read again (the games running, and the shown games' plies)."""
        while True:
            await asyncio.sleep(REFRESH_SECONDS)
            if not self.lists and not self.following:
                continue
            try:
                entries = await db_work(live.entries)()
                steps = await db_work(store.steps)(list(self.cards))
            except Exception:  # the database is away: try at the next pass
                log.exception("live hub: could not re-read the running games")
                continue
            self.started.update(entries.keys() ^ self.entries.keys())
            self.moved.update(game_id for game_id, step in steps.items()
                              if game_id in self.cards and step.ply > self.cards[game_id]["ply"])
            if self.started or self.moved:
                self.wake.set()

    async def _work(self) -> None:
        """Apply what arrived since the last pass, all of it at once: under load a
        pass takes the changes of many moves, each game loaded and encoded once."""
        while True:
            await self.wake.wait()
            self.wake.clear()
            try:
                async with self.lock:
                    started, self.started = self.started, set()
                    moved, self.moved = self.moved, set()
                    await self._apply(started, moved)
            except Exception:  # one bad pass must not stop the hub
                log.exception("live hub: a pass failed")

    # --- A pass -------------------------------------------------------------------

    async def _apply(self, started: set[int], moved: set[int]) -> None:
        lists_changed: list[live.Filters] = []
        fans_changed: set[Watcher] = set()
        if started:
            for game_id in started:  # the players before and after: their followers look again
                fans_changed |= self._fans_of(game_id)
            found = await db_work(live.entries)(started)
            for game_id in started:
                if game_id in found:
                    self.entries[game_id] = found[game_id]
                else:
                    self.entries.pop(game_id, None)
                fans_changed |= self._fans_of(game_id)
            self._sort()
            lists_changed = [filters for filters in list(self.lists) if self._rank(filters)]
            for watcher in fans_changed:
                self.following[watcher] = self._followed_games(watcher)
        visible = self._visible()
        for game_id in set(self.cards) - visible:
            del self.cards[game_id]
        # Join a newly shown game's group before loading it, so that a move in
        # between is heard (as a game socket joins before its first load).
        await self._subscribe()
        await self._load_cards((moved & visible) | (visible - self.cards.keys()))
        await self._send_boards(moved & visible)
        for filters in lists_changed:
            frame = self._list_frame(filters)
            for watcher in list(self.lists.get(filters, ())):
                await watcher.send_frame(frame)
        for watcher in fans_changed:
            if watcher in self.following:
                await watcher.send_frame(self._following_frame(watcher))

    def _fans_of(self, game_id: int) -> set[Watcher]:
        entry = self.entries.get(game_id)
        if entry is None:
            return set()
        return {watcher for user_id in entry.player_ids for watcher in self.fans.get(user_id, ())}

    def _sort(self) -> None:
        self.ranked = sorted(self.entries.values(), key=lambda entry: entry.rank)

    def _rank(self, filters: live.Filters) -> bool:
        """Work out which games ``filters`` shows now; whether that changed.

        The total alone changing sends nothing: with a thousand games one starts
        or ends every second or so, and every socket of an unfiltered list would
        get a frame each time for a number; it comes with the list's next frame."""
        admitted = [entry.id for entry in self.ranked if filters.admits(entry)]
        shown = tuple(admitted[filters.offset:filters.offset + filters.limit])
        changed = shown != self.shown.get(filters)
        self.shown[filters], self.totals[filters] = shown, len(admitted)
        return changed

    def _followed_games(self, watcher: Watcher) -> tuple[int, ...]:
        games = [entry.id for entry in self.ranked if entry.player_ids & watcher.followed]
        return tuple(games[:live.FOLLOWING_SIZE])

    def _visible(self) -> set[int]:
        """Every game a socket of this process shows."""
        shown = {game_id for games in self.shown.values() for game_id in games}
        return shown.union(*self.following.values())

    async def _load_cards(self, game_ids: set[int]) -> None:
        if game_ids:
            self.cards.update(await db_work(live.cards)(game_ids))

    async def _subscribe(self) -> None:
        """Be a member of exactly the groups of the games shown here."""
        layer = get_channel_layer()
        visible = self._visible()
        for game_id in visible - self.subscribed:
            await layer.group_add(broadcast.group_name(game_id), self.channel)
        for game_id in self.subscribed - visible:
            await layer.group_discard(broadcast.group_name(game_id), self.channel)
        self.subscribed = visible

    # --- Frames -----------------------------------------------------------------

    async def _send_boards(self, changed: set[int]) -> None:
        """The boards changed in this pass: one frame for each kind of socket (the
        same lists shown) holding every changed board it shows, encoded once for
        all sockets of that kind. Under load a pass takes in many moves, and a
        socket then gets one frame for all of them rather than one a move."""
        if not changed:
            return
        kinds: dict[tuple[live.Filters, ...], set[Watcher]] = {}
        for sockets in self.lists.values():
            for watcher in sockets:
                kinds.setdefault(watcher.lists, set()).add(watcher)
        sent: set[Watcher] = set()
        for lists, sockets in kinds.items():
            shown = dict.fromkeys(game_id for filters in lists for game_id in self.shown.get(filters, ()))
            games = [game_id for game_id in shown if game_id in changed]
            frame = self._boards_frame(games) if games else None
            for watcher in sockets:
                followed = [g for g in self.following.get(watcher, ()) if g in changed and g not in shown]
                if followed:  # a follower's own frame: its lists' boards and its followed players'
                    await watcher.send_frame(self._boards_frame(games + followed))
                elif frame is not None:
                    await watcher.send_frame(frame)
                sent.add(watcher)
        for watcher, games_followed in self.following.items():  # following only, no list
            followed = [g for g in games_followed if g in changed]
            if followed and watcher not in sent:
                await watcher.send_frame(self._boards_frame(followed))

    def _boards_frame(self, game_ids: list[int]) -> str:
        return encode({"type": "boards", "boards": self._cards_of(game_ids)})

    def _list_frame(self, filters: live.Filters) -> str:
        return encode({"type": "list", "list": filters.name, "total": self.totals.get(filters, 0),
                       "boards": self._cards_of(self.shown.get(filters, ()))})

    def _following_frame(self, watcher: Watcher) -> str:
        return encode({"type": "following", "boards": self._cards_of(self.following.get(watcher, ()))})

    def _cards_of(self, game_ids: Iterable[int]) -> list[live.CardJSON]:
        return [self.cards[game_id] for game_id in game_ids if game_id in self.cards]

    async def stop(self) -> None:
        """For tests: end the tasks of this loop's hub."""
        for task in self.tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self.loop = None
        self._reset()


def _discard(sets: dict[Any, set[Watcher]], key: Any, watcher: Watcher) -> bool:
    """Take ``watcher`` out of ``sets[key]``, and the key out when that empties it (then True)."""
    members = sets.get(key, set())
    members.discard(watcher)
    if members:
        return False
    sets.pop(key, None)
    return True


HUB = Hub()
