"""Closing an account (issue 37): unticking "Active" in the admin, a moderator's
"Close the account" and ``user.save()`` in a shell all do the same, through
games.signals.account_closed: the account's seeks, seats at others' seeks,
challenges both ways, pool wait and entries in tournaments not over go, its
API tokens are revoked, and its sockets are told to close. Before, the admin's
box left the seek in the lobby, and another player's acceptance started a game
against the closed account."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.contrib.admin.models import LogEntry
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from api import tokens
from api.models import ApiToken
from games import signins
from games.models import Game
from ladder import challenges, matchmaking, seeks
from ladder.models import Challenge, PoolEntry, Seek
from moderation.models import ModerationAction
from tests.helpers import client_for
from tests.moderation.conftest import act
from tournaments import entering
from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db


def admin_form(client: Client, user: Any) -> dict[str, Any]:
    """The admin's change form of ``user`` as its page fills it in: what a
    superuser's browser would send back, unchanged."""
    page = client.get(reverse("admin:auth_user_change", args=[user.pk]))
    form = page.context["adminform"].form
    data: dict[str, Any] = {}
    for name in form.fields:
        value = form.initial.get(name)
        if isinstance(value, datetime):
            data[f"{name}_0"], data[f"{name}_1"] = value.strftime("%Y-%m-%d"), value.strftime("%H:%M:%S")
        elif isinstance(value, bool):
            if value:
                data[name] = "on"
        elif isinstance(value, list):
            data[name] = [getattr(item, "pk", item) for item in value]
        elif value is not None:
            data[name] = value
    for inline in page.context["inline_admin_formsets"]:
        management = inline.formset.management_form
        data.update({f"{management.prefix}-{key}": value for key, value in management.initial.items()})
    return data


def close_in_the_admin(user: Any, superuser: Any, moderator: Any) -> None:
    client = client_for(superuser)
    data = admin_form(client, user)
    assert data.pop("is_active") == "on"  # the box was ticked: untick it
    response = client.post(reverse("admin:auth_user_change", args=[user.pk]), data)
    assert response.status_code == 302, response.context["adminform"].form.errors


def close_by_the_act(user: Any, superuser: Any, moderator: Any) -> None:
    action = act(moderator, ModerationAction.Kind.CLOSE_ACCOUNT, user=user, reason="engine use")
    # One path: the act's outcome says what the receivers did.
    assert "1 seek(s)" in action.outcome and "withdrew from 1 tournament(s)" in action.outcome
    assert "revoked 1 API token(s)" in action.outcome


def close_in_a_shell(user: Any, superuser: Any, moderator: Any) -> None:
    user.is_active = False
    user.save()


CLOSINGS = {"admin": close_in_the_admin, "act": close_by_the_act, "shell": close_in_a_shell}


@pytest.fixture
def superuser(django_user_model: Any) -> Any:
    return django_user_model.objects.create_superuser("root", "root@example.org", "password")


def upcoming_tournament(organizer: Any) -> Tournament:
    return Tournament.objects.create(name="Spring Cup", organizer=organizer, time_control="5+3", rated=False,
                                     starts_at=timezone.now() + timedelta(hours=1))


def api(token: str) -> Client:
    client = Client(HTTP_HOST="localhost")
    client.defaults["HTTP_AUTHORIZATION"] = f"Bearer {token}"
    return client


