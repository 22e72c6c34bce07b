"""The bot move (games.botmoves.play_move) is a function of the bot seat's engine.View only."""

from __future__ import annotations

import re
from typing import Any

import pytest

import engine
from engine import bots as engine_bots
from games import botmoves, bots, botwaits, finishing, moving, payloads, refusals, rematches, starting
from games.models import Game, Move
from games.timecontrols import TimeControl

pytestmark = pytest.mark.django_db

SEED = "tests-bot-seed"


def human_vs_bot(human: Any, bot: Any, seed: str = SEED) -> Game:
    """Human (Red) against the bot (Black), at ply 1 after the human's first legal action."""
    game = starting.start_game(human, bot, seed=seed, time_control=TimeControl.parse("10+5"))
    state = engine.from_json(game.position)
    moving.submit(game.pk, human, 0, str(engine.legal_actions(state)[0]))
    game.refresh_from_db()
    return game


def with_red_hidden_cards_shuffled(game: Game) -> dict[str, Any]:
    """The same position, but Red's hand swapped with cards from Red's deck."""
    position = {**game.position, "hands": dict(game.position["hands"]), "decks": dict(game.position["decks"])}
    hand, deck = list(position["hands"]["red"]), list(position["decks"]["red"])
    position["hands"]["red"], position["decks"]["red"] = deck[: len(hand)], hand + deck[len(hand):]
    return position


def test_two_games_differing_only_in_the_humans_hidden_cards_get_the_same_bot_move(
        alice: Any, bob: Any, bot_accounts: dict[str, Any]) -> None:
    bot = bot_accounts["ismcts-1"]  # a search level: it samples the cards it cannot see
    first, second = human_vs_bot(alice, bot), human_vs_bot(bob, bot)
    Game.objects.filter(pk=second.pk).update(position=with_red_hidden_cards_shuffled(first))
    second.refresh_from_db()
    one, two = engine.from_json(first.position), engine.from_json(second.position)
    assert one.hands[0] != two.hands[0] and one.decks[0] != two.decks[0]  # Red's secrets differ
    assert engine.view(one, "black") == engine.view(two, "black")  # Black's view does not

    assert botmoves.play_move(first.pk, 1) == "played"
    assert botmoves.play_move(second.pk, 1) == "played"
    moves = [Move.objects.get(game=g, ply=1) for g in (first, second)]
    assert moves[0].seat == moves[1].seat == "black"
    assert moves[0].action == moves[1].action


def test_choose_is_given_the_bot_seats_view_and_a_seed_that_hides_the_game_seed(
        alice: Any, bot_accounts: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[Any, str, Any]] = []
    real_choose = engine_bots.choose

    def recording_choose(view: Any, level: str, *, seed: Any, seconds: Any = None) -> engine.Action:
        calls.append((view, level, seed))
        return real_choose(view, level, seed=seed, seconds=seconds)

    monkeypatch.setattr(engine_bots, "choose", recording_choose)
    game = human_vs_bot(alice, bot_accounts["greedy"])
    assert botmoves.play_move(game.pk, 1) == "played"
    (view, level, seed), = calls
    assert type(view) is engine.View and level == "greedy"
    assert view.seat == "black" and list(view.hand or ()) == game.position["hands"]["black"]
    assert SEED not in str(seed) and SEED not in repr(view)


def test_the_same_game_seed_gives_the_same_bot_moves(alice: Any, bob: Any, bot_accounts: dict[str, Any]) -> None:
    games = [human_vs_bot(human, bot_accounts["ismcts-1"]) for human in (alice, bob)]
    for game in games:
        assert botmoves.play_move(game.pk, 1) == "played"
    assert len({Move.objects.get(game=g, ply=1).action for g in games}) == 1


def test_a_stale_or_finished_move_is_dropped_and_changes_nothing(
        alice: Any, bot_accounts: dict[str, Any]) -> None:
    game = human_vs_bot(alice, bot_accounts["random"])
    assert botmoves.play_move(game.pk, 0) == "stale"  # the human's ply: long gone
    assert botmoves.play_move(game.pk, 2) == "stale"  # not reached
    assert list(Move.objects.filter(game=game).values_list("ply", flat=True)) == [0]
    finishing.resign(game.pk, alice)
    assert botmoves.play_move(game.pk, 1) == "over"
    assert Move.objects.filter(game=game).count() == 1


def test_a_task_delivered_too_often_is_given_up(alice: Any, bot_accounts: dict[str, Any]) -> None:
    game = human_vs_bot(alice, bot_accounts["random"])
    task_id = f"test-task-{game.pk}"
    for _ in range(botmoves.MAX_DELIVERIES):
        botwaits.count_delivery(task_id)  # three workers died on it
    assert botmoves.play_move(game.pk, 1, task_id=task_id) == "gave-up"
    assert not Move.objects.filter(game=game, ply=1).exists()


