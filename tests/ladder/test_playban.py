"""Playban (issue 14, ladder/playban.py): offences judged from how games end,
bans that double on repeats and fade after a clean week, refused everywhere a
game with other people starts. Time is moved by passing ``now``, or by
writing the games' timestamps, never by sleeping.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import botmoves, bots, finishing, moving, payloads, pulse, refusals, rematches, starting
from games.models import Game, Move
from games.timecontrols import TimeControl
from ladder import bot_accounts, challenges, inputs, matchmaking, playban, seeks
from ladder.models import Ban, Player, PlaybanRecord
from tournaments.models import Tournament
from tournaments import entering
from tests.seats import set_game

pytestmark = pytest.mark.django_db

MINUTE = timedelta(minutes=1)
BLITZ = TimeControl.parse("3+2")
RAPID = TimeControl.parse("10+5")


@pytest.fixture(autouse=True)
def site_serving() -> Iterator[None]:
    """The site beats now, as a daphne with sockets does (games/pulse.py)."""
    pulse.forget()
    pulse.beat()
    yield
    pulse.forget()


def offences(user: Any) -> list[str]:
    row = PlaybanRecord.objects.filter(user=user).first()
    return row.outcomes if row else []


def abort_one(alice: Any, bob: Any) -> Game:
    game = starting.start_game(alice, bob, time_control=BLITZ)
    return finishing.abort(game.pk, alice)


# --- The rules and their figures ----------------------------------------------


def test_bans_double_from_15_minutes_up_to_3_days() -> None:
    assert [playban.ban_length(n) for n in range(3)] == [15 * MINUTE, 30 * MINUTE, 60 * MINUTE]
    assert playban.ban_length(9) == timedelta(days=3) and playban.ban_length(500) == timedelta(days=3)


def test_three_offences_in_the_last_ten_games_earn_a_ban(alice: Any) -> None:
    now = timezone.now()
    assert playban.record(alice, playban.ABORT, now=now) is None
    for _ in range(7):
        assert playban.record(alice, playban.GOOD, now=now) is None
    assert playban.record(alice, playban.ABANDON, now=now) is None  # two in the last ten
    ban = playban.record(alice, playban.SITTING, now=now)
    assert ban is not None and ban.ends - ban.started == 15 * MINUTE and ban.offence == "sitting"
    assert offences(alice) == []  # a fresh start: the next ban takes three new offences


def test_an_offence_that_slid_out_of_the_window_no_longer_counts(alice: Any) -> None:
    now = timezone.now()
    playban.record(alice, playban.ABORT, now=now)
    for _ in range(9):
        playban.record(alice, playban.GOOD, now=now)
    playban.record(alice, playban.ABORT, now=now)
    assert playban.record(alice, playban.ABORT, now=now) is None  # the first one is 11 games back
    assert offences(alice)[-2:] == ["abort", "abort"] and len(offences(alice)) == playban.WINDOW


def ban_after_three(user: Any, now: Any) -> Ban:
    playban.record(user, playban.ABORT, now=now)
    playban.record(user, playban.ABORT, now=now)
    ban = playban.record(user, playban.ABORT, now=now)
    assert ban is not None
    return ban


def test_the_refusal_says_how_long_and_ends_with_the_ban(alice: Any) -> None:
    now = timezone.now()
    ban_after_three(alice, now)
    assert playban.refusal(alice, now + MINUTE) == (
        "You may not start games for 14 minutes more. Reason: a playban for aborting games; it grows if it "
        "happens again. To appeal, write to the moderators at /report/appeal/")
    assert playban.refusal(alice, now + 16 * MINUTE) is None


def test_a_repeat_within_a_week_doubles_and_a_clean_week_starts_again(alice: Any) -> None:
    now = timezone.now()
    first = ban_after_three(alice, now)
    second = ban_after_three(alice, first.ends + timedelta(days=2))
    assert second.ends - second.started == 30 * MINUTE
    third = ban_after_three(alice, second.ends + timedelta(days=3))  # both others ended within the week
    assert third.ends - third.started == 60 * MINUTE
    assert "1 hour" in playban.refusal(alice, third.started)
    after_a_clean_week = ban_after_three(alice, third.ends + timedelta(days=7, minutes=1))
    assert after_a_clean_week.ends - after_a_clean_week.started == 15 * MINUTE


# --- Offences, judged from real game endings -----------------------------------


def test_aborting_is_an_offence_of_the_one_who_aborts_only(alice: Any, bob: Any) -> None:
    abort_one(alice, bob)
    assert offences(alice) == ["abort"] and offences(bob) == []


def test_a_no_show_is_the_offence_of_the_seat_that_never_moved(alice: Any, bob: Any) -> None:
    game = starting.start_game(alice, bob, time_control=BLITZ)
    set_game(game, abort_at=timezone.now() - MINUTE)
    assert finishing.claim_time(game.pk).status == Game.Status.ABORTED
    assert offences(alice) == ["no-show"] and offences(bob) == []


def test_no_penalty_for_a_no_show_while_the_site_was_down(alice: Any, bob: Any) -> None:
    game = starting.start_game(alice, bob, time_control=BLITZ)
    set_game(game, abort_at=timezone.now() - MINUTE)
    pulse.forget()  # no daphne has beaten: nobody could have moved
    finishing.claim_time(game.pk)
    assert offences(alice) == []


def started(alice: Any, bob: Any, **kwargs: Any) -> Game:
    """Both sides have moved once: Red (Alice) to move at ply 2."""
    game = starting.start_game(alice, bob, seed="tests-game-seed", time_control=RAPID, **kwargs)
    for ply, user in enumerate((alice, bob)):
        moving.submit(game.pk, user, ply, payloads.view_for(Game.objects.get(pk=game.pk), user)["legal"][0])
    return Game.objects.get(pk=game.pk)


def test_leaving_in_your_own_turn_until_claimed_is_abandoning(alice: Any, bob: Any) -> None:
    game = started(alice, bob)
    now = timezone.now()
    set_game(game, turn_started_at=now - 3 * MINUTE, red_seen_at=now - 3 * MINUTE,
             red_left_at=now - 2 * MINUTE, black_seen_at=now)
    assert finishing.claim_abandonment(game.pk, bob).reason == Game.Reason.ABANDONMENT
    assert offences(alice) == ["abandon"] and offences(bob) == ["good"]


def test_an_outage_during_the_absence_excuses_it(alice: Any, bob: Any) -> None:
    game = started(alice, bob)
    now = timezone.now()
    set_game(game, turn_started_at=now - 3 * MINUTE, red_seen_at=now - 3 * MINUTE,
             red_left_at=now - 2 * MINUTE, black_seen_at=now)
    pulse.forget()
    pulse.beat(now - 3 * MINUTE)
    pulse.beat(now)  # two minutes with no beat: the site was down while Alice was away
    finishing.claim_abandonment(game.pk, bob)
    assert offences(alice) == ["good"]


def spend_the_turn(game: Game, seconds: float) -> Game:
    """The mover's turn began ``seconds`` ago, with no time left on the clock."""
    began = timezone.now() - timedelta(seconds=seconds)
    Move.objects.filter(game_id=game.pk).update(created=began)
    return set_game(game, created=min(game.created, began), turn_started_at=began,
                    clocks={**game.clocks, game.to_move: 1000})


