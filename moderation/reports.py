"""Filing a report: the rules a report must meet, checked before anything is stored."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from chat.models import Line
from games import bots
from games import chat as game_chat
from games.models import Game
from moderation import restrictions
from moderation.models import TEXT_LIMIT, Report
from notify import notices
from notify.models import Kind

REPORTS_PER_DAY = 5  # enough for a bad day of games, too few to flood the queue
# The reasons a player picks when reporting someone: all but an appeal.
REPORT_REASONS = [value for value in Report.Reason.values if value != Report.Reason.APPEAL]


class ReportRefusal(ValueError):
    """A report not stored; the message says which rule it broke."""


def file_report(reporter: Any, username: str, reason: str, text: str = "", game_id: int | None = None,
                now: datetime | None = None) -> Report:
    """Store ``reporter``'s report on the player called ``username``, or raise ReportRefusal."""
    now = now or timezone.now()
    reported = _reportable(reporter, username)
    game = _reported_game(reported, game_id)
    if reason not in Report.Reason.values or reason == Report.Reason.APPEAL:  # an appeal is file_appeal's
        raise ReportRefusal(gettext("choose a reason from the list: %(reasons)s")
                            % {"reasons": ", ".join(REPORT_REASONS)})
    if len(text) > TEXT_LIMIT:
        raise ReportRefusal(gettext("the description is %(length)d characters long: at most %(limit)d")
                            % {"length": len(text), "limit": TEXT_LIMIT})
    recent = Report.objects.filter(reporter=reporter, created__gt=now - timedelta(days=1)).count()
    if recent >= REPORTS_PER_DAY:
        raise ReportRefusal(gettext("you have made %(count)d reports in the last 24 hours, the most allowed: try "
                                    "again tomorrow") % {"count": recent})
    already = ReportRefusal(
        gettext("you already have an open report on %(name)s about game %(game)s: a moderator will look at it")
        % {"name": reported.get_username(), "game": game.pk} if game else
        gettext("you already have an open report on %(name)s: a moderator will look at it")
        % {"name": reported.get_username()})
    if Report.objects.filter(reporter=reporter, reported=reported, game=game, status=Report.Status.OPEN).exists():
        raise already
    try:
        with transaction.atomic():
            return Report.objects.create(reporter=reporter, reported=reported, game=game, reason=reason,
                                         text=text.strip(), created=now)
    except IntegrityError:  # the same report from a second tab: the constraint keeps one
        raise already from None


def file_appeal(user: Any, text: str, now: datetime | None = None) -> Report:
    """Store ``user``'s appeal against the restrictions or playban they are under,
    as a report on themselves in the moderators' queue, or raise ReportRefusal."""
    if not restrictions.in_force(user):
        raise ReportRefusal(gettext("Your account has no restriction or playban in force: there is nothing "
                                    "to appeal."))
    text = text.strip()
    if not text:
        raise ReportRefusal(gettext("Write what the moderators should know: the appeal is empty."))
    if len(text) > TEXT_LIMIT:
        raise ReportRefusal(gettext("The appeal is %(length)d characters long: at most %(limit)d.")
                            % {"length": len(text), "limit": TEXT_LIMIT})
    already = ReportRefusal(gettext("You already have an open appeal: a moderator will answer it."))
    if Report.objects.filter(reporter=user, reported=user, game=None, status=Report.Status.OPEN).exists():
        raise already
    try:
        with transaction.atomic():
            return Report.objects.create(reporter=user, reported=user, reason=Report.Reason.APPEAL, text=text,
                                         created=now or timezone.now())
    except IntegrityError:  # a second tab: the open-once constraint keeps one
        raise already from None


def file_abuse_report(sender: Any, author: Any, lines: list[Line], critical: bool, **kwargs: Any) -> Report:
    """The chat filter's report on ``author`` with the lines that set it off: one
    open report per player, the new lines added to it while it stays open."""
    quoted = [f"[{line.room} {line.created:%Y-%m-%d %H:%M}] {line.text}" for line in reversed(lines)]
    with transaction.atomic():
        report = (Report.objects.select_for_update()
                  .filter(reporter=None, reported=author, reason=Report.Reason.ABUSE, status=Report.Status.OPEN)
                  .first())
        if report is None:
            report = Report(reported=author, reason=Report.Reason.ABUSE, text=gettext("Chat filter:"))
        if critical:
            report.text += "\n" + gettext("A line with a slur or a call to self-harm.")
        report.text += "".join("\n" + quote for quote in quoted if quote not in report.text)
        report.text = report.text[:TEXT_LIMIT]
        report.save()
    return report


