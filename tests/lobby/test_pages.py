"""The lobby page, the profile's Challenge form, and the form fallbacks for browsers without JS."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games.models import Game
from games.timecontrols import OFFERED
from ladder import challenges, seeks
from ladder.models import Challenge, Seek
from tests.helpers import client_for

pytestmark = pytest.mark.django_db


def test_the_lobby_offers_every_time_control_to_a_player(alice: Any) -> None:
    html = client_for(alice).get("/lobby/").content.decode()
    for tc in OFFERED:
        assert f'name="time_control" value="{tc.key}"' in html
    assert "Real time" in html and "Correspondence" in html
    assert ">Create seek</button>" in html and 'src="/static/js/lobby.js"' in html


def test_a_visitor_sees_the_seeks_but_is_asked_to_sign_in(alice: Any) -> None:
    seeks.create_seek(alice, "10+5")
    html = Client().get("/lobby/").content.decode()
    assert "Create seek" not in html and "Sign in</a> to create or accept a game" in html
    assert '<td class="seek__player">alice</td>' in html and ">Accept</button>" not in html


def test_the_nav_links_to_the_lobby(alice: Any) -> None:
    assert '<a href="/lobby/">Lobby</a>' in Client().get("/").content.decode()


def test_the_seek_list_shows_accept_on_others_seeks_and_cancel_on_your_own(alice: Any, bob: Any) -> None:
    seeks.create_seek(alice, "5+3")
    seeks.create_seek(bob, "1d")
    html = client_for(alice).get("/lobby/").content.decode()
    assert html.count(">Accept</button>") == 1 and html.count(">Cancel</button>") == 1


def test_a_profile_offers_a_challenge_to_other_players_only(alice: Any, bob: Any) -> None:
    assert ">Challenge</button>" in client_for(alice).get("/@/bob/").content.decode()
    assert ">Challenge</button>" not in client_for(bob).get("/@/bob/").content.decode()
    assert ">Challenge</button>" not in Client().get("/@/bob/").content.decode()


def test_creating_and_accepting_a_seek_without_javascript(alice: Any, bob: Any) -> None:
    response = client_for(alice).post("/lobby/seek/", {"time_control": "3+2", "mode": "casual",
                                                       "colour": "black"})
    assert response.status_code == 302 and response["Location"] == "/lobby/"
    seek = Seek.objects.get()
    assert (seek.time_control, seek.rated, seek.colour) == ("3+2", False, "black")
    response = client_for(bob).post(f"/lobby/seek/{seek.pk}/accept/")
    game = Game.objects.get()
    assert response["Location"] == f"/games/{game.pk}/"
    assert (game.seat("red").user, game.seat("black").user) == (bob, alice)


def test_a_refused_form_comes_back_with_the_reason(alice: Any) -> None:
    seek = seeks.create_seek(alice, "5+3")
    response = client_for(alice).post(f"/lobby/seek/{seek.pk}/accept/", follow=True)
    assert "that is your own seek" in response.content.decode()
    assert Seek.objects.get().status == "open"


def test_the_fallbacks_need_a_login_and_a_post(alice: Any) -> None:
    assert Client().post("/lobby/seek/", {"time_control": "5+3"})["Location"].startswith("/accounts/login/")
    assert client_for(alice).get("/lobby/seek/").status_code == 405
    assert not Seek.objects.exists()


def test_challenging_and_declining_without_javascript(alice: Any, bob: Any) -> None:
    response = client_for(alice).post("/@/bob/challenge/", {"time_control": "7d", "mode": "rated",
                                                           "colour": "random"})
    assert response["Location"] == "/@/bob/"
    challenge = Challenge.objects.get()
    assert (challenge.challenged, challenge.time_control, challenge.rated) == (bob, "7d", True)
    assert "alice challenges you" in client_for(bob).get("/lobby/").content.decode()
    client_for(bob).post(f"/lobby/challenge/{challenge.pk}/decline/")
    assert Challenge.objects.get().status == "declined"


def test_accepting_a_challenge_without_javascript_goes_to_the_game(alice: Any, bob: Any) -> None:
    challenge = challenges.create_challenge(alice, "bob", "5+3")
    response = client_for(bob).post(f"/lobby/challenge/{challenge.pk}/accept/")
    assert response["Location"] == f"/games/{Game.objects.get().pk}/"
