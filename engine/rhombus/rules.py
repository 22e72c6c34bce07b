"""Legal actions, applying an action, and the end of the game (RH10-RH27).

Legal actions are found by :mod:`engine.rhombus.search` over every
combination of the player's cards (RH20-RH23), every order of its uses and
every walk (RH11, RH13).  Plays that leave the same outcome are one action
(N1), listed with the smallest of their texts.  Except across kinds:
an Eliminator whose outcome a flush of the same three cards also reaches
(the flush moving the piece there and killing) is still its own action,
listed beside the flush (N8), so an outcome's key says whether it is an
Eliminator.  Refusals are explained by
:mod:`engine.rhombus.check`, which replays an action as written, use by use,
and names the rule that stops it.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, fields
from collections.abc import Iterable, Iterator
from typing import Any

from ..errors import EngineError, IllegalAction
from ..shuffle import shuffled
from . import builder
from .actions import Action, from_canonical
from .cards import BIT, CARD_NAMES, MOVERS, NINE, SQUARE_NAMES, START, rank, suit
from .check import key_of
from .moves import seat_squares, side_squares
from .search import (
    RESERVE, Key, Play, entered, pack, unpack_from, is_straight_flush, moved, pair_specs, remove_cards, start_play,
    sub_hands, table_places_after,
)
from .state import EMPTY, FORMATION, QUIET_LIMIT, State, plays_for, side_of


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: ``winner`` is the winning side's name, None for a draw.

    A side's name is its seat (``"SW"``) with two players and its team's
    seats joined by ``+`` (``"SW+NE"``, ``"SE+NW"``) with four (RH35).

    ``seats`` are the winning seats; ``reason`` is the rule: ``"RH25"`` (no
    piece on the board), ``"RH26"`` (no legal action) or ``"RH27"`` (the quiet
    rule's draw) or ``"RH43"`` (a Formation).
    """

    winner: str | None
    seats: tuple[str, ...]
    reason: str

    def __reduce__(self) -> tuple[type[Outcome], tuple[object, ...]]:
        # Pickled as its constructor's arguments: a mypyc build cannot restore a frozen
        # class field by field (scripts/mypyc_engine.py).
        return type(self), tuple(getattr(self, f.name) for f in fields(self) if f.init)


# -- legal actions -------------------------------------------------------------


# An outcome's key (N1) with its board, reserve and eliminated counts packed in one
# int (:func:`engine.rhombus.search.pack`): the listing keeps these, and unpacks
# only the outcomes asked for (issue 24).
PKey = tuple[tuple[int, ...], int, int, tuple[int, ...], bool]


def packed_key(key: Key) -> PKey:
    cards, board, reserve, eliminated, places, taken, elim = key
    return (cards, pack(Play(board, (), reserve, eliminated)), places, taken, elim)


class Legal:
    """The legal actions of a state: each canonical action (N1), in text order, and its outcome
    by its text; ``by_key`` (each outcome's action) is made when first asked for."""

    __slots__ = ("actions", "by_packed_text", "start", "packed_start", "_by_key")

    def __init__(self, actions: tuple[Action, ...], by_packed_text: dict[str, PKey], start: Play) -> None:
        self.actions, self.by_packed_text, self.start = actions, by_packed_text, start
        self.packed_start = pack(start)
        self._by_key: dict[Key, Action] | None = None

    def key(self, text: str) -> Key | None:
        """The outcome of the legal action whose canonical text is ``text``, None if none is."""
        found = self.by_packed_text.get(text)
        return None if found is None else self.unpacked(found)

    def unpacked(self, key: PKey) -> Key:
        cards, packed, places, taken, elim = key
        board, reserve, eliminated = unpack_from(self.start, self.packed_start, packed)
        return (cards, board, reserve, eliminated, places, taken, elim)

    @property
    def by_text(self) -> dict[str, Key]:
        return {text: self.unpacked(key) for text, key in self.by_packed_text.items()}

    @property
    def by_key(self) -> dict[Key, Action]:
        if self._by_key is None:
            self._by_key = {self.unpacked(key): from_canonical(text) for text, key in self.by_packed_text.items()}
        return self._by_key


# Each kind of action below adds its outcomes to ``found``, with their smallest
# texts; ``only``, when given, keeps to one card set (an outcome's key names its
# cards, so that set's outcomes and texts are exactly the full list's for it).
Only = tuple[int, ...] | None
Found = dict[PKey, str]


