"""4-player Rhombus seeks (issue 13): filling seat by seat, teams, leaving,
cancelling, refusals, the seek JSON, and Play the computer with 4 players.

These run on SQLite as well as PostgreSQL (no socket, no Redis); the race for
the last seat needs PostgreSQL's row locks and is marked so."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from games import botmoves, bots, finishing, moving
from games.models import Game
from ladder import bot_accounts, inputs, seating, seeks
from ladder.models import Rating, Seek, SeekEntry
from tests.helpers import require_service
from tests.lobby.racing import at_once

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_bot_cache() -> Any:
    """Bot ids are cached per process; each test has its own users."""
    bots._bot_cache.pop("at", None)
    yield
    bots._bot_cache.pop("at", None)


def seated(game: Game) -> dict[str, str]:
    """{seat: username} in turn order."""
    return {seat.name: seat.user.username for seat in game.seats.select_related("user").order_by("number")}


def team_of(game: Game, username: str) -> set[str]:
    """The usernames of USERNAME's side: partners sit opposite (SW+NE, SE+NW, RH31)."""
    names = seated(game)
    for side in (("SW", "NE"), ("SE", "NW")):
        team = {names[seat] for seat in side}
        if username in team:
            return team
    raise AssertionError(f"{username} is not in the game")


def seek4(user: Any, **options: Any) -> Seek:
    return seeks.create_seek(user, "5+3", rules="rhombus", players=4, **options)


# --- Filling seat by seat ------------------------------------------------------


def test_a_four_player_seek_fills_seat_by_seat_and_starts_when_full(alice: Any, bob: Any, charlie: Any,
                                                                    dave: Any) -> None:
    seek = seek4(alice)
    assert seeks.open_seeks()[0]["joined"] == ["alice"]
    assert seeks.join_seek(seek.pk, bob) == seek
    assert seeks.accept_seek(seek.pk, charlie) == seek  # Accept on a 4-player seek joins it
    [shown] = seeks.open_seeks(charlie)
    assert shown["players"] == 4 and shown["joined"] == ["alice", "bob", "charlie"]
    assert shown["joined_me"] is True and shown["mine"] is False
    assert not Game.objects.exists()

    game = seeks.join_seek(seek.pk, dave)
    assert isinstance(game, Game)
    assert (game.kind, game.players, game.rated, game.time_control.key) == ("rhombus", 4, True, "5+3")
    assert set(seated(game).values()) == {"alice", "bob", "charlie", "dave"}
    assert list(seated(game)) == ["SW", "SE", "NE", "NW"]
    row = Seek.objects.get(pk=seek.pk)
    assert (row.status, row.game_id) == ("accepted", game.pk)
    assert seeks.open_seeks() == []


def test_the_named_partner_ends_on_the_creator_s_team(alice: Any, bob: Any, charlie: Any, dave: Any) -> None:
    for colour in ("red", "black", "random"):
        seek = seeks.create_seek(alice, "3d", rules="rhombus", players=4, partner="dave", colour=colour)
        for user in (bob, charlie, dave):
            game = seeks.join_seek(seek.pk, user)
        assert isinstance(game, Game)
        assert team_of(game, "alice") == {"alice", "dave"}
        assert team_of(game, "bob") == {"bob", "charlie"}
        if colour != "random":  # red: the creator's team sits SW+NE, the creator first
            assert seated(game)["SW" if colour == "red" else "SE"] == "alice"
        finishing.resign(game.pk, bob)  # partners of a running team game sit at no other game together (RH36)


def test_the_last_seat_is_held_for_the_named_partner(alice: Any, bob: Any, charlie: Any, dave: Any,
                                                     erin: Any) -> None:
    seek = seek4(alice, partner="erin")
    seeks.join_seek(seek.pk, bob)
    seeks.join_seek(seek.pk, charlie)
    [shown] = seeks.open_seeks()
    assert (shown["partner"], shown["held"]) == ("erin", True)
    with pytest.raises(inputs.LobbyRefusal, match="last seat is held for erin"):
        seeks.join_seek(seek.pk, dave)
    game = seeks.join_seek(seek.pk, erin)
    assert isinstance(game, Game) and team_of(game, "alice") == {"alice", "erin"}


