"""Muting from a profile (issue 25): the muted player's lines vanish for the muter
(tests/chat/test_lines.py) and their challenges are declined quietly; undone
from the same profile."""

from __future__ import annotations

from typing import Any

import pytest

from chat import lines
from ladder import challenges
from ladder.models import Challenge
from tests.helpers import client_for

pytestmark = pytest.mark.django_db


def test_a_profile_mutes_and_unmutes_its_player(alice: Any, bob: Any) -> None:
    client = client_for(alice)
    page = client.get("/@/bob/").content.decode()
    assert "Mute bob" in page and "Unmute bob" not in page
    answer = client.post("/chat/mute/bob/", {"next": "/@/bob/"}, follow=True)
    assert answer.redirect_chain[-1][0] == "/@/bob/"
    assert lines.mutes(alice, bob)
    assert "Unmute bob" in answer.content.decode() and "You mute bob" in answer.content.decode()
    client.post("/chat/mute/bob/", {"next": "/@/bob/", "mute": "off"})
    assert not lines.mutes(alice, bob)


def test_muting_needs_a_post_a_login_and_someone_else(alice: Any, bob: Any, client: Any) -> None:
    assert client.post("/chat/mute/bob/").status_code == 302  # to the login page
    assert not lines.mutes(alice, bob)
    assert client_for(alice).get("/chat/mute/bob/").status_code == 405
    client_for(alice).post("/chat/mute/alice/")
    assert not lines.mutes(alice, alice)
    # Only a path on this site is followed back.
    assert client_for(alice).post("/chat/mute/bob/", {"next": "https://elsewhere.example/"})["Location"] == "/"


def test_a_muted_players_challenge_is_declined_quietly(alice: Any, bob: Any) -> None:
    lines.mute(bob, alice)
    challenge = challenges.create_challenge(alice, "bob", "5+3")
    assert challenge.status == Challenge.Status.DECLINED
    assert challenges.pending_challenges(bob) == []  # bob never sees it
    lines.unmute(bob, alice)
    again = challenges.create_challenge(alice, "bob", "5+3")
    assert again.status == Challenge.Status.PENDING
    assert [shown["id"] for shown in challenges.pending_challenges(bob)] == [again.pk]


def test_a_team_challenge_naming_a_player_who_muted_the_challenger_is_declined(
        alice: Any, bob: Any, charlie: Any, dave: Any) -> None:
    lines.mute(dave, alice)
    challenge = challenges.create_team_challenge(alice, "bob", ["charlie", "dave"], "5+3")
    assert challenge.status == Challenge.Status.DECLINED
    assert challenges.pending_challenges(bob) == [] and challenges.pending_challenges(dave) == []
