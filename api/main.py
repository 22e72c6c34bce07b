"""The public API (docs/api.md): one django-ninja ``NinjaAPI`` at /api/, its
OpenAPI 3 spec at /api/openapi.json and a browsable page at /api/docs.

Every operation is a thin wrapper around the same domain functions the pages
and sockets use (games.moving, games.finishing, ladder.seeks,
tournaments.entering), so a move or a join through the API takes the same row
locks, checks and transactions as one from the site. Refusals from those functions become 400s
with their own words; every error body is ``{"error": "..."}``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import gettext
from django.views.decorators.csrf import csrf_exempt
from ninja import NinjaAPI, Swagger
from ninja.errors import AuthenticationError, HttpError, ValidationError

from games import refusals
from api import account, playing, players, public_games, seeks, spec, stream_lines, streams, tournaments
from api.auth import Limits, Token
from api.tokens import TokenRefusal
from ladder.inputs import LobbyRefusal, NotFound, NotYours


class Api(NinjaAPI):
    def get_openapi_operation_id(self, operation: Any) -> str:
        return spec.operation_id(operation.view_func)

    def get_openapi_schema(self, **kwargs: Any) -> Any:
        """ninja's spec, and what it cannot say (api/spec.py): one bearer
        scheme for every kind of Token (ninja names a scheme by its class),
        the scope each operation needs, a public read's token optional, 429's
        header and the rate limits; and the streams' lines (api/stream_lines.py)."""
        schema = stream_lines.with_line_schemas(super().get_openapi_schema(**kwargs))
        needs = {spec.operation_id(op.view_func): op.auth_callbacks for op in self._operations()}
        for methods in schema["paths"].values():
            for operation in methods.values():
                tokens = [auth for auth in needs[operation["operationId"]] if isinstance(auth, Token)]
                if tokens:
                    operation["security"] = spec.security(tokens[0].scope, tokens[0].optional)
                if 429 in operation["responses"]:  # ninja's keys are numbers until the spec is written out
                    operation["responses"][429].update(spec.too_many_requests())
        schema["components"]["securitySchemes"] = {Token.__name__: spec.bearer_scheme()}
        schema["info"]["x-rate-limits"] = spec.rate_limits()
        schema["tags"] = spec.TAGS
        return schema

    def _operations(self) -> Iterator[Any]:
        for router in self._get_bound_routers():
            for path_view in router.path_operations.values():
                yield from path_view.operations


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
    docs_decorator=spec.built_once,  # the spec and its page: built on the first request, then kept
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
    """422 (schemas.BadInput): each problem's ``loc`` as the client wrote it,
    the first one also worded in ``error``."""
    problems = [_problem(error) for error in exc.errors] or [{"loc": ["body"], "msg": "invalid input", "type": "invalid"}]
    first = problems[0]
    return _error(request, f"{'.'.join(str(part) for part in first['loc'])}: {first['msg']}", 422, detail=problems)


@api.exception_handler(refusals.Refusal)
@api.exception_handler(LobbyRefusal)
@api.exception_handler(TokenRefusal)
def refused(request: HttpRequest, exc: Exception) -> HttpResponse:
    """The rules' or the site's refusal in its own words: 400; 403 for a seek or
    challenge that is someone else's, 404 for one (or a player) that does not
    exist, as every other operation answers them (docs/api.md)."""
    status = 403 if isinstance(exc, NotYours) else 404 if isinstance(exc, NotFound) else 400
    return _error(request, str(exc), status)


def _problem(error: dict[str, Any]) -> dict[str, Any]:
    """One of pydantic's (or a form's) errors, as schemas.Problem: where the
    value was, as a client wrote it (ninja's ("body", "body", "colour"), the
    source then its name for the whole body, is ["body", "colour"]), and
    without what JSON cannot carry (``ctx`` may hold the exception)."""
    loc = list(error.get("loc", ()))
    if loc[:2] == ["body", "body"]:
        loc = ["body", *loc[2:]]
    return {"loc": loc or ["body"], "msg": str(error.get("msg", "invalid")), "type": str(error.get("type", "invalid"))}
