"""Finding things in the moderators' admin (issue 37): the User page's links, the
act form (autocomplete, the kind's fields, winner as a choice, a refusal kept as
typed), the reports queue (open first, newest first, closing together and in
bulk) and the chat lines' rooms and authors, through the admin's own URLs."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from chat import lines
from chat.lines import Speaker
from games import starting
from ladder.models import Player, Rating
from moderation.models import ModerationAction, Report, Restriction
from moderation.reports import file_report
from tests.helpers import client_for, staff_group
from tests.moderation.conftest import SEED, act, finished_game

pytestmark = pytest.mark.django_db
Kind = ModerationAction.Kind
ADD = reverse("admin:moderation_moderationaction_add")
QUEUE = reverse("admin:moderation_report_changelist")
LINES = reverse("admin:chat_line_changelist")


@pytest.fixture
def organizer_staff(django_user_model: Any) -> Any:
    """Staff in the Organizers group: no business in the moderators' pages."""
    user = django_user_model.objects.create_user("olga", "olga@example.org", "password", is_staff=True)
    user.groups.add(staff_group("Organizers"))
    return user


def user_page(client: Any, user: Any) -> str:
    return client.get(reverse("admin:auth_user_change", args=[user.pk])).content.decode()


def links_block(page: str) -> dict[str, str]:
    """The User page's "Links" block: label → address."""
    block = page.split('id="moderation-links-heading"', 1)[1].split("</fieldset>", 1)[0]
    found = re.findall(r'<a href="([^"]+)">([^<]+)</a>', block)
    return {html.unescape(label): html.unescape(url) for url, label in found}


# --- The User page ---------------------------------------------------------------


def test_the_user_page_links_everything_about_the_player_and_each_link_opens(
        moderator: Any, admin_user: Any, alice: Any, bob: Any) -> None:
    finished_game(alice, bob)
    Rating.objects.create(user=alice, ladder="rhombus", rating=1620)
    file_report(bob, "alice", "cheating", "too good")
    act(moderator, Kind.RESTRICT_RATED, user=alice, reason="sandbagging")
    rating = Player.objects.get(user=alice).rating
    for viewer in (moderator, admin_user):
        client = client_for(viewer)
        found = links_block(user_page(client, alice))
        assert found["Profile and recent games"] == "/@/alice/"
        assert found[f"Ace in the Hole: {rating}"] == "/@/alice/?ladder=ace-in-the-hole"
        assert found["Rhombus: 1620"] == "/@/alice/?ladder=rhombus"
        assert found["Games in the admin"] == reverse("admin:games_game_changelist") + f"?player={alice.pk}"
        assert found["Acts on them"].endswith(f"?user={alice.pk}")
        assert found["Lift: rated games"] == f"{ADD}?user={alice.pk}&kind=lift_rated"
        assert found["Restrict from seeks, challenges and quick pairing"] == \
            f"{ADD}?user={alice.pk}&kind=restrict_lobby"
        assert "Adjudicate a game's result" not in found  # a game's act, not an account's
        for label, url in found.items():  # none answers 403, or a disallowed filter's 400
            assert client.get(url).status_code == 200, (viewer, label, url)
        reports_about = client.get(found["Reports about them"]).content.decode()
        assert "too good" not in reports_about and "Cheating or engine use" in reports_about
    # Moderators may view players' rows (they correct ratings: moderation 0008), so both get the link, and it
    # opened above; a moderator without that permission gets no link that would answer 403.
    assert "Ace in the Hole in the admin" in links_block(user_page(client_for(moderator), alice))
    moderator.groups.get(name="Moderators").permissions.remove(Permission.objects.get(codename="view_player"))
    assert "Ace in the Hole in the admin" not in links_block(user_page(client_for(
        get_user_model().objects.get(pk=moderator.pk)), alice))


def test_the_user_page_links_api_tokens_only_where_the_admin_has_them(admin_user: Any, alice: Any) -> None:
    found = links_block(user_page(client_for(admin_user), alice))
    try:
        tokens = reverse("admin:api_apitoken_changelist")
    except Exception:  # not registered in this tree: no link rather than a 404
        assert "API tokens" not in found
    else:
        assert found["API tokens"] == f"{tokens}?user__id__exact={alice.pk}"


