"""What a moderator can do to an account or a game, each kept as a ModerationAction.

``perform`` is the one way in: it checks the moderator's permission for the
kind of act, does it, and saves the log row with what was done, in one
transaction, and notes it in Django's admin history (LogEntry) of the account
or game acted on. A refused act writes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.contrib.admin.models import CHANGE, LogEntry
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext, pgettext_lazy

from chat import lines as chat_lines
from chat.models import ChatTimeout
from games import finishing, refusals, signins, store
from games.models import Game
from ladder import overturning, playban, ratings
from ladder.models import LADDERS, RatingChange
from ladder.withdrawals import withdraw_open_play
from moderation import reports, restrictions
from moderation.models import CHAT_MINUTES, ModerationAction, Report, Restriction

Kind = ModerationAction.Kind

# The permission each kind of act needs (the Moderators group has them all).
PERMISSION = {
    Kind.RESTRICT_RATED: "moderation.restrict_account",
    Kind.RESTRICT_LOBBY: "moderation.restrict_account",
    Kind.CLOSE_ACCOUNT: "moderation.close_account",
    Kind.REOPEN_ACCOUNT: "moderation.close_account",
    Kind.ADJUDICATE: "moderation.adjudicate_game",
    Kind.UNDO_RATING: "moderation.undo_rating",
    Kind.REFUND: "moderation.refund_rating",
    Kind.LIFT_RATED: "moderation.lift_restriction",
    Kind.LIFT_LOBBY: "moderation.lift_restriction",
    Kind.CHAT_TIMEOUT: "moderation.moderate_chat",
    Kind.CHAT_REMOVE: "moderation.moderate_chat",
    Kind.CHAT_CLEAR: "moderation.moderate_chat",
    Kind.CHAT_LOCK: "moderation.moderate_chat",
    Kind.ABORT_GAME: "moderation.abort_game",
    Kind.CORRECT_RATING: "moderation.correct_rating",
    Kind.LIFT_PLAYBAN: "moderation.lift_playban",
    Kind.DISQUALIFY: "moderation.disqualify_player",
}
_NEEDS_USER = {Kind.RESTRICT_RATED, Kind.RESTRICT_LOBBY, Kind.CLOSE_ACCOUNT, Kind.REOPEN_ACCOUNT, Kind.REFUND,
               Kind.LIFT_RATED, Kind.LIFT_LOBBY, Kind.CHAT_TIMEOUT, Kind.CHAT_CLEAR, Kind.CORRECT_RATING,
               Kind.LIFT_PLAYBAN}
_NEEDS_GAME = {Kind.ADJUDICATE, Kind.UNDO_RATING, Kind.ABORT_GAME}

# Each act as an infinitive inside "you may not ...": its own message, since
# lowercasing a label breaks German nouns.
_ACT_AFTER_MAY_NOT = {
    Kind.RESTRICT_RATED: pgettext_lazy("moderator's act after 'you may not'", "restrict from rated games"),
    Kind.RESTRICT_LOBBY:
        pgettext_lazy("moderator's act after 'you may not'", "restrict from seeks, challenges and quick pairing"),
    Kind.CLOSE_ACCOUNT: pgettext_lazy("moderator's act after 'you may not'", "close the account"),
    Kind.ADJUDICATE: pgettext_lazy("moderator's act after 'you may not'", "adjudicate a game's result"),
    Kind.UNDO_RATING: pgettext_lazy("moderator's act after 'you may not'", "undo a game's rating effect"),
    Kind.REFUND:
        pgettext_lazy("moderator's act after 'you may not'", "refund the points the offender took from opponents"),
    Kind.LIFT_RATED: pgettext_lazy("moderator's act after 'you may not'", "lift a restriction from rated games"),
    Kind.LIFT_LOBBY:
        pgettext_lazy("moderator's act after 'you may not'", "lift a restriction from seeks, challenges and pairing"),
    Kind.REOPEN_ACCOUNT: pgettext_lazy("moderator's act after 'you may not'", "reopen a closed account"),
    Kind.CHAT_TIMEOUT: pgettext_lazy("moderator's act after 'you may not'", "time a player out of chat"),
    Kind.CHAT_REMOVE: pgettext_lazy("moderator's act after 'you may not'", "remove a chat line"),
    Kind.CHAT_CLEAR: pgettext_lazy("moderator's act after 'you may not'", "clear a player's chat lines"),
    Kind.CHAT_LOCK: pgettext_lazy("moderator's act after 'you may not'", "lock a chat room"),
    Kind.ABORT_GAME: pgettext_lazy("moderator's act after 'you may not'", "abort a game"),
    Kind.CORRECT_RATING: pgettext_lazy("moderator's act after 'you may not'", "correct a rating"),
    Kind.LIFT_PLAYBAN: pgettext_lazy("moderator's act after 'you may not'", "lift or shorten a playban"),
    Kind.DISQUALIFY: pgettext_lazy("moderator's act after 'you may not'", "disqualify a player from a tournament"),
}


class ModerationRefusal(ValueError):
    """An act refused before anything was written; the message says why."""


def refusal(action: ModerationAction) -> str | None:
    """Why ``moderator`` may not do ``action`` as described (the checks made before anything happens)."""
    kind = action.kind
    if kind not in PERMISSION:
        return gettext("“%(act)s” is not a moderator's act") % {"act": kind}
    if not action.moderator.has_perm(PERMISSION[kind]):
        return gettext("you may not %(act)s: it needs the permission %(permission)s") % {
            "act": _ACT_AFTER_MAY_NOT[kind], "permission": PERMISSION[kind]}
    if not action.reason.strip():
        return gettext("say why: the reason is kept in the log")
    if kind in _NEEDS_USER and action.user is None:
        return gettext("%(act)s needs the account acted on") % {"act": Kind(kind).label}
    if kind in _NEEDS_GAME and action.game is None:
        return gettext("%(act)s needs the game") % {"act": Kind(kind).label}
    if action.user is not None and action.user.pk == action.moderator.pk:
        return gettext("a moderator does not act on their own account")
    if action.user is not None and action.user.is_staff and not action.moderator.is_superuser:
        # no moderator wars
        return gettext("%(name)s is staff: only a superuser acts on a staff account") % {"name": action.user}
    if kind == Kind.REFUND and action.since is None:
        return gettext("a refund needs the start of the period")
    return _correction_refusal(action) or _chat_refusal(action) or _tournament_refusal(action)


def _correction_refusal(action: ModerationAction) -> str | None:
    """A rating correction names the ladder and a rating within reason."""
    if action.kind != Kind.CORRECT_RATING:
        return None
    if action.ladder not in LADDERS:
        return gettext("choose the ladder whose rating is corrected")
    if action.rating is None or not ratings.LOWEST_CORRECTION <= action.rating <= ratings.HIGHEST_CORRECTION:
        return gettext("give the new rating, from %(lowest)s to %(highest)s") % {
            "lowest": ratings.LOWEST_CORRECTION, "highest": ratings.HIGHEST_CORRECTION}
    return None


def _tournament_refusal(action: ModerationAction) -> str | None:
    """A disqualification needs the player, the tournament and how their games count."""
    if action.kind != Kind.DISQUALIFY:
        return None
    if action.user is None:
        return gettext("%(act)s needs the account acted on") % {"act": Kind(action.kind).label}
    if action.tournament is None:
        return gettext("name the tournament by its number")
    if action.scoring not in ("forfeit", "as-played"):
        return gettext("choose how the player's games count: lost by forfeit, or as played")
    return None


def provide(kind: str, doer: Callable[[ModerationAction], str]) -> None:
    """A higher floor does an act this app cannot (a tournament's
    disqualification: tournaments.corrections), registered from its
    AppConfig.ready(); the doer raises ModerationRefusal to refuse."""
    _DOERS[kind] = doer


def _chat_refusal(action: ModerationAction) -> str | None:
    """What a chat act needs besides the account: a length, a reason from the
    list, the line, or the room."""
    kind = action.kind
    if kind in (Kind.CHAT_TIMEOUT, Kind.CHAT_LOCK) and action.minutes not in dict(CHAT_MINUTES):
        return gettext("choose how long: %(lengths)s") % {
            "lengths": ", ".join(str(label) for _minutes, label in CHAT_MINUTES)}
    if kind == Kind.CHAT_TIMEOUT and action.chat_reason not in ChatTimeout.Reason.values:
        return gettext("choose the reason the player is shown from the list")
    if kind == Kind.CHAT_REMOVE and action.chat_line is None:
        return gettext("name the chat line to remove")
    if kind == Kind.CHAT_LOCK and not action.room.strip():
        return gettext("name the room to lock, as game:12 or tournament:7")
    return None


def perform(action: ModerationAction) -> ModerationAction:
    """Do the unsaved ``action`` and save it with its outcome, or raise ModerationRefusal."""
    if (why := refusal(action)) is not None:
        raise ModerationRefusal(why)
    with transaction.atomic():
        action.created = timezone.now()
        action.outcome = _DOERS[action.kind](action)
        action.save()
        _note_in_admin_history(action)
        _close_report(action)
    return action


# What an act on a report makes of it: the report's outcome.
_OUTCOME = {
    Kind.RESTRICT_RATED: Report.Outcome.RESTRICTED, Kind.RESTRICT_LOBBY: Report.Outcome.RESTRICTED,
    Kind.CLOSE_ACCOUNT: Report.Outcome.CLOSED_ACCOUNT, Kind.ADJUDICATE: Report.Outcome.RESULT_CHANGED,
    Kind.UNDO_RATING: Report.Outcome.RESULT_CHANGED, Kind.REFUND: Report.Outcome.RESULT_CHANGED,
    Kind.LIFT_RATED: Report.Outcome.LIFTED, Kind.LIFT_LOBBY: Report.Outcome.LIFTED,
    Kind.REOPEN_ACCOUNT: Report.Outcome.LIFTED,
    Kind.CHAT_TIMEOUT: Report.Outcome.WARNED, Kind.CHAT_REMOVE: Report.Outcome.WARNED,
    Kind.CHAT_CLEAR: Report.Outcome.WARNED, Kind.CHAT_LOCK: Report.Outcome.NONE,
    Kind.ABORT_GAME: Report.Outcome.RESULT_CHANGED, Kind.CORRECT_RATING: Report.Outcome.RESULT_CHANGED,
    Kind.LIFT_PLAYBAN: Report.Outcome.LIFTED,
    Kind.DISQUALIFY: Report.Outcome.RESULT_CHANGED,
}


def _close_report(action: ModerationAction) -> None:
    """The report the act answers is closed by it, with who, when, what and why;
    one closed already (by another act, or from the queue) stays as it was."""
    if action.report_id is None:
        return
    note = f"{action.get_kind_display()}: {action.reason.strip()} ({action.outcome})"
    closed = Report.objects.filter(pk=action.report_id, status=Report.Status.OPEN).update(
        status=Report.Status.CLOSED, closed_at=action.created, closed_by=action.moderator,
        outcome=_OUTCOME[action.kind], note=note)
    if closed:
        reports.tell_decision(action.report_id)


def _note_in_admin_history(action: ModerationAction) -> None:
    """The act in the History page of the account (or the game) in the admin."""
    target = action.user or action.game or (action.chat_line.author if action.chat_line else None)
    if target is None:  # a room's lock: the log row is its history
        return
    message = f"Moderation: {action.get_kind_display()}. Why: {action.reason.strip()}. Done: {action.outcome}"
    LogEntry.objects.log_actions(user_id=action.moderator.pk, queryset=[target], action_flag=CHANGE,
                                 change_message=message[:2000], single_object=True)


# --- Restrictions ------------------------------------------------------------


def _restrict(scope: str) -> Callable[[ModerationAction], str]:
    def restrict(action: ModerationAction) -> str:
        ends = action.created + timedelta(days=action.days) if action.days else None
        Restriction.objects.create(user=action.user, scope=scope, starts=action.created, ends=ends,
                                   reason=action.reason.strip())
        withdrawn = withdraw_open_play(action.user, rated_only=scope == Restriction.Scope.RATED)
        until = f"until {ends:%Y-%m-%d %H:%M} UTC" if ends else "until lifted"
        return f"restricted from {Restriction.Scope(scope).label} {until}; withdrew {withdrawn}"
    return restrict


def _lift(scope: str) -> Callable[[ModerationAction], str]:
    def lift(action: ModerationAction) -> str:
        lifted = restrictions.active(action.user).filter(scope=scope).update(lifted_at=action.created)
        if not lifted:
            raise ModerationRefusal(gettext("%(name)s has no restriction from %(scope)s to lift") % {
                "name": action.user, "scope": Restriction.Scope(scope).label})
        return f"lifted {lifted} restriction(s) from {Restriction.Scope(scope).label}"
    return lift


# --- Accounts --------------------------------------------------------------------


def _close_account(action: ModerationAction) -> str:
    user = action.user
    if not user.is_active:
        raise ModerationRefusal(gettext("%(name)s is already closed") % {"name": user})
    user.is_active = False  # logging in is refused, and an open session no longer authenticates
    # Saving it closes the account as the admin's "Active" box does
    # (games.signals.account_closed): each receiver says what went.
    user.save(update_fields=["is_active"])
    return "; ".join(["closed the account", *signins.closing_outcome(user)])


def _reopen_account(action: ModerationAction) -> str:
    user = action.user
    if user.is_active:
        raise ModerationRefusal(gettext("%(name)s is not closed") % {"name": user})
    user.is_active = True
    user.save(update_fields=["is_active"])
    return "reopened the account"


# --- Games and ratings -------------------------------------------------------------


def _adjudicate(action: ModerationAction) -> str:
    """A running game ends as a tournament's adjudication ends it (games.finishing.adjudicate);
    a finished one has its result replaced (``overturn``), a finished tournament
    game's by the tournament's correction (``provide_event_overturn``)."""
    winner = action.winner.strip() or None
    action.game.refresh_from_db(fields=["status", "event"])  # as it is now, not as the form loaded it
    try:
        if action.game.status == Game.Status.FINISHED:
            if action.game.event and _EVENT_OVERTURN:
                return _EVENT_OVERTURN[0](action)
            return overturn(action.game.pk, winner, action.reason)
        game = finishing.adjudicate(action.game.pk, winner, action.reason)
    except refusals.Refusal as refusal:
        why = gettext("game %(number)s: %(why)s") % {"number": action.game.pk, "why": refusal}
        raise ModerationRefusal(why) from None
    return f"game {game.pk} adjudicated: " + (f"{winner} wins" if winner else "a draw") + " (unrated)"


# The doer of an adjudication of a finished event's game, registered by the app
# that owns events (tournaments.corrections.overturn_act), since its standings
# and places follow the result; empty, such a game is refused (``overturn``).
_EVENT_OVERTURN: list[Callable[[ModerationAction], str]] = []


def provide_event_overturn(doer: Callable[[ModerationAction], str]) -> None:
    """A higher floor replaces a finished event game's result (a tournament's
    board: its pairing, standings and podium too), registered from its
    AppConfig.ready(); the doer raises ModerationRefusal to refuse."""
    _EVENT_OVERTURN[:] = [doer]


def overturn(game_id: int, winner: str | None, note: str) -> str:
    """Replace a finished game's result by a moderator's (a seat wins, or a draw),
    unrated: its rating effect is undone first (ladder.overturning). Not an
    event's game: its standings were built on the result, so the event's own
    correction does it (``provide_event_overturn``)."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        if game.event:
            raise ModerationRefusal(gettext("game %(number)s belongs to %(event)s: its result is for the tournament's "
                                            "organizer to change; undo its rating effect if need be")
                                    % {"number": game_id, "event": game.event})
        if winner is not None and winner not in game.seat_names:
            raise ModerationRefusal(gettext("game %(number)s: the winner is one of %(seats)s or nobody (a draw), "
                                            "not '%(winner)s'")
                                    % {"number": game_id, "seats": ", ".join(game.seat_names), "winner": winner})
        before = f"{game.winner or 'draw'} {game.get_reason_display()}"
        undone = overturning.overturn(game, winner, note)
    result = f"{winner} wins" if winner else "a draw"
    return f"game {game_id} result changed from {before} to {result} by adjudication (unrated; {undone} " \
           "rating change(s) undone)"


