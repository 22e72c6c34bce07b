"""Game records: who played, the seed commitment, the actions (R19).

A record is setup + seed + action list, like scalachess's ``Replay``:
replaying it from :func:`engine.new_game` rebuilds every position.  It is
written as JSON or as text in the manner of PGN::

    [Game "Ace in the Hole"]
    [Red "alice"]
    [Black "bob"]
    [Commitment "2a97516c..."]
    [Seed "demo"]
    [Result "1-0"]
    [Termination "points"]

    1. 3H e1-e4 9C burn
    2. KH f1-f2 ...
    1-0
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any, TypedDict

from .actions import Action
from .cards import SEAT_NAMES, SEATS
from .errors import EngineError, RecordError
from .rules import apply, outcome
from .shuffle import commitment
from .state import State, new_game

# R15, R16 are rules endings the position proves; the rest are R17's.
RULE_REASONS = ("aces", "points")
PLATFORM_REASONS = ("resignation", "time", "abandonment", "aborted")
RESULT_TEXT = {"red": "1-0", "black": "0-1", None: "1/2-1/2"}
FORMAT = "ace-in-the-hole/1"


class RecordJSON(TypedDict, total=False):
    format: str
    red: str
    black: str
    commitment: str
    seed: str | None
    winner: str | None
    reason: str | None
    headers: dict[str, str]
    actions: list[str]


@dataclass(frozen=True)
class Record:
    """A game: players, commitment, the seed once revealed, and the actions.

    ``reason`` is None while the game runs; then ``winner`` is meaningless.
    ``headers`` holds anything else worth keeping (event, date, time control).
    """

    commitment: str
    red: str = "Red"
    black: str = "Black"
    seed: str | None = None
    actions: tuple[Action, ...] = ()
    winner: str | None = None
    reason: str | None = None
    headers: dict[str, str] = field(default_factory=dict)

    @classmethod
    def start(cls, seed: str, red: str = "Red", black: str = "Black", **headers: str) -> Record:
        """A record for a new game: the seed is kept but not shown until the end."""
        return cls(commitment(seed), red, black, seed, headers=dict(headers))

    def then(self, action: Action) -> Record:
        return replace(self, actions=self.actions + (action,))

    def public(self) -> Record:
        """The record with the seed withheld while the game is running (R18, R19)."""
        return self if self.reason is not None else replace(self, seed=None)

    @property
    def result(self) -> str:
        """``1-0``, ``0-1``, ``1/2-1/2``, or ``*`` while running or when aborted."""
        if self.reason is None or self.reason == "aborted":
            return "*"
        return RESULT_TEXT[self.winner]

    def to_json(self) -> RecordJSON:
        return {
            "format": FORMAT,
            "red": self.red,
            "black": self.black,
            "commitment": self.commitment,
            "seed": self.seed,
            "winner": self.winner,
            "reason": self.reason,
            "headers": dict(self.headers),
            "actions": [str(a) for a in self.actions],
        }

    @classmethod
    def from_json(cls, data: Any) -> Record:
        if not isinstance(data, dict):
            raise RecordError("a record is a JSON object with commitment and actions")
        if data.get("format", FORMAT) != FORMAT:
            raise RecordError(f"unknown record format {data.get('format')!r}; this engine reads {FORMAT}")
        for key in ("red", "black", "commitment", "seed", "winner", "reason"):
            if data.get(key) is not None and not isinstance(data[key], str):
                raise RecordError(f"{key} must be text")
        headers = data.get("headers") or {}
        actions = data.get("actions", [])
        if not isinstance(headers, dict) or not isinstance(actions, list):
            raise RecordError("headers must be an object and actions a list")
        return _checked(cls(
            commitment=data.get("commitment") or "",
            red=data.get("red") or "Red",
            black=data.get("black") or "Black",
            seed=data.get("seed"),
            actions=_parse_actions(actions),
            winner=data.get("winner"),
            reason=data.get("reason"),
            headers={str(k): str(v) for k, v in headers.items()},
        ))

    def to_text(self) -> str:
        tags = [("Game", "Ace in the Hole"), ("Red", self.red), ("Black", self.black),
                ("Commitment", self.commitment)]
        if self.seed is not None:
            tags.append(("Seed", self.seed))
        tags.append(("Result", self.result))
        if self.reason is not None:
            tags.append(("Termination", self.reason))
        tags += sorted(self.headers.items())
        _check_tags(tags, self.headers)
        lines = [f'[{k} "{_escape(v)}"]' for k, v in tags]
        return "\n".join(lines) + "\n\n" + _movetext(self.actions, self.result) + "\n"

    @classmethod
    def from_text(cls, text: str) -> Record:
        tags: dict[str, str] = {}
        body = []
        for number, line in enumerate(text.splitlines(), 1):
            line = line.strip()
            if line.startswith("["):
                m = _TAG.match(line)
                if m is None:
                    raise RecordError(f"line {number}: a header is written [Name \"value\"]")
                tags[m["name"]] = _unescape(m["value"])
            elif line:
                body.append(line)
        actions, result = _read_movetext(" ".join(body))
        return _checked(_from_tags(tags, actions, result))


def _checked(record: Record) -> Record:
    if record.reason is not None and record.reason not in RULE_REASONS + PLATFORM_REASONS:
        raise RecordError(f"unknown termination {record.reason!r}")
    if record.winner not in (None, "red", "black"):
        raise RecordError(f"winner must be red, black or none, not {record.winner!r}")
    if not re.fullmatch(r"[0-9a-f]{64}", record.commitment):
        raise RecordError("the commitment must be a SHA-256 in hex (64 characters) (R19)")
    return record


_TAG = re.compile(r'^\[(?P<name>[A-Za-z0-9_]+)\s+"(?P<value>(?:[^"\\]|\\.)*)"\]$')
_RESULTS = {"1-0": "red", "0-1": "black", "1/2-1/2": None, "*": None}


_KNOWN_TAGS = ("Game", "Red", "Black", "Commitment", "Seed", "Result", "Termination")


def _check_tags(tags: list[tuple[str, str]], extra: dict[str, str]) -> None:
    """Refuse what the text form cannot hold, rather than write it wrongly."""
    for name in extra:
        if name in _KNOWN_TAGS:
            raise RecordError(f"the header {name!r} is written by the record itself")
    for name, value in tags:
        if not re.fullmatch(r"[A-Za-z0-9_]+", name):
            raise RecordError(f"a header name is letters, digits and _ only, not {name!r}")
        if len(f"x{value}x".splitlines()) > 1:
            raise RecordError(f"the {name} header cannot hold a line break")


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def _movetext(actions: tuple[Action, ...], result: str) -> str:
    lines = []
    for turn in range(0, len(actions), 2):
        pair = " ".join(str(a) for a in actions[turn:turn + 2])
        lines.append(f"{turn // 2 + 1}. {pair}")
    lines.append(result)
    return "\n".join(lines)


def _read_movetext(text: str) -> tuple[list[str], str | None]:
    tokens = text.split()
    result = tokens.pop() if tokens and tokens[-1] in _RESULTS else None
    words = [t for t in tokens if not re.fullmatch(r"\d+\.", t)]
    if len(words) % 2:
        raise RecordError(f"the moves end in a half action: {words[-1]!r}")
    return [f"{words[i]} {words[i + 1]}" for i in range(0, len(words), 2)], result


def _from_tags(tags: dict[str, str], actions: list[str], result: str | None) -> Record:
    reason = tags.get("Termination")
    result = tags.get("Result", result or "*")
    if result not in _RESULTS:
        raise RecordError(f"unknown result {result!r}: write 1-0, 0-1, 1/2-1/2 or *")
    if result != "*" and reason is None:
        raise RecordError(f"the result {result} needs a Termination header saying how the game "
                          f"ended: {', '.join(RULE_REASONS + PLATFORM_REASONS)}")
    return Record(
        commitment=tags.get("Commitment", ""),
        red=tags.get("Red", "Red"),
        black=tags.get("Black", "Black"),
        seed=tags.get("Seed"),
        actions=_parse_actions(actions),
        winner=_RESULTS[result],
        reason=reason,
        headers={k: v for k, v in tags.items() if k not in _KNOWN_TAGS},
    )


def _parse_actions(texts: list[Any]) -> tuple[Action, ...]:
    out = []
    for i, text in enumerate(texts):
        try:
            out.append(Action.from_json(text))
        except EngineError as e:
            raise RecordError(f"{_where(i)}: {e}") from None
    return tuple(out)


def _where(index: int) -> str:
    """``action 12 (Black's 6th turn)`` for the 12th action of a game."""
    turn = index // 2 + 1
    suffix = "th" if 10 <= turn % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(turn % 10, "th")
    return f"action {index + 1} ({SEAT_NAMES[index % 2]}'s {turn}{suffix} turn)"


def replay(record: Record) -> list[State]:
    """Every position of the game, the start first; :class:`RecordError` if it does not replay.

    Checks the seed against the commitment (R19), each action against the
    rules (the first bad one is named), and the recorded result against the
    final position.
    """
    if record.seed is None:
        raise RecordError("the seed is not revealed yet, so the game cannot be replayed (R19)")
    if commitment(record.seed) != record.commitment:
        raise RecordError("the seed does not match the commitment: SHA-256 of the seed differs (R19)")
    states = [new_game(record.seed)]
    for i, action in enumerate(record.actions):
        try:
            states.append(apply(states[-1], action))
        except EngineError as e:
            raise RecordError(f"{_where(i)}: {e}") from None
    _check_result(record, states[-1])
    return states


def _check_result(record: Record, final: State) -> None:
    over = outcome(final)
    if over is not None and record.reason is not None and (
            record.reason != over.reason or record.winner != over.winner):
        said = f"{record.winner or 'nobody'} by {record.reason}"
        raise RecordError(f"the record says {said}, but the game ended with "
                          f"{over.winner or 'nobody'} winning by {over.reason}")
    if over is None and record.reason in RULE_REASONS:
        raise RecordError(f"the record says the game ended by {record.reason}, but it is still running")
    if over is not None and record.reason in PLATFORM_REASONS:
        raise RecordError(f"the record says {record.reason}, but the game had already ended by {over.reason}")


def read(text: str) -> Record:
    """A record from either of its forms: JSON or text."""
    import json
    if text.lstrip().startswith("{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise RecordError(f"not valid JSON: {e}") from None
        except (ValueError, RecursionError):  # a number over 4300 digits; nesting too deep
            raise RecordError("not valid JSON: a number too long or nesting too deep") from None
        return Record.from_json(data)
    return Record.from_text(text)


__all__ = ["Record", "RecordJSON", "SEATS", "read", "replay"]
