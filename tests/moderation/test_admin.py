"""The moderators' admin: the queue of reports and closing them, acts done
through the admin, and the Moderators group: a moderator (staff in the group,
not a superuser) can do each act; staff without the group can do none."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse
from django.utils import timezone

from chat import lines
from chat.lines import Speaker
from games import starting
from games.models import Game
from ladder.models import Ban, RatingChange
from moderation.models import ModerationAction, Report, Restriction
from moderation.reports import file_report
from tournaments import changes, entering
from tournaments.models import Entry, Pairing, Round, Tournament
from tests.helpers import client_for, staff_group
from tests.moderation.conftest import SEED, act, finished_game

pytestmark = pytest.mark.django_db
Kind = ModerationAction.Kind
ADD = reverse("admin:moderation_moderationaction_add")
QUEUE = reverse("admin:moderation_report_changelist")


def test_the_moderators_group_has_exactly_what_moderating_needs() -> None:
    names = {f"{p.content_type.app_label}.{p.codename}" for p in staff_group("Moderators").permissions.all()}
    assert names == {
        "moderation.view_report", "moderation.change_report", "moderation.view_moderationaction",
        "moderation.add_moderationaction", "moderation.view_restriction", "auth.view_user", "games.view_game",
        "ladder.view_ratingchange", "moderation.restrict_account", "moderation.close_account",
        "moderation.adjudicate_game", "moderation.undo_rating", "moderation.refund_rating",
        "moderation.lift_restriction", "ladder.view_ban", "moderation.moderate_chat", "chat.view_line",
        "chat.view_chattimeout", "moderation.abort_game", "moderation.correct_rating", "moderation.lift_playban",
        "ladder.view_player",
        # Tournament corrections (issue 37): the DISQUALIFY act, and every tournament seen.
        "moderation.disqualify_player", "tournaments.view_tournament", "tournaments.view_entry",
        "tournaments.view_round", "tournaments.view_pairing", "tournaments.view_correction",
        # The lists the admin gained in issue 37, looked at (moderation 0011).
        "ladder.view_rating", "ladder.view_poolentry", "ladder.view_playbanrecord", "chat.view_mute",
        "chat.view_roomlock"}


@pytest.mark.parametrize("model", ["ladder_rating", "ladder_poolentry", "ladder_playbanrecord", "chat_mute",
                                   "chat_roomlock"])
def test_a_moderator_looks_at_the_lists_the_admin_gained_and_changes_nothing_there(moderator: Any, model: str) -> None:
    client = client_for(moderator)
    assert client.get(reverse(f"admin:{model}_changelist")).status_code == 200
    assert client.get(reverse(f"admin:{model}_add")).status_code == 403


def test_the_queue_lists_open_reports_with_their_game_and_the_players_count(moderator: Any, alice: Any, bob: Any,
                                                                            charlie: Any) -> None:
    game = finished_game(bob, alice)
    open_one = file_report(alice, "bob", "cheating", "perfect moves", game.pk)
    file_report(charlie, "bob", "abuse")
    closed = file_report(charlie, "alice", "other")
    Report.objects.filter(pk=closed.pk).update(status=Report.Status.CLOSED)
    page = client_for(moderator).get(QUEUE + "?status__exact=open").content.decode()
    assert f'/admin/moderation/report/{open_one.pk}/change/' in page
    assert f'/admin/moderation/report/{closed.pk}/change/' not in page
    assert reverse("games:game", args=[game.pk]) in page  # the game concerned, linked
    detail = client_for(moderator).get(reverse("admin:moderation_report_change", args=[open_one.pk])).content.decode()
    assert "perfect moves" in detail
    assert f"{ADD}?user={bob.pk}&amp;report={open_one.pk}&amp;game={game.pk}&amp;kind=restrict_rated" in detail
    # bob has two reports against him: the count is in the queue's column.
    assert '<td class="field-recent_reports">2</td>' in page


def test_a_moderator_closes_a_report_with_an_action_and_a_note(moderator: Any, alice: Any, bob: Any) -> None:
    report = file_report(alice, "bob", "abuse", "rude")
    url = reverse("admin:moderation_report_change", args=[report.pk])
    client = client_for(moderator)
    response = client.post(url, {"outcome": "warned", "note": ""})
    assert response.status_code == 200 and "choose the action taken and write a note" in response.content.decode()
    assert Report.objects.get().status == Report.Status.OPEN
    assert client.post(url, {"outcome": "warned", "note": "warned about his chat"}).status_code == 302
    report.refresh_from_db()
    assert (report.status, report.outcome, report.note, report.closed_by) == (
        Report.Status.CLOSED, "warned", "warned about his chat", moderator)
    assert "closed already" in client.post(url, {"outcome": "none", "note": "again"}).content.decode()


def setups(kind: str, alice: Any, bob: Any) -> dict[str, str]:
    """The form for one act on alice (or her game with bob), made possible first."""
    fields = {"kind": kind, "user": str(alice.pk), "reason": "as the report says"}
    if kind in (Kind.LIFT_RATED, Kind.LIFT_LOBBY):
        Restriction.objects.create(user=alice, scope=kind.removeprefix("lift_"))
    if kind == Kind.REOPEN_ACCOUNT:
        type(alice).objects.filter(pk=alice.pk).update(is_active=False)
    if kind == Kind.ADJUDICATE:
        fields.update(user="", game=str(starting.start_game(alice, bob, seed=SEED).pk), winner="red")
    if kind == Kind.UNDO_RATING:
        fields.update(user="", game=str(finished_game(bob, alice).pk))
    if kind == Kind.CHAT_TIMEOUT:
        fields.update(minutes="15", chat_reason="insult")
    if kind == Kind.CHAT_REMOVE:
        fields.update(chat_line=str(lines.post("game:1", Speaker(alice), text="you idiot").pk))
    if kind == Kind.CHAT_LOCK:
        fields.update(user="", room="game:1/w", minutes="60")
    if kind == Kind.ABORT_GAME:
        fields.update(user="", game=str(starting.start_game(alice, bob, seed=SEED).pk))
    if kind == Kind.CORRECT_RATING:
        fields.update(ladder="ace-in-the-hole", rating="1420")
    if kind == Kind.LIFT_PLAYBAN:
        Ban.objects.create(user=alice, started=timezone.now(), ends=timezone.now() + timedelta(hours=1),
                           offence="abort")
    if kind == Kind.REFUND:
        since = timezone.now() - timedelta(days=7)
        fields.update(since_0=since.strftime("%Y-%m-%d"), since_1=since.strftime("%H:%M:%S"))
    if kind == Kind.DISQUALIFY:
        fields.update(tournament=str(finished_round_robin(alice, bob).pk), scoring="forfeit")
    return fields


def finished_round_robin(red: Any, black: Any) -> Tournament:
    """A round robin of two, over: red beat black."""
    now = timezone.now()
    t = Tournament.objects.create(name="Over", organizer=black, format=Tournament.Format.ROUND_ROBIN,
                                  starts_at=now, status=Tournament.Status.FINISHED, finished_at=now, current_round=1)
    first, second = (Entry.objects.create(tournament=t, user=user, number=n) for n, user in ((1, red), (2, black)))
    Pairing.objects.create(round=Round.objects.create(tournament=t, number=1), board=1, red=first, black=second,
                           result=Pairing.Result.RED)
    return t


@pytest.mark.parametrize("kind", Kind.values)
def test_a_moderator_does_each_act_through_the_admin(moderator: Any, alice: Any, bob: Any, kind: str) -> None:
    assert not moderator.is_superuser
    response = client_for(moderator).post(ADD, setups(kind, alice, bob))
    assert response.status_code == 302, response.content.decode()[-3000:]
    action = ModerationAction.objects.get()
    assert (action.kind, action.moderator, action.reason) == (kind, moderator, "as the report says")


@pytest.mark.parametrize("kind", Kind.values)
def test_staff_without_the_group_can_do_no_act(staff: Any, alice: Any, bob: Any, kind: str) -> None:
    client = client_for(staff)
    assert client.get(ADD).status_code == 403
    assert client.post(ADD, setups(kind, alice, bob)).status_code == 403
    assert not ModerationAction.objects.exists() and not Restriction.objects.filter(lifted_at__isnull=False).exists()


def test_the_act_form_refuses_an_act_the_user_lacks_the_permission_for(staff: Any, alice: Any) -> None:
    staff.user_permissions.add(*Permission.objects.filter(codename__in=["add_moderationaction", "restrict_account"]))
    client = client_for(staff)
    since = timezone.now() - timedelta(days=7)
    response = client.post(ADD, {"kind": "refund", "user": alice.pk, "reason": "engine",
                                 "since_0": since.strftime("%Y-%m-%d"), "since_1": "00:00:00"})
    assert response.status_code == 200
    assert "You may not refund the points" in response.content.decode()
    assert "it needs the permission moderation.refund_rating" in response.content.decode()
    assert client.post(ADD, {"kind": "restrict_lobby", "user": alice.pk, "reason": "spam"}).status_code == 302
    assert list(ModerationAction.objects.values_list("kind", flat=True)) == ["restrict_lobby"]


def test_a_refusal_found_when_acting_is_shown_and_nothing_logged(moderator: Any, alice: Any, bob: Any) -> None:
    game = starting.start_game(alice, bob, seed=SEED)
    client = client_for(moderator)
    response = client.post(ADD, {"kind": "adjudicate", "game": game.pk, "winner": "SW", "reason": "x"})
    assert f"Game {game.pk} has the seats red, black: choose one of them or a draw." in response.content.decode()
    response = client.post(ADD, {"kind": "lift_rated", "user": alice.pk, "reason": "x"})
    assert "Not done: alice has no restriction from rated games to lift." in response.content.decode()
    assert not ModerationAction.objects.exists()
    assert Game.objects.get(pk=game.pk).status == Game.Status.RUNNING


def test_the_account_page_shows_its_moderation_history_and_the_log_is_read_only(moderator: Any,
                                                                               alice: Any) -> None:
    act(moderator, Kind.RESTRICT_RATED, user=alice, reason="sandbagging in the pool")
    client = client_for(moderator)
    page = client.get(reverse("admin:auth_user_change", args=[alice.pk])).content.decode()
    assert "moderation history" in page.lower() and "sandbagging in the pool" in page
    history = client.get(reverse("admin:auth_user_history", args=[alice.pk])).content.decode()
    assert "Restrict from rated games" in history
    action = ModerationAction.objects.get()
    assert client.post(reverse("admin:moderation_moderationaction_change", args=[action.pk]),
                       {"reason": "changed"}).status_code == 403
    assert client.post(reverse("admin:moderation_moderationaction_delete", args=[action.pk]),
                       {"post": "yes"}).status_code == 403
    assert client.post(reverse("admin:auth_user_change", args=[alice.pk]), {"username": "x"}).status_code == 403


def test_a_restricted_player_cannot_enter_a_tournament(moderator: Any, alice: Any, django_user_model: Any) -> None:
    organizer = django_user_model.objects.create_user("org")
    rated = Tournament.objects.create(name="Rated Cup", organizer=organizer, starts_at=timezone.now()
                                      + timedelta(hours=1), time_control="5+3", rated=True)
    casual = Tournament.objects.create(name="Casual Cup", organizer=organizer, starts_at=timezone.now()
                                       + timedelta(hours=1), time_control="5+3", rated=False)
    act(moderator, Kind.RESTRICT_RATED, user=alice)
    with pytest.raises(changes.Refusal, match="you cannot join: a moderator has restricted your account: "
                                              "you may not play rated games"):
        entering.join(rated.pk, alice)
    entering.join(casual.pk, alice)
    act(moderator, Kind.RESTRICT_LOBBY, user=alice)
    with pytest.raises(changes.Refusal, match="you may not enter tournaments"):
        entering.join(Tournament.objects.create(name="Another", organizer=organizer, starts_at=timezone.now()
                                                + timedelta(hours=1), time_control="5+3", rated=False).pk, alice)


def test_the_rating_change_lists_undo_is_a_logged_act_for_moderators_only(moderator: Any, staff: Any,
                                                                          alice: Any, bob: Any) -> None:
    game = finished_game(bob, alice)
    change = RatingChange.objects.get(game=game, user=bob)
    form = {"action": "undo_rating_effect", "_selected_action": [change.pk]}
    staff.user_permissions.add(Permission.objects.get(codename="view_ratingchange"))
    client_for(staff).post(reverse("admin:ladder_ratingchange_changelist"), form)
    assert not RatingChange.objects.filter(undone_at__isnull=False).exists()  # no action for them
    response = client_for(moderator).post(reverse("admin:ladder_ratingchange_changelist"), form, follow=True)
    assert "Undid 2 rating changes from 1 game(s)." in response.content.decode()
    action = ModerationAction.objects.get()
    assert (action.kind, action.moderator, action.game) == (Kind.UNDO_RATING, moderator, game)