def _abort_game(action: ModerationAction) -> str:
    """Call a running game off, as a player's abort does (games.finishing.call_off:
    no result, unrated), at any point of it and charging nobody's playban record."""
    with transaction.atomic():
        try:
            game = store.locked(action.game.pk)
        except refusals.Refusal as refusal:
            raise ModerationRefusal(str(refusal)) from None
        if not game.running:
            raise ModerationRefusal(gettext("game %(number)s is over (%(status)s): only a running game is aborted; "
                                            "adjudicate it or undo its rating effect instead")
                                    % {"number": game.pk, "status": game.get_status_display()})
        if game.event:  # its pairing waits for a result: an aborted game would leave it waiting
            raise ModerationRefusal(gettext("game %(number)s belongs to %(event)s: a tournament's game needs a "
                                            "result, so adjudicate it instead")
                                    % {"number": game.pk, "event": game.event})
        finishing.call_off(game, action.created, seat=None)
    return f"game {game.pk} aborted at ply {game.ply} (no result, unrated)"


def _correct_rating(action: ModerationAction) -> str:
    note = f"{action.reason.strip()} ({action.moderator})"
    change = ratings.correct(action.user, action.ladder, action.rating, note)
    if change is None:
        raise ModerationRefusal(gettext("%(name)s's rating on %(ladder)s is %(rating)s already")
                                % {"name": action.user, "ladder": gettext(LADDERS[action.ladder]),
                                   "rating": action.rating})
    return f"rating on {action.ladder} corrected from {change.before} to {change.after}"


