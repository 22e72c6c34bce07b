"""Tournaments through the API (api/tournaments.py): the list, details,
entries, standings, pairings and TRF; joining and withdrawing; the
organizer's create, start, pause, resume, remove and adjudicate; and every
refusal in words, with nothing changed."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import bots
from games.models import Game
from ladder import bot_accounts
from tournaments import advancing, entering, organizing, scoring, tiebreaks, trf
from tournaments.models import Entry, Pairing, Round, Tournament
from tests.helpers import staff_group
from tests.tournaments.conftest import organizer, play_round, players, tournament  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db

Make = Callable[..., Tournament]


@pytest.fixture
def rival(django_user_model: Any, organizer: Any) -> Any:
    """An organizer too (the group is there once ``organizer`` is), but not of
    the tournaments the ``tournament`` fixture makes."""
    user = django_user_model.objects.create_user("rita", "rita@example.org")
    user.groups.add(staff_group("Organizers"))
    return django_user_model.objects.get(pk=user.pk)


def state(t: Tournament) -> tuple[Any, ...]:
    """What an action could change: status, round, players in it, rounds, results."""
    t = Tournament.objects.get(pk=t.pk)
    results = sorted(Pairing.objects.filter(round__tournament=t).values_list("pk", "result"))
    return (t.status, t.current_round, t.entries.filter(withdrawn_at__isnull=True).count(),
            Round.objects.filter(tournament=t).count(), results)


def started(tournament: Make, players: Any, count: int, **fields: Any) -> Tournament:
    """A tournament of ``count`` players (p01 the highest rated) with its first round on."""
    t = tournament(**{"format": Tournament.Format.ROUND_ROBIN, "starts_at": timezone.now(), **fields})
    for user in players(count):
        entering.join(t.pk, user)
    advancing.advance(t.pk)
    return Tournament.objects.get(pk=t.pk)


# --- The list and details ----------------------------------------------------


def test_the_list_has_the_sites_sections_in_the_sites_order(tournament: Make, players: Any, api_as: Any) -> None:
    later = tournament(name="Next month", starts_at=timezone.now() + timedelta(days=30))
    tournament(name="Next week", starts_at=timezone.now() + timedelta(days=7))
    tournament(name="On now", status=Tournament.Status.RUNNING, current_round=2)
    tournament(name="Resting", status=Tournament.Status.PAUSED, starts_at=timezone.now() - timedelta(days=1))
    tournament(name="Done", status=Tournament.Status.FINISHED, finished_at=timezone.now())
    tournament(name="Called off", status=Tournament.Status.CANCELLED, finished_at=timezone.now() - timedelta(days=1))
    entering.join(later.pk, players(1)[0])
    response = api_as(None).get("/api/tournaments")
    assert response.status_code == 200
    body = response.json()
    assert [t["name"] for t in body["tournaments"]] == [
        "Resting", "On now", "Next week", "Next month", "Done", "Called off"]
    assert (body["page"], body["pages"], body["count"]) == (1, 1, 6)
    first_upcoming = body["tournaments"][3]
    assert first_upcoming["entries"] == 1 and first_upcoming["organizer"] == "olga"
    assert first_upcoming["url"] == f"/tournaments/{later.pk}/" and first_upcoming["time_control"] == "5+3"
    running_only = api_as(None).get("/api/tournaments", status="running").json()["tournaments"]
    assert [t["status"] for t in running_only] == ["paused", "running"]
    finished = api_as(None).get("/api/tournaments", status="finished").json()["tournaments"]
    assert [t["name"] for t in finished] == ["Done", "Called off"]


def test_the_list_comes_fifty_a_page(tournament: Make, api_as: Any) -> None:
    for n in range(51):
        tournament(name=f"Cup {n:02d}", starts_at=timezone.now() + timedelta(hours=n + 1))
    first = api_as(None).get("/api/tournaments", status="upcoming").json()
    second = api_as(None).get("/api/tournaments", status="upcoming", page=2).json()
    assert len(first["tournaments"]) == 50 and first["tournaments"][0]["name"] == "Cup 00"
    assert [t["name"] for t in second["tournaments"]] == ["Cup 50"]
    assert (second["page"], second["pages"], second["count"]) == (2, 2, 51)
    assert api_as(None).get("/api/tournaments", page=9).json()["page"] == 2  # past the end: the last page


@pytest.mark.parametrize(("params", "message"), [
    ({"status": "over"}, "query.status: Input should be 'running', 'upcoming' or 'finished'"),
    ({"page": 0}, "query.page: Input should be greater than or equal to 1"),
])
def test_the_list_refuses_bad_parameters(api_as: Any, params: dict[str, Any], message: str) -> None:
    response = api_as(None).get("/api/tournaments", **params)
    assert response.status_code == 422 and response.json()["error"] == message


def test_a_wrong_token_is_refused_even_where_none_is_needed(client: Any) -> None:
    response = client.get("/api/tournaments", headers={"Authorization": "Bearer acew_typo"}, HTTP_HOST="localhost")
    assert response.status_code == 401 and response.json()["error"] == "unknown or revoked token"


def test_the_details_of_a_tournament(tournament: Make, players: Any, api_as: Any, alice: Any) -> None:
    t = tournament(name="Winter Swiss", rules="rhombus", format=Tournament.Format.SWISS, rounds=7, rated=False,
                   time_control="3d", bots_allowed=True, max_players=30, tiebreaks="BH-C1,SB", description="Cold.")
    for user in players(2):
        entering.join(t.pk, user)
    Tournament.objects.filter(pk=t.pk).update(min_rating=1200, max_rating=2000, min_rated_games=5)
    response = api_as(alice, "read").get(f"/api/tournaments/{t.pk}")
    assert response.status_code == 200
    body = response.json()
    assert {key: body[key] for key in ("name", "rules", "game", "format", "time_control", "rated", "status",
                                       "rounds_planned", "current_round", "organizer", "entries", "description")} \
        == {"name": "Winter Swiss", "rules": "rhombus", "game": "Rhombus", "format": "swiss", "time_control": "3d",
            "rated": False, "status": "upcoming", "rounds_planned": 7, "current_round": 0, "organizer": "olga",
            "entries": 2, "description": "Cold."}
    assert body["conditions"] == {"min_rating": 1200, "max_rating": 2000, "min_rated_games": 5,
                                  "min_account_days": 0, "bots_allowed": True, "max_players": 30,
                                  "registration_closes_at": None, "check_in_minutes": 0}
    assert body["tiebreaks"] == [{"code": "BH-C1", "label": "Buchholz cut 1"},
                                 {"code": "SB", "label": "Sonneborn-Berger"}]
    assert body["starts_at"].startswith(t.starts_at.strftime("%Y-%m-%dT%H:%M")) and body["registration_open"]


@pytest.mark.parametrize("path", ["", "/entries", "/standings", "/pairings", "/trf"])
def test_an_unknown_tournament_is_a_404(api_as: Any, path: str) -> None:
    response = api_as(None).get(f"/api/tournaments/12{path}")
    assert response.status_code == 404 and response.json()["error"] == "no tournament 12"


def test_the_entries_with_their_ids_and_who_left(tournament: Make, players: Any, api_as: Any) -> None:
    t = started(tournament, players, 3)
    leaver = Entry.objects.get(tournament=t, number=3)
    entering.withdraw(t.pk, leaver.user)
    body = api_as(None).get(f"/api/tournaments/{t.pk}/entries").json()
    assert [(e["number"], e["username"], e["active"]) for e in body] == [
        (1, "p01", True), (2, "p02", True), (3, "p03", False)]
    assert body[2]["withdrawn_why"] == "withdrew" and body[0]["id"] == Entry.objects.get(number=1).pk


# --- Standings, pairings, TRF ------------------------------------------------


def test_standings_with_the_tiebreaks_the_organizer_chose(tournament: Make, players: Any, api_as: Any) -> None:
    t = started(tournament, players, 4, tiebreaks="SB,WON")
    play_round(t, lambda p: "red")
    response = api_as(None).get(f"/api/tournaments/{t.pk}/standings")
    assert response.status_code == 200
    body = response.json()
    assert body["tiebreaks"] == [{"code": "SB", "label": "Sonneborn-Berger"}, {"code": "WON", "label": "Games won"}]
    lines = body["standings"]
    winners = {Pairing.objects.get(round__tournament=t, board=board).red.user.username for board in (1, 2)}
    assert {line["username"] for line in lines[:2]} == winners
    assert [line["score"] for line in lines] == [1.0, 1.0, 0.0, 0.0]
    assert [line["rank"] for line in lines] == [1, 1, 3, 3]
    assert [line["tiebreaks"] for line in lines] == [[0.0, 1.0], [0.0, 1.0], [0.0, 0.0], [0.0, 0.0]]
    assert (body["page"], body["pages"]) == (1, 1)
    advancing.advance(t.pk)
    t = Tournament.objects.get(pk=t.pk)
    play_round(t, lambda p: "black")
    after_two = api_as(None).get(f"/api/tournaments/{t.pk}/standings").json()["standings"]
    site = tiebreaks.standings(scoring.trf_players(t), ["SB", "WON"], round_robin=True)
    assert [(line["rank"], line["number"], line["score"], line["tiebreaks"]) for line in after_two] == [
        (s.rank, s.player.number, float(s.points), [float(v) for v in s.tiebreaks]) for s in site]
    assert any(line["tiebreaks"][0] not in (0.0, None) for line in after_two)  # Sonneborn-Berger has grown


def test_an_elimination_lists_its_settled_places(tournament: Make, players: Any, api_as: Any) -> None:
    t = started(tournament, players, 2, format=Tournament.Format.SINGLE)
    assert api_as(None).get(f"/api/tournaments/{t.pk}/standings").json()["standings"] == []
    play_round(t, lambda p: "black")
    advancing.advance(t.pk)
    body = api_as(None).get(f"/api/tournaments/{t.pk}/standings").json()
    loser_first = Pairing.objects.get(round__tournament=t)
    assert [(line["rank"], line["username"], line["score"]) for line in body["standings"]] == [
        (1, loser_first.black.user.username, None), (2, loser_first.red.user.username, None)]
    assert body["tiebreaks"] == [] and Tournament.objects.get(pk=t.pk).status == "finished"


def test_pairings_name_the_seats_the_players_sit_in(tournament: Make, players: Any, api_as: Any) -> None:
    t = started(tournament, players, 4, rules="rhombus")
    body = api_as(None).get(f"/api/tournaments/{t.pk}/pairings").json()
    assert (body["round"], body["round_status"], body["rounds"]) == (1, "running", 1)
    assert len(body["pairings"]) == 2
    for board in body["pairings"]:
        game = Game.objects.get(pk=board["game_id"])
        sitting = {seat.name: seat.user.username for seat in game.table}
        assert {p["seat"]: p["username"] for p in board["players"]} == sitting
        assert [p["seat"] for p in board["players"]] == ["SW", "NE"] and board["result"] is None


def test_pairings_of_an_earlier_round_with_their_results(tournament: Make, players: Any, api_as: Any) -> None:
    t = started(tournament, players, 3)
    play_round(t, lambda p: "black")
    advancing.advance(t.pk)
    body = api_as(None).get(f"/api/tournaments/{t.pk}/pairings", round=1).json()
    assert (body["round"], body["round_status"], body["rounds"]) == (1, "finished", 2)
    results = sorted((len(p["players"]), p["result"]) for p in body["pairings"])
    assert results == [(1, "bye"), (2, "0-1")]  # three players: one sits out each round
    for board in body["pairings"]:  # a bye's lone player sits in the first seat
        assert [p["seat"] for p in board["players"]] == ["red", "black"][:len(board["players"])]
    assert api_as(None).get(f"/api/tournaments/{t.pk}/pairings").json()["round"] == 2


def test_pairings_refuse_a_round_not_paired(tournament: Make, players: Any, api_as: Any) -> None:
    t = tournament()
    assert api_as(None).get(f"/api/tournaments/{t.pk}/pairings").json()["pairings"] == []
    t = started(tournament, players, 4)
    response = api_as(None).get(f"/api/tournaments/{t.pk}/pairings", round=2)
    assert response.status_code == 404
    assert response.json()["error"] == f"round 2 of tournament {t.pk} has not been paired"
    zero = api_as(None).get(f"/api/tournaments/{t.pk}/pairings", round=0)
    assert zero.status_code == 422 and zero.json()["error"] == "query.round: Input should be greater than or equal to 1"


def test_the_trf_is_plain_text_that_reads_back(tournament: Make, players: Any, api_as: Any) -> None:
    t = started(tournament, players, 4)
    play_round(t, lambda p: "red")
    response = api_as(None).get(f"/api/tournaments/{t.pk}/trf")
    assert response.status_code == 200 and response["Content-Type"] == "text/plain; charset=utf-8"
    back = trf.read(response.content.decode())
    assert back.name == "Autumn Cup" and back.total_rounds == 3
    assert {p.number: p.points for p in back.players} == {p.number: p.points for p in scoring.trf_players(t)}


def test_an_elimination_has_no_trf(tournament: Make, api_as: Any) -> None:
    t = tournament(format=Tournament.Format.DOUBLE)
    response = api_as(None).get(f"/api/tournaments/{t.pk}/trf")
    assert response.status_code == 400 and response.json()["error"] == "elimination tournaments have no TRF"


def test_the_spec_documents_the_trf_as_text() -> None:
    from api.main import api

    operation = api.get_openapi_schema()["paths"]["/api/tournaments/{tournament_id}/trf"]["get"]
    assert operation["responses"][200]["content"] == {"text/plain": {"schema": {"type": "string"}}}
    assert "TRF-16" in operation["description"]


# --- Joining and withdrawing -------------------------------------------------


def test_a_player_joins_and_withdraws(tournament: Make, alice: Any, api_as: Any) -> None:
    t = tournament()
    client = api_as(alice, "play")
    joined = client.post(f"/api/tournaments/{t.pk}/join")
    assert joined.status_code == 200
    entry = Entry.objects.get(tournament=t, user=alice)
    assert joined.json() == {"id": entry.pk, "tournament_id": t.pk, "username": "alice", "bot": False, "number": None,
                             "rating": entry.rating, "active": True, "withdrawn_why": ""}
    left = client.post(f"/api/tournaments/{t.pk}/withdraw")
    assert left.status_code == 200 and left.json()["id"] is None and left.json()["active"] is False
    assert not Entry.objects.exists()  # before the start an entry is simply gone


def test_withdrawing_after_the_start_keeps_the_entry(tournament: Make, players: Any, api_as: Any) -> None:
    t = started(tournament, players, 4)
    player = Entry.objects.get(tournament=t, number=1).user
    left = api_as(player, "play").post(f"/api/tournaments/{t.pk}/withdraw").json()
    assert (left["active"], left["withdrawn_why"], left["number"]) == (False, "withdrew", 1)
    assert Entry.objects.get(tournament=t, number=1).withdrawn_at is not None


@pytest.mark.parametrize("verb", ["join", "withdraw"])
@pytest.mark.parametrize(("scopes", "status", "message"), [
    ((), 401, "send a personal access token"),
    (("read",), 403, "this token lacks the 'play' scope"),
    (("tournament:write",), 403, "this token lacks the 'play' scope"),
])
def test_joining_and_withdrawing_need_a_play_token(tournament: Make, alice: Any, bob: Any, api_as: Any, verb: str,
                                                   scopes: tuple[str, ...], status: int, message: str) -> None:
    t = tournament()
    entering.join(t.pk, bob)
    client = api_as(bob if verb == "withdraw" else alice, *scopes) if scopes else api_as(None)
    before = state(t)
    response = client.post(f"/api/tournaments/{t.pk}/{verb}")
    assert response.status_code == status and message in response.json()["error"]
    assert state(t) == before and list(Entry.objects.values_list("user__username", flat=True)) == ["bob"]


def test_join_refusals_say_why_and_change_nothing(tournament: Make, players: Any, api_as: Any) -> None:
    t = tournament(min_rating=1895)
    strong, weak = players(2)  # rated 1900 and 1890
    assert api_as(strong, "play").post(f"/api/tournaments/{t.pk}/join").status_code == 200
    before = state(t)
    again = api_as(strong, "play").post(f"/api/tournaments/{t.pk}/join")
    assert again.status_code == 400 and again.json()["error"] == "you have already joined"
    low = api_as(weak, "play").post(f"/api/tournaments/{t.pk}/join")
    assert low.status_code == 400
    assert low.json()["error"] == "you cannot join: your rating 1890 is below the minimum 1895"
    for verb in ("join", "withdraw"):
        unknown = api_as(strong, "play").post(f"/api/tournaments/999/{verb}")
        assert unknown.status_code == 404 and unknown.json()["error"] == "no tournament 999"
    assert state(t) == before and Entry.objects.count() == 1


def test_withdrawing_when_not_in_it_is_refused(tournament: Make, players: Any, alice: Any, api_as: Any) -> None:
    t = started(tournament, players, 2)
    before = state(t)
    response = api_as(alice, "play").post(f"/api/tournaments/{t.pk}/withdraw")
    assert response.status_code == 400 and response.json()["error"] == "you are not in this tournament"
    assert state(t) == before


# --- Organizers: create ------------------------------------------------------


def swiss_settings(**changes: Any) -> dict[str, Any]:
    starts = (timezone.now() + timedelta(days=1)).replace(microsecond=0)
    return {"name": "Winter Swiss", "format": "swiss", "rounds": 5, "time_control": "3+2",
            "starts_at": starts.isoformat(), "tiebreaks": "bh-c1, BH, SB", **changes}


def test_an_organizer_creates_a_tournament(organizer: Any, api_as: Any) -> None:
    response = api_as(organizer, "tournament:write").post("/api/tournaments", swiss_settings())
    assert response.status_code == 200
    t = Tournament.objects.get()
    assert (t.organizer, t.name, t.rounds, t.time_control, t.tiebreaks) == (
        organizer, "Winter Swiss", 5, "3+2", "BH-C1,BH,SB")
    # What was left out has the site's defaults.
    assert (t.rules, t.rated, t.max_players, t.seeding, t.pause_seconds) == ("ace-in-the-hole", True, 64, "rating", 60)
    body = response.json()
    assert body["id"] == t.pk and body["status"] == "upcoming" and body["rounds_planned"] == 5


@pytest.mark.parametrize(("changes", "message"), [
    ({"rounds": None}, "body.rounds: a Swiss needs its number of rounds"),
    ({"time_control": "7+7"}, "body.time_control: Input should be '1+0', '3+2', '5+3', '10+5', '1d', '3d' or '7d'"),
    ({"tiebreaks": "BH,XYZ"}, "body.tiebreaks: unknown tiebreak XYZ"),
    ({"name": ""}, "body.name: String should have at least 1 character"),
    ({"max_players": "many"}, "body.max_players: Input should be a valid integer"),
])
def test_bad_settings_are_a_422_and_make_nothing(organizer: Any, api_as: Any, changes: dict[str, Any],
                                                 message: str) -> None:
    response = api_as(organizer, "tournament:write").post("/api/tournaments", swiss_settings(**changes))
    assert response.status_code == 422
    assert response.json()["error"].startswith(message)
    assert not Tournament.objects.exists()


def test_every_form_error_is_in_the_detail(organizer: Any, api_as: Any) -> None:
    response = api_as(organizer, "tournament:write").post(
        "/api/tournaments", swiss_settings(rounds=None, min_rating=1800, max_rating=1500))
    assert {(tuple(e["loc"]), e["msg"]) for e in response.json()["detail"]} == {
        (("body", "rounds"), "a Swiss needs its number of rounds"),
        (("body", "max_rating"), "the maximum rating is below the minimum")}


@pytest.mark.parametrize(("who", "scopes", "status", "message"), [
    ("organizer", (), 401, "send a personal access token"),
    ("organizer", ("play",), 403, "this token lacks the 'tournament:write' scope"),
    ("alice", ("tournament:write",), 403, "only organizers create tournaments"),
])
def test_only_an_organizers_write_token_creates(request: Any, api_as: Any, organizer: Any, who: str,
                                                scopes: tuple[str, ...], status: int, message: str) -> None:
    user = request.getfixturevalue(who) if scopes else None
    response = api_as(user, *scopes).post("/api/tournaments", swiss_settings())
    assert response.status_code == status and message in response.json()["error"]
    assert not Tournament.objects.exists()


# --- Organizers: start, pause, resume ----------------------------------------


def test_the_organizer_starts_pauses_and_resumes(tournament: Make, players: Any, organizer: Any,
                                                 api_as: Any) -> None:
    t = tournament(format=Tournament.Format.SWISS, rounds=3)
    for user in players(4):
        entering.join(t.pk, user)
    client = api_as(organizer, "tournament:write")
    began = client.post(f"/api/tournaments/{t.pk}/start")
    assert began.status_code == 200
    assert (began.json()["status"], began.json()["current_round"]) == ("running", 1)
    assert Pairing.objects.filter(round__tournament=t).count() == 2
    assert client.post(f"/api/tournaments/{t.pk}/pause").json()["status"] == "paused"
    assert Tournament.objects.get(pk=t.pk).status == "paused"
    assert client.post(f"/api/tournaments/{t.pk}/resume").json()["status"] == "running"
    assert Tournament.objects.get(pk=t.pk).status == "running"


@pytest.mark.parametrize("verb", ["start", "pause", "resume"])
def test_only_the_organizer_runs_the_tournament(tournament: Make, players: Any, rival: Any, api_as: Any,
                                                verb: str) -> None:
    t = started(tournament, players, 2) if verb != "start" else tournament()
    if verb == "resume":
        organizing.pause(t.pk, t.organizer)
    before = state(t)
    refused = api_as(rival, "tournament:write").post(f"/api/tournaments/{t.pk}/{verb}")
    assert refused.status_code == 403
    assert refused.json()["error"] == "only the tournament's organizer may do that"
    no_scope = api_as(t.organizer, "play", "read").post(f"/api/tournaments/{t.pk}/{verb}")
    assert no_scope.status_code == 403 and "lacks the 'tournament:write' scope" in no_scope.json()["error"]
    no_token = api_as(None).post(f"/api/tournaments/{t.pk}/{verb}")
    assert no_token.status_code == 401
    unknown = api_as(t.organizer, "tournament:write").post(f"/api/tournaments/999/{verb}")
    assert unknown.status_code == 404 and unknown.json()["error"] == "no tournament 999"
    assert state(t) == before


@pytest.mark.parametrize(("verb", "message"), [
    ("start", "the tournament has already started"),
    ("resume", "the tournament is not paused"),
])
def test_running_refusals_are_400s_in_words(tournament: Make, players: Any, api_as: Any, verb: str,
                                            message: str) -> None:
    t = started(tournament, players, 2)
    before = state(t)
    response = api_as(t.organizer, "tournament:write").post(f"/api/tournaments/{t.pk}/{verb}")
    assert response.status_code == 400 and response.json()["error"] == message
    assert state(t) == before


def test_pausing_twice_is_refused(tournament: Make, players: Any, api_as: Any) -> None:
    t = started(tournament, players, 2)
    client = api_as(t.organizer, "tournament:write")
    client.post(f"/api/tournaments/{t.pk}/pause")
    before = state(t)
    again = client.post(f"/api/tournaments/{t.pk}/pause")
    assert again.status_code == 400
    assert again.json()["error"] == "only a running tournament can be paused; this one is paused"
    assert state(t) == before


# --- Organizers: remove a player ---------------------------------------------


def test_the_organizer_removes_a_player_with_a_reason(tournament: Make, players: Any, api_as: Any) -> None:
    t = started(tournament, players, 4)
    entry = Entry.objects.get(tournament=t, number=2)
    response = api_as(t.organizer, "tournament:write").post(
        f"/api/tournaments/{t.pk}/entries/{entry.pk}/remove", {"reason": "  abusive chat "})
    assert response.status_code == 200
    assert response.json()["active"] is False
    entry.refresh_from_db()
    assert entry.withdrawn_at is not None and entry.withdrawn_why == "removed by the organizer: abusive chat"


def test_the_longest_reason_fits_the_entry(tournament: Make, players: Any, api_as: Any) -> None:
    t = started(tournament, players, 2)
    entry = Entry.objects.get(tournament=t, number=1)
    client = api_as(t.organizer, "tournament:write")
    assert client.post(f"/api/tournaments/{t.pk}/entries/{entry.pk}/remove", {"reason": "x" * 80}).status_code == 200
    entry.refresh_from_db()
    assert len(entry.withdrawn_why) <= Entry._meta.get_field("withdrawn_why").max_length


def test_removal_refusals(tournament: Make, players: Any, rival: Any, api_as: Any) -> None:
    t = started(tournament, players, 3)
    entry = Entry.objects.get(tournament=t, number=1)
    organizing.remove_player(t.pk, t.organizer, Entry.objects.get(tournament=t, number=3).pk, "gone")
    gone = Entry.objects.get(tournament=t, number=3)
    before = state(t)
    organizer = api_as(t.organizer, "tournament:write")
    path = f"/api/tournaments/{t.pk}/entries/{{}}/remove"
    cases = [
        (api_as(rival, "tournament:write").post(path.format(entry.pk), {"reason": "x"}),
         403, "only the tournament's organizer may do that"),
        (organizer.post(path.format(999), {"reason": "x"}), 404, f"no entry 999 in tournament {t.pk}"),
        (organizer.post(path.format(gone.pk), {"reason": "x"}), 400, "that player is not in the tournament"),
        (organizer.post(path.format(entry.pk), {"reason": "x" * 81}), 422,
         "body.reason: String should have at most 80 characters"),
        (organizer.post(f"/api/tournaments/999/entries/{entry.pk}/remove", {"reason": "x"}),
         404, "no tournament 999"),
    ]
    for response, status, message in cases:
        assert (response.status_code, response.json()["error"]) == (status, message)
    assert state(t) == before and Entry.objects.get(pk=entry.pk).active


# --- Organizers: adjudicate --------------------------------------------------


def test_the_organizer_adjudicates_a_game(tournament: Make, players: Any, api_as: Any) -> None:
    t = started(tournament, players, 4)
    pairing = Pairing.objects.get(round__tournament=t, board=1)
    response = api_as(t.organizer, "tournament:write").post(
        f"/api/tournaments/{t.pk}/pairings/{pairing.pk}/adjudicate", {"winner": "black", "note": "Red's line dropped"})
    assert response.status_code == 200
    assert (response.json()["id"], response.json()["result"]) == (pairing.pk, "0-1")
    game = Game.objects.get(pk=pairing.game_id)
    assert (game.reason, game.winner, game.adjudication_note) == (Game.Reason.ADJUDICATION, "black",
                                                                 "Red's line dropped")


def test_a_draw_by_adjudication(tournament: Make, players: Any, api_as: Any) -> None:
    t = started(tournament, players, 2)
    pairing = Pairing.objects.get(round__tournament=t)
    response = api_as(t.organizer, "tournament:write").post(
        f"/api/tournaments/{t.pk}/pairings/{pairing.pk}/adjudicate", {"winner": None, "note": "both agreed"})
    assert response.json()["result"] == "1/2" and Pairing.objects.get(pk=pairing.pk).result == "1/2"


def test_adjudication_refusals(tournament: Make, players: Any, rival: Any, api_as: Any) -> None:
    t = started(tournament, players, 3)  # three players: one board and one bye
    game_board = Pairing.objects.get(round__tournament=t, black__isnull=False)
    bye = Pairing.objects.get(round__tournament=t, black__isnull=True)
    before = state(t)
    organizer = api_as(t.organizer, "tournament:write")
    path = f"/api/tournaments/{t.pk}/pairings/{{}}/adjudicate"
    cases = [
        (api_as(rival, "tournament:write").post(path.format(game_board.pk), {"winner": "red", "note": "x"}),
         403, "only the tournament's organizer may do that"),
        (api_as(t.organizer, "play").post(path.format(game_board.pk), {"winner": "red", "note": "x"}),
         403, "this token lacks the 'tournament:write' scope (its scopes: play)"),
        (organizer.post(path.format(game_board.pk), {"winner": "green", "note": "x"}),
         422, "body.winner: Input should be 'red', 'black', 'SW', 'SE', 'NE' or 'NW'"),
        (organizer.post(path.format(game_board.pk), {"winner": "SW", "note": "x"}),
         400, "the winner is one of red, black or nobody (a draw), not 'SW'"),
        (organizer.post(path.format(game_board.pk), {"winner": "red", "note": " "}),
         400, "an adjudication needs a written reason"),
        (organizer.post(path.format(game_board.pk), {"winner": "red"}), 422, "body.note: Field required"),
        (organizer.post(path.format(bye.pk), {"winner": "red", "note": "x"}),
         400, "there is no such game in this tournament"),
        (organizer.post(path.format(999), {"winner": "red", "note": "x"}), 404, f"no pairing 999 in tournament {t.pk}"),
    ]
    for response, status, message in cases:
        assert (response.status_code, response.json()["error"]) == (status, message)
    assert state(t) == before
    assert Game.objects.get(pk=game_board.game_id).status == Game.Status.RUNNING


def test_bots_are_flagged_in_entries_standings_and_pairings(
        tournament: Make, players: Any, api_as: Any, django_user_model: Any) -> None:
    robo = django_user_model.objects.create_user("robo")
    bot_accounts.make_api_bot(robo)
    t = tournament(bots_allowed=True, rounds=2)
    people = players(3)
    for user in [*people, robo]:
        entering.join(t.pk, user)
    bots.forget_bot_levels()  # the flag comes from the cached bot list
    entries = api_as(None).get(f"/api/tournaments/{t.pk}/entries")
    assert entries.status_code == 200, entries.content
    flagged = {e["username"]: e["bot"] for e in entries.json()}
    assert flagged == {"p01": False, "p02": False, "p03": False, "robo": True}
    organizing.start_early(t.pk, t.organizer)
    standings = api_as(None).get(f"/api/tournaments/{t.pk}/standings").json()["standings"]
    assert {line["username"]: line["bot"] for line in standings} == flagged
    boards = api_as(None).get(f"/api/tournaments/{t.pk}/pairings").json()["pairings"]
    assert {p["username"]: p["bot"] for board in boards for p in board["players"]} == flagged