@pytest.mark.parametrize("closing", CLOSINGS.values(), ids=CLOSINGS.keys())
def test_closing_an_account_takes_it_out_of_everything_it_waits_for(
        closing: Callable[..., None], alice: Any, bob: Any, charlie: Any, dave: Any, superuser: Any,
        moderator: Any, django_capture_on_commit_callbacks: Any) -> None:
    seek = seeks.create_seek(alice, "5+3")
    team_seek = seeks.create_seek(bob, "10+5", rules="rhombus", players=4)
    seeks.join_seek(team_seek.pk, alice)
    incoming = challenges.create_challenge(charlie, "alice", "10+5")
    wait = matchmaking.join(alice, "3+2")
    tournament = upcoming_tournament(dave)
    entering.join(tournament.pk, alice)
    _row, token = tokens.make(alice, "my bot", ["play"])
    assert api(token).get("/api/account").status_code == 200
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(signins.user_group(alice.pk), channel)

    with django_capture_on_commit_callbacks(execute=True):
        closing(alice, superuser, moderator)

    alice.refresh_from_db()
    assert not alice.is_active
    # The lobby no longer lists her seek, and bob accepting it from the page starts nothing.
    assert seek.pk not in [listed["id"] for listed in api_visitor().get("/api/seeks").json()]
    client_for(bob).post(reverse("ladder:seek-accept", args=[seek.pk]))
    assert Seek.objects.get(pk=seek.pk).status == Seek.Status.CANCELLED
    assert not Game.objects.exists()
    assert alice.pk not in set(team_seek.entries.values_list("user_id", flat=True))
    assert Challenge.objects.get(pk=incoming.pk).status == Challenge.Status.CANCELLED
    assert PoolEntry.objects.get(pk=wait.pk).status == PoolEntry.Status.LEFT
    assert not Entry.objects.filter(tournament=tournament, user=alice).exists()
    refused = api(token).get("/api/account")
    assert refused.status_code == 401
    assert ApiToken.objects.get().revoked_reason == "account closed"
    assert received(layer, channel) == {"type": "account.closed"}  # her sockets close (games.sockets)


def received(layer: Any, channel: str) -> Any:
    """The channel's next message, or None after a second."""
    async def receive() -> Any:
        try:
            return await asyncio.wait_for(layer.receive(channel), timeout=1)
        except asyncio.TimeoutError:
            return None

    return async_to_sync(receive)()


def api_visitor() -> Client:
    return Client(HTTP_HOST="localhost")


def test_a_running_tournament_is_left_as_its_withdraw_leaves_it(alice: Any, bob: Any, charlie: Any,
                                                                 dave: Any) -> None:
    """Not over, started: the entry stays, marked as left, and is not paired again."""
    tournament = upcoming_tournament(dave)
    entering.join(tournament.pk, alice)
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
    finished = upcoming_tournament(dave)
    entering.join(finished.pk, alice)
    Tournament.objects.filter(pk=finished.pk).update(status=Tournament.Status.FINISHED)
    alice.is_active = False
    alice.save(update_fields=["is_active"])
    left = Entry.objects.get(tournament=tournament, user=alice)
    assert left.withdrawn_at is not None and left.withdrawn_why == "account closed"
    assert Entry.objects.get(tournament=finished, user=alice).withdrawn_at is None  # over: as it was


def test_saving_a_closed_account_again_or_other_fields_sends_nothing(alice: Any) -> None:
    """Only True to False closes: a second save of a closed account, or a save of
    other fields, leaves a seek made meanwhile (e.g. by a queryset) alone."""
    alice.is_active = False
    alice.save()
    seek = Seek.objects.create(creator=alice, time_control="5+3")
    alice.first_name = "Alice"
    alice.save()
    alice.save(update_fields=["first_name"])
    assert Seek.objects.get(pk=seek.pk).status == Seek.Status.OPEN


def test_a_closed_account_sits_down_to_no_new_game_and_is_not_paired(alice: Any, bob: Any) -> None:
    """Closed by a queryset update, which no signal reaches: its seek, still
    listed, cannot be accepted, and its pool wait is never paired."""
    seek = seeks.create_seek(alice, "5+3")
    matchmaking.join(alice, "3+2")
    type(alice).objects.filter(pk=alice.pk).update(is_active=False)
    response = client_for(bob).post(reverse("ladder:seek-accept", args=[seek.pk]), follow=True)
    assert "alice&#x27;s account is closed" in response.content.decode()
    matchmaking.join(bob, "3+2")
    assert matchmaking.match(timezone.now() + timedelta(minutes=5)) == []
    assert not Game.objects.exists()


def test_closing_is_in_the_accounts_admin_history(alice: Any, superuser: Any, moderator: Any) -> None:
    close_in_the_admin(alice, superuser, moderator)
    assert LogEntry.objects.filter(object_id=str(alice.pk), content_type__model="user").exists()
