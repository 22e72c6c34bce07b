"""Tournament pages: the list, a tournament's page and its live part, the
organizer's form and actions, the players' join, withdraw and check-in, and
the TRF-16 download.

Every action is a POST that goes through ``running`` (locks, rules, telling
the sockets) and comes back to the page with a message saying what happened
or why not.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import refusals
from games.timestamps import stamp
from ids.rows import row_id
from ladder import bot_accounts
from tournaments import chat, corrections, entering, forms, organizing, pages
from tournaments.models import Entry, Tournament

LIST_LENGTH = 50


def tournament_list(request: HttpRequest) -> HttpResponse:
    """Upcoming, running and finished tournaments, as lichess lists them."""
    context: dict[str, Any] = {section: pages.listed(section)[:LIST_LENGTH] for section in pages.SECTIONS}
    context["may_organize"] = organizing.may_organize(request.user)
    return render(request, "tournaments/list.html", context)


def detail(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament.objects.select_related("organizer"), pk=tournament_id)
    context = _live_context(tournament, request)
    context["chat_lines"] = chat.lines_for(tournament, request.user)
    return render(request, "tournaments/detail.html", context)


def live(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The part of the page that changes: fetched again by the page's script
    whenever the tournament's socket says it changed (same ?page and ?round)."""
    tournament = get_object_or_404(Tournament.objects.select_related("organizer"), pk=tournament_id)
    return render(request, "tournaments/_live.html", _live_context(tournament, request))


