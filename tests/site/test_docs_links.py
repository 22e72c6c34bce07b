"""README.md and docs/ hold together (issue 36): every relative link and anchor in
them leads somewhere, every `docs/...` path they name in code exists, the README's
quick start shows the commands CI runs, every direct dependency says why it is
there, and the README stays a front page.

An anchor resolves as on GitHub: a heading's slug is its text in lower case with
punctuation dropped and spaces turned to hyphens; the second heading with the same
slug gets "-1", the third "-2". A link in a fenced code block or a code span is no
link. External links (http, https, mailto) are not fetched, and a link starting
with "/" is an address on the running site (docs/api.md is the top of /api/docs),
not a file.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCUMENTS = [README, *sorted((ROOT / "docs").glob("*.md"))]

FENCE = re.compile(r"^\s*(```|~~~)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
HTML_ANCHOR = re.compile(r"<a\s+(?:name|id)=\"([^\"]+)\"")
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")
DOCS_PATH = re.compile(r"(?<![\w./-])docs/[\w./-]*\w")
MAX_README_LINES = 250


def prose_lines(text: str) -> list[tuple[int, str]]:
    """The lines outside fenced code blocks, numbered from 1."""
    lines, fenced = [], False
    for number, line in enumerate(text.split("\n"), 1):
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            lines.append((number, line))
    return lines


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: `sync` and `update`: the state ->
    sync-and-update-the-state."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text only
    text = re.sub(r"<[^>]+>", "", text).strip().lower()
    return "".join(c for c in text if c.isalnum() or c in " -_").replace(" ", "-")


def anchors(text: str) -> set[str]:
    found: set[str] = set()
    seen: dict[str, int] = {}
    for _number, line in prose_lines(text):
        found.update(HTML_ANCHOR.findall(line))
        heading = HEADING.match(line)
        if not heading:
            continue
        base = slug(heading.group(2))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def links(text: str) -> list[tuple[int, str]]:
    """(line, target) of every inline, image and reference link outside code."""
    found = []
    for number, line in prose_lines(text):
        line = CODE_SPAN.sub("", line)
        found += [(number, target) for target in LINK.findall(line)]
        reference = REFERENCE.match(line)
        if reference:
            found.append((number, reference.group(1)))
    return found


def broken_links(path: Path) -> list[str]:
    """What is wrong with the relative links and anchors of one Markdown file."""
    problems = []
    text = path.read_text()
    for number, target in links(text):
        if not target or SCHEME.match(target) or target.startswith("/"):
            continue
        name, _hash, anchor = target.partition("#")
        linked = (path.parent / unquote(name)).resolve() if name else path
        where = f"{path.name}:{number}: {target}"
        if not linked.exists():
            problems.append(f"{where}: no file {linked}")
        elif anchor and linked.suffix == ".md" and unquote(anchor) not in anchors(linked.read_text()):
            problems.append(f"{where}: no heading in {linked.name} makes #{anchor}")
    return problems


def missing_named_paths(path: Path, root: Path = ROOT) -> list[str]:
    """`docs/...` paths named in code spans that do not exist (from the repository's root)."""
    problems = []
    for number, line in prose_lines(path.read_text()):
        for _ticks, code in CODE_SPAN.findall(line):
            for named in DOCS_PATH.findall(code):
                if not (root / named).exists():
                    problems.append(f"{path.name}:{number}: {named} does not exist")
    return problems


def quick_start_commands(readme: str) -> list[str]:
    """The commands of the first code block under the README's "Quick start"."""
    section = readme.split("\n## Quick start\n", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"^```\w*\n(.*?)^```", section, re.M | re.S)
    assert block, "the quick start shows its commands in a code block"
    commands = (line.split("#", 1)[0].strip() for line in block.group(1).split("\n"))
    return [command for command in commands if command]


def makefile_targets(makefile: str) -> set[str]:
    return {match.group(1) for match in re.finditer(r"^([\w.-]+)\s*:(?!=)", makefile, re.M)}


def ci_commands(script: str) -> list[str]:
    """The commands a CI script runs, without comments, `set` and `cd`."""
    lines = (line.split("#", 1)[0].strip() for line in script.split("\n"))
    return [line for line in lines if line and not line.startswith(("set ", "cd "))]


def quick_start_problems(readme: str, makefile: str, ci_script: str) -> list[str]:
    """A quick start of exactly `make run` and `make test`: targets the Makefile
    has, the test command being what CI runs."""
    shown = quick_start_commands(readme)
    problems = []
    if shown != ["make run", "make test"]:
        problems.append(f"the quick start shows {shown}, not ['make run', 'make test']")
    targets = makefile_targets(makefile)
    for command in shown:
        words = command.split()
        if words[0] != "make" or len(words) != 2 or words[1] not in targets:
            problems.append(f"{command!r} is not a target of the Makefile ({sorted(targets)})")
    if "make test" not in ci_commands(ci_script):
        problems.append(f"CI runs {ci_commands(ci_script)}, not make test")
    return problems


def direct_dependencies(requirements: str) -> list[str]:
    """The packages of requirements.txt's "Direct dependencies" part, extras dropped."""
    direct = requirements.split("Direct dependencies", 1)[1].split("\n# ---", 1)[0]
    names = (line.split("==", 1)[0].strip() for line in direct.split("\n")[1:])
    return [re.sub(r"\[.*\]", "", name) for name in names if name and not name.startswith("#")]


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda path: path.name)
def test_every_relative_link_and_anchor_resolves(path: Path) -> None:
    assert broken_links(path) == []


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda path: path.name)
def test_every_docs_path_named_in_code_exists(path: Path) -> None:
    assert missing_named_paths(path) == []


