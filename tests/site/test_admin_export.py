"""The admin's CSV export (issue 37): "Export selected as CSV" on users, players,
ratings, games, rating changes, reports and acts, for holders of the model's
export permission only; nothing hidden in it (a game's seed and position, a
password hash; an e-mail address but for a superuser); a constant number of
queries whatever the number of rows."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.auth.models import Permission
from django.db import connection
from django.http import HttpResponse, StreamingHttpResponse
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import Game
from ladder.models import Player, RatingChange
from moderation.models import ModerationAction, Report
from tests.helpers import client_for, staff_group
from tests.site import admin_rows

pytestmark = pytest.mark.django_db


@pytest.fixture
def moderator(django_user_model: Any) -> Any:
    """Staff in the Moderators group: sees these lists, holds no export permission."""
    user = django_user_model.objects.create_user("mod", "mod@example.org", "password", is_staff=True)
    user.groups.add(staff_group("Moderators"))
    return user

# Each exported list: its changelist, a factory, and the header its CSV starts with.
EXPORTS = {
    "auth_user": (admin_rows.users_list, ["id", "username", "date_joined", "last_login", "is_active", "is_staff",
                                          "is_superuser"]),
    "games_game": (admin_rows.games, ["id", "kind", "variant", "players", "seats", "status", "result", "winner",
                                      "reason", "rated", "time_control", "event", "event_round", "created",
                                      "finished"]),
    "ladder_player": (admin_rows.players, ["user_id", "ladder", "username", "rating", "rated_games", "wins",
                                           "draws", "losses", "streak", "last_active", "is_bot"]),
    "ladder_rating": (admin_rows.ratings, ["user_id", "ladder", "username", "rating", "rated_games", "wins",
                                           "draws", "losses", "streak", "last_active", "is_bot"]),
    "ladder_ratingchange": (admin_rows.rating_changes, ["id", "game", "ladder", "user", "opponent", "before",
                                                        "after", "opponent_rating", "score", "k", "created",
                                                        "undone_at"]),
    "moderation_report": (admin_rows.reports, ["id", "created", "reporter", "reported", "game", "reason", "text",
                                               "status", "closed_at", "closed_by", "outcome", "note"]),
    "moderation_moderationaction": (admin_rows.moderation_actions, ["id", "created", "kind", "moderator", "user",
                                                                    "game", "report", "reason", "outcome"]),
}


def export(client: Client, changelist: str, query: str = "") -> HttpResponse | StreamingHttpResponse:
    """The export action on every row of the list (as filtered by ``query``), as
    "Select all" then the action does."""
    return client.post(reverse(f"admin:{changelist}_changelist") + query, {
        "action": "export_csv", "select_across": "1", "index": "0", ACTION_CHECKBOX_NAME: ["0"]})


def rows_of(response: Any) -> list[list[str]]:
    assert isinstance(response, StreamingHttpResponse), response.status_code
    assert response["Content-Type"].startswith("text/csv")
    assert response["Content-Disposition"].startswith("attachment;")
    return list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode())))


def offered(client: Client, changelist: str) -> bool:
    return 'value="export_csv"' in client.get(reverse(f"admin:{changelist}_changelist")).content.decode()


@pytest.mark.parametrize("changelist", sorted(EXPORTS))
def test_a_superuser_exports_a_list_with_its_header(changelist: str, admin_client: Client) -> None:
    factory, header = EXPORTS[changelist]
    factory(3)
    assert offered(admin_client, changelist)
    rows = rows_of(export(admin_client, changelist))
    if changelist == "auth_user":
        header = [*header, "email"]  # a superuser's export only
    assert rows[0] == header
    assert len(rows) > 3 and all(len(row) == len(header) for row in rows)


def test_a_game_row_says_what_its_record_says_and_nothing_hidden(admin_client: Client) -> None:
    game = admin_rows.games(1)[0]
    Game.objects.filter(pk=game.pk).update(position={"hands": "SECRET-HAND"}, seed="SECRET-SEED", event="Cup")
    [header, row] = rows_of(export(admin_client, "games_game"))
    names = [seat.user.username for seat in game.table]
    assert dict(zip(header, row, strict=True)) | {"created": "", "finished": ""} == {
        "id": str(game.pk), "kind": "ace-in-the-hole", "variant": "classic", "players": "2",
        "seats": f"red:{names[0]} black:{names[1]}", "status": "finished", "result": "1-0", "winner": "red",
        "reason": "resignation", "rated": "True", "time_control": "10+5", "event": "Cup", "event_round": "",
        "created": "", "finished": ""}
    text = ",".join(row)
    assert "SECRET-HAND" not in text and "SECRET-SEED" not in text


def test_a_user_export_has_no_password_and_an_email_only_for_a_superuser(admin_client: Client,
                                                                          moderator: Any) -> None:
    [user] = admin_rows.users(1)
    user.set_password("a secret")
    user.save()
    as_superuser = rows_of(export(admin_client, "auth_user", f"?q={user.username}"))
    assert as_superuser[0][-1] == "email" and as_superuser[1][-1] == user.email
    moderator.user_permissions.add(Permission.objects.get(codename="export_user"))
    as_moderator = rows_of(export(client_for(moderator), "auth_user", f"?q={user.username}"))
    assert "email" not in as_moderator[0] and user.email not in str(as_moderator)
    for rows in (as_superuser, as_moderator):
        assert user.password not in str(rows) and "password" not in rows[0]


def test_a_formula_in_a_cell_is_written_as_text(admin_client: Client, alice: Any, bob: Any) -> None:
    Report.objects.create(reporter=alice, reported=bob, reason="other", text='=HYPERLINK("http://x")')
    [header, row] = rows_of(export(admin_client, "moderation_report"))
    assert row[header.index("text")] == """'=HYPERLINK("http://x")"""


