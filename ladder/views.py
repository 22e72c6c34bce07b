"""Ladder pages: the leaderboard, player profiles, the lobby, and the form fallbacks
for seeks and challenges.

With JavaScript the pages act over the lobby socket (static/js/lobby.js); the
POST views below do the same through ladder.seeks and ladder.challenges for
browsers without it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from chat import lines as chat_lines
from games import botmoves, bots, refusals, starting
from games.models import Game
from games.records import games_of
from games.timecontrols import CORRESPONDENCE, REAL_TIME
from ladder import challenges, charts, elo, inputs, leaderboard, lobby_json, ratings, seating, seeks
from ladder.models import ladder_names
from ladder.forms import ChallengeOptionsForm, GameOptionsForm, SeekOptionsForm
from relation import follows


def _options_context(game: str = "") -> dict[str, Any]:
    """What the game-options partial needs: every offered control, grouped, and
    the game chosen first (``?game=rhombus`` from a "Play Rhombus" link)."""
    setups = starting.setups()
    return {"real_time": REAL_TIME, "correspondence": CORRESPONDENCE, "default_control": "5+3",
            "setups": setups, "chosen_rules": game if game in setups else next(iter(setups))}


def profile(request: HttpRequest, username: str) -> HttpResponse:
    """A player's public page, as lichess's /@/<username>: rating and rank, the rating
    history as a chart, the record against each opponent, recent games, and a
    Challenge form for others."""
    player = get_object_or_404(get_user_model(), username=username, is_active=True)
    is_self = request.user == player
    ladder = ratings.ladder_from(request.GET)
    account = ratings.standing_of(player)  # the Player row: bot or not
    standing = ratings.standing_of(player, ladder)
    history = ratings.history(player, ladder)
    context = {
        "player": player,
        "account": account,
        "ladder": ladder,
        "ladders": ladder_names(),
        "standing": standing,
        "rating": elo.display(standing.rating, standing.rated_games),
        "provisional": elo.provisional(standing.rated_games),
        "rank": leaderboard.rank_of(standing, leaderboard.Filters(active_only=False, ladder=ladder),
                                    timezone.now()),
        "chart": charts.rating_history_svg(history) if history else "",
        "opponents": ratings.record_against_opponents(player),
        "is_self": is_self,
        # A computer player is played from the lobby's "Play the computer", not
        # challenged; a BOT account (a program, through the API) is challenged.
        "can_challenge": request.user.is_authenticated and not is_self and not bots.is_bot(player),
        "muted": request.user.is_authenticated and not is_self and chat_lines.mutes(request.user, player),
        "follows": not is_self and follows.follows(request.user, player),
        "follow_counts": follows.counts(player),
        "following": follows.following(player) if is_self else None,
        "game_rows": games_of(player, 20),
        "challenges": challenges.pending_challenges(request.user),
        **_options_context(),
    }
    return render(request, "ladder/profile.html", context)


def leaderboard_page(request: HttpRequest) -> HttpResponse:
    """Every player by rating, as lichess's leaderboard: rank, rating, record, streak."""
    now = timezone.now()
    filters = leaderboard.Filters.from_query(request.GET)
    board = leaderboard.board(filters, request.GET.get("page"), now)
    mine = None
    if request.user.is_authenticated and not filters.search:
        standing = ratings.standing_of(request.user, filters.ladder)
        mine = standing.pk is not None and leaderboard.page_of(standing, filters, now, board.counts)
    query = request.GET.copy()
    query.pop("page", None)
    context = {"board": board, "filters": filters, "my_page": mine, "query": query.urlencode(),
               "ladders": ladder_names(), "active_days": leaderboard.ACTIVE_DAYS}
    return render(request, "ladder/leaderboard.html", context)


def lobby_page(request: HttpRequest) -> HttpResponse:
    """Open seeks (live over the lobby socket), the Create form and the player's challenges."""
    context = {
        "seeks": seeks.open_seeks(request.user),
        "challenges": challenges.pending_challenges(request.user),
        **_options_context(request.GET.get("game", "")),
    }
    return render(request, "ladder/lobby.html", context)


# --- Form fallbacks -------------------------------------------------------


def _attempt(request: HttpRequest, change: Callable[[], Any], back: str, done: str) -> HttpResponse:
    """Run a lobby change: to the game if one started, else back with a message."""
    try:
        inputs.refuse_api_bot_on_site(request.user)
        result = change()
    except inputs.LobbyRefusal as refusal:
        messages.error(request, str(refusal))
        return redirect(back)
    if isinstance(result, Game):
        return HttpResponseRedirect(lobby_json.game_url(result.pk))
    messages.success(request, done)
    return redirect(back)


