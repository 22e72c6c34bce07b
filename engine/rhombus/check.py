"""Checking an action as written, and saying which rule refuses it.

:func:`key_of` replays an action's uses in the order written (RH11), keeping
every set of visited squares that some choice of walks allows (RH13), and
returns the outcome the action leaves (N1).  The rules then look that
outcome up among the legal actions, so any text of a legal action is
accepted and recorded with its canonical text.  Every refusal raises
:class:`IllegalAction` naming the rule.
"""
from __future__ import annotations

from ..errors import IllegalAction
from .actions import Action, Use
from .cards import (
    ALL_SQUARES, BIT, CARD_INDEX, CARD_NAMES, EIGHT, JACK, KILLERS, MOVERS, NINE, RANKS, SEVEN, SIX,
    SQUARE_INDEX, SQUARE_NAMES, START, STEPS, SUIT_WORDS, TEN, card_word, is_dark, rank, suit,
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
        raise _refuse(action, f"the {'Entryliminator' if action.kind == 'entry' else 'discard'} "
                              "belongs to Formation", "RH46" if action.kind == "entry" else "RH47")
    if action.kind == "react":
        if formation:
            raise _refuse(action, "Formation has no reactivation: three of a kind is used", "RH45")
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


def _refuse(action: Action, why: str, rule: str) -> IllegalAction:
    return IllegalAction(f"{action.text}: {why}", rule)


def _held(s: State, action: Action) -> tuple[int, ...]:
    names = action.all_cards()
    held = list(s.tables[s.to_move] + s.hands[s.to_move])
    for name in names:
        if CARD_INDEX[name] not in held:
            if names.count(name) > 1 and CARD_INDEX[name] in s.tables[s.to_move] + s.hands[s.to_move]:
                raise _refuse(action, "each card is used once (N2)", "RH11")
            raise _refuse(action, f"{name} is not one of {s.turn}'s cards", "RH7")
        held.remove(CARD_INDEX[name])
    return tuple(CARD_INDEX[n] for n in names)


def _reactivation(s: State, action: Action, cards: tuple[int, ...]) -> Key:
    if len({rank(c) for c in cards}) != 1:
        raise _refuse(action, "a reactivation is three cards of one rank", "RH23")
    me, owner = s.to_move, plays_for(s, s.to_move)  # RH34: an out player reactivates for the partner
    el, res = list(s.eliminated), list(s.reserve)
    if el[owner] > 0:
        el[owner], res[owner] = el[owner] - 1, res[owner] + 1
    return (tuple(sorted(cards)), s.board, tuple(res), tuple(el), len(s.tables[me]), (), False)


def _eliminator(s: State, action: Action, cards: tuple[int, ...]) -> Key:
    if not is_straight_flush(cards):
        raise _refuse(action, "an Eliminator is three cards of one suit with consecutive ranks", "RH22")
    frm, to = SQUARE_INDEX[action.frm or ""], SQUARE_INDEX[action.to or ""]
    me, board = s.to_move, s.board
    owner = plays_for(s, me)
    if board[frm] != owner:
        raise _refuse(action, f"the Eliminator lifts one of {_whose(s)} pieces, and {action.frm} holds none",
                      _rule(s, "RH22"))
    if board[to] == EMPTY or side_of(board[to]) == side_of(me):
        raise _refuse(action, f"the Eliminator lands on an opponent piece, and {action.to} holds none", "RH22")
    after = moved(start_play(s), frm, to, True, None)
    return (tuple(sorted(cards)), after.board, after.reserve, after.eliminated, len(s.tables[me]), (), True)


def _entryliminator(s: State, action: Action, cards: tuple[int, ...]) -> Key:
    """RH46: a 9 and three cards of its suit forming a straight; an opponent piece on the start square."""
    nine, rest = cards[0], tuple(sorted(cards[1:]))
    if rank(nine) != NINE or any(suit(c) != suit(nine) for c in rest) or not is_straight_flush(rest):
        raise _refuse(action, "an Entryliminator is a 9 and three cards of its suit forming a straight", "RH46")
    me = s.to_move
    start = START[s.seats[me]]
    if SQUARE_INDEX[action.to or ""] != start:
        raise _refuse(action, f"the new piece enters on {s.turn}'s start square {_sq(start)}", "RH46")
    who = s.board[start]
    if s.reserve[me] <= 0 or who == EMPTY or side_of(who) == side_of(me):
        raise _refuse(action, f"an Entryliminator needs a reserve piece and an opponent piece on {_sq(start)}", "RH46")
    after = entered(start_play(s), me, start, True)
    return (tuple(sorted(cards)), after.board, after.reserve, after.eliminated, len(s.tables[me]), (), False)


def _combination(action: Action, formation: bool) -> None:
    """RH10, RH15, RH20, RH21, RH45: what each card may do, and which cards go together."""
    for use in action.uses:
        _card_role(action, use)
    cards = [CARD_INDEX[c] for c in action.all_cards()]
    most = 4 if formation else 3
    if len(cards) > most:
        raise _refuse(action, f"an action uses at most {most} cards", "RH45" if formation else "RH10")
    one_suit = len({suit(c) for c in cards}) == 1
    if formation and len(cards) == 4 and not one_suit:
        raise _refuse(action, "four cards are played together only as a flush of one suit", "RH45")
    if formation and len(cards) == 3 and not one_suit and len({rank(c) for c in cards}) != 1:
        raise _refuse(action, "three cards are played together as a flush of one suit or three of a kind", "RH45")
    if len(cards) == 3 and not one_suit and not formation:
        raise _refuse(action, "three cards are played together only as a flush of one suit "
                              "(or 'elim', 'react')", "RH21")
    if len(cards) == 2 and not (formation and cards[0] == cards[1]):
        _pair(action, cards[0], cards[1])


def _card_role(action: Action, use: Use) -> None:
    r = rank(CARD_INDEX[use.card])
    if use.kill is not None and rank(CARD_INDEX[use.kill]) not in KILLERS:
        if r in KILLERS:
            raise _refuse(action, f"the mover or 9 comes first, the kill card after it: {use.kill}+{use.card}", "RH16")
        raise _refuse(action, f"{use.kill} is not a kill card: only a 7 or 10 kills", "RH16")
    if use.frm is not None and r not in MOVERS:
        raise _refuse(action, f"{use.card} moves no piece: only 6, Q, K, A and J move", "RH6")
    if use.enter is not None and r != NINE:
        raise _refuse(action, f"{use.card} brings in no piece: only a 9 does", "RH18")
    if use.zero and r not in (SEVEN, NINE, TEN):
        if r == EIGHT:
            raise _refuse(action, f"an 8 is always written '{use.card} mystery'", "RH19")
        raise _refuse(action, f"{use.card} is a mover and has no zero use", "RH15")
    if use.mystery and r != EIGHT:
        raise _refuse(action, f"{use.card} is not a Mystery card: only an 8 is", "RH19")


def _pair(action: Action, a: int, b: int) -> None:
    """RH20: two cards of one suit, consecutive, or a Q/K/A/J with a 7/10 as a kill."""
    lo, hi = sorted((a, b))
    what = f"{card_word(lo)} and {card_word(hi)}"
    if suit(a) != suit(b):
        raise _refuse(action, f"{what} are not a pair: a pair is two cards of one suit", "RH20")
    if rank(hi) == rank(lo) + 1:
        return
    if rank(lo) in KILLERS and rank(hi) in KILL_PAIR_MOVERS:
        if not any(u.kill for u in action.uses):
            pair = f"{RANKS[rank(hi)]} and {RANKS[rank(lo)]} of {SUIT_WORDS[suit(lo)]}"
            raise _refuse(action, f"{pair} pair only as a kill", "RH20")
        return
    hint = ""
    if rank(lo) == SIX and rank(hi) == TEN:
        hint = "; a 6 kills in a pair only with its 7"
    elif rank(lo) == SEVEN and rank(hi) == NINE:
        hint = "; 7 and 9 make an Entry-Kill only inside a flush"
    raise _refuse(action, f"{what} are not a pair: their ranks are not consecutive{hint}", "RH20")


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
        raise _refuse(action, f"a new piece enters on {name}'s start square {_sq(start)}", _rule(s, "RH18"))
    if play.reserve[me] <= 0:
        raise _refuse(action, f"{name} has no piece in the reserve", _rule(s, "RH18"))
    who = play.board[start]
    if use.kill is None:
        if who != EMPTY:
            raise _refuse(action, f"the start square {_sq(start)} is not empty", "RH18")
        return entered(play, me, start, False)
    if who == EMPTY or side_of(who) == side_of(me):
        raise _refuse(action, f"an Entry-Kill needs an opponent piece on {_sq(start)}", "RH18")
    if protected(play.board, start):
        raise _refuse(action, f"the piece on {_sq(start)} is protected by a blockade", "RH17")
    return entered(play, me, start, True)


def _move(s: State, action: Action, use: Use, play: Play) -> Play:
    me = plays_for(s, s.to_move)
    frm, to = SQUARE_INDEX[use.frm or ""], SQUARE_INDEX[use.to or ""]
    board = play.board
    card = CARD_INDEX[use.card]
    if board[frm] != me:
        raise _refuse(action, *_not_movable(s, use.frm or "", board[frm]))
    if frm == to:
        raise _refuse(action, "a piece may not enter a square it has already crossed in this action, "
                              "including where it began", "RH13")
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
        raise _refuse(action, f"{use.to} holds a friendly piece", "RH12")
    if use.kill is None:
        if who != EMPTY:
            raise _refuse(action, f"{use.to} is occupied; a piece ends there only as a kill with a 7 or 10", "RH16")
    elif who == EMPTY:
        raise _refuse(action, f"{use.to} is empty; a kill ends on an opponent piece", "RH16")
    elif protected(board, to):
        raise _refuse(action, f"the piece on {use.to} is protected by a blockade", "RH17")
    return BIT[to]


def _no_path(action: Action, use: Use, card: int, frm: int, to: int, free: int, final: int) -> IllegalAction:
    """Why no walk (RH13) or J move (RH14) takes the piece from ``frm`` to ``to``."""
    if any(end == to for end, _ in mover_moves(card, frm, BIT[frm], free, final)):
        return _refuse(action, "a piece may not enter a square it has already crossed in this action", "RH13")
    r = rank(card)
    if r == JACK:
        df, dr = to % 5 - frm % 5, to // 5 - frm // 5
        if abs(df) != abs(dr) or df == 0:
            return _refuse(action, f"a J moves along a diagonal, and {use.to} is not on one from {use.frm}", "RH14")
        return _refuse(action, f"the J's diagonal from {use.frm} to {use.to} is blocked", "RH14")
    steps = STEPS[r]
    if (steps % 2 == 0) != (is_dark(frm) == is_dark(to)):
        colour = "the starting colour" if steps % 2 == 0 else "the other colour"
        return _refuse(action, f"{steps} steps always end on {colour}", "RH13")
    if frm == to:
        return _refuse(action, "a piece may not enter a square it has already crossed in this action", "RH13")
    return _refuse(action, f"no walk of exactly {steps} steps through empty squares leads from {use.frm} to {use.to}", "RH13")


def _taken(s: State, action: Action, cards: tuple[int, ...]) -> tuple[int, ...]:
    """RH19, N4: the table cards named by ``8x mystery CARD``, which must be named exactly when needed."""
    me = s.to_move
    eights = [u for u in action.uses if u.mystery]
    needed = mystery_choices(cards, s.tables[me], s.hands[me])
    count = len(needed[0])
    named = [CARD_INDEX[u.taken] for u in eights if u.taken]
    if not count:
        if named:
            raise _refuse(action, "no table card is taken into the hand here: write the 8 as '8x mystery'", "RH19")
        return ()
    if not named:
        left, _ = remove_cards(s.tables[me], s.hands[me], cards)
        raise _refuse(action, "the 8 turns a table place into a hand place: name the table card "
                              f"taken into the hand, e.g. '{eights[0].card} mystery {CARD_NAMES[left[0]]}'", "RH19")
    taken = tuple(sorted(named))
    if taken not in needed:
        if len(taken) != count:
            raise _refuse(action, f"name {count} table card(s) taken into the hand", "RH19")
        raise _refuse(action, f"{' '.join(CARD_NAMES[c] for c in taken)} is not one of {s.turn}'s table cards", "RH19")
    return taken


def _sq(sq: int) -> str:
    return SQUARE_NAMES[sq]


def _rule(s: State, rule: str) -> str:
    """An out player breaks the rule through RH34, which says whose pieces they play."""
    return "RH34" if plays_for(s, s.to_move) != s.to_move else rule


def _whose(s: State) -> str:
    owner = plays_for(s, s.to_move)
    return f"{s.turn}'s own" if owner == s.to_move else f"{s.turn}'s partner {s.seats[owner]}'s"


def _not_movable(s: State, square: str, who: int) -> tuple[str, str]:
    """Why the piece on ``square`` is not the player's to move, and the rule (RH12, RH33, RH34)."""
    me, owner = s.to_move, plays_for(s, s.to_move)
    if owner == me and who != EMPTY and who != me and side_of(who) == side_of(me):
        return f"{square} holds a piece of {s.turn}'s partner {s.seats[who]}: a player moves only their own", "RH33"
    if owner != me:
        return f"{square} holds no piece of {s.seats[owner]}, whose pieces the out player {s.turn} moves", "RH34"
    return f"{square} holds no {s.turn} piece to move", "RH12"


__all__ = ["key_of"]
