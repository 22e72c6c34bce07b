"""What the bracket and a tournament game's page say (issue 22, finding 18):
a match won by walkover is marked as one, and the picture scales to its box."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from xml.etree import ElementTree

import pytest
from django.test import Client
from django.utils import timezone

from tournaments import advancing, entering
from tournaments.models import Pairing, Tournament
from tests.tournaments.conftest import play_round

pytestmark = pytest.mark.django_db

Make = Callable[..., Tournament]
SVG = "{http://www.w3.org/2000/svg}"


def bracket_of_page(t: Tournament) -> ElementTree.Element:
    page = Client().get(f"/tournaments/{t.pk}/").content.decode()
    return ElementTree.fromstring(page[page.index("<svg"):page.index("</svg>") + 6])


def test_a_match_won_by_walkover_is_marked_on_the_bracket(tournament: Make, players: Any) -> None:
    t = tournament(starts_at=timezone.now(), format=Tournament.Format.SINGLE)
    users = players(4)
    for user in users:
        entering.join(t.pk, user)
    advancing.advance(t.pk)
    t.refresh_from_db()
    play_round(t, lambda p: "red" if p.red.number < p.black.number else "black")  # seeds 1 and 2 go through
    entering.withdraw(t.pk, users[1])  # seed 2 leaves before the final
    advancing.advance(t.pk)
    final = Pairing.objects.get(round__tournament=t, match="W2-1")
    assert (final.result, final.game_id) == ("+-", None)
    svg = bracket_of_page(t)
    groups = {g.get("data-match"): g for g in svg.iter(f"{SVG}g") if g.get("data-match")}
    assert "walkover" in groups["W2-1"].get("class", "").split()
    assert "w/o" in "".join(groups["W2-1"].itertext())
    assert "walkover" not in groups["W1-1"].get("class", "").split()


def test_the_bracket_scales_to_its_box_down_to_a_readable_width(tournament: Make, players: Any) -> None:
    t = tournament(starts_at=timezone.now(), format=Tournament.Format.DOUBLE)
    for user in players(8):
        entering.join(t.pk, user)
    advancing.advance(t.pk)
    svg = bracket_of_page(t)
    width = float(svg.get("viewBox", "").split()[2])
    assert f"max-width: {width:g}px" in svg.get("style", "")
