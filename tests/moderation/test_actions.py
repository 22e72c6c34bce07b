"""Each moderator act does what it says, is logged (ModerationAction and the
account's admin history), and the restrictions can be lifted."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.admin.models import LogEntry
from django.utils import timezone

from games import payloads, starting
from games.models import Game
from ladder import challenges, inputs, matchmaking, seeks
from ladder.models import Challenge, Player, PoolEntry, RatingChange, Seek
from moderation import restrictions
from moderation.actions import ModerationRefusal
from moderation.models import ModerationAction, Restriction
from tests.moderation.conftest import SEED, act, drawn_game, finished_game

pytestmark = pytest.mark.django_db
Kind = ModerationAction.Kind


def rating(user: Any) -> int:
    return int(Player.objects.get(user=user).rating)


def history_of(user: Any) -> list[str]:
    """The change messages of the account's History page in the admin."""
    return list(LogEntry.objects.filter(object_id=str(user.pk), content_type__model="user")
                .values_list("change_message", flat=True))


def test_a_restriction_from_rated_games_is_logged_and_withdraws_rated_offers(moderator: Any, alice: Any,
                                                                              bob: Any) -> None:
    rated_seek = seeks.create_seek(alice, "5+3", rated=True)
    casual_seek = seeks.create_seek(alice, "10+5", rated=False)
    challenge = challenges.create_challenge(bob, "alice", "5+3", rated=True)
    action = act(moderator, Kind.RESTRICT_RATED, user=alice, days=7, reason="boosting with a friend")
    assert Seek.objects.get(pk=rated_seek.pk).status == Seek.Status.CANCELLED
    assert Seek.objects.get(pk=casual_seek.pk).status == Seek.Status.OPEN  # casual play goes on
    assert Challenge.objects.get(pk=challenge.pk).status == Challenge.Status.CANCELLED
    logged = ModerationAction.objects.get()
    assert (logged.pk, logged.moderator, logged.user, logged.reason) == (
        action.pk, moderator, alice, "boosting with a friend")
    assert "restricted from rated games until" in logged.outcome and "1 seek(s), 0 seat(s) at others' seeks, 1 challenge(s)" in logged.outcome
    restriction = Restriction.objects.get(user=alice)
    assert restriction.ends is not None and restriction.ends - logged.created == timedelta(days=7)
    [entry] = history_of(alice)
    assert "Restrict from rated games" in entry and "boosting with a friend" in entry


@pytest.mark.parametrize("doing, rated", [("seek", True), ("challenge", True), ("pool", False), ("rated", False)])
def test_a_restriction_from_rated_games_refuses_only_rated_play(moderator: Any, alice: Any, doing: str,
                                                                 rated: bool) -> None:
    act(moderator, Kind.RESTRICT_RATED, user=alice)
    why = restrictions.refusal(alice, doing, rated=rated)  # type: ignore[arg-type]
    assert why == ("A moderator has restricted your account: you may not play rated games until a moderator "
                   "lifts it. Reason: seen it. To appeal, write to the moderators at /report/appeal/")
    if doing in ("seek", "challenge"):
        assert restrictions.refusal(alice, doing, rated=False) is None  # type: ignore[arg-type]


def test_the_lobby_refuses_a_restricted_player_with_the_message(moderator: Any, alice: Any, bob: Any) -> None:
    act(moderator, Kind.RESTRICT_LOBBY, user=alice, days=3)
    with pytest.raises(inputs.LobbyRefusal, match=r"you may not create or accept seeks until \d{1,2} [A-Z][a-z]{2} 20\d\d"):
        seeks.create_seek(alice, "5+3", rated=False)
    with pytest.raises(inputs.LobbyRefusal, match="you may not challenge or accept challenges until"):
        challenges.create_challenge(alice, "bob", "5+3", rated=False)
    seek = seeks.create_seek(bob, "5+3", rated=False)
    with pytest.raises(inputs.LobbyRefusal, match="you may not create or accept seeks"):
        seeks.accept_seek(seek.pk, alice)
    challenge = challenges.create_challenge(bob, "alice", "5+3", rated=False)
    with pytest.raises(inputs.LobbyRefusal, match="you may not challenge or accept challenges"):
        challenges.accept_challenge(challenge.pk, alice)
    with pytest.raises(matchmaking.PoolRefusal, match="you may not join quick pairing"):
        matchmaking.join(alice, "5+3")
    assert not Game.objects.exists() and not PoolEntry.objects.exists()
    assert Seek.objects.get(pk=seek.pk).status == Seek.Status.OPEN


