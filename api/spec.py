"""What the OpenAPI spec says beyond what django-ninja writes from the routes
(docs/api.md, "The spec"): each operation's short, stable id and its tag, the
token scope it needs, the rate limits and 429's ``Retry-After``; and the spec
and its page built once per process and answered with an ETag.

The ids are the names a generated client gives its functions, so they never
change once published; an operation not listed here is an error at start-up,
not a name made from a module path.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import get_conditional_response, patch_cache_control
from ninja.openapi.views import openapi_json
from ninja.throttling import SimpleRateThrottle

from api.models import SCOPES

# "module.function" of each view (in api/) -> its operationId.
OPERATIONS = {
    "account.account": "getAccount",
    "account.upgrade": "upgradeToBot",
    "players.player": "getPlayer",
    "players.rating_history": "getRatingHistory",
    "players.player_games": "listPlayerGames",
    "players.leaderboard_list": "getLeaderboard",
    "public_games.game_state": "getGame",
    "public_games.game_record": "getGameRecord",
    "playing.seat": "getSeatView",
    "playing.options": "getActionOptions",
    "playing.act": "playAction",
    "playing.resign": "resignGame",
    "playing.abort": "abortGame",
    "playing.claim_victory": "claimVictory",
    "playing.claim_time": "claimTime",
    "playing.rematch": "offerRematch",
    "playing.say": "sendChat",
    "seeks.seek_list": "listSeeks",
    "seeks.seek_create": "createSeek",
    "seeks.seek_cancel": "cancelSeek",
    "seeks.seek_accept": "acceptSeek",
    "seeks.seek_leave": "leaveSeek",
    "seeks.challenge_list": "listChallenges",
    "seeks.challenge_create": "createChallenge",
    "seeks.challenge_accept": "acceptChallenge",
    "seeks.challenge_decline": "declineChallenge",
    "seeks.challenge_cancel": "cancelChallenge",
    "seeks.computer": "playComputer",
    "tournaments.tournament_list": "listTournaments",
    "tournaments.tournament_detail": "getTournament",
    "tournaments.tournament_entries": "listTournamentEntries",
    "tournaments.tournament_standings": "getTournamentStandings",
    "tournaments.tournament_pairings": "getTournamentPairings",
    "tournaments.tournament_trf": "getTournamentTrf",
    "tournaments.join": "joinTournament",
    "tournaments.withdraw": "withdrawFromTournament",
    "tournaments.create": "createTournament",
    "tournaments.start": "startTournament",
    "tournaments.pause": "pauseTournament",
    "tournaments.resume": "resumeTournament",
    "tournaments.remove": "removeTournamentPlayer",
    "tournaments.adjudicate": "adjudicatePairing",
    "streams.event_stream": "streamEvents",
    "streams.game_stream": "streamGame",
}

# The tags, by capability, in the order the reference shows them.
TAGS = [
    {"name": "account", "description": "The token's own account, and turning it into a BOT account"},
    {"name": "players", "description": "Profiles, rating histories, game lists and the leaderboard"},
    {"name": "games", "description": "A game's public state and record, as a spectator sees them"},
    {"name": "seeks", "description": "Open seeks in the lobby"},
    {"name": "challenges", "description": "Challenges to and from you"},
    {"name": "computer", "description": "Games against the site's computer players"},
    {"name": "playing", "description": "Your seat in a game: its view, actions, resigning, claims, chat"},
    {"name": "streams", "description": "Newline-delimited JSON streams of your account's events and your games"},
    {"name": "tournaments", "description": "Tournaments: reading, entering, and the organizer's acts"},
]

def operation_id(view: Callable[..., Any]) -> str:
    """The operationId of an api/ view function (OPERATIONS)."""
    return OPERATIONS[f"{view.__module__.removeprefix('api.')}.{view.__name__}"]


def rate_limits() -> dict[str, str]:
    return {"per_token": settings.API_RATE_PER_TOKEN, "per_address": settings.API_RATE_PER_ADDRESS}


def security(scope: str | None, optional: bool) -> list[dict[str, list[str]]]:
    """An operation's security requirement: the bearer token with the scope it
    needs (OpenAPI 3.1 lets a non-OAuth scheme list the roles it requires), or
    none for a public read, whose token is optional."""
    return [{"Token": [scope] if scope else []}, *([{}] if optional else [])]


def bearer_scheme() -> dict[str, Any]:
    listed = "; ".join(f"`{name}`: {str(words).lower()}" for name, words in SCOPES.items())
    return {"type": "http", "scheme": "bearer",
            "description": "A personal access token (`Authorization: Bearer acew_...`), made on /account/tokens/. "
                           f"Each operation's security lists the scope it needs: {listed}. A token that plays "
                           "(`play`, `bot:play`) may also read; a person's token plays with `play`, a BOT "
                           "account's with `bot:play`."}


def too_many_requests() -> dict[str, Any]:
    """The 429 answer's words and header, with the limits."""
    limits = rate_limits()
    return {"description": f"Over a rate limit: {_worded(limits['per_token'])} per token, and "
                           f"{_worded(limits['per_address'])} per address whatever the token (a sliding "
                           "window; a stream counts once, when it opens). Retry after the seconds the "
                           "Retry-After header says.",
            "headers": {"Retry-After": {"description": "Seconds to wait before a request can succeed",
                                        "schema": {"type": "integer", "minimum": 0}}}}


def _worded(rate: str) -> str:
    """ "300/min" as "300 requests a minute"."""
    count, seconds = SimpleRateThrottle(rate).parse_rate(rate)
    return f"{count} requests a minute" if seconds == 60 else f"{count} requests every {seconds} s"


# --- Built once, answered with an ETag ----------------------------------------


def built_once(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """ninja's spec and docs views (``docs_decorator``), answered from their
    first answer in this process: building the spec took 176 ms a request
    (issue 38, 12). The spec is in English whatever the request's language, as
    the API is; the docs page, one per language (a line of it is in the
    reader's). The answer carries an ETag, so a client that has it gets a 304."""
    answers: dict[str, tuple[bytes, str, str]] = {}
    english = getattr(view, "func", None) is openapi_json

    @functools.wraps(view)
    def answer(request: HttpRequest, **kwargs: Any) -> HttpResponse:
        language = "en" if english else translation.get_language() or ""
        if language not in answers:
            with translation.override(language):
                built = view(request, **kwargs)
            if built.status_code != 200:
                return built
            content = built.content
            answers[language] = (content, built["Content-Type"], f'"{hashlib.sha256(content).hexdigest()[:32]}"')
        content, content_type, etag = answers[language]
        response = HttpResponse(content, content_type=content_type)
        response["ETag"] = etag
        patch_cache_control(response, no_cache=True)  # keep it, but ask again (a new deploy, a new spec)
        return get_conditional_response(request, etag=etag, response=response) or response

    return answer
