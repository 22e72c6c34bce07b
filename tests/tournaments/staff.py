"""Fixtures for correcting tournaments in the admin: the organizer as staff, a
moderator, a superuser, and a finished round robin to correct. Imported by the
test modules that use them."""

from __future__ import annotations

from typing import Any

import pytest

from tournaments.models import Tournament
from tests.helpers import staff_group
from tests.tournaments.finished import finished


@pytest.fixture
def olga(organizer: Any) -> Any:
    """The organizer (tests.tournaments.conftest), staff so that she may use the admin."""
    organizer.is_staff = True
    organizer.save(update_fields=["is_staff"])
    return organizer


@pytest.fixture
def moderator(django_user_model: Any) -> Any:
    user = django_user_model.objects.create_user("mod", "mod@example.org", is_staff=True)
    user.groups.add(staff_group("Moderators"))
    return user


@pytest.fixture
def root(django_user_model: Any) -> Any:
    return django_user_model.objects.create_superuser("root", "root@example.org", "pw")


@pytest.fixture
def cup(olga: Any, tournament: Any, players: Any) -> Tournament:
    """A finished round robin of p01..p04, the lower number winning every game:
    p01 first with 3 points, p02 2, p03 1, p04 0 (p01 is the cheater where one is needed)."""
    return finished(tournament, players(4), Tournament.Format.ROUND_ROBIN)
