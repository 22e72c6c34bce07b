"""The OpenAPI spec at /api/openapi.json and its browsable page at /api/docs:
valid OpenAPI 3, every operation documented, no two schemas sharing a name."""

from __future__ import annotations

import inspect
from typing import Any

import pydantic
import pytest

from api import account, playing, players, public_games, schemas, seeks, stream_lines, streams, tournaments
from api.schemas import ERROR_CODES

pytestmark = pytest.mark.django_db
MODULES = (account, playing, players, public_games, schemas, seeks, stream_lines, streams, tournaments)


@pytest.fixture
def spec(client: Any) -> dict[str, Any]:
    response = client.get("/api/openapi.json", HTTP_HOST="localhost")
    assert response.status_code == 200
    return dict(response.json())


def operations(spec: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(path, method, operation) for path, methods in spec["paths"].items()
            for method, operation in methods.items()]


def test_the_spec_is_openapi_3_with_a_bearer_scheme(spec: dict[str, Any]) -> None:
    assert spec["openapi"].startswith("3.")
    assert spec["components"]["securitySchemes"] == {"Token": {"type": "http", "scheme": "bearer"}}
    assert len(operations(spec)) >= 42


def test_every_operation_has_words_and_its_errors(spec: dict[str, Any]) -> None:
    for path, method, operation in operations(spec):
        where = f"{method.upper()} {path}"
        assert operation.get("summary") and operation.get("description"), where
        documented = {int(code) for code in operation["responses"]}
        assert 200 in documented and ERROR_CODES <= documented, where
        error = operation["responses"]["404"]["content"]["application/json"]["schema"]
        assert error == {"$ref": "#/components/schemas/Error"}, where


def test_public_reads_say_their_token_is_optional(spec: dict[str, Any]) -> None:
    assert spec["paths"]["/api/leaderboard"]["get"]["security"] == [{"Token": []}, {}]
    assert spec["paths"]["/api/games/{game_id}/actions"]["post"]["security"] == [{"Token": []}]


def test_streams_are_documented_as_ndjson(spec: dict[str, Any]) -> None:
    for path in ("/api/stream/event", "/api/stream/game/{game_id}"):
        assert list(spec["paths"][path]["get"]["responses"]["200"]["content"]) == ["application/x-ndjson"]


def test_every_schema_name_in_the_spec_is_one_class() -> None:
    """ninja names a spec's schemas by class name alone: two classes called
    alike would share one schema, and one of their responses would break it."""
    classes: dict[str, set[type]] = {}
    for module in MODULES:
        for name, value in inspect.getmembers(module, inspect.isclass):
            if issubclass(value, pydantic.BaseModel) and value.__module__ == module.__name__:
                classes.setdefault(name, set()).add(value)
    assert {name: found for name, found in classes.items() if len(found) > 1} == {}


def test_the_docs_page_shows_the_spec(client: Any) -> None:
    page = client.get("/api/docs", HTTP_HOST="localhost")
    assert page.status_code == 200
    assert b"/api/openapi.json" in page.content and b"swagger" in page.content.lower()