def rhombus_with_sw_behind(alice: Any, bob: Any, **kwargs: Any) -> Game:
    """A Rhombus game where SW (Alice, to move) has 3 pieces left to NE's 6 (RH25)."""
    game = starting.start_game(alice, bob, setup=starting.Setup("rhombus"), time_control=BLITZ, **kwargs)
    position = game.position
    position["seats"]["SW"].update(reserve=0, eliminated=3)
    assert position["to_move"] == "SW"
    return set_game(game, position=position, ply=2)


def test_running_out_of_time_behind_after_a_long_turn_is_sitting(alice: Any, bob: Any) -> None:
    game = spend_the_turn(rhombus_with_sw_behind(alice, bob), 70)
    assert finishing.claim_time(game.pk).reason == Game.Reason.TIME
    assert offences(alice) == ["sitting"] and offences(bob) == ["good"]


def test_running_out_of_time_on_a_short_turn_or_level_is_no_offence(alice: Any, bob: Any, charlie: Any) -> None:
    quick = spend_the_turn(rhombus_with_sw_behind(alice, bob), 20)  # less than a minute: a time scramble
    finishing.claim_time(quick.pk)
    level = spend_the_turn(started(charlie, bob), 300)  # Ace in the Hole at 0-0 (R16): not lost
    finishing.claim_time(level.pk)
    assert offences(alice) == ["good"] and offences(charlie) == ["good"]


def test_bots_and_correspondence_games_are_never_counted(alice: Any, bob: Any) -> None:
    bot = Player.objects.create(user=bob, is_bot=True, bot_level="random").user
    bots.forget_bot_levels()  # bots are read once a minute (games/bots.py)
    game = starting.start_game(alice, bot, time_control=BLITZ)
    finishing.abort(game.pk, bot)
    correspondence = starting.start_game(alice, bob, time_control=TimeControl.parse("3d"))
    finishing.abort(correspondence.pk, alice)
    assert offences(bot) == [] and offences(alice) == []


# --- Refused everywhere a game with people starts --------------------------------


@pytest.fixture
def banned(alice: Any, bob: Any) -> Any:
    for _ in range(playban.LIMIT):
        abort_one(alice, bob)
    assert Ban.objects.filter(user=alice).count() == 1
    return alice


def test_a_banned_player_is_refused_in_the_lobby_the_pool_and_tournaments(
        banned: Any, bob: Any, charlie: Any) -> None:
    message = r"You may not start games for 1[45] minutes more\. Reason: a playban for aborting games"
    with pytest.raises(inputs.LobbyRefusal, match=message):
        seeks.create_seek(banned, "3+2")
    seek = seeks.create_seek(bob, "3+2")
    with pytest.raises(inputs.LobbyRefusal, match=message):
        seeks.accept_seek(seek.pk, banned)
    with pytest.raises(inputs.LobbyRefusal, match=message):
        challenges.create_challenge(banned, "charlie", "3+2")
    with pytest.raises(matchmaking.PoolRefusal, match=message):
        matchmaking.join(banned, "3+2")
    tournament = Tournament.objects.create(name="Cup", organizer=charlie, time_control="3+2", rated=False,
                                           starts_at=timezone.now() + timedelta(hours=1))
    assert entering.entry_refusal(tournament, bob, timezone.now()) is None
    assert "playban for aborting games" in entering.entry_refusal(tournament, banned, timezone.now())
    assert not banned.seeks.exists() and not banned.challenges_sent.exists()


def test_a_banned_player_may_not_ask_for_a_rematch_but_may_play_the_computer(banned: Any, bob: Any) -> None:
    finished = finishing.resign(started(bob, banned).pk, bob)
    with pytest.raises(refusals.Refusal, match="playban"):
        rematches.rematch(finished.pk, banned)
    assert Game.objects.get(pk=finished.pk).rematch_offers == []
    bot_accounts.ensure_bot_accounts()
    bots.forget_bot_levels()
    assert botmoves.play_computer(banned, "random", BLITZ).running
