"""4-player challenges (issue 13): a player names a partner and two opponents
for a Rhombus team game (RH31); each invitee accepts or declines, and the game
starts when all three have accepted.

These run on SQLite as well as PostgreSQL (no socket, no Redis); the race of
the last two acceptances needs PostgreSQL's row locks and is marked so."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import bots
from games.models import Game
from ladder import bot_accounts, challenges, inputs, lobby_groups
from ladder.models import Challenge, ChallengeInvitee
from moderation.models import Restriction
from tests.conftest import make_user
from tests.helpers import require_service
from tests.lobby.racing import at_once
from tests.lobby.test_four_player_seeks import seated, team_of

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_bot_cache() -> Any:
    """Bot ids are cached per process; each test has its own users."""
    bots._bot_cache.pop("at", None)
    yield
    bots._bot_cache.pop("at", None)


def challenge4(user: Any, partner: str = "bob", opponents: Any = ("charlie", "dave"), **options: Any) -> Challenge:
    options.setdefault("rules", "rhombus")
    return challenges.create_team_challenge(user, partner, list(opponents), "5+3", **options)


def stored() -> tuple[int, int]:
    return Challenge.objects.count(), ChallengeInvitee.objects.count()


# --- Accepting ----------------------------------------------------------------


def test_the_game_starts_when_all_three_have_accepted_with_the_named_teams(
        alice: Any, bob: Any, charlie: Any, dave: Any) -> None:
    challenge = challenge4(alice, colour="red", rated=False)
    assert challenges.accept_challenge(challenge.pk, charlie) == challenge
    assert challenges.accept_challenge(challenge.pk, bob) == challenge
    assert not Game.objects.exists()
    game = challenges.accept_challenge(challenge.pk, dave)
    assert isinstance(game, Game)
    # Red: the challenger's team sits first (SW, who moves first, RH9), partners opposite (RH31).
    assert seated(game) == {"SW": "alice", "SE": "charlie", "NE": "bob", "NW": "dave"}
    assert (game.kind, game.players, game.rated) == ("rhombus", 4, False)
    challenge.refresh_from_db()
    assert (challenge.status, challenge.game) == ("accepted", game)


def test_black_puts_the_opponents_first(alice: Any, bob: Any, charlie: Any, dave: Any) -> None:
    challenge = challenge4(alice, colour="black")
    for user in (bob, charlie, dave):
        game = challenges.accept_challenge(challenge.pk, user)
    assert isinstance(game, Game)
    assert seated(game) == {"SW": "charlie", "SE": "alice", "NE": "dave", "NW": "bob"}


def test_random_colour_keeps_the_teams(alice: Any, bob: Any, charlie: Any, dave: Any) -> None:
    challenge = challenge4(alice, rules="rhombus-formation")
    for user in (dave, charlie, bob):
        game = challenges.accept_challenge(challenge.pk, user)
    assert isinstance(game, Game) and game.variant == "formation"
    assert team_of(game, "alice") == {"alice", "bob"} and team_of(game, "charlie") == {"charlie", "dave"}


def test_every_invitee_sees_it_and_who_has_accepted(alice: Any, bob: Any, charlie: Any, dave: Any) -> None:
    challenge = challenge4(alice)
    challenges.accept_challenge(challenge.pk, charlie)
    [mine] = challenges.pending_challenges(alice)
    assert (mine["direction"], mine["players"], mine["partner"], mine["opponents"]) == (
        "outgoing", 4, "bob", ["charlie", "dave"])
    assert mine["accepted"] == ["charlie"] and mine["declined_by"] is None
    for user in (bob, charlie, dave):
        [theirs] = challenges.pending_challenges(user)
        assert theirs["direction"] == "incoming" and theirs["challenger"] == "alice"
        assert theirs["answered"] == (user == charlie)
    assert challenges.challenge_for(challenge.pk, dave) is not None


def test_accepting_twice_or_uninvited_is_refused(alice: Any, bob: Any, charlie: Any, dave: Any,
                                                 django_user_model: Any) -> None:
    erin = make_user(django_user_model, "erin")
    challenge = challenge4(alice)
    challenges.accept_challenge(challenge.pk, bob)
    with pytest.raises(inputs.LobbyRefusal, match="already accepted"):
        challenges.accept_challenge(challenge.pk, bob)
    for outsider in (erin, alice):
        with pytest.raises(inputs.LobbyRefusal, match="only an invited player can accept"):
            challenges.accept_challenge(challenge.pk, outsider)
    assert challenges.challenge_for(challenge.pk, erin) is None


# --- Declining, cancelling, expiring -----------------------------------------------


def test_a_decline_closes_it_for_all_and_names_who(alice: Any, bob: Any, charlie: Any, dave: Any) -> None:
    challenge = challenge4(alice)
    challenges.accept_challenge(challenge.pk, bob)
    challenges.decline_challenge(challenge.pk, dave)
    shown = challenges.challenge_for(challenge.pk, bob)
    assert shown is not None and (shown["status"], shown["declined_by"]) == ("declined", "dave")
    for user in (alice, bob, charlie, dave):
        assert challenges.pending_challenges(user) == []
    with pytest.raises(inputs.LobbyRefusal, match="no longer open"):
        challenges.accept_challenge(challenge.pk, charlie)
    assert not Game.objects.exists()


def test_the_challenger_cancels_and_only_they_can(alice: Any, bob: Any, charlie: Any, dave: Any) -> None:
    challenge = challenge4(alice)
    with pytest.raises(inputs.LobbyRefusal, match="only the challenger can cancel"):
        challenges.cancel_challenge(challenge.pk, bob)
    with pytest.raises(inputs.LobbyRefusal, match="only the challenged player can decline"):
        challenges.decline_challenge(challenge.pk, alice)
    challenges.cancel_challenge(challenge.pk, alice)
    assert Challenge.objects.get(pk=challenge.pk).status == "cancelled"
    assert challenges.pending_challenges(charlie) == []


def test_it_expires_as_a_two_player_challenge_does(alice: Any, bob: Any, charlie: Any, dave: Any) -> None:
    challenge = challenge4(alice)
    challenges.accept_challenge(challenge.pk, bob)
    later = timezone.now() + timedelta(minutes=11)
    with pytest.raises(inputs.LobbyRefusal, match="expired"):
        challenges.accept_challenge(challenge.pk, charlie, now=later)
    assert challenges.expire_challenges(later) == 1
    assert Challenge.objects.get(pk=challenge.pk).status == "expired"
    assert challenges.pending_challenges(dave) == []


def test_every_player_is_told_of_each_change(alice: Any, bob: Any, charlie: Any, dave: Any,
                                             monkeypatch: Any, django_capture_on_commit_callbacks: Any) -> None:
    sent: list[tuple[str, dict[str, Any]]] = []
    monkeypatch.setattr(lobby_groups, "send_to_group", lambda group, message: sent.append((group, message)))
    with django_capture_on_commit_callbacks(execute=True):
        challenge = challenge4(alice)
    told = {group for group, message in sent if message == {"type": "challenge.changed", "challenge": challenge.pk}}
    assert told == {lobby_groups.user_group(user.pk) for user in (alice, bob, charlie, dave)}


# --- Refusals: nothing is stored -------------------------------------------------


@pytest.mark.parametrize("partner, opponents, message", [
    ("bob", ["charlie", "bob"], "three different players"),
    ("bob", ["charlie", "charlie"], "three different players"),
    ("alice", ["charlie", "dave"], "cannot challenge yourself"),
    ("bob", ["alice", "dave"], "cannot challenge yourself"),
    ("bob", ["charlie", "nobody"], "there is no player called 'nobody'"),
    ("bob", ["charlie"], "names two opponents"),
    ("bob", "charlie", "names two opponents"),
    ("", ["charlie", "dave"], "names your partner"),
    ("bob", ["charlie", ""], "name both opponents"),
])
def test_bad_names_are_refused(alice: Any, bob: Any, charlie: Any, dave: Any, partner: Any, opponents: Any,
                               message: str) -> None:
    with pytest.raises(inputs.LobbyRefusal, match=message):
        challenges.create_team_challenge(alice, partner, opponents, "5+3", rules="rhombus")
    assert stored() == (0, 0)


def test_ace_in_the_hole_with_four_is_refused(alice: Any, bob: Any, charlie: Any, dave: Any) -> None:
    with pytest.raises(inputs.LobbyRefusal, match="Ace in the Hole is played by 2 players, not 4"):
        challenge4(alice, rules="ace-in-the-hole")
    assert stored() == (0, 0)


def test_a_bot_is_refused(alice: Any, bob: Any, charlie: Any) -> None:
    greedy = {user.player.bot_level: user for user, _ in bot_accounts.ensure_bot_accounts()}["greedy"]
    with pytest.raises(inputs.LobbyRefusal, match="is a computer player"):
        challenge4(alice, opponents=("charlie", greedy.username))
    assert stored() == (0, 0)


def test_one_pending_challenge_with_the_same_partner(alice: Any, bob: Any, charlie: Any, dave: Any) -> None:
    challenge4(alice)
    with pytest.raises(inputs.LobbyRefusal, match="already have a challenge pending with bob"):
        challenge4(alice, opponents=("dave", "charlie"))
    assert stored() == (1, 3)


def test_two_player_challenges_are_as_before(alice: Any, bob: Any) -> None:
    challenge = challenges.create_challenge(alice, "bob", "5+3", colour="red")
    [shown] = challenges.pending_challenges(bob)
    assert (shown["players"], shown["partner"], shown["opponents"]) == (2, None, [])
    game = challenges.accept_challenge(challenge.pk, bob)
    assert isinstance(game, Game) and seated(game) == {"red": "alice", "black": "bob"}


# --- The race of the last two acceptances (PostgreSQL row locks) -------------------


@pytest.mark.django_db(transaction=True)
def test_the_last_two_acceptances_racing_start_exactly_one_game(alice: Any, bob: Any, charlie: Any,
                                                                dave: Any) -> None:
    require_service("DATABASE_URL", "row locks racing on PostgreSQL")
    challenge = challenge4(alice)
    challenges.accept_challenge(challenge.pk, bob)
    results = at_once(lambda user: challenges.accept_challenge(challenge.pk, user), charlie, dave)
    games = [r for r in results.values() if isinstance(r, Game)]
    assert len(games) == 1 and len(results) == 2, results
    assert Game.objects.count() == 1
    assert Challenge.objects.get(pk=challenge.pk).game_id == games[0].pk
    assert set(ChallengeInvitee.objects.values_list("answer", flat=True)) == {"accepted"}


# --- The profile's form, without JavaScript ------------------------------------------


def test_the_profile_form_sends_a_four_player_challenge(client: Any, alice: Any, bob: Any, charlie: Any,
                                                        dave: Any) -> None:
    client.force_login(alice)
    page = client.get("/@/charlie/").content.decode()
    assert 'name="opponent1"' in page and 'value="charlie"' in page
    response = client.post("/@/charlie/challenge/", {
        "rules": "rhombus", "time_control": "5+3", "mode": "casual", "colour": "random", "players": "4",
        "partner": "bob", "opponent1": "charlie", "opponent2": "dave"})
    assert response.status_code == 302
    [challenge] = Challenge.objects.all()
    assert (challenge.players, challenge.challenged, challenge.rated) == (4, bob, False)
    assert [(i.user.username, i.role) for i in challenge.invitees.all()] == [
        ("bob", "partner"), ("charlie", "opponent"), ("dave", "opponent")]
    client.force_login(dave)
    assert "alice challenges you to a 4-player game" in client.get("/lobby/").content.decode()


def test_the_profile_form_refuses_four_with_ace(client: Any, alice: Any, bob: Any, charlie: Any,
                                                dave: Any) -> None:
    client.force_login(alice)
    response = client.post("/@/charlie/challenge/", {
        "rules": "ace-in-the-hole", "time_control": "5+3", "mode": "rated", "colour": "random", "players": "4",
        "partner": "bob", "opponent1": "charlie", "opponent2": "dave"}, follow=True)
    assert "Ace in the Hole is played by 2 players, not 4" in response.content.decode()
    assert stored() == (0, 0)


# --- Moderation: a restricted player neither sends nor accepts one -------------------------


def test_a_lobby_restriction_stops_sending_and_accepting(alice: Any, bob: Any, charlie: Any, dave: Any) -> None:
    Restriction.objects.create(user=alice, scope=Restriction.Scope.LOBBY)
    with pytest.raises(inputs.LobbyRefusal, match="A moderator has restricted your account"):
        challenge4(alice)
    assert stored() == (0, 0)
    challenge = challenge4(bob, partner="charlie", opponents=("dave", "alice"))
    with pytest.raises(inputs.LobbyRefusal, match="A moderator has restricted your account"):
        challenges.accept_challenge(challenge.pk, alice)
    assert ChallengeInvitee.objects.get(challenge=challenge, user=alice).answer == ""
