"""The OpenAPI spec at /api/openapi.json and its browsable page at /api/docs:
valid OpenAPI 3, every operation documented, no two schemas sharing a name."""

from __future__ import annotations

import inspect
import json
import re
from typing import Any

import pydantic
import pytest

from api import account, playing, players, public_games, schemas, seeks, stream_lines, streams, tournaments
from api import spec as spec_module
from api.schemas import ERROR_CODES
from api.spec import OPERATIONS

pytestmark = pytest.mark.django_db
MODULES = (account, playing, players, public_games, schemas, seeks, spec_module, stream_lines, streams, tournaments)


@pytest.fixture
def spec(client: Any) -> dict[str, Any]:
    response = client.get("/api/openapi.json", HTTP_HOST="localhost")
    assert response.status_code == 200
    return dict(response.json())


def operations(spec: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(path, method, operation) for path, methods in spec["paths"].items()
            for method, operation in methods.items()]


def test_the_spec_is_openapi_3_with_a_bearer_scheme_naming_the_scopes(spec: dict[str, Any]) -> None:
    assert spec["openapi"].startswith("3.1")
    scheme = spec["components"]["securitySchemes"]["Token"]
    assert (scheme["type"], scheme["scheme"]) == ("http", "bearer")
    assert all(f"`{scope}`" in scheme["description"] for scope in ("read", "play", "bot:play", "tournament:write"))
    assert len(operations(spec)) >= 44


def test_every_operation_has_words_and_declares_its_own_errors(spec: dict[str, Any]) -> None:
    for path, method, operation in operations(spec):
        where = f"{method.upper()} {path}"
        assert operation.get("summary") and operation.get("description"), where
        documented = {int(code) for code in operation["responses"]}
        assert 200 in documented and {401, 429} <= documented <= {200} | ERROR_CODES, where
        for code in documented - {200}:
            error = operation["responses"][str(code)]["content"]["application/json"]["schema"]
            assert error == {"$ref": f"#/components/schemas/{'BadInput' if code == 422 else 'Error'}"}, where
    # issue 38, 5: declared per operation, so a public read that can fail only one way says so
    assert set(spec["paths"]["/api/account"]["get"]["responses"]) == {"200", "401", "429"}
    assert set(spec["paths"]["/api/games/{game_id}/seat"]["get"]["responses"]) == {"200", "401", "403", "404", "429"}


def test_each_operation_names_the_scope_it_needs(spec: dict[str, Any]) -> None:
    """issue 38, 8: the scope in the security requirement (OpenAPI 3.1 lets a
    bearer scheme list roles); a public read's token is optional."""
    paths = spec["paths"]
    assert paths["/api/leaderboard"]["get"]["security"] == [{"Token": []}, {}]
    assert paths["/api/games/{game_id}/actions"]["post"]["security"] == [{"Token": ["play"]}]
    assert paths["/api/challenges"]["get"]["security"] == [{"Token": ["read"]}]
    assert paths["/api/tournaments"]["post"]["security"] == [{"Token": ["tournament:write"]}]
    assert paths["/api/account"]["get"]["security"] == [{"Token": []}]  # any token


def test_429_declares_retry_after_and_the_rate_limits(spec: dict[str, Any], settings: Any) -> None:
    assert spec["info"]["x-rate-limits"] == {"per_token": settings.API_RATE_PER_TOKEN,
                                             "per_address": settings.API_RATE_PER_ADDRESS}
    for path, method, operation in operations(spec):
        too_many = operation["responses"]["429"]
        assert too_many["headers"]["Retry-After"]["schema"]["type"] == "integer", f"{method} {path}"
        assert "300 requests a minute per token" in too_many["description"]


