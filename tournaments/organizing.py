"""What a tournament's organizer does: inviting bots, removing players, seeding,
keeping players apart, pausing, cancelling, starting early, adjudicating.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

from games import finishing
from games.models import Game, Seat
from ladder.models import Player as LadderPlayer
from tournaments.advancing import advance_on_commit, end_tournament, start_tournament
from tournaments.changes import Refusal, changed_on_commit, locked
from tournaments.entering import entry_refusal, fill_new_entry, leave
from tournaments.models import Entry, ForbiddenPairing, Pairing, Tournament


def may_organize(user: Any, tournament: Tournament | None = None) -> bool:
    """Organizers (the "Organizers" group's permission) run their own
    tournaments; superusers run every one."""
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_superuser:
        return True
    return user.has_perm("tournaments.organize_tournament") and (
        tournament is None or tournament.organizer_id == user.pk)


def _organized(tournament_id: int, user: Any) -> Tournament:
    tournament = locked(tournament_id)
    if not may_organize(user, tournament):
        raise Refusal(gettext("only the tournament's organizer may do that"))
    return tournament


def invitable_bots(tournament: Tournament) -> list[Any]:
    """The site's computer players an organizer may invite (users, by name):
    none where bots may not enter or entries are closed."""
    if not tournament.bots_allowed or not tournament.registration_open:
        return []
    entered = tournament.entries.values("user_id")
    return [player.user for player in LadderPlayer.objects.filter(is_bot=True, user__is_active=True)
            .exclude(bot_level="").exclude(user_id__in=entered).select_related("user").order_by("user__username")]


def invite_bot(tournament_id: int, organizer: Any, bot_user_id: int) -> Entry:
    """The organizer enters one of the site's computer players (engine bots,
    one account per level), on the conditions any entry meets (``entry_refusal``).
    A BOT account (a person's program) joins by itself, through the API."""
    with transaction.atomic():
        tournament = _organized(tournament_id, organizer)
        bot = (LadderPlayer.objects.filter(user_id=bot_user_id, is_bot=True).exclude(bot_level="")
               .select_related("user").first())
        if bot is None:
            raise Refusal(gettext("choose one of the site's computer players to invite"))
        name, now = bot.user.get_username(), timezone.now()
        if not bot.user.is_active:
            raise Refusal(gettext("%(name)s is switched off: invite another computer player") % {"name": name})
        if Entry.objects.filter(tournament=tournament, user=bot.user).exists():
            raise Refusal(gettext("%(name)s is already in this tournament, or has left it") % {"name": name})
        if (why := entry_refusal(tournament, bot.user, now)) is not None:
            raise Refusal(gettext("%(name)s cannot enter: %(why)s") % {"name": name, "why": why})
        entry = fill_new_entry(tournament, Entry(tournament=tournament, user=bot.user), now)
        entry.save()
        changed_on_commit(tournament)
    return entry


def remove_player(tournament_id: int, organizer: Any, entry_id: int, why: str) -> Entry:
    """Take a player out, at any time until the end: before the start their
    entry is gone; after it they are not paired again, their played games
    stand, and a game they are playing is left to finish and counts (as a FIDE
    withdrawal; the organizer may adjudicate it)."""
    with transaction.atomic():
        tournament = _organized(tournament_id, organizer)
        if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
            raise Refusal(gettext("the tournament is over: its players stay as they finished"))
        entry = tournament.entries.filter(pk=entry_id, withdrawn_at__isnull=True).first()
        if entry is None:
            raise Refusal(gettext("that player is not in the tournament"))
        leave(tournament, entry, f"removed by the organizer: {why}".strip(": "))
        changed_on_commit(tournament)
    return entry


def set_seeds(tournament_id: int, organizer: Any, seeds: dict[int, int | None]) -> None:
    """The organizer's seeding order ({entry id: seed}, lowest first), used
    when the tournament seeds manually; until the start only."""
    with transaction.atomic():
        tournament = _organized(tournament_id, organizer)
        if tournament.status != Tournament.Status.UPCOMING:
            raise Refusal(gettext("the seeding is fixed once the tournament has started"))
        entries = {e.pk: e for e in tournament.entries.filter(pk__in=seeds)}
        if len(entries) != len(seeds):
            raise Refusal(gettext("some of those players are not in this tournament"))
        field = tournament.entries.count()
        if any(seed is not None and not 1 <= seed <= field for seed in seeds.values()):
            raise Refusal(gettext("a seed is a place in the field, from 1 to %(count)s") % {"count": field})
        for pk, seed in seeds.items():
            entries[pk].manual_seed = seed
        Entry.objects.bulk_update(entries.values(), ["manual_seed"])
        changed_on_commit(tournament)


def set_chat_for(tournament_id: int, organizer: Any, chat_for: str) -> Tournament:
    """Who may write in the tournament's chat (Tournament.ChatFor), at any time;
    the pages reload their chat box with the tournament (issue 25)."""
    if chat_for not in Tournament.ChatFor.values:
        raise Refusal(gettext("choose who may write: %(choices)s")
                      % {"choices": ", ".join(str(label) for label in Tournament.ChatFor.labels)})
    with transaction.atomic():
        tournament = _organized(tournament_id, organizer)
        tournament.chat_for = chat_for
        tournament.save(update_fields=["chat_for"])
        changed_on_commit(tournament)
    return tournament


def forbid(tournament_id: int, organizer: Any, first_id: int, second_id: int) -> ForbiddenPairing:
    """Two players the Swiss must never pair (family, club mates, ...)."""
    with transaction.atomic():
        tournament = _organized(tournament_id, organizer)
        if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
            raise Refusal(gettext("the tournament is over"))
        if first_id == second_id:
            raise Refusal(gettext("choose two different players"))
        entries = list(tournament.entries.filter(pk__in=[first_id, second_id]))
        if len(entries) != 2:
            raise Refusal(gettext("both players must be in this tournament"))
        pair = Q(first_id=first_id, second_id=second_id) | Q(first_id=second_id, second_id=first_id)
        if tournament.forbidden_pairings.filter(pair).exists():
            raise Refusal(gettext("those two are already kept apart"))
        forbidden = ForbiddenPairing.objects.create(tournament=tournament, first_id=first_id, second_id=second_id)
        changed_on_commit(tournament)
    return forbidden


def allow(tournament_id: int, organizer: Any, forbidden_id: int) -> None:
    with transaction.atomic():
        tournament = _organized(tournament_id, organizer)
        if not tournament.forbidden_pairings.filter(pk=forbidden_id).delete()[0]:
            raise Refusal(gettext("there is no such forbidden pairing"))
        changed_on_commit(tournament)


def pause(tournament_id: int, organizer: Any) -> Tournament:
    """No new round starts while paused; games already running finish."""
    with transaction.atomic():
        tournament = _organized(tournament_id, organizer)
        if tournament.status != Tournament.Status.RUNNING:
            raise Refusal(gettext("only a running tournament can be paused; this one is %(status)s")
                          % {"status": str(tournament.get_status_display()).lower()})
        tournament.status = Tournament.Status.PAUSED
        tournament.save(update_fields=["status"])
        changed_on_commit(tournament)
    return tournament


def resume(tournament_id: int, organizer: Any) -> Tournament:
    with transaction.atomic():
        tournament = _organized(tournament_id, organizer)
        if tournament.status != Tournament.Status.PAUSED:
            raise Refusal(gettext("the tournament is not paused"))
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
        advance_on_commit(tournament)
        changed_on_commit(tournament)
    return tournament


def cancel(tournament_id: int, organizer: Any) -> Tournament:
    """Call the tournament off; games already running are played out, unrecorded."""
    with transaction.atomic():
        tournament = _organized(tournament_id, organizer)
        if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
            finished = tournament.status == Tournament.Status.FINISHED
            raise Refusal(gettext("the tournament is already finished") if finished
                          else gettext("the tournament is already cancelled"))
        end_tournament(tournament, Tournament.Status.CANCELLED, "cancelled by the organizer")
    return tournament


def start_early(tournament_id: int, organizer: Any) -> Tournament:
    with transaction.atomic():
        tournament = _organized(tournament_id, organizer)
        if tournament.status != Tournament.Status.UPCOMING:
            raise Refusal(gettext("the tournament has already started"))
        start_tournament(tournament)
    return tournament


def adjudicate(tournament_id: int, organizer: Any, pairing_id: int, winner: str | None, note: str) -> Game:
    """Decide a running tournament game's result, with the written reason the game keeps."""
    with transaction.atomic():
        tournament = _organized(tournament_id, organizer)
        pairing = Pairing.objects.filter(pk=pairing_id, round__tournament=tournament).first()
        if pairing is None or pairing.game_id is None:
            raise Refusal(gettext("there is no such game in this tournament"))
    return finishing.adjudicate(pairing.game_id, _seat_of_side(pairing, winner), note)


def _seat_of_side(pairing: Pairing, winner: str | None) -> str | None:
    """The pages name a board's sides as its pairing does, red and black (the
    first and second seat); in Rhombus those seats are SW and NE. A seat's own
    name (the API's) is taken as it is."""
    sides = ("red", "black")
    if winner not in sides:
        return winner
    seats = Seat.objects.filter(game_id=pairing.game_id).order_by("number").values_list("name", flat=True)
    return list(seats)[sides.index(winner)]
