"""The game socket's ``options`` message (issue 24; docs/protocol.md, games/steps.py):
the Rhombus mover builds an action use by use; anyone else is refused, told
nothing about any hand (RH29, RH36), and a refusal changes nothing."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.contrib.sessions.models import Session

from games import starting
from games.models import Game, Move
from preferences.languages import save_language
from tests.conftest import make_user
from tests.games.conftest import Socket, session_cookie
from tests.games.test_signing_out import closed_for_signing_out
from tests.rhombus_steps import build_over, legal_texts, use_cards

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]

CARD = re.compile(r"(?<![0-9A-Za-z])(?:10|[6-9AJQK])[HDSC](?![0-9A-Za-z])")
SEED = "rhombus-options"


def start(*users: Any, variant: str = "classic") -> Game:
    return starting.start_game(*users, seed=SEED, setup=starting.Setup("rhombus", variant))


def stored(game_id: int) -> tuple[Any, ...]:
    """What a refused request must leave as it was."""
    game = Game.objects.get(pk=game_id)
    return game.ply, game.position, game.clocks, list(Move.objects.filter(game_id=game_id).values_list("action"))


def hands(game_id: int) -> dict[str, list[str]]:
    position = Game.objects.get(pk=game_id).position
    return {seat: info["table"] + info["hand"] for seat, info in position["seats"].items()}


def legal_now(game_id: int) -> list[str]:
    return legal_texts(Game.objects.get(pk=game_id))


async def seated_sockets(game: Game, users: list[Any], sockets: Any) -> dict[str | None, tuple[Any, dict[str, Any]]]:
    opened: dict[str | None, tuple[Any, dict[str, Any]]] = {}
    for seat, user in zip(game.seat_names, users):
        opened[seat] = await sockets(game.pk, await database_sync_to_async(session_cookie)(user))
    opened[None] = await sockets(game.pk, None)
    return opened


async def test_the_mover_builds_an_action_use_by_use_and_the_record_keeps_its_canonical_text(
        alice: Any, bob: Any, sockets: Any) -> None:
    game = await database_sync_to_async(start)(alice, bob)
    opened = await seated_sockets(game, [alice, bob], sockets)
    rng = random.Random(24)
    for ply in range(6):
        for seat in opened:
            opened[seat] = (opened[seat][0], await opened[seat][0].request({"type": "sync"}))
        mover = opened[None][1]["to_move"]
        sock, view = opened[mover]
        assert "legal" not in view and view["sets"]  # the card sets, not the list (issue 24)
        assert all("legal" not in v and v["sets"] == [] for seat, (_, v) in opened.items() if seat != mover)
        own = await database_sync_to_async(hands)(game.pk)
        legal = await database_sync_to_async(legal_now)(game.pk)
        assert {tuple(sorted(cards)) for cards in view["sets"]} == {tuple(sorted(use_cards_of(text))) for text in legal}
        assert len(view["sets"]) == len({tuple(cards) for cards in view["sets"]})  # each set once
        answers: list[dict[str, Any]] = []
        text = await build_over(sock, view, rng, answers)
        for answer in answers:  # its own cards only (RH29)
            assert answer["ply"] == ply and set(CARD.findall(json.dumps(answer))) <= set(own[mover]), answer
        await sock.send({"type": "act", "ply": ply, "action": text})
        for seat, (other, _) in opened.items():
            update = await other.receive()
            assert update["type"] == "update" and update["ply"] == ply + 1, update
        recorded = await database_sync_to_async(
            lambda: Move.objects.get(game_id=game.pk, ply=ply).action)()
        assert recorded in legal  # the canonical text (N1), whichever text was built


def use_cards_of(text: str) -> list[str]:
    """Every card an action takes (Notation), for comparing with ``sets``."""
    words = text.split(" ")
    if words[0] == "discard":
        return text[len("discard "):].split(", ")
    if words[0] in ("react", "elim"):
        return words[1:4]
    if words[0] == "entry":
        return words[1:5]
    return [card for use in text.split(", ") for card in use_cards(use)]


@pytest.mark.parametrize("who", ["opponent", "spectator", "stranger"])
async def test_anyone_but_the_mover_is_refused_and_told_nothing(
        alice: Any, bob: Any, charlie: Any, sockets: Any, who: str) -> None:
    game = await database_sync_to_async(start)(alice, bob)
    opened = await seated_sockets(game, [alice, bob], sockets)
    mover_view = opened["SW"][1]
    cards = mover_view["sets"][-1]
    if who == "stranger":  # signed in, no seat: a spectator's socket
        sock, view = await sockets(game.pk, await database_sync_to_async(session_cookie)(charlie))
    else:
        sock, view = opened["NE" if who == "opponent" else None]
    before = await database_sync_to_async(stored)(game.pk)
    answer = await sock.request({"type": "options", "ply": 0, "cards": cards, "done": []})
    expected = "it is SW's turn (RH10)" if who == "opponent" else "you are not playing in this game"
    if who == "spectator":
        expected = "log in to play"
    assert answer == {"type": "error", "ply": 0, "message": expected}
    assert await database_sync_to_async(stored)(game.pk) == before
    assert await sock.silent()


async def test_a_partner_is_refused_the_movers_options(
        alice: Any, bob: Any, charlie: Any, django_user_model: Any, sockets: Any) -> None:
    """RH36: not even a partner hears what the mover's cards can do."""
    dave = await database_sync_to_async(make_user)(django_user_model, "dave")
    game = await database_sync_to_async(start)(alice, bob, charlie, dave)
    opened = await seated_sockets(game, [alice, bob, charlie, dave], sockets)
    assert opened["SW"][1]["to_move"] == "SW"
    for seat in ("NE", "SE", "NW"):  # the partner, then the opponents
        answer = await opened[seat][0].request(
            {"type": "options", "ply": 0, "cards": opened["SW"][1]["sets"][0], "done": []})
        assert answer == {"type": "error", "ply": 0, "message": "it is SW's turn (RH10)"}


