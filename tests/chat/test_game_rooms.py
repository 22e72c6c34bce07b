"""A game's two rooms (games.chat, issue 25): players talk in theirs during and
after the game; spectators in theirs, which the players neither read nor write
until the end; a running team game's players say only presets (RH36)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser

from chat.lines import Refused
from chat.models import Line
from games import broadcast, chat, finishing, starting
from games.starting import Setup

pytestmark = pytest.mark.django_db
SEED = "chat-rooms"


def refused(game_id: int, user: Any, room: str, **line: str) -> str:
    before = Line.objects.count()
    with broadcast.held_notifications() as sent, pytest.raises(Refused) as refusal:
        chat.say(game_id, user, room, **line)
    assert Line.objects.count() == before and sent == []  # nothing stored, nobody told
    return str(refusal.value)


def test_players_talk_in_their_room_and_the_game_is_told(alice: Any, bob: Any, charlie: Any) -> None:
    game = starting.start_game(alice, bob, seed=SEED)
    with broadcast.held_notifications() as sent:
        shown = chat.say(game.pk, alice, chat.PLAYERS, text="good luck!")
    assert (shown["user"], shown["text"], shown["room"]) == ("alice", "good luck!", "player")
    assert sent == [(broadcast.group_name(game.pk),
                     {"type": "chat.line", "game": game.pk, "ply": 0, "room": "player", "line": shown})]
    assert chat.lines_for(game, bob) == {"player": [shown]}
    assert chat.lines_for(game, charlie) == {"spectator": []}  # a spectator sees no players' line
    assert "players' chat" in refused(game.pk, charlie, chat.PLAYERS, text="hi")


def test_spectators_talk_apart_until_the_game_is_over(alice: Any, bob: Any, charlie: Any, dave: Any) -> None:
    game = starting.start_game(alice, bob, seed=SEED)
    said = chat.say(game.pk, charlie, chat.SPECTATORS, text="red should push")
    assert chat.lines_for(game, dave) == {"spectator": [said]}
    assert chat.lines_for(game, AnonymousUser()) == {"spectator": [said]}
    assert "player" in chat.lines_for(game, alice) and "spectator" not in chat.lines_for(game, alice)
    assert "when the game is over" in refused(game.pk, alice, chat.SPECTATORS, text="thanks!")
    assert "Log in" in refused(game.pk, AnonymousUser(), chat.SPECTATORS, text="hi")
    over = finishing.resign(game.pk, bob)
    assert chat.lines_for(over, alice) == {"player": [], "spectator": [said]}
    assert chat.say(game.pk, alice, chat.SPECTATORS, text="thanks for watching")["user"] == "alice"


def test_a_running_team_game_takes_presets_only_then_free_text_after(
        alice: Any, bob: Any, charlie: Any, dave: Any) -> None:
    game = starting.start_game(alice, bob, charlie, dave, seed=SEED, setup=Setup("rhombus"))
    assert "RH36" in refused(game.pk, alice, chat.PLAYERS, text="I hold the jack of hearts")
    assert "RH36" in refused(game.pk, charlie, chat.PLAYERS, text="gl")
    assert chat.say(game.pk, alice, chat.PLAYERS, preset="goodluck")["preset"] == "goodluck"
    # Spectators of a team game talk freely among themselves (they see no hand).
    finishing.resign(game.pk, bob)
    assert chat.say(game.pk, charlie, chat.PLAYERS, text="well played, partner")["text"] == "well played, partner"


def test_a_two_player_rhombus_game_takes_free_text(alice: Any, bob: Any) -> None:
    game = starting.start_game(alice, bob, seed=SEED, setup=Setup("rhombus"))
    assert chat.say(game.pk, alice, chat.PLAYERS, text="have fun")["text"] == "have fun"


def test_an_unknown_game_or_room_is_refused(alice: Any, bob: Any) -> None:
    game = starting.start_game(alice, bob, seed=SEED)
    assert "no game" in refused(game.pk + 99, alice, chat.PLAYERS, text="hi")
    assert "player, spectator" in refused(game.pk, alice, "partner", text="hi")


def test_a_removed_line_carries_no_words(alice: Any, bob: Any) -> None:
    game = starting.start_game(alice, bob, seed=SEED)
    said = chat.say(game.pk, alice, chat.PLAYERS, text="something rude")
    Line.objects.filter(pk=said["id"]).update(removed=True)
    [shown] = chat.lines_for(game, bob)["player"]
    assert (shown["removed"], shown["text"]) == (True, "")


def test_links_need_ten_finished_games(alice: Any, bob: Any) -> None:
    game = starting.start_game(alice, bob, seed=SEED)
    assert "10 finished games" in refused(game.pk, alice, chat.PLAYERS, text="see example.com")
    for number in range(10):
        finishing.resign(starting.start_game(alice, bob, seed=f"{SEED}-{number}").pk, bob)
    assert chat.say(game.pk, alice, chat.PLAYERS, text="see example.com")["text"] == "see example.com"
