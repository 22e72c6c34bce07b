"""Correcting a finished tournament (issue 37): a cheater disqualified after
the end, their games scored as forfeits or as played, the places and podium
recomputed and the correction logged; who may (the organizer for a week, a
moderator always); organizers see only their own tournaments in the admin,
whose form runs the site's checks; an entry that has played is never deleted."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.admin.models import LogEntry
from django.db.models import Q, RestrictedError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import Game
from moderation.models import ModerationAction
from tournaments import advancing, corrections, entering, pages, scoring
from tournaments.admin import ForbiddenPairingForm
from tournaments.changes import Refusal
from tournaments.models import Correction, Entry, Pairing, Tournament
from tournaments.templatetags.tournaments import tournament_podium
from tests.helpers import client_for, staff_group
from tests.tournaments.conftest import play_round
from tests.tournaments.finished import finished
from tests.tournaments.staff import cup, moderator, olga, root  # noqa: F401

pytestmark = pytest.mark.django_db
ROUND_ROBIN = Tournament.Format.ROUND_ROBIN
ACT = reverse("admin:moderation_moderationaction_add")


def cheater(t: Tournament) -> Entry:
    return Entry.objects.select_related("user").get(tournament=t, number=1)


def boards(t: Tournament) -> list[tuple[int, int, int | None, str]]:
    return list(Pairing.objects.filter(round__tournament=t).order_by("pk")
                .values_list("pk", "red_id", "black_id", "result"))


def places(t: Tournament) -> dict[str, int | None]:
    return dict(Entry.objects.filter(tournament=t).values_list("user__username", "place"))


def results_against(t: Tournament, number: int) -> dict[str, str]:
    """Each player's result against player ``number`` in the standings' terms (TRF-16)."""
    return {player.name: r.result for player in scoring.trf_players(t) for r in player.rounds if r.opponent == number}


def disqualify_in_admin(user: Any, entry: Entry, how: str, reason: str = "engine use, found after the end") -> Any:
    return client_for(user).post(reverse("admin:tournaments_entry_change", args=[entry.pk]), {
        "manual_seed": "", "checked_in_at_0": "", "checked_in_at_1": "", "disqualify": how, "reason": reason,
    }, follow=True)


def test_disqualifying_with_forfeits_makes_the_opponents_winners_and_a_new_podium(olga: Any, cup: Tournament) -> None:
    played = boards(cup)
    assert places(cup) == {"p01": 1, "p02": 2, "p03": 3, "p04": 4}
    response = disqualify_in_admin(olga, cheater(cup), "forfeit")
    assert "Disqualified: p01 disqualified (forfeit); places: p01 1→–, p02 2→1, p03 3→2, p04 4→3" in \
        response.content.decode()
    # The opponents' results against the cheater are wins by forfeit; the boards themselves stay as played.
    assert results_against(cup, 1) == {"p02": "+", "p03": "+", "p04": "+"}
    assert boards(cup) == played
    points = {s.player.name: float(s.points) for s in scoring.ranking(cup)}
    assert points == {"p02": 3.0, "p03": 2.0, "p04": 1.0}
    assert places(cup) == {"p01": None, "p02": 1, "p03": 2, "p04": 3}
    assert tournament_podium(Tournament.objects.get(pk=cup.pk))["places"] == ["Winner: p02", "2nd: p03", "3rd: p04"]
    # Logged: the tournament's corrections and the admin's history of it.
    correction = Correction.objects.get(tournament=cup)
    assert (correction.by, correction.kind, correction.reason) == (olga, "disqualify", "engine use, found after the end")
    assert LogEntry.objects.filter(object_id=str(cup.pk), user=olga,
                                   change_message__contains="Why: engine use, found after the end").exists()
    entry = cheater(cup)
    assert (entry.disqualified, entry.withdrawn_why) == ("forfeit", "disqualified: engine use, found after the end")


def test_disqualifying_as_played_keeps_the_opponents_results(moderator: Any, cup: Tournament) -> None:
    """Through the moderator's act, in the admin's act form."""
    response = client_for(moderator).post(ACT, {"kind": "disqualify", "user": cheater(cup).user_id,
                                                "tournament": cup.pk, "scoring": "as-played",
                                                "reason": "a second account"}, follow=True)
    assert "Done: tournament" in response.content.decode()
    assert results_against(cup, 1) == {"p02": "0", "p03": "0", "p04": "0"}
    points = {s.player.name: float(s.points) for s in scoring.ranking(cup)}
    assert points == {"p02": 2.0, "p03": 1.0, "p04": 0.0}
    assert places(cup) == {"p01": None, "p02": 1, "p03": 2, "p04": 3}
    act = ModerationAction.objects.get(kind="disqualify")
    assert act.user == cheater(cup).user and "places: p01 1→–, p02 2→1" in act.outcome
    assert Correction.objects.get(tournament=cup).by == moderator


def test_the_organizer_corrects_for_a_week_after_the_end_and_a_moderator_after_that(olga: Any, moderator: Any,
                                                                                     cup: Tournament) -> None:
    Tournament.objects.filter(pk=cup.pk).update(
        finished_at=timezone.now() - timedelta(days=corrections.ORGANIZER_DAYS, hours=1))
    response = disqualify_in_admin(olga, cheater(cup), "forfeit")
    assert "Its organizer may correct a tournament for 7 days after its end: ask a moderator" in \
        response.content.decode()
    assert cheater(cup).disqualified == "" and places(cup)["p01"] == 1
    assert not Correction.objects.exists()
    with pytest.raises(Refusal):
        corrections.rerank(cup.pk, olga, "a late look")
    client_for(moderator).post(ACT, {"kind": "disqualify", "user": cheater(cup).user_id, "tournament": cup.pk,
                                     "scoring": "forfeit", "reason": "engine use"})
    assert cheater(cup).disqualified == "forfeit" and places(cup)["p02"] == 1


def test_staff_without_the_permission_may_not_disqualify(django_user_model: Any, cup: Tournament) -> None:
    staffer = django_user_model.objects.create_user("staffer", "s@example.org", is_staff=True)
    with pytest.raises(Refusal):
        corrections.disqualify(cup.pk, staffer, cheater(cup).pk, "forfeit", "no right")
    assert cheater(cup).disqualified == ""


def test_a_bracket_stays_as_played_and_the_disqualified_champion_has_no_place(root: Any, tournament: Any,
                                                                             players: Any) -> None:
    t = finished(tournament, players(4), Tournament.Format.SINGLE)
    before = places(t)
    with pytest.raises(Refusal, match="a bracket stays as played"):
        corrections.disqualify(t.pk, root, cheater(t).pk, "forfeit", "engine")
    corrections.disqualify(t.pk, root, cheater(t).pk, "as-played", "engine")
    assert places(t) == {**before, "p01": None}  # nobody moves up into the vacated first place
    shown = pages.bracket(Tournament.objects.get(pk=t.pk), {})
    assert shown is not None and [entry.user.username for place, entry in shown.ranking if place == 1] == []
    # The API's standings of a bracket say the same: the champion has no place there either.
    api = Client().get(f"/api/tournaments/{t.pk}/standings").json()["standings"]
    assert "p01" not in [line["username"] for line in api] and api


def test_rerank_recomputes_the_places_from_the_stored_results(root: Any, cup: Tournament) -> None:
    # p01's win over p02 turned into a loss (as an adjudication would store it), places left stale.
    board = Pairing.objects.get(round__tournament=cup, red__number__in=[1, 2], black__number__in=[1, 2])
    board.result = "0-1" if board.red.number == 1 else "1-0"
    board.save(update_fields=["result"])
    Entry.objects.filter(tournament=cup).update(place=None)
    correction = corrections.rerank(cup.pk, root, "game adjudicated")
    assert places(cup) == {"p01": 2, "p02": 1, "p03": 3, "p04": 4}
    assert correction.kind == "rerank" and "p01 –→2" in correction.changes


def test_an_organizer_sees_only_her_own_tournaments(olga: Any, moderator: Any, root: Any, django_user_model: Any,
                                                    tournament: Any) -> None:
    mine = tournament(name="Olga's Open")
    rival = django_user_model.objects.create_user("rita", "rita@example.org", is_staff=True)
    rival.groups.add(staff_group("Organizers"))
    theirs = tournament(name="Rita's Rapid", organizer=rival)
    listing = client_for(olga).get(reverse("admin:tournaments_tournament_changelist")).content.decode()
    assert "Olga&#x27;s Open" in listing and "Rita&#x27;s Rapid" not in listing
    change = reverse("admin:tournaments_tournament_change", args=[theirs.pk])
    assert client_for(olga).get(change).status_code in (302, 403, 404)
    client_for(olga).post(change, {"name": "Olga's now"})
    assert Tournament.objects.get(pk=theirs.pk).name == "Rita's Rapid"
    assert client_for(olga).get(reverse("admin:tournaments_tournament_change", args=[mine.pk])).status_code == 200
    for overseer in (moderator, root):
        listing = client_for(overseer).get(reverse("admin:tournaments_tournament_changelist")).content.decode()
        assert "Olga&#x27;s Open" in listing and "Rita&#x27;s Rapid" in listing


def test_an_organizer_sees_only_the_entries_and_boards_of_her_tournaments(olga: Any, django_user_model: Any,
                                                                          tournament: Any, players: Any) -> None:
    rival = django_user_model.objects.create_user("rita", "rita@example.org", is_staff=True)
    theirs = finished(lambda **fields: tournament(**fields, organizer=rival), players(4), ROUND_ROBIN)
    entry = cheater(theirs)
    board = Pairing.objects.filter(round__tournament=theirs).first()
    client = client_for(olga)
    assert "p01" not in client.get(reverse("admin:tournaments_entry_changelist")).content.decode()
    assert client.get(reverse("admin:tournaments_entry_change", args=[entry.pk])).status_code in (302, 403, 404)
    assert client.get(reverse("admin:tournaments_pairing_change", args=[board.pk])).status_code in (302, 403, 404)
    disqualify_in_admin(olga, entry, "forfeit")
    assert cheater(theirs).disqualified == ""


def _settings(**fields: Any) -> dict[str, Any]:
    form = {"name": "Admin Cup", "description": "", "rules": "ace-in-the-hole", "format": "swiss",
            "time_control": "5+3", "rated": "on", "max_players": "8", "min_rated_games": "0",
            "min_account_days": "0", "seeding": "rating", "rounds": "5", "match_length": "1", "pause_seconds": "60",
            "check_in_minutes": "0", "tiebreaks": "", "chat_for": "entrants",
            "starts_at": (timezone.now() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")}
    for prefix in ("entries", "forbidden_pairings", "round_set", "corrections"):
        form.update({f"{prefix}-TOTAL_FORMS": "0", f"{prefix}-INITIAL_FORMS": "0"})
    return {**form, **fields}


@pytest.mark.parametrize(("fields", "message"), [
    ({"max_players": "1"}, "a tournament needs at least 2 players"),
    ({"rounds": "40"}, "a Swiss of at most 8 players has at most 7 rounds"),
    ({"starts_at": "2020-05-01T10:00"}, "the start must be in the future"),
])
def test_the_admin_form_refuses_what_the_site_refuses(olga: Any, fields: dict[str, str], message: str) -> None:
    response = client_for(olga).post(reverse("admin:tournaments_tournament_add"), _settings(**fields))
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Tournament.objects.exists()


def test_a_tournament_added_by_an_organizer_is_hers(olga: Any) -> None:
    response = client_for(olga).post(reverse("admin:tournaments_tournament_add"), _settings())
    assert response.status_code == 302
    assert Tournament.objects.get(name="Admin Cup").organizer == olga


def test_an_entry_that_has_played_is_never_deleted(root: Any, olga: Any, cup: Tournament) -> None:
    played, entry = boards(cup), cheater(cup)
    delete = reverse("admin:tournaments_entry_delete", args=[entry.pk])
    assert client_for(root).post(delete, {"post": "yes"}).status_code == 403
    listing = client_for(root).get(reverse("admin:tournaments_entry_changelist")).content.decode()
    assert "delete_selected" not in listing
    page = client_for(root).get(reverse("admin:tournaments_tournament_change", args=[cup.pk])).content.decode()
    assert "entries-0-DELETE" not in page
    with pytest.raises(RestrictedError):  # nor by the code: its boards hold it
        entry.delete()
    assert boards(cup) == played and Entry.objects.filter(pk=entry.pk).exists()
    assert not olga.has_perm("tournaments.delete_entry")


def test_the_cheaters_games_keep_their_ratings(olga: Any, cup: Tournament) -> None:
    """A forfeit counts in the standings only: a game's rating is the moderator's UNDO_RATING act."""
    rated = sorted(Game.objects.filter(tournament_pairing__round__tournament=cup).values_list("pk", "winner"))
    disqualify_in_admin(olga, cheater(cup), "forfeit")
    assert sorted(Game.objects.filter(tournament_pairing__round__tournament=cup).values_list("pk", "winner")) == rated


def test_the_organizer_disqualifies_from_the_tournaments_page_after_confirming(olga: Any, cup: Tournament) -> None:
    client, entry = client_for(olga), cheater(cup)
    page = client.get(f"/tournaments/{cup.pk}/").content.decode()
    url = f"/tournaments/{cup.pk}/disqualify/{entry.pk}/"
    assert f'action="{url}"' in page
    form = {"scoring": "forfeit", "reason": "engine use"}
    assert "Yes, disqualify them" in client.post(url, form).content.decode()
    assert cheater(cup).disqualified == ""  # not before the confirmation
    response = client.post(url, {**form, "confirmed": "yes"}, follow=True)
    assert "p01 is disqualified." in response.content.decode()
    assert places(cup) == {"p01": None, "p02": 1, "p03": 2, "p04": 3}
    Tournament.objects.filter(pk=cup.pk).update(finished_at=timezone.now() - timedelta(days=8))
    late = Entry.objects.get(tournament=cup, number=2)
    assert f"/disqualify/{late.pk}/" not in client.get(f"/tournaments/{cup.pk}/").content.decode()
    client.post(f"/tournaments/{cup.pk}/disqualify/{late.pk}/", {**form, "confirmed": "yes"})
    assert Entry.objects.get(pk=late.pk).disqualified == ""


def test_a_player_disqualified_during_a_swiss_is_not_paired_again(root: Any, tournament: Any, players: Any) -> None:
    t = tournament(format=Tournament.Format.SWISS, rounds=3, starts_at=timezone.now())
    for user in players(6):
        entering.join(t.pk, user)
    advancing.advance(t.pk)
    play_round(Tournament.objects.get(pk=t.pk), lambda pairing: "red")
    entry = cheater(t)
    corrections.disqualify(t.pk, root, entry.pk, "forfeit", "engine use")
    Tournament.objects.filter(pk=t.pk).update(next_round_at=timezone.now())
    advancing.advance(t.pk)
    second = Pairing.objects.filter(round__tournament=t, round__number=2)
    assert second.exists() and not second.filter(Q(red=entry) | Q(black=entry)).exists()
    mine = next(p for p in scoring.trf_players(Tournament.objects.get(pk=t.pk)) if p.number == 1)
    assert cheater(t).withdrawn_after_round == 1 and [r.result for r in mine.rounds if r.opponent] == ["-"]


def test_a_forbidden_pairing_takes_only_this_tournaments_players(olga: Any, django_user_model: Any,
                                                                 tournament: Any, players: Any) -> None:
    rival = django_user_model.objects.create_user("rita", "rita@example.org", is_staff=True)
    ours = finished(lambda **fields: tournament(**fields, organizer=olga), players(4), ROUND_ROBIN)
    theirs = finished(lambda **fields: tournament(**fields, organizer=rival), players(4), ROUND_ROBIN)
    mine, other = list(ours.entries.order_by("number")), list(theirs.entries.order_by("number"))
    refused = ForbiddenPairingForm({"tournament": ours.pk, "first": mine[0].pk, "second": other[1].pk})
    assert not refused.is_valid() and "is not entered in this tournament" in str(refused.errors["second"])
    allowed = ForbiddenPairingForm({"tournament": ours.pk, "first": mine[0].pk, "second": mine[1].pk})
    assert allowed.is_valid(), allowed.errors
