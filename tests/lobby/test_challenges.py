"""Direct challenges: one player invites another by name (ladder.challenges), on PostgreSQL."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.models import Game
from ladder import challenges, inputs, tasks
from ladder.models import Challenge

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("services")]


def snapshot() -> list[tuple[Any, ...]]:
    return list(Challenge.objects.order_by("pk").values_list("pk", "status", "game_id", "expires_at"))


def test_a_challenge_waits_for_an_answer(alice: Any, bob: Any) -> None:
    before = timezone.now()
    challenge = challenges.create_challenge(alice, "bob", "5+3", rated=False, colour="red")
    assert (challenge.challenger, challenge.challenged, challenge.status) == (alice, bob, "pending")
    assert timedelta(minutes=9) < challenge.expires_at - before <= timedelta(minutes=10, seconds=5)
    [incoming] = challenges.pending_challenges(bob)
    [outgoing] = challenges.pending_challenges(alice)
    assert (incoming["direction"], incoming["challenger"], incoming["time_control"]["key"]) == (
        "incoming", "alice", "5+3")
    assert (outgoing["direction"], outgoing["challenged"]) == ("outgoing", "bob")


def test_a_correspondence_challenge_waits_three_days(alice: Any, bob: Any) -> None:
    challenge = challenges.create_challenge(alice, "bob", "1d")
    assert challenge.expires_at - challenge.created > timedelta(days=2, hours=23)


@pytest.mark.parametrize("username, message", [
    ("alice", "cannot challenge yourself"),
    ("nobody", "no player called 'nobody'"),
    ("", "name the player"),
])
def test_impossible_challenges_are_refused(alice: Any, bob: Any, username: str, message: str) -> None:
    with pytest.raises(inputs.LobbyRefusal, match=message):
        challenges.create_challenge(alice, username, "5+3")
    assert not Challenge.objects.exists()


def test_a_bad_time_control_is_refused(alice: Any, bob: Any) -> None:
    with pytest.raises(inputs.LobbyRefusal, match="not an offered time control"):
        challenges.create_challenge(alice, "bob", "45+45")
    assert not Challenge.objects.exists()


def test_one_pending_challenge_per_pair(alice: Any, bob: Any) -> None:
    challenges.create_challenge(alice, "bob", "5+3")
    before = snapshot()
    with pytest.raises(inputs.LobbyRefusal, match="already challenged bob"):
        challenges.create_challenge(alice, "bob", "10+5")
    assert snapshot() == before
    challenges.create_challenge(bob, "alice", "10+5")  # the other way round is a different challenge


def test_accepting_starts_the_game_with_the_challenge_s_terms(alice: Any, bob: Any) -> None:
    challenge = challenges.create_challenge(alice, "bob", "10+5", rated=False, colour="black")
    game = challenges.accept_challenge(challenge.pk, bob)
    assert (game.seat("red").user, game.seat("black").user, game.rated, game.time_control.key) == (bob, alice, False, "10+5")
    challenge.refresh_from_db()
    assert (challenge.status, challenge.game) == ("accepted", game)
    assert challenges.pending_challenges(alice) == []


def test_only_the_challenged_player_accepts_or_declines(alice: Any, bob: Any, charlie: Any) -> None:
    challenge = challenges.create_challenge(alice, "bob", "5+3")
    before = snapshot()
    for user in (alice, charlie):
        with pytest.raises(inputs.LobbyRefusal, match="only the challenged player can accept"):
            challenges.accept_challenge(challenge.pk, user)
        with pytest.raises(inputs.LobbyRefusal, match="only the challenged player can decline"):
            challenges.decline_challenge(challenge.pk, user)
    with pytest.raises(inputs.LobbyRefusal, match="only the challenger can cancel"):
        challenges.cancel_challenge(challenge.pk, bob)
    assert snapshot() == before and not Game.objects.exists()


def test_a_declined_challenge_cannot_then_be_accepted(alice: Any, bob: Any) -> None:
    challenge = challenges.create_challenge(alice, "bob", "5+3")
    challenges.decline_challenge(challenge.pk, bob)
    with pytest.raises(inputs.LobbyRefusal, match="no longer open \\(declined\\)"):
        challenges.accept_challenge(challenge.pk, bob)
    assert Challenge.objects.get().status == "declined" and not Game.objects.exists()


def test_the_challenger_cancels(alice: Any, bob: Any) -> None:
    challenge = challenges.create_challenge(alice, "bob", "5+3")
    challenges.cancel_challenge(challenge.pk, alice)
    with pytest.raises(inputs.LobbyRefusal, match="no longer open \\(cancelled\\)"):
        challenges.accept_challenge(challenge.pk, bob)
    assert challenges.pending_challenges(bob) == []


def test_a_lapsed_challenge_is_refused_before_the_task_marks_it(alice: Any, bob: Any) -> None:
    challenge = challenges.create_challenge(alice, "bob", "5+3")
    later = timezone.now() + timedelta(minutes=11)
    before = snapshot()
    with pytest.raises(inputs.LobbyRefusal, match="that challenge has expired"):
        challenges.accept_challenge(challenge.pk, bob, now=later)
    assert snapshot() == before and not Game.objects.exists()
    assert challenges.pending_challenges(bob, now=later) == []
    # ... and it no longer blocks a new challenge between the two.
    challenges.create_challenge(alice, "bob", "3+2", now=later)
    assert Challenge.objects.get(pk=challenge.pk).status == "expired"


def test_expire_challenges_marks_only_lapsed_ones(alice: Any, bob: Any, charlie: Any) -> None:
    quick = challenges.create_challenge(alice, "bob", "5+3")
    slow = challenges.create_challenge(alice, "charlie", "3d")
    assert challenges.expire_challenges(timezone.now() + timedelta(minutes=11)) == 1
    assert Challenge.objects.get(pk=quick.pk).status == "expired"
    assert Challenge.objects.get(pk=slow.pk).status == "pending"
    with pytest.raises(inputs.LobbyRefusal, match="no longer open \\(expired\\)"):
        challenges.accept_challenge(quick.pk, bob)


def test_the_periodic_task_expires_lapsed_challenges(alice: Any, bob: Any) -> None:
    challenge = challenges.create_challenge(alice, "bob", "5+3")
    Challenge.objects.filter(pk=challenge.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert tasks.expire_challenges.apply().get() == 1
    assert Challenge.objects.get().status == "expired"


def test_the_beat_schedule_runs_the_ladder_tasks(settings: Any) -> None:
    tasks_scheduled = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert {"ladder.tasks.expire_challenges", "ladder.tasks.expire_seeks"} <= tasks_scheduled
