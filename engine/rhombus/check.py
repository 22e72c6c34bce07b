"""Checking an action as written, and saying which rule refuses it.

:func:`key_of` replays an action's uses in the order written (RH11), keeping
every set of visited squares that some choice of walks allows (RH13), and
returns the outcome the action leaves (N1).  The rules then look that
outcome up among the legal actions, so any text of a legal action is
accepted and recorded with its canonical text.  Every refusal raises
:class:`IllegalAction` naming the rule.
"""
from __future__ import annotations

from ..errors import IllegalAction, Param
from .actions import Action, Use
from .cards import (
    ALL_SQUARES, BIT, CARD_INDEX, CARD_NAMES, EIGHT, JACK, KILLERS, MOVERS, NINE, RANKS, SEVEN, SIX,
    SQUARE_INDEX, SQUARE_NAMES, START, STEPS, SUITS, TEN, is_dark, rank, suit,
)
from .moves import occupied, protected
from .search import (
    KILL_PAIR_MOVERS, Key, Play, entered, is_straight_flush, mover_moves, moved, mystery_choices, remove_cards,
    start_play, table_places_after,
)
from .state import EMPTY, FORMATION, State, plays_for, side_of


def key_of(s: State, action: Action) -> Key:
    """The outcome of ``action`` in ``s`` (N1), or :class:`IllegalAction` naming the rule."""
    me = s.to_move
    cards = _held(s, action)
    formation = s.variant == FORMATION
    if action.kind in ("entry", "discard") and not formation:
        if action.kind == "entry":
            raise _refuse(action, "entryliminator-formation-only", "RH46")
        raise _refuse(action, "discard-formation-only", "RH47")
    if action.kind == "react":
        if formation:
            raise _refuse(action, "no-reactivation-in-formation", "RH45")
        return _reactivation(s, action, cards)
    if action.kind == "elim":
        return _eliminator(s, action, cards)
    if action.kind == "entry":
        return _entryliminator(s, action, cards)
    if action.kind == "discard":
        # RH47, RH48: the cards go unused; whether a discard is allowed is the legal list's business.
        return (tuple(sorted(cards)), s.board, s.reserve, s.eliminated, len(s.tables[me]), (), False)
    _combination(action, formation)
    play = start_play(s)
    for use in action.uses:
        play = _use(s, action, use, play)
    places = table_places_after(cards, len(s.tables[me]))
    taken = _taken(s, action, cards)
    return (tuple(sorted(cards)), play.board, play.reserve, play.eliminated, places, taken, False)


def _refuse(action: Action, code: str, rule: str, **params: Param) -> IllegalAction:
    return IllegalAction.of(code, rule, action=action.text, **params)


def _held(s: State, action: Action) -> tuple[int, ...]:
    names = action.all_cards()
    held = list(s.tables[s.to_move] + s.hands[s.to_move])
    for name in names:
        if CARD_INDEX[name] not in held:
            if names.count(name) > 1 and CARD_INDEX[name] in s.tables[s.to_move] + s.hands[s.to_move]:
                raise _refuse(action, "card-used-twice", "RH11")
            raise _refuse(action, "not-your-card", "RH7", card=name, seat=s.turn)
        held.remove(CARD_INDEX[name])
    return tuple(CARD_INDEX[n] for n in names)


def _reactivation(s: State, action: Action, cards: tuple[int, ...]) -> Key:
    if len({rank(c) for c in cards}) != 1:
        raise _refuse(action, "reactivation-one-rank", "RH23")
    me, owner = s.to_move, plays_for(s, s.to_move)  # RH34: an out player reactivates for the partner
    el, res = list(s.eliminated), list(s.reserve)
    if el[owner] > 0:
        el[owner], res[owner] = el[owner] - 1, res[owner] + 1
    return (tuple(sorted(cards)), s.board, tuple(res), tuple(el), len(s.tables[me]), (), False)


def _eliminator(s: State, action: Action, cards: tuple[int, ...]) -> Key:
    if not is_straight_flush(cards):
        raise _refuse(action, "eliminator-flush", "RH22")
    frm, to = SQUARE_INDEX[action.frm or ""], SQUARE_INDEX[action.to or ""]
    me, board = s.to_move, s.board
    owner = plays_for(s, me)
    if board[frm] != owner:
        if owner == me:
            raise _refuse(action, "eliminator-own-piece", "RH22", seat=s.turn, square=str(action.frm))
        raise _refuse(action, "eliminator-partner-piece", "RH34", seat=s.turn, partner=s.seats[owner],
                      square=str(action.frm))
    if board[to] == EMPTY or side_of(board[to]) == side_of(me):
        raise _refuse(action, "eliminator-target", "RH22", square=str(action.to))
    after = moved(start_play(s), frm, to, True, None)
    return (tuple(sorted(cards)), after.board, after.reserve, after.eliminated, len(s.tables[me]), (), True)


