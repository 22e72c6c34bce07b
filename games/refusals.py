"""The engine's refusals in the player's language.

The engine raises errors with a ``code`` and ``params`` (engine/errors.py,
where each code's English template lives); here each code has its catalog
entry, with the same named placeholders, so :func:`describe` words a refusal
in the active language. Notation (actions, squares, card codes) is left as
written; a card, pawn, suit or seat meant as a word (engine.errors.WORDS) is
worded in the language, with the rules pages' names.
"""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext, pgettext_lazy

from engine.errors import WORDS, EngineError, english_ordinal

WORDINGS: dict[str, Promise] = {
    "game-over": _('%(action)s: the game is over'),
    "card-not-in-hand": _("%(action)s: %(card)s is not in %(seat_word)s's hand"),
    "other-side-card-not-in-hand": _("%(action)s: %(card)s, a %(owner_word)s card, is not in %(seat_word)s's hand"),
    "aces-captured": _(
        "%(action)s: both of %(seat_word)s's Aces are captured, so the only legal action is releasing an "
        'Ace'
    ),
    "burn-with-a-move": _('%(action)s: %(card)s has a move, only a card without moves can be burned'),
    "release-pawn-on-board": _(
        '%(action)s: the %(pawn_word)s pawn is on %(square)s, not captured; %(card)s can move it one '
        'square instead'
    ),
    "release-pawn-not-in-play": _('%(action)s: the %(pawn_word)s pawn is not in play'),
    "release-home-taken": _('%(action)s: the home square %(square)s holds your own pawn %(pawn)s'),
    "no-pawn-on-square": _('%(action)s: there is no pawn on %(square)s'),
    "opponent-pawn": _(
        "%(action)s: %(square)s holds %(pawn)s, an opponent pawn; a card moves only its own side's pawns"
    ),
    "wrong-suit-pawn": _('%(action)s: %(card)s moves only %(suit_word)s pawns, and %(square)s holds %(pawn)s'),
    "own-pawn-on-target": _('%(action)s: %(square)s holds your own pawn %(pawn)s'),
    "not-legal": _('%(action)s is not a legal action'),
    "face-pawn-captured": _(
        '%(action)s: the %(pawn_word)s pawn is captured; %(card)s can only release it (write %(card)s '
        '@%(square)s)'
    ),
    "face-pawn-elsewhere": _('%(action)s: %(card)s moves only the %(pawn_word)s pawn, which is on %(square)s'),
    "face-pawn-not-in-play": _('%(action)s: %(card)s moves only the %(pawn_word)s pawn, which is not in play'),
    "face-one-square": _('%(action)s: a face card moves its pawn exactly one square'),
    "jump-one-square": _('%(action)s: %(rank)s jumps 1 square one way and %(other)s the other'),
    "jump-squares": _('%(action)s: %(rank)s jumps %(squares)s squares one way and %(other)s the other'),
    "straight-line": _('%(action)s: %(rank)s moves a pawn exactly %(squares)s squares in a straight line'),
    "path-blocked": _('%(action)s: the path is blocked at %(square)s'),
    "ace-not-a-card": _('%(text)s is not a card: write rank then suit, like 5H or 10S'),
    "move-needs-squares": _('a move of %(card)s needs two squares, like e1-e6'),
    "no-from-square": _('a %(kind)s of %(card)s has no from-square'),
    "release-not-face": _('%(card)s cannot release: only a face card (A, K, Q, J) releases its pawn (R12)'),
    "release-not-home": _('%(card)s @%(square)s: the %(pawn_word)s returns to its home square %(home)s (R3)'),
    "not-a-kind": _('%(kind)s is not a kind of action: move, release or burn'),
    "burn-moves-nothing": _('a burn of %(card)s moves nothing and captures nothing (R7)'),
    "ace-action-not-text": _("an action is text like '5H e1-e6', not %(type)s"),
    "ace-not-an-action": _("%(text)s is not an action: write '5H e1-e6', '8D b1xc3', 'KH @f1' or '9C burn'"),
    "ace-json-not-object": _('an action in JSON is an object with a "card", like {"card": "9C", "burn": true}'),
    "ace-json-needs-squares": _(
        'the action for %(card)s needs "from" and "to" squares, "release": true or "burn": true'
    ),
    "rhombus-not-a-card": _('%(text)s is not a card: write rank then suit, like 6C, 10H or QS (RH5)'),
    "rhombus-not-a-square": _('%(text)s is not a square: a1 to e5 (RH1)'),
    "rhombus-action-not-text": _("an action is text like 'QH b1-b4', not %(type)s"),
    "rhombus-json-not-object": _(
        'an action in JSON is an object like {"uses": [{"card": "QH", "from": "b1", "to": "b4"}]}'
    ),
    "rhombus-json-no-uses": _(
        'an action in JSON has "uses", "eliminator", "reactivate", "entryliminator" or "discard"'
    ),
    "json-card-list": _('"%(key)s" is a list of %(count)s cards'),
    "json-square": _('"%(key)s" must be a square like "c3"'),
    "json-use-not-object": _('a use in JSON is an object with a "card", like {"card": "10C", "zero": true}'),
    "json-kill-card": _('"kill" must be a card like "7H"'),
    "json-mystery": _('"mystery" is null or the card taken into the hand'),
    "json-use-needs": _('the use of %(card)s needs "from" and "to", "enter", "zero": true or "mystery"'),
    "kill-joins-move": _('%(card)s+%(kill)s: a kill card joins only a move or an entry (N3)'),
    "not-an-eliminator": _("%(text)s is not an Eliminator: write 'elim 10C JC QC c2xc3'"),
    "not-a-reactivation": _("%(text)s is not a reactivation: write 'react AD AH AS'"),
    "not-an-entryliminator": _("%(text)s is not an Entryliminator: write 'entry 9S JS QS KS @xa1'"),
    "not-a-discard": _("%(text)s is not a discard: write 'discard 6H' or 'discard 6H, 7H'"),
    "not-a-use": _(
        "%(text)s is not a card use: write 'QH b1-b4', 'QH+7H c2xc5', '9D @a1', '9D+10D @xa1', '10C 0' "
        "or '8S mystery'"
    ),
    "kill-spelling": _('%(text)s: a kill is written CARD+KILL FROMxTO, a move CARD FROM-TO (N3)'),
    "entry-kill-spelling": _('%(text)s: an Entry-Kill is written 9x+KILL @xSQUARE, an entry 9x @SQUARE (N3)'),
    "rhombus-game-over": _('%(action)s: the game is over (%(reason)s)'),
    "rhombus-not-legal": _('%(action)s: not a legal action here'),
    "discard-while-legal": _('%(action)s: a player with a piece on the board discards only when no action is legal'),
    "must-enter": _('%(action)s: with no piece on the board a used action must bring a piece in with a 9'),
    "entryliminator-formation-only": _('%(action)s: the Entryliminator belongs to Formation'),
    "discard-formation-only": _('%(action)s: the discard belongs to Formation'),
    "no-reactivation-in-formation": _('%(action)s: Formation has no reactivation: three of a kind is used'),
    "card-used-twice": _('%(action)s: each card is used once (N2)'),
    "not-your-card": _("%(action)s: %(card)s is not one of %(seat)s's cards"),
    "reactivation-one-rank": _('%(action)s: a reactivation is three cards of one rank'),
    "eliminator-flush": _('%(action)s: an Eliminator is three cards of one suit with consecutive ranks'),
    "eliminator-own-piece": _(
        "%(action)s: the Eliminator lifts one of %(seat)s's own pieces, and %(square)s holds none"
    ),
    "eliminator-partner-piece": _(
        "%(action)s: the Eliminator lifts one of %(seat)s's partner %(partner)s's pieces, and %(square)s "
        'holds none'
    ),
    "eliminator-target": _('%(action)s: the Eliminator lands on an opponent piece, and %(square)s holds none'),
    "entryliminator-cards": _('%(action)s: an Entryliminator is a 9 and three cards of its suit forming a straight'),
    "entryliminator-start": _("%(action)s: the new piece enters on %(seat)s's start square %(square)s"),
    "entryliminator-needs": _(
        '%(action)s: an Entryliminator needs a reserve piece and an opponent piece on %(square)s'
    ),
    "too-many-cards": _('%(action)s: an action uses at most %(count)s cards'),
    "four-cards-flush": _('%(action)s: four cards are played together only as a flush of one suit'),
    "three-cards-formation": _('%(action)s: three cards are played together as a flush of one suit or three of a kind'),
    "three-cards-flush": _(
        "%(action)s: three cards are played together only as a flush of one suit (or 'elim', 'react')"
    ),
    "kill-card-order": _('%(action)s: the mover or 9 comes first, the kill card after it: %(kill)s+%(card)s'),
    "not-a-kill-card": _('%(action)s: %(kill)s is not a kill card: only a 7 or 10 kills'),
    "card-moves-no-piece": _('%(action)s: %(card)s moves no piece: only 6, Q, K, A and J move'),
    "card-brings-no-piece": _('%(action)s: %(card)s brings in no piece: only a 9 does'),
    "eight-is-mystery": _("%(action)s: an 8 is always written '%(card)s mystery'"),
    "mover-no-zero": _('%(action)s: %(card)s is a mover and has no zero use'),
    "not-mystery-card": _('%(action)s: %(card)s is not a Mystery card: only an 8 is'),
    "pair-suits": _(
        '%(action)s: %(card_lo_word)s and %(card_hi_word)s are not a pair: a pair is two cards of one '
        'suit'
    ),
    "pair-kill-only": _('%(action)s: %(rank_hi)s and %(rank_lo)s of %(suits_word)s pair only as a kill'),
    "pair-ranks": _(
        '%(action)s: %(card_lo_word)s and %(card_hi_word)s are not a pair: their ranks are not '
        'consecutive'
    ),
    "pair-ranks-six-ten": _(
        '%(action)s: %(card_lo_word)s and %(card_hi_word)s are not a pair: their ranks are not '
        'consecutive; a 6 kills in a pair only with its 7'
    ),
    "pair-ranks-seven-nine": _(
        '%(action)s: %(card_lo_word)s and %(card_hi_word)s are not a pair: their ranks are not '
        'consecutive; 7 and 9 make an Entry-Kill only inside a flush'
    ),
    "entry-start-square": _("%(action)s: a new piece enters on %(seat)s's start square %(square)s"),
    "entry-no-reserve": _('%(action)s: %(seat)s has no piece in the reserve'),
    "start-square-occupied": _('%(action)s: the start square %(square)s is not empty'),
    "entry-kill-needs-opponent": _('%(action)s: an Entry-Kill needs an opponent piece on %(square)s'),
    "blockade": _('%(action)s: the piece on %(square)s is protected by a blockade'),
    "crossed-start": _(
        '%(action)s: a piece may not enter a square it has already crossed in this action, including '
        'where it began'
    ),
    "crossed": _('%(action)s: a piece may not enter a square it has already crossed in this action'),
    "friendly-piece": _('%(action)s: %(square)s holds a friendly piece'),
    "occupied-needs-kill": _('%(action)s: %(square)s is occupied; a piece ends there only as a kill with a 7 or 10'),
    "kill-on-empty": _('%(action)s: %(square)s is empty; a kill ends on an opponent piece'),
    "jack-diagonal": _('%(action)s: a J moves along a diagonal, and %(to)s is not on one from %(from)s'),
    "jack-blocked": _("%(action)s: the J's diagonal from %(from)s to %(to)s is blocked"),
    "steps-same-colour": _('%(action)s: %(steps)s steps always end on the starting colour'),
    "steps-other-colour": _('%(action)s: %(steps)s steps always end on the other colour'),
    "no-walk": _('%(action)s: no walk of exactly %(steps)s steps through empty squares leads from %(from)s to %(to)s'),
    "mystery-nothing-taken": _("%(action)s: no table card is taken into the hand here: write the 8 as '8x mystery'"),
    "mystery-name-card": _(
        '%(action)s: the 8 turns a table place into a hand place: name the table card taken into the '
        "hand, e.g. '%(example)s'"
    ),
    "mystery-count": _('%(action)s: name %(count)s table card(s) taken into the hand'),
    "mystery-not-table-card": _("%(action)s: %(cards)s is not one of %(seat)s's table cards"),
    "partner-piece": _(
        "%(action)s: %(square)s holds a piece of %(seat)s's partner %(partner)s: a player moves only "
        'their own'
    ),
    "out-player-piece": _(
        '%(action)s: %(square)s holds no piece of %(partner)s, whose pieces the out player %(seat)s '
        'moves'
    ),
    "no-own-piece": _('%(action)s: %(square)s holds no %(seat)s piece to move'),
    "record-not-object": _('a record is a JSON object with commitment and actions'),
    "record-format": _('unknown record format %(format)s; this engine reads %(known)s'),
    "record-not-text": _('%(key)s must be text'),
    "record-headers-actions": _('headers must be an object and actions a list'),
    "record-header-line": _('line %(line)s: a header is written [Name "value"]'),
    "record-termination": _('unknown termination %(reason)s'),
    "record-winner": _('winner must be red, black or none, not %(winner)s'),
    "record-commitment": _('the commitment must be a SHA-256 in hex (64 characters) (%(rule)s)'),
    "record-header-own": _('the header %(name)s is written by the record itself'),
    "record-header-name": _('a header name is letters, digits and _ only, not %(name)s'),
    "record-header-break": _('the %(name)s header cannot hold a line break'),
    "record-half-action": _('the moves end in a half action: %(word)s'),
    "record-result": _('unknown result %(result)s: write 1-0, 0-1, 1/2-1/2, 0-0 or *'),
    "record-needs-termination": _(
        'the result %(result)s needs a Termination header saying how the game ended: %(reasons)s'
    ),
    "record-both-lost": _(
        '0-0 (both lost) is written for a double forfeit only (Termination %(reasons)s), not for '
        '%(reason)s'
    ),
    "ace-record-action": _("action %(number)s (%(seat_word)s's %(turn_ordinal)s turn): %(error)s"),
    "rhombus-record-action": _("action %(number)s (%(seat)s's %(turn_ordinal)s turn): %(error)s"),
    "record-no-seed": _('the seed is not revealed yet, so the game cannot be replayed (%(rule)s)'),
    "record-seed-mismatch": _('the seed does not match the commitment: SHA-256 of the seed differs (%(rule)s)'),
    "record-other-ending": _(
        'the record says %(said_winner)s by %(said_reason)s, but the game ended with %(winner)s winning '
        'by %(reason)s'
    ),
    "record-still-running": _('the record says the game ended by %(reason)s, but it is still running'),
    "record-ended-before": _('the record says %(said_reason)s, but the game had already ended by %(reason)s'),
    "record-json": _('not valid JSON: %(error)s'),
    "record-json-deep": _('not valid JSON: a number too long or nesting too deep'),
    "rhombus-record-not-object": _('a record is a JSON object with players, commitment and actions'),
    "rhombus-record-format": _('unknown record format %(format)s; this reads %(known)s'),
    "record-players": _('players must be an object of seat: name, e.g. {"SW": "alice", "NE": "bob"}'),
    "record-player-count": _('Rhombus is played by 2 or 4 players, not %(players)s'),
    "record-seats": _('the players sit at %(seats)s, each named once'),
    "record-dealer": _('the dealer is one of %(seats)s, not %(dealer)s'),
    "rhombus-record-winner": _('winner must be %(winners)s or none, not %(winner)s'),
    "record-other-game": _('this is a record of %(game)s, not of Rhombus'),
    "record-action-line": _("line %(line)s: an action is written '%(example)s'"),
    "record-action-order": _('line %(line)s: expected action %(number)s, played by %(seat)s, not %(found)s'),
    "record-setup": _('cannot set up this game: %(error)s'),
    "position-not-object": _('a position is a JSON object with board, captured, hands, decks and to_move'),
    "position-to-move": _("to_move must be 'red' or 'black', not %(value)s"),
    "position-ply": _('ply must be a whole number from 0, not %(value)s'),
    "position-pair": _('%(key)s must be an object with "red" and "black" lists'),
    "position-board": _('board must be an object like {"e1": "AH"}'),
    "position-square": _('board: %(square)s is not a square (a1 to h8)'),
    "position-captured-list": _('captured.%(seat)s must be a list of pawns'),
    "position-own-captured": _(
        "captured.%(seat)s: %(pawn)s is %(seat_word)s's own pawn; %(seat_word)s's captured area holds "
        'only opponent pawns (R4)'
    ),
    "position-pawn": _('%(context)s: %(pawn)s is not a pawn (A, K, Q or J of a suit, like AH) (R2)'),
    "position-pawn-twice": _('%(context)s: pawn %(pawn)s appears twice'),
    "position-card-list": _('%(context)s must be a list of cards'),
    "position-card": _('%(context)s: %(card)s is not a card: write rank then suit, like 5H or 10S (R5)'),
    "position-discards-list": _('discards.%(seat)s must be a list of actions'),
    "position-discard": _('discards.%(seat)s: %(error)s'),
    "position-not-seats-card": _("%(context)s: %(card)s is not one of %(seat_word)s's cards (R5)"),
    "position-card-twice": _('%(context)s: card %(card)s is also in %(other)s'),
    "rhombus-position-not-object": _('a position is a JSON object with variant, board, seats, pile and to_move'),
    "position-variant": _('variant must be one of %(variants)s, not %(value)s'),
    "position-seats": _(
        'seats must be an object with "SW" and "NE" (2 players) or "SW", "SE", "NE" and "NW" (4 players)'
    ),
    "position-seat": _('seats.%(seat)s must be an object with table, hand, reserve and eliminated'),
    "position-held": _('seats.%(seat)s: a player holds %(count)s cards, table and hand together (%(rule)s)'),
    "position-formation-out": _('seats.%(seat)s: Formation has no eliminated pieces and no out players (RH44)'),
    "position-pack": _('the cards must make up the 36-card pack; missing: %(missing)s'),
    "position-double-pack": _('the cards must make up the 72-card double pack; missing: %(missing)s'),
    "position-pieces": _('%(seat)s has %(pieces)s pieces; a player has %(most)s (RH4, RH32)'),
    "position-out-true": _('seats.%(seat)s.out must be true: %(seat)s has no piece on the board (RH34)'),
    "position-out-false": _('seats.%(seat)s.out must be false: %(seat)s has pieces on the board (RH34)'),
    "position-out-reserve": _("seats.%(seat)s: an out player's reserve is lost, so reserve must be 0 (RH34)"),
    "rhombus-position-card": _('%(context)s: %(card)s is not a card: rank then suit, like 6C, 10H or QS (RH5)'),
    "position-count": _('%(context)s must be a whole number from 0, not %(value)s'),
    "position-seat-name": _('%(context)s must be one of %(seats)s, not %(value)s'),
    "rhombus-position-board": _('board must be an object like {"a1": "SW"}'),
    "rhombus-position-square": _('board: %(square)s is not a square (a1 to e5)'),
    "position-seed-hex": _('seed_hex must be hexadecimal, not %(value)s'),
    "cli-line": _('each line is %(example)s'),
    "cli-variant": _('the position is of the %(variant)s variant, not %(asked)s (--variant)'),
    "cli-players": _('the position has %(players)s players, not %(asked)s (--players)'),
    "player-count": _('%(game)s is played by %(counts)s players, not %(players)s'),
    "variant": _('%(game)s has the variants %(variants)s, not %(variant)s'),
}

