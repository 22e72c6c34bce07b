"""R18 over the wire: no socket ever carries a card its recipient may not see.

Random games are played over real sockets with Red, Black and a spectator
connected; every message is checked against the full position in the database
at that message's ply.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

import engine
from games import broadcast, payloads, starting
from games.models import Game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]

GAMES = 12  # about 600 turns and 2,000 messages; 30 games take ~40 s
# A card token anywhere in text: 10H, 7S, AH, QC... (pawn names look the same).
CARD = re.compile(r"(?<![0-9A-Za-z])(?:10|[2-9AJQK])[HDSC](?![0-9A-Za-z])")
PUBLIC_CARD_FIELDS = ("board", "captured", "discards", "hand", "legal")

Position = dict[str, Any]
ALL_CARDS = frozenset(f"{rank}{suit}" for rank in "A 2 3 4 5 6 7 8 9 10 J Q K".split() for suit in "HDSC")


def hidden_from(position: Position, seat: str | None) -> set[str]:
    """The cards SEAT may not see: both decks, and every hand but its own (R18)."""
    hidden = {card for deck in position["decks"].values() for card in deck}
    for owner, hand in position["hands"].items():
        if owner != seat:
            hidden |= set(hand)
    return hidden


def check_message(message: dict[str, Any], seat: str | None, positions: dict[int, Position],
                  sent: frozenset[str] | set[str] = frozenset()) -> None:
    """Structured fields hold only what SEAT may see, and no card hides anywhere else."""
    if message["type"] in ("error", "pong", "beat"):
        own = set(positions[message["ply"]]["hands"][seat]) if seat else set()
        assert set(CARD.findall(json.dumps(message))) <= own | sent, message
        return
    position = positions[message["ply"]]
    hidden = hidden_from(position, seat)
    if seat is None:
        assert message["hand"] is None and message["legal"] == []
    else:
        assert message["hand"] == position["hands"][seat]
        assert {action.split()[0] for action in message["legal"]} <= set(message["hand"])
        assert not message["legal"] or message["to_move"] == seat
    played = {action.split()[0] for pile in message["discards"].values() for action in pile}
    assert not played & hidden
    rest = {key: value for key, value in message.items() if key not in PUBLIC_CARD_FIELDS}
    assert CARD.findall(json.dumps(rest)) == [], rest


async def full_position(game_id: int) -> Position:
    game = await database_sync_to_async(Game.objects.get)(pk=game_id)
    return dict(game.position)


async def play_one(alice: Any, bob: Any, cookies: dict[str, str], sockets: Any, rng: random.Random) -> int:
    game = await database_sync_to_async(starting.start_game)(alice, bob)
    positions = {0: await full_position(game.pk)}
    seats: dict[str | None, Any] = {}
    latest: dict[str | None, dict[str, Any]] = {}
    for seat, cookie in (("red", cookies["alice"]), ("black", cookies["bob"]), (None, None)):
        seats[seat], latest[seat] = await sockets(game.pk, cookie)
        check_message(latest[seat], seat, positions)
    messages = 3
    while latest[None]["outcome"] is None and latest[None]["game"]["status"] == "running":
        mover = latest[None]["to_move"]
        ply = latest[None]["ply"]
        if rng.random() < 0.15:  # probing with a card not in hand must not leak either
            probe = rng.choice(sorted(ALL_CARDS - set(latest[mover]["hand"])))
            error = await seats[mover].request({"type": "act", "ply": ply, "action": f"{probe} burn"})
            assert error["type"] == "error"
            check_message(error, mover, positions, sent={probe})
            messages += 1
        if rng.random() < 0.01:
            await seats[mover].send({"type": "resign"})
        else:
            action = rng.choice(latest[mover]["legal"])
            await seats[mover].send({"type": "act", "ply": ply, "action": action})
        latest = {seat: await sock.receive() for seat, sock in seats.items()}
        after = await full_position(game.pk)  # committed: every socket has been told
        positions[after["ply"]] = after
        for seat, message in latest.items():
            check_message(message, seat, positions)
        messages += len(latest)
    for sock in seats.values():
        await sock.close()
    return messages


async def test_random_games_over_sockets_never_show_a_hidden_card(
        alice: Any, bob: Any, cookies: dict[str, str], sockets: Any) -> None:
    rng = random.Random(2026)
    messages = [await play_one(alice, bob, cookies, sockets, rng) for _ in range(GAMES)]
    assert sum(messages) > GAMES * 30  # the games were really played, message by message


def swap_hand_and_deck(position: Position, seat: str, rng: random.Random) -> Position:
    """The same public position with SEAT's hand and deck cards dealt differently."""
    cards = position["hands"][seat] + position["decks"][seat]
    rng.shuffle(cards)
    size = len(position["hands"][seat])
    changed = json.loads(json.dumps(position))
    changed["hands"][seat], changed["decks"][seat] = sorted(cards[:size]), cards[size:]
    engine.from_json(changed)  # still a readable, consistent position
    return changed


async def test_positions_differing_only_in_hidden_cards_look_the_same_to_the_others(
        game: Game, cookies: dict[str, str], sockets: Any) -> None:
    rng = random.Random(5)
    seats = {seat: (await sockets(game.pk, cookie))[0]
             for seat, cookie in (("red", cookies["alice"]), ("black", cookies["bob"]), (None, None))}
    state: dict[str | None, dict[str, Any]] = {}
    for ply in range(4):  # a few real moves first, so there are discards and captures to show
        mover = "red" if ply % 2 == 0 else "black"
        view = await database_sync_to_async(_view_of)(game.pk, mover)
        await seats[mover].send({"type": "act", "ply": ply, "action": rng.choice(view["legal"])})
        state = {seat: await sock.receive() for seat, sock in seats.items()}

    async def redeal(seat: str) -> dict[str | None, dict[str, Any]]:
        position = swap_hand_and_deck(await full_position(game.pk), seat, rng)
        await database_sync_to_async(Game.objects.filter(pk=game.pk).update)(position=position)
        await get_channel_layer().group_send(broadcast.group_name(game.pk), {"type": "game.changed", "ply": 4})
        return {s: await sock.receive() for s, sock in seats.items()}

    before = state
    after_red = await redeal("red")
    assert after_red["black"] == before["black"] and after_red[None] == before[None]
    after_black = await redeal("black")
    assert after_black["red"] == after_red["red"] and after_black[None] == before[None]
    changed_hands = (after_red["red"]["hand"] != before["red"]["hand"],
                     after_black["black"]["hand"] != before["black"]["hand"])
    assert any(changed_hands)  # the redeal really changed some hidden card


def _view_of(game_id: int, seat: str) -> dict[str, Any]:
    game = Game.objects.get(pk=game_id)
    return dict(payloads.view_for(game, game.seat(seat).user))