def _options(request: HttpRequest) -> dict[str, Any]:
    form = GameOptionsForm(request.POST)
    if not form.is_valid():
        raise inputs.LobbyRefusal(gettext("choose a time control, rated or casual, and a colour"))
    return form.options()


def _seek_options(request: HttpRequest) -> dict[str, Any]:
    form = SeekOptionsForm(request.POST)
    if not form.is_valid():
        raise inputs.LobbyRefusal(gettext("choose a time control, rated or casual, a colour, and 2 or 4 players"))
    return form.options()


@login_required
@require_POST
def seek_create(request: HttpRequest) -> HttpResponse:
    return _attempt(request, lambda: seeks.create_seek(request.user, **_seek_options(request)),
                    reverse("ladder:lobby"), gettext("Your seek is in the lobby."))


@login_required
@require_POST
def seek_join(request: HttpRequest, seek_id: int) -> HttpResponse:
    return _attempt(request, lambda: seeks.join_seek(seek_id, request.user), reverse("ladder:lobby"),
                    gettext("You have joined the seek: the game starts when it is full."))


@login_required
@require_POST
def seek_leave(request: HttpRequest, seek_id: int) -> HttpResponse:
    return _attempt(request, lambda: seeks.leave_seek(seek_id, request.user), reverse("ladder:lobby"),
                    gettext("You have left the seek."))


@login_required
@require_POST
def seek_accept(request: HttpRequest, seek_id: int) -> HttpResponse:
    return _attempt(request, lambda: seeks.accept_seek(seek_id, request.user), reverse("ladder:lobby"), "")


@login_required
@require_POST
def seek_cancel(request: HttpRequest, seek_id: int) -> HttpResponse:
    return _attempt(request, lambda: seeks.cancel_seek(seek_id, request.user),
                    reverse("ladder:lobby"), gettext("Seek cancelled."))


@login_required
@require_POST
def challenge_create(request: HttpRequest, username: str) -> HttpResponse:
    form = ChallengeOptionsForm(request.POST)
    team = form.team() if form.is_valid() else None
    if team is not None:  # 4 players: the names come from the form, the profile's player among them
        return _attempt(request, lambda: challenges.create_team_challenge(request.user, team["partner"],
                                                                          team["opponents"], **_options(request)),
                        reverse("ladder:profile", args=[username]), gettext("Your 4-player challenge is sent."))
    return _attempt(request, lambda: challenges.create_challenge(request.user, username, **_options(request)),
                    reverse("ladder:profile", args=[username]),
                    gettext("You challenged %(name)s.") % {"name": username})


ANSWERS = {"accept": challenges.accept_challenge, "decline": challenges.decline_challenge,
           "cancel": challenges.cancel_challenge}
ANSWERED = {"accept": lambda: gettext("Challenge accepted."), "decline": lambda: gettext("Challenge declined."),
            "cancel": lambda: gettext("Challenge cancelled.")}


@login_required
@require_POST
def challenge_answer(request: HttpRequest, challenge_id: int, answer: str) -> HttpResponse:
    change = ANSWERS.get(answer)
    if change is None:
        return HttpResponse(status=404)
    return _attempt(request, lambda: change(challenge_id, request.user), reverse("ladder:lobby"), ANSWERED[answer]())


@login_required
@require_POST
def computer_create(request: HttpRequest) -> HttpResponse:
    """Play the computer: a game against the bot of the chosen level starts at once
    (4 players, Rhombus: the player and a bot partner against two bots)."""
    try:
        inputs.refuse_api_bot_on_site(request.user)
        tc = inputs.offered_time_control(request.POST.get("time_control"))
        if request.POST.get("players") == "4":
            game = seating.play_computer_team(request.user, request.POST.get("level", ""), tc,
                                              rated=request.POST.get("rated") == "1",
                                              rules=request.POST.get("rules", "rhombus"))
            return HttpResponseRedirect(lobby_json.game_url(game.pk))
        game = botmoves.play_computer(request.user, request.POST.get("level", ""), tc,
                                      rated=request.POST.get("rated") == "1",
                                      colour=request.POST.get("colour", "random"),
                                      setup=starting.setup_of(request.POST.get("rules", starting.ACE)))
    except (inputs.LobbyRefusal, refusals.Refusal) as refusal:
        messages.error(request, str(refusal))
        return redirect("ladder:lobby")
    return HttpResponseRedirect(lobby_json.game_url(game.pk))