def test_a_restricted_player_leaves_and_cannot_join_a_four_player_seek(moderator: Any, alice: Any, bob: Any,
                                                                        charlie: Any) -> None:
    seek = seeks.create_seek(bob, "10+5", rated=False, rules="rhombus", players=4)
    seeks.join_seek(seek.pk, alice)
    act(moderator, Kind.RESTRICT_LOBBY, user=alice)
    assert list(seek.entries.values_list("user__username", flat=True)) == ["bob"]
    assert "1 seat(s) at others' seeks" in ModerationAction.objects.get().outcome
    with pytest.raises(inputs.LobbyRefusal, match="you may not create or accept seeks"):
        seeks.join_seek(seek.pk, alice)
    seeks.join_seek(seek.pk, charlie)  # others still may


def test_a_player_restricted_from_rated_games_may_still_play_casual(moderator: Any, alice: Any, bob: Any) -> None:
    act(moderator, Kind.RESTRICT_RATED, user=alice)
    with pytest.raises(inputs.LobbyRefusal, match="you may not play rated games"):
        seeks.accept_seek(seeks.create_seek(bob, "5+3", rated=True).pk, alice)
    with pytest.raises(matchmaking.PoolRefusal, match="you may not play rated games"):
        matchmaking.join(alice, "5+3")
    game = seeks.accept_seek(seeks.create_seek(bob, "10+5", rated=False).pk, alice)
    assert not game.rated


def test_a_restriction_ends_by_itself_and_can_be_lifted_early(moderator: Any, alice: Any) -> None:
    act(moderator, Kind.RESTRICT_LOBBY, user=alice, days=1)
    Restriction.objects.update(ends=timezone.now() - timedelta(seconds=1))
    assert restrictions.refusal(alice, "seek") is None
    act(moderator, Kind.RESTRICT_LOBBY, user=alice)
    assert restrictions.refusal(alice, "seek") is not None
    lift = act(moderator, Kind.LIFT_LOBBY, user=alice, reason="appeal accepted")
    assert restrictions.refusal(alice, "seek") is None
    assert lift.outcome == "lifted 1 restriction(s) from seeks, challenges and quick pairing"
    seeks.create_seek(alice, "5+3")  # the lobby takes her again
    with pytest.raises(ModerationRefusal, match="alice has no restriction from seeks.* to lift"):
        act(moderator, Kind.LIFT_LOBBY, user=alice)
    assert [a.kind for a in ModerationAction.objects.order_by("pk")] == [
        Kind.RESTRICT_LOBBY, Kind.RESTRICT_LOBBY, Kind.LIFT_LOBBY]
    assert len(history_of(alice)) == 3


def test_lifting_a_rated_restriction(moderator: Any, alice: Any) -> None:
    act(moderator, Kind.RESTRICT_RATED, user=alice)
    act(moderator, Kind.LIFT_RATED, user=alice)
    assert restrictions.refusal(alice, "rated") is None
    assert Restriction.objects.get().lifted_at is not None


def test_closing_an_account_withdraws_its_open_play_and_reopening_lets_it_back(
        moderator: Any, alice: Any, bob: Any) -> None:
    seek = seeks.create_seek(alice, "5+3")
    challenge = challenges.create_challenge(alice, "bob", "10+5")
    entry = matchmaking.join(alice, "3+2")
    act(moderator, Kind.CLOSE_ACCOUNT, user=alice, reason="engine use, confirmed")
    alice.refresh_from_db()
    assert not alice.is_active
    assert Seek.objects.get(pk=seek.pk).status == Seek.Status.CANCELLED
    assert Challenge.objects.get(pk=challenge.pk).status == Challenge.Status.CANCELLED
    assert PoolEntry.objects.get(pk=entry.pk).status == PoolEntry.Status.LEFT
    assert not Client_logs_in("alice")
    with pytest.raises(ModerationRefusal, match="alice is already closed"):
        act(moderator, Kind.CLOSE_ACCOUNT, user=alice)
    act(moderator, Kind.REOPEN_ACCOUNT, user=alice, reason="appeal")
    alice.refresh_from_db()
    assert alice.is_active and Client_logs_in("alice")
    assert [a.kind for a in ModerationAction.objects.order_by("pk")] == [Kind.CLOSE_ACCOUNT, Kind.REOPEN_ACCOUNT]


