"""Bots in tournaments (issue 22, finding 14): the organizer invites one of the
site's computer players from the page where bots may enter, and every way in
(the page's Join, the API, the invite, the admin) checks the same entry
conditions (entering.entry_refusal), refusing with the reason and entering nobody."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from ladder import bot_accounts
from ladder.models import Player as LadderPlayer
from tournaments import changes, entering, organizing
from tournaments.models import Entry, Tournament
from tests.helpers import client_for

pytestmark = pytest.mark.django_db

Make = Callable[..., Tournament]


@pytest.fixture
def computer(db: None) -> Any:
    """The greedy computer player, as manage.py seed_bots makes it."""
    return next(user for user, _ in bot_accounts.ensure_bot_accounts() if user.player.bot_level == "greedy")


def messages_of(response: Any) -> str:
    return " ".join(str(m) for m in response.context["messages"]) if response.context else ""


def test_the_organizer_invites_a_computer_player_from_the_page(
        tournament: Make, organizer: Any, computer: Any) -> None:
    t = tournament(bots_allowed=True)
    page = client_for(organizer).get(f"/tournaments/{t.pk}/").content.decode()
    assert f'action="/tournaments/{t.pk}/invite-bot/"' in page and f'value="{computer.pk}"' in page
    response = client_for(organizer).post(f"/tournaments/{t.pk}/invite-bot/", {"bot": computer.pk}, follow=True)
    assert "bot-greedy has joined." in messages_of(response)
    entry = Entry.objects.get(tournament=t, user=computer)
    assert entry.active and entry.rating == LadderPlayer.objects.get(user=computer).rating
    assert f'value="{computer.pk}"' not in client_for(organizer).get(f"/tournaments/{t.pk}/").content.decode()


def test_a_no_bots_tournament_offers_no_invite_and_refuses_one(
        tournament: Make, organizer: Any, computer: Any) -> None:
    t = tournament(bots_allowed=False)
    assert "/invite-bot/" not in client_for(organizer).get(f"/tournaments/{t.pk}/").content.decode()
    response = client_for(organizer).post(f"/tournaments/{t.pk}/invite-bot/", {"bot": computer.pk}, follow=True)
    assert "Bot-greedy cannot enter: bots may not enter this tournament" in messages_of(response)
    assert not Entry.objects.exists()


def test_an_invite_checks_every_entry_condition(
        tournament: Make, organizer: Any, computer: Any, players: Any) -> None:
    full = tournament(bots_allowed=True, max_players=2)
    for user in players(2):
        entering.join(full.pk, user)
    with pytest.raises(changes.Refusal, match=r"bot-greedy cannot enter: the tournament is full \(2 players\)"):
        organizing.invite_bot(full.pk, organizer, computer.pk)
    strong_only = tournament(bots_allowed=True, min_rating=2500)
    with pytest.raises(changes.Refusal, match="below the minimum 2500"):
        organizing.invite_bot(strong_only.pk, organizer, computer.pk)
    assert not Entry.objects.filter(user=computer).exists()


def test_only_a_computer_player_is_invited_and_only_by_the_organizer(
        tournament: Make, organizer: Any, computer: Any, players: Any) -> None:
    t = tournament(bots_allowed=True)
    person = players(1)[0]
    with pytest.raises(changes.Refusal, match="choose one of the site's computer players"):
        organizing.invite_bot(t.pk, organizer, person.pk)
    with pytest.raises(changes.Refusal, match="only the tournament's organizer"):
        organizing.invite_bot(t.pk, person, computer.pk)
    assert not Entry.objects.exists()


def test_the_admin_refuses_a_bot_in_a_no_bots_tournament(
        tournament: Make, computer: Any, django_user_model: Any) -> None:
    t = tournament(bots_allowed=False)
    root = django_user_model.objects.create_superuser("root", "root@example.org", "pw")
    page = client_for(root).post("/admin/tournaments/entry/add/", {
        "tournament": t.pk, "user": computer.pk, "rating": 1500, "no_shows": 0}).content.decode()
    assert "bots may not enter this tournament" in page
    assert not Entry.objects.exists()
    inline = {"entries-TOTAL_FORMS": 1, "entries-INITIAL_FORMS": 0, "entries-0-user": computer.pk,
              "entries-0-tournament": t.pk}
    change = client_for(root).get(f"/admin/tournaments/tournament/{t.pk}/change/")
    form = change.context["adminform"].form
    data = {name: "" if form.initial.get(name) is None else form.initial[name] for name in form.fields}
    data["starts_at_0"], data["starts_at_1"] = t.starts_at.strftime("%Y-%m-%d"), t.starts_at.strftime("%H:%M:%S")
    for prefix in ("forbidden_pairings", "round_set"):
        data.update({f"{prefix}-TOTAL_FORMS": 0, f"{prefix}-INITIAL_FORMS": 0})
    data.update(inline)
    page = client_for(root).post(f"/admin/tournaments/tournament/{t.pk}/change/", data).content.decode()
    assert "bots may not enter this tournament" in page
    assert not Entry.objects.exists()


def test_the_admin_enters_a_player_as_join_does(tournament: Make, players: Any, django_user_model: Any) -> None:
    t = tournament()
    person = players(1)[0]
    root = django_user_model.objects.create_superuser("root", "root@example.org", "pw")
    response = client_for(root).post("/admin/tournaments/entry/add/", {
        "tournament": t.pk, "user": person.pk, "rating": 1000, "no_shows": 0})
    assert response.status_code == 302
    assert Entry.objects.get(tournament=t, user=person).rating == 1900  # the ladder's, as join takes it