def file_line_report(reporter: Any, line_id: int, now: datetime | None = None) -> Report:
    """``reporter``'s report on a chat line's author (from the line's menu): the
    line quoted as the report's text, the reason abuse."""
    line = Line.objects.select_related("author").filter(pk=line_id, removed=False).first()
    if line is None or not game_chat.may_read_room(line.room, reporter):
        raise ReportRefusal(gettext("there is no such chat line"))
    said = line.text or f"[{line.preset}]"
    return file_report(reporter, line.author.get_username(), Report.Reason.ABUSE,
                       f"[{line.room} {line.created:%Y-%m-%d %H:%M}] {said}", None, now)


def _reportable(reporter: Any, username: str) -> Any:
    reported = get_user_model().objects.filter(username=username, is_active=True).first()
    if reported is None:
        raise ReportRefusal(gettext("there is no player called %(name)s") % {"name": repr(username)})
    if reported.pk == reporter.pk:
        raise ReportRefusal(gettext("you cannot report yourself"))
    if bots.is_bot(reported):
        raise ReportRefusal(gettext("%(name)s is a computer player: it plays by the engine, so there is nothing to "
                                    "report (a bot that misbehaves is a bug: tell the site's staff)")
                            % {"name": username})
    return reported


def _reported_game(reported: Any, game_id: int | None) -> Game | None:
    if game_id is None:
        return None
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise ReportRefusal(gettext("there is no game %(game)s") % {"game": game_id})
    if game.status != Game.Status.FINISHED:
        raise ReportRefusal(gettext("game %(game)s is not over: report it once it has finished") % {"game": game_id})
    if game.seat_of(reported) is None:
        raise ReportRefusal(gettext("%(name)s did not play in game %(game)s")
                            % {"name": reported.get_username(), "game": game_id})
    return game


def players_to_report(game: Game, reporter: Any) -> list[str]:
    """The usernames a reporter may pick on a game's report page: its players but themselves and bots."""
    return [seat.user.get_username() for seat in game.table
            if seat.user.pk != reporter.pk and not bots.is_bot(seat.user)]


# --- Telling the reporter (issue 26) ---------------------------------------------


def tell_decision(report_id: int) -> None:
    """The reporter hears that a moderator decided their report: whether they
    acted, never what they did or why (the note is the moderators'); an
    appellant hears whether their appeal was granted. Reports the chat's
    filter filed have nobody to tell."""
    report = (Report.objects.filter(pk=report_id, status=Report.Status.CLOSED, reporter__isnull=False)
              .select_related("reported").first())
    if report is None or report.reporter_id is None:
        return
    if report.reason == Report.Reason.APPEAL:
        params = {"appeal": True, "granted": report.outcome == Report.Outcome.LIFTED}
        url = ""
    else:
        params = {"reported": report.reported.get_username(),
                  "acted": report.outcome not in ("", Report.Outcome.NONE)}
        url = f"/@/{report.reported.get_username()}/"
    notices.send(report.reporter_id, Kind.REPORT_DECISION, f"report:{report.pk}", params, url=url)


def close(report_ids: list[int], moderator: Any, outcome: str, note: str) -> list[int]:
    """Close the open ones of ``report_ids`` with one outcome and note (a
    moderator deciding several reports about one matter at once), and tell
    each reporter; returns the ids closed. One closed meanwhile stays as it was."""
    with transaction.atomic():
        closed = list(Report.objects.select_for_update().filter(pk__in=report_ids, status=Report.Status.OPEN)
                      .order_by("pk").values_list("pk", flat=True))
        Report.objects.filter(pk__in=closed).update(status=Report.Status.CLOSED, closed_at=timezone.now(),
                                                    closed_by=moderator, outcome=outcome, note=note.strip())
    for report_id in closed:
        tell_decision(report_id)
    return closed