@pytest.mark.parametrize("changelist", sorted(EXPORTS))
def test_staff_without_the_permission_get_no_export(changelist: str, moderator: Any) -> None:
    """A moderator sees these lists, and may act from them, but takes no copy away
    unless given the list's export permission; a forged POST exports nothing."""
    factory, _header = EXPORTS[changelist]
    factory(2)
    model = changelist.split("_", 1)[1]
    moderator.user_permissions.add(Permission.objects.get(codename=f"view_{model}"))  # the group's, or given
    client = client_for(moderator)
    assert client.get(reverse(f"admin:{changelist}_changelist")).status_code == 200
    assert not offered(client, changelist)
    refused = export(client, changelist)
    assert not isinstance(refused, StreamingHttpResponse) and refused.status_code in (200, 302)
    moderator.user_permissions.add(Permission.objects.get(codename=f"export_{model}"))
    client = client_for(moderator)
    assert offered(client, changelist)
    assert len(rows_of(export(client, changelist))) >= 3


def test_no_group_holds_an_export_permission() -> None:
    for name in ("Moderators", "Organizers"):
        assert not staff_group(name).permissions.filter(codename__startswith="export_").exists()


def export_queries(client: Client, changelist: str) -> tuple[int, int]:
    with CaptureQueriesContext(connection) as context:
        rows = rows_of(export(client, changelist))
    return len(context.captured_queries), len(rows) - 1


@pytest.mark.parametrize("changelist", sorted(EXPORTS))
def test_an_export_is_a_constant_number_of_queries(changelist: str, admin_client: Client) -> None:
    factory, _header = EXPORTS[changelist]
    factory(10)
    export(admin_client, changelist)  # the session and the language, as before any later page
    few, ten = export_queries(admin_client, changelist)
    factory(990)
    many, thousand = export_queries(admin_client, changelist)
    assert ten >= 10 and thousand >= 1000
    assert many == few, f"{changelist}: {few} queries for {ten} rows, {many} for {thousand}"


def test_the_models_exported_are_those_the_issue_names() -> None:
    """Users, players and ratings, games, rating changes, reports and acts: a permission each."""
    exported = {model._meta.model_name for model in (Game, Player, RatingChange, Report, ModerationAction)}
    codenames = set(Permission.objects.filter(codename__startswith="export_").values_list("codename", flat=True))
    assert codenames == {f"export_{name}" for name in exported | {"user", "rating"}}
