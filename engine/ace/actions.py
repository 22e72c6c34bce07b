"""Actions and their notation (rules page, "Notation").

An action is a small immutable value with a text form, like python-chess's
``Move``::

    >>> a = Action.parse("8D b1xc3")
    >>> str(a), a.card, a.from_square, a.to_square, a.capture
    ('8D b1xc3', '8D', 'b1', 'c3', True)
    >>> Action.parse("KH @f1").kind
    'release'
    >>> Action.parse(str(a)) == a
    True
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field, fields
from typing import Any, Literal, TypedDict

from ..errors import NotationError
from .cards import (
    CARD_INDEX, HOME, PAWN_NAMES, SQUARE_INDEX, SQUARE_NAMES, pawn_of_card,
)

Kind = Literal["move", "release", "burn"]

_TEXT = re.compile(
    r"^(?P<card>10|[2-9AJQK])(?P<suit>[HDSC])\s+"
    r"(?:(?P<from>[a-h][1-8])(?P<sep>[-x])(?P<to>[a-h][1-8])"
    r"|@(?P<rx>x?)(?P<home>[a-h][1-8])"
    r"|(?P<burn>burn))$"
)


# "from" is a Python keyword, hence the functional form.
ActionJSON = TypedDict(
    "ActionJSON",
    {"card": str, "from": str, "to": str, "release": bool, "burn": bool, "capture": bool},
    total=False,
)


@dataclass(frozen=True, slots=True)
class Action:
    """One turn's action: a card and what it does (R7).

    ``kind`` is ``"move"`` (with ``from_square`` and ``to_square``),
    ``"release"`` (``to_square`` is the pawn's home square) or ``"burn"``.
    ``capture`` says whether the action captures (R14); it is part of the text
    (``x``) but :func:`engine.apply` works it out from the position, so a
    capture written as a plain move is still understood.
    """

    card: str
    kind: Kind
    from_square: str | None = None
    to_square: str | None = None
    capture: bool = False
    # Integer forms, for the move generator; derived once here.
    card_index: int = field(init=False, repr=False, compare=False)
    from_index: int = field(init=False, repr=False, compare=False)
    to_index: int = field(init=False, repr=False, compare=False)
    text: str = field(init=False, repr=False, compare=False)
    # Orders actions exactly as their texts sort, but compares faster.
    order: int = field(init=False, repr=False, compare=False)

    def __reduce__(self) -> tuple[type[Action], tuple[object, ...]]:
        # Pickled as its constructor's arguments: a mypyc build cannot restore a frozen
        # class field by field (scripts/mypyc_engine.py).
        return type(self), tuple(getattr(self, f.name) for f in fields(self) if f.init)

    def __post_init__(self) -> None:
        card = CARD_INDEX.get(self.card)
        if card is None:
            raise NotationError.coded("ace-not-a-card", text=repr(self.card))
        set_ = object.__setattr__
        set_(self, "card_index", card)
        set_(self, "from_index", SQUARE_INDEX.get(self.from_square or "", -1))
        set_(self, "to_index", SQUARE_INDEX.get(self.to_square or "", -1))
        self._check_shape()
        set_(self, "text", self._spell())
        set_(self, "order", _order(self.card, self.text))

    def _check_shape(self) -> None:
        if self.kind == "move":
            if self.from_index < 0 or self.to_index < 0:
                raise NotationError.coded("move-needs-squares", card=self.card)
        elif self.from_square is not None:
            raise NotationError.coded("no-from-square", kind=self.kind, card=self.card)
        elif self.kind == "release":
            pawn = pawn_of_card(self.card_index)
            if pawn is None:
                raise NotationError.coded("release-not-face", card=self.card)
            home = SQUARE_NAMES[HOME[pawn]]
            if self.to_square is None:
                object.__setattr__(self, "to_square", home)
                object.__setattr__(self, "to_index", HOME[pawn])
            elif self.to_square != home:
                raise NotationError.coded("release-not-home", card=self.card, square=self.to_square,
                                          pawn_word=PAWN_NAMES[pawn], home=home)
        elif self.kind != "burn":
            raise NotationError.coded("not-a-kind", kind=repr(self.kind))
        elif self.to_square is not None or self.capture:
            raise NotationError.coded("burn-moves-nothing", card=self.card)

    def _spell(self) -> str:
        x = "x" if self.capture else ""
        if self.kind == "move":
            return f"{self.card} {self.from_square}{x or '-'}{self.to_square}"
        if self.kind == "release":
            return f"{self.card} @{x}{self.to_square}"
        return f"{self.card} burn"

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Action.parse({self.text!r})"

    @classmethod
    def parse(cls, text: object) -> Action:  # object: checked below, compiled too
        """Read an action written in the rules' notation.

        Letters may be in either case and spaces may be repeated; anything
        else that is not notation raises :class:`NotationError`.
        """
        if not isinstance(text, str):
            raise NotationError.coded("ace-action-not-text", type=type(text).__name__)
        if cls is Action:
            return _parse_cached(text)
        return cls._parse(text)

    @classmethod
    def _parse(cls, text: str) -> Action:
        m = _TEXT.match(_normalise(text))
        if m is None:
            raise NotationError.coded("ace-not-an-action", text=repr(text.strip()[:40]))
        card = m["card"] + m["suit"]
        if m["burn"]:
            return cls(card, "burn")
        if m["home"]:
            return cls(card, "release", to_square=m["home"], capture=bool(m["rx"]))
        return cls(card, "move", m["from"], m["to"], capture=m["sep"] == "x")

    def to_json(self) -> ActionJSON:
        """The rules' JSON form, with ``"capture": true`` added for a capture."""
        out: ActionJSON = {"card": self.card}
        if self.kind == "move":
            out["from"] = self.from_square or ""
            out["to"] = self.to_square or ""
        elif self.kind == "release":
            out["release"] = True
        else:
            out["burn"] = True
        if self.capture:
            out["capture"] = True
        return out

    @classmethod
    def from_json(cls, data: Any) -> Action:
        """Read the rules' JSON form of an action (or its text, as a string)."""
        if isinstance(data, str):
            return cls.parse(data)
        if not isinstance(data, dict) or not isinstance(data.get("card"), str):
            raise NotationError.coded("ace-json-not-object")
        card = data["card"].upper()
        capture = data.get("capture") is True
        if data.get("burn") is True:
            return cls(card, "burn")
        if data.get("release") is True:
            return cls(card, "release", capture=capture)
        frm, to = data.get("from"), data.get("to")
        if not isinstance(frm, str) or not isinstance(to, str):
            raise NotationError.coded("ace-json-needs-squares", card=card)
        return cls(card, "move", frm.lower(), to.lower(), capture)


# Text order, as a small int (fast to compare): no card's text is a prefix of
# another's, so actions sort as their texts do when ordered by the card's
# text first and then by the rest of the text.
_CARD_RANK = {name: i for i, name in enumerate(sorted(CARD_INDEX))}
_REST_RANK = {rest: i for i, rest in enumerate(sorted(
    [f"{a}{sep}{b}" for a in SQUARE_INDEX for sep in "-x" for b in SQUARE_INDEX]
    + [f"@{x}{sq}" for x in ("", "x") for sq in SQUARE_INDEX]
    + ["burn"]
))}


def _order(card: str, text: str) -> int:
    return _CARD_RANK[card] << 14 | _REST_RANK[text[len(card) + 1:]]


# A stored position names every action played so far, so reading it parses
# the same few hundred texts again and again (docs/performance.md). Actions
# are immutable, so one value can serve every caller; refusals are not cached.
_parse_cached = functools.lru_cache(maxsize=8192)(Action._parse)


def _normalise(text: str) -> str:
    parts = text.split()
    if len(parts) != 2:
        return text
    return f"{parts[0].upper()} {parts[1].lower()}"


__all__ = ["Action", "ActionJSON", "Kind"]