def _lift_playban(action: ModerationAction) -> str:
    """Lift the playbans in force now (``until`` empty), or make them end at
    ``until``; ladder.playban.lift says why a lifted ban still counts as served."""
    in_force = playban.bans_in_force(action.user, action.created)
    if not in_force:
        raise ModerationRefusal(gettext("%(name)s has no playban in force") % {"name": action.user})
    new_end = max(action.until or action.created, action.created)
    if new_end >= in_force[0].ends:
        raise ModerationRefusal(gettext("the playban ends at %(end)s already: a new end must come before it")
                                % {"end": f"{in_force[0].ends:%Y-%m-%d %H:%M} UTC"})
    shortened = [(ban.ends, playban.shorten(ban, new_end) if new_end > action.created else playban.lift(ban, new_end))
                 for ban in in_force if ban.ends > new_end]
    verb = "shortened" if new_end > action.created else "lifted"
    return f"{verb} {len(shortened)} playban(s): " + ", ".join(
        f"{ban.offence} until {old:%Y-%m-%d %H:%M}, now until {ban.ends:%Y-%m-%d %H:%M} UTC" for old, ban in shortened)


def _undo_rating(action: ModerationAction) -> str:
    undone = ratings.undo_game(action.game.pk)
    if not undone:
        raise ModerationRefusal(gettext("game %(number)s has no rating change left to undo")
                                % {"number": action.game.pk})
    return f"undid {undone} rating change(s) of game {action.game.pk}"