def next_round(request: HttpRequest, tournament_id: int) -> JsonResponse:
    """When the next round starts, for the page of a finished game of the
    tournament (its countdown): ``next_round_at`` is null while the round's
    other games are still on."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    on = tournament.status in (Tournament.Status.RUNNING, Tournament.Status.PAUSED)
    return JsonResponse({
        "status": tournament.status, "round": tournament.current_round,
        "next_round_at": stamp(tournament.next_round_at) if on and tournament.next_round_at else None,
        "url": tournament.get_absolute_url()})


def _live_context(tournament: Tournament, request: HttpRequest) -> dict[str, Any]:
    user = request.user
    chat_closed = chat.closed(tournament, user)
    context: dict[str, Any] = {
        "tournament": tournament,
        "mine": pages.my_entry(tournament, user),
        "round": pages.round_shown(tournament, request.GET.get("round")),
        "round_numbers": range(1, tournament.current_round + 1),
        "may_organize": organizing.may_organize(user, tournament),
        "entry_count": tournament.entries.filter(withdrawn_at__isnull=True).count(),
        "left_count": tournament.entries.filter(withdrawn_at__isnull=False).count(),
        # The Join button is shown by the very check join() makes.
        "entry_refusal": _entry_refusal(tournament, user),
        # Every name on the page is an entrant's: who of them is a bot, in one query.
        "bots": bot_accounts.bots_among(Entry.objects.filter(tournament=tournament).values("user_id")),
        # The chat box's state, in the live part too: the organizer's switch or a new entry changes it.
        "chat_closed": chat_closed,
        "chat_may_write": not chat_closed,
        "chat_for_choices": Tournament.ChatFor.choices,
        "running_boards": pages.running_boards(tournament) if tournament.status != Tournament.Status.UPCOMING else [],
        # A finished tournament's correction (corrections.py) by its organizer, for a week; a
        # moderator's is their DISQUALIFY act, in the moderation log.
        "may_correct": tournament.status == Tournament.Status.FINISHED and organizing.may_organize(user, tournament)
        and corrections.correction_refusal(user, tournament, timezone.now()) is None,
    }
    if tournament.elimination:
        context["bracket"] = pages.bracket(tournament, context["bots"])
    else:
        context["tiebreak_labels"], lines = pages.standings(tournament)
        context["lines"], context["page"], context["pages"] = pages.page_of(lines, request.GET.get("page"))
    if tournament.status == Tournament.Status.UPCOMING or tournament.elimination:
        context["entries"] = tournament.entries.select_related("user").order_by("number", "joined_at")
    if context["may_organize"] and tournament.format == Tournament.Format.SWISS:
        context["forbidden"] = tournament.forbidden_pairings.select_related("first__user", "second__user")
        context["active_entries"] = (tournament.entries.filter(withdrawn_at__isnull=True)
                                     .select_related("user").order_by("user__username"))
    return context


def _entry_refusal(tournament: Tournament, user: Any) -> str | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return entering.entry_refusal(tournament, user, timezone.now())


def trf_download(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The tournament as FIDE's TRF-16, for any pairing program or rating officer."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    if tournament.elimination:
        raise PermissionDenied("elimination tournaments have no TRF")
    response = HttpResponse(pages.trf_text(tournament), content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="tournament-{tournament.pk}.trf"'
    return response


# --- Organizer's form and actions --------------------------------------------


@login_required
def create(request: HttpRequest) -> HttpResponse:
    if not organizing.may_organize(request.user):
        raise PermissionDenied("only organizers create tournaments")
    preset = forms.PRESETS.get(request.GET.get("preset", ""), ("", {}))[1]
    initial = {"starts_at": forms.default_start(timezone.now()), "time_zone": request.GET.get("tz"), **preset}
    form = forms.TournamentForm(request.POST or None, initial=initial, author=request.user)
    if request.method == "POST" and form.is_valid():
        tournament = form.save(commit=False)
        tournament.organizer = request.user
        tournament.save()
        messages.success(request, _("%(name)s is open for entries.") % {"name": tournament.name})
        return redirect(tournament.get_absolute_url())
    return _form_page(request, form, None)


@login_required
def edit(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    if not organizing.may_organize(request.user, tournament):
        raise PermissionDenied("only the tournament's organizer may edit it")
    if tournament.status != Tournament.Status.UPCOMING:
        messages.error(request, _("A tournament can be edited only until it starts."))
        return redirect(tournament.get_absolute_url())
    form = forms.TournamentForm(request.POST or None, instance=tournament, initial={"time_zone": request.GET.get("tz")},
                                author=request.user)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Saved."))
        return redirect(tournament.get_absolute_url())
    return _form_page(request, form, tournament)


def _form_page(request: HttpRequest, form: forms.TournamentForm, tournament: Tournament | None) -> HttpResponse:
    """The form, its times written in the organizer's zone (UTC until the page's script names theirs)."""
    with timezone.override(form.zone):
        return render(request, "tournaments/form.html", {
            "form": form, "tournament": tournament, "zone": form.zone.key,
            "presets": [(key, label) for key, (label, _settings) in forms.PRESETS.items()] if tournament is None else []})


def _act(request: HttpRequest, tournament_id: int, action: Callable[[], Any], done: str) -> HttpResponseRedirect:
    try:
        action()
        messages.success(request, done)
    except refusals.Refusal as refusal:
        messages.error(request, _sentence(str(refusal)))
    return redirect(f"/tournaments/{tournament_id}/")


def _sentence(clause: str) -> str:
    """A refusal's clause as a message: its first letter raised, the rest
    as it is (str.capitalize would lower a German noun or a name)."""
    return clause[:1].upper() + clause[1:]


def _unconfirmed(request: HttpRequest, tournament_id: int, question: str, button: str) -> HttpResponse | None:
    """The confirm step of an action that cannot be undone: a page asking
    ``question``, whose button posts the same form again with ``confirmed``
    (no script needed). None once confirmed."""
    if request.POST.get("confirmed") == "yes":
        return None
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    carried = [(key, value) for key, value in request.POST.items() if key not in ("csrfmiddlewaretoken", "confirmed")]
    return render(request, "tournaments/confirm.html", {
        "tournament": tournament, "question": question, "button": button, "action": request.path,
        "carried": carried})


@require_POST
@login_required
def organize(request: HttpRequest, tournament_id: int, verb: str) -> HttpResponse:
    """start, pause, resume, cancel: the organizer's buttons."""
    actions = {"start": (organizing.start_early, _("The tournament has started.")),
               "pause": (organizing.pause, _("Paused: no new round starts until you resume.")),
               "resume": (organizing.resume, _("Resumed.")),
               "cancel": (organizing.cancel, _("The tournament is cancelled."))}
    if verb not in actions:
        raise PermissionDenied(f"no such action: {verb}")
    if verb == "cancel" and (ask := _unconfirmed(
            request, tournament_id, _("Cancel this tournament for good? It cannot be started again, and games "
                                      "still running are no longer recorded."), _("Yes, cancel it"))):
        return ask
    action, done = actions[verb]
    return _act(request, tournament_id, lambda: action(tournament_id, request.user), done)


@require_POST
@login_required
def remove_player(request: HttpRequest, tournament_id: int, entry_id: int) -> HttpResponse:
    entry = Entry.objects.select_related("user").filter(pk=entry_id, tournament_id=tournament_id).first()
    if entry is not None and (ask := _unconfirmed(
            request, tournament_id, _("Remove %(name)s from this tournament? They cannot enter it again once it "
                                      "has started.") % {"name": entry.user.get_username()}, _("Yes, remove them"))):
        return ask
    why = request.POST.get("reason", "").strip()[:80]
    return _act(request, tournament_id,
                lambda: organizing.remove_player(tournament_id, request.user, entry_id, why), _("Player removed."))


