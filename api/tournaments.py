"""Tournaments (docs/api.md, "Tournaments"): the list, one tournament's
details, entries, standings, pairings and TRF-16; joining and withdrawing;
and the organizer's create, start, pause, resume, remove and adjudicate.

Every operation calls what the site's pages call (tournaments.entering,
.pages, .forms), so the rules, locks and refusals are theirs; this module
finds the rows, checks who may act, and shapes the answers.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from datetime import datetime
from typing import Any

from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext
from ninja import Field, ModelSchema, Query, Router, Schema
from ninja.errors import HttpError, ValidationError
from pydantic import ConfigDict

import engine
from games import bots
from games.starting import setup_of
from api.auth import OptionalToken, Token
from api.schemas import (ChatFor, PairingResult, Rules, RoundStatus, Seat, Seeding, TimeControl,
                         TournamentFormat, TournamentStatus, errors, named)
from tournaments import brackets, entering, organizing, pages, pairers, scoring
from tournaments.forms import TournamentForm
from tournaments.models import Entry, Pairing, Tournament
from tournaments.tiebreaks import TIEBREAKS

router = Router(tags=["tournaments"])

LIST_LENGTH = 50  # tournaments a page of the list, as many as each section of the site's list

Section = named("TournamentSection", pages.SECTIONS, "A section of the tournament list: upcoming, running "
                 "(and paused) or finished (and cancelled) tournaments")


# --- Shapes ------------------------------------------------------------------


class TournamentSummaryOut(Schema):
    id: int
    name: str
    url: str  # the tournament's page on the site
    rules: Rules  # which game
    game: str  # its title: "Ace in the Hole", ...
    format: TournamentFormat
    time_control: TimeControl
    rated: bool
    status: TournamentStatus
    starts_at: datetime
    current_round: int  # 0 before the first
    organizer: str
    entries: int  # players in it now (not withdrawn)


class ConditionsOut(Schema):
    """Who may enter: a blank rating bound is none."""

    min_rating: int | None
    max_rating: int | None
    min_rated_games: int
    min_account_days: int
    bots_allowed: bool
    max_players: int
    registration_closes_at: datetime | None  # None: open until the start (a Swiss: late entry)
    check_in_minutes: int  # elimination: check in during these minutes before the start, or be dropped


class TiebreakOut(Schema):
    code: str  # FIDE's acronym: "BH-C1", "SB", ...
    label: str


class TournamentOut(TournamentSummaryOut):
    description: str
    rounds_planned: int | None  # Swiss: its rounds; round robin: once the field is known; elimination: None
    registration_open: bool
    conditions: ConditionsOut
    seeding: Seeding
    tiebreaks: list[TiebreakOut]  # in the order they break ties
    double_round_robin: bool
    match_length: int  # elimination: games a match (best of)
    third_place: bool
    grand_final_reset: bool
    pause_seconds: int  # between rounds
    started_at: datetime | None
    next_round_at: datetime | None
    finished_at: datetime | None
    end_note: str  # why it ended ("all 7 rounds played", "cancelled by the organizer", ...)


class TournamentListOut(Schema):
    page: int
    pages: int
    count: int  # tournaments in every page
    tournaments: list[TournamentSummaryOut]


class EntryOut(Schema):
    id: int | None  # None: the entry is gone (withdrawn before the start)
    tournament_id: int
    username: str
    bot: bool  # a computer player or a BOT account
    number: int | None  # pairing number, given at the start
    rating: int
    active: bool  # False once withdrawn or removed
    withdrawn_why: str


class StandingOut(Schema):
    rank: int  # players level on everything share a rank; elimination: the place
    entry_id: int
    number: int | None
    username: str
    bot: bool  # a computer player or a BOT account
    rating: int
    score: float | None  # None in an elimination (places only)
    tiebreaks: list[float | None]  # in the order of StandingsOut.tiebreaks; None where one does not apply
    withdrawn: str | None  # why the player left, if they did


class StandingsOut(Schema):
    tournament_id: int
    format: TournamentFormat
    tiebreaks: list[TiebreakOut]
    page: int
    pages: int
    standings: list[StandingOut]


class BoardSeatOut(Schema):
    seat: Seat  # the game's: red/black (Ace in the Hole), SW/NE (Rhombus)
    username: str
    bot: bool  # a computer player or a BOT account
    entry_id: int


class PairingOut(Schema):
    id: int  # for the organizer's adjudicate
    board: int
    match: str | None  # elimination: the bracket's match ("W1-2", "GF"); None otherwise
    match_game: int  # elimination: the game's number within the match
    players: list[BoardSeatOut]  # in seat order; one player for a bye
    result: PairingResult | None  # None while playing
    game_id: int | None


class PairingsOut(Schema):
    tournament_id: int
    round: int | None  # None before the first round is paired
    round_status: RoundStatus | None
    rounds: int  # rounds paired so far
    pairings: list[PairingOut]


class TournamentIn(ModelSchema):
    """A new tournament's settings, as the site's form takes them: a name and a
    start are needed, and a Swiss (the format when none is given) its number
    of rounds; each other setting left out is its default."""

    name: str = Field(min_length=1, max_length=100)
    starts_at: datetime
    rules: Rules = Rules("ace-in-the-hole")
    format: TournamentFormat = TournamentFormat("swiss")
    time_control: TimeControl = TimeControl("5+3")
    seeding: Seeding = Seeding("rating")
    chat_for: ChatFor = ChatFor("entrants")
    # The format's default is a Swiss, so with no format, rounds are needed too
    # (the schema's "if" holds when the format is absent).
    model_config = ConfigDict(json_schema_extra={"if": {"properties": {"format": {"const": "swiss"}}},
                                                 "then": {"required": ["rounds"]}})

    class Meta:
        model = Tournament
        fields = TournamentForm.Meta.fields
        fields_optional = [name for name in TournamentForm.Meta.fields if name not in ("name", "starts_at")]


class RemoveIn(Schema):
    reason: str = Field("", max_length=80)  # shown beside the player's name


class AdjudicateIn(Schema):
    winner: Seat | None  # a seat of the game, or null for a draw
    note: str  # the written reason the game keeps


# --- Reading -----------------------------------------------------------------


@router.get("/tournaments", response={200: TournamentListOut, **errors(422)}, auth=OptionalToken(),
            summary="List tournaments")
def tournament_list(request: HttpRequest, status: Section | None = None,
                    page: int = Query(1, ge=1)) -> dict[str, Any]:
    """As the site's list: running tournaments (and paused ones) by start time,
    then upcoming ones by start time, then finished (and cancelled) ones, the
    last finished first. ``status`` keeps one of those sections. 50 a page; a
    page past the last gives the last."""
    sections: list[str] = [status] if status else list(pages.SECTIONS)
    shown, page, count = _page_of_sections(sections, page)
    return {"page": page, "pages": _page_count(count, LIST_LENGTH), "count": count,
            "tournaments": [_summary(t, t.entry_count) for t in shown]}


@router.get("/tournaments/{id:tournament_id}", response={200: TournamentOut, **errors(404)}, auth=OptionalToken(),
            summary="A tournament's details")
def tournament_detail(request: HttpRequest, tournament_id: int) -> dict[str, Any]:
    """Its game, format, time control, conditions of entry, status and rounds."""
    return _details(_tournament(tournament_id))


@router.get("/tournaments/{id:tournament_id}/entries", response={200: list[EntryOut], **errors(404)},
            auth=OptionalToken(), summary="A tournament's players")
def tournament_entries(request: HttpRequest, tournament_id: int) -> list[dict[str, Any]]:
    """Everyone who entered, by pairing number (given at the start), then by
    when they joined; those who left are listed with why. Their ``id`` is what
    the organizer's remove takes."""
    tournament = _tournament(tournament_id)
    bot_ids = bots.bot_levels()  # read once for the list
    entries = tournament.entries.select_related("user").order_by("number", "joined_at")
    return [_entry(entry, bot_ids) for entry in entries]


