"""Tournament pages through Django's test client: the list, the organizer's
form and buttons, joining and withdrawing, standings with tiebreaks, the
crosstable, the bracket picture, the TRF download, and the query count."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any
from xml.etree import ElementTree

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tournaments import advancing, entering, organizing, scoring, trf
from tournaments.models import Entry, Tournament
from tests.tournaments.conftest import play_round
from tests.helpers import client_for

pytestmark = pytest.mark.django_db

Make = Callable[..., Tournament]


def test_the_list_shows_upcoming_running_and_finished(tournament: Make) -> None:
    tournament(name="Next week")
    tournament(name="On now", status=Tournament.Status.RUNNING, current_round=2)
    tournament(name="Done", status=Tournament.Status.FINISHED, finished_at=timezone.now())
    page = Client().get("/tournaments/").content.decode()
    assert page.index("On now") < page.index("Next week") < page.index("Done")
    assert "round 2" in page and "New tournament" not in page


def test_an_organizer_creates_a_tournament_with_the_form(organizer: Any) -> None:
    client = client_for(organizer)
    assert "New tournament" in client.get("/tournaments/").content.decode()
    starts = (timezone.now() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    form = {"name": "Winter Swiss", "format": "swiss", "time_control": "3+2", "rated": "on", "starts_at": starts,
            "max_players": 100, "min_rated_games": 0, "min_account_days": 0, "check_in_minutes": 0,
            "seeding": "rating", "rounds": 7, "match_length": 1, "pause_seconds": 30,
            "tiebreaks": "bh-c1, BH, SB"}
    response = client.post("/tournaments/new/", form)
    t = Tournament.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/tournaments/{t.pk}/"
    assert (t.organizer, t.rounds, t.time_control, t.tiebreaks) == (organizer, 7, "3+2", "BH-C1,BH,SB")


def test_the_form_refuses_bad_settings_and_saves_nothing(organizer: Any) -> None:
    starts = (timezone.now() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    form = {"name": "Bad", "format": "swiss", "time_control": "3+2", "starts_at": starts, "max_players": 10,
            "min_rated_games": 0, "min_account_days": 0, "check_in_minutes": 0, "seeding": "rating",
            "match_length": 1, "pause_seconds": 30, "tiebreaks": "BH,XYZ", "min_rating": 1800, "max_rating": 1500}
    page = client_for(organizer).post("/tournaments/new/", form).content.decode()
    assert "a Swiss needs its number of rounds" in page
    assert "unknown tiebreak XYZ" in page
    assert "the maximum rating is below the minimum" in page
    assert not Tournament.objects.exists()


def test_a_player_who_is_no_organizer_cannot_create_or_run_one(tournament: Make, players: Any) -> None:
    player = players(1)[0]
    t = tournament()
    client = client_for(player)
    assert client.get("/tournaments/new/").status_code == 403
    response = client.post(f"/tournaments/{t.pk}/start/", follow=True)
    assert "Only the tournament&#x27;s organizer may do that" in response.content.decode()
    assert Tournament.objects.get(pk=t.pk).status == "upcoming"


def test_joining_and_withdrawing_from_the_page(tournament: Make, players: Any) -> None:
    t = tournament()
    player = players(1)[0]
    client = client_for(player)
    page = client.post(f"/tournaments/{t.pk}/join/", follow=True).content.decode()
    assert "You have joined." in page and "Withdraw" in page
    page = client.post(f"/tournaments/{t.pk}/withdraw/", {"confirmed": "yes"}, follow=True).content.decode()
    assert "You have withdrawn." in page and not Entry.objects.exists()


def round_robin_played(tournament: Make, players: Any, count: int) -> Tournament:
    t = tournament(format=Tournament.Format.ROUND_ROBIN, starts_at=timezone.now(), tiebreaks="SB,WON")
    for user in players(count):
        entering.join(t.pk, user)
    advancing.advance(t.pk)
    play_round(Tournament.objects.get(pk=t.pk), lambda p: "red")
    return Tournament.objects.get(pk=t.pk)


def test_standings_show_each_tiebreak_and_the_crosstable(tournament: Make, players: Any) -> None:
    t = round_robin_played(tournament, players, 4)
    page = Client().get(f"/tournaments/{t.pk}/").content.decode()
    assert "Sonneborn-Berger" in page and "Games won" in page
    assert 'id="crosstable"' in page and "4w1" in page  # 1 beat 4 with Red in round 1 (Berger: 1-4)


def test_the_trf_download_reads_back_as_the_same_results(tournament: Make, players: Any) -> None:
    t = round_robin_played(tournament, players, 4)
    response = Client().get(f"/tournaments/{t.pk}/trf/")
    assert response["Content-Disposition"] == f'attachment; filename="tournament-{t.pk}.trf"'
    back = trf.read(response.content.decode())
    assert back.total_rounds == 3
    assert {p.number: p.points for p in back.players} == {p.number: p.points for p in scoring.trf_players(t)}


def test_an_elimination_page_draws_its_bracket(tournament: Make, players: Any) -> None:
    t = tournament(format=Tournament.Format.DOUBLE, starts_at=timezone.now())
    for user in players(6):
        entering.join(t.pk, user)
    advancing.advance(t.pk)
    page = Client().get(f"/tournaments/{t.pk}/").content.decode()
    svg = page[page.index("<svg"):page.index("</svg>") + 6]
    tree = ElementTree.fromstring(svg)
    matches = {g.get("data-match") for g in tree.iter("{http://www.w3.org/2000/svg}g") if g.get("data-match")}
    assert {"W1-2", "GF", "GF2"} <= matches
    assert "/games/" in svg  # the matches being played link to their games
    assert Client().get(f"/tournaments/{t.pk}/trf/").status_code == 403


def test_the_page_costs_the_same_queries_for_10_or_40_players(tournament: Make, players: Any) -> None:
    counts = []
    for size in (10, 40):
        t = tournament(format=Tournament.Format.ROUND_ROBIN, starts_at=timezone.now())
        for user in players(size):
            entering.join(t.pk, user)
        advancing.advance(t.pk)
        play_round(Tournament.objects.get(pk=t.pk), lambda p: "black")
        with CaptureQueriesContext(connection) as queries:
            assert Client().get(f"/tournaments/{t.pk}/").status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_the_profile_lists_the_players_tournaments(tournament: Make, players: Any) -> None:
    t = tournament(name="Spring Open")
    player = players(1)[0]
    entering.join(t.pk, player)
    page = Client().get(f"/@/{player.username}/").content.decode()
    assert "Spring Open" in page and f'href="/tournaments/{t.pk}/"' in page


def test_standings_come_a_hundred_a_page_and_rounds_one_at_a_time(tournament: Make, players: Any) -> None:
    t = tournament(format=Tournament.Format.SWISS, rounds=3, starts_at=timezone.now(), max_players=200)
    for user in players(120):
        entering.join(t.pk, user)
    advancing.advance(t.pk)
    play_round(Tournament.objects.get(pk=t.pk), lambda p: "red")
    advancing.advance(t.pk)
    first = Client().get(f"/tournaments/{t.pk}/").content.decode()
    second = Client().get(f"/tournaments/{t.pk}/live/?page=2&round=1").content.decode()
    assert "Page 1 of 2" in first and first.count('<tr data-player="') == 100
    assert "Page 2 of 2" in second and second.count('<tr data-player="') == 20
    assert 'data-round="2"' in first and 'data-round="1"' in second  # the current round, or the one asked for
    assert first.count('<tr data-board="') == 60


def test_the_organizer_sets_the_seeding_order_on_the_page(tournament: Make, players: Any, organizer: Any) -> None:
    t = tournament(format=Tournament.Format.ROUND_ROBIN, seeding=Tournament.Seeding.MANUAL)
    users = players(3)
    for user in users:
        entering.join(t.pk, user)
    entries = {e.user.username: e.pk for e in Entry.objects.select_related("user")}
    client = client_for(organizer)
    page = client.post(f"/tournaments/{t.pk}/seeds/", {f"seed-{entries['p03']}": "1", f"seed-{entries['p02']}": "2",
                                                        f"seed-{entries['p01']}": ""}, follow=True).content.decode()
    assert "Seeding order saved." in page
    organizing.start_early(t.pk, organizer)
    assert dict(Entry.objects.values_list("user__username", "number")) == {"p03": 1, "p02": 2, "p01": 3}
    refused = client.post(f"/tournaments/{t.pk}/seeds/", {f"seed-{entries['p01']}": "1"}, follow=True)
    assert "The seeding is fixed once the tournament has started" in refused.content.decode()


PAST_BIGINT = "99999999999999999999999"  # issue 35, 11


@pytest.mark.parametrize(("fields", "said"), [
    ({"seed-{p01}": PAST_BIGINT}, "A seed is a place in the field, from 1 to 3"),
    ({"seed-{p01}": "4"}, "A seed is a place in the field, from 1 to 3"),
    ({"seed-{p01}": "0"}, "A seed is a place in the field, from 1 to 3"),
    ({"seed-{p01}": "first"}, "A seed is a place in the field, from 1 to 3"),
    ({"seed-{p01}": "1", f"seed-{PAST_BIGINT}": "2"}, "Some of those players are not in this tournament"),
])
def test_a_seed_or_entry_no_field_can_hold_is_refused_and_nothing_saved(
        fields: dict[str, str], said: str, tournament: Make, players: Any, organizer: Any) -> None:
    t = tournament(format=Tournament.Format.ROUND_ROBIN, seeding=Tournament.Seeding.MANUAL)
    for user in players(3):
        entering.join(t.pk, user)
    entries = {e.user.username: e.pk for e in Entry.objects.select_related("user")}
    posted = {key.format(**entries): value for key, value in fields.items()}
    page = client_for(organizer).post(f"/tournaments/{t.pk}/seeds/", posted, follow=True)
    assert page.status_code == 200 and said in page.content.decode()
    assert set(Entry.objects.values_list("manual_seed", flat=True)) == {None}


@pytest.mark.parametrize("number", [PAST_BIGINT, "9" * 5000])  # 5000 digits: past what int() reads
def test_a_round_or_page_no_tournament_has_shows_the_current_one(number: str, tournament: Make, players: Any) -> None:
    t = tournament(format=Tournament.Format.ROUND_ROBIN)
    for user in players(4):
        entering.join(t.pk, user)
    organizing.start_early(t.pk, t.organizer)
    for path in (f"/tournaments/{t.pk}/?round={number}&page={number}", f"/tournaments/{t.pk}/live/?round={number}"):
        page = Client().get(path)
        assert page.status_code == 200 and 'data-round="1"' in page.content.decode()


def test_players_or_a_bot_past_bigint_are_refused_as_no_such_players(
        tournament: Make, players: Any, organizer: Any) -> None:
    t = tournament(format=Tournament.Format.SWISS, rounds=3)
    for user in players(2):
        entering.join(t.pk, user)
    first = str(Entry.objects.order_by("pk").values_list("pk", flat=True)[0])
    client = client_for(organizer)
    for pair, said in (((first, PAST_BIGINT), "Choose two players."), ((PAST_BIGINT, PAST_BIGINT), "Choose two players.")):
        page = client.post(f"/tournaments/{t.pk}/forbid/", dict(zip(("first", "second"), pair)), follow=True)
        assert said in page.content.decode()
    page = client.post(f"/tournaments/{t.pk}/invite-bot/", {"bot": PAST_BIGINT}, follow=True)
    assert "Choose one of the site&#x27;s computer players to invite" in page.content.decode()
    assert t.forbidden_pairings.count() == 0 and t.entries.count() == 2


def test_the_organizer_keeps_two_players_apart_on_the_page(tournament: Make, players: Any, organizer: Any) -> None:
    t = tournament(format=Tournament.Format.SWISS, rounds=3)
    for user in players(4):
        entering.join(t.pk, user)
    first, second = Entry.objects.order_by("pk").values_list("pk", flat=True)[:2]
    client = client_for(organizer)
    assert "Never pair these two" in client.get(f"/tournaments/{t.pk}/").content.decode()
    page = client.post(f"/tournaments/{t.pk}/forbid/", {"first": first, "second": second}, follow=True)
    assert "Those two will not be paired." in page.content.decode()
    again = client.post(f"/tournaments/{t.pk}/forbid/", {"first": second, "second": first}, follow=True)
    assert "Those two are already kept apart" in again.content.decode()
    assert t.forbidden_pairings.count() == 1
    outsider = client_for(players(1)[0])
    refused = outsider.post(f"/tournaments/{t.pk}/allow/{t.forbidden_pairings.get().pk}/", follow=True)
    assert "Only the tournament&#x27;s organizer may do that" in refused.content.decode()
    assert t.forbidden_pairings.count() == 1