def test_the_site_pairs_strongest_and_weakest_against_the_middle_two(alice: Any, bob: Any, charlie: Any,
                                                                     dave: Any) -> None:
    for user, rating in ((alice, 1600), (bob, 1900), (charlie, 1400), (dave, 1500)):
        Rating.objects.create(user=user, ladder="rhombus-teams", rating=rating)
    seek = seek4(alice)
    for user in (bob, charlie, dave):
        game = seeks.join_seek(seek.pk, user)
    assert isinstance(game, Game)
    # 1900 + 1400 against 1600 + 1500: a 200-point gap at most between the averages' sums.
    assert team_of(game, "bob") == {"bob", "charlie"}
    assert team_of(game, "alice") == {"alice", "dave"}


def test_site_pairing_reads_the_team_ladder_not_the_two_player_one(alice: Any, bob: Any, charlie: Any,
                                                                   dave: Any) -> None:
    # Strong at 2-player Rhombus, new at the team game: the team ladder decides.
    Rating.objects.create(user=alice, ladder="rhombus", rating=2200)
    Rating.objects.create(user=dave, ladder="rhombus-teams", rating=1800)
    seek = seek4(alice)
    for user in (bob, charlie, dave):
        game = seeks.join_seek(seek.pk, user)
    assert isinstance(game, Game)
    # dave (1800) is strongest; the others tie at 1500 and keep join order: charlie is "weakest".
    assert team_of(game, "dave") == {"dave", "charlie"}


# --- Leaving and cancelling ----------------------------------------------------


def test_leaving_frees_the_seat(alice: Any, bob: Any, charlie: Any, dave: Any, erin: Any) -> None:
    seek = seek4(alice)
    for user in (bob, charlie):
        seeks.join_seek(seek.pk, user)
    seeks.leave_seek(seek.pk, bob)
    assert seeks.open_seeks()[0]["joined"] == ["alice", "charlie"]
    seeks.join_seek(seek.pk, dave)
    game = seeks.join_seek(seek.pk, erin)
    assert isinstance(game, Game) and "bob" not in seated(game).values()


def test_the_creator_cancelling_closes_the_seek_for_everyone(alice: Any, bob: Any, charlie: Any) -> None:
    seek = seek4(alice)
    seeks.join_seek(seek.pk, bob)
    seeks.cancel_seek(seek.pk, alice)
    assert Seek.objects.get(pk=seek.pk).status == "cancelled"
    assert seeks.open_seeks() == []
    with pytest.raises(inputs.LobbyRefusal, match="no longer open"):
        seeks.join_seek(seek.pk, charlie)
    with pytest.raises(inputs.LobbyRefusal, match="no longer open"):
        seeks.leave_seek(seek.pk, bob)
    seek4(bob)  # bob's seat there is gone with it: he may sit at another


# --- Refusals -----------------------------------------------------------------


def test_ace_in_the_hole_is_for_two_players_only(alice: Any) -> None:
    with pytest.raises(inputs.LobbyRefusal, match="Ace in the Hole is played by 2 players, not 4"):
        seeks.create_seek(alice, "5+3", players=4)
    with pytest.raises(inputs.LobbyRefusal, match='"players" must be 2 or 4'):
        seeks.create_seek(alice, "5+3", rules="rhombus", players=3)
    with pytest.raises(inputs.LobbyRefusal, match="only a 4-player seek has a partner"):
        seeks.create_seek(alice, "5+3", rules="rhombus", partner="bob")
    assert not Seek.objects.exists()


