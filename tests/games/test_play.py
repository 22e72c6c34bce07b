"""games.moving and games.finishing: moving, refusing, resigning, aborting and ending, straight on the database."""

from __future__ import annotations

import random
import threading
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

import engine
from games import finishing, moving, payloads, refusals, starting
from games.models import FIRST_MOVE_WINDOW, Game, Move
from games.timecontrols import TimeControl
from tests.helpers import require_service

pytestmark = pytest.mark.django_db

SEED = "tests-game-seed"  # Red holds JH AH 5H; Black 8S 10C QC


def fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def snapshot(game: Game) -> tuple[Any, ...]:
    """Everything a refusal must leave alone."""
    g = fresh(game)
    moves = list(Move.objects.filter(game=g).values_list("ply", "action"))
    return (g.position, g.ply, g.status, g.winner, g.reason, g.clocks["red"], g.clocks["black"], moves)


def first_legal(game: Game) -> str:
    return str(engine.legal_actions(engine.from_json(fresh(game).position))[0])


def play_to_the_end(game: Game, alice: Any, bob: Any, rng: random.Random) -> Game:
    players = {"red": alice, "black": bob}
    while (g := fresh(game)).running:
        actions = engine.legal_actions(engine.from_json(g.position))
        moving.submit(g.pk, players[g.to_move], g.ply, str(rng.choice(actions)))
    return g


def test_a_new_game_publishes_the_commitment_and_hides_the_seed(game: Game, alice: Any) -> None:
    assert game.commitment == engine.commitment(SEED)
    assert game.position == engine.to_json(engine.new_game(SEED))
    assert payloads.view_for(game, alice)["game"]["seed"] is None


def test_the_default_seed_is_a_fresh_secret(alice: Any, bob: Any) -> None:
    one, two = starting.start_game(alice, bob), starting.start_game(alice, bob)
    assert len(one.seed) == 32 and one.seed != two.seed
    assert one.commitment == engine.commitment(one.seed)


def test_a_game_needs_two_players(alice: Any) -> None:
    with pytest.raises(refusals.Refusal, match="2 different players"):
        starting.start_game(alice, alice)


def test_a_legal_action_is_stored_and_passes_the_turn(game: Game, alice: Any) -> None:
    moving.submit(game.pk, alice, 0, "5H e1-e6")
    g = fresh(game)
    assert (g.ply, g.to_move, g.position["board"]["e6"]) == (1, "black", "AH")
    assert list(g.moves.values_list("ply", "seat", "action")) == [(0, "red", "5H e1-e6")]


def test_the_clocks_start_once_each_side_has_moved(game: Game, alice: Any, bob: Any) -> None:
    """As on lichess: the first moves are free, each within FIRST_MOVE_WINDOW."""
    assert game.turn_started_at is None and game.abort_at is not None
    assert abs(game.abort_at - FIRST_MOVE_WINDOW - game.created) < timedelta(seconds=1)
    before = timezone.now()
    moving.submit(game.pk, alice, 0, "5H e1-e6")
    g = fresh(game)
    assert (g.clocks["red"], g.clocks["black"], g.turn_started_at) == (600_000, 600_000, None)
    assert g.abort_at is not None and g.abort_at >= before + FIRST_MOVE_WINDOW  # now Black's window
    moving.submit(game.pk, bob, 1, first_legal(game))
    g = fresh(game)
    assert (g.clocks["red"], g.clocks["black"], g.abort_at) == (600_000, 600_000, None)
    assert g.turn_started_at is not None  # Red's clock runs from here


def test_after_the_first_moves_the_mover_is_charged_their_time_plus_the_increment(
        game: Game, alice: Any, bob: Any) -> None:
    moving.submit(game.pk, alice, 0, "5H e1-e6")
    moving.submit(game.pk, bob, 1, first_legal(game))
    moving.submit(game.pk, alice, 2, first_legal(game))
    g = fresh(game)
    assert 600_000 < g.clocks["red"] <= 605_000  # a few ms spent, 5 s added
    assert g.clocks["black"] == 600_000


def test_a_correspondence_clock_runs_from_the_start(alice: Any, bob: Any) -> None:
    g = starting.start_game(alice, bob, seed=SEED, time_control=TimeControl.parse("3d"))
    assert g.turn_started_at is not None and g.abort_at is None


