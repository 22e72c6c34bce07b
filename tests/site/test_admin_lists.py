"""Finding things in the admin's lists (issue 37): a date range on when rows were
made or finished, a game found by its number, rating changes by ladder, date
and player, a filter by user that never lists every user; and the rows newly in
the admin (other ladders' ratings, the pool, playban records, mutes, room
locks) to look at only."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db.models import Model
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode

from chat.models import Mute, RoomLock
from games.models import Game
from ladder.models import PlaybanRecord, PoolEntry, Rating, RatingChange
from tests.site import admin_rows

pytestmark = pytest.mark.django_db
GAMES = reverse("admin:games_game_changelist")
CHANGES = reverse("admin:ladder_ratingchange_changelist")


def shown(client: Client, url: str, model: type[Model]) -> set[int]:
    """The ids of the rows the list shows."""
    response = client.get(url)
    assert response.status_code == 200
    return {row.pk for row in response.context["cl"].result_list if isinstance(row, model)}


def filters_panel(client: Client, url: str) -> str:
    page = client.get(url).content.decode()
    return page[page.index('id="changelist-filter"'):]


def test_games_between_two_dates_both_days_included(admin_client: Client) -> None:
    days = [timezone.now() - timedelta(days=ago) for ago in (10, 5, 3, 1)]
    made = admin_rows.games(4)
    for game, day in zip(made, days, strict=True):
        Game.objects.filter(pk=game.pk).update(created=day)
    since, until = timezone.localdate(days[1]), timezone.localdate(days[2])
    found = shown(admin_client, f"{GAMES}?created__from={since}&created__to={until}", Game)
    assert found == {made[1].pk, made[2].pk}
    assert shown(admin_client, f"{GAMES}?created__from={since}", Game) == {game.pk for game in made[1:]}
    panel = filters_panel(admin_client, f"{GAMES}?status__exact=finished")
    assert 'type="date" name="created__from"' in panel and 'type="date" name="finished__to"' in panel
    assert 'type="hidden" name="status__exact" value="finished"' in panel  # the other filters kept


def test_a_players_games_are_chosen_by_the_player_filter_which_lists_no_one_else(admin_client: Client) -> None:
    made = admin_rows.games(3)
    player = made[1].seats.first().user
    assert shown(admin_client, f"{GAMES}?player={player.pk}", Game) == {made[1].pk}
    assert player.username in filters_panel(admin_client, f"{GAMES}?player={player.pk}")
    others = {seat.user.username for game in made for seat in game.seats.all()} - {player.username}
    assert not any(name in filters_panel(admin_client, GAMES) for name in others | {player.username})


def test_a_games_admin_page_has_view_on_site_which_opens_the_games_page(admin_client: Client) -> None:
    game = admin_rows.games(1)[0]
    page = admin_client.get(reverse("admin:games_game_change", args=[game.pk])).content.decode()
    link = page[page.index('class="viewsitelink"') - 200:page.index('class="viewsitelink"')]
    target = link[link.rindex('href="') + 6:].split('"')[0]
    assert admin_client.get(target)["Location"].endswith(reverse("games:game", args=[game.pk]))


def test_a_date_that_is_no_date_is_refused_as_the_admin_refuses_a_bad_filter(admin_client: Client) -> None:
    response = admin_client.get(f"{GAMES}?created__from=yesterday")
    assert response.status_code == 302 and response["Location"].endswith("?e=1")


@pytest.mark.parametrize("typed", ["{pk}", "#{pk}", " {pk} "])
def test_searching_a_games_number_finds_it(typed: str, admin_client: Client) -> None:
    first, wanted = admin_rows.games(2)
    for letter, seat in zip("abcd", [*first.table, *wanted.table], strict=True):
        seat.user.username = f"player-{letter}"  # no digits: the number is the game's alone
        seat.user.save()
    assert shown(admin_client, f"{GAMES}?{urlencode({'q': typed.format(pk=wanted.pk)})}", Game) == {wanted.pk}


def test_searching_a_name_still_finds_the_players_games(admin_client: Client) -> None:
    game = admin_rows.games(2)[0]
    name = game.table[0].user.username
    assert shown(admin_client, f"{GAMES}?q={name}", Game) == {game.pk}


def test_rating_changes_by_ladder_date_player_and_game(admin_client: Client) -> None:
    admin_rows.rating_changes(3)
    first, second, third = RatingChange.objects.order_by("pk")[:3]
    RatingChange.objects.filter(pk=first.pk).update(ladder="rhombus")
    RatingChange.objects.filter(pk=second.pk).update(created=timezone.now() - timedelta(days=30))
    assert shown(admin_client, f"{CHANGES}?ladder__exact=rhombus", RatingChange) == {first.pk}
    today = timezone.localdate()
    assert second.pk not in shown(admin_client, f"{CHANGES}?created__from={today}", RatingChange)
    assert shown(admin_client, f"{CHANGES}?user__id__exact={third.user_id}", RatingChange) == {third.pk}
    assert shown(admin_client, f"{CHANGES}?q={third.game_id}", RatingChange) == {
        change.pk for change in RatingChange.objects.filter(game_id=third.game_id)}


def test_the_player_filter_lists_only_the_player_chosen(admin_client: Client) -> None:
    admin_rows.rating_changes(30)
    names = set(RatingChange.objects.values_list("user__username", flat=True))
    panel = filters_panel(admin_client, CHANGES)
    assert not [name for name in names if f">{name}<" in panel]  # no list of every player
    chosen = RatingChange.objects.select_related("user").first()
    assert chosen is not None
    panel = filters_panel(admin_client, f"{CHANGES}?user__id__exact={chosen.user_id}")
    assert [name for name in names if f">{name}<" in panel] == [chosen.user.username]


def rows_of_each(model: type[Model]) -> Model:
    factories = {Rating: admin_rows.ratings, PoolEntry: admin_rows.pool_entries,
                 PlaybanRecord: admin_rows.playban_records, Mute: admin_rows.mutes, RoomLock: admin_rows.room_locks}
    factories[model](1)
    row = model._default_manager.first()
    assert row is not None
    return row


@pytest.mark.parametrize("model", [Rating, PoolEntry, PlaybanRecord, Mute, RoomLock], ids=lambda m: m.__name__)
def test_the_rows_newly_in_the_admin_are_to_look_at_only(model: type[Model], admin_client: Client) -> None:
    """Even a superuser: these rows change by the site's rules or a player's own
    choice (a rating by games and logged acts), never by hand here."""
    row = rows_of_each(model)
    name = f"admin:{model._meta.app_label}_{model._meta.model_name}"
    assert admin_client.get(reverse(f"{name}_changelist")).status_code == 200
    page = admin_client.get(reverse(f"{name}_change", args=[row.pk]))
    assert page.status_code == 200 and b'type="submit"' not in page.content.split(b'id="content"')[1]
    assert admin_client.get(reverse(f"{name}_add")).status_code == 403
    assert admin_client.get(reverse(f"{name}_delete", args=[row.pk])).status_code == 403
    before = list(model._default_manager.values())
    data: dict[str, Any] = {field.name: "9" for field in model._meta.concrete_fields}
    assert admin_client.post(reverse(f"{name}_change", args=[row.pk]), data).status_code == 403
    assert admin_client.post(reverse(f"{name}_changelist"), {
        "action": "delete_selected", "_selected_action": [row.pk], "post": "yes"}).status_code in (200, 302)
    assert list(model._default_manager.values()) == before
