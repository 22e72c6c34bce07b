"""Building an action use by use, without listing the position (issue 24).

A Formation flush of four movers on an open board has tens of thousands of
legal actions (N1); listing them costs seconds of CPU.  A player does not
need them all: they pick cards, then make the uses one after another (RH11).
This module answers the questions such a builder asks, each with a search
that stops at the first completion it finds:

- :func:`card_sets`: which card sets have at least one legal action;
- :func:`options`: with those cards chosen and some uses made, which next
  uses can still complete a legal action, and which whole actions (an
  Eliminator, a reactivation, an Entryliminator, a discard) the cards make;
- :func:`canonical`: the canonical text (N1) of one outcome, found by a
  search aimed at that outcome instead of listing its card set.

Each answers exactly what :func:`engine.rhombus.rules.legal` implies
(``tests/engine/rhombus/test_builder.py`` checks it against the full list).

    >>> from engine.rhombus import new_game
    >>> s = new_game("demo")
    >>> card_sets(s)
    (('8D',), ('10S',), ('KC',))
    >>> options(s, ["KC"], []).uses[:3]
    ('KC a2-a4', 'KC a2-b3', 'KC a2-c2')
    >>> options(s, ["KC"], ["KC a2-a4"])
    Options(uses=(), actions=())
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import NamedTuple

from ..errors import NotationError
from .actions import Action
from .cards import CARD_INDEX, CARD_NAMES, START
from .search import (
    RESERVE, Key, Masks, Search, mystery_choices, pack, start_play, table_places_after, use_combinations,
)
from .state import FORMATION, State, plays_for

Accept = Callable[[int], bool]


class Options(NamedTuple):
    """The next uses (texts, string order) that can still complete a legal action, and the whole
    actions of exactly the chosen cards that are not made of uses (only before the first use)."""

    uses: tuple[str, ...]
    actions: tuple[str, ...]


NOTHING = Options((), ())


def _names(cards: tuple[int, ...]) -> tuple[str, ...]:
    return tuple(CARD_NAMES[c] for c in cards)


def _held(s: State) -> tuple[int, ...]:
    me = s.to_move
    return tuple(sorted(s.tables[me] + s.hands[me]))


def _must_enter(s: State) -> Accept | None:
    """RH47, N10: a Formation player with no own piece on the board must bring one in with a 9
    (the outcome's reserve below the present one); None where any outcome will do."""
    me = s.to_move
    if s.variant != FORMATION or me in s.board:
        return None
    shift, reserve = RESERVE + 4 * me, s.reserve[me]
    return lambda packed: packed >> shift & 15 < reserve


def searches(s: State, cards: tuple[int, ...] | None = None) -> Iterator[tuple[tuple[int, ...], Search]]:
    """One :class:`Search` for each card set (or only ``cards``), pairing of its kill cards and
    choice of the cards its 8s take (RH19-RH21): the full listing's and the builder's."""
    me = s.to_move
    owner = plays_for(s, me)  # RH34: an out player moves the partner's pieces
    table, hand = s.tables[me], s.hands[me]
    start = START[s.seats[owner]]
    for found, ways in use_combinations(table + hand, s.variant == FORMATION):
        if cards is not None and found != cards:
            continue
        for taken in mystery_choices(found, table, hand):
            for specs in ways:
                yield found, Search(owner, start, specs, taken)


def _completes(search: Search, left: int, packed: int, masks: Masks, accept: Accept | None) -> bool:
    if accept is None:
        return search.reaches(left, packed, masks)
    # Only with no own piece on the board (RH47): its few outcomes are listed whole.
    return any(map(accept, search.outcomes(left, packed, masks)))


def _whole_actions(s: State, cards: tuple[int, ...] | None) -> dict[tuple[int, ...], list[str]]:
    """The actions not made of uses (RH22, RH23, RH46, RH47) by card set: cheap to list."""
    from .rules import Found, whole_outcomes  # rules imports this module

    found: Found = {}
    whole_outcomes(s, found, cards)
    by_cards: dict[tuple[int, ...], list[str]] = {}
    for key, text in found.items():
        by_cards.setdefault(key[0], []).append(text)
    return by_cards


def card_sets(s: State) -> tuple[tuple[str, ...], ...]:
    """Every card set (names in card order, N5) with a legal action for the player to move, by size
    and then card order; () once the game is over (N12).  With pieces on the board and nothing
    legal, each single card (its RH48 discard)."""
    return sets_and_firsts(s)[0]


First = tuple[str, tuple[str, ...], tuple[str, ...]]


def sets_and_firsts(s: State) -> tuple[tuple[tuple[str, ...], ...], tuple[First, ...]]:
    """:func:`card_sets`, and for each one-card set its card and ``options(s, [card], [])``: the
    mover's view carries both (issue 24). One pass over the searches, the position packed once:
    a one-card set's offered first uses also say that it completes, so it is not searched twice.

    >>> from engine.rhombus import new_game
    >>> sets_and_firsts(new_game("demo"))[1][0]
    ('8D', ('8D mystery',), ())
    """
    from .rules import ended

    if ended(s) is not None:
        return (), ()
    accept, packed = _must_enter(s), pack(start_play(s))
    whole = _whole_actions(s, None)
    found: set[tuple[int, ...]] = set(whole)
    firsts: dict[tuple[int, ...], set[str]] = {}
    for cards, search in searches(s):
        if len(cards) == 1:
            uses = firsts.setdefault(cards, set())
            _offer(uses, search, search.all_uses, packed, (), accept)
            if uses:
                found.add(cards)
        if cards not in found and _completes(search, search.all_uses, packed, (), accept):
            found.add(cards)
    if not found and s.variant == FORMATION:  # RH48: with nothing legal, each single card's discard
        found = {(c,) for c in _held(s)}
        whole = {card: ["discard " + CARD_NAMES[card[0]]] for card in found}
    sets = sorted(found, key=lambda c: (len(c), c))
    singles = [c for c in sets if len(c) == 1]
    return (tuple(_names(c) for c in sets),
            tuple((CARD_NAMES[c[0]], tuple(sorted(firsts.get(c, ()))), tuple(sorted(whole.get(c, []))))
                  for c in singles))


def _offer(uses: set[str], search: Search, left: int, packed: int, masks: Masks, accept: Accept | None) -> None:
    """Add to ``uses`` each next use of ``search`` (the uses ``left`` from the position) that can
    still complete a legal action."""
    for text, rest, after, after_masks in search.choices(left, packed, masks) if left else ():
        if text in uses:
            continue
        if rest == 0:
            if accept is None or accept(after):
                uses.add(text)
        elif _completes(search, rest, after, after_masks, accept):
            uses.add(text)


def has_action(s: State) -> bool:
    """Whether the player to move has a legal action (RH26), RH48's discards aside: the search
    stops at the first."""
    if _whole_actions(s, None):
        return True
    accept, packed = _must_enter(s), pack(start_play(s))
    return any(_completes(search, search.all_uses, packed, (), accept) for _, search in searches(s))


def _card_ids(s: State, cards: Sequence[str]) -> tuple[int, ...] | None:
    """The chosen cards, sorted; None unless every name is a card the player holds (as often as named)."""
    ids = []
    for name in cards:
        if not isinstance(name, str) or name.upper() not in CARD_INDEX:
            raise NotationError.coded("rhombus-not-a-card", text=repr(name))
        ids.append(CARD_INDEX[name.upper()])
    held = list(_held(s))
    for c in ids:
        if c not in held:
            return None
        held.remove(c)
    return tuple(sorted(ids))


def _done_uses(done: Sequence[str]) -> list[str]:
    """The uses made so far in their written form (Notation), read strictly."""
    if not done:
        return []
    action = Action.parse(", ".join(done))
    if action.kind != "uses" or len(action.uses) != len(done):
        raise NotationError.coded("not-a-use", text=repr(", ".join(done)))
    return [use.text for use in action.uses]


def _after(search: Search, packed: int, done: list[str]) -> tuple[int, int, Masks] | None:
    """Where ``done`` leaves the search (uses left, position, masks); None if it cannot make them."""
    left = search.all_uses
    masks_now: Masks = ()
    for text in done:
        for choice, rest, after, after_masks in search.choices(left, packed, masks_now):
            if choice == text:
                left, packed, masks_now = rest, after, after_masks
                break
        else:
            return None
    return left, packed, masks_now


def options(s: State, cards: Sequence[str], done: Sequence[str]) -> Options:
    """With exactly ``cards`` chosen and the uses ``done`` made (texts, in the order made), the next
    uses that can still complete a legal action, and the whole actions of those cards (RH10, RH11).

    A use is offered only if some legal action has it next after ``done``, in any order of the
    uses (RH11) and any pairing of kill cards (RH16, RH21); a text names its cards, never its
    places (N6).  Nothing is offered for cards the player does not hold or uses they cannot make.

    >>> from engine.rhombus import new_game
    >>> s = new_game("demo")
    >>> options(s, ["8D"], [])
    Options(uses=('8D mystery',), actions=())
    """
    from .rules import ended

    chosen = _card_ids(s, cards)
    made = _done_uses(done)
    if chosen is None or ended(s) is not None:
        return NOTHING
    accept, start = _must_enter(s), pack(start_play(s))
    uses: set[str] = set()
    for _, search in searches(s, chosen):
        at = _after(search, start, made)
        if at is None:
            continue
        _offer(uses, search, *at, accept)
    actions: list[str] = []
    if not made:
        actions = sorted(_whole_actions(s, chosen).get(chosen, []))
        if not actions and not uses and len(chosen) == 1 and s.variant == FORMATION and not has_action(s):
            actions = ["discard " + CARD_NAMES[chosen[0]]]  # RH48
    return Options(tuple(sorted(uses)), tuple(actions))


def canonical(s: State, key: Key) -> str | None:
    """The canonical text (N1) of the action of uses whose outcome is ``key`` (as
    :func:`engine.rhombus.check.key_of` gives it), or None if no legal action of uses has it.

    Searches only towards that outcome: each first use, in text order, that can still reach
    it (:meth:`Search.text_to`), so the smallest text is the first found."""
    cards, board, reserve, eliminated, places, taken, eliminator = key
    me = s.to_move
    if eliminator or places != table_places_after(cards, len(s.tables[me])):
        return None
    accept = _must_enter(s)
    start = start_play(s)
    target = pack(start._replace(board=board, reserve=reserve, eliminated=eliminated))
    if accept is not None and not accept(target):
        return None
    best: str | None = None
    for _, search in searches(s, cards):
        if search.taken != taken:
            continue
        text = search.text_to(search.all_uses, pack(start), (), target)
        if text is not None and (best is None or text < best):
            best = text
    return best


__all__ = ["NOTHING", "Options", "canonical", "card_sets", "has_action", "options", "searches", "sets_and_firsts"]
