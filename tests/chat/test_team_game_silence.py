"""Partners of a running team game pass each other nothing, anywhere on the site
(RH36, issue 35; games.partners): every door a pair of dishonest partners could
use is tried here, through the site's functions and the API, and each is open
again once the team game is over, aborted or adjudicated. The same doors over
real sockets: tests/chat/test_team_game_silence_sockets.py.

alice (SW) and charlie (NE) are partners against bob (SE) and dave (NW); erin and
frank play a game of their own that anyone may watch.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone
from django.utils.translation import override

from chat.lines import Refused
from chat.models import Line
from games import chat, finishing, refusals, rematches, starting
from games.models import Game
from games.starting import Setup
from games.timecontrols import TimeControl
from ladder import bot_accounts, challenges, inputs, matchmaking, seating, seeks
from api import tokens
from ladder.models import Challenge, Seek
from tournaments import chat as tournament_chat
from tournaments import entering
from tournaments.forms import TournamentForm
from tournaments.models import Tournament
from tests.helpers import staff_group

pytestmark = pytest.mark.django_db

HINT = "partner: I hold 10C"


@pytest.fixture
def frank(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("frank", "frank@example.org")


@pytest.fixture
def team(alice: Any, bob: Any, charlie: Any, dave: Any) -> Game:
    """A correspondence team game: it runs for days, and its players may wait in the real-time pool."""
    return starting.start_game(alice, bob, charlie, dave, setup=Setup("rhombus"), time_control=TimeControl.parse("3d"),
                               seed="team")


@pytest.fixture
def other(erin: Any, frank: Any) -> Game:
    return starting.start_game(erin, frank, seed="other")


def api_as(user: Any) -> Client:
    _, token = tokens.make(user, "silence test", ["play", "tournament:write"])
    return Client(headers={"Authorization": f"Bearer {token}"})


def refused_and_nothing_stored(say: Callable[[], Any], code: str = "team-game") -> Refused:
    before = Line.objects.count()
    with pytest.raises(Refused) as refusal:
        say()
    assert refusal.value.code == code
    assert Line.objects.count() == before
    return refusal.value


def end(game: Game, how: str, user: Any) -> None:
    if how == "resigned":
        finishing.resign(game.pk, user)
    elif how == "aborted":
        finishing.abort(game.pk, user)
    else:
        finishing.adjudicate(game.pk, None, "the organizer's ruling")


# --- Chat: every room --------------------------------------------------------


def test_a_seated_player_writes_nothing_in_another_games_spectators_room(
        team: Game, other: Game, alice: Any, charlie: Any, bob: Any) -> None:
    refusal = refused_and_nothing_stored(lambda: chat.say(other.pk, alice, "spectator", text=HINT))
    assert "RH36" in str(refusal) and str(team.pk) in str(refusal) and "until it is over" in str(refusal)
    refused_and_nothing_stored(lambda: chat.say(other.pk, charlie, "spectator", preset="hello"))  # a code word too
    refused_and_nothing_stored(lambda: chat.say(other.pk, bob, "spectator", text="go SW!"))  # every seat


def test_a_watcher_who_plays_no_team_game_still_talks(team: Game, other: Game, django_user_model: Any) -> None:
    watcher = django_user_model.objects.create_user("gina", "gina@example.org")
    assert chat.say(other.pk, watcher, "spectator", text=HINT)["text"] == HINT


def test_partners_write_nothing_in_a_side_game_of_their_own(alice: Any, charlie: Any, bob: Any, dave: Any) -> None:
    # before the team game
    side = starting.start_game(alice, charlie, time_control=TimeControl.parse("3d"), seed="side")
    team = starting.start_game(alice, bob, charlie, dave, setup=Setup("rhombus"), seed="team")
    refused_and_nothing_stored(lambda: chat.say(side.pk, alice, "player", text=HINT))
    refused_and_nothing_stored(lambda: chat.say(side.pk, charlie, "player", preset="goodluck"))
    finishing.resign(team.pk, bob)
    assert chat.say(side.pk, alice, "player", text="now we can talk")["text"] == "now we can talk"


def test_the_team_games_own_room_takes_presets_and_refuses_free_text(team: Game, alice: Any) -> None:
    assert chat.say(team.pk, alice, "player", preset="goodluck")["preset"] == "goodluck"
    refusal = refused_and_nothing_stored(lambda: chat.say(team.pk, alice, "player", text=HINT), "presets-only")
    assert "RH36" in str(refusal)


def test_a_tournament_chat_is_closed_to_seated_partners(team: Game, alice: Any, charlie: Any) -> None:
    olga = get_user_model().objects.create_user("olga", "olga@example.org")
    olga.groups.add(staff_group("Organizers"))
    cup = Tournament.objects.create(name="Cup", organizer=olga, time_control="5+3",
                                    starts_at=timezone.now() + timedelta(hours=1))
    for player in (alice, charlie):
        entering.join(cup.pk, player)
    refused_and_nothing_stored(lambda: tournament_chat.say(cup.pk, alice, text=HINT))
    assert tournament_chat.closed(cup, alice)  # the page shows why instead of a field
    assert tournament_chat.closed(cup, olga) == ""
    finishing.adjudicate(team.pk, None, "both teams agreed")
    assert tournament_chat.say(cup.pk, alice, text="good luck all")["text"] == "good luck all"


def test_a_tournaments_name_and_description_are_text_a_seated_organizer_cannot_write(
        team: Game, alice: Any) -> None:
    alice.groups.add(staff_group("Organizers"))
    starts = (timezone.now() + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")
    data = {"name": "I hold 10C", "description": "", "rules": "ace-in-the-hole", "format": "swiss",
            "time_control": "5+3", "starts_at": starts, "rounds": 3, "max_players": 16, "seeding": "rating",
            "pause_seconds": 30, "check_in_minutes": 0, "min_rated_games": 0, "min_account_days": 0,
            "match_length": 1, "tiebreaks": "", "chat_for": "entrants", "time_zone": "UTC"}
    form = TournamentForm(data=data, author=alice)
    assert not form.is_valid() and "RH36" in " ".join(form.non_field_errors())
    response = api_as(alice).post("/api/tournaments", data, content_type="application/json")
    assert response.status_code == 422 and "RH36" in response.content.decode()
    assert not Tournament.objects.exists()
    finishing.resign(team.pk, alice)
    assert TournamentForm(data=data, author=alice).is_valid()


def test_the_api_refuses_the_line_and_says_why(team: Game, other: Game, alice: Any) -> None:
    with override("de"):
        response = api_as(alice).post(f"/api/games/{other.pk}/chat", {"room": "spectator", "text": HINT},
                                      content_type="application/json", headers={"Accept-Language": "de"})
    assert response.status_code == 400
    said = response.json()["error"]
    assert "RH36" in said and str(team.pk) in said and "Teampartie" in said  # in the player's language
    assert not Line.objects.exists()


@pytest.mark.parametrize("language, word", [("de", "Teampartie"), ("es", "partida por equipos"),
                                            ("ru", "командн")])
def test_the_refusal_is_worded_in_the_players_language(team: Game, other: Game, alice: Any, language: str,
                                                       word: str) -> None:
    with override(language):
        refusal = refused_and_nothing_stored(lambda: chat.say(other.pk, alice, "spectator", text=HINT))
    assert word in str(refusal) and "RH36" in str(refusal)


@pytest.mark.parametrize("how", ["resigned", "aborted", "adjudicated"])
def test_every_room_opens_again_when_the_team_game_ends(team: Game, other: Game, alice: Any, how: str) -> None:
    end(team, how, alice)
    assert chat.say(other.pk, alice, "spectator", text=HINT)["text"] == HINT


def test_the_game_pages_box_says_why_instead_of_offering_a_field(team: Game, other: Game, alice: Any) -> None:
    box, = chat.boxes(Game.objects.get(pk=other.pk), alice)
    assert box["room"] == "spectator" and not box["may_write"] and "RH36" in box["closed"]
    own = {box["room"]: box for box in chat.boxes(Game.objects.get(pk=team.pk), alice)}
    assert own["player"]["may_write"] and own["player"]["presets_only"]


# --- No game together: every door ----------------------------------------------


def test_partners_cannot_challenge_each_other_but_opponents_can(team: Game, alice: Any, bob: Any,
                                                                charlie: Any) -> None:
    with pytest.raises(inputs.LobbyRefusal, match="RH36"):
        challenges.create_challenge(alice, "charlie", "5+3")
    assert not Challenge.objects.exists()
    assert challenges.create_challenge(alice, "bob", "5+3")  # an opponent is no partner


def test_a_challenge_made_before_the_team_game_cannot_be_accepted_during_it(
        alice: Any, bob: Any, charlie: Any, dave: Any) -> None:
    challenge = challenges.create_challenge(alice, "charlie", "5+3")
    team = starting.start_game(alice, bob, charlie, dave, setup=Setup("rhombus"), seed="team")
    with pytest.raises(inputs.LobbyRefusal, match="RH36"):
        challenges.accept_challenge(challenge.pk, charlie)
    assert Challenge.objects.get(pk=challenge.pk).status == Challenge.Status.PENDING
    assert Game.objects.count() == 1
    finishing.resign(team.pk, dave)
    assert isinstance(challenges.accept_challenge(challenge.pk, charlie), Game)


def test_a_team_challenge_seating_partners_together_is_refused(team: Game, alice: Any, erin: Any,
                                                               frank: Any) -> None:
    with pytest.raises(inputs.LobbyRefusal, match="RH36"):
        challenges.create_team_challenge(erin, "alice", ["charlie", "frank"], "1d")
    with pytest.raises(inputs.LobbyRefusal, match="RH36"):
        challenges.create_team_challenge(alice, "erin", ["charlie", "frank"], "1d")
    assert not Challenge.objects.exists()


def test_an_earlier_team_challenge_takes_no_answer_while_they_are_partners(
        alice: Any, bob: Any, charlie: Any, dave: Any, erin: Any, frank: Any) -> None:
    challenge = challenges.create_team_challenge(erin, "alice", ["charlie", "frank"], "1d")
    starting.start_game(alice, bob, charlie, dave, setup=Setup("rhombus"), seed="team")
    with pytest.raises(inputs.LobbyRefusal, match="RH36"):
        challenges.accept_challenge(challenge.pk, frank)
    assert not challenge.invitees.filter(answer="accepted").exists()


def test_a_seek_is_not_accepted_or_joined_by_a_partner(team: Game, alice: Any, charlie: Any, erin: Any) -> None:
    seek = seeks.create_seek(alice, "5+3", rules="ace-in-the-hole")
    with pytest.raises(inputs.LobbyRefusal, match="RH36"):
        seeks.accept_seek(seek.pk, charlie)
    assert Seek.objects.get(pk=seek.pk).status == Seek.Status.OPEN
    four = seeks.create_seek(erin, "1d", rules="rhombus", players=4)
    seeks.join_seek(four.pk, alice)
    with pytest.raises(inputs.LobbyRefusal, match="RH36"):
        seeks.join_seek(four.pk, charlie)
    assert sorted(four.entries.values_list("user__username", flat=True)) == ["alice", "erin"]
    with pytest.raises(inputs.LobbyRefusal, match="RH36"):
        seeks.create_seek(alice, "7d", rules="rhombus", players=4, partner="charlie")


def test_the_pool_never_pairs_partners(team: Game, alice: Any, charlie: Any, erin: Any) -> None:
    for user in (alice, charlie):
        matchmaking.join(user, "5+3")
    assert matchmaking.match() == []
    matchmaking.join(erin, "5+3")
    started, = (Game.objects.get(pk=pk) for pk in matchmaking.match())
    assert {seat.user.username for seat in started.table} in ({"alice", "erin"}, {"charlie", "erin"})


def test_a_rematch_between_partners_is_refused_at_the_offer(alice: Any, bob: Any, charlie: Any,
                                                            dave: Any) -> None:
    side = starting.start_game(alice, charlie, seed="side")
    finishing.resign(side.pk, charlie)
    starting.start_game(alice, bob, charlie, dave, setup=Setup("rhombus"), seed="team")
    with pytest.raises(refusals.Refusal, match="RH36"):
        rematches.rematch(side.pk, alice)
    assert Game.objects.get(pk=side.pk).rematch_offers == []


def test_the_api_refuses_a_challenge_between_partners(team: Game, alice: Any) -> None:
    response = api_as(alice).post("/api/challenges", {"username": "charlie", "time_control": "5+3"},
                                  content_type="application/json")
    assert response.status_code == 400 and "RH36" in response.json()["error"]
    assert not Challenge.objects.exists()


def test_partners_play_together_again_once_the_team_game_is_over(team: Game, alice: Any) -> None:
    finishing.abort(team.pk, alice)
    assert challenges.create_challenge(alice, "charlie", "5+3")


def test_the_computers_players_are_no_ones_partners(erin: Any, frank: Any) -> None:
    """Two people playing the computer with four at one level at once: the same
    bot accounts sit as partners in both games, and share nothing (games.partners)."""
    bot_accounts.ensure_bot_accounts()
    tc = TimeControl.parse("1d")
    first = seating.play_computer_team(erin, "random", tc)
    second = seating.play_computer_team(frank, "random", tc)
    assert first.pk != second.pk and first.running and second.running
