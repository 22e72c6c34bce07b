"""RH29/RH36 over the wire: in Rhombus, no socket carries a hand card of
another seat (a partner's included) nor the pile, at any ply (issue 13).

Random 2- and 4-player games, classic and Formation, are played over real
sockets with every seat and a spectator connected, each action built use by
use from the server's options answers (issue 24); every frame is checked
against the full position in the database at that frame's ply. Each game
team game starts with a round of chat (issue 25): its players cannot name a
card, and no chat frame carries one.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from channels.db import database_sync_to_async

from games import starting
from games.models import Game
from tests.conftest import make_user
from tests.games.conftest import session_cookie
from tests.rhombus_steps import build_over

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]

# Rhombus's cards (RH5): 6-10, J, Q, K, A of four suits; squares (a1) and seats (SW) never match.
CARD = re.compile(r"(?<![0-9A-Za-z])(?:10|[6-9AJQK])[HDSC](?![0-9A-Za-z])")
PLIES = 40  # a game is resigned after this many actions: ~2,000 frames in all
GAMES = [(2, "classic"), (2, "formation"), (4, "classic"), (4, "formation"), (2, "classic"), (4, "classic")]

Position = dict[str, Any]


def visible_to(position: Position, seat: str | None) -> set[str]:
    """Every card ``seat`` may see (RH29): all table cards, the discard pile,
    every card named in the actions played (a Mystery's taken card included),
    and its own hand; never another hand, nor the pile."""
    seats = position["seats"]
    cards = {card for s in seats.values() for card in s["table"]} | set(position["discard"]) | position["played"]
    return cards | (set(seats[seat]["hand"]) if seat else set())


PROBE = "AH a1-a2, KS b1-b2"  # typed by the player: its cards come back in the refusal


def check_frame(frame: dict[str, Any], seat: str | None, positions: dict[int, Position],
                sent: frozenset[str] = frozenset()) -> int:
    """The frame shows ``seat``'s own hand and no other; every card in it is
    one ``seat`` may see, or sent itself. The number of cards checked."""
    position = positions[frame["ply"]]
    assert "pile" not in json.dumps(frame).replace("pile_count", ""), frame
    if frame["type"] not in ("error", "pong", "beat", "options"):
        for name, shown in frame["seats"].items():
            assert ("hand" in shown) == (name == seat), (name, seat, shown)
            if name == seat:
                assert shown["hand"] == position["seats"][seat]["hand"]
            else:
                assert shown["hand_count"] == len(position["seats"][name]["hand"])
        # The card sets that have an action (issue 24), the mover's only; never the legal list.
        assert frame["seat"] == seat and "legal" not in frame and (not frame["sets"] or frame["to_move"] == seat)
    cards = CARD.findall(json.dumps(frame))
    assert set(cards) <= visible_to(position, seat) | sent, (seat, set(cards) - visible_to(position, seat))
    return len(cards)


def position_of(game_id: int) -> Position:
    """The stored position, and the cards named in the actions played so far (public)."""
    game = Game.objects.get(pk=game_id)
    played = {card for action in game.moves.values_list("action", flat=True) for card in CARD.findall(action)}
    return {**game.position, "played": played}


async def full_position(game_id: int) -> Position:
    return await database_sync_to_async(position_of)(game_id)


async def play_one(users: list[Any], cookies: list[str], variant: str, sockets: Any, rng: random.Random) -> int:
    """One random game, resigned after PLIES actions; the number of frames checked."""
    game = await database_sync_to_async(starting.start_game)(*users, setup=starting.Setup("rhombus", variant))
    positions = {0: await full_position(game.pk)}
    socks: dict[str | None, Any] = {}
    latest: dict[str | None, dict[str, Any]] = {}
    for seat, cookie in [*zip(game.seat_names, cookies), (None, None)]:
        socks[seat], latest[seat] = await sockets(game.pk, cookie)
    # Team games only: a player's sixth line in 10 s would be refused as flood (chat.lines).
    frames = await chat_round(socks, positions[0]) if len(users) == 4 else 0
    while latest[None]["game"]["status"] == "running":
        mover, ply = latest[None]["to_move"], latest[None]["ply"]
        if rng.random() < 0.1:  # a refusal names the rule and must not leak either
            error = await socks[mover].request({"type": "act", "ply": ply, "action": PROBE})
            assert error["type"] == "error" and re.search(r"\((RH|N)\d+\)", error["message"]), error
            check_frame(error, mover, positions, sent=frozenset(CARD.findall(PROBE)))
        if ply >= PLIES:
            await socks[rng.choice(game.seat_names)].send({"type": "resign"})
        else:
            assert latest[mover]["sets"], (latest[mover], latest[None])
            answers: list[dict[str, Any]] = []  # the mover's options: its own cards only
            action = await build_over(socks[mover], latest[mover], rng, answers)
            for answer in answers:
                check_frame(answer, mover, positions)
            frames += len(answers)
            await socks[mover].send({"type": "act", "ply": ply, "action": action})
        latest = {seat: await sock.receive() for seat, sock in socks.items()}
        after = await full_position(game.pk)  # committed before anyone was told
        positions[after["ply"]] = after
        for seat, frame in latest.items():
            check_frame(frame, seat, positions)
        frames += len(latest)
    for sock in socks.values():  # the next game's arrivals are then announced, and drained, afresh
        await sock.close()
    return frames


async def lines_heard(sock: Any, expected: int) -> list[dict[str, Any]]:
    """What the socket got until it has ``expected`` messages (at most 5 s):
    drained rather than awaited one by one, as a test communicator's timed-out
    receive would end the consumer."""
    heard: list[dict[str, Any]] = []
    for _ in range(25):
        heard += await sock.drain()
        if len(heard) >= expected:
            break
    return heard


async def chat_round(socks: dict[str | None, Any], position: Position) -> int:
    """Chat over the same sockets of a team game (issue 25): a player who tries
    to name a card of their hand is refused, to themselves only (RH36); every
    player's preset reaches the players and carries no card; the spectator's
    socket gets no line of the players' room. The number of frames checked."""
    seated = [seat for seat in socks if seat is not None]
    frames = 0
    for seat in seated:
        card = position["seats"][seat]["hand"][0]
        refused = await socks[seat].request({"type": "chat", "room": "player", "text": f"partner, I hold {card}"})
        assert (refused["type"], refused["code"]) == ("chatRefused", "presets-only"), refused
        assert not CARD.findall(json.dumps(refused))
        frames += 1
    for seat in seated:
        await socks[seat].send({"type": "chat", "room": "player", "preset": "goodluck"})
    for seat in seated:
        heard = await lines_heard(socks[seat], len(seated))
        assert [(m["type"], m["room"], m["line"]["preset"]) for m in heard] == [
            ("chatLine", "player", "goodluck")] * len(seated), heard
        assert not CARD.findall(json.dumps(heard)), heard
        frames += len(heard)
    assert await socks[None].drain() == []  # the players' room is the players' only
    return frames


async def test_random_rhombus_games_show_each_seat_only_its_own_hand(
        alice: Any, bob: Any, charlie: Any, django_user_model: Any, sockets: Any) -> None:
    dave = await database_sync_to_async(make_user)(django_user_model, "dave")
    users = [alice, bob, charlie, dave]
    cookies = [await database_sync_to_async(session_cookie)(user) for user in users]
    rng = random.Random(13)
    frames = [await play_one(users[:players], cookies[:players], variant, sockets, rng)
              for players, variant in GAMES]
    assert sum(frames) > len(GAMES) * PLIES * 3  # really played, frame by frame
