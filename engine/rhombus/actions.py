"""Rhombus actions and their notation (rules page, "Notation", N1-N5).

An action is a small immutable value with a text form, like python-chess's
``Move``.  Reading checks only the notation; whether the action is legal is
the rules' business (:mod:`engine.rhombus.rules`)::

    >>> a = Action.parse("QH+7H c2xc5")
    >>> str(a), a.uses[0].kill, a.to_json()
    ('QH+7H c2xc5', '7H', {'uses': [{'card': 'QH', 'kill': '7H', 'from': 'c2', 'to': 'c5'}]})
    >>> str(Action.parse("react as ad ah"))
    'react AD AH AS'
    >>> Action.from_json({"uses": [{"card": "8S", "mystery": "QD"}]}).text
    '8S mystery QD'
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field, fields
from typing import Any, Literal, TypedDict

from ..errors import NotationError
from .cards import CARD_INDEX, SQUARE_INDEX

Kind = Literal["uses", "elim", "react", "entry", "discard"]

_CARD = r"(?:10|[6-9JQKA])[CDHS]"
_SQ = r"[a-e][1-5]"
_USE = re.compile(
    rf"^(?P<card>{_CARD})(?:\+(?P<kill>{_CARD}))?\s+"
    rf"(?:(?P<from>{_SQ})(?P<sep>[-x])(?P<to>{_SQ})"
    rf"|@(?P<ex>x?)(?P<enter>{_SQ})"
    rf"|(?P<zero>0)"
    rf"|(?P<mystery>mystery)(?:\s+(?P<taken>{_CARD}))?)$"
)
_ELIM = re.compile(rf"^elim\s+({_CARD})\s+({_CARD})\s+({_CARD})\s+({_SQ})x({_SQ})$", re.I)
_REACT = re.compile(rf"^react\s+({_CARD})\s+({_CARD})\s+({_CARD})$", re.I)
_ENTRY = re.compile(rf"^entry\s+({_CARD})\s+({_CARD})\s+({_CARD})\s+({_CARD})\s+@x({_SQ})$", re.I)
_DISCARD = re.compile(rf"^discard\s+({_CARD}(?:\s*,?\s*{_CARD}){{0,3}})$", re.I)

UseJSON = TypedDict(
    "UseJSON",
    {"card": str, "kill": str, "from": str, "to": str, "enter": str, "zero": bool, "mystery": str | None},
    total=False,
)
ActionJSON = TypedDict(
    "ActionJSON",
    {
        "uses": list[UseJSON], "eliminator": list[str], "from": str, "to": str, "reactivate": list[str],
        "entryliminator": list[str], "discard": list[str],
    },
    total=False,
)


def _card(name: str) -> str:
    name = name.upper()
    if name not in CARD_INDEX:
        raise NotationError.coded("rhombus-not-a-card", text=repr(name))
    return name


def _square(name: str) -> str:
    name = name.lower()
    if name not in SQUARE_INDEX:
        raise NotationError.coded("rhombus-not-a-square", text=repr(name))
    return name


def card_order(names: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """Cards in RH5's order, rank then suit C D H S (N5)."""
    return tuple(sorted(names, key=CARD_INDEX.__getitem__))