def test_operations_have_short_stable_ids_and_capability_tags(spec: dict[str, Any]) -> None:
    """issue 38, 10: ids a generated client names its functions by."""
    ids = [operation["operationId"] for _, _, operation in operations(spec)]
    assert len(ids) == len(set(ids)) == len(OPERATIONS)
    assert all(re.fullmatch(r"[a-z]+(?:[A-Z][a-z]+)*", i) and len(i) <= 24 for i in ids), ids
    assert spec["paths"]["/api/challenges/{challenge_id}/accept"]["post"]["operationId"] == "acceptChallenge"
    assert spec["paths"]["/api/games/{game_id}/chat"]["post"]["operationId"] == "sendChat"
    tags = [tag["name"] for tag in spec["tags"]]
    assert {tag for _, _, operation in operations(spec) for tag in operation["tags"]} == set(tags)
    assert "public_games" not in tags and "games" in tags


def test_vocabularies_are_named_shared_enums(spec: dict[str, Any]) -> None:
    """issue 38, 3: one TimeControl wherever a time control is taken or given."""
    schemas = spec["components"]["schemas"]
    assert schemas["TimeControl"]["enum"] == ["1+0", "3+2", "5+3", "10+5", "1d", "3d", "7d"]
    assert schemas["TimeControl"]["x-enum-varnames"][2] == "MINUTES_5_3"
    assert schemas["Players"]["enum"] == [2, 4]
    assert "greedy" in schemas["BotLevel"]["enum"]
    refs = {name: json.dumps(schemas[name]) for name in ("SeekIn", "ChallengeIn", "ComputerIn", "TournamentIn",
                                                          "TimeControlOut", "TournamentSummaryOut")}
    assert all('"#/components/schemas/TimeControl"' in text for text in refs.values()), refs
    assert '"#/components/schemas/BotLevel"' in refs["ComputerIn"]
    for name in ("Rules", "TournamentFormat", "Seeding", "ChatFor"):
        assert f'"#/components/schemas/{name}"' in refs["TournamentIn"], name
    outputs = {"ChallengeOut": ("ChallengeStatus", "Direction", "Colour"), "SeatOut": ("Seat",),
               "GameSummaryOut": ("GameStatus", "Side", "Reason"), "PairingOut": ("PairingResult",)}
    for name, enums in outputs.items():
        for enum in enums:
            assert f'"#/components/schemas/{enum}"' in json.dumps(schemas[name]), (name, enum)
    assert not [name for name in schemas if re.search(r"(In|Out)(TimeControl|Status|Colour|Rules)$", name)]


def test_required_fields_are_declared(spec: dict[str, Any]) -> None:
    """issue 38, 4: what the site needs, the spec requires."""
    schemas = spec["components"]["schemas"]
    assert {"name", "starts_at"} <= set(schemas["TournamentIn"]["required"])
    assert schemas["TournamentIn"]["if"] == {"properties": {"format": {"const": "swiss"}}}
    assert schemas["TournamentIn"]["then"]["required"] == ["rounds"]
    challenge = schemas["ChallengeIn"]
    assert challenge["else"]["required"] == ["username"]
    assert challenge["then"]["required"] == ["partner", "opponents"]


def test_dates_are_date_times(spec: dict[str, Any]) -> None:
    """issue 38, 9: every moment is a date-time, none a plain string: each
    property named like one (``*_at``, ``joined``, ``started``, ``ended``,
    ``date``, ``last_active``; not a seek's ``joined``, its players' names), in
    every schema, views and stream lines included."""
    moments = []
    for name, schema in spec["components"]["schemas"].items():
        for field, value in schema.get("properties", {}).items():
            if re.fullmatch(r".*_at|joined|started|ended|date|last_active", field) and value.get("type") != "array":
                kinds = [value, *value.get("anyOf", [])]
                assert any(kind.get("format") == "date-time" for kind in kinds), (name, field, value)
                moments.append(f"{name}.{field}")
    for expected in ("AccountOut.joined", "ChallengeOut.expires_at", "PlayerOut.joined", "GameSummaryOut.started"):
        assert expected in moments
    assert any(moment.endswith(".turn_started_at") for moment in moments)  # a view's clock


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
