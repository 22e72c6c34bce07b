"""Rhombus on the site's game rows: seats from the rules, per-seat views,
team endings, per-seat clocks and first moves (issue 13; RH3, RH10, RH27,
RH29, RH31, RH35, RH36)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

import engine
from games import finishing, moving, payloads, records, refusals, rematches, starting
from games.models import Game, Move
from ladder.models import Player
from tests.seats import set_game

pytestmark = pytest.mark.django_db

SEED = "rhombus-site"
RHOMBUS = starting.Setup("rhombus")


@pytest.fixture
def four(alice: Any, bob: Any, charlie: Any, dave: Any) -> Game:
    """Alice SW, Bob SE, Charlie NE, Dave NW: Alice and Charlie against Bob and Dave (RH31)."""
    return starting.start_game(alice, bob, charlie, dave, seed=SEED, setup=RHOMBUS)


def snapshot(game_id: int) -> tuple[Any, ...]:
    g = Game.objects.get(pk=game_id)
    return (g.position, g.ply, g.status, g.winner, g.clocks, list(Move.objects.filter(game=g).values_list("action")))


def legal(game: Game) -> list[str]:
    return [str(a) for a in engine.GAMES["rhombus"].legal_actions(engine.GAMES["rhombus"].from_json(
        Game.objects.get(pk=game.pk).position))]


def test_a_two_player_game_seats_sw_and_ne_from_the_rules(alice: Any, bob: Any) -> None:
    game = starting.start_game(alice, bob, seed=SEED, setup=RHOMBUS)
    assert [(s.number, s.name, s.user) for s in Game.objects.get(pk=game.pk).table] == [
        (0, "SW", alice), (1, "NE", bob)]
    assert (game.kind, game.variant, game.players, game.title) == ("rhombus", "classic", 2, "Rhombus")
    assert game.commitment == engine.GAMES["rhombus"].commitment(SEED) and game.clocks == {"SW": 600_000, "NE": 600_000}
    shown = payloads.view_for(game, alice)
    assert shown["seat"] == "SW" and shown["seats"]["SW"]["hand"] and "hand" not in shown["seats"]["NE"]
    assert shown["game"]["sides"] == [["SW"], ["NE"]] and shown["game"]["players"] == {"SW": "alice", "NE": "bob"}


def test_refusals_name_the_rule_and_change_nothing(four: Game, alice: Any, bob: Any, charlie: Any) -> None:
    before = snapshot(four.pk)
    with pytest.raises(refusals.Refusal, match=r"SW's turn \(RH10\)"):
        moving.submit(four.pk, bob, 0, legal(four)[0])
    with pytest.raises(refusals.Refusal, match=r"\(RH7\)"):  # a card Alice does not hold
        moving.submit(four.pk, alice, 0, "AH a2-a3")
    with pytest.raises(refusals.Refusal, match="stale ply"):
        moving.submit(four.pk, alice, 3, legal(four)[0])
    with pytest.raises(refusals.Refusal, match="2 or 4 players, not 3"):
        starting.start_game(alice, bob, charlie, setup=RHOMBUS)
    with pytest.raises(refusals.Refusal, match="variants classic, formation"):
        starting.start_game(alice, bob, setup=starting.Setup("rhombus", "blitz"))
    assert snapshot(four.pk) == before and Game.objects.count() == 1


def test_moves_go_round_the_table_and_the_record_keeps_the_canonical_text(four: Game, alice: Any, bob: Any) -> None:
    state = engine.GAMES["rhombus"].from_json(four.position)
    action = engine.GAMES["rhombus"].legal_actions(state)[0]
    spaced = str(action).replace(" ", "  ", 1)  # an untidy but legal way to write it
    g = moving.submit(four.pk, alice, 0, spaced)
    assert (g.ply, g.to_move) == (1, "SE") and Move.objects.get(game=g).action == str(action)
    assert payloads.view_for(g, bob)["actions"] == [{"seat": "SW", "action": str(action)}]
    assert g.abort_at is not None and g.turn_started_at is None  # three seats still to make a first move


def test_every_seat_sees_its_own_hand_only_never_the_partners(four: Game, alice: Any, bob: Any,
                                                                charlie: Any, dave: Any) -> None:
    position = Game.objects.get(pk=four.pk).position
    for user, seat in ((alice, "SW"), (bob, "SE"), (charlie, "NE"), (dave, "NW"), (None, None)):
        shown = payloads.view_for(four, user)
        assert [name for name, s in shown["seats"].items() if "hand" in s] == ([seat] if seat else [])
        if seat:
            assert shown["seats"][seat]["hand"] == position["seats"][seat]["hand"]
        assert "pile" not in shown and shown["pile_count"] == len(position["pile"])
        assert shown["game"]["seed"] is None


def test_a_resignation_ends_it_for_the_team(four: Game, charlie: Any) -> None:
    g = finishing.resign(four.pk, charlie)  # NE: Alice's partner
    assert (g.status, g.winner, g.reason, g.score) == ("finished", "SE+NW", "resignation", None)
    assert (g.won("SE"), g.won("NW"), g.won("SW"), g.won("NE")) == (True, True, False, False)
    assert g.reason_label == "by resignation (RH27)"
    assert payloads.view_for(g, charlie)["game"]["seed"] == SEED


def test_a_spent_clock_loses_for_the_team(four: Game, alice: Any, bob: Any, charlie: Any, dave: Any) -> None:
    for ply, user in enumerate((alice, bob, charlie, dave)):  # every seat's first move: the clocks start
        moving.submit(four.pk, user, ply, legal(four)[0])
    with pytest.raises(refusals.Refusal, match="SW still has time"):
        finishing.flag(four.pk, bob)
    set_game(four, turn_started_at=timezone.now() - timedelta(minutes=11))  # SW to move, clock spent
    finishing.flag(four.pk, bob)
    g = Game.objects.get(pk=four.pk)
    assert (g.status, g.winner, g.reason, g.clocks["SW"]) == ("finished", "SE+NW", "time", 0)


def test_aborting_is_allowed_until_every_seat_has_moved(four: Game, alice: Any, bob: Any, charlie: Any,
                                                       dave: Any) -> None:
    for ply, user in enumerate((alice, bob, charlie)):
        moving.submit(four.pk, user, ply, legal(four)[0])
    assert finishing.abort(four.pk, dave).status == "aborted"  # NW has not moved yet
    other = starting.start_game(alice, bob, charlie, dave, setup=RHOMBUS)
    for ply, user in enumerate((alice, bob, charlie, dave)):
        moving.submit(other.pk, user, ply, legal(other)[0])
    with pytest.raises(refusals.Refusal, match=r"every player has moved \(RH27\)"):
        finishing.abort(other.pk, bob)


def test_only_the_other_team_claims_an_absent_players_turn(four: Game, alice: Any, bob: Any, charlie: Any,
                                                           dave: Any) -> None:
    for ply, user in enumerate((alice, bob, charlie, dave)):
        moving.submit(four.pk, user, ply, legal(four)[0])
    long_ago = timezone.now() - timedelta(seconds=120)
    set_game(four, turn_started_at=long_ago, SW_seen_at=long_ago, SW_left_at=long_ago)  # SW to move, gone
    with pytest.raises(refusals.Refusal, match="your partner's turn"):
        finishing.claim_abandonment(four.pk, charlie)
    g = finishing.claim_abandonment(four.pk, dave)
    assert (g.winner, g.reason) == ("SE+NW", "abandonment")


def test_a_rematch_needs_every_player_and_the_winning_team_deals(four: Game, alice: Any, bob: Any,
                                                                  charlie: Any, dave: Any) -> None:
    finishing.resign(four.pk, alice)  # Bob (SE) and Dave (NW) win
    for user in (alice, bob, charlie):
        assert rematches.rematch(four.pk, user).rematch_game is None
    new = rematches.rematch(four.pk, dave).rematch_game
    assert new is not None and (new.kind, new.players) == ("rhombus", 4)
    assert {s.name: s.user for s in Game.objects.get(pk=new.pk).table} == {
        "SW": alice, "SE": bob, "NE": charlie, "NW": dave}  # everyone keeps their seat
    # RH37: the first of the winning team after the last dealer (NW) deals: SE; NE moves first.
    assert (new.position["dealer"], new.position["to_move"]) == ("SE", "NE")


def test_a_two_player_rematch_lets_the_loser_move_first(alice: Any, bob: Any) -> None:
    game = starting.start_game(alice, bob, setup=RHOMBUS)
    finishing.resign(game.pk, bob)  # SW (Alice) wins, so she deals and Bob moves first (RH28)
    rematches.rematch(game.pk, alice)
    new = rematches.rematch(game.pk, bob).rematch_game
    assert new.seat_of(alice) == "SW" and (new.position["dealer"], new.position["to_move"]) == ("SW", "NE")
    assert finishing.abort(new.pk, bob).status == "aborted"  # NE moves first, so may abort first


def test_a_rhombus_result_is_rated_on_rhombus_s_own_ladder(alice: Any, bob: Any) -> None:
    """Each game has its own ratings: a Rhombus game never changes the Ace in the Hole ladder."""
    game = starting.start_game(alice, bob, setup=starting.Setup("rhombus", "formation"))
    g = finishing.resign(game.pk, bob)
    assert g.winner == "SW"
    assert sorted(g.rating_changes.values_list("ladder", "user__username", "after")) == [
        ("rhombus", "alice", 1520), ("rhombus", "bob", 1480)]
    assert not Player.objects.filter(rated_games__gt=0).exists()


def test_a_rhombus_game_in_a_players_list_links_to_its_page_and_replay(alice: Any, bob: Any) -> None:
    game = finishing.resign(starting.start_game(alice, bob, setup=RHOMBUS).pk, bob)
    [row] = records.games_of(alice)
    assert (row.title, row.seat, row.result, row.replay_url, row.live_url) == (
        "Rhombus", "SW", "win", f"/games/{game.pk}/replay/", f"/games/{game.pk}/")