def _add(found: Found, key: Key, text: str) -> None:
    """Adds an outcome made outside the search, keeping the smallest text (N1)."""
    pkey = packed_key(key)
    if pkey not in found or text < found[pkey]:
        found[pkey] = text


def _use_outcomes(s: State, found: Found, only: Only = None) -> None:
    packed = pack(start_play(s))
    table_places = len(s.tables[s.to_move])
    for cards, search in builder.searches(s, only):
        places = table_places_after(cards, table_places)
        for outcome, text in search.packed_run(packed).items():
            key = (cards, outcome, places, search.taken, False)
            old = found.get(key)
            if old is None or text < old:
                found[key] = text


def _eliminator_outcomes(s: State, found: Found, cards: tuple[int, ...]) -> None:
    """The Eliminator (RH22, RH45 d): an own piece lifted onto any opponent piece."""
    me = s.to_move
    owner = plays_for(s, me)
    names = " ".join(CARD_NAMES[c] for c in cards)
    own = seat_squares(s.board, owner)
    enemy = side_squares(s.board, 1 - side_of(me))
    for frm in range(25):
        for to in range(25):
            if own & BIT[frm] and enemy & BIT[to]:
                after = moved(start_play(s), frm, to, True, None)
                key: Key = (cards, after.board, after.reserve, after.eliminated, len(s.tables[me]), (), True)
                _add(found, key, f"elim {names} {SQUARE_NAMES[frm]}x{SQUARE_NAMES[to]}")


def _three_card_outcomes(s: State, found: Found, only: Only = None) -> None:
    """Reactivation (RH23) and the Eliminator (RH22): three cards, not used.

    Both act for the seat whose pieces the player moves: their own, or an
    out player's partner (RH33, RH34).  Formation has no reactivation
    (RH45 c), and its Eliminator may be any three of the four cards (RH45 d).
    """
    me = s.to_move
    owner = plays_for(s, me)
    held = tuple(sorted(s.tables[me] + s.hands[me]))
    if s.variant == FORMATION:
        for cards in sub_hands(held, 3):
            if is_straight_flush(cards) and only in (None, cards):
                _eliminator_outcomes(s, found, cards)
        return
    if len(held) != 3 or only not in (None, held):
        return
    names = " ".join(CARD_NAMES[c] for c in held)
    if len({rank(c) for c in held}) == 1:
        el, res = list(s.eliminated), list(s.reserve)
        if el[owner] > 0:
            el[owner], res[owner] = el[owner] - 1, res[owner] + 1
        found.setdefault(packed_key((held, s.board, tuple(res), tuple(el), len(s.tables[me]), (), False)),
                         f"react {names}")
    if is_straight_flush(held):
        _eliminator_outcomes(s, found, held)


def _entryliminator_outcomes(s: State, found: Found, only: Only = None) -> None:
    """RH46: a 9 and three other cards of its suit forming a straight, onto an opponent on the start square."""
    me = s.to_move
    start = START[s.seats[me]]
    who = s.board[start]
    held = tuple(sorted(s.tables[me] + s.hands[me]))
    if s.reserve[me] <= 0 or who == EMPTY or side_of(who) == side_of(me) or only not in (None, held):
        return
    after = entered(start_play(s), me, start, True)
    for nine in sorted({c for c in held if rank(c) == NINE}):
        rest = list(held)
        rest.remove(nine)
        if len(rest) == 3 and all(suit(c) == suit(nine) for c in rest) and is_straight_flush(tuple(rest)):
            cards = tuple(sorted(held))
            key: Key = (cards, after.board, after.reserve, after.eliminated, len(s.tables[me]), (), False)
            _add(found, key, f"entry {CARD_NAMES[nine]} {' '.join(CARD_NAMES[c] for c in rest)} @x{SQUARE_NAMES[start]}")


