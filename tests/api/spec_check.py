"""Checking answers and stream lines against what the API's own spec declares
(/api/openapi.json), as a client generated from it would read them, and more
strictly: every object schema that lists ``properties`` and says nothing of
others gets ``additionalProperties: false``, so a key the spec does not name
fails too (an untyped extra is a hole in the spec)."""

from __future__ import annotations

import copy
from typing import Any

import jsonschema_rs

JSON = "application/json"
NDJSON = "application/x-ndjson"


def strict(schema: Any) -> Any:
    """``schema`` with ``additionalProperties: false`` wherever an object lists
    its properties and leaves the others open by saying nothing."""
    if isinstance(schema, list):
        return [strict(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    closed = {key: strict(value) for key, value in schema.items()}
    if isinstance(schema.get("properties"), dict) and "additionalProperties" not in schema:
        closed["additionalProperties"] = False
    return closed


class SpecCheck:
    """Validators for the spec's schemas, the spec's components at their root
    so that ``#/components/schemas/X`` resolves."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec
        self.components = strict(copy.deepcopy(spec["components"]))
        self._validators: dict[str, Any] = {}

    def schema_of(self, method: str, path: str, status: int, media: str = JSON) -> Any:
        """The schema the spec declares for ``method path``'s ``status`` answer in ``media``."""
        response = self.spec["paths"][path][method.lower()]["responses"][str(status)]
        return response["content"][media]["schema"]

    def validator(self, schema: Any) -> Any:
        key = repr(schema)
        if key not in self._validators:
            root = {"$schema": "https://json-schema.org/draft/2020-12/schema", **strict(schema),
                    "components": self.components}
            self._validators[key] = jsonschema_rs.validator_for(root)
        return self._validators[key]

    def errors(self, schema: Any, instance: Any) -> list[str]:
        return [str(error).splitlines()[0] for error in self.validator(schema).iter_errors(instance)]

    def check(self, method: str, path: str, status: int, instance: Any, media: str = JSON) -> None:
        """Fails, naming what is wrong, unless ``instance`` is what the spec declares."""
        wrong = self.errors(self.schema_of(method, path, status, media), instance)
        assert not wrong, f"{method} {path} {status}: {wrong[:5]}\n{str(instance)[:2000]}"