def _entryliminator(s: State, action: Action, cards: tuple[int, ...]) -> Key:
    """RH46: a 9 and three cards of its suit forming a straight; an opponent piece on the start square."""
    nine, rest = cards[0], tuple(sorted(cards[1:]))
    if rank(nine) != NINE or any(suit(c) != suit(nine) for c in rest) or not is_straight_flush(rest):
        raise _refuse(action, "entryliminator-cards", "RH46")
    me = s.to_move
    start = START[s.seats[me]]
    if SQUARE_INDEX[action.to or ""] != start:
        raise _refuse(action, "entryliminator-start", "RH46", seat=s.turn, square=_sq(start))
    who = s.board[start]
    if s.reserve[me] <= 0 or who == EMPTY or side_of(who) == side_of(me):
        raise _refuse(action, "entryliminator-needs", "RH46", square=_sq(start))
    after = entered(start_play(s), me, start, True)
    return (tuple(sorted(cards)), after.board, after.reserve, after.eliminated, len(s.tables[me]), (), False)


def _combination(action: Action, formation: bool) -> None:
    """RH10, RH15, RH20, RH21, RH45: what each card may do, and which cards go together."""
    for use in action.uses:
        _card_role(action, use)
    cards = [CARD_INDEX[c] for c in action.all_cards()]
    most = 4 if formation else 3
    if len(cards) > most:
        raise _refuse(action, "too-many-cards", "RH45" if formation else "RH10", count=most)
    one_suit = len({suit(c) for c in cards}) == 1
    if formation and len(cards) == 4 and not one_suit:
        raise _refuse(action, "four-cards-flush", "RH45")
    if formation and len(cards) == 3 and not one_suit and len({rank(c) for c in cards}) != 1:
        raise _refuse(action, "three-cards-formation", "RH45")
    if len(cards) == 3 and not one_suit and not formation:
        raise _refuse(action, "three-cards-flush", "RH21")
    if len(cards) == 2 and not (formation and cards[0] == cards[1]):
        _pair(action, cards[0], cards[1])


def _card_role(action: Action, use: Use) -> None:
    r = rank(CARD_INDEX[use.card])
    if use.kill is not None and rank(CARD_INDEX[use.kill]) not in KILLERS:
        if r in KILLERS:
            raise _refuse(action, "kill-card-order", "RH16", kill=use.kill, card=use.card)
        raise _refuse(action, "not-a-kill-card", "RH16", kill=use.kill)
    if use.frm is not None and r not in MOVERS:
        raise _refuse(action, "card-moves-no-piece", "RH6", card=use.card)
    if use.enter is not None and r != NINE:
        raise _refuse(action, "card-brings-no-piece", "RH18", card=use.card)
    if use.zero and r not in (SEVEN, NINE, TEN):
        if r == EIGHT:
            raise _refuse(action, "eight-is-mystery", "RH19", card=use.card)
        raise _refuse(action, "mover-no-zero", "RH15", card=use.card)
    if use.mystery and r != EIGHT:
        raise _refuse(action, "not-mystery-card", "RH19", card=use.card)


def _pair(action: Action, a: int, b: int) -> None:
    """RH20: two cards of one suit, consecutive, or a Q/K/A/J with a 7/10 as a kill."""
    lo, hi = sorted((a, b))
    words: dict[str, Param] = {"card_lo_word": CARD_NAMES[lo], "card_hi_word": CARD_NAMES[hi]}
    if suit(a) != suit(b):
        raise _refuse(action, "pair-suits", "RH20", **words)
    if rank(hi) == rank(lo) + 1:
        return
    if rank(lo) in KILLERS and rank(hi) in KILL_PAIR_MOVERS:
        if not any(u.kill for u in action.uses):
            raise _refuse(action, "pair-kill-only", "RH20", rank_hi=RANKS[rank(hi)], rank_lo=RANKS[rank(lo)],
                          suits_word=SUITS[suit(lo)])
        return
    if rank(lo) == SIX and rank(hi) == TEN:
        raise _refuse(action, "pair-ranks-six-ten", "RH20", **words)
    if rank(lo) == SEVEN and rank(hi) == NINE:
        raise _refuse(action, "pair-ranks-seven-nine", "RH20", **words)
    raise _refuse(action, "pair-ranks", "RH20", **words)


def _use(s: State, action: Action, use: Use, play: Play) -> Play:
    if use.frm is not None:
        return _move(s, action, use, play)
    if use.enter is not None:
        return _entry(s, action, use, play)
    return play


def _entry(s: State, action: Action, use: Use, play: Play) -> Play:
    me = plays_for(s, s.to_move)  # RH34: an out player brings in the partner's pieces
    name = s.seats[me]
    start = START[name]
    if SQUARE_INDEX[use.enter or ""] != start:
        raise _refuse(action, "entry-start-square", _rule(s, "RH18"), seat=name, square=_sq(start))
    if play.reserve[me] <= 0:
        raise _refuse(action, "entry-no-reserve", _rule(s, "RH18"), seat=name)
    who = play.board[start]
    if use.kill is None:
        if who != EMPTY:
            raise _refuse(action, "start-square-occupied", "RH18", square=_sq(start))
        return entered(play, me, start, False)
    if who == EMPTY or side_of(who) == side_of(me):
        raise _refuse(action, "entry-kill-needs-opponent", "RH18", square=_sq(start))
    if protected(play.board, start):
        raise _refuse(action, "blockade", "RH17", square=_sq(start))
    return entered(play, me, start, True)


