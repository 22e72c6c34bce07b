"""Each format's own default tiebreaks (issue 22, finding 10): a round robin
breaks ties by Sonneborn-Berger, then direct encounter, then games won, as
FIDE advises for round robins (C.07); a Swiss keeps Buchholz cut 1, Buchholz,
Sonneborn-Berger. An organizer's own order is kept as given."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.apps import apps
from django.test import Client
from django.utils import timezone

from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

Make = Callable[..., Tournament]


def test_a_round_robin_gets_sonneborn_berger_direct_encounter_and_wins_by_default(tournament: Make) -> None:
    assert tournament(format=Tournament.Format.ROUND_ROBIN).tiebreak_codes == ["SB", "DE", "WON"]
    assert tournament(format=Tournament.Format.SWISS, rounds=5).tiebreak_codes == ["BH-C1", "BH", "SB"]
    assert tournament(format=Tournament.Format.ROUND_ROBIN, tiebreaks="BH,SB").tiebreak_codes == ["BH", "SB"]


def test_the_form_left_blank_gives_the_round_robin_its_default(organizer: Any) -> None:
    client = Client()
    client.force_login(organizer)
    starts = (timezone.now() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    form = {"name": "Club Round Robin", "format": "round-robin", "time_control": "3+2", "rated": "on",
            "starts_at": starts, "max_players": 8, "min_rated_games": 0, "min_account_days": 0,
            "check_in_minutes": 0, "seeding": "rating", "match_length": 1, "pause_seconds": 30, "tiebreaks": ""}
    response = client.post("/tournaments/new/", form)
    assert response.status_code == 302, response.content.decode()
    assert Tournament.objects.get().tiebreaks == "SB,DE,WON"


def test_existing_round_robins_with_the_old_default_move_to_the_new_one(tournament: Make) -> None:
    old_default = tournament(format=Tournament.Format.ROUND_ROBIN)
    chosen = tournament(format=Tournament.Format.ROUND_ROBIN)
    swiss = tournament(format=Tournament.Format.SWISS, rounds=5)
    Tournament.objects.filter(pk=old_default.pk).update(tiebreaks="BH-C1,BH,SB")
    Tournament.objects.filter(pk=chosen.pk).update(tiebreaks="BH,ARO")
    migration = importlib.import_module("tournaments.migrations.0004_tiebreaks_by_format")
    migration.round_robins_to_their_default(apps, None)
    assert dict(Tournament.objects.values_list("pk", "tiebreaks")) == {
        old_default.pk: "SB,DE,WON", chosen.pk: "BH,ARO", swiss.pk: "BH-C1,BH,SB"}