@pytest.mark.parametrize("ply", [0, 1])
def test_a_first_move_not_made_in_time_aborts_the_game(
        game: Game, alice: Any, bob: Any, charlie: Any, ply: int) -> None:
    """Aborted, unrated, no result: by the periodic task, by a late move, or by a flag."""
    if ply:
        moving.submit(game.pk, alice, 0, "5H e1-e6")
    assert finishing.expired_game_ids(timezone.now()) == []
    Game.objects.filter(pk=game.pk).update(abort_at=timezone.now() - timedelta(seconds=1))
    assert finishing.expired_game_ids(timezone.now()) == [game.pk]
    assert finishing.claim_time(game.pk).status == "aborted"
    g = fresh(game)
    assert (g.status, g.reason, g.winner, g.rated, g.abort_at) == ("aborted", "aborted", "", False, None)
    assert g.moves.count() == ply


def test_a_late_first_move_is_not_played_and_the_game_is_aborted(game: Game, alice: Any) -> None:
    Game.objects.filter(pk=game.pk).update(abort_at=timezone.now() - timedelta(seconds=1))
    assert moving.submit(game.pk, alice, 0, "5H e1-e6").status == "aborted"
    assert not fresh(game).moves.exists()


def test_a_flag_before_the_window_ends_is_refused_after_it_aborts(game: Game, bob: Any) -> None:
    with pytest.raises(refusals.Refusal, match="Red still has time"):
        finishing.flag(game.pk, bob)
    Game.objects.filter(pk=game.pk).update(abort_at=timezone.now() - timedelta(seconds=1))
    assert finishing.flag(game.pk, bob).status == "aborted"


def test_an_illegal_action_is_refused_with_its_rule_and_changes_nothing(game: Game, alice: Any) -> None:
    before = snapshot(game)
    with pytest.raises(refusals.Refusal, match=r"\(R9\)|\(R10\)"):
        moving.submit(game.pk, alice, 0, "5H e1-e5")
    assert snapshot(game) == before


def test_an_action_that_is_not_notation_is_refused(game: Game, alice: Any) -> None:
    before = snapshot(game)
    with pytest.raises(refusals.Refusal, match="not an action"):
        moving.submit(game.pk, alice, 0, "drop table")
    assert snapshot(game) == before


def test_a_card_not_in_hand_is_refused(game: Game, alice: Any) -> None:
    with pytest.raises(refusals.Refusal, match="not in Red's hand"):
        moving.submit(game.pk, alice, 0, "2H e1-e3")


def test_a_stale_ply_is_refused(game: Game, alice: Any, bob: Any) -> None:
    moving.submit(game.pk, alice, 0, "5H e1-e6")
    before = snapshot(game)
    with pytest.raises(refusals.Refusal, match="stale ply 0: the game is at ply 1"):
        moving.submit(game.pk, bob, 0, first_legal(game))
    assert snapshot(game) == before


def test_playing_out_of_turn_is_refused(game: Game, bob: Any) -> None:
    before = snapshot(game)
    with pytest.raises(refusals.Refusal, match="Red's turn"):
        moving.submit(game.pk, bob, 0, "8S e8-f6")
    assert snapshot(game) == before


def test_someone_not_in_the_game_cannot_act(game: Game, charlie: Any) -> None:
    before = snapshot(game)
    for act in (lambda: moving.submit(game.pk, charlie, 0, "5H e1-e6"),
                lambda: finishing.resign(game.pk, charlie), lambda: finishing.abort(game.pk, charlie)):
        with pytest.raises(refusals.Refusal, match="not playing in this game"):
            act()
    assert snapshot(game) == before


def test_an_anonymous_user_cannot_act(game: Game) -> None:
    from django.contrib.auth.models import AnonymousUser
    with pytest.raises(refusals.Refusal, match="log in"):
        moving.submit(game.pk, AnonymousUser(), 0, "5H e1-e6")


def test_a_missing_game_is_refused(alice: Any) -> None:
    with pytest.raises(refusals.Refusal, match="no game 999999"):
        moving.submit(999999, alice, 0, "5H e1-e6")


def test_resigning_gives_the_opponent_the_win_and_reveals_the_seed(game: Game, alice: Any, bob: Any) -> None:
    moving.submit(game.pk, alice, 0, "5H e1-e6")
    finishing.resign(game.pk, alice)  # on Black's turn: resigning needs no turn
    g = fresh(game)
    assert (g.status, g.winner, g.reason, g.rated) == ("finished", "black", "resignation", True)
    assert (g.score["red"], g.score["black"]) == (0, 0) and g.finished is not None
    payload = payloads.view_for(g, bob)
    assert payload["game"]["seed"] == SEED and payload["legal"] == []
    with pytest.raises(refusals.Refusal, match="game is over"):
        moving.submit(g.pk, bob, 1, first_legal(g))


