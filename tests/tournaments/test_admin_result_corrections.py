"""Correcting a board's result after its game is over (issue 37): the organizer
from the pairing's admin page within the week after the end, a moderator through
the ADJUDICATE act (moderation hands a finished tournament game to
tournaments.corrections); the board and its game agree, the game is unrated, the
places and podium follow and the correction is logged. A bracket's earlier
rounds stay as played; the places are recomputed by an admin action with a reason."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.admin.models import LogEntry
from django.urls import reverse
from django.utils import timezone

from games.models import Game
from ladder.models import RatingChange
from moderation.models import ModerationAction
from tournaments import corrections
from tournaments.changes import Refusal
from tournaments.models import Correction, Entry, Pairing, Tournament
from tournaments.templatetags.tournaments import tournament_podium
from tests.helpers import client_for
from tests.tournaments.finished import finished
from tests.tournaments.staff import cup, moderator, olga, root  # noqa: F401

pytestmark = pytest.mark.django_db
ACT = reverse("admin:moderation_moderationaction_add")
TOURNAMENTS = reverse("admin:tournaments_tournament_changelist")


def board_of(t: Tournament, first: int, second: int, match: str | None = None) -> Pairing:
    boards = Pairing.objects.filter(round__tournament=t, red__number__in=[first, second],
                                    black__number__in=[first, second]).select_related("red", "game")
    return (boards.filter(match=match) if match else boards).get()


def won_by(board: Pairing, number: int) -> str:
    """The board's result saying that player ``number`` won it."""
    return Pairing.Result.RED if board.red.number == number else Pairing.Result.BLACK


def seat_of(board: Pairing, number: int) -> str:
    """The game's seat of player ``number``: the board's red sits in the first."""
    return board.game.seat_names[0 if board.red.number == number else 1]


def places(t: Tournament) -> dict[str, int | None]:
    return dict(Entry.objects.filter(tournament=t).values_list("user__username", "place"))


def podium(t: Tournament) -> list[str]:
    return tournament_podium(Tournament.objects.get(pk=t.pk))["places"]


def correct_in_admin(user: Any, board: Pairing, result: str, reason: str = "p01 used an engine") -> str:
    response = client_for(user).post(reverse("admin:tournaments_pairing_change", args=[board.pk]),
                                     {"adjudicate": result, "reason": reason}, follow=True)
    return response.content.decode()


def game_result(board: Pairing) -> tuple[str, str, bool, str]:
    game = Game.objects.get(pk=board.game_id)
    return game.winner, game.reason, game.rated, game.adjudication_note


def test_the_organizer_corrects_a_finished_round_robins_result(olga: Any, cup: Tournament) -> None:
    board = board_of(cup, 1, 2)
    assert RatingChange.objects.filter(game_id=board.game_id, undone_at__isnull=True).count() == 2
    page = correct_in_admin(olga, board, won_by(board, 2))
    assert "Result corrected: round" in page
    # The board and its game agree: p02 won, by adjudication, unrated, the reason kept on the game.
    assert Pairing.objects.get(pk=board.pk).result == won_by(board, 2)
    game = Game.objects.get(pk=board.game_id)
    assert game_result(board) == (game.side_name(seat_of(board, 2)), Game.Reason.ADJUDICATION, False,
                                  "p01 used an engine")
    assert not RatingChange.objects.filter(game_id=board.game_id, undone_at__isnull=True).exists()
    # p02 now has 3 points, p01 2: the places and the podium follow.
    assert places(cup) == {"p01": 2, "p02": 1, "p03": 3, "p04": 4}
    assert podium(cup) == ["Winner: p02", "2nd: p01", "3rd: p03"]
    correction = Correction.objects.get(tournament=cup)
    assert (correction.kind, correction.by, correction.reason) == ("result", olga, "p01 used an engine")
    assert "places: p01 1→2, p02 2→1" in correction.changes
    assert LogEntry.objects.filter(object_id=str(cup.pk), user=olga,
                                   change_message__contains="Correction: Result corrected").exists()


def test_the_organizers_window_closes_a_week_after_the_end(olga: Any, cup: Tournament) -> None:
    Tournament.objects.filter(pk=cup.pk).update(
        finished_at=timezone.now() - timedelta(days=corrections.ORGANIZER_DAYS, hours=1))
    board = board_of(cup, 1, 2)
    before = game_result(board)
    page = correct_in_admin(olga, board, won_by(board, 2))
    assert "organizer may correct a tournament for 7 days after its end: ask a moderator" in page
    assert Pairing.objects.get(pk=board.pk).result == won_by(board, 1)
    assert game_result(board) == before and places(cup)["p01"] == 1
    assert not Correction.objects.exists()


def test_a_forfeit_is_a_result_the_organizer_may_give(olga: Any, cup: Tournament) -> None:
    board = board_of(cup, 1, 3)
    forfeit = Pairing.Result.BLACK_FORFEIT_WIN if board.red.number == 1 else Pairing.Result.RED_FORFEIT_WIN
    assert "Result corrected" in correct_in_admin(olga, board, forfeit)
    assert Pairing.objects.get(pk=board.pk).result == forfeit
    assert Game.objects.get(pk=board.game_id).winner == Game.objects.get(pk=board.game_id).side_name(
        seat_of(board, 3))


