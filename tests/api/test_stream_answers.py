"""An API move's answer sent on the mover's own game stream (api/answers.py):
over real daphne, PostgreSQL and Redis, every stream line of a move, the mover's
(built from the POST's answer) and the opponent's (loaded), is the view that
seat gets when it asks for it, with a Rhombus stream's actions continuing
exactly where its last line stopped; and the hand-over itself, unit by unit:
only the move it answered, in the stream's language."""

from __future__ import annotations

from typing import Any

import pytest
import requests

from games import payloads, starting
from games.models import Game
from api import answers, tokens
from tests.api.streams import StreamReader
from tests.games.conftest import services  # noqa: F401
from tests.rhombus_steps import legal_texts

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]

MOVES = 12


def _seat_view(server: str, game_id: int, token: str) -> dict[str, Any]:
    response = requests.get(f"{server}/api/games/{game_id}/seat", headers={"Authorization": f"Bearer {token}"},
                            timeout=10)
    assert response.status_code == 200
    return dict(response.json())


@pytest.mark.parametrize("setup", [starting.Setup(), starting.Setup("rhombus", "classic")], ids=["ace", "rhombus"])
def test_each_seats_stream_line_of_a_move_is_the_view_it_would_load(
        daphne_server: str, alice: Any, bob: Any, setup: starting.Setup) -> None:
    game = starting.start_game(alice, bob, setup=setup)
    users = dict(zip(game.seat_names, [alice, bob]))
    keys = {seat: tokens.make(user, "answers", ["play"])[1] for seat, user in users.items()}
    streams = {seat: StreamReader(f"{daphne_server}/api/stream/game/{game.pk}", key).wait_listening()
               for seat, key in keys.items()}
    try:
        shown = {seat: reader.until(lambda line: line["type"] == "sync") for seat, reader in streams.items()}
        actions = {seat: list(line.get("actions", [])) for seat, line in shown.items()}
        for ply in range(MOVES):
            mover = next(seat for seat, line in shown.items() if line.get("legal") or line.get("sets"))
            before = shown[mover]["ply"]
            posted = requests.post(f"{daphne_server}/api/games/{game.pk}/actions",
                                   json={"ply": ply, "action": legal_texts(Game.objects.get(pk=game.pk))[0]},
                                   headers={"Authorization": f"Bearer {keys[mover]}"}, timeout=10)
            assert posted.status_code == 200, posted.text
            for seat, reader in streams.items():
                line = reader.until(lambda line: line["ply"] == ply + 1)
                asked = _seat_view(daphne_server, game.pk, keys[seat])
                assert line["type"] == "update" and line["seat"] == seat
                if "actions" in asked:  # Rhombus: this line's actions continue the stream's exactly
                    assert line["actions_from"] == len(actions[seat]) == shown[seat]["ply"]
                    actions[seat] += line["actions"]
                    assert actions[seat] == asked["actions"]
                assert _but_actions(line) == _but_actions(asked)
                shown[seat] = line
            # The mover's line is the POST's answer, cut to what its stream had not been sent.
            assert {**shown[mover], "type": None} == {**payloads.view_since(posted.json(), before), "type": None}
    finally:
        for reader in streams.values():
            reader.close()


def _but_actions(view: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in view.items() if key not in ("type", "actions", "actions_from")}


class Stream:
    """A listener as api.streams' seat watcher is one: its ``answered`` slot."""

    answered: answers.Answer | None = None


def _payload(ply: int) -> payloads.PayloadJSON:
    return {"ply": ply, "legal": [], "game": {"status": "running"}}


def test_an_answer_reaches_only_the_open_streams_of_that_user_and_game() -> None:
    mine, other_user, other_game = Stream(), Stream(), Stream()
    answers.listen(1, 10, mine)
    answers.listen(1, 11, other_user)
    answers.listen(2, 10, other_game)
    try:
        answers.answered(1, 10, "en", _payload(5))
        assert mine.answered == answers.Answer("en", _payload(5))
        assert other_user.answered is None and other_game.answered is None
    finally:
        answers.stop(1, 10, mine)
        answers.stop(1, 11, other_user)
        answers.stop(2, 10, other_game)
    answers.answered(1, 10, "en", _payload(6))  # no stream listens any more
    assert mine.answered == answers.Answer("en", _payload(5))
    assert answers._open == {}


def test_a_stream_takes_an_answer_only_for_the_move_it_answered_and_in_its_language() -> None:
    stream = Stream()
    stream.answered = answers.Answer("en", _payload(5))
    assert answers.answer_to(stream, {"type": "game.changed", "ply": 5}, "en") is None  # not a move: a resign, a presence
    assert answers.answer_to(stream, {"type": "game.changed", "ply": 4, "moved": True}, "en") is None  # an earlier move
    assert stream.answered is not None  # kept for its own move
    assert answers.answer_to(stream, {"type": "game.changed", "ply": 5, "moved": True}, "en") == _payload(5)
    assert stream.answered is None  # used once
    stream.answered = answers.Answer("de", _payload(6))
    assert answers.answer_to(stream, {"type": "game.changed", "ply": 6, "moved": True}, "en") is None  # loads instead


def test_a_rhombus_view_since_a_ply_is_the_whole_view_cut_there() -> None:
    whole = {"ply": 3, "actions": [{"seat": "SW", "action": "a"}, {"seat": "NE", "action": "b"},
                                   {"seat": "SW", "action": "c"}], "actions_from": 0}
    assert payloads.view_since(whole, 2) == {"ply": 3, "actions": [{"seat": "SW", "action": "c"}], "actions_from": 2}
    assert payloads.view_since(whole, 3) == {"ply": 3, "actions": [], "actions_from": 3}
    assert payloads.view_since(whole, None) is whole
    assert payloads.view_since({"ply": 3, "discards": {}}, 1) == {"ply": 3, "discards": {}}  # Ace: nothing to cut