async def test_a_stale_ply_a_bad_frame_and_a_watching_socket_are_refused(
        alice: Any, bob: Any, sockets: Any) -> None:
    game = await database_sync_to_async(start)(alice, bob)
    opened = await seated_sockets(game, [alice, bob], sockets)
    sock, view = opened["SW"]
    cards = view["sets"][0]
    before = await database_sync_to_async(stored)(game.pk)
    refusals = {
        "stale ply 3: the game is at ply 0; resync and try again": {"ply": 3, "cards": cards, "done": []},
        '"ply" must be an integer: the ply of the state you are acting on': {"ply": "0", "cards": cards},
        '"cards" must be a list of one to four card names, e.g. ["QH", "7H"] (RH10)': {"ply": 0, "cards": "QH"},
        '"done" must be a list of the uses made so far, at most four, e.g. ["QH+7H c2xc5"]':
            {"ply": 0, "cards": cards, "done": "KC b1-b3"},
    }
    for message, frame in refusals.items():
        assert await sock.request({"type": "options", **frame}) == {"type": "error", "ply": 0, "message": message}
    unreadable = await sock.request({"type": "options", "ply": 0, "cards": cards, "done": ["KC b1-z9"]})
    assert unreadable["type"] == "error" and "KC b1-z9" in unreadable["message"]
    # Cards that are not the mover's: nothing fits, and the answer names only what was asked.
    other = await sock.request({"type": "options", "ply": 0, "cards": ["AS"], "done": []})
    assert (other["type"], other["uses"], other["actions"]) == ("options", [], [])
    watching = Socket(game.pk, await database_sync_to_async(session_cookie)(alice), query="?watch=1")
    try:
        await watching.open()
        answer = await watching.request({"type": "options", "ply": 0, "cards": cards, "done": []})
        assert answer == {"type": "error", "ply": 0, "message": "unknown message type: use sync, ping"}
    finally:
        await watching.close()
    assert await database_sync_to_async(stored)(game.pk) == before


async def test_a_refusal_is_worded_in_the_sockets_language(alice: Any, bob: Any, sockets: Any) -> None:
    await database_sync_to_async(save_language)(bob, "de")
    game = await database_sync_to_async(start)(alice, bob)
    opened = await seated_sockets(game, [alice, bob], sockets)
    answer = await opened["NE"][0].request({"type": "options", "ply": 0, "cards": ["KC"], "done": []})
    assert answer == {"type": "error", "ply": 0, "message": "SW ist am Zug (RH10)"}


async def test_ace_in_the_hole_keeps_its_list_and_builds_nothing(alice: Any, bob: Any, sockets: Any) -> None:
    game = await database_sync_to_async(starting.start_game)(alice, bob, seed=SEED)
    sock, view = await sockets(game.pk, await database_sync_to_async(session_cookie)(alice))
    assert view["legal"] and "sets" not in view
    answer = await sock.request({"type": "options", "ply": 0, "cards": [view["hand"][0]], "done": []})
    assert answer["type"] == "error" and "only Rhombus actions are built use by use" in answer["message"]


async def test_a_socket_whose_session_ended_is_signed_out_not_answered(alice: Any, bob: Any) -> None:
    """The session is checked with the game's load (checked_in_work): a login
    ended quietly gets no options, the socket is told and closed (issue 10)."""
    game = await database_sync_to_async(start)(alice, bob)
    cookie = await database_sync_to_async(session_cookie)(alice)
    sock = Socket(game.pk, cookie)
    try:
        view = await sock.open()
        await database_sync_to_async(Session.objects.filter(session_key=cookie).delete)()
        await sock.send({"type": "options", "ply": 0, "cards": view["sets"][0], "done": []})
        await closed_for_signing_out(sock.comm)
        sock.closed = True
    finally:
        await sock.close()