def test_a_moderator_adjudicates_a_finished_tournaments_game_through_the_act(moderator: Any,
                                                                           cup: Tournament) -> None:
    Tournament.objects.filter(pk=cup.pk).update(finished_at=timezone.now() - timedelta(days=30))
    board = board_of(cup, 1, 2)
    response = client_for(moderator).post(ACT, {"kind": "adjudicate", "game": board.game_id,
                                                "winner": seat_of(board, 2), "reason": "engine use by p01"},
                                          follow=True)
    assert "Done: tournament" in response.content.decode()
    assert Pairing.objects.get(pk=board.pk).result == won_by(board, 2)
    assert game_result(board)[1:] == (Game.Reason.ADJUDICATION, False, "engine use by p01")
    assert places(cup) == {"p01": 2, "p02": 1, "p03": 3, "p04": 4}
    act = ModerationAction.objects.get(kind="adjudicate")
    assert act.game_id == board.game_id and "places: p01 1→2, p02 2→1" in act.outcome
    assert Correction.objects.get(tournament=cup).by == moderator


def test_a_moderators_draw_is_the_boards_draw(moderator: Any, cup: Tournament) -> None:
    board = board_of(cup, 1, 2)
    client_for(moderator).post(ACT, {"kind": "adjudicate", "game": board.game_id, "winner": "",
                                     "reason": "both cheated"})
    assert Pairing.objects.get(pk=board.pk).result == Pairing.Result.DRAW
    assert game_result(board)[0] == ""


def test_a_brackets_earlier_rounds_stay_as_played_and_its_final_is_corrected(root: Any, moderator: Any,
                                                                            tournament: Any, players: Any) -> None:
    t = finished(tournament, players(4), Tournament.Format.SINGLE)
    before = places(t)
    semi = board_of(t, 1, 4)
    page = correct_in_admin(root, semi, won_by(semi, 4))
    assert "only a final&#x27;s games can be corrected" in page
    response = client_for(moderator).post(ACT, {"kind": "adjudicate", "game": semi.game_id,
                                                "winner": seat_of(semi, 4), "reason": "engine"}, follow=True)
    assert "only a final&#x27;s games can be corrected" in response.content.decode()
    assert Pairing.objects.get(pk=semi.pk).result == won_by(semi, 1) and places(t) == before
    assert game_result(semi)[1] == Game.Reason.RESIGNATION and not Correction.objects.exists()
    final = board_of(t, 1, 2)
    assert "Result corrected" in correct_in_admin(root, final, won_by(final, 2))
    assert places(t)["p01"] == 2 and places(t)["p02"] == 1
    assert podium(t)[:2] == ["Winner: p02", "2nd: p01"]


def test_a_brackets_final_keeps_a_winner(root: Any, tournament: Any, players: Any) -> None:
    t = finished(tournament, players(2), Tournament.Format.SINGLE)
    final = board_of(t, 1, 2)
    with pytest.raises(Refusal, match="the match would have no winner"):
        corrections.correct_result(t.pk, root, final.pk, Pairing.Result.DRAW, "a draw")
    assert Pairing.objects.get(pk=final.pk).result == won_by(final, 1)


def test_the_places_are_recomputed_by_an_admin_action_with_a_reason(olga: Any, cup: Tournament) -> None:
    Entry.objects.filter(tournament=cup).update(place=None)  # stale, as a raw edit would leave them
    client = client_for(olga)
    selected = {"action": "rerank_selected", "_selected_action": [cup.pk]}
    page = client.post(TOURNAMENTS, selected).content.decode()
    assert 'name="reason"' in page and "Recompute the places" in page
    assert not Correction.objects.exists()  # not before the reason is given
    assert "This field is required" in client.post(TOURNAMENTS, {**selected, "apply": "1", "reason": ""}
                                                   ).content.decode()
    assert not Correction.objects.exists()
    response = client.post(TOURNAMENTS, {**selected, "apply": "1", "reason": "stale places"}, follow=True)
    assert "places recomputed; places: p01 –→1" in response.content.decode()
    assert places(cup) == {"p01": 1, "p02": 2, "p03": 3, "p04": 4}
    correction = Correction.objects.get(tournament=cup)
    assert (correction.kind, correction.by, correction.reason) == ("rerank", olga, "stale places")


def test_the_places_of_another_organizers_tournament_are_not_hers_to_recompute(
        olga: Any, django_user_model: Any, tournament: Any, players: Any) -> None:
    rival = django_user_model.objects.create_user("rita", "rita@example.org", is_staff=True)
    theirs = finished(lambda **fields: tournament(**fields, organizer=rival), players(4),
                      Tournament.Format.ROUND_ROBIN)
    client_for(olga).post(TOURNAMENTS, {"action": "rerank_selected", "_selected_action": [theirs.pk],
                                        "apply": "1", "reason": "mine now"})
    assert not Correction.objects.exists()
