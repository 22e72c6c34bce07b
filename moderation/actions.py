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
from games import finishing, refusals, signins
from games.models import Game
from ladder import ratings
from ladder.models import RatingChange
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
}
_NEEDS_USER = {Kind.RESTRICT_RATED, Kind.RESTRICT_LOBBY, Kind.CLOSE_ACCOUNT, Kind.REOPEN_ACCOUNT, Kind.REFUND,
               Kind.LIFT_RATED, Kind.LIFT_LOBBY, Kind.CHAT_TIMEOUT, Kind.CHAT_CLEAR}
_NEEDS_GAME = {Kind.ADJUDICATE, Kind.UNDO_RATING}

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
    return _chat_refusal(action)


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
    a finished one has its result replaced (``overturn``)."""
    winner = action.winner.strip() or None
    try:
        if action.game.status == Game.Status.FINISHED:
            return overturn(action.game.pk, winner, action.reason)
        game = finishing.adjudicate(action.game.pk, winner, action.reason)
    except refusals.Refusal as refusal:
        why = gettext("game %(number)s: %(why)s") % {"number": action.game.pk, "why": refusal}
        raise ModerationRefusal(why) from None
    return f"game {game.pk} adjudicated: " + (f"{winner} wins" if winner else "a draw") + " (unrated)"


def overturn(game_id: int, winner: str | None, note: str) -> str:
    """Replace a finished game's result by a moderator's (a seat wins, or a draw),
    unrated: its rating effect is undone first. Not a tournament's game: its
    standings and later rounds were built on the result, so its organizer decides.

    The game is not finished again (games.signals.game_finished is not sent),
    so nothing else reacts to it as to a new result."""
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
        undone = ratings.undo_game(game_id)
        game.winner = game.side_name(winner) if winner else ""
        game.reason, game.rated, game.adjudication_note = Game.Reason.ADJUDICATION, False, note.strip()
        game.save(update_fields=["winner", "reason", "rated", "adjudication_note"])
    result = f"{winner} wins" if winner else "a draw"
    return f"game {game_id} result changed from {before} to {result} by adjudication (unrated; {undone} " \
           "rating change(s) undone)"


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
    mine = RatingChange.objects.filter(user=offender, score__gte=0.5, created__gte=since, created__lt=until)
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
}