def test_bad_partners_are_refused(alice: Any, bot_account: Any) -> None:
    with pytest.raises(inputs.LobbyRefusal, match="no player called 'nobody'"):
        seek4(alice, partner="nobody")
    with pytest.raises(inputs.LobbyRefusal, match="your own partner"):
        seek4(alice, partner="alice")
    with pytest.raises(inputs.LobbyRefusal, match="computer player"):
        seek4(alice, partner=bot_account.username)
    assert not Seek.objects.exists()


def test_joining_twice_or_one_s_own_seek_is_refused(alice: Any, bob: Any) -> None:
    seek = seek4(alice)
    with pytest.raises(inputs.LobbyRefusal, match="that is your own seek"):
        seeks.join_seek(seek.pk, alice)
    seeks.join_seek(seek.pk, bob)
    with pytest.raises(inputs.LobbyRefusal, match="already joined that seek"):
        seeks.join_seek(seek.pk, bob)
    with pytest.raises(inputs.LobbyRefusal, match="you created that seek: cancel it"):
        seeks.leave_seek(seek.pk, alice)
    assert SeekEntry.objects.filter(seek=seek).count() == 2


def test_one_open_four_player_seek_per_player_and_time_control(alice: Any, bob: Any, charlie: Any) -> None:
    first, second = seek4(alice), seek4(bob)
    seeks.join_seek(first.pk, charlie)
    with pytest.raises(inputs.LobbyRefusal, match="already at an open 4-player 5\\+3 seek"):
        seeks.join_seek(second.pk, charlie)
    with pytest.raises(inputs.LobbyRefusal, match="already at an open 4-player 5\\+3 seek"):
        seek4(charlie)
    seeks.create_seek(charlie, "3d", rules="rhombus", players=4)  # another control is fine
    with pytest.raises(inputs.LobbyRefusal, match="have not joined"):
        seeks.leave_seek(second.pk, charlie)


def test_a_two_player_seek_cannot_be_joined_or_left(alice: Any, bob: Any) -> None:
    seek = seeks.create_seek(alice, "5+3", rules="rhombus")
    with pytest.raises(inputs.LobbyRefusal, match="for 2 players: accept it"):
        seeks.join_seek(seek.pk, bob)
    shown = seeks.open_seeks(bob)[0]
    assert (shown["players"], shown["joined"], shown["partner"], shown["held"]) == (2, ["alice"], None, False)


def test_a_real_time_team_game_takes_its_players_off_their_other_real_time_seeks(
        alice: Any, bob: Any, charlie: Any, dave: Any, erin: Any) -> None:
    other = seeks.create_seek(erin, "10+5", rules="rhombus", players=4)
    seeks.join_seek(other.pk, bob)  # bob waits here too, for another control
    mine = seeks.create_seek(bob, "3+2")
    seek = seek4(alice)
    for user in (bob, charlie, dave):
        seeks.join_seek(seek.pk, user)
    assert Seek.objects.get(pk=mine.pk).status == "cancelled"
    assert seeks.open_seeks()[0]["joined"] == ["erin"]


# --- The race for the last seat (PostgreSQL row locks) ----------------------------


@pytest.mark.django_db(transaction=True)
def test_two_players_racing_for_the_last_seat_start_exactly_one_game(alice: Any, bob: Any, charlie: Any,
                                                                     dave: Any, erin: Any) -> None:
    require_service("DATABASE_URL", "row locks racing on PostgreSQL")
    seek = seek4(alice)
    seeks.join_seek(seek.pk, bob)
    seeks.join_seek(seek.pk, charlie)
    results = at_once(lambda user: seeks.join_seek(seek.pk, user), dave, erin)
    games = [r for r in results.values() if isinstance(r, Game)]
    refusals = [r for r in results.values() if isinstance(r, inputs.LobbyRefusal)]
    assert len(games) == 1 and len(refusals) == 1, results
    assert "no longer open (accepted)" in str(refusals[0])
    assert Game.objects.count() == 1
    assert Seek.objects.get(pk=seek.pk).game_id == games[0].pk
    assert SeekEntry.objects.filter(seek=seek).count() == 4