def test_a_moderator_sees_no_reset_password_button_a_superuser_does(moderator: Any, admin_user: Any,
                                                                    alice: Any) -> None:
    password_page = reverse("admin:auth_user_password_change", args=[alice.pk])
    assert client_for(moderator).get(password_page).status_code == 403  # so it must not be offered
    page = user_page(client_for(moderator), alice)
    assert "field-password" in page and "algorithm" in page  # the summary stays
    assert "Reset password" not in page and 'href="../password/"' not in page
    page = user_page(client_for(admin_user), alice)
    assert "Reset password" in page and 'href="../password/"' in page
    assert client_for(admin_user).get(password_page).status_code == 200


def test_an_active_restriction_has_a_lift_link_on_the_list_that_lifts_it(moderator: Any, alice: Any,
                                                                         bob: Any) -> None:
    act(moderator, Kind.RESTRICT_LOBBY, user=alice, reason="spam")
    over = Restriction.objects.create(user=bob, scope="rated", lifted_at=timezone.now())
    client = client_for(moderator)
    listing = html.unescape(client.get(reverse("admin:moderation_restriction_changelist")).content.decode())
    lift = f"{ADD}?user={alice.pk}&kind=lift_lobby"
    assert lift in listing and f"?user={bob.pk}&kind=lift_rated" not in listing  # none for one lifted already
    assert lift in html.unescape(user_page(client, alice))  # on the User page's inline too
    form = client.get(lift).content.decode()
    assert f'<option value="{alice.pk}" selected>alice</option>' in form
    assert client.post(ADD, {"kind": "lift_lobby", "user": alice.pk, "reason": "appeal granted"}).status_code == 302
    assert Restriction.objects.get(user=alice).lifted_at is not None and over.lifted_at is not None


# --- The act form --------------------------------------------------------------------


def test_the_act_form_picks_accounts_games_reports_and_lines_by_autocomplete(moderator: Any, alice: Any,
                                                                             bob: Any) -> None:
    client = client_for(moderator)
    form = client.get(f"{ADD}?kind=restrict_rated&user={alice.pk}").content.decode()
    for name in ("user", "game", "report", "chat_line"):
        assert re.search(rf'<select name="{name}"[^>]*data-ajax--url="/admin/autocomplete/"', form), name
    assert "related-lookup" not in form  # no raw-id pop-up
    game = finished_game(alice, bob)
    lines.post(f"game:{game.pk}", Speaker(alice), text="you idiot")
    file_report(bob, "alice", "abuse", "rude")
    for field, term, shown in (("user", "ali", "alice"), ("game", "bob", f"Game {game.pk}"),
                               ("report", "alice", "alice"), ("chat_line", "idiot", "you idiot")):
        answer = client.get(reverse("admin:autocomplete"), {
            "app_label": "moderation", "model_name": "moderationaction", "field_name": field, "term": term})
        assert answer.status_code == 200 and shown in answer.content.decode(), field


def test_the_act_form_ignores_the_fields_the_chosen_kind_does_not_use(moderator: Any, alice: Any, bob: Any) -> None:
    game = finished_game(alice, bob)
    page = client_for(moderator).get(ADD).content.decode()
    assert "data-kind-fields=" in page and "js/moderation_act_form.js" in page
    response = client_for(moderator).post(ADD, {"kind": "restrict_rated", "user": alice.pk, "days": "3",
                                                "game": game.pk, "room": "game:1", "reason": "boosting"})
    assert response.status_code == 302
    action = ModerationAction.objects.get()
    assert (action.days, action.game, action.room) == (3, None, "")  # typed without the script: not kept


def test_the_winner_is_one_of_the_games_seats_or_a_draw(moderator: Any, alice: Any, bob: Any) -> None:
    game = starting.start_game(alice, bob, seed=SEED)
    client = client_for(moderator)
    form = client.get(f"{ADD}?kind=adjudicate&game={game.pk}").content.decode()
    assert re.search(r'<select name="winner"', form) and '<option value="black">' in form
    assert "nobody: a draw" in form
    refused = client.post(ADD, {"kind": "adjudicate", "game": game.pk, "winner": "green", "reason": "x"})
    assert "Select a valid choice" in refused.content.decode()
    refused = client.post(ADD, {"kind": "adjudicate", "game": game.pk, "winner": "NE", "reason": "x"})
    assert f"Game {game.pk} has the seats red, black: choose one of them or a draw." in refused.content.decode()
    assert not ModerationAction.objects.exists()
    assert client.post(ADD, {"kind": "adjudicate", "game": game.pk, "winner": "", "reason": "both left"}) \
        .status_code == 302
    game.refresh_from_db()
    assert (game.status, game.winner) == ("finished", "")


