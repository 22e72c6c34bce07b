"""The public API (docs/api.md): one django-ninja ``NinjaAPI`` at /api/, its
OpenAPI 3 spec at /api/openapi.json and a browsable page at /api/docs.

Every operation is a thin wrapper around the same domain functions the pages
and sockets use (games.moving, games.finishing, ladder.seeks,
tournaments.entering), so a move or a join through the API takes the same row
locks, checks and transactions as one from the site. Refusals from those functions become 400s
with their own words; every error body is ``{"error": "..."}``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import gettext
from django.views.decorators.csrf import csrf_exempt
from ninja import NinjaAPI, Swagger
from ninja.errors import AuthenticationError, HttpError, ValidationError

from games import refusals
from api import account, playing, players, public_games, seeks, stream_lines, streams, tournaments
from api.auth import Limits, OptionalToken, StreamToken, Token
from api.tokens import TokenRefusal
from ladder.inputs import LobbyRefusal

class Api(NinjaAPI):
    def get_openapi_schema(self, **kwargs: Any) -> Any:
        """ninja's spec, with one bearer scheme for every kind of Token (ninja
        names a scheme by its class), and a public read's token marked
        optional: the bearer requirement or none (security is "any of")."""
        schema = stream_lines.with_line_schemas(super().get_openapi_schema(**kwargs))
        kinds = {OptionalToken.__name__, StreamToken.__name__}
        for methods in schema["paths"].values():
            for operation in methods.values():
                names = {name for requirement in operation.get("security", []) for name in requirement}
                if names & kinds:
                    optional = OptionalToken.__name__ in names
                    operation["security"] = [{Token.__name__: []}, *([{}] if optional else [])]
        schemes = schema["components"].get("securitySchemes", {})
        for kind in kinds:
            schemes.pop(kind, None)
        return schema


GUIDE = Path(__file__).resolve().parents[1] / "docs" / "api.md"

api = Api(
    title="aceweb API",
    version="1",
    description=GUIDE.read_text(),  # docs/api.md: the guide is the top of /api/docs
    urls_namespace="api",
    docs_url="/docs",
    # No links inside an operation's summary button: a link in a button is
    # unreachable by keyboard and screen reader (axe-core nested-interactive).
    docs=Swagger(settings={"deepLinking": False}),
    openapi_url="/openapi.json",
    throttle=[Limits()],
)

for router in (account.router, players.router, public_games.router, playing.router, seeks.router,
               tournaments.router, streams.router):
    api.add_router("/", router)


def _error(request: HttpRequest, message: str, status: int, **extra: Any) -> HttpResponse:
    return api.create_response(request, {"error": message, **extra}, status=status)


@csrf_exempt  # as ninja's own views: a token, not a cookie, says who calls
def no_such_address(request: HttpRequest) -> HttpResponse:
    """Any /api/ address no operation has, in the API's one JSON shape, with
    DEBUG on too; among them an id no row can have, which the ``id`` converter
    keeps from matching (issue 35, 11)."""
    return _error(request, gettext("nothing is at this address: the API's addresses are listed at /api/docs"), 404)


@api.exception_handler(HttpError)
def http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    return _error(request, str(exc), exc.status_code)


@api.exception_handler(AuthenticationError)
def unauthenticated(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
    return _error(request, gettext('send a personal access token: "Authorization: Bearer <token>"'), 401)


@api.exception_handler(Http404)
def not_found(request: HttpRequest, exc: Http404) -> HttpResponse:
    return _error(request, str(exc) or gettext("not found"), 404)


@api.exception_handler(ValidationError)
def bad_input(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    first = exc.errors[0] if exc.errors else {}
    where = ".".join(str(part) for part in _place(first.get("loc", ())))
    message = f"{where}: {first.get('msg', 'invalid')}" if where else str(first.get("msg", "invalid input"))
    return _error(request, message, 422, detail=_plain(exc.errors))


@api.exception_handler(refusals.Refusal)
@api.exception_handler(LobbyRefusal)
@api.exception_handler(TokenRefusal)
def refused(request: HttpRequest, exc: Exception) -> HttpResponse:
    return _error(request, str(exc), 400)


def _place(loc: Any) -> list[Any]:
    """Where a bad value was, as a client wrote it: ("body", "body", "colour")
    (the source, then ninja's name for the whole body) is body.colour."""
    parts = list(loc)
    return [parts[0], *parts[2:]] if parts[:1] == ["body"] and len(parts) > 2 else parts


def _plain(errors: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """pydantic's error dicts, without the parts JSON cannot carry (its ``ctx``
    may hold the exception object)."""
    return [{key: value for key, value in error.items() if key in ("type", "loc", "msg")} for error in errors]