@router.get("/tournaments/{id:tournament_id}/standings", response={200: StandingsOut, **errors(404, 422)},
            auth=OptionalToken(), summary="A tournament's standings")
def tournament_standings(request: HttpRequest, tournament_id: int, page: int = Query(1, ge=1)) -> dict[str, Any]:
    """A Swiss or round robin: players by points, then by the organizer's
    tiebreaks (FIDE C.07), as on the tournament's page, 100 a page. An
    elimination: the places settled so far (``score`` and ``tiebreaks`` empty)."""
    tournament = _tournament(tournament_id)
    if tournament.elimination:
        lines, page, count = _places(tournament, bots.bot_levels()), 1, 1
        tiebreaks: list[dict[str, str]] = []
    else:
        _labels, all_lines = pages.standings(tournament)
        shown, page, count = pages.page_of(all_lines, str(page))
        bot_ids = bots.bot_levels()  # read once for the page
        lines, tiebreaks = [_standing(line, bot_ids) for line in shown], _tiebreaks(tournament)
    return {"tournament_id": tournament.pk, "format": tournament.format, "tiebreaks": tiebreaks,
            "page": page, "pages": count, "standings": lines}


@router.get("/tournaments/{id:tournament_id}/pairings", response={200: PairingsOut, **errors(404, 422)},
            auth=OptionalToken(), summary="A round's boards")
