"""The floors (issue 36, STYLE.md): import-linter's contracts in pyproject.toml
hold for the whole tree, and an import that breaks one is caught.

The contracts are the architecture's one written statement: engine at the
bottom, then the lowest apps (chat, preferences, ids; notify; relation), games,
the ladder, moderation, tournaments, the API, and aceweb on top; the engine
imports no Django; games imports nothing of the apps that subscribe to it; and
inside each app no modules import one another in a circle (a lazy import in a
function body included), but for a module queuing its own Celery task.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "pyproject.toml"
LINT = Path(sys.executable).with_name("lint-imports")


def packages() -> list[str]:
    return list(tomllib.loads(CONFIG.read_text())["tool"]["importlinter"]["root_packages"])


def lint(root: Path) -> subprocess.CompletedProcess[str]:
    """lint-imports over the tree at ``root``, as a developer runs it there."""
    return subprocess.run([str(LINT), "--no-cache", "--no-logo", str(root / "pyproject.toml")], cwd=root,
                          capture_output=True, text=True, timeout=120, env={"PYTHONPATH": str(root), "PATH": ""})


def test_every_contract_holds() -> None:
    result = lint(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def copy_of_the_tree(destination: Path) -> Path:
    """The packages' Python files and the contracts, where a test may add a module."""
    for package in packages():
        shutil.copytree(ROOT / package, destination / package, ignore=shutil.ignore_patterns(
            "__pycache__", "*.html", "*.js", "*.css", "*.po", "*.mo", "*.png", "*.svg"))
    shutil.copy(CONFIG, destination / "pyproject.toml")
    return destination


@pytest.mark.parametrize("module, line, contract", [
    ("games/_upward.py", "from ladder import ratings\n", "games imports neither the ladder nor tournaments"),
    ("ladder/_upward.py", "from tournaments import running\n", "The floors"),
    ("chat/_upward.py", "import games.moving\n", "The floors"),
    ("engine/_django.py", "from django.db import models\n", "The engine is a pure library"),
])
def test_an_import_against_the_floors_is_caught(tmp_path: Path, module: str, line: str, contract: str) -> None:
    tree = copy_of_the_tree(tmp_path)
    (tree / module).write_text(f"from __future__ import annotations\n\n{line}")
    result = lint(tree)
    assert result.returncode != 0
    broken = [text for text in result.stdout.splitlines() if text.endswith("BROKEN")]
    assert any(text.startswith(contract) for text in broken), result.stdout
    assert module.removesuffix(".py").replace("/", ".") in result.stdout  # the report names the import


@pytest.mark.parametrize("package, second_line", [
    ("ladder", "from ladder import _circle_a\n"),
    ("games", "from games import _circle_a\n"),
    # An import inside a function body is an import all the same: it cannot hide a circle.
    ("tournaments", "\ndef later() -> None:\n    from tournaments import _circle_a  # noqa: F401\n"),
])
def test_a_circle_among_an_app_s_modules_is_caught(tmp_path: Path, package: str, second_line: str) -> None:
    tree = copy_of_the_tree(tmp_path)
    (tree / package / "_circle_a.py").write_text(f"from __future__ import annotations\n\nfrom {package} import _circle_b\n")
    (tree / package / "_circle_b.py").write_text(f"from __future__ import annotations\n\n{second_line}")
    result = lint(tree)
    assert result.returncode != 0
    broken = [text.partition(" BROKEN")[0] for text in result.stdout.splitlines() if " BROKEN" in text]
    assert broken == ["No app's modules import one another in a circle"], result.stdout
    assert f"No cycles are allowed in {package}." in result.stdout
    assert "._circle_" in result.stdout  # the report names the import
