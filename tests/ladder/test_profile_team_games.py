"""A 4-player game in a profile's game list (issue 22, finding 21): it names the
partner as well as the two opponents, "with <partner> vs <a> & <b>"."""

from __future__ import annotations

import html as entities
import re
from typing import Any

import pytest
from django.test import Client

from games import starting
from games.records import games_of

pytestmark = pytest.mark.django_db


def test_a_team_game_row_names_the_partner_and_the_opponents(alice: Any, bob: Any, charlie: Any,
                                                               dave: Any) -> None:
    starting.start_game(alice, bob, charlie, dave, setup=starting.Setup("rhombus"))  # SW, SE, NE, NW
    row = games_of(alice)[0]
    assert row.partners == ("charlie",)  # NE, opposite SW (RH31)
    assert row.opponents == ("bob", "dave")


def test_the_profile_lists_a_team_game_with_the_partner(client: Client, alice: Any, bob: Any, charlie: Any,
                                                        dave: Any) -> None:
    starting.start_game(alice, bob, charlie, dave, setup=starting.Setup("rhombus"))
    html = client.get("/@/alice/").content.decode()
    cell = re.search(r'<td class="game-table__name">(.*?)</td>', html, re.S)
    assert cell is not None
    text = entities.unescape(re.sub(r"<[^>]+>", "", cell.group(1)))
    assert " ".join(text.split()) == "with charlie vs bob & dave"


def test_a_two_player_game_names_only_the_opponent(client: Client, alice: Any, bob: Any) -> None:
    starting.start_game(alice, bob)
    html = client.get("/@/alice/").content.decode()
    cell = re.search(r'<td class="game-table__name">(.*?)</td>', html, re.S)
    assert cell is not None
    assert " ".join(re.sub(r"<[^>]+>", "", cell.group(1)).split()) == "bob"