def test_the_bot_thinks_within_a_small_share_of_its_clock(alice: Any, bot_accounts: dict[str, Any]) -> None:
    game = human_vs_bot(alice, bot_accounts["ismcts-3"])
    assert botmoves.think_seconds(game) == botmoves.MAX_THINK_SECONDS  # 10 minutes left: the ceiling
    assert botmoves.time_limit("ismcts-3", botmoves.think_seconds(game)) is None  # fixed iterations: reproducible
    game.clocks["black"] = 3_000
    assert botmoves.think_seconds(game) <= 0.1
    assert botmoves.time_limit("ismcts-3", botmoves.think_seconds(game)) == botmoves.think_seconds(game)
    assert botmoves.time_limit("greedy", 0.01) is None  # no search: no budget needed
    assert botmoves.pace_delay(game) <= 0.03  # and it hardly waits before starting


def test_the_bot_waits_a_human_moment_in_real_time_only(alice: Any, bot_accounts: dict[str, Any]) -> None:
    game = human_vs_bot(alice, bot_accounts["greedy"])
    assert botmoves.pace_delay(game) == botmoves.MIN_DELAY_SECONDS
    game.days_per_move = 3
    assert botmoves.pace_delay(game) == 0


def test_play_the_computer_seats_the_human_as_asked(alice: Any, bot_accounts: dict[str, Any]) -> None:
    rapid = TimeControl.parse("10+5")
    as_red = botmoves.play_computer(alice, "greedy", rapid, colour="red")
    as_black = botmoves.play_computer(alice, "greedy", rapid, colour="black")
    assert (as_red.seat("red").user, as_red.seat("black").user) == (alice, bot_accounts["greedy"])
    assert (as_black.seat("red").user, as_black.seat("black").user) == (bot_accounts["greedy"], alice)
    assert payloads.view_for(as_black, alice)["game"]["bot"]["seats"] == {
        "red": {"level": "greedy", "label": engine_bots.LEVEL_LABELS["greedy"]}}
    assert payloads.view_for(as_red, alice)["game"]["bot"]["waiting"] is None  # alice to move


@pytest.mark.parametrize("level, control, message", [
    ("grandmaster", "10+5", "'grandmaster' is not a bot level"),
    ("greedy", "2+1", "'2+1' is not an offered time control"),
])
def test_play_the_computer_refuses_bad_choices(alice: Any, bot_accounts: dict[str, Any], level: str,
                                               control: str, message: str) -> None:
    with pytest.raises(refusals.Refusal, match=re.escape(message)):
        botmoves.play_computer(alice, level, TimeControl.parse(control))
    assert not Game.objects.exists()


def test_a_human_game_has_no_bot_field(alice: Any, bob: Any, bot_accounts: dict[str, Any]) -> None:
    game = starting.start_game(alice, bob, seed=SEED)
    assert payloads.view_for(game, alice)["game"]["bot"] is None


def test_a_bot_move_nobody_queued_is_queued_once_by_the_periodic_task(
        alice: Any, bob: Any, bot_accounts: dict[str, Any]) -> None:
    from tests.bots.conftest import wait_state

    # Inside the test's transaction nothing is ever committed, so nothing was queued:
    # as if the broker had been down when the bot's turn came.
    lost = starting.start_game(bot_accounts["greedy"], alice, seed=SEED)
    human_to_move = starting.start_game(bob, bot_accounts["greedy"], seed=SEED)
    assert wait_state(lost.pk) == {}
    assert botmoves.requeue_lost_moves() == [lost.pk]
    assert wait_state(lost.pk)["ply"] == 0 and wait_state(human_to_move.pk) == {}
    assert botmoves.requeue_lost_moves() == []  # queued now: left for a worker


def test_a_bot_move_recorded_as_queued_that_no_worker_started_is_queued_again(
        alice: Any, bot_accounts: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """A web host killed between recording the move as queued and sending its message
    (tests/site/test_several_hosts.py saw one): once the broker would have handed a live
    message out again, the periodic task sends another; a duplicate is dropped as stale."""
    from tests.bots.conftest import wait_state

    game = starting.start_game(bot_accounts["greedy"], alice, seed=SEED)  # nothing committed: nothing sent
    botwaits.mark(game.pk, 0, "queued")
    assert botmoves.requeue_lost_moves() == []  # queued lately: left for a worker
    queued_at = wait_state(game.pk)["queued"]
    monkeypatch.setattr(bots.time, "time", lambda: queued_at + botmoves._visibility_timeout() + 1)
    assert botmoves.requeue_lost_moves() == [game.pk]
    assert wait_state(game.pk)["queued"] == queued_at + botmoves._visibility_timeout() + 1  # recorded afresh
    assert botmoves.requeue_lost_moves() == []  # and left alone again
    botwaits.mark(game.pk, 0, "started")
    monkeypatch.setattr(bots.time, "time", lambda: queued_at + 10 * botmoves._visibility_timeout())
    assert botmoves.requeue_lost_moves() == []  # a worker has it: a lost worker's message comes back by itself


def test_a_bot_accepts_a_rematch_at_once_with_the_colours_swapped(
        alice: Any, bot_accounts: dict[str, Any]) -> None:
    game = human_vs_bot(alice, bot_accounts["greedy"])
    finishing.resign(game.pk, alice)
    game = rematches.rematch(game.pk, alice)
    assert game.rematch_game is not None
    assert (game.rematch_game.seat("red").user, game.rematch_game.seat("black").user) == (bot_accounts["greedy"], alice)
    assert game.rematch_game.time_control == game.time_control and game.rematch_game.running
