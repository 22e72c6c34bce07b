"""Issue 37: what raw admin edits used to do is done by logged acts. A game's
result, status and ratings, a player's rating and a playban's end change only
through the acts (abort a game, correct a rating, lift or shorten a playban);
games, moves, rating changes and bans are read only and not deletable, for a
superuser too."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from api.auth import forget_requests
from games import starting
from games.models import Event, Game, Move
from ladder import playban
from ladder.models import Ban, Player, Rating, RatingChange
from moderation.models import ModerationAction
from tests.helpers import client_for, staff_group
from tests.moderation.conftest import SEED, finished_game

pytestmark = pytest.mark.django_db
Kind = ModerationAction.Kind
ADD = reverse("admin:moderation_moderationaction_add")


@pytest.fixture
def root(django_user_model: Any) -> Any:
    return django_user_model.objects.create_superuser("root", "root@example.org", "pw")


@pytest.fixture
def organizer(django_user_model: Any) -> Any:
    user = django_user_model.objects.create_user("org", "org@example.org", "pw", is_staff=True)
    user.groups.add(staff_group("Organizers"))
    return user


def result_of(game: Game) -> tuple[Any, ...]:
    game = Game.objects.get(pk=game.pk)
    return game.status, game.winner, game.reason, game.rated, game.score


# --- Games: read only, acts only ------------------------------------------------------


def test_a_raw_post_to_the_game_form_changes_nothing_even_for_a_superuser(root: Any, alice: Any,
                                                                          bob: Any) -> None:
    game = finished_game(alice, bob)  # red (alice) wins by resignation
    before = result_of(game)
    client = client_for(root)
    url = reverse("admin:games_game_change", args=[game.pk])
    page = client.get(url).content.decode()
    assert 'name="winner"' not in page and 'name="status"' not in page  # shown, not editable
    response = client.post(url, {"winner": "black", "status": "aborted", "reason": "aborted", "rated": "",
                                 "seats-TOTAL_FORMS": "0", "seats-INITIAL_FORMS": "0",
                                 "moves-TOTAL_FORMS": "0", "moves-INITIAL_FORMS": "0"})
    assert response.status_code == 403
    assert result_of(game) == before
    assert RatingChange.objects.filter(game=game, undone_at__isnull=True).count() == 2


def test_nobody_adds_a_game_or_deletes_games_moves_or_rating_changes(root: Any, alice: Any, bob: Any) -> None:
    game = finished_game(alice, bob)
    move = Move.objects.filter(game=game).first() or Move.objects.create(game=game, ply=1, seat="red", action="x")
    change = RatingChange.objects.filter(game=game).first()
    client = client_for(root)
    assert client.get(reverse("admin:games_game_add")).status_code == 403
    assert client.get(reverse("admin:games_move_add")).status_code == 403
    for name, pk in (("games_game", game.pk), ("games_move", move.pk), ("ladder_ratingchange", change.pk)):
        assert client.post(reverse(f"admin:{name}_delete", args=[pk]), {"post": "yes"}).status_code == 403
        client.post(reverse(f"admin:{name}_changelist"),
                    {"action": "delete_selected", "_selected_action": [pk], "post": "yes"})
    assert client.post(reverse("admin:games_move_change", args=[move.pk]), {"action": "y"}).status_code == 403
    assert client.post(reverse("admin:ladder_ratingchange_change", args=[change.pk]),
                       {"after": "3000"}).status_code == 403
    assert Game.objects.filter(pk=game.pk).exists() and Move.objects.filter(pk=move.pk).exists()
    assert RatingChange.objects.filter(pk=change.pk, after=change.after).exists()
    assert RatingChange.objects.filter(game=game).count() == 2


def test_a_moderator_aborts_a_running_game_with_a_logged_act(moderator: Any, alice: Any, bob: Any) -> None:
    game = starting.start_game(alice, bob, seed=SEED)
    response = client_for(moderator).post(ADD, {"kind": Kind.ABORT_GAME, "game": game.pk,
                                                "reason": "stuck after the outage"})
    assert response.status_code == 302, response.content.decode()[-2000:]
    assert result_of(game)[:4] == (Game.Status.ABORTED, "", Game.Reason.ABORTED, False)
    action = ModerationAction.objects.get()
    assert (action.kind, action.game, action.moderator, action.reason) == (
        Kind.ABORT_GAME, game, moderator, "stuck after the outage")
    assert f"game {game.pk} aborted" in action.outcome
    assert LogEntry.objects.filter(object_id=str(game.pk), change_message__contains="stuck after the outage").exists()
    assert playban.in_force(alice) is None and playban.in_force(bob) is None  # nobody's fault


def test_aborting_a_finished_game_is_refused_and_writes_nothing(moderator: Any, alice: Any, bob: Any) -> None:
    game = finished_game(alice, bob)
    before = result_of(game)
    response = client_for(moderator).post(ADD, {"kind": Kind.ABORT_GAME, "game": game.pk, "reason": "x"},
                                          follow=True)
    assert f"Not done: game {game.pk} is over (Finished)" in response.content.decode()
    assert result_of(game) == before
    assert not ModerationAction.objects.exists() and not LogEntry.objects.exists()


def test_a_tournament_game_is_adjudicated_not_aborted(moderator: Any, alice: Any, bob: Any) -> None:
    game = starting.start_game(alice, bob, seed=SEED, event=Event("Spring Cup", "1", number=1))
    response = client_for(moderator).post(ADD, {"kind": Kind.ABORT_GAME, "game": game.pk, "reason": "x"},
                                          follow=True)
    assert "belongs to Spring Cup" in response.content.decode()
    assert result_of(game)[0] == Game.Status.RUNNING and not ModerationAction.objects.exists()


def test_an_organizer_cannot_abort_a_game(organizer: Any, alice: Any, bob: Any) -> None:
    game = starting.start_game(alice, bob, seed=SEED)
    assert client_for(organizer).post(ADD, {"kind": Kind.ABORT_GAME, "game": game.pk,
                                            "reason": "x"}).status_code == 403
    assert result_of(game)[0] == Game.Status.RUNNING


def test_the_game_page_links_to_the_acts_that_fit_it(moderator: Any, staff: Any, alice: Any, bob: Any) -> None:
    running = starting.start_game(alice, bob, seed=SEED)
    finished = finished_game(alice, bob)
    client = client_for(moderator)
    page = client.get(reverse("admin:games_game_change", args=[running.pk])).content.decode()
    assert f"{ADD}?kind=abort_game&amp;game={running.pk}" in page
    assert f"{ADD}?kind=adjudicate&amp;game={running.pk}" in page
    page = client.get(reverse("admin:games_game_change", args=[finished.pk])).content.decode()
    assert f"{ADD}?kind=undo_rating&amp;game={finished.pk}" in page
    assert "kind=abort_game" not in page
    staff.user_permissions.add(Permission.objects.get(codename="view_game"))
    page = client_for(staff).get(reverse("admin:games_game_change", args=[running.pk])).content.decode()
    assert "kind=abort_game" not in page  # not offered to who may not do it


# --- Ratings: corrected by an act, kept in the history -----------------------------------


def api_history(username: str, ladder: str = "ace-in-the-hole") -> list[tuple[int, int | None]]:
    forget_requests()
    body = Client(HTTP_HOST="localhost").get(f"/api/players/{username}/rating-history", {"ladder": ladder}).json()
    return [(point["rating"], point["game_id"]) for point in body["points"]]


def test_a_rating_correction_moves_the_rating_and_shows_in_the_history(moderator: Any, alice: Any,
                                                                       bob: Any) -> None:
    game = finished_game(bob, alice)
    lost_to = Player.objects.get(user=alice).rating
    response = client_for(moderator).post(ADD, {"kind": Kind.CORRECT_RATING, "user": alice.pk,
                                                "ladder": "ace-in-the-hole", "rating": "1420",
                                                "reason": "boosted by a friend's resignations"})
    assert response.status_code == 302, response.content.decode()[-2000:]
    player = Player.objects.get(user=alice)
    assert (player.rating, player.rated_games) == (1420, 1)  # the counters stay: no game was played
    assert api_history("alice") == [(1500, None), (lost_to, game.pk), (1420, None)]
    action = ModerationAction.objects.get()
    assert (action.kind, action.user, action.reason) == (Kind.CORRECT_RATING, alice,
                                                         "boosted by a friend's resignations")
    assert f"from {lost_to} to 1420" in action.outcome
    correction = RatingChange.objects.get(game__isnull=True)
    assert "boosted by a friend's resignations" in correction.note


def test_a_correction_on_another_ladder_sets_its_rating_row(moderator: Any, alice: Any) -> None:
    client_for(moderator).post(ADD, {"kind": Kind.CORRECT_RATING, "user": alice.pk, "ladder": "rhombus",
                                     "rating": "1610", "reason": "migrated from the club's list"})
    assert Rating.objects.get(user=alice, ladder="rhombus").rating == 1610
    assert api_history("alice", "rhombus") == [(1500, None), (1610, None)]
    assert not Player.objects.filter(user=alice, rating=1610).exists()


def test_a_correction_needs_a_ladder_and_a_sane_rating(moderator: Any, alice: Any) -> None:
    client = client_for(moderator)
    page = client.post(ADD, {"kind": Kind.CORRECT_RATING, "user": alice.pk, "ladder": "ace-in-the-hole",
                             "rating": "14200", "reason": "typo"}).content.decode()
    assert "Give the new rating, from 100 to 3500" in page
    page = client.post(ADD, {"kind": Kind.CORRECT_RATING, "user": alice.pk, "rating": "1400",
                             "reason": "x"}).content.decode()
    assert "Choose the ladder whose rating is corrected" in page
    assert not ModerationAction.objects.exists() and not RatingChange.objects.exists()


def test_undoing_a_game_after_a_correction_keeps_the_correction(moderator: Any, alice: Any, bob: Any) -> None:
    game = finished_game(bob, alice)
    lost = Player.objects.get(user=alice).rating - 1500
    client = client_for(moderator)
    client.post(ADD, {"kind": Kind.CORRECT_RATING, "user": alice.pk, "ladder": "ace-in-the-hole",
                      "rating": "1400", "reason": "x"})
    client.post(ADD, {"kind": Kind.UNDO_RATING, "game": game.pk, "reason": "y"})
    player = Player.objects.get(user=alice)
    assert (player.rating, player.rated_games, player.losses, player.streak) == (1400 - lost, 0, 0, 0)
    assert RatingChange.objects.get(game__isnull=True).undone_at is None


def test_a_raw_post_changing_a_players_rating_is_ignored(root: Any, alice: Any, bob: Any) -> None:
    finished_game(alice, bob)
    before = Player.objects.values().get(user=alice)
    url = reverse("admin:ladder_player_change", args=[alice.pk])
    client = client_for(root)
    assert 'name="rating"' not in client.get(url).content.decode()
    response = client.post(url, {"user": alice.pk, "rating": "2600", "rated_games": "50", "wins": "50",
                                 "draws": "0", "losses": "0", "streak": "50", "reached_2400": "on",
                                 "last_active_0": "", "last_active_1": "", "bot_level": ""})
    assert response.status_code == 302, response.content.decode()[-2000:]
    assert Player.objects.values().get(user=alice) == before
    assert client.get(reverse("admin:ladder_player_add")).status_code == 403
    assert client.post(reverse("admin:ladder_player_delete", args=[alice.pk]), {"post": "yes"}).status_code == 403


# --- Playbans: lifted or shortened by an act ---------------------------------------------


def ban(user: Any, hours: float = 72) -> Ban:
    now = timezone.now()
    return Ban.objects.create(user=user, started=now - timedelta(minutes=5), ends=now + timedelta(hours=hours),
                              offence=playban.ABORT)


def test_a_moderator_lifts_a_playban(moderator: Any, alice: Any) -> None:
    banned = ban(alice)
    assert playban.refusal(alice) is not None
    response = client_for(moderator).post(ADD, {"kind": Kind.LIFT_PLAYBAN, "user": alice.pk,
                                                "reason": "the outage made her abort"})
    assert response.status_code == 302, response.content.decode()[-2000:]
    assert playban.refusal(alice) is None
    banned.refresh_from_db()
    assert banned.started < banned.ends <= timezone.now()  # served until the lift, still on the record
    action = ModerationAction.objects.get()
    assert (action.kind, action.user) == (Kind.LIFT_PLAYBAN, alice) and action.outcome.startswith("lifted 1")


def test_a_moderator_shortens_a_playban(moderator: Any, alice: Any) -> None:
    banned = ban(alice)
    new_end = banned.started + timedelta(hours=2)
    response = client_for(moderator).post(ADD, {
        "kind": Kind.LIFT_PLAYBAN, "user": alice.pk, "reason": "first time",
        "until_0": new_end.strftime("%Y-%m-%d"), "until_1": new_end.strftime("%H:%M:%S")})
    assert response.status_code == 302, response.content.decode()[-2000:]
    banned.refresh_from_db()
    assert banned.ends == new_end.replace(microsecond=0)
    assert playban.refusal(alice) is not None  # still banned, for less
    assert ModerationAction.objects.get().outcome.startswith("shortened 1")


def test_a_new_end_after_the_current_one_is_refused(moderator: Any, alice: Any) -> None:
    banned = ban(alice, hours=1)
    later = banned.ends + timedelta(days=1)
    response = client_for(moderator).post(ADD, {
        "kind": Kind.LIFT_PLAYBAN, "user": alice.pk, "reason": "x",
        "until_0": later.strftime("%Y-%m-%d"), "until_1": later.strftime("%H:%M:%S")}, follow=True)
    assert "a new end must come before it" in response.content.decode()
    assert Ban.objects.get().ends == banned.ends and not ModerationAction.objects.exists()


def test_lifting_needs_its_permission(staff: Any, alice: Any) -> None:
    banned = ban(alice)
    staff.user_permissions.add(*Permission.objects.filter(codename__in=["add_moderationaction", "lift_restriction"]))
    response = client_for(staff).post(ADD, {"kind": Kind.LIFT_PLAYBAN, "user": alice.pk, "reason": "x"})
    assert "it needs the permission moderation.lift_playban" in response.content.decode()
    assert Ban.objects.get().ends == banned.ends and not ModerationAction.objects.exists()


def test_a_lifted_ban_still_lengthens_the_next(moderator: Any, alice: Any) -> None:
    ban(alice)
    client_for(moderator).post(ADD, {"kind": Kind.LIFT_PLAYBAN, "user": alice.pk, "reason": "x"})
    for _ in range(playban.LIMIT):
        earned = playban.record(alice, playban.ABORT)
    assert earned is not None and earned.ends - earned.started == playban.ban_length(1)


def test_a_bans_end_is_not_edited_in_the_admin(root: Any, staff: Any, alice: Any) -> None:
    banned = ban(alice)
    staff.user_permissions.add(Permission.objects.get(codename="view_ban"))
    assert "kind=lift_playban" not in client_for(staff).get(reverse("admin:ladder_ban_changelist")).content.decode()
    client = client_for(root)
    assert f"{ADD}?kind=lift_playban&amp;user={alice.pk}" in client.get(
        reverse("admin:ladder_ban_changelist")).content.decode()
    response = client.post(reverse("admin:ladder_ban_change", args=[banned.pk]),
                           {"ends_0": "2000-01-01", "ends_1": "00:00:00"})
    assert response.status_code == 403
    assert client.post(reverse("admin:ladder_ban_delete", args=[banned.pk]), {"post": "yes"}).status_code == 403
    assert Ban.objects.get().ends == banned.ends


def test_a_correction_reads_in_the_rating_changes_admin(root: Any, moderator: Any, alice: Any) -> None:
    client_for(moderator).post(ADD, {"kind": Kind.CORRECT_RATING, "user": alice.pk, "ladder": "ace-in-the-hole",
                                     "rating": "1600", "reason": "restored after the bug of 3 May"})
    correction = RatingChange.objects.get()
    client = client_for(root)
    assert client.get(reverse("admin:ladder_ratingchange_changelist")).status_code == 200
    page = client.get(reverse("admin:ladder_ratingchange_change", args=[correction.pk])).content.decode()
    assert "restored after the bug of 3 May" in page and 'name="after"' not in page


def test_a_refund_leaves_corrections_alone(moderator: Any, alice: Any, bob: Any, charlie: Any) -> None:
    finished_game(alice, bob)  # alice's win took points from bob
    client = client_for(moderator)
    client.post(ADD, {"kind": Kind.CORRECT_RATING, "user": charlie.pk, "ladder": "ace-in-the-hole",
                      "rating": "1300", "reason": "x"})
    since = timezone.now() - timedelta(days=1)
    client.post(ADD, {"kind": Kind.REFUND, "user": alice.pk, "reason": "engine",
                      "since_0": since.strftime("%Y-%m-%d"), "since_1": since.strftime("%H:%M:%S")})
    assert Player.objects.get(user=bob).rating == 1500  # refunded
    assert Player.objects.get(user=charlie).rating == 1300
    assert RatingChange.objects.get(game__isnull=True).undone_at is None