@require_POST
@login_required
def disqualify(request: HttpRequest, tournament_id: int, entry_id: int) -> HttpResponse:
    """A finished tournament's correction: the player disqualified, their games
    counted as chosen, the places and podium recomputed (corrections.disqualify)."""
    entry = Entry.objects.select_related("user").filter(pk=entry_id, tournament_id=tournament_id).first()
    name = entry.user.get_username() if entry else ""
    if entry is not None and (ask := _unconfirmed(
            request, tournament_id, _("Disqualify %(name)s? They leave the ranking, the places and the podium are "
                                      "recomputed, and the correction is logged.") % {"name": name},
            _("Yes, disqualify them"))):
        return ask
    scoring, why = request.POST.get("scoring", ""), request.POST.get("reason", "").strip()[:200]
    return _act(request, tournament_id,
                lambda: corrections.disqualify(tournament_id, request.user, entry_id, scoring, why),
                _("%(name)s is disqualified.") % {"name": name})


@require_POST
@login_required
def invite_bot(request: HttpRequest, tournament_id: int) -> HttpResponseRedirect:
    """The organizer enters one of the site's computer players (organizing.invite_bot)."""
    bot_id = row_id(request.POST.get("bot", "")) or 0  # 0: no bot's, refused as "choose one"

    try:
        entry = organizing.invite_bot(tournament_id, request.user, bot_id)
        messages.success(request, _("%(name)s has joined.") % {"name": entry.user.get_username()})
    except refusals.Refusal as refusal:
        messages.error(request, _sentence(str(refusal)))
    return redirect(f"/tournaments/{tournament_id}/")


@require_POST
@login_required
def adjudicate(request: HttpRequest, tournament_id: int, pairing_id: int) -> HttpResponseRedirect:
    choice = request.POST.get("winner", "")
    winner = None if choice == "draw" else choice
    note = request.POST.get("reason", "")
    return _act(request, tournament_id,
                lambda: organizing.adjudicate(tournament_id, request.user, pairing_id, winner, note),
                _("Result set by adjudication."))


@require_POST
@login_required
def seeds(request: HttpRequest, tournament_id: int) -> HttpResponseRedirect:
    """The organizer's seeding order: a ``seed-<entry id>`` number per player, blank for none."""
    chosen: dict[int, int | None] = {}
    for key, value in request.POST.items():
        if key.startswith("seed-"):
            # 0 where the digits can be no entry's id (issue 35, 11): refused as a player not in the tournament.
            chosen[row_id(key[5:]) or 0] = _typed_seed(value)
    return _act(request, tournament_id, lambda: organizing.set_seeds(tournament_id, request.user, chosen),
                _("Seeding order saved."))


def _typed_seed(text: str) -> int | None:
    """A seed as typed: None when blank; 0, which organizing.set_seeds refuses
    as no place in the field, when it is no whole number of a few digits."""
    text = text.strip()
    if not text:
        return None
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 6 else 0


@require_POST
@login_required
def chat_for(request: HttpRequest, tournament_id: int) -> HttpResponseRedirect:
    return _act(request, tournament_id,
                lambda: organizing.set_chat_for(tournament_id, request.user, request.POST.get("chat_for", "")),
                _("The chat setting is saved."))


@require_POST
@login_required
def forbid(request: HttpRequest, tournament_id: int) -> HttpResponseRedirect:
    first, second = row_id(request.POST.get("first", "")), row_id(request.POST.get("second", ""))
    if first is None or second is None:
        messages.error(request, _("Choose two players."))
        return redirect(f"/tournaments/{tournament_id}/")
    return _act(request, tournament_id,
                lambda: organizing.forbid(tournament_id, request.user, first, second),
                _("Those two will not be paired."))


@require_POST
@login_required
def allow(request: HttpRequest, tournament_id: int, forbidden_id: int) -> HttpResponseRedirect:
    return _act(request, tournament_id, lambda: organizing.allow(tournament_id, request.user, forbidden_id),
                _("They may be paired again."))


# --- Players' actions --------------------------------------------------------


@require_POST
@login_required
def join(request: HttpRequest, tournament_id: int) -> HttpResponseRedirect:
    return _act(request, tournament_id, lambda: entering.join(tournament_id, request.user), _("You have joined."))


@require_POST
@login_required
def withdraw(request: HttpRequest, tournament_id: int) -> HttpResponse:
    if ask := _unconfirmed(request, tournament_id,
                           _("Withdraw from this tournament? Once it has started you cannot enter it again."),
                           _("Yes, withdraw")):
        return ask
    return _act(request, tournament_id, lambda: entering.withdraw(tournament_id, request.user),
                _("You have withdrawn."))


@require_POST
@login_required
def check_in(request: HttpRequest, tournament_id: int) -> HttpResponseRedirect:
    return _act(request, tournament_id, lambda: entering.check_in(tournament_id, request.user),
                _("You are checked in."))