# Ace in the Hole's pawns (Ace of Hearts ...) and suits, Rhombus's cards (Q of hearts ...).
_FACES = {
    "A": pgettext_lazy("refusal pawn", "Ace"), "K": pgettext_lazy("refusal pawn", "King"),
    "Q": pgettext_lazy("refusal pawn", "Queen"), "J": pgettext_lazy("refusal pawn", "Jack"),
}
_PAWN_SUITS = {
    "H": pgettext_lazy("refusal pawn", "Hearts"), "D": pgettext_lazy("refusal pawn", "Diamonds"),
    "S": pgettext_lazy("refusal pawn", "Spades"), "C": pgettext_lazy("refusal pawn", "Clubs"),
}
_ACE_SUITS = {
    "H": pgettext_lazy("refusal suit", "heart"), "D": pgettext_lazy("refusal suit", "diamond"),
    "S": pgettext_lazy("refusal suit", "spade"), "C": pgettext_lazy("refusal suit", "club"),
}
_SEATS = {"red": pgettext_lazy("refusal seat", "Red"), "black": pgettext_lazy("refusal seat", "Black")}
_RHOMBUS_RANKS = {
    "J": pgettext_lazy("refusal card", "J"), "Q": pgettext_lazy("refusal card", "Q"),
    "K": pgettext_lazy("refusal card", "K"), "A": pgettext_lazy("refusal card", "A"),
}
_RHOMBUS_SUITS = {
    "C": pgettext_lazy("refusal card", "clubs"), "D": pgettext_lazy("refusal card", "diamonds"),
    "H": pgettext_lazy("refusal card", "hearts"), "S": pgettext_lazy("refusal card", "spades"),
}