def discard_shapes(held: tuple[int, ...]) -> list[tuple[int, ...]]:
    """RH47, N10: the card sets a Formation player may discard unused.

    One card, a pair's shape (RH20, a kill pair without its kill), an
    identical pair, a 3- or 4-card flush (straight flushes included) or
    three of a kind.
    """
    shapes: list[tuple[int, ...]] = list(sub_hands(held, 1))
    shapes += [p for p in sub_hands(held, 2) if p[0] == p[1] or pair_specs(p[0], p[1])]
    shapes += [c for c in sub_hands(held, 3) if len({suit(x) for x in c}) == 1 or len({rank(x) for x in c}) == 1]
    shapes += [c for c in sub_hands(held, 4) if len({suit(x) for x in c}) == 1]
    return shapes


def _discard_outcomes(s: State, found: Found, shapes: list[tuple[int, ...]]) -> None:
    me = s.to_move
    packed = pack(start_play(s))
    for cards in shapes:
        found[cards, packed, len(s.tables[me]), (), False] = "discard " + ", ".join(CARD_NAMES[c] for c in cards)


def _outcomes(s: State, found: Found, only: Only = None) -> None:
    """Every action's outcome with its canonical text; in Formation (RH45-RH48) as follows.

    With no own piece on the board only bring-ins (a 9 brings a piece in)
    and discards are legal (RH47, N10; :func:`whole_outcomes` drops the
    rest); with pieces but no legal action the player discards one card
    (RH48): one card set alone (``only``) cannot tell that, so it never
    lists those discards.
    """
    me = s.to_move
    _use_outcomes(s, found, only)
    whole_outcomes(s, found, only)
    if not found and only is None and s.variant == FORMATION and me in s.board:
        _discard_outcomes(s, found, sub_hands(s.tables[me] + s.hands[me], 1))


def whole_outcomes(s: State, found: Found, only: Only = None) -> None:
    """The actions not made of uses, with their texts: the Eliminator and reactivation (RH22,
    RH23), the Entryliminator (RH46) and, with no own piece on the board, the discards and only
    the bring-ins (RH47, N10).  Cheap: no search of uses."""
    me = s.to_move
    _three_card_outcomes(s, found, only)
    if s.variant != FORMATION:
        return
    _entryliminator_outcomes(s, found, only)
    if me not in s.board:
        shift = RESERVE + 4 * me
        for key in [k for k in found if k[1] >> shift & 15 >= s.reserve[me]]:
            del found[key]  # RH47: a 9 must bring a piece in
        _discard_outcomes(s, found, [c for c in discard_shapes(s.tables[me] + s.hands[me]) if only in (None, c)])


# The last positions listed, most recent last: a page lists a position's actions
# for its mover and then checks the move played there against the same list.
_LISTED: OrderedDict[State, Legal] = OrderedDict()
_LISTED_LOCK = threading.Lock()  # the site lists from several threads
LISTED_KEPT = 128


def legal(s: State) -> Legal:
    """Every legal action of ``s`` with its outcome; none once the game is over (N12)."""
    table = listed(s)
    if table is None:
        table = _listing(s)
        with _LISTED_LOCK:
            _LISTED[s] = table
            while len(_LISTED) > LISTED_KEPT:
                _LISTED.popitem(last=False)
    return table


_STEPPED: OrderedDict[State, None] = OrderedDict()  # the last positions step() searched by card set


def _stepped_before(s: State) -> bool:
    """Whether an action was lately played from ``s`` without listing it."""
    with _LISTED_LOCK:
        return s in _STEPPED


def _note_stepped(s: State) -> None:
    """Notes that an action was played from ``s`` without listing it: a second one lists ``s``
    (a bot trying every action), while a refused one, a player's typo, does not count."""
    with _LISTED_LOCK:
        _STEPPED[s] = None
        while len(_STEPPED) > LISTED_KEPT:
            _STEPPED.popitem(last=False)


def listed(s: State) -> Legal | None:
    """``legal(s)`` if it was listed lately, else None (nothing is searched)."""
    with _LISTED_LOCK:
        table = _LISTED.get(s)
        if table is not None:
            _LISTED.move_to_end(s)
        return table


def _listing(s: State) -> Legal:
    if ended(s) is not None:
        return Legal((), {}, start_play(s))
    found: Found = {}
    _outcomes(s, found)
    by_text = {text: key for key, text in found.items()}
    actions = tuple(map(from_canonical, sorted(by_text)))
    return Legal(actions, by_text, start_play(s))