def refund(offender: Any, since: datetime, until: datetime) -> list[RatingChange]:
    """Give back to each opponent what they lost to ``offender`` in the rated
    games the offender won or drew in [since, until): their own change is
    undone (ladder.ratings.undo_change), the offender's stays. A change once
    refunded is marked undone, so a second refund never gives it again."""
    mine = RatingChange.objects.filter(user=offender, game__isnull=False, score__gte=0.5, created__gte=since,
                                       created__lt=until)  # games only: a correction has no opponents
    refunded = []
    for change in mine:
        # The other side's changes: their opponent is the first player of the
        # offender's side, never the one the offender's teammates had.
        theirs = (RatingChange.objects.filter(game_id=change.game_id, undone_at__isnull=True, after__lt=F("before"))
                  .exclude(user=offender).exclude(opponent_id=change.opponent_id))
        refunded += [lost for lost in theirs if ratings.undo_change(lost.pk)]
    return refunded


def _refund(action: ModerationAction) -> str:
    until = action.until or action.created
    if action.since >= until:
        raise ModerationRefusal(gettext("the refund period must start before it ends"))
    given = refund(action.user, action.since, until)
    if not given:
        return "nothing to refund: no opponent has points lost to them left in that period"
    parts = [f"{c.user} +{c.before - c.after} (game {c.game_id})" for c in given]
    return f"refunded {len(given)} opponent change(s): " + ", ".join(parts)