def word(kind: str, code: str) -> str:
    """A card, pawn, suit or seat code as a word in the active language.

    >>> word("ace-pawn", "JC"), word("rhombus-card", "10H")
    ('Jack of Clubs', '10 of hearts')
    """
    if kind == "ace-seat":
        return str(_SEATS[code])
    if kind == "ace-pawn":
        return pgettext("refusal pawn", "%(face)s of %(suit)s") % {
            "face": _FACES[code[0]], "suit": _PAWN_SUITS[code[1]]}
    if kind == "ace-suit":
        return str(_ACE_SUITS[code])
    if kind == "rhombus-card":
        rank = code[:-1]
        return pgettext("refusal card", "%(rank)s of %(suit)s") % {
            "rank": _RHOMBUS_RANKS.get(rank, rank), "suit": _RHOMBUS_SUITS[code[-1]]}
    if kind == "ordinal":
        return ordinal(int(code))
    if kind == "winner":
        return code or pgettext("refusal winner", "nobody")
    return str(_RHOMBUS_SUITS[code])


def ordinal(n: int) -> str:
    """``6th``, ``6.``, ``6.º``, ``6-й``: English's suffixes are not one pattern,
    so English keeps its own rule and the other languages translate the pattern."""
    pattern = pgettext("refusal ordinal", "%(n)sth")
    return english_ordinal(n) if pattern == "%(n)sth" else pattern % {"n": n}


def describe(error: BaseException) -> str:
    """``error`` worded in the active language, naming its rule as in English;
    ``str(error)`` for an error without a code this module words."""
    code = getattr(error, "code", None)
    if not isinstance(error, EngineError) or code not in WORDINGS:
        return str(error)
    params: dict[str, Any] = {
        name: word(WORDS[name], str(value)) if name in WORDS else value for name, value in error.params.items()
    }
    if error.cause is not None and "error" in params:  # an action refused inside a record, a position
        params["error"] = describe(error.cause)
    text = str(WORDINGS[code]) % params
    rule = getattr(error, "rule", None)
    return f"{text} ({rule})" if rule else text


class Refusal(ValueError):
    """An action the site will not take; the message is meant for the player."""


def seat_title(seat: str) -> str:
    """A seat as messages name it, in the active language: "Red", "Black", "SW"."""
    return word("ace-seat", seat) if seat.islower() else seat