# --- Play the computer with 4 players ------------------------------------------


@pytest.fixture
def bot_account(db: None) -> Any:
    """The greedy bot's account (manage.py seed_bots makes one per level)."""
    return {user.player.bot_level: user for user, _ in bot_accounts.ensure_bot_accounts()}["greedy"]


def test_play_the_computer_with_four_players_seats_three_bots(alice: Any, bot_account: Any) -> None:
    game = seating.play_computer_team(alice, "greedy", inputs.offered_time_control("3d"), rules="rhombus")
    assert (game.kind, game.players, game.rated) == ("rhombus", 4, False)
    assert seated(game) == {"SW": "alice", "SE": "bot-greedy+2", "NE": "bot-greedy", "NW": "bot-greedy+3"}
    assert bots.bot_seats(game) == {"SE": "greedy", "NE": "greedy", "NW": "greedy"}
    # A second game reuses the seat-mates' accounts.
    again = seating.play_computer_team(alice, "greedy", inputs.offered_time_control("3d"))
    assert seated(again) == seated(game)


def test_the_bots_play_their_seats_of_a_four_player_computer_game(alice: Any, bot_account: Any) -> None:
    game = seating.play_computer_team(alice, "greedy", inputs.offered_time_control("3d"))
    rules = engine.GAMES["rhombus"]
    position = Game.objects.get(pk=game.pk).position
    moving.submit(game.pk, alice, 0, str(rules.legal_actions(rules.from_json(position))[0]))
    assert botmoves.play_move(game.pk, 1) == "played"  # SE, a bot
    assert Game.objects.get(pk=game.pk).moves.values_list("seat", flat=True)[1] == "SE"


def test_play_the_computer_with_four_players_is_refused_for_ace_in_the_hole(alice: Any, bot_account: Any) -> None:
    with pytest.raises(inputs.LobbyRefusal, match="played by 2 players, not 4"):
        seating.play_computer_team(alice, "greedy", inputs.offered_time_control("3d"), rules="ace-in-the-hole")
    with pytest.raises(inputs.LobbyRefusal, match="not a bot level"):
        seating.play_computer_team(alice, "best", inputs.offered_time_control("3d"))
    assert not Game.objects.exists()


def test_the_computer_form_starts_a_four_player_game(client: Any, alice: Any, bot_account: Any) -> None:
    client.force_login(alice)
    response = client.post("/lobby/computer/", {"rules": "rhombus", "level": "greedy", "time_control": "3d",
                                                "colour": "random", "players": "4"})
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert game.players == 4 and seated(game)["SW"] == "alice"


def test_the_seek_form_creates_a_four_player_seek_and_join_and_leave_work_without_javascript(
        client: Any, alice: Any, bob: Any) -> None:
    client.force_login(alice)
    client.post("/lobby/seek/", {"rules": "rhombus", "time_control": "5+3", "mode": "rated",
                                 "colour": "random", "players": "4", "partner": "bob"})
    seek = Seek.objects.get()
    assert (seek.players, seek.partner) == (4, bob)
    client.force_login(bob)
    client.post(f"/lobby/seek/{seek.pk}/join/")
    assert seeks.open_seeks()[0]["joined"] == ["alice", "bob"]
    client.post(f"/lobby/seek/{seek.pk}/leave/")
    assert seeks.open_seeks()[0]["joined"] == ["alice"]
    page = client.get("/lobby/").content.decode()
    assert "1 of 4 joined: alice" in page


def test_the_admin_shows_who_sits_at_a_seek(admin_client: Any, alice: Any, bob: Any) -> None:
    seek = seek4(alice)
    seeks.join_seek(seek.pk, bob)
    page = admin_client.get(f"/admin/ladder/seek/{seek.pk}/change/")
    text = page.content.decode()
    assert page.status_code == 200 and "Seek entries" in text and "bob at seek" in text
