"""Every admin list is a small constant number of queries (issue 37, "Lists that
scale"): for each model registered in the admin, the changelist at 100 rows
answers with at most its pinned number of queries, and with exactly as many as
at 10 rows, so no row costs a query of its own (a count per report, a game's
seats per move). A model registered later without a pin and a factory fails."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest
from django.contrib import admin
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ladder.models import RatingCount
from tests.site.admin_rows import FACTORIES

pytestmark = pytest.mark.django_db

# Queries for one changelist page as a superuser (after a first page: the
# session is cached): the user and their language, the two counts, the rows
# and what they show (select_related, or a prefetch of the games' seats), and
# the filters' own lookups (distinct values, a date hierarchy's range). Pinned at what each list takes now: a list that
# grows a query fails here and is looked at.
PINS = {
    "auth.group": 6, "auth.user": 7, "account.emailaddress": 6, "preferences.preference": 6,
    "notify.notification": 6, "notify.preference": 6, "notify.pushsubscription": 6, "notify.sent": 6,
    "relation.follow": 6, "chat.line": 7, "chat.chattimeout": 6, "chat.mute": 6, "chat.roomlock": 6,
    "games.game": 9, "games.move": 8, "ladder.seek": 10, "ladder.challenge": 10, "ladder.player": 6,
    "ladder.rating": 6, "ladder.poolentry": 11, "ladder.playbanrecord": 6, "ladder.ban": 9,
    "ladder.ratingchange": 8, "tournaments.tournament": 6, "tournaments.entry": 6, "tournaments.round": 6,
    "tournaments.pairing": 8, "moderation.report": 6, "moderation.moderationaction": 12,
    "moderation.restriction": 6, "api.apitoken": 6,
}


def label(model: Any) -> str:
    return f"{model._meta.app_label}.{model._meta.model_name}"


def unpinned(registered: Iterable[Any]) -> set[str]:
    """The registered models with no pin or no factory: each must get both."""
    return {label(model) for model in registered} - (set(PINS) & set(FACTORIES))


def test_every_model_in_the_admin_has_a_pin_and_a_factory() -> None:
    assert unpinned(admin.site._registry) == set()
    assert set(PINS) == set(FACTORIES) == {label(model) for model in admin.site._registry}


def test_a_model_registered_without_a_pin_is_caught() -> None:
    site = admin.AdminSite(name="elsewhere")
    site.register(RatingCount)  # never in the admin: a stand-in for a new registration
    for model, model_admin in admin.site._registry.items():
        site.register(model, type(model_admin))
    assert unpinned(site._registry) == {"ladder.ratingcount"}


def queries_for(client: Client, model: Any) -> int:
    url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
    client.get(url)  # the session and the language looked up once, as on any page after the first
    with CaptureQueriesContext(connection) as context:
        response = client.get(url)
    assert response.status_code == 200, response.content[:500]
    return len(context.captured_queries)


@pytest.mark.parametrize("name", sorted(PINS))
def test_a_changelist_is_a_constant_number_of_queries(name: str, admin_client: Client) -> None:
    model = next(model for model in admin.site._registry if label(model) == name)
    FACTORIES[name](10)
    at_ten = queries_for(admin_client, model)
    FACTORIES[name](90)
    assert model._default_manager.count() >= 100
    at_a_hundred = queries_for(admin_client, model)
    assert at_a_hundred == at_ten, f"{name}: {at_ten} queries at 10 rows, {at_a_hundred} at 100"
    assert at_a_hundred <= PINS[name], f"{name}: {at_a_hundred} queries, pinned at {PINS[name]}"