def Client_logs_in(username: str) -> bool:  # noqa: N802
    from django.test import Client

    return Client().login(username=username, password="password")


def test_adjudicating_a_running_game_shows_the_reason_on_it(moderator: Any, alice: Any, bob: Any) -> None:
    game = starting.start_game(alice, bob, seed=SEED)
    act(moderator, Kind.ADJUDICATE, game=game, winner="black", reason="red stalled for an hour; black wins")
    game.refresh_from_db()
    assert (game.status, game.winner, game.reason, game.rated) == (
        Game.Status.FINISHED, game.side_name("black"), Game.Reason.ADJUDICATION, False)
    assert game.adjudication_note == "red stalled for an hour; black wins"
    assert payloads.game_json(game)["adjudication"] == "red stalled for an hour; black wins"  # what the page shows
    entry = LogEntry.objects.get(object_id=str(game.pk), content_type__model="game")
    assert "Adjudicate" in entry.change_message


def test_adjudicating_a_running_game_as_a_draw(moderator: Any, alice: Any, bob: Any) -> None:
    game = starting.start_game(alice, bob, seed=SEED)
    act(moderator, Kind.ADJUDICATE, game=game, winner="", reason="both left")
    game.refresh_from_db()
    assert game.winner == "" and game.reason == Game.Reason.ADJUDICATION and not game.rated


def test_adjudicating_a_finished_game_replaces_its_result_and_undoes_its_rating(moderator: Any, alice: Any,
                                                                               bob: Any) -> None:
    game = finished_game(bob, alice)  # bob (black) won: 1520 v 1480
    action = act(moderator, Kind.ADJUDICATE, game=game, winner="red", reason="bob's engine use; alice wins")
    game.refresh_from_db()
    assert (game.winner, game.reason, game.rated, game.adjudication_note) == (
        game.side_name("red"), Game.Reason.ADJUDICATION, False, "bob's engine use; alice wins")
    assert payloads.game_json(game)["adjudication"] == "bob's engine use; alice wins"
    assert (rating(alice), rating(bob)) == (1500, 1500)  # unrated now: the old result's points are gone
    assert "to red wins by adjudication (unrated; 2 rating change(s) undone)" in action.outcome
    with pytest.raises(ModerationRefusal, match="the winner is one of red, black or nobody"):
        act(moderator, Kind.ADJUDICATE, game=game, winner="green")
    assert ModerationAction.objects.count() == 1  # the refused act is not logged


def test_an_events_game_is_left_to_its_event(moderator: Any, alice: Any, bob: Any) -> None:
    """A finished event's game is handed to the event's own correction
    (tournaments.corrections.overturn_act: tests/tournaments/test_admin_result_corrections.py),
    which refuses a game that is none of its boards."""
    game = finished_game(bob, alice)
    Game.objects.filter(pk=game.pk).update(event="Autumn Cup")
    with pytest.raises(ModerationRefusal, match="belongs to Autumn Cup, which is none of the site's tournaments"):
        act(moderator, Kind.ADJUDICATE, game=game, winner="red")
    assert Game.objects.get(pk=game.pk).reason == Game.Reason.RESIGNATION and rating(bob) == 1520


def test_undoing_a_games_rating_effect_is_logged_and_once(moderator: Any, alice: Any, bob: Any) -> None:
    game = finished_game(bob, alice)
    assert (rating(alice), rating(bob)) == (1480, 1520)
    action = act(moderator, Kind.UNDO_RATING, game=game, reason="bob was boosted")
    assert (rating(alice), rating(bob)) == (1500, 1500)
    assert action.outcome == f"undid 2 rating change(s) of game {game.pk}"
    with pytest.raises(ModerationRefusal, match="no rating change left to undo"):
        act(moderator, Kind.UNDO_RATING, game=game)
    assert ModerationAction.objects.count() == 1