def entry_order(names: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """An Entryliminator's cards: a 9 first, then the others in card order (N5)."""
    nines = [n for n in names if n.startswith("9")]
    first = nines[0] if nines else names[0]
    rest = list(names)
    rest.remove(first)
    return (first, *card_order(rest))


@dataclass(frozen=True, slots=True)
class Use:
    """One card's use inside an action (RH11).

    Exactly one of: a move (``frm``/``to``, with ``kill`` for a kill), an
    entry (``enter``, with ``kill`` for an Entry-Kill), ``zero``, or
    ``mystery`` (with ``taken``, the table card taken into the hand).
    """

    card: str
    kill: str | None = None
    frm: str | None = None
    to: str | None = None
    enter: str | None = None
    zero: bool = False
    mystery: bool = False
    taken: str | None = None

    def __reduce__(self) -> tuple[type[Use], tuple[object, ...]]:
        # Pickled as its constructor's arguments: a mypyc build cannot restore a frozen
        # class field by field (scripts/mypyc_engine.py).
        return type(self), tuple(getattr(self, f.name) for f in fields(self) if f.init)

    @property
    def text(self) -> str:
        head = f"{self.card}+{self.kill}" if self.kill else self.card
        if self.frm is not None:
            return f"{head} {self.frm}{'x' if self.kill else '-'}{self.to}"
        if self.enter is not None:
            return f"{head} @{'x' if self.kill else ''}{self.enter}"
        if self.mystery:
            return f"{head} mystery {self.taken}" if self.taken else f"{head} mystery"
        return f"{head} 0"

    def to_json(self) -> UseJSON:
        out: UseJSON = {"card": self.card}
        if self.kill:
            out["kill"] = self.kill
        if self.frm is not None and self.to is not None:
            out["from"], out["to"] = self.frm, self.to
        elif self.enter is not None:
            out["enter"] = self.enter
        elif self.mystery:
            out["mystery"] = self.taken
        else:
            out["zero"] = True
        return out


@dataclass(frozen=True, slots=True)
class Action:
    """A whole action (RH10): uses, an Eliminator, a reactivation, or in
    Formation an Entryliminator (RH46) or a discard (RH47, RH48).

    ``cards`` are the Eliminator's, reactivation's or discard's cards in
    card order (the Entryliminator's 9 first, N5); ``frm``/``to`` are the
    Eliminator's squares, ``to`` the Entryliminator's start square.  ``text`` is the action as
    written; for a legal action it is the canonical text (N1).
    """

    kind: Kind
    uses: tuple[Use, ...] = ()
    cards: tuple[str, ...] = ()
    frm: str | None = None
    to: str | None = None
    text: str = field(init=False, compare=False)

    def __reduce__(self) -> tuple[type[Action], tuple[object, ...]]:
        # Pickled as its constructor's arguments: a mypyc build cannot restore a frozen
        # class field by field (scripts/mypyc_engine.py).
        return type(self), tuple(getattr(self, f.name) for f in fields(self) if f.init)

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", self._spell())

    def _spell(self) -> str:
        if self.kind == "uses":
            return ", ".join(u.text for u in self.uses)
        if self.kind == "elim":
            return f"elim {' '.join(self.cards)} {self.frm}x{self.to}"
        if self.kind == "entry":
            return f"entry {' '.join(self.cards)} @x{self.to}"
        if self.kind == "discard":
            return f"discard {', '.join(self.cards)}"
        return f"react {' '.join(self.cards)}"

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Action.parse({self.text!r})"

    def all_cards(self) -> tuple[str, ...]:
        """Every card the action takes from the player's places."""
        if self.kind != "uses":
            return self.cards
        return tuple(c for u in self.uses for c in (u.card, u.kill) if c)

    @classmethod
    def parse(cls, text: object) -> Action:  # object: checked below, compiled too
        """Read an action in the rules' notation (any case, spaces repeated)."""
        if not isinstance(text, str):
            raise NotationError.coded("rhombus-action-not-text", type=type(text).__name__)
        return _parse_cached(" ".join(text.split()))

    def to_json(self) -> ActionJSON:
        """The rules page's JSON form."""
        if self.kind == "uses":
            return {"uses": [u.to_json() for u in self.uses]}
        if self.kind == "elim":
            return {"eliminator": list(self.cards), "from": self.frm or "", "to": self.to or ""}
        if self.kind == "entry":
            return {"entryliminator": list(self.cards), "to": self.to or ""}
        if self.kind == "discard":
            return {"discard": list(self.cards)}
        return {"reactivate": list(self.cards)}

    @classmethod
    def from_json(cls, data: Any) -> Action:
        """Read the JSON form (or the text, given as a string)."""
        if isinstance(data, str):
            return cls.parse(data)
        if not isinstance(data, dict):
            raise NotationError.coded("rhombus-json-not-object")
        if "eliminator" in data:
            cards = _json_cards(data["eliminator"], 3, "eliminator")
            return cls("elim", cards=card_order(cards), frm=_json_square(data, "from"), to=_json_square(data, "to"))
        if "reactivate" in data:
            return cls("react", cards=card_order(_json_cards(data["reactivate"], 3, "reactivate")))
        if "entryliminator" in data:
            cards = _json_cards(data["entryliminator"], 4, "entryliminator")
            return cls("entry", cards=entry_order(cards), to=_json_square(data, "to"))
        if "discard" in data:
            value = data["discard"]
            n = len(value) if isinstance(value, list) and 1 <= len(value) <= 4 else 1
            return cls("discard", cards=card_order(_json_cards(value, n, "discard")))
        uses = data.get("uses")
        if not isinstance(uses, list) or not uses:
            raise NotationError.coded("rhombus-json-no-uses")
        return cls("uses", uses=tuple(_json_use(u) for u in uses))


def _json_cards(value: Any, n: int, key: str) -> list[str]:
    if not isinstance(value, list) or len(value) != n or not all(isinstance(c, str) for c in value):
        raise NotationError.coded("json-card-list", key=key, count=n)
    return [_card(c) for c in value]


def _json_square(data: dict[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise NotationError.coded("json-square", key=key)
    return _square(value)


def _json_use(data: Any) -> Use:
    if not isinstance(data, dict) or not isinstance(data.get("card"), str):
        raise NotationError.coded("json-use-not-object")
    card = _card(data["card"])
    kill = data.get("kill")
    if kill is not None and not isinstance(kill, str):
        raise NotationError.coded("json-kill-card")
    kill = _card(kill) if kill else None
    if "from" in data or "to" in data:
        return Use(card, kill, frm=_json_square(data, "from"), to=_json_square(data, "to"))
    if "enter" in data:
        return Use(card, kill, enter=_json_square(data, "enter"))
    if "mystery" in data:
        taken = data["mystery"]
        if taken is not None and not isinstance(taken, str):
            raise NotationError.coded("json-mystery")
        return _checked(Use(card, kill, mystery=True, taken=_card(taken) if taken else None))
    if data.get("zero") is True:
        return _checked(Use(card, kill, zero=True))
    raise NotationError.coded("json-use-needs", card=card)


def _checked(use: Use) -> Use:
    if use.kill:
        raise NotationError.coded("kill-joins-move", card=use.card, kill=use.kill)
    return use


def _parse(text: str) -> Action:
    lowered = text.lower()
    if lowered.startswith("elim"):
        m = _ELIM.match(text)
        if m is None:
            raise NotationError.coded("not-an-eliminator", text=repr(text[:60]))
        return Action("elim", cards=card_order([_card(c) for c in m.groups()[:3]]), frm=m[4].lower(), to=m[5].lower())
    if lowered.startswith("react"):
        m = _REACT.match(text)
        if m is None:
            raise NotationError.coded("not-a-reactivation", text=repr(text[:60]))
        return Action("react", cards=card_order([_card(c) for c in m.groups()]))
    if lowered.startswith("entry"):
        m = _ENTRY.match(text)
        if m is None:
            raise NotationError.coded("not-an-entryliminator", text=repr(text[:60]))
        return Action("entry", cards=entry_order([_card(c) for c in m.groups()[:4]]), to=m[5].lower())
    if lowered.startswith("discard"):
        m = _DISCARD.match(text)
        if m is None:
            raise NotationError.coded("not-a-discard", text=repr(text[:60]))
        return Action("discard", cards=card_order([_card(c) for c in re.findall(_CARD, m[1], re.I)]))
    return Action("uses", uses=tuple(_parse_use(part.strip()) for part in text.split(",")))


def _parse_use(text: str) -> Use:
    words = text.split(" ")
    if len(words) >= 2:  # cards upper case, the rest (squares, keywords) lower case
        text = " ".join([words[0].upper(), *[w.lower() for w in words[1:2]], *[w.upper() for w in words[2:]]])
    m = _USE.match(text)
    if m is None:
        raise NotationError.coded("not-a-use", text=repr(text[:40]))
    card, kill = m["card"], m["kill"]
    if m["from"]:
        if (m["sep"] == "x") != bool(kill):
            raise NotationError.coded("kill-spelling", text=repr(text))
        return Use(card, kill, frm=m["from"], to=m["to"])
    if m["enter"]:
        if bool(m["ex"]) != bool(kill):
            raise NotationError.coded("entry-kill-spelling", text=repr(text))
        return Use(card, kill, enter=m["enter"])
    if m["mystery"]:
        return _checked(Use(card, kill, mystery=True, taken=m["taken"]))
    return _checked(Use(card, kill, zero=True))


@functools.lru_cache(maxsize=8192)
def from_canonical(text: str) -> Action:
    """An action from a text the engine itself wrote (a legal action's canonical text).

    No checks and no regular expressions: the search lists hundreds of
    texts per position, and reading them back is on every move's path.
    """
    words = text.split(" ")
    if words[0] == "elim":
        return Action("elim", cards=tuple(words[1:4]), frm=words[4][:2], to=words[4][3:])
    if words[0] == "react":
        return Action("react", cards=tuple(words[1:4]))
    if words[0] == "entry":
        return Action("entry", cards=tuple(words[1:5]), to=words[5][2:])
    if words[0] == "discard":
        return Action("discard", cards=tuple(text[8:].split(", ")))
    # A listing of a Formation flush builds tens of thousands of these (issue 24): the uses
    # repeat from action to action, and the text is the one the uses spell (N1), so neither
    # is made again.
    uses = tuple(map(_canonical_use, text.split(", ")))
    if not _BARE:
        return Action("uses", uses)
    action = object.__new__(Action)
    for name, value in (("kind", "uses"), ("uses", uses), ("cards", ()), ("frm", None), ("to", None),
                        ("text", text)):
        object.__setattr__(action, name, value)
    return action


def _bare_actions() -> bool:
    """Whether an Action can be made without its ``__init__``: not once mypyc compiled
    this module (``scripts/mypyc_engine.py``), whose classes refuse ``object.__new__``."""
    try:
        object.__new__(Action)
    except TypeError:
        return False
    return True


_BARE = _bare_actions()


@functools.lru_cache(maxsize=1 << 14)
def _canonical_use(text: str) -> Use:
    head, _, rest = text.partition(" ")
    card, _, kill = head.partition("+")
    if rest == "0":
        return Use(card, zero=True)
    if rest.startswith("mystery"):
        return Use(card, mystery=True, taken=rest[8:] or None)
    if rest[0] == "@":
        return Use(card, kill or None, enter=rest[-2:])
    return Use(card, kill or None, frm=rest[:2], to=rest[3:])


# Refusals are not cached (they raise); legal texts repeat across a playout.
_parse_cached = functools.lru_cache(maxsize=8192)(_parse)

__all__ = ["Action", "ActionJSON", "Kind", "Use", "UseJSON", "card_order", "entry_order", "from_canonical"]