def test_aborting_before_both_sides_moved_ends_without_result(game: Game, alice: Any, bob: Any) -> None:
    moving.submit(game.pk, alice, 0, "5H e1-e6")
    finishing.abort(game.pk, bob)
    g = fresh(game)
    assert (g.status, g.winner, g.reason, g.rated) == ("aborted", "", "aborted", False)
    assert payloads.view_for(g, alice)["game"]["score"] is None


def test_aborting_after_both_sides_moved_is_refused(game: Game, alice: Any, bob: Any) -> None:
    moving.submit(game.pk, alice, 0, "5H e1-e6")
    moving.submit(game.pk, bob, 1, first_legal(game))
    before = snapshot(game)
    with pytest.raises(refusals.Refusal, match="too late to abort"):
        finishing.abort(game.pk, alice)
    assert snapshot(game) == before


def test_a_finished_game_cannot_be_resigned_or_aborted(game: Game, alice: Any) -> None:
    finishing.abort(game.pk, alice)
    with pytest.raises(refusals.Refusal, match="over"):
        finishing.resign(game.pk, alice)


def test_a_game_played_out_records_the_engines_result_and_reveals_the_seed(
        game: Game, alice: Any, bob: Any) -> None:
    g = play_to_the_end(game, alice, bob, random.Random(7))
    final = engine.from_json(g.position)
    over = engine.outcome(final)
    assert over is not None
    assert (g.status, g.winner or None, g.reason) == ("finished", over.winner, over.reason)
    assert {"red": g.score["red"], "black": g.score["black"]} == over.score
    assert g.moves.count() == g.ply == final.ply
    payload = payloads.view_for(g, None)
    assert payload["game"]["seed"] == SEED
    assert payload["game"]["score"] == over.score and payload["outcome"] is not None


def test_the_moves_replay_from_the_revealed_seed(game: Game, alice: Any, bob: Any) -> None:
    g = play_to_the_end(game, alice, bob, random.Random(11))
    state = engine.new_game(payloads.view_for(g, None)["game"]["seed"] or "")
    for move in g.moves.order_by("ply"):
        state = engine.apply(state, move.action)
    assert engine.to_json(state) == g.position


@pytest.mark.django_db(transaction=True)
def test_two_submissions_of_the_same_ply_at_once_make_exactly_one_move(alice: Any, bob: Any) -> None:
    require_service("DATABASE_URL", "row locks (SQLite has no SELECT ... FOR UPDATE)")
    game = starting.start_game(alice, bob, seed=SEED)
    barrier = threading.Barrier(2)
    results: list[str] = []

    def submit(action: str) -> None:
        barrier.wait()
        try:
            moving.submit(game.pk, alice, 0, action)
            results.append("ok")
        except refusals.Refusal as refusal:
            results.append(str(refusal))
        finally:
            connection.close()

    threads = [threading.Thread(target=submit, args=(a,)) for a in ("5H e1-e6", "5H f1-f6")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results)[0].startswith("ok") and "stale ply 0" in sorted(results)[1]
    assert Move.objects.filter(game=game).count() == 1 and fresh(game).ply == 1


def run_clock_down(game: Game, seconds: int) -> None:
    """As if the side to move had been thinking for SECONDS."""
    Game.objects.filter(pk=game.pk).update(turn_started_at=timezone.now() - timedelta(seconds=seconds))


def test_an_action_after_the_clock_ran_out_loses_on_time(game: Game, alice: Any) -> None:
    run_clock_down(game, 601)
    g = moving.submit(game.pk, alice, 0, "5H e1-e6")
    assert (g.status, g.winner, g.reason, g.clocks["red"]) == ("finished", "black", "time", 0)
    assert fresh(game).moves.count() == 0 and fresh(game).reason == "time"


def test_claiming_time_ends_only_a_game_whose_mover_is_out_of_time(game: Game, alice: Any) -> None:
    assert finishing.claim_time(game.pk).running
    moving.submit(game.pk, alice, 0, "5H e1-e6")
    run_clock_down(game, 599)
    assert finishing.claim_time(game.pk).running
    run_clock_down(game, 601)
    g = finishing.claim_time(game.pk)
    assert (g.status, g.winner, g.reason, g.clocks["black"]) == ("finished", "red", "time", 0)
    assert payloads.view_for(g, None)["game"]["seed"] == SEED


def test_a_player_can_flag_only_a_spent_clock(game: Game, alice: Any, bob: Any, charlie: Any) -> None:
    with pytest.raises(refusals.Refusal, match="Red still has time"):
        finishing.flag(game.pk, bob)
    run_clock_down(game, 601)
    with pytest.raises(refusals.Refusal, match="not playing"):
        finishing.flag(game.pk, charlie)
    assert finishing.flag(game.pk, bob).reason == "time"
