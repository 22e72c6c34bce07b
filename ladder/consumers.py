"""The lobby websocket (docs/protocol.md, "The lobby socket"): seeks, challenges, the
rated pool, game starts.

Anyone may watch the seek list; logged-in users may act. Every socket joins the
``lobby`` group, and a logged-in user's sockets also join ``user-<id>``. Group
messages carry ids only; each socket loads what its own user may see. Bad
frames and refusals get an ``error`` on this socket; they never close it.

The pool: the socket that joins owns that wait, and closing it leaves the pool
(as on lichess: nobody is paired who is no longer there). While its user
waits, each socket pushes the widened window every time it widens.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from django.utils import translation

from games.sockets import Handler, JsonFrameConsumer
from ladder import challenges, inputs, lobby_groups, lobby_json, matchmaking, seeks
from ladder.models import PoolEntry
from notify.live import NotifyConsumerMixin


class LobbyConsumer(NotifyConsumerMixin, JsonFrameConsumer):
    refusals = (inputs.LobbyRefusal,)
    groups_joined: list[str]
    pool_wait: int | None = None  # the pool entry this socket joined: it ends with the socket
    widening: asyncio.Task[None] | None = None

    async def connect(self) -> None:
        # ?personal=1 (the site-wide notifier, static/js/notify.js): only this user's
        # own news, without the seek list and its every change.
        personal = parse_qs(self.scope.get("query_string", b"").decode()).get("personal") == ["1"]
        self.groups_joined = [] if personal else [lobby_groups.LOBBY_GROUP]
        if self._user_id is not None:
            self.groups_joined.append(lobby_groups.user_group(self._user_id))
        # Join before accepting (so a page that sees its socket open hears every
        # change from then on) and before loading (so none between the two is missed).
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()
        if not personal:
            await self._send_seeks()
        if self._user_id is not None:
            await self.send_json({"type": "challenges", "challenges": await self._challenges()})
            pool = await self._pool()
            if pool is not None:  # not waiting is the client's starting state: nothing to say
                await self._send_pool(pool)

    async def disconnect(self, code: int) -> None:
        self._stop_widening()
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)
        if self.pool_wait is not None and await self._leave_pool(self.pool_wait):
            group = lobby_groups.user_group(self.scope["user"].pk)
            await self.channel_layer.group_send(group, {"type": "pool.changed"})

    @property
    def _user_id(self) -> int | None:
        user = self.scope.get("user")
        return user.pk if user is not None and user.is_authenticated else None

    # --- From the client --------------------------------------------------


    def _handlers(self) -> dict[str, Handler]:
        return {"seek": self._seek, "cancel": self._cancel, "accept": self._accept,
                "join": self._join, "leave": self._leave,
                "challenge": self._challenge, "accept_challenge": self._accept_challenge,
                "decline_challenge": self._decline_challenge, "cancel_challenge": self._cancel_challenge,
                "pool_join": self._pool_join, "pool_leave": self._pool_leave, "ping": self._ping,
                "notify_sync": self._notify_sync}

    # Success is never answered directly: the change reaches this socket too,
    # through the groups (a new list, a challenge, or game_started).

    async def _seek(self, content: dict[str, Any]) -> None:
        await self._do(seeks.create_seek, content.get("time_control"),
                       rated=content.get("rated", True), colour=content.get("colour", "random"),
                       rules=content.get("rules", inputs.ACE), players=content.get("players", 2),
                       partner=content.get("partner"))

    async def _cancel(self, content: dict[str, Any]) -> None:
        await self._do(lambda user, seek: seeks.cancel_seek(seek, user), content.get("seek"))

    async def _accept(self, content: dict[str, Any]) -> None:
        await self._do(lambda user, seek: seeks.accept_seek(seek, user), content.get("seek"))

    async def _join(self, content: dict[str, Any]) -> None:
        await self._do(lambda user, seek: seeks.join_seek(seek, user), content.get("seek"))

    async def _leave(self, content: dict[str, Any]) -> None:
        await self._do(lambda user, seek: seeks.leave_seek(seek, user), content.get("seek"))

    async def _challenge(self, content: dict[str, Any]) -> None:
        options = {"rated": content.get("rated", True), "colour": content.get("colour", "random"),
                   "rules": content.get("rules", inputs.ACE)}
        if content.get("players", 2) == 4:  # Rhombus teams: a partner and two opponents
            await self._do(challenges.create_team_challenge, content.get("partner"), content.get("opponents"),
                           content.get("time_control"), **options)
        else:
            await self._do(challenges.create_challenge, content.get("username"), content.get("time_control"),
                           **options)

    async def _accept_challenge(self, content: dict[str, Any]) -> None:
        await self._do(lambda user, pk: challenges.accept_challenge(pk, user), content.get("challenge"))

    async def _decline_challenge(self, content: dict[str, Any]) -> None:
        await self._do(lambda user, pk: challenges.decline_challenge(pk, user), content.get("challenge"))

    async def _cancel_challenge(self, content: dict[str, Any]) -> None:
        await self._do(lambda user, pk: challenges.cancel_challenge(pk, user), content.get("challenge"))

    async def _pool_join(self, content: dict[str, Any]) -> None:
        self.pool_wait = await self._join_pool(content.get("time_control"), content.get("rules", inputs.ACE),
                                               content.get("players", 2))

    async def _pool_leave(self, content: dict[str, Any]) -> None:
        await self._do(matchmaking.leave)

    async def _ping(self, content: dict[str, Any]) -> None:
        await self.send_json({"type": "pong"})

    async def _notify_sync(self, content: dict[str, Any]) -> None:
        """A page whose socket came back after a break asks for the bell and
        "your turn" it may have missed (notify.live)."""
        await self.send_bell()
        await self.send_turns()

    # --- From the groups --------------------------------------------------

    async def lobby_changed(self, event: dict[str, Any]) -> None:
        await self._send_seeks()

    async def challenge_changed(self, event: dict[str, Any]) -> None:
        challenge = await self._challenge_for(int(event["challenge"]))
        if challenge is not None:
            await self.send_json({"type": "challenge", "challenge": challenge})

    async def pool_changed(self, event: dict[str, Any]) -> None:
        await self._send_pool(await self._pool())

    async def game_started(self, event: dict[str, Any]) -> None:
        game_id = int(event["game"])
        await self.send_json({"type": "game_started", "game": game_id, "url": lobby_json.game_url(game_id)})
        await self.send_turns()  # a new game may be waiting for this player's move

    async def tournament_round(self, event: dict[str, Any]) -> None:
        """A round of a tournament this user plays has started: the page needs
        nothing (a game start follows for everyone with a board)."""

    async def game_finished(self, event: dict[str, Any]) -> None:
        """A game of this user's has ended: its own page says so; the message is
        for the API's event stream (api/streams.py)."""

    # --- Helpers ----------------------------------------------------------

    async def _send_seeks(self) -> None:
        await self.send_json({"type": "seeks", "seeks": await self._seeks()})

    async def _error(self, message: str) -> None:
        await self.send_json({"type": "error", "message": message})

    async def _send_pool(self, pool: matchmaking.PoolJSON | None) -> None:
        """The user's wait (or null), and a timer to push the window when it next widens."""
        self._stop_widening()
        await self.send_json({"type": "pool", "pool": pool})
        if pool is not None and pool["widens_in_ms"] is not None:
            self.widening = asyncio.ensure_future(self._widen_after(pool["widens_in_ms"] / 1000))

    async def _widen_after(self, seconds: float) -> None:
        await asyncio.sleep(seconds)
        self.widening = None  # this task is done: _send_pool must not cancel it
        await self._send_pool(await self._pool())

    def _stop_widening(self) -> None:
        if self.widening is not None:
            self.widening.cancel()
            self.widening = None


    # --- Database work ----------------------------------------------------

    def _speaking(self) -> translation.override:
        """This socket's language on the database thread, which neither the
        handlers' override nor a group event's reaches: what is worded there
        (refusals, the seeks' and challenges' time-control labels) is this person's."""
        return translation.override(self.language or translation.get_language())

    @database_sync_to_async
    def _do(self, change: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
        # A refusal is worded where it is raised, on this thread: in the socket's language
        # (games.sockets picks it on connecting), whether or not the loop's override reaches here.
        with translation.override(self.language or translation.get_language()):
            inputs.refuse_api_bot_on_site(self.scope.get("user"))
            change(self.scope.get("user"), *args, **kwargs)

    @database_sync_to_async
    def _pool(self) -> matchmaking.PoolJSON | None:
        with self._speaking():
            return matchmaking.pool_json(matchmaking.waiting_entry(self.scope.get("user")))

    @database_sync_to_async
    def _join_pool(self, time_control: Any, rules: Any, players: Any) -> int:
        with translation.override(self.language or translation.get_language()):
            inputs.refuse_api_bot_on_site(self.scope.get("user"))
            entry: PoolEntry = matchmaking.join(self.scope.get("user"), time_control, rules=rules, players=players)
        return entry.pk

    @database_sync_to_async
    def _leave_pool(self, entry_id: int) -> bool:
        return matchmaking.leave(self.scope.get("user"), entry_id, tell=False) is not None

    @database_sync_to_async
    def _seeks(self) -> list[lobby_json.SeekJSON]:
        with self._speaking():  # the time controls' labels ("3 days per move") are worded here
            return seeks.open_seeks(self.scope.get("user"))

    @database_sync_to_async
    def _challenges(self) -> list[lobby_json.ChallengeJSON]:
        with self._speaking():
            return challenges.pending_challenges(self.scope.get("user"))

    @database_sync_to_async
    def _challenge_for(self, challenge_id: int) -> lobby_json.ChallengeJSON | None:
        with self._speaking():
            return challenges.challenge_for(challenge_id, self.scope.get("user"))
