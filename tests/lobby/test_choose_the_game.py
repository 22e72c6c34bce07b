"""Seeks, challenges and "Play the computer" choose the game: Ace in the
Hole, Rhombus or Rhombus Formation (issue 13), two players."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from games import botmoves, moving, refusals, starting
from games.models import Game
from games.timecontrols import TimeControl
from ladder import challenges, inputs, lobby_json, seeks
from ladder.models import Challenge, Seek
from tests.bots.conftest import bot_accounts  # noqa: F401 - a fixture
from tests.rhombus_steps import legal_texts

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("services")]


def test_a_rhombus_seek_starts_a_rhombus_game_seated_by_the_wish(alice: Any, bob: Any) -> None:
    seek = seeks.create_seek(alice, "5+3", colour="black", rules="rhombus")
    [shown] = seeks.open_seeks()
    assert shown["rules"] == {"key": "rhombus", "title": "Rhombus"}
    game = seeks.accept_seek(seek.pk, bob)
    assert (game.kind, game.variant, game.players) == ("rhombus", "classic", 2)
    assert {s.name: s.user for s in Game.objects.get(pk=game.pk).table} == {"SW": bob, "NE": alice}


def test_one_open_seek_per_game_and_control(alice: Any) -> None:
    seeks.create_seek(alice, "5+3")
    seeks.create_seek(alice, "5+3", rules="rhombus-formation")
    with pytest.raises(inputs.LobbyRefusal, match="open Rhombus Formation 5\\+3 seek"):
        seeks.create_seek(alice, "5+3", rules="rhombus-formation")
    assert [inputs.setup(s).key for s in Seek.objects.order_by("pk")] == ["ace-in-the-hole", "rhombus-formation"]


def test_an_unknown_game_is_refused_with_the_choices_and_nothing_is_stored(alice: Any, bob: Any) -> None:
    with pytest.raises(inputs.LobbyRefusal, match="'chess' is not a game here: choose one of ace-in-the-hole, "
                                                 "rhombus, rhombus-formation"):
        seeks.create_seek(alice, "5+3", rules="chess")
    with pytest.raises(inputs.LobbyRefusal, match="not a game here"):
        challenges.create_challenge(alice, "bob", "5+3", rules=["rhombus"])
    assert not Seek.objects.exists() and not Challenge.objects.exists()


def test_a_formation_challenge_starts_a_formation_game(alice: Any, bob: Any) -> None:
    challenge = challenges.create_challenge(alice, "bob", "10+5", colour="red", rules="rhombus-formation")
    assert lobby_json.challenge_json(challenge, bob)["rules"]["title"] == "Rhombus Formation"
    game = challenges.accept_challenge(challenge.pk, bob)
    assert (game.kind, game.variant, game.seat_of(alice)) == ("rhombus", "formation", "SW")


def test_the_create_form_posts_the_game(client: Client, alice: Any) -> None:
    client.force_login(alice)
    page = client.get("/lobby/").content.decode()
    assert 'name="rules" value="rhombus-formation"' in page and 'id="computer-rules"' in page
    client.post("/lobby/seek/", {"rules": "rhombus", "time_control": "3+2", "mode": "casual", "colour": "random"})
    assert (Seek.objects.get().kind, Seek.objects.get().rated) == ("rhombus", False)


def test_play_the_computer_at_rhombus_and_the_bot_answers(client: Client, alice: Any,
                                                          bot_accounts: dict[str, Any]) -> None:  # noqa: F811
    client.force_login(alice)
    response = client.post("/lobby/computer/", {"rules": "rhombus", "level": "greedy", "colour": "red",
                                                "time_control": "10+5"})
    game = Game.objects.get()
    assert response.url == f"/games/{game.pk}/" and (game.kind, game.seat_of(alice)) == ("rhombus", "SW")
    moving.submit(game.pk, alice, 0, legal_texts(game)[0])
    assert botmoves.play_move(game.pk, 1) == "played"
    assert Game.objects.get(pk=game.pk).ply == 2


def test_play_the_computer_refuses_an_unknown_game(alice: Any, bot_accounts: dict[str, Any]) -> None:  # noqa: F811
    with pytest.raises(refusals.Refusal, match="not a game here"):
        botmoves.play_computer(alice, "greedy", TimeControl.parse("10+5"), setup=starting.setup_of("go"))
    assert not Game.objects.exists()


@pytest.mark.parametrize(("query", "chosen"), [("?game=rhombus", "rhombus"), ("?game=rhombus-formation", "rhombus-formation"),
                                              ("?game=chess", "ace-in-the-hole"), ("", "ace-in-the-hole")])
def test_a_play_link_chooses_the_game_in_every_lobby_form(client: Any, alice: Any, query: str, chosen: str) -> None:
    """The home page's "Play Rhombus" lands on the lobby with Rhombus chosen: in
    the Create form, quick pairing and Play the computer."""
    client.force_login(alice)
    page = client.get(f"/lobby/{query}").content.decode()
    assert re.findall(r'name="rules" value="([\w-]+)" checked', page) == [chosen]
    assert re.findall(r'name="pool-rules" value="([\w-]+)" checked', page) == [chosen]
    assert re.findall(r'<option value="([\w-]+)" selected>', page).count(chosen) >= 1