def test_a_refund_gives_each_opponent_their_points_back_once(moderator: Any, alice: Any, bob: Any,
                                                              charlie: Any, django_user_model: Any) -> None:
    """The offender (charlie) beat alice and drew bob, who lost points in the draw
    (charlie was lower rated); dave beat charlie, which is not charlie's to refund;
    a win before the period stays."""
    dave = django_user_model.objects.create_user("dave", password="password")
    Player.objects.create(user=charlie, rating=1300, rated_games=40)
    Player.objects.create(user=bob, rating=1700, rated_games=40)
    Player.objects.create(user=alice)
    Player.objects.create(user=dave)
    before_period = finished_game(charlie, dave)
    RatingChange.objects.filter(game=before_period).update(created=timezone.now() - timedelta(days=30))
    since = timezone.now() - timedelta(days=7)
    start = {u.username: rating(u) for u in (alice, bob, dave)}
    won = finished_game(charlie, alice)
    drew = drawn_game(charlie, bob)
    lost = finished_game(dave, charlie)
    after_games = {u.username: rating(u) for u in (alice, bob, dave)}
    alice_lost = start["alice"] - after_games["alice"]
    bob_lost = start["bob"] - after_games["bob"]
    assert alice_lost > 0 and bob_lost > 0  # both lost points to charlie
    offender_rating = rating(charlie)

    action = act(moderator, Kind.REFUND, user=charlie, since=since, reason="engine use since last week")
    assert rating(alice) == after_games["alice"] + alice_lost == start["alice"]
    assert rating(bob) == start["bob"]
    assert rating(dave) == after_games["dave"]  # dave won against charlie: nothing to give back
    assert rating(charlie) == offender_rating  # the refund gives, it does not take
    assert f"alice +{alice_lost} (game {won.pk})" in action.outcome
    assert f"bob +{bob_lost} (game {drew.pk})" in action.outcome
    refunded = RatingChange.objects.filter(undone_at__isnull=False)
    assert sorted(refunded.values_list("user__username", "game_id")) == [("alice", won.pk), ("bob", drew.pk)]
    assert not RatingChange.objects.filter(game__in=[lost, before_period], undone_at__isnull=False).exists()

    again = act(moderator, Kind.REFUND, user=charlie, since=since)
    assert again.outcome.startswith("nothing to refund")
    assert (rating(alice), rating(bob)) == (start["alice"], start["bob"])  # not twice
    # A wider period reaches the earlier game only: the refunded ones are not given again.
    wider = act(moderator, Kind.REFUND, user=charlie, since=since - timedelta(days=60))
    assert wider.outcome == f"refunded 1 opponent change(s): dave +30 (game {before_period.pk})"
    assert (rating(alice), rating(bob)) == (start["alice"], start["bob"])
    assert ModerationAction.objects.filter(kind=Kind.REFUND).count() == 3


def test_a_refund_period_must_make_sense(moderator: Any, alice: Any) -> None:
    with pytest.raises(ModerationRefusal, match="the refund period must start before it ends"):
        act(moderator, Kind.REFUND, user=alice, since=timezone.now(), until=timezone.now() - timedelta(days=1))
    with pytest.raises(ModerationRefusal, match="a refund needs the start of the period"):
        act(moderator, Kind.REFUND, user=alice)


def test_every_act_needs_a_reason(moderator: Any, alice: Any) -> None:
    with pytest.raises(ModerationRefusal, match="say why"):
        act(moderator, Kind.RESTRICT_RATED, user=alice, reason="  ")
    assert not Restriction.objects.exists() and not ModerationAction.objects.exists()


def test_a_moderator_cannot_act_on_staff_nor_on_themselves(moderator: Any, staff: Any) -> None:
    with pytest.raises(ModerationRefusal, match="staffer is staff: only a superuser acts on a staff account"):
        act(moderator, Kind.CLOSE_ACCOUNT, user=staff)
    with pytest.raises(ModerationRefusal, match="a moderator does not act on their own account"):
        act(moderator, Kind.RESTRICT_RATED, user=moderator)
    staff.refresh_from_db()
    assert staff.is_active and not ModerationAction.objects.exists()


def test_a_restriction_cancels_a_team_challenge_the_player_is_invited_to(moderator: Any, alice: Any, bob: Any,
                                                                          charlie: Any, dave: Any) -> None:
    """Alice is one of the two opponents named (not the challenger, not the partner)."""
    challenge = challenges.create_team_challenge(bob, "charlie", ["alice", "dave"], "5+3")
    action = act(moderator, Kind.RESTRICT_RATED, user=alice)
    assert Challenge.objects.get(pk=challenge.pk).status == Challenge.Status.CANCELLED
    assert "1 challenge(s)" in action.outcome
