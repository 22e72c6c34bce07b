"""The organizer's form (issue 22, finding 15): sections, the settings of the
chosen format, presets, times in the organizer's zone, and every cross-field
check, the same on the site's form and the API's create."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.utils import timezone

from api import tokens
from tournaments.models import Tournament
from tests.api.conftest import ApiClient
from tests.helpers import client_for

pytestmark = pytest.mark.django_db


def in_a_day() -> str:
    return (timezone.now() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")


def swiss(**changes: Any) -> dict[str, Any]:
    return {"name": "Winter Swiss", "format": "swiss", "time_control": "3+2", "rated": "on",
            "starts_at": in_a_day(), "max_players": 16, "min_rated_games": 0, "min_account_days": 0,
            "check_in_minutes": 0, "seeding": "rating", "rounds": 5, "match_length": 1, "pause_seconds": 30,
            "tiebreaks": "BH-C1,BH,SB", **changes}


def refused(organizer: Any, **changes: Any) -> str:
    response = client_for(organizer).post("/tournaments/new/", swiss(**changes))
    assert response.status_code == 200 and not Tournament.objects.exists()
    return response.content.decode()


def test_it_refuses_a_start_in_the_past(organizer: Any) -> None:
    an_hour_ago = (timezone.now() - timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M")
    assert "the start must be in the future" in refused(organizer, starts_at=an_hour_ago)


def test_it_refuses_registration_closing_after_the_start(organizer: Any) -> None:
    later = (timezone.now() + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")
    assert "registration must close by the start" in refused(organizer, registration_closes_at=later)


def test_it_refuses_registration_closing_in_the_past(organizer: Any) -> None:
    past = (timezone.now() - timedelta(minutes=5)).strftime("%Y-%m-%dT%H:%M")
    assert "registration must close in the future" in refused(organizer, registration_closes_at=past)


def test_it_refuses_more_swiss_rounds_than_its_players_can_pair(organizer: Any) -> None:
    page = refused(organizer, max_players=4, rounds=1000)
    assert "a Swiss of at most 4 players has at most 3 rounds" in page


def test_it_refuses_a_tournament_of_one_player(organizer: Any) -> None:
    assert "a tournament needs at least 2 players" in refused(organizer, max_players=1)


def test_it_reads_the_times_in_the_organizers_zone(organizer: Any) -> None:
    response = client_for(organizer).post("/tournaments/new/", swiss(
        time_zone="Europe/Paris", starts_at="2099-01-10T12:00", registration_closes_at="2099-01-10T11:30"))
    assert response.status_code == 302
    t = Tournament.objects.get()
    assert t.starts_at == datetime(2099, 1, 10, 11, 0, tzinfo=UTC)  # 12:00 in Paris in winter
    assert t.registration_closes_at == datetime(2099, 1, 10, 10, 30, tzinfo=UTC)


def test_the_edit_form_writes_the_times_in_the_zone_asked_for(organizer: Any, tournament: Any) -> None:
    t = tournament(starts_at=datetime(2099, 7, 1, 18, 0, tzinfo=UTC))
    page = client_for(organizer).get(f"/tournaments/{t.pk}/edit/?tz=America/New_York").content.decode()
    assert 'value="2099-07-01T14:00"' in page and 'data-zone="America/New_York"' in page
    utc = client_for(organizer).get(f"/tournaments/{t.pk}/edit/").content.decode()
    assert 'value="2099-07-01T18:00"' in utc and "Times are in <span data-zone-label>UTC</span>." in utc


def test_an_unknown_zone_is_read_as_utc(organizer: Any) -> None:
    client_for(organizer).post("/tournaments/new/", swiss(time_zone="Mars/Olympus", starts_at="2099-01-10T12:00"))
    assert Tournament.objects.get().starts_at == datetime(2099, 1, 10, 12, 0, tzinfo=UTC)


def test_the_form_comes_in_sections_with_each_setting_marked_by_format(organizer: Any) -> None:
    page = client_for(organizer).get("/tournaments/new/").content.decode()
    legends = ["Game and time control", "Format", "Schedule", "Entry conditions"]
    positions = [page.index(f"<legend>{legend}</legend>") for legend in legends]
    assert positions == sorted(positions)
    assert page.count('data-formats="swiss"') == 1  # rounds
    assert 'data-formats="double single"' in page  # match length, check-in
    assert 'name="time_zone"' in page and "js/tournament_form.js" in page


def test_a_preset_fills_the_form(organizer: Any) -> None:
    page = client_for(organizer).get("/tournaments/new/?preset=knockout").content.decode()
    assert '<option value="single" selected>' in page
    assert 'name="max_players" value="16"' in page and 'name="check_in_minutes" value="15"' in page


def test_the_settings_of_another_format_go_back_to_their_defaults(organizer: Any) -> None:
    response = client_for(organizer).post("/tournaments/new/", swiss(
        format="single", rounds="abc", tiebreaks="XYZ", double_round_robin="on", match_length=3))
    assert response.status_code == 302
    t = Tournament.objects.get()
    assert (t.rounds, t.double_round_robin, t.match_length, t.tiebreaks) == (None, False, 3, "BH-C1,BH,SB")


def api_create(organizer: Any, **changes: Any) -> Any:
    body = {"name": "Winter Swiss", "format": "swiss", "rounds": 5, "time_control": "3+2",
            "starts_at": (timezone.now() + timedelta(days=1)).isoformat(), **changes}
    return ApiClient(tokens.make(organizer, "test", ["tournament:write"])[1]).post("/api/tournaments", body)


@pytest.mark.parametrize(("changes", "message"), [
    ({"starts_at": "2020-01-01T12:00:00+00:00"}, "body.starts_at: the start must be in the future"),
    ({"max_players": 4, "rounds": 1000}, "body.rounds: a Swiss of at most 4 players has at most 3 rounds"),
    ({"registration_closes_at": "2099-01-01T12:00:00+00:00"}, "body.registration_closes_at: registration must close "
                                                               "by the start"),
])
def test_the_api_refuses_what_the_form_refuses(organizer: Any, changes: dict[str, Any], message: str) -> None:
    response = api_create(organizer, **changes)
    assert response.status_code == 422 and response.json()["error"].startswith(message)
    assert not Tournament.objects.exists()