def test_the_checker_finds_a_link_to_a_missing_file(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "here.md").write_text("# Here\n")
    page = tmp_path / "README.md"
    page.write_text("See [here](docs/here.md) and [there](docs/there.md).\n"
                    "![A picture](docs/screenshots/none.png)\n")
    assert [problem.split(": no file")[0] for problem in broken_links(page)] == [
        "README.md:1: docs/there.md", "README.md:2: docs/screenshots/none.png"]


def test_the_checker_finds_an_anchor_no_heading_makes(tmp_path: Path) -> None:
    (tmp_path / "other.md").write_text("# Other\n\n## Staying in step\n")
    page = tmp_path / "page.md"
    page.write_text("# Page\n\n## Tests\n\n"
                    "[fine](#tests), [fine too](other.md#staying-in-step),\n"
                    "[no such section](#tset), [nor there](other.md#staying-in-time).\n")
    assert broken_links(page) == [
        "page.md:6: #tset: no heading in page.md makes #tset",
        "page.md:6: other.md#staying-in-time: no heading in other.md makes #staying-in-time",
    ]


def test_the_checker_reads_headings_as_github_does(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "# The protocol\n\n"
        "### `sync` and `update`: the state\n\n"
        "## Issue 24's goals: where each ended (2026-11-27, a quiet machine)\n\n"
        "## Tests\n\n## Tests\n\n"
        "```sh\n# a comment, not a heading\n[not a link](#nowhere)\n```\n\n"
        "`[not a link either](#nowhere)`, [outside](https://example.invalid/x), [the site](/api/docs).\n"
        "[a](#sync-and-update-the-state) [b](#issue-24s-goals-where-each-ended-2026-11-27-a-quiet-machine)\n"
        "[c](#tests) [d](#tests-1) [e](#tests-2) [f](#a-comment-not-a-heading)\n")
    assert anchors(page.read_text()) == {
        "the-protocol", "sync-and-update-the-state",
        "issue-24s-goals-where-each-ended-2026-11-27-a-quiet-machine", "tests", "tests-1"}
    assert [problem.split(": ")[1] for problem in broken_links(page)] == ["#tests-2", "#a-comment-not-a-heading"]


def test_the_checker_finds_a_docs_path_that_does_not_exist(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "api.md").write_text("# API\n")
    page = tmp_path / "README.md"
    page.write_text("The guide is `docs/api.md`; the site's side was `docs/notifications-site.md`.\n")
    assert missing_named_paths(page, root=tmp_path) == ["README.md:1: docs/notifications-site.md does not exist"]


def test_the_quick_start_shows_what_ci_runs() -> None:
    problems = quick_start_problems(README.read_text(), (ROOT / "Makefile").read_text(),
                                    (ROOT / ".ci" / "run").read_text())
    assert problems == []


def test_the_quick_start_check_refuses_another_command() -> None:
    readme = ("# x\n\n## Quick start\n\n```sh\nmake serve   # the site\n"
              "python -m pytest    # every test\n```\n\n## Next\n")
    makefile = "run: $(STAMP)\n\t$(PY) scripts/dev.py run\n\ntest: $(STAMP)\n\t$(PY) scripts/dev.py test\n"
    ci_script = "#!/usr/bin/env bash\nset -euo pipefail\ncd \"$(dirname \"$0\")/..\"\nmake check\n"
    assert quick_start_problems(readme, makefile, ci_script) == [
        "the quick start shows ['make serve', 'python -m pytest'], not ['make run', 'make test']",
        "'make serve' is not a target of the Makefile (['run', 'test'])",
        "'python -m pytest' is not a target of the Makefile (['run', 'test'])",
        "CI runs ['make check'], not make test",
    ]


def test_every_direct_dependency_says_why_it_is_there() -> None:
    why = (ROOT / "docs" / "dependencies.md").read_text()
    named = {name.lower() for name in re.findall(r"\*\*([\w.-]+)(?:\[[^\]]*\])?\*\*", why)}
    direct = direct_dependencies((ROOT / "requirements.txt").read_text())
    assert len(direct) > 20
    assert [name for name in direct if name.lower() not in named] == []


def test_the_readme_stays_a_front_page() -> None:
    lines = README.read_text().count("\n")
    assert lines <= MAX_README_LINES, f"README.md has {lines} lines; move the detail into docs/"