def _move(s: State, action: Action, use: Use, play: Play) -> Play:
    me = plays_for(s, s.to_move)
    frm, to = SQUARE_INDEX[use.frm or ""], SQUARE_INDEX[use.to or ""]
    board = play.board
    card = CARD_INDEX[use.card]
    if board[frm] != me:
        raise _not_movable(s, action, use.frm or "", board[frm])
    if frm == to:
        raise _refuse(action, "crossed-start", "RH13")
    final = _final(action, use, board, me, to)
    free = ALL_SQUARES & ~occupied(board)
    visited = frozenset(
        after for mask in play.visited(frm) for end, after in mover_moves(card, frm, mask, free, final) if end == to
    )
    if not visited:
        raise _no_path(action, use, card, frm, to, free, final)
    return moved(play, frm, to, use.kill is not None, visited)


def _final(action: Action, use: Use, board: tuple[int, ...], me: int, to: int) -> int:
    """The squares this use may end on: ``to`` itself, if RH12, RH16 and RH17 allow it."""
    who = board[to]
    if who != EMPTY and side_of(who) == side_of(me):
        raise _refuse(action, "friendly-piece", "RH12", square=str(use.to))
    if use.kill is None:
        if who != EMPTY:
            raise _refuse(action, "occupied-needs-kill", "RH16", square=str(use.to))
    elif who == EMPTY:
        raise _refuse(action, "kill-on-empty", "RH16", square=str(use.to))
    elif protected(board, to):
        raise _refuse(action, "blockade", "RH17", square=str(use.to))
    return BIT[to]


def _no_path(action: Action, use: Use, card: int, frm: int, to: int, free: int, final: int) -> IllegalAction:
    """Why no walk (RH13) or J move (RH14) takes the piece from ``frm`` to ``to``."""
    if any(end == to for end, _ in mover_moves(card, frm, BIT[frm], free, final)):
        return _refuse(action, "crossed", "RH13")
    r = rank(card)
    if r == JACK:
        df, dr = to % 5 - frm % 5, to // 5 - frm // 5
        if abs(df) != abs(dr) or df == 0:
            return _refuse(action, "jack-diagonal", "RH14", to=str(use.to), **{"from": str(use.frm)})
        return _refuse(action, "jack-blocked", "RH14", to=str(use.to), **{"from": str(use.frm)})
    steps = STEPS[r]
    if (steps % 2 == 0) != (is_dark(frm) == is_dark(to)):
        return _refuse(action, "steps-same-colour" if steps % 2 == 0 else "steps-other-colour", "RH13", steps=steps)
    if frm == to:
        return _refuse(action, "crossed", "RH13")
    return _refuse(action, "no-walk", "RH13", steps=steps, to=str(use.to), **{"from": str(use.frm)})


def _taken(s: State, action: Action, cards: tuple[int, ...]) -> tuple[int, ...]:
    """RH19, N4: the table cards named by ``8x mystery CARD``, which must be named exactly when needed."""
    me = s.to_move
    eights = [u for u in action.uses if u.mystery]
    needed = mystery_choices(cards, s.tables[me], s.hands[me])
    count = len(needed[0])
    named = [CARD_INDEX[u.taken] for u in eights if u.taken]
    if not count:
        if named:
            raise _refuse(action, "mystery-nothing-taken", "RH19")
        return ()
    if not named:
        left, _ = remove_cards(s.tables[me], s.hands[me], cards)
        raise _refuse(action, "mystery-name-card", "RH19", example=f"{eights[0].card} mystery {CARD_NAMES[left[0]]}")
    taken = tuple(sorted(named))
    if taken not in needed:
        if len(taken) != count:
            raise _refuse(action, "mystery-count", "RH19", count=count)
        raise _refuse(action, "mystery-not-table-card", "RH19", cards=" ".join(CARD_NAMES[c] for c in taken),
                      seat=s.turn)
    return taken


def _sq(sq: int) -> str:
    return SQUARE_NAMES[sq]


def _rule(s: State, rule: str) -> str:
    """An out player breaks the rule through RH34, which says whose pieces they play."""
    return "RH34" if plays_for(s, s.to_move) != s.to_move else rule


def _not_movable(s: State, action: Action, square: str, who: int) -> IllegalAction:
    """Why the piece on ``square`` is not the player's to move, under RH12, RH33 or RH34."""
    me, owner = s.to_move, plays_for(s, s.to_move)
    if owner == me and who != EMPTY and who != me and side_of(who) == side_of(me):
        return _refuse(action, "partner-piece", "RH33", square=square, seat=s.turn, partner=s.seats[who])
    if owner != me:
        return _refuse(action, "out-player-piece", "RH34", square=square, partner=s.seats[owner], seat=s.turn)
    return _refuse(action, "no-own-piece", "RH12", square=square, seat=s.turn)


__all__ = ["key_of"]