# --- Chat (issue 25) --------------------------------------------------------------


def _chat_timeout(action: ModerationAction) -> str:
    timeout = chat_lines.time_out(action.user, action.moderator, action.chat_reason, action.minutes,
                                  now=action.created)
    return f"out of chat until {timeout.ends:%Y-%m-%d %H:%M} UTC ({timeout.get_reason_display()})"


def _chat_remove(action: ModerationAction) -> str:
    removed = chat_lines.remove([action.chat_line.pk])
    if not removed:
        raise ModerationRefusal(gettext("that line is removed already"))
    if action.user is None:
        action.user = action.chat_line.author
    return f"removed line {action.chat_line.pk} in {action.chat_line.room}"


def _chat_clear(action: ModerationAction) -> str:
    removed = chat_lines.clear(action.user, now=action.created)
    rooms = sorted({line.room for line in removed})
    return f"removed {len(removed)} line(s) of the last day" + (f" in {', '.join(rooms)}" if rooms else "")


def _chat_lock(action: ModerationAction) -> str:
    lock = chat_lines.lock_room(action.room.strip(), action.moderator, action.minutes, now=action.created)
    return f"{lock.room} open to established accounts only until {lock.ends:%Y-%m-%d %H:%M} UTC"


_DOERS: dict[str, Callable[[ModerationAction], str]] = {
    Kind.RESTRICT_RATED: _restrict(Restriction.Scope.RATED),
    Kind.RESTRICT_LOBBY: _restrict(Restriction.Scope.LOBBY),
    Kind.LIFT_RATED: _lift(Restriction.Scope.RATED),
    Kind.LIFT_LOBBY: _lift(Restriction.Scope.LOBBY),
    Kind.CLOSE_ACCOUNT: _close_account,
    Kind.REOPEN_ACCOUNT: _reopen_account,
    Kind.ADJUDICATE: _adjudicate,
    Kind.UNDO_RATING: _undo_rating,
    Kind.REFUND: _refund,
    Kind.CHAT_TIMEOUT: _chat_timeout,
    Kind.CHAT_REMOVE: _chat_remove,
    Kind.CHAT_CLEAR: _chat_clear,
    Kind.CHAT_LOCK: _chat_lock,
    Kind.ABORT_GAME: _abort_game,
    Kind.CORRECT_RATING: _correct_rating,
    Kind.LIFT_PLAYBAN: _lift_playban,
}