def tournament_pairings(request: HttpRequest, tournament_id: int,
                        round_number: int | None = Query(None, alias="round", ge=1)) -> dict[str, Any]:
    """Round ``round``'s boards (the current round when left out): the
    players in their seats, the result and the game. An elimination's rounds
    are its waves of match games, each board naming its match."""
    tournament = _tournament(tournament_id)
    shown = pages.round_shown(tournament, None if round_number is None else str(round_number))
    if round_number is not None and (shown is None or shown.number != round_number):
        raise HttpError(404, gettext("round %(round)s of tournament %(id)s has not been paired")
                        % {"round": round_number, "id": tournament_id})
    answer: dict[str, Any] = {"tournament_id": tournament.pk, "round": None, "round_status": None,
                              "rounds": tournament.current_round, "pairings": []}
    if shown is not None:
        seats, bot_ids = _seat_names(tournament), bots.bot_levels()  # the bots read once for the round
        answer.update(round=shown.number, round_status=shown.status,
                      pairings=[_pairing(pairing, seats, bot_ids) for pairing in shown.pairings])
    return answer


@router.get("/tournaments/{id:tournament_id}/trf", response={200: None, **errors(400, 404)}, auth=OptionalToken(),
            summary="A tournament's results as TRF-16",
            openapi_extra={"responses": {200: {"description": "The TRF-16 file", "content": {
                "text/plain": {"schema": {"type": "string"}}}}}})