def test_a_refused_act_shows_the_form_again_as_typed(moderator: Any, alice: Any) -> None:
    reason = "She asked on the forum; restriction lifted as a courtesy"
    response = client_for(moderator).post(ADD, {"kind": "lift_rated", "user": alice.pk, "reason": reason})
    page = response.content.decode()
    assert response.status_code == 200
    assert "Not done: alice has no restriction from rated games to lift." in page
    assert reason in page and f'<option value="{alice.pk}" selected>alice</option>' in page
    assert '<option value="lift_rated" selected>' in page
    assert not ModerationAction.objects.exists()


# --- The reports queue ---------------------------------------------------------------


def queue_rows(page: str) -> list[int]:
    return [int(number) for number in re.findall(r'/admin/moderation/report/(\d+)/change/', page)]


def test_the_queue_opens_on_open_reports_newest_first(moderator: Any, alice: Any, bob: Any, charlie: Any) -> None:
    first = file_report(alice, "bob", "abuse")
    closed = file_report(charlie, "alice", "other")
    Report.objects.filter(pk=closed.pk).update(status=Report.Status.CLOSED)
    last = file_report(charlie, "bob", "cheating")
    client = client_for(moderator)
    assert queue_rows(client.get(QUEUE).content.decode()) == [last.pk, first.pk]
    assert queue_rows(client.get(QUEUE + "?status=closed").content.decode()) == [closed.pk]
    assert queue_rows(client.get(QUEUE + "?status=all").content.decode()) == [last.pk, closed.pk, first.pk]


def test_the_queue_counts_recent_reports_in_a_constant_number_of_queries(moderator: Any, django_user_model: Any,
                                                                        alice: Any) -> None:
    client = client_for(moderator)

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(QUEUE).status_code == 200
        return len(captured)

    def add_reports(count: int) -> None:
        for number in range(count):
            reporter = django_user_model.objects.create_user(f"r{Report.objects.count()}-{number}")
            file_report(reporter, "alice", "abuse")

    add_reports(2)
    few = queries()
    add_reports(8)
    assert queries() == few
    assert '<td class="field-recent_reports">10</td>' in client.get(QUEUE).content.decode()


def test_a_closed_report_offers_no_acts(moderator: Any, alice: Any, bob: Any) -> None:
    report = file_report(alice, "bob", "abuse", "rude")
    client = client_for(moderator)
    url = reverse("admin:moderation_report_change", args=[report.pk])
    assert f"{ADD}?user={bob.pk}" in client.get(url).content.decode()
    Report.objects.filter(pk=report.pk).update(status=Report.Status.CLOSED, outcome="none", note="fine")
    assert f"{ADD}?" not in client.get(url).content.decode()


def test_two_open_reports_on_one_player_are_shown_and_closed_together(moderator: Any, alice: Any, bob: Any,
                                                                      charlie: Any) -> None:
    first = file_report(alice, "bob", "abuse", "rude in game chat")
    second = file_report(charlie, "bob", "abuse", "insulted me too")
    other_player = file_report(bob, "charlie", "other")
    client = client_for(moderator)
    url = reverse("admin:moderation_report_change", args=[first.pk])
    page = client.get(url).content.decode()
    assert "insulted me too" in page and reverse("admin:moderation_report_change", args=[second.pk]) in page
    assert 'name="close_others"' in page
    response = client.post(url, {"outcome": "warned", "note": "warned about chat", "close_others": "on"})
    assert response.status_code == 302
    for report in (first, second):
        report.refresh_from_db()
        assert (report.status, report.outcome, report.note, report.closed_by) == (
            "closed", "warned", "warned about chat", moderator)
    assert Report.objects.get(pk=other_player.pk).status == "open"