def legal_actions(s: State) -> list[Action]:
    """Every legal action, each once with its canonical text, in plain string order (N1, N14).

    >>> from engine.rhombus import new_game
    >>> [str(a) for a in legal_actions(new_game("demo"))][:3]
    ['10S 0', '8D mystery', 'KC a2-a4']
    """
    return list(legal(s).actions)


# -- the end (RH25-RH27) ------------------------------------------------------


def side_name(s: State, side: int) -> str:
    return "+".join(name for i, name in enumerate(s.seats) if side_of(i) == side)


def _won(s: State, side: int, reason: str) -> Outcome:
    return Outcome(side_name(s, side), tuple(n for i, n in enumerate(s.seats) if side_of(i) == side), reason)


FORMATION_CENTRES = tuple(sq for sq in range(25) if 1 <= sq % 5 <= 3 and 1 <= sq // 5 <= 3)  # b2-d4


def formation_side(board: tuple[int, ...]) -> int | None:
    """RH43: the side with five pieces on a centre square and its four diagonal neighbours, if any."""
    for centre in FORMATION_CENTRES:
        who = board[centre]
        if who == EMPTY:
            continue
        side = side_of(who)
        if all(board[sq] != EMPTY and side_of(board[sq]) == side for sq in (centre - 6, centre - 4, centre + 4, centre + 6)):
            return side
    return None


def ended(s: State) -> Outcome | None:
    """The endings that need no search: RH25 (classic), RH43 (Formation) and RH27.

    RH43 is checked before RH27 (N12); Formation has no RH25 (RH44).
    """
    if s.variant == FORMATION:
        side = formation_side(s.board)
        if side is not None:
            return _won(s, side, "RH43")
    else:
        mover = side_of(s.to_move)
        sides = {side_of(who) for who in set(s.board) if who != EMPTY}
        for side in (mover, 1 - mover):
            if side not in sides:
                return _won(s, 1 - side, "RH25")
    if s.quiet >= QUIET_LIMIT:
        return Outcome(None, (), "RH27")
    return None


def outcome(s: State) -> Outcome | None:
    """None while the game runs; else the winning side and the rule that ended it."""
    over = ended(s)
    if over is None and not _can_act(s):
        return _won(s, 1 - side_of(s.to_move), "RH26")
    return over


def _can_act(s: State) -> bool:
    """Whether the player to move has a legal action (RH26), searching only when no card shows it.

    A Formation player always has one (a discard, RH47, RH48); a 7, 8, 9 or
    10 always has a zero use or a Mystery (RH15, RH18, RH19).  Only a hand of
    movers alone needs the search, which stops at the first action it finds.
    """
    me = s.to_move
    if s.variant == FORMATION or any(rank(c) not in MOVERS for c in s.tables[me] + s.hands[me]):
        return True
    table = listed(s)
    return bool(table.actions) if table is not None else builder.has_action(s)


def out_players(
    s: State, board: tuple[int, ...], reserve: tuple[int, ...], eliminated: tuple[int, ...],
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[bool, ...]]:
    """RH34: after any action, a team-game player with no own piece on the board is out.

    Their reserve pieces are lost for good and count as eliminated; from
    then on they move their partner's pieces (:func:`plays_for`).  Only an
    elimination takes a player's last piece off the board, so this never
    happens on a quiet action.  The 2-player game has no out players.
    """
    if len(s.seats) != 4:
        return reserve, eliminated, s.out
    res, el, out = list(reserve), list(eliminated), list(s.out)
    for seat in range(4):
        if not out[seat] and seat not in board:
            out[seat] = True
            el[seat], res[seat] = el[seat] + res[seat], 0
    return tuple(res), tuple(el), tuple(out)


def next_dealer(s: State, over: Outcome) -> str:
    """Who deals the next game of a series between the same players (RH28, RH37).

    The winner deals, so the loser moves first; with four players it is the
    first player of the winning team after this game's dealer in turn
    order.  After a draw the deal passes to the next seat in turn order.
    Pass the result as ``new_game(..., dealer=...)``.
    """
    n = len(s.seats)
    for step in range(1, n + 1):
        seat = s.seats[(s.dealer + step) % n]
        if over.winner is None or seat in over.seats:
            return seat
    raise ValueError(f"{over!r} names no seat of this game")


# -- applying an action -----------------------------------------------------------


# `action` is `object`, not `Action | str | dict`: anything else must raise NotationError,
# and a mypyc build would raise TypeError on entry for a narrower type.
def apply(s: State, action: object) -> State:
    """The state after ``action`` (an :class:`Action`, any of its texts, or its JSON form).

    ``s`` is never changed.  A refused action raises :class:`IllegalAction`
    naming the rule it breaks, or :class:`NotationError`.

    >>> from engine.rhombus import new_game
    >>> s = apply(new_game("demo"), "KC b1-b3")
    >>> s.pieces()["b3"], s.turn, s.ply, s.table("SW")
    ('SW', 'NE', 1, ['8D', '10S'])
    >>> apply(s, "KC e4-e2")
    Traceback (most recent call last):
    ...
    engine.errors.IllegalAction: KC e4-e2: KC is not one of NE's cards (RH7)
    """
    return step(s, action)[0]


def step(s: State, action: object) -> tuple[State, Action]:
    """:func:`apply`, also giving the action played in its canonical form (N1),
    as a record stores it, whichever legal text the player wrote.

    >>> from engine.rhombus import new_game
    >>> step(new_game("demo"), "KC b1-b3")[1].text
    'KC b1-b3'
    """
    if not isinstance(action, Action):
        action = Action.from_json(action)
    over = ended(s)
    if over is not None:
        raise IllegalAction.of("rhombus-game-over", "N12", action=action.text, reason=over.reason)
    if listed(s) is None and not _stepped_before(s):
        # key_of accepts exactly the legal actions' texts (RH47 and RH48 aside, below), so a
        # refusal is explained here, as the full list's path would, without listing.
        played = _played(s, action, key_of(s, action))
        if played is not None:
            _note_stepped(s)
            return finish(s, played[0]), played[1]
    # Listed already, a position played from again (a bot trying every action: list it
    # once), or what only the full list decides (RH47): it decides and explains.
    table = legal(s)
    key = table.key(action.text)
    if key is not None:  # a canonical text (N1)
        return finish(s, key), from_canonical(action.text)
    key = key_of(s, action)
    if key not in table.by_key:
        raise IllegalAction.of("rhombus-not-legal", "N1", action=action.text)
    if (action.kind == "discard") != (table.by_key[key].kind == "discard"):
        # A discard and a zero use can leave the same behind, but each is legal only where its rule allows.
        if action.kind == "discard":
            raise IllegalAction.of("discard-while-legal", "RH48", action=action.text)
        raise IllegalAction.of("must-enter", "RH47", action=action.text)
    return finish(s, key), table.by_key[key]


def _played(s: State, action: Action, key: Key) -> tuple[Key, Action] | None:
    """The outcome ``key`` of ``action`` with its canonical form (N1), found without listing the
    position; None where only the full list can decide.

    An action of uses is searched towards its outcome (:func:`builder.canonical`); the others
    are few and made whole.  A discard with pieces on the board (RH48) is legal only when no
    other action is, and is refused as the full list refuses it.
    """
    if action.kind == "uses":
        text = builder.canonical(s, key)
    elif action.kind == "discard" and s.to_move in s.board:
        text = _rh48_discard(s, action, key)
    else:
        found: Found = {}
        whole_outcomes(s, found, key[0])
        text = found.get(packed_key(key))
    if text is None:
        return None
    canonical = from_canonical(text)
    if (action.kind == "discard") != (canonical.kind == "discard"):
        return None
    return key, canonical


def _rh48_discard(s: State, action: Action, key: Key) -> str | None:
    """RH48: with pieces on the board a player discards one card, and only when nothing else is
    legal.  Refused as the full list refuses it: RH48 where an action of uses leaves the same,
    else N1."""
    if builder.has_action(s):
        if builder.canonical(s, key) is not None:
            raise IllegalAction.of("discard-while-legal", "RH48", action=action.text)
        raise IllegalAction.of("rhombus-not-legal", "N1", action=action.text)
    if len(key[0]) != 1:
        raise IllegalAction.of("rhombus-not-legal", "N1", action=action.text)
    return "discard " + CARD_NAMES[key[0][0]]


def walk(s: State, actions: Iterable[Action | str | dict[str, Any]]) -> Iterator[State]:
    """The state after each of ``actions`` in turn, as :func:`apply` one after another gives,
    refusing the first illegal one with the same error; for replays of long games.

    :func:`apply` also finds each action's canonical text, which costs a
    search of its cards' every order and walk; a replay shows the texts as
    recorded, so here each action is checked as written (:func:`key_of`,
    which accepts exactly the legal actions' texts), plus the rules only
    Formation's whole list decides (RH47's bring-in and discard shapes).
    Whatever that cannot decide, a refusal above all or an RH48 discard,
    goes through :func:`step`, which decides and explains it.

    >>> from engine.rhombus import new_game
    >>> s = new_game("demo")
    >>> list(walk(s, ["KC b1-b3"])) == [apply(s, "KC b1-b3")]
    True
    """
    for action in actions:
        if not isinstance(action, Action):
            action = Action.from_json(action)
        key = None if ended(s) is not None else _checked_key(s, action)
        s = step(s, action)[0] if key is None else finish(s, key)
        yield s


def _checked_key(s: State, action: Action) -> Key | None:
    """The outcome of ``action`` when its text alone shows it legal; None when :func:`step` must decide."""
    try:
        key = key_of(s, action)
    except EngineError:
        return None
    me = s.to_move
    if s.variant != FORMATION:
        return key
    if me in s.board:
        return None if action.kind == "discard" else key  # RH48: a discard needs nothing else legal
    if action.kind == "discard":  # RH47, N10
        return key if key[0] in discard_shapes(s.tables[me] + s.hands[me]) else None
    return key if key[2][me] < s.reserve[me] else None  # RH47: a 9 brings a piece in


def action_of(s: State, key: Key) -> Action:
    """The legal action (canonical text, N1) whose outcome is ``key``, as ``legal(s).by_key[key]``,
    from one card set's search where that decides it."""
    table = listed(s)
    if table is not None:
        return table.by_key[key]
    found: Found = {}
    whole_outcomes(s, found, key[0])
    text = found.get(packed_key(key))
    if text is None and not key[6]:  # not an Eliminator (N8): an action of uses, searched towards it
        text = builder.canonical(s, key)
    return from_canonical(text) if text is not None else legal(s).by_key[key]


def finish(s: State, key: Key) -> State:
    """The state after the action with outcome ``key``: discard, Mystery, refill (RH19, RH24)."""
    cards, board, reserve, eliminated, table_places, taken, _ = key
    me = s.to_move
    table, hand = remove_cards(s.tables[me], s.hands[me], cards)
    hand_places = len(s.tables[me]) + len(s.hands[me]) - table_places
    for card in taken:
        table.remove(card)
        hand.append(card)
    pile, discard, reshuffles = s.pile, tuple(sorted(cards, reverse=True)) + s.discard, s.reshuffles
    for places, cards_now in ((table_places, table), (hand_places, hand)):
        while len(cards_now) < places:
            if not pile:
                pile, discard, reshuffles = shuffled(discard, s.seed or b"", reshuffles + 1), (), reshuffles + 1
            cards_now.append(pile[0])
            pile = pile[1:]
            if not pile:  # RH24: the moment the pile runs out, this action's cards included
                pile, discard, reshuffles = shuffled(discard, s.seed or b"", reshuffles + 1), (), reshuffles + 1
    killed = any(a > b for a, b in zip(eliminated, s.eliminated))
    if s.variant == FORMATION:  # RH44: an eliminated piece goes straight back to its owner's reserve
        reserve = tuple(r + e - e0 for r, e, e0 in zip(reserve, eliminated, s.eliminated))
        eliminated, out = s.eliminated, s.out
    else:
        reserve, eliminated, out = out_players(s, board, reserve, eliminated)
    return s._replace(
        board=board, out=out,
        tables=s.tables[:me] + (tuple(table),) + s.tables[me + 1:],
        hands=s.hands[:me] + (tuple(hand),) + s.hands[me + 1:],
        reserve=reserve, eliminated=eliminated, pile=pile, discard=discard, reshuffles=reshuffles,
        to_move=(me + 1) % len(s.seats), quiet=0 if killed else s.quiet + 1, ply=s.ply + 1,
    )


__all__ = [
    "FORMATION_CENTRES", "Legal", "Outcome", "action_of", "apply", "discard_shapes", "ended", "formation_side", "finish", "legal", "legal_actions", "next_dealer", "out_players",
    "outcome", "side_name", "walk",
]
