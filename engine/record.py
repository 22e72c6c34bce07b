"""Game records: who played, the seed commitment, the actions (R19).

A record is setup + seed + action list, like scalachess's ``Replay``:
replaying it from :func:`engine.new_game` rebuilds every position.  It is
written as JSON or as text in the manner of PGN (:class:`RhombusRecord`
is the same for Rhombus, further down)::

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

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Protocol, TypedDict

from . import rhombus
from .ace.actions import Action
from .ace.cards import SEATS
from .ace.rules import apply, outcome
from .ace.state import State, new_game
from .errors import EngineError, RecordError
from .game import RHOMBUS_SEATS
from .shuffle import commitment

# R15, R16 are rules endings the position proves; the rest are R17's (RH27's
# in Rhombus), the site's tournament forfeits and adjudications among them.
RULE_REASONS = ("aces", "points")
PLATFORM_REASONS = ("resignation", "time", "abandonment", "aborted", "no-show", "adjudication")
RESULT_TEXT = {"red": "1-0", "black": "0-1", None: "1/2-1/2"}
# Endings with no winner that are no draw: every side lost (a tournament's
# double no-show, both forfeited). Written 0-0, as arbiters write a double
# forfeit; nothing was played, so nothing is rated.
DOUBLE_FORFEIT_REASONS = frozenset({"no-show"})
BOTH_LOST = "0-0"
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


def both_lost(winner: str | None, reason: str | None) -> bool:
    """Whether an ending with ``winner`` and ``reason`` lost the game for every
    side: no winner, by a forfeit of all (R17, RH27: a double no-show).

    The one place the site decides this: records, pages, profiles, ratings,
    the API and tournaments all ask it.

    >>> both_lost(None, "no-show"), both_lost("red", "no-show"), both_lost(None, "quiet")
    (True, False, False)
    """
    return winner is None and reason in DOUBLE_FORFEIT_REASONS


def result_text(winner: str | None, reason: str | None, first_side: str) -> str:
    """The result as a record writes it, from ``first_side``'s point of view:
    ``1-0``, ``0-1``, ``1/2-1/2``, ``0-0`` (both lost), or ``*`` while running
    or when aborted.

    >>> result_text("NE", "no-pieces", "SW"), result_text(None, "no-show", "red")
    ('0-1', '0-0')
    """
    if reason is None or reason == "aborted":
        return "*"
    if both_lost(winner, reason):
        return BOTH_LOST
    if winner is None:
        return "1/2-1/2"
    return "1-0" if winner == first_side else "0-1"


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
        """``1-0``, ``0-1``, ``1/2-1/2``, ``0-0`` (both lost), or ``*`` while running or when aborted."""
        return result_text(self.winner, self.reason, "red")

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
            raise RecordError.coded("record-not-object")
        if data.get("format", FORMAT) != FORMAT:
            raise RecordError.coded("record-format", format=repr(data.get("format")), known=FORMAT)
        for key in ("red", "black", "commitment", "seed", "winner", "reason"):
            if data.get(key) is not None and not isinstance(data[key], str):
                raise RecordError.coded("record-not-text", key=key)
        headers = data.get("headers") or {}
        actions = data.get("actions", [])
        if not isinstance(headers, dict) or not isinstance(actions, list):
            raise RecordError.coded("record-headers-actions")
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
                    raise RecordError.coded("record-header-line", line=number)
                tags[m["name"]] = _unescape(m["value"])
            elif line:
                body.append(line)
        actions, result = _read_movetext(" ".join(body))
        return _checked(_from_tags(tags, actions, result))


def _checked(record: Record) -> Record:
    if record.reason is not None and record.reason not in RULE_REASONS + PLATFORM_REASONS:
        raise RecordError.coded("record-termination", reason=repr(record.reason))
    if record.winner not in (None, "red", "black"):
        raise RecordError.coded("record-winner", winner=repr(record.winner))
    if not re.fullmatch(r"[0-9a-f]{64}", record.commitment):
        raise RecordError.coded("record-commitment", rule="R19")
    return record


_TAG = re.compile(r'^\[(?P<name>[A-Za-z0-9_]+)\s+"(?P<value>(?:[^"\\]|\\.)*)"\]$')
_RESULTS = {"1-0": "red", "0-1": "black", "1/2-1/2": None, BOTH_LOST: None, "*": None}


_KNOWN_TAGS = ("Game", "Red", "Black", "Commitment", "Seed", "Result", "Termination")


def _check_tags(tags: list[tuple[str, str]], extra: dict[str, str],
                known: tuple[str, ...] = _KNOWN_TAGS) -> None:
    """Refuse what the text form cannot hold, rather than write it wrongly."""
    for name in extra:
        if name in known:
            raise RecordError.coded("record-header-own", name=repr(name))
    for name, value in tags:
        if not re.fullmatch(r"[A-Za-z0-9_]+", name):
            raise RecordError.coded("record-header-name", name=repr(name))
        if len(f"x{value}x".splitlines()) > 1:
            raise RecordError.coded("record-header-break", name=name)


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
        raise RecordError.coded("record-half-action", word=repr(words[-1]))
    return [f"{words[i]} {words[i + 1]}" for i in range(0, len(words), 2)], result


def _from_tags(tags: dict[str, str], actions: list[str], result: str | None) -> Record:
    reason = tags.get("Termination")
    result = tags.get("Result", result or "*")
    if result not in _RESULTS:
        raise RecordError.coded("record-result", result=repr(result))
    if result != "*" and reason is None:
        raise RecordError.coded("record-needs-termination", result=result,
                                reasons=", ".join(RULE_REASONS + PLATFORM_REASONS))
    if result == BOTH_LOST and reason not in DOUBLE_FORFEIT_REASONS:
        raise RecordError.coded("record-both-lost", reasons=", ".join(sorted(DOUBLE_FORFEIT_REASONS)),
                                reason=repr(reason))
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
            raise _at_action(i, e) from None
    return tuple(out)


def _at_action(index: int, error: EngineError) -> RecordError:
    """``action 12 (Black's 6th turn): ...`` for an error in the 12th action of a game."""
    return RecordError.coded("ace-record-action", error, number=index + 1, seat_word=SEATS[index % 2],
                             turn_ordinal=index // 2 + 1, error=str(error))


def replay(record: Record) -> list[State]:
    """Every position of the game, the start first; :class:`RecordError` if it does not replay.

    Checks the seed against the commitment (R19), each action against the
    rules (the first bad one is named), and the recorded result against the
    final position.
    """
    if record.seed is None:
        raise RecordError.coded("record-no-seed", rule="R19")
    if commitment(record.seed) != record.commitment:
        raise RecordError.coded("record-seed-mismatch", rule="R19")
    states = [new_game(record.seed)]
    for i, action in enumerate(record.actions):
        try:
            states.append(apply(states[-1], action))
        except EngineError as e:
            raise _at_action(i, e) from None
    _check_result(record, outcome(states[-1]), RULE_REASONS)
    return states


class _Ending(Protocol):
    """What a record or an outcome says of the end: Ace's and Rhombus's alike."""

    @property
    def winner(self) -> str | None: ...

    @property
    def reason(self) -> str | None: ...


def _check_result(record: _Ending, over: _Ending | None, rule_reasons: tuple[str, ...]) -> None:
    """The record's stated result agrees with how the replayed game ended (either game)."""
    if over is not None and record.reason is not None and (
            record.reason != over.reason or record.winner != over.winner):
        raise RecordError.coded("record-other-ending", said_winner=record.winner or "", said_reason=record.reason,
                                winner=over.winner or "", reason=str(over.reason))
    if over is None and record.reason in rule_reasons:
        raise RecordError.coded("record-still-running", reason=str(record.reason))
    if over is not None and record.reason in PLATFORM_REASONS:
        raise RecordError.coded("record-ended-before", said_reason=str(record.reason),
                                reason=str(over.reason))


def _json_data(text: str) -> Any:
    """A record's JSON form read, or a RecordError saying why it cannot be."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError.coded("record-json", error=str(e)) from None
    except (ValueError, RecursionError):  # a number over 4300 digits; nesting too deep
        raise RecordError.coded("record-json-deep") from None


def read(text: str) -> Record:
    """A record from either of its forms: JSON or text."""
    if text.lstrip().startswith("{"):
        return Record.from_json(_json_data(text))
    return Record.from_text(text)




# -- Rhombus --------------------------------------------------------------------
#
# The same idea for Rhombus (RH30): seats and players, the variant, the
# dealer (RH9, RH28), the commitment, the seed once revealed, and the actions
# as their texts.  Replaying from the seed recomputes the deal and every
# reshuffle, so anyone can recheck the whole game.  Its text form writes one
# action a line, with its seat, as the texts hold spaces and commas::
#
#     [Game "Rhombus"]
#     [Variant "classic"]
#     [SW "alice"]
#     [NE "bob"]
#     [Dealer "NE"]
#     [Commitment "2a97516c..."]
#     [Seed "demo"]
#     [Result "1-0"]
#     [Termination "RH25"]
#
#     1. SW KC a2-b3, QC b1-d2
#     2. NE QS+7S e4xb4
#     1-0
#
# ``1-0`` is a win of the first seat's side (SW, with SW+NE in the team
# game), ``0-1`` of the other side.

RHOMBUS_FORMAT = "rhombus/1"
RHOMBUS_RULE_REASONS = ("RH25", "RH26", "RH27", "RH43")
_RHOMBUS_TAGS = ("Game", "Variant", "SW", "SE", "NE", "NW", "Dealer", "Commitment", "Seed",
                 "Result", "Termination")


class RhombusRecordJSON(TypedDict, total=False):
    format: str
    variant: str
    players: dict[str, str]
    dealer: str
    commitment: str
    seed: str | None
    winner: str | None
    reason: str | None
    headers: dict[str, str]
    actions: list[str]


@dataclass(frozen=True)
class RhombusRecord:
    """A Rhombus game: players by seat, variant, dealer, commitment, seed, actions.

    ``players`` maps each seat to its player's name, in turn order.
    ``winner`` is the winning side as :func:`engine.rhombus.outcome` names
    it (``"SW"``, ``"SW+NE"``), None for a draw or while running; ``reason``
    is None while the game runs.
    """

    commitment: str
    players: dict[str, str]
    variant: str = "classic"
    dealer: str = "NE"
    seed: str | None = None
    actions: tuple[rhombus.Action, ...] = ()
    winner: str | None = None
    reason: str | None = None
    headers: dict[str, str] = field(default_factory=dict)

    @classmethod
    def start(cls, seed: str, players: dict[str, str] | list[str] | tuple[str, ...],
              variant: str = "classic", dealer: str | None = None, **headers: str) -> RhombusRecord:
        """A record for a new game; the seed is kept but not shown until the end (RH30).

        ``players`` is either seat -> name, or the names in the site's order,
        seated by RH9's draw from the seed (the first game of a series).
        The dealer defaults to the last seat, so ``SW`` starts (RH9).
        """
        if not isinstance(players, dict):
            names = list(players)
            seats = _rhombus_seats(len(names))
            players = {seat: names[n] for seat, n in zip(seats, rhombus.seating(seed, len(names)))}
        seats = _rhombus_seats(len(players))
        record = cls(commitment(seed), _seated(players), variant, dealer or seats[-1], seed,
                     headers=dict(headers))
        return _rhombus_checked(record)

    @property
    def seats(self) -> tuple[str, ...]:
        """The seats in turn order (RH3, RH31)."""
        return _rhombus_seats(len(self.players))

    def new_game(self) -> rhombus.State:
        """The first position, from the revealed seed."""
        if self.seed is None:
            raise RecordError.coded("record-no-seed", rule="RH30")
        return rhombus.new_game(self.seed, players=len(self.seats), variant=self.variant, dealer=self.dealer)

    def then(self, action: rhombus.Action) -> RhombusRecord:
        return replace(self, actions=self.actions + (action,))

    def public(self) -> RhombusRecord:
        """The record with the seed withheld while the game is running (RH30)."""
        return self if self.reason is not None else replace(self, seed=None)

    @property
    def result(self) -> str:
        """``1-0`` (the first seat's side won), ``0-1``, ``1/2-1/2``, ``0-0`` (both lost), or ``*``."""
        return result_text(self.winner, self.reason, "+".join(self.seats[0::2]))  # as _side_results names it

    def to_json(self) -> RhombusRecordJSON:
        return {
            "format": RHOMBUS_FORMAT,
            "variant": self.variant,
            "players": dict(self.players),
            "dealer": self.dealer,
            "commitment": self.commitment,
            "seed": self.seed,
            "winner": self.winner,
            "reason": self.reason,
            "headers": dict(self.headers),
            "actions": [str(a) for a in self.actions],
        }

    @classmethod
    def from_json(cls, data: Any) -> RhombusRecord:
        if not isinstance(data, dict):
            raise RecordError.coded("rhombus-record-not-object")
        if data.get("format") != RHOMBUS_FORMAT:
            raise RecordError.coded("rhombus-record-format", format=repr(data.get("format")), known=RHOMBUS_FORMAT)
        for key in ("variant", "dealer", "commitment", "seed", "winner", "reason"):
            if data.get(key) is not None and not isinstance(data[key], str):
                raise RecordError.coded("record-not-text", key=key)
        players, headers, actions = data.get("players"), data.get("headers") or {}, data.get("actions", [])
        if not isinstance(players, dict) or not all(isinstance(v, str) for v in players.values()):
            raise RecordError.coded("record-players")
        if not isinstance(headers, dict) or not isinstance(actions, list):
            raise RecordError.coded("record-headers-actions")
        seats = _rhombus_seats(len(players))
        return _rhombus_checked(cls(
            commitment=data.get("commitment") or "",
            players=_seated(players),
            variant=data.get("variant") or "classic",
            dealer=data.get("dealer") or seats[-1],
            seed=data.get("seed"),
            actions=_rhombus_actions(actions, seats, data.get("dealer") or seats[-1]),
            winner=data.get("winner"),
            reason=data.get("reason"),
            headers={str(k): str(v) for k, v in headers.items()},
        ))

    def to_text(self) -> str:
        tags = [("Game", "Rhombus"), ("Variant", self.variant), *self.players.items(),
                ("Dealer", self.dealer), ("Commitment", self.commitment)]
        if self.seed is not None:
            tags.append(("Seed", self.seed))
        tags.append(("Result", self.result))
        if self.reason is not None:
            tags.append(("Termination", self.reason))
        tags += sorted(self.headers.items())
        _check_tags(tags, self.headers, _RHOMBUS_TAGS)
        lines = [f'[{k} "{_escape(v)}"]' for k, v in tags]
        order = _turn_order(self.seats, self.dealer)
        moves = [f"{i + 1}. {order(i)} {a}" for i, a in enumerate(self.actions)]
        return "\n".join(lines) + "\n\n" + "\n".join(moves + [self.result]) + "\n"

    @classmethod
    def from_text(cls, text: str) -> RhombusRecord:
        tags: dict[str, str] = {}
        moves: list[tuple[int, str]] = []
        result = None
        for number, line in enumerate(text.splitlines(), 1):
            line = line.strip()
            if line.startswith("["):
                m = _TAG.match(line)
                if m is None:
                    raise RecordError.coded("record-header-line", line=number)
                tags[m["name"]] = _unescape(m["value"])
            elif line in _RESULTS:
                result = line
            elif line:
                moves.append((number, line))
        return _rhombus_checked(_rhombus_from_tags(tags, moves, result))


def _rhombus_seats(players: int) -> tuple[str, ...]:
    if players not in RHOMBUS_SEATS:
        raise RecordError.coded("record-player-count", players=players)
    return RHOMBUS_SEATS[players]


def _seated(players: dict[str, str]) -> dict[str, str]:
    """``players`` in turn order; :class:`RecordError` unless the seats are those of RH3/RH31."""
    seats = _rhombus_seats(len(players))
    if set(players) != set(seats):
        raise RecordError.coded("record-seats", seats=", ".join(seats))
    return {seat: players[seat] for seat in seats}


def _side_results(seats: tuple[str, ...]) -> dict[str | None, str]:
    """``{"SW": "1-0", "NE": "0-1"}``, or by team names with four seats (RH31)."""
    return {"+".join(seats[first::2]): text for first, text in ((0, "1-0"), (1, "0-1"))}


def _turn_order(seats: tuple[str, ...], dealer: str) -> Callable[[int], str]:
    """The seat that makes action i (0-based): the one after the dealer first (RH9, RH31)."""
    first = seats.index(dealer) + 1 if dealer in seats else 0
    return lambda i: seats[(first + i) % len(seats)]


def _rhombus_checked(record: RhombusRecord) -> RhombusRecord:
    seats = record.seats
    if set(record.players) != set(seats):
        raise RecordError.coded("record-seats", seats=", ".join(seats))
    if record.dealer not in seats:
        raise RecordError.coded("record-dealer", seats=", ".join(seats), dealer=repr(record.dealer))
    if record.reason is not None and record.reason not in RHOMBUS_RULE_REASONS + PLATFORM_REASONS:
        raise RecordError.coded("record-termination", reason=repr(record.reason))
    if record.winner is not None and record.winner not in _side_results(seats):
        raise RecordError.coded("rhombus-record-winner", winners=" or ".join(map(str, _side_results(seats))),
                                winner=repr(record.winner))
    if not re.fullmatch(r"[0-9a-f]{64}", record.commitment):
        raise RecordError.coded("record-commitment", rule="RH30")
    return record


def _rhombus_from_tags(tags: dict[str, str], moves: list[tuple[int, str]],
                       result: str | None) -> RhombusRecord:
    if tags.get("Game", "Rhombus") != "Rhombus":
        raise RecordError.coded("record-other-game", game=repr(tags["Game"]))
    players = {seat: tags[seat] for seat in RHOMBUS_SEATS[4] if seat in tags}
    seats = _rhombus_seats(len(players))
    dealer = tags.get("Dealer", seats[-1])
    reason = tags.get("Termination")
    result = tags.get("Result", result or "*")
    if result not in _RESULTS:
        raise RecordError.coded("record-result", result=repr(result))
    if result != "*" and reason is None:
        raise RecordError.coded("record-needs-termination", result=result,
                                reasons=", ".join(RHOMBUS_RULE_REASONS + PLATFORM_REASONS))
    if result == BOTH_LOST and reason not in DOUBLE_FORFEIT_REASONS:
        raise RecordError.coded("record-both-lost", reasons=", ".join(sorted(DOUBLE_FORFEIT_REASONS)),
                                reason=repr(reason))
    winners = {text: side for side, text in _side_results(seats).items()}
    return RhombusRecord(
        commitment=tags.get("Commitment", ""),
        players=_seated(players),
        variant=tags.get("Variant", "classic"),
        dealer=dealer,
        seed=tags.get("Seed"),
        actions=_rhombus_actions(_movetext_lines(moves, seats, dealer), seats, dealer),
        winner=winners.get(result),
        reason=reason,
        headers={k: v for k, v in tags.items() if k not in _RHOMBUS_TAGS},
    )


_MOVE_LINE = re.compile(r"^(?P<n>\d+)\.\s+(?P<seat>SW|SE|NE|NW)\s+(?P<text>\S.*)$")


def _movetext_lines(moves: list[tuple[int, str]], seats: tuple[str, ...], dealer: str) -> list[str]:
    """The action texts of ``N. SEAT TEXT`` lines, numbered in order, seats in turn order."""
    order = _turn_order(seats, dealer)
    texts = []
    for i, (number, line) in enumerate(moves):
        m = _MOVE_LINE.match(line)
        if m is None:
            raise RecordError.coded("record-action-line", line=number, example=f"{i + 1}. {order(i)} KC b1-b3")
        if int(m["n"]) != i + 1 or m["seat"] != order(i):
            raise RecordError.coded("record-action-order", line=number, number=i + 1, seat=order(i),
                                    found=f"{m['n']}. {m['seat']}")
        texts.append(m["text"])
    return texts


def _rhombus_actions(texts: list[Any], seats: tuple[str, ...], dealer: str) -> tuple[rhombus.Action, ...]:
    out = []
    for i, text in enumerate(texts):
        try:
            out.append(rhombus.Action.from_json(text))
        except EngineError as e:
            raise _rhombus_at_action(i, seats, dealer, e) from None
    return tuple(out)


def _rhombus_at_action(index: int, seats: tuple[str, ...], dealer: str, error: EngineError) -> RecordError:
    """``action 12 (NE's 6th turn): ...`` for an error in the 12th action of a 2-player game."""
    return RecordError.coded("rhombus-record-action", error, number=index + 1, seat=_turn_order(seats, dealer)(index),
                             turn_ordinal=index // len(seats) + 1, error=str(error))


def replay_rhombus(record: RhombusRecord) -> list[rhombus.State]:
    """Every position of a Rhombus game, the start first; :class:`RecordError` if it does not replay.

    Checks the seed against the commitment (RH30), each action against the
    rules (the first bad one is named), and the recorded result against the
    final position.  The deal and every reshuffle come from the seed, so the
    positions are exactly the ones played.
    """
    if record.seed is None:
        raise RecordError.coded("record-no-seed", rule="RH30")
    if commitment(record.seed) != record.commitment:
        raise RecordError.coded("record-seed-mismatch", rule="RH30")
    try:
        states = [record.new_game()]
    except (ValueError, NotImplementedError) as e:
        raise RecordError.coded("record-setup", e if isinstance(e, EngineError) else None, error=str(e)) from None
    try:
        for state in rhombus.walk(states[0], record.actions):  # each action checked once, as written
            states.append(state)
    except EngineError as e:
        raise _rhombus_at_action(len(states) - 1, record.seats, record.dealer, e) from None
    _check_result(record, rhombus.outcome(states[-1]), RHOMBUS_RULE_REASONS)
    return states


def read_rhombus(text: str) -> RhombusRecord:
    """A Rhombus record from either of its forms: JSON or text."""
    if text.lstrip().startswith("{"):
        return RhombusRecord.from_json(_json_data(text))
    return RhombusRecord.from_text(text)


__all__ = ["Record", "RecordJSON", "RhombusRecord", "RhombusRecordJSON", "SEATS", "read", "read_rhombus",
           "replay", "replay_rhombus"]