def tournament_trf(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """FIDE's Tournament Report File (TRF-16), as ``text/plain``: what the
    site's TRF download gives, for a pairing program or a rating officer.
    Swiss and round robin only; an elimination has none (400)."""
    tournament = _tournament(tournament_id)
    if tournament.elimination:
        raise HttpError(400, gettext("elimination tournaments have no TRF"))
    return HttpResponse(pages.trf_text(tournament), content_type="text/plain; charset=utf-8")


# --- Players -----------------------------------------------------------------


@router.post("/tournaments/{id:tournament_id}/join", response={200: EntryOut, **errors(400, 403, 404)}, auth=Token("play"),
             summary="Join a tournament")
def join(request: HttpRequest, tournament_id: int) -> dict[str, Any]:
    """Enter the tournament as the token's account, if its conditions allow
    (the refusal says which one does not). A Swiss that has started takes late
    entries until half its rounds are paired, with no points for those missed."""
    _tournament(tournament_id)
    return _entry(entering.join(tournament_id, request.user), bots.bot_levels())


@router.post("/tournaments/{id:tournament_id}/withdraw", response={200: EntryOut, **errors(400, 403, 404)}, auth=Token("play"),
             summary="Withdraw from a tournament")
def withdraw(request: HttpRequest, tournament_id: int) -> dict[str, Any]:
    """Leave the tournament. Before the start the entry is simply gone
    (``id`` null); after it you are not paired again and your results stand
    (a round robin annuls them if you leave before playing half your games)."""
    _tournament(tournament_id)
    return _entry(entering.withdraw(tournament_id, request.user), bots.bot_levels())


# --- Organizers --------------------------------------------------------------


@router.post("/tournaments", response={200: TournamentOut, **errors(400, 403, 422)}, auth=Token("tournament:write"),
             summary="Create a tournament")
def create(request: HttpRequest, body: TournamentIn) -> dict[str, Any]:
    """Open a tournament for entries, organized by the token's account, which
    must be an organizer. The settings are checked as the site's form checks
    them; the first problem comes back as a 422 ``"field: message"``, all of
    them in ``detail``."""
    if not organizing.may_organize(request.user):
        raise HttpError(403, gettext("only organizers create tournaments"))
    form = TournamentForm(data=body.model_dump(), author=request.user)
    if not form.is_valid():
        raise _form_errors(form)
    tournament = form.save(commit=False)
    tournament.organizer = request.user
    tournament.save()
    return _details(_tournament(tournament.pk))


def _organizer_act(request: HttpRequest, tournament_id: int, act: Callable[[int, Any], Any]) -> dict[str, Any]:
    """The organizer's change through tournaments.organizing, then the details."""
    _organized(request, tournament_id)
    act(tournament_id, request.user)
    return _details(_tournament(tournament_id))


@router.post("/tournaments/{id:tournament_id}/start", response={200: TournamentOut, **errors(400, 403, 404)},
             auth=Token("tournament:write"), summary="Start a tournament now")
def start(request: HttpRequest, tournament_id: int) -> dict[str, Any]:
    """Start before the planned time: entries close, players are seeded and
    the first round is paired. With fewer than 2 players it is cancelled."""
    return _organizer_act(request, tournament_id, organizing.start_early)


@router.post("/tournaments/{id:tournament_id}/pause", response={200: TournamentOut, **errors(400, 403, 404)},
             auth=Token("tournament:write"), summary="Pause a running tournament")
def pause(request: HttpRequest, tournament_id: int) -> dict[str, Any]:
    """No new round starts until it is resumed; games already running finish."""
    return _organizer_act(request, tournament_id, organizing.pause)


@router.post("/tournaments/{id:tournament_id}/resume", response={200: TournamentOut, **errors(400, 403, 404)},
             auth=Token("tournament:write"), summary="Resume a paused tournament")
def resume(request: HttpRequest, tournament_id: int) -> dict[str, Any]:
    """The next round is paired as soon as it is due."""
    return _organizer_act(request, tournament_id, organizing.resume)


@router.post("/tournaments/{id:tournament_id}/entries/{id:entry_id}/remove", response={200: EntryOut, **errors(400, 403, 404, 422)},
             auth=Token("tournament:write"), summary="Remove a player")
def remove(request: HttpRequest, tournament_id: int, entry_id: int, body: RemoveIn) -> dict[str, Any]:
    """Take a player out, as a withdrawal with the reason shown beside their
    name ("removed by the organizer: <reason>")."""
    tournament = _organized(request, tournament_id)
    if not tournament.entries.filter(pk=entry_id).exists():
        raise HttpError(404, gettext("no entry %(entry)s in tournament %(id)s")
                        % {"entry": entry_id, "id": tournament_id})
    entry = organizing.remove_player(tournament_id, request.user, entry_id, body.reason.strip())
    return _entry(entry, bots.bot_levels())


@router.post("/tournaments/{id:tournament_id}/pairings/{id:pairing_id}/adjudicate", response={200: PairingOut, **errors(400, 403, 404, 422)},
             auth=Token("tournament:write"), summary="Decide a game's result")
def adjudicate(request: HttpRequest, tournament_id: int, pairing_id: int, body: AdjudicateIn) -> dict[str, Any]:
    """End a board's running game with the result you decide: ``winner`` a
    seat of the game, or null for a draw, and ``note`` the reason, which the
    game keeps. The game becomes unrated."""
    tournament = _organized(request, tournament_id)
    if not Pairing.objects.filter(pk=pairing_id, round__tournament=tournament).exists():
        raise HttpError(404, gettext("no pairing %(pairing)s in tournament %(id)s")
                        % {"pairing": pairing_id, "id": tournament_id})
    organizing.adjudicate(tournament_id, request.user, pairing_id, body.winner, body.note)
    pairing = Pairing.objects.select_related("red__user", "black__user").get(pk=pairing_id)
    return _pairing(pairing, _seat_names(tournament), bots.bot_levels())


# --- Helpers -----------------------------------------------------------------


def _form_errors(form: TournamentForm) -> ValidationError:
    """The form's errors as the API's 422 (api/main.py): "field: message"
    for the first, every one in ``detail``."""
    return ValidationError([{"type": "invalid", "loc": ("body",) if field == "__all__" else ("body", field),
                             "msg": message} for field, messages in form.errors.items() for message in messages])


def _tournament(tournament_id: int) -> Tournament:
    tournament = Tournament.objects.select_related("organizer").filter(pk=tournament_id).first()
    if tournament is None:
        raise HttpError(404, gettext("no tournament %(id)s") % {"id": tournament_id})
    return tournament


def _organized(request: HttpRequest, tournament_id: int) -> Tournament:
    """The tournament, if the token's account organizes it (organizing.may_organize,
    which the action checks again under its lock): a 403 otherwise, not the
    action's 400, since it is about who asks, not what is asked."""
    tournament = _tournament(tournament_id)
    if not organizing.may_organize(request.user, tournament):
        raise HttpError(403, gettext("only the tournament's organizer may do that"))
    return tournament


def _active_count(tournaments: QuerySet[Tournament]) -> QuerySet[Tournament]:
    return tournaments.annotate(entry_count=Count("entries", filter=Q(entries__withdrawn_at__isnull=True)))


def _page_of_sections(sections: list[str], page: int) -> tuple[list[Tournament], int, int]:
    """Page ``page`` (the last if past it) of the sections one after another;
    the page and the count of all their tournaments."""
    querysets = [_active_count(pages.listed(section)) for section in sections]
    counts = [queryset.count() for queryset in querysets]
    page = min(page, _page_count(sum(counts), LIST_LENGTH))
    skip, shown = (page - 1) * LIST_LENGTH, list[Tournament]()
    for queryset, count in zip(querysets, counts):
        if skip < count:
            shown += list(queryset[skip:skip + LIST_LENGTH - len(shown)])
        skip = max(0, skip - count)
        if len(shown) == LIST_LENGTH:
            break
    return shown, page, sum(counts)


def _page_count(count: int, size: int) -> int:
    return max(1, -(-count // size))


def _summary(tournament: Tournament, entries: int) -> dict[str, Any]:
    return {"id": tournament.pk, "name": tournament.name, "url": tournament.get_absolute_url(),
            "rules": tournament.rules, "game": tournament.get_rules_display(), "format": tournament.format,
            "time_control": tournament.tc.key, "rated": tournament.rated, "status": tournament.status,
            "starts_at": tournament.starts_at, "current_round": tournament.current_round,
            "organizer": tournament.organizer.get_username(), "entries": entries}


def _details(tournament: Tournament) -> dict[str, Any]:
    entries = tournament.entries.filter(withdrawn_at__isnull=True).count()
    conditions = {name: getattr(tournament, name) for name in ConditionsOut.model_fields}
    settings = {name: getattr(tournament, name) for name in (
        "description", "seeding", "double_round_robin", "match_length", "third_place", "grand_final_reset",
        "pause_seconds", "started_at", "next_round_at", "finished_at", "end_note", "registration_open")}
    return {**_summary(tournament, entries), **settings, "conditions": conditions,
            "rounds_planned": pairers.planned_rounds(tournament), "tiebreaks": _tiebreaks(tournament)}


def _tiebreaks(tournament: Tournament) -> list[dict[str, str]]:
    return [{"code": code, "label": TIEBREAKS[code].label} for code in tournament.tiebreak_codes]


# Who is a bot comes from games.bots.bot_levels() (no query; one Redis read), read
# once per answer by the callers and passed down as ``bot_ids``, not once per player.


def _entry(entry: Entry, bot_ids: Collection[int]) -> dict[str, Any]:
    return {"id": entry.pk, "tournament_id": entry.tournament_id, "username": entry.user.get_username(),
            "bot": entry.user_id in bot_ids, "number": entry.number, "rating": entry.rating, "active": entry.pk is not None and entry.active,
            "withdrawn_why": entry.withdrawn_why}


def _standing(line: pages.Line, bot_ids: Collection[int]) -> dict[str, Any]:
    entry = line.entry
    return {"rank": line.rank, "entry_id": entry.pk, "number": entry.number, "username": entry.user.get_username(),
            "bot": entry.user_id in bot_ids, "rating": entry.rating, "score": float(line.standing.points),
            "tiebreaks": [None if value is None else float(value) for value in line.standing.tiebreaks],
            "withdrawn": None if entry.active else entry.withdrawn_why}


def _places(tournament: Tournament, bot_ids: Collection[int]) -> list[dict[str, Any]]:
    """An elimination's places settled so far (the bracket's final ranking); a
    disqualified player keeps their matches but has no place, as on the page."""
    entries = scoring.entries_by_number(tournament)
    if len(entries) < 2:
        return []
    ranking = [(place, number) for place, number in brackets.final_ranking(scoring.bracket_of(tournament))
               if not entries[number].disqualified]
    return [{"rank": place, "entry_id": entries[number].pk, "number": number,
             "username": entries[number].user.get_username(), "bot": entries[number].user_id in bot_ids,
             "rating": entries[number].rating,
             "score": None, "tiebreaks": [], "withdrawn": None if entries[number].active
             else entries[number].withdrawn_why} for place, number in ranking]


def _seat_names(tournament: Tournament) -> tuple[str, ...]:
    """The two seats of the tournament's game: a pairing's "red" entry sits in
    the first (Rhombus: SW), "black" in the second (recording.board_result)."""
    return engine.GAMES[setup_of(tournament.rules).kind].seats_for(2)


def _pairing(pairing: Pairing, seats: tuple[str, ...], bot_ids: Collection[int]) -> dict[str, Any]:
    players = [{"seat": seat, "username": entry.user.get_username(), "bot": entry.user_id in bot_ids,
                "entry_id": entry.pk}
               for seat, entry in zip(seats, (pairing.red, pairing.black)) if entry is not None]
    return {"id": pairing.pk, "board": pairing.board, "match": pairing.match or None,
            "match_game": pairing.match_game, "players": players, "result": pairing.result or None,
            "game_id": pairing.game_id}
