"""Correcting a tournament's results during or after its play: disqualifying a
player (a cheater found out after the end), correcting a board's result whose
game is over (``correct_result``) and recomputing the places.

A disqualified player's entry is kept and marked (``Entry.disqualified``), so
every pairing keeps both players and the crosstable stays whole. How their
games count is the corrector's choice:

- "forfeit": each of their games is lost by forfeit for them and won by forfeit
  for the opponent, in the standings and tiebreaks (scoring.trf_players). The
  games themselves and their ratings are untouched: a game's rating effect is
  undone by the moderator's UNDO_RATING act (moderation.actions), game by game,
  where a moderator finds it deserved; a tournament correction does not reach
  into the ladder.
- "as played": the results stand for the opponents; the player just leaves the
  ranking.

Either way the player has no place, and in the standings' formats (Swiss,
round robin) those below move up (scoring.ranking). A bracket (single or
double elimination) stays as played, since who met whom cannot be replayed: the
disqualified player's place is left empty and nobody moves into it, so only
"as played" is offered there (scoring.final_places).

A corrected result is the board's and its game's alike: the game is
adjudicated after the fact and unrated, its rating effect undone
(ladder.overturning, as a moderator's overturn of any game). In a bracket only
a board that no later match was built on is corrected (a final, a third-place
match, a grand final's reset): the bracket stays as played.

Who may: a moderator (the permission moderation.disqualify_player, through the
moderator's DISQUALIFY act, or ADJUDICATE on a finished tournament game, which
this module does for moderation), a
superuser, and the tournament's organizer while it runs and for
``ORGANIZER_DAYS`` days after its end. Each correction is kept as a
``Correction`` row (the tournament's history: who, when, why, what changed),
noted in the admin's history of the tournament (LogEntry), and its open pages
reload (changes.changed_on_commit).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.contrib.admin.models import CHANGE, LogEntry
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from games.models import Game
from ladder import overturning
from moderation.actions import ModerationRefusal
from moderation.models import ModerationAction
from tournaments import brackets
from tournaments.changes import Refusal, changed_on_commit, locked
from tournaments.entering import WHY_LENGTH
from tournaments.models import Correction, Entry, Pairing, Tournament
from tournaments.scoring import bracket_of, match_winner, store_places

# After this long past its end, the organizer's results are final: later
# corrections are a moderator's (the organizer may have left; players have
# planned on the result).
ORGANIZER_DAYS = 7
PERMISSION = "moderation.disqualify_player"


def correction_refusal(user: Any, tournament: Tournament, now: datetime) -> str | None:
    """Why ``user`` may not correct ``tournament`` now, or None."""
    if not getattr(user, "is_authenticated", False):
        return gettext("only the tournament's organizer or a moderator may correct it")
    if user.is_superuser or user.has_perm(PERMISSION):
        return None
    if tournament.organizer_id != user.pk or not user.has_perm("tournaments.organize_tournament"):
        return gettext("only the tournament's organizer or a moderator may correct it")
    ended = tournament.finished_at
    if tournament.status == Tournament.Status.FINISHED and ended and now > ended + timedelta(days=ORGANIZER_DAYS):
        return gettext("its organizer may correct a tournament for %(days)d days after its end: ask a moderator") % {
            "days": ORGANIZER_DAYS}
    return None


def _corrected(tournament_id: int, by: Any) -> Tournament:
    tournament = locked(tournament_id)
    if (why := correction_refusal(by, tournament, timezone.now())) is not None:
        raise Refusal(why)
    if tournament.status == Tournament.Status.UPCOMING:
        raise Refusal(gettext("the tournament has not started: remove the player instead"))
    if tournament.status == Tournament.Status.CANCELLED:
        raise Refusal(gettext("the tournament was cancelled: it has no results to correct"))
    return tournament


def disqualify(tournament_id: int, by: Any, entry_id: int, scoring: str, reason: str) -> Correction:
    """Disqualify a player who played in the tournament, their games counted as
    ``scoring`` says (Entry.Disqualified: "forfeit" or "as-played"); during
    play they are also withdrawn from the rounds to come."""
    if scoring not in Entry.Disqualified.values:
        raise Refusal(gettext("choose how the player's games count: lost by forfeit, or as played"))
    if not reason.strip():
        raise Refusal(gettext("say why: the reason is kept in the log"))
    with transaction.atomic():
        tournament = _corrected(tournament_id, by)
        entry = tournament.entries.select_related("user").filter(pk=entry_id, number__isnull=False).first()
        if entry is None:
            raise Refusal(gettext("that player did not play in this tournament"))
        name = entry.user.get_username()
        if entry.disqualified:
            raise Refusal(gettext("%(name)s is already disqualified") % {"name": name})
        if tournament.elimination and scoring == Entry.Disqualified.FORFEIT:
            raise Refusal(gettext("a bracket stays as played: choose “as played” (the player's place is left "
                                  "empty)"))
        before = _places(tournament)
        _mark(tournament, entry, scoring, reason)
        changes = f"{name} disqualified ({scoring})" + _replace_places(tournament, before)
        return _log(tournament, by, Correction.Kind.DISQUALIFY, entry, reason, changes)


def _mark(tournament: Tournament, entry: Entry, scoring: str, reason: str) -> None:
    """The entry marked, never deleted; a player still in the rounds leaves
    them (not entering.leave: a round robin's annulment would overrule the
    corrector's choice of scoring)."""
    entry.disqualified = scoring
    if entry.active:
        entry.withdrawn_at, entry.withdrawn_after_round = timezone.now(), tournament.current_round
    entry.withdrawn_why = f"disqualified: {reason.strip()}"[:WHY_LENGTH]
    entry.save(update_fields=["disqualified", "withdrawn_at", "withdrawn_after_round", "withdrawn_why"])


def rerank(tournament_id: int, by: Any, reason: str) -> Correction:
    """Recompute a finished tournament's places (and so its podium) from its
    stored results, e.g. after a game's result was adjudicated."""
    if not reason.strip():
        raise Refusal(gettext("say why: the reason is kept in the log"))
    with transaction.atomic():
        tournament = _corrected(tournament_id, by)
        if tournament.status != Tournament.Status.FINISHED:
            raise Refusal(gettext("places are given when the tournament finishes"))
        before = _places(tournament)
        changes = "places recomputed" + (_replace_places(tournament, before) or ": none changed")
        return _log(tournament, by, Correction.Kind.RERANK, None, reason, changes)


# The results a board's result may be corrected to, and the seat (first: the
# pairing's red, second: black) whose side then wins the game; None a draw. A
# double forfeit is not among them: a played game cannot be lost by both.
_WINNING_SEAT: dict[str, int | None] = {
    Pairing.Result.RED: 0, Pairing.Result.RED_FORFEIT_WIN: 0, Pairing.Result.BLACK: 1,
    Pairing.Result.BLACK_FORFEIT_WIN: 1, Pairing.Result.DRAW: None}


def correct_result(tournament_id: int, by: Any, pairing_id: int, result: str, reason: str) -> Correction:
    """Replace the result of a board whose game is over (a finished tournament's,
    or a running one's): the board's result becomes ``result`` (a Pairing.Result:
    a side wins, a draw, or a side wins by forfeit), its game's public result
    follows, adjudicated and unrated (ladder.overturning), and a finished
    tournament's places and podium are stored again. A bracket's board only
    where no later match was built on it (``_bracket_refusal``)."""
    if result not in _WINNING_SEAT:
        raise Refusal(gettext("choose the result: a side wins, a draw, or a side wins by forfeit"))
    if not reason.strip():
        raise Refusal(gettext("say why: the reason is kept in the log"))
    with transaction.atomic():
        pairing = _board(tournament_id, pairing_id)
        game = Game.objects.select_for_update().get(pk=pairing.game_id)  # the game's row first, as recording locks
        tournament = _corrected(tournament_id, by)
        if game.status != Game.Status.FINISHED:
            raise Refusal(gettext("the game is not over: a running game is adjudicated instead"))
        if pairing.result == result:
            raise Refusal(gettext("the result is %(result)s already") % {"result": pairing.get_result_display()})
        if (why := _bracket_refusal(tournament, pairing, result)) is not None:
            raise Refusal(why)
        before, old = _places(tournament), pairing.result
        pairing.result = result
        pairing.save(update_fields=["result"])
        seat = _WINNING_SEAT[result]
        undone = overturning.overturn(game, None if seat is None else game.seat_names[seat], reason)
        names = f"{pairing.red.user.get_username()} – {pairing.black.user.get_username()}"  # type: ignore[union-attr]
        changes = (f"round {pairing.round.number} board {pairing.board} ({names}): "
                   f"{old or '–'} → {result}; game {game.pk} adjudicated, unrated ({undone} rating change(s) undone)"
                   + _replace_places(tournament, before))
        return _log(tournament, by, Correction.Kind.RESULT, None, reason, changes)


def _board(tournament_id: int, pairing_id: int) -> Pairing:
    pairing = (Pairing.objects.filter(pk=pairing_id, round__tournament_id=tournament_id)
               .select_related("round", "red__user", "black__user").first())
    if pairing is None or pairing.game_id is None:
        raise Refusal(gettext("there is no such game in this tournament"))
    return pairing


def _bracket_refusal(tournament: Tournament, pairing: Pairing, result: str) -> str | None:
    """Why a bracket's board may not take ``result``: the winner (or loser) of
    its match played on in a later match, which cannot be replayed (the bracket
    stays as played), or the match, decided, would be left without a winner.
    So only a final's games (the final, a third-place match, a grand final's
    reset) are corrected in a bracket."""
    if not tournament.elimination:
        return None
    fed = (brackets.WinnerOf(pairing.match), brackets.LoserOf(pairing.match))
    if any(source in fed for match in bracket_of(tournament).bracket.matches for source in (match.top, match.bottom)):
        return gettext("in a bracket only a final's games can be corrected: later matches were played on this "
                       "result, and the bracket stays as played")
    if _match_winner(tournament, pairing, pairing.result) is not None and \
            _match_winner(tournament, pairing, result) is None:
        return gettext("the match would have no winner: a bracket's final needs one")
    return None


def _match_winner(tournament: Tournament, pairing: Pairing, result: str) -> int | None:
    """The winner of ``pairing``'s match were its board's result ``result``."""
    boards = (Pairing.objects.filter(round__tournament=tournament, match=pairing.match)
              .select_related("red", "black").order_by("match_game"))
    played = [(board.red.number, board.black.number if board.black else None,
               result if board.pk == pairing.pk else board.result) for board in boards]
    return match_winner(played, tournament.match_length)  # type: ignore[arg-type]


def overturn_act(action: ModerationAction) -> str:
    """The moderator's ADJUDICATE act on a finished tournament game (registered
    with moderation.actions.provide_event_overturn in TournamentsConfig.ready()):
    its board's result corrected (``correct_result``), the winner a seat of the
    game or nobody (a draw)."""
    game = action.game
    pairing = Pairing.objects.filter(game_id=game.pk).select_related("round").first()
    if pairing is None:
        raise ModerationRefusal(gettext("game %(number)s belongs to %(event)s, which is none of the site's "
                                        "tournaments: undo its rating effect if need be")
                                % {"number": game.pk, "event": game.event})
    winner = action.winner.strip() or None
    if winner is not None and winner not in game.seat_names:
        raise ModerationRefusal(gettext("game %(number)s: the winner is one of %(seats)s or nobody (a draw), "
                                        "not '%(winner)s'")
                                % {"number": game.pk, "seats": ", ".join(game.seat_names), "winner": winner})
    result = Pairing.Result.DRAW if winner is None else (Pairing.Result.RED, Pairing.Result.BLACK)[
        game.seat_names.index(winner)]
    try:
        correction = correct_result(pairing.round.tournament_id, action.moderator, pairing.pk, result, action.reason)
    except Refusal as refusal:
        raise ModerationRefusal(gettext("tournament %(number)s: %(why)s")
                                % {"number": pairing.round.tournament_id, "why": refusal}) from None
    return f"tournament {pairing.round.tournament_id}: {correction.changes}"


def _places(tournament: Tournament) -> dict[str, int | None]:
    return {name: place for name, place in tournament.entries.values_list("user__username", "place")}


def _replace_places(tournament: Tournament, before: dict[str, int | None]) -> str:
    """Store the places again (a finished tournament only: a running one's are
    given at its end) and say which moved, e.g. "; places: p01 2→1, p03 1→–"."""
    if tournament.status != Tournament.Status.FINISHED:
        return ""
    store_places(tournament)
    after = _places(tournament)
    moved = [f"{name} {_shown(before.get(name))}→{_shown(place)}" for name, place in sorted(after.items())
             if before.get(name) != place]
    return "; places: " + ", ".join(moved) if moved else ""


def _shown(place: int | None) -> str:
    return "–" if place is None else str(place)


def _log(tournament: Tournament, by: Any, kind: str, entry: Entry | None, reason: str, changes: str) -> Correction:
    correction = Correction.objects.create(tournament=tournament, kind=kind, by=by, entry=entry,
                                           reason=reason.strip(), changes=changes)
    message = f"Correction: {correction.get_kind_display()}. Why: {reason.strip()}. Done: {changes}"
    LogEntry.objects.log_actions(user_id=by.pk, queryset=[tournament], action_flag=CHANGE,
                                 change_message=message[:2000], single_object=True)
    changed_on_commit(tournament)
    return correction


def disqualify_act(action: ModerationAction) -> str:
    """The moderator's DISQUALIFY act (registered with moderation.actions.provide
    in TournamentsConfig.ready()): the account acted on, in tournament number
    ``action.tournament``."""
    entry = Entry.objects.filter(tournament_id=action.tournament, user=action.user).first()
    if entry is None:
        raise ModerationRefusal(gettext("%(name)s did not play in tournament %(number)s")
                                % {"name": action.user, "number": action.tournament})
    try:
        correction = disqualify(entry.tournament_id, action.moderator, entry.pk, action.scoring, action.reason)
    except Refusal as refusal:
        raise ModerationRefusal(gettext("tournament %(number)s: %(why)s")
                                % {"number": action.tournament, "why": refusal}) from None
    return f"tournament {action.tournament}: {correction.changes}"