def test_without_the_tick_only_the_report_itself_is_closed(moderator: Any, alice: Any, bob: Any,
                                                           charlie: Any) -> None:
    first = file_report(alice, "bob", "abuse")
    second = file_report(charlie, "bob", "abuse")
    client_for(moderator).post(reverse("admin:moderation_report_change", args=[first.pk]),
                               {"outcome": "none", "note": "nothing found"})
    assert dict(Report.objects.values_list("pk", "status")) == {first.pk: "closed", second.pk: "open"}


def test_bulk_close_asks_for_the_outcome_and_note_then_closes_the_selected(
        moderator: Any, organizer_staff: Any, alice: Any, bob: Any, charlie: Any) -> None:
    one, two = file_report(alice, "bob", "abuse"), file_report(bob, "charlie", "stalling")
    untouched = file_report(charlie, "alice", "other")
    chosen = {"action": "close_reports", "_selected_action": [one.pk, two.pk]}
    assert client_for(organizer_staff).post(QUEUE, chosen | {"apply": "1", "outcome": "none", "note": "x"}) \
        .status_code == 403
    client = client_for(moderator)
    asking = client.post(QUEUE, chosen)
    assert asking.status_code == 200 and 'name="outcome"' in asking.content.decode()
    assert 'name="_selected_action" value="%d"' % one.pk in asking.content.decode()
    again = client.post(QUEUE, chosen | {"apply": "1", "outcome": "none", "note": "  "})
    assert "choose the action taken and write a note" in again.content.decode()
    assert not Report.objects.filter(status="closed").exists()
    done = client.post(QUEUE, chosen | {"apply": "1", "outcome": "none", "note": "spam wave"}, follow=True)
    assert "Closed 2 reports." in done.content.decode()
    assert dict(Report.objects.values_list("pk", "note")) == {one.pk: "spam wave", two.pk: "spam wave",
                                                             untouched.pk: ""}
    assert set(Report.objects.filter(status="closed").values_list("closed_by", flat=True)) == {moderator.pk}


# --- Chat lines -------------------------------------------------------------------------


def test_a_chat_line_links_its_game_or_tournament_and_filters_by_one_author(moderator: Any, alice: Any,
                                                                            bob: Any) -> None:
    lines.post("game:12/w", Speaker(alice), text="nice move")
    lines.post("tournament:7", Speaker(bob), text="good luck all")
    client = client_for(moderator)
    page = client.get(LINES).content.decode()
    assert f'<a href="{reverse("games:game", args=[12])}">game 12</a>' in page
    assert f'<a href="{reverse("admin:games_game_change", args=[12])}">admin</a>' in page
    assert f'<a href="{reverse("tournaments:detail", args=[7])}">tournament 7</a>' in page
    assert f'<a href="?author={alice.pk}">alice</a>' in page
    assert "By author" not in page  # no list of every author
    only_alice = client.get(LINES, {"author": alice.pk}).content.decode()
    assert "nice move" in only_alice and "good luck all" not in only_alice
    assert "By author" in only_alice


# --- Lists whose cost does not grow with their rows -----------------------------------


@pytest.mark.parametrize("changelist", ["moderation_report", "moderation_moderationaction",
                                        "moderation_restriction", "chat_line"])
def test_the_moderators_lists_cost_the_same_at_two_rows_or_ten(moderator: Any, django_user_model: Any,
                                                              changelist: str) -> None:
    client = client_for(moderator)
    url = reverse(f"admin:{changelist}_changelist")

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        return len(captured)

    def add_rows(count: int) -> None:
        for _ in range(count):
            player = django_user_model.objects.create_user(f"p{django_user_model.objects.count()}")
            reporter = django_user_model.objects.create_user(f"p{django_user_model.objects.count()}")
            game = finished_game(player, reporter)
            file_report(reporter, player.get_username(), "abuse", game_id=game.pk)
            act(moderator, Kind.UNDO_RATING, game=game, user=player)
            act(moderator, Kind.RESTRICT_LOBBY, user=player)
            lines.post(f"game:{game.pk}", Speaker(player), text="hello")

    add_rows(2)
    few = queries()
    add_rows(8)
    assert queries() == few
