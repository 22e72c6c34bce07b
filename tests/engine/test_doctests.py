"""The examples in the engine's docstrings are part of its documentation: they must run."""
from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import engine

MODULES = sorted(
    name for _, name, _ in pkgutil.walk_packages(engine.__path__, "engine.") if name != "engine.__main__"
)


@pytest.mark.parametrize("name", ["engine", *MODULES])
def test_the_docstring_examples_hold(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} docstring example(s) in {name} failed"
