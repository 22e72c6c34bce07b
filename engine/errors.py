"""The engine's errors: every one is a ValueError with a message for a player.

An error raised on bad input carries a stable ``code`` (one per kind of
refusal, a key of :data:`MESSAGES`) and ``params``, plain values (notation,
squares, card codes, numbers): ``str(error)`` is the English message built
from the code's template, and a site in another language words the same code
and params in its own (games/refusals.py).  A parameter whose name is in
:data:`WORDS` is a card, pawn, suit or seat meant as a word: its value is a
code (``"KH"``, ``"C"``, ``"red"``) that each language words itself.

>>> e = IllegalAction.of("path-blocked", "R10", action="7H e1-e8", square="e4")
>>> str(e), e.code, e.params["square"], e.rule
('7H e1-e8: the path is blocked at e4 (R10)', 'path-blocked', 'e4', 'R10')
"""
from __future__ import annotations

from typing import Self, Union

Param = Union[str, int]

# The English template of every refusal the engine raises, by code.
MESSAGES: dict[str, str] = {
    # Ace in the Hole: illegal actions (engine/ace/explain.py)
    "game-over": "%(action)s: the game is over",
    "card-not-in-hand": "%(action)s: %(card)s is not in %(seat_word)s's hand",
    "other-side-card-not-in-hand": "%(action)s: %(card)s, a %(owner_word)s card, is not in %(seat_word)s's hand",
    "aces-captured": "%(action)s: both of %(seat_word)s's Aces are captured, "
                     "so the only legal action is releasing an Ace",
    "burn-with-a-move": "%(action)s: %(card)s has a move, only a card without moves can be burned",
    "release-pawn-on-board": "%(action)s: the %(pawn_word)s pawn is on %(square)s, not captured; "
                             "%(card)s can move it one square instead",
    "release-pawn-not-in-play": "%(action)s: the %(pawn_word)s pawn is not in play",
    "release-home-taken": "%(action)s: the home square %(square)s holds your own pawn %(pawn)s",
    "no-pawn-on-square": "%(action)s: there is no pawn on %(square)s",
    "opponent-pawn": "%(action)s: %(square)s holds %(pawn)s, an opponent pawn; "
                     "a card moves only its own side's pawns",
    "wrong-suit-pawn": "%(action)s: %(card)s moves only %(suit_word)s pawns, and %(square)s holds %(pawn)s",
    "own-pawn-on-target": "%(action)s: %(square)s holds your own pawn %(pawn)s",
    "not-legal": "%(action)s is not a legal action",
    "face-pawn-captured": "%(action)s: the %(pawn_word)s pawn is captured; %(card)s can only release it "
                          "(write %(card)s @%(square)s)",
    "face-pawn-elsewhere": "%(action)s: %(card)s moves only the %(pawn_word)s pawn, which is on %(square)s",
    "face-pawn-not-in-play": "%(action)s: %(card)s moves only the %(pawn_word)s pawn, which is not in play",
    "face-one-square": "%(action)s: a face card moves its pawn exactly one square",
    "jump-one-square": "%(action)s: %(rank)s jumps 1 square one way and %(other)s the other",
    "jump-squares": "%(action)s: %(rank)s jumps %(squares)s squares one way and %(other)s the other",
    "straight-line": "%(action)s: %(rank)s moves a pawn exactly %(squares)s squares in a straight line",
    "path-blocked": "%(action)s: the path is blocked at %(square)s",
    # Ace in the Hole: notation (engine/ace/actions.py)
    "ace-not-a-card": "%(text)s is not a card: write rank then suit, like 5H or 10S",
    "move-needs-squares": "a move of %(card)s needs two squares, like e1-e6",
    "no-from-square": "a %(kind)s of %(card)s has no from-square",
    "release-not-face": "%(card)s cannot release: only a face card (A, K, Q, J) releases its pawn (R12)",
    "release-not-home": "%(card)s @%(square)s: the %(pawn_word)s returns to its home square %(home)s (R3)",
    "not-a-kind": "%(kind)s is not a kind of action: move, release or burn",
    "burn-moves-nothing": "a burn of %(card)s moves nothing and captures nothing (R7)",
    "ace-action-not-text": "an action is text like '5H e1-e6', not %(type)s",
    "ace-not-an-action": "%(text)s is not an action: write '5H e1-e6', '8D b1xc3', 'KH @f1' or '9C burn'",
    "ace-json-not-object": 'an action in JSON is an object with a "card", like {"card": "9C", "burn": true}',
    "ace-json-needs-squares": 'the action for %(card)s needs "from" and "to" squares, "release": true or "burn": true',
    # Rhombus: notation (engine/rhombus/actions.py)
    "rhombus-not-a-card": "%(text)s is not a card: write rank then suit, like 6C, 10H or QS (RH5)",
    "rhombus-not-a-square": "%(text)s is not a square: a1 to e5 (RH1)",
    "rhombus-action-not-text": "an action is text like 'QH b1-b4', not %(type)s",
    "rhombus-json-not-object": 'an action in JSON is an object like '
                               '{"uses": [{"card": "QH", "from": "b1", "to": "b4"}]}',
    "rhombus-json-no-uses": 'an action in JSON has "uses", "eliminator", "reactivate", "entryliminator" or "discard"',
    "json-card-list": '"%(key)s" is a list of %(count)s cards',
    "json-square": '"%(key)s" must be a square like "c3"',
    "json-use-not-object": 'a use in JSON is an object with a "card", like {"card": "10C", "zero": true}',
    "json-kill-card": '"kill" must be a card like "7H"',
    "json-mystery": '"mystery" is null or the card taken into the hand',
    "json-use-needs": 'the use of %(card)s needs "from" and "to", "enter", "zero": true or "mystery"',
    "kill-joins-move": "%(card)s+%(kill)s: a kill card joins only a move or an entry (N3)",
    "not-an-eliminator": "%(text)s is not an Eliminator: write 'elim 10C JC QC c2xc3'",
    "not-a-reactivation": "%(text)s is not a reactivation: write 'react AD AH AS'",
    "not-an-entryliminator": "%(text)s is not an Entryliminator: write 'entry 9S JS QS KS @xa1'",
    "not-a-discard": "%(text)s is not a discard: write 'discard 6H' or 'discard 6H, 7H'",
    "not-a-use": "%(text)s is not a card use: write 'QH b1-b4', 'QH+7H c2xc5', '9D @a1', "
                 "'9D+10D @xa1', '10C 0' or '8S mystery'",
    "kill-spelling": "%(text)s: a kill is written CARD+KILL FROMxTO, a move CARD FROM-TO (N3)",
    "entry-kill-spelling": "%(text)s: an Entry-Kill is written 9x+KILL @xSQUARE, an entry 9x @SQUARE (N3)",
    # Rhombus: illegal actions (engine/rhombus/check.py, rules.py)
    "rhombus-game-over": "%(action)s: the game is over (%(reason)s)",
    "rhombus-not-legal": "%(action)s: not a legal action here",
    "discard-while-legal": "%(action)s: a player with a piece on the board discards only when no action is legal",
    "must-enter": "%(action)s: with no piece on the board a used action must bring a piece in with a 9",
    "entryliminator-formation-only": "%(action)s: the Entryliminator belongs to Formation",
    "discard-formation-only": "%(action)s: the discard belongs to Formation",
    "no-reactivation-in-formation": "%(action)s: Formation has no reactivation: three of a kind is used",
    "card-used-twice": "%(action)s: each card is used once (N2)",
    "not-your-card": "%(action)s: %(card)s is not one of %(seat)s's cards",
    "reactivation-one-rank": "%(action)s: a reactivation is three cards of one rank",
    "eliminator-flush": "%(action)s: an Eliminator is three cards of one suit with consecutive ranks",
    "eliminator-own-piece": "%(action)s: the Eliminator lifts one of %(seat)s's own pieces, and %(square)s holds none",
    "eliminator-partner-piece": "%(action)s: the Eliminator lifts one of %(seat)s's partner %(partner)s's pieces, "
                                "and %(square)s holds none",
    "eliminator-target": "%(action)s: the Eliminator lands on an opponent piece, and %(square)s holds none",
    "entryliminator-cards": "%(action)s: an Entryliminator is a 9 and three cards of its suit forming a straight",
    "entryliminator-start": "%(action)s: the new piece enters on %(seat)s's start square %(square)s",
    "entryliminator-needs": "%(action)s: an Entryliminator needs a reserve piece and an opponent piece on %(square)s",
    "too-many-cards": "%(action)s: an action uses at most %(count)s cards",
    "four-cards-flush": "%(action)s: four cards are played together only as a flush of one suit",
    "three-cards-formation": "%(action)s: three cards are played together as a flush of one suit or three of a kind",
    "three-cards-flush": "%(action)s: three cards are played together only as a flush of one suit "
                         "(or 'elim', 'react')",
    "kill-card-order": "%(action)s: the mover or 9 comes first, the kill card after it: %(kill)s+%(card)s",
    "not-a-kill-card": "%(action)s: %(kill)s is not a kill card: only a 7 or 10 kills",
    "card-moves-no-piece": "%(action)s: %(card)s moves no piece: only 6, Q, K, A and J move",
    "card-brings-no-piece": "%(action)s: %(card)s brings in no piece: only a 9 does",
    "eight-is-mystery": "%(action)s: an 8 is always written '%(card)s mystery'",
    "mover-no-zero": "%(action)s: %(card)s is a mover and has no zero use",
    "not-mystery-card": "%(action)s: %(card)s is not a Mystery card: only an 8 is",
    "pair-suits": "%(action)s: %(card_lo_word)s and %(card_hi_word)s are not a pair: a pair is two cards of one suit",
    "pair-kill-only": "%(action)s: %(rank_hi)s and %(rank_lo)s of %(suits_word)s pair only as a kill",
    "pair-ranks": "%(action)s: %(card_lo_word)s and %(card_hi_word)s are not a pair: their ranks are not consecutive",
    "pair-ranks-six-ten": "%(action)s: %(card_lo_word)s and %(card_hi_word)s are not a pair: "
                          "their ranks are not consecutive; a 6 kills in a pair only with its 7",
    "pair-ranks-seven-nine": "%(action)s: %(card_lo_word)s and %(card_hi_word)s are not a pair: "
                             "their ranks are not consecutive; 7 and 9 make an Entry-Kill only inside a flush",
    "entry-start-square": "%(action)s: a new piece enters on %(seat)s's start square %(square)s",
    "entry-no-reserve": "%(action)s: %(seat)s has no piece in the reserve",
    "start-square-occupied": "%(action)s: the start square %(square)s is not empty",
    "entry-kill-needs-opponent": "%(action)s: an Entry-Kill needs an opponent piece on %(square)s",
    "blockade": "%(action)s: the piece on %(square)s is protected by a blockade",
    "crossed-start": "%(action)s: a piece may not enter a square it has already crossed in this action, "
                     "including where it began",
    "crossed": "%(action)s: a piece may not enter a square it has already crossed in this action",
    "friendly-piece": "%(action)s: %(square)s holds a friendly piece",
    "occupied-needs-kill": "%(action)s: %(square)s is occupied; a piece ends there only as a kill with a 7 or 10",
    "kill-on-empty": "%(action)s: %(square)s is empty; a kill ends on an opponent piece",
    "jack-diagonal": "%(action)s: a J moves along a diagonal, and %(to)s is not on one from %(from)s",
    "jack-blocked": "%(action)s: the J's diagonal from %(from)s to %(to)s is blocked",
    "steps-same-colour": "%(action)s: %(steps)s steps always end on the starting colour",
    "steps-other-colour": "%(action)s: %(steps)s steps always end on the other colour",
    "no-walk": "%(action)s: no walk of exactly %(steps)s steps through empty squares leads from %(from)s to %(to)s",
    "mystery-nothing-taken": "%(action)s: no table card is taken into the hand here: write the 8 as '8x mystery'",
    "mystery-name-card": "%(action)s: the 8 turns a table place into a hand place: name the table card "
                         "taken into the hand, e.g. '%(example)s'",
    "mystery-count": "%(action)s: name %(count)s table card(s) taken into the hand",
    "mystery-not-table-card": "%(action)s: %(cards)s is not one of %(seat)s's table cards",
    "partner-piece": "%(action)s: %(square)s holds a piece of %(seat)s's partner %(partner)s: "
                     "a player moves only their own",
    "out-player-piece": "%(action)s: %(square)s holds no piece of %(partner)s, whose pieces the out player "
                        "%(seat)s moves",
    "no-own-piece": "%(action)s: %(square)s holds no %(seat)s piece to move",
    # Game records (engine/record.py)
    "record-not-object": "a record is a JSON object with commitment and actions",
    "record-format": "unknown record format %(format)s; this engine reads %(known)s",
    "record-not-text": "%(key)s must be text",
    "record-headers-actions": "headers must be an object and actions a list",
    "record-header-line": 'line %(line)s: a header is written [Name "value"]',
    "record-termination": "unknown termination %(reason)s",
    "record-winner": "winner must be red, black or none, not %(winner)s",
    "record-commitment": "the commitment must be a SHA-256 in hex (64 characters) (%(rule)s)",
    "record-header-own": "the header %(name)s is written by the record itself",
    "record-header-name": "a header name is letters, digits and _ only, not %(name)s",
    "record-header-break": "the %(name)s header cannot hold a line break",
    "record-half-action": "the moves end in a half action: %(word)s",
    "record-result": "unknown result %(result)s: write 1-0, 0-1, 1/2-1/2, 0-0 or *",
    "record-needs-termination": "the result %(result)s needs a Termination header saying how the game ended: "
                                "%(reasons)s",
    "record-both-lost": "0-0 (both lost) is written for a double forfeit only (Termination %(reasons)s), "
                        "not for %(reason)s",
    "ace-record-action": "action %(number)s (%(seat_word)s's %(turn_ordinal)s turn): %(error)s",
    "rhombus-record-action": "action %(number)s (%(seat)s's %(turn_ordinal)s turn): %(error)s",
    "record-no-seed": "the seed is not revealed yet, so the game cannot be replayed (%(rule)s)",
    "record-seed-mismatch": "the seed does not match the commitment: SHA-256 of the seed differs (%(rule)s)",
    "record-other-ending": "the record says %(said_winner)s by %(said_reason)s, but the game ended with "
                           "%(winner)s winning by %(reason)s",
    "record-still-running": "the record says the game ended by %(reason)s, but it is still running",
    "record-ended-before": "the record says %(said_reason)s, but the game had already ended by %(reason)s",
    "record-json": "not valid JSON: %(error)s",
    "record-json-deep": "not valid JSON: a number too long or nesting too deep",
    "rhombus-record-not-object": "a record is a JSON object with players, commitment and actions",
    "rhombus-record-format": "unknown record format %(format)s; this reads %(known)s",
    "record-players": 'players must be an object of seat: name, e.g. {"SW": "alice", "NE": "bob"}',
    "record-player-count": "Rhombus is played by 2 or 4 players, not %(players)s",
    "record-seats": "the players sit at %(seats)s, each named once",
    "record-dealer": "the dealer is one of %(seats)s, not %(dealer)s",
    "rhombus-record-winner": "winner must be %(winners)s or none, not %(winner)s",
    "record-other-game": "this is a record of %(game)s, not of Rhombus",
    "record-action-line": "line %(line)s: an action is written '%(example)s'",
    "record-action-order": "line %(line)s: expected action %(number)s, played by %(seat)s, not %(found)s",
    "record-setup": "cannot set up this game: %(error)s",
    # Positions (engine/ace/position.py, engine/rhombus/position.py)
    "position-not-object": "a position is a JSON object with board, captured, hands, decks and to_move",
    "position-to-move": "to_move must be 'red' or 'black', not %(value)s",
    "position-ply": "ply must be a whole number from 0, not %(value)s",
    "position-pair": '%(key)s must be an object with "red" and "black" lists',
    "position-board": 'board must be an object like {"e1": "AH"}',
    "position-square": "board: %(square)s is not a square (a1 to h8)",
    "position-captured-list": "captured.%(seat)s must be a list of pawns",
    "position-own-captured": "captured.%(seat)s: %(pawn)s is %(seat_word)s's own pawn; "
                             "%(seat_word)s's captured area holds only opponent pawns (R4)",
    "position-pawn": "%(context)s: %(pawn)s is not a pawn (A, K, Q or J of a suit, like AH) (R2)",
    "position-pawn-twice": "%(context)s: pawn %(pawn)s appears twice",
    "position-card-list": "%(context)s must be a list of cards",
    "position-card": "%(context)s: %(card)s is not a card: write rank then suit, like 5H or 10S (R5)",
    "position-discards-list": "discards.%(seat)s must be a list of actions",
    "position-discard": "discards.%(seat)s: %(error)s",
    "position-not-seats-card": "%(context)s: %(card)s is not one of %(seat_word)s's cards (R5)",
    "position-card-twice": "%(context)s: card %(card)s is also in %(other)s",
    "rhombus-position-not-object": "a position is a JSON object with variant, board, seats, pile and to_move",
    "position-variant": "variant must be one of %(variants)s, not %(value)s",
    "position-seats": 'seats must be an object with "SW" and "NE" (2 players) or "SW", "SE", "NE" '
                      'and "NW" (4 players)',
    "position-seat": "seats.%(seat)s must be an object with table, hand, reserve and eliminated",
    "position-held": "seats.%(seat)s: a player holds %(count)s cards, table and hand together (%(rule)s)",
    "position-formation-out": "seats.%(seat)s: Formation has no eliminated pieces and no out players (RH44)",
    "position-pack": "the cards must make up the 36-card pack; missing: %(missing)s",
    "position-double-pack": "the cards must make up the 72-card double pack; missing: %(missing)s",
    "position-pieces": "%(seat)s has %(pieces)s pieces; a player has %(most)s (RH4, RH32)",
    "position-out-true": "seats.%(seat)s.out must be true: %(seat)s has no piece on the board (RH34)",
    "position-out-false": "seats.%(seat)s.out must be false: %(seat)s has pieces on the board (RH34)",
    "position-out-reserve": "seats.%(seat)s: an out player's reserve is lost, so reserve must be 0 (RH34)",
    "rhombus-position-card": "%(context)s: %(card)s is not a card: rank then suit, like 6C, 10H or QS (RH5)",
    "position-count": "%(context)s must be a whole number from 0, not %(value)s",
    "position-seat-name": "%(context)s must be one of %(seats)s, not %(value)s",
    "rhombus-position-board": 'board must be an object like {"a1": "SW"}',
    "rhombus-position-square": "board: %(square)s is not a square (a1 to e5)",
    "position-seed-hex": "seed_hex must be hexadecimal, not %(value)s",
    # The command line (engine/cli.py)
    "cli-line": "each line is %(example)s",
    "cli-variant": "the position is of the %(variant)s variant, not %(asked)s (--variant)",
    "cli-players": "the position has %(players)s players, not %(asked)s (--players)",
    # Both games (engine/game.py)
    "player-count": "%(game)s is played by %(counts)s players, not %(players)s",
    "variant": "%(game)s has the variants %(variants)s, not %(variant)s",
}

# Parameters meant as words, by name: what kind of code each holds.
WORDS: dict[str, str] = {
    "seat_word": "ace-seat", "owner_word": "ace-seat", "pawn_word": "ace-pawn", "suit_word": "ace-suit",
    "card_lo_word": "rhombus-card", "card_hi_word": "rhombus-card", "suits_word": "rhombus-suit",
    "turn_ordinal": "ordinal", "said_winner": "winner", "winner": "winner",
}

_ACE_FACES = {"A": "Ace", "K": "King", "Q": "Queen", "J": "Jack"}
_ACE_SUITS = {"H": ("heart", "Hearts"), "D": ("diamond", "Diamonds"), "S": ("spade", "Spades"),
              "C": ("club", "Clubs")}
_RHOMBUS_SUITS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


def english_word(kind: str, code: str) -> str:
    """A word parameter in English, as the messages have always said it.

    >>> english_word("ace-pawn", "JC"), english_word("rhombus-card", "QH")
    ('Jack of Clubs', 'Q of hearts')
    """
    if kind == "ace-seat":
        return code.title()
    if kind == "ace-pawn":
        return f"{_ACE_FACES[code[0]]} of {_ACE_SUITS[code[1]][1]}"
    if kind == "ace-suit":
        return _ACE_SUITS[code][0]
    if kind == "rhombus-card":
        return f"{code[:-1]} of {_RHOMBUS_SUITS[code[-1]]}"
    if kind == "ordinal":
        return english_ordinal(int(code))
    if kind == "winner":
        return code or "nobody"
    return _RHOMBUS_SUITS[code]


def english_ordinal(n: int) -> str:
    """``'6th'`` for 6.

    >>> [english_ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 112)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '112th']
    """
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def english(code: str, params: dict[str, Param]) -> str:
    """The English message of ``code`` with ``params``."""
    return MESSAGES[code] % {k: english_word(WORDS[k], str(v)) if k in WORDS else v for k, v in params.items()}


class EngineError(ValueError):
    """Base of every error the engine raises on bad input.

    ``code`` and ``params`` say what went wrong in plain values (``code`` is
    None for an error raised with a message only); ``cause`` is the error that
    an ``error`` parameter quotes (an action refused inside a record), so
    that it can be worded in another language too.
    """

    def __init__(self, message: str | None = None, *, code: str | None = None,
                 params: dict[str, Param] | None = None, cause: EngineError | None = None) -> None:
        self.code = code
        self.params: dict[str, Param] = dict(params or {})
        self.cause = cause
        if message is None:
            assert code is not None, "an EngineError needs a message or a code"
            message = english(code, self.params)
        super().__init__(message)

    @classmethod
    def coded(cls, code: str, cause: EngineError | None = None, /, **params: Param) -> Self:
        """The error of kind ``code``, worded in English from :data:`MESSAGES`."""
        return cls(code=code, params=params, cause=cause)


class NotationError(EngineError):
    """Text or JSON that does not spell an action (see the rules' Notation)."""


class IllegalAction(EngineError):
    """A well-formed action that the rules do not allow in this position.

    ``rule`` is the number of the rule it breaks, e.g. ``"R10"``; the message
    ends with it in brackets: ``7H e1-e8: the path is blocked at e4 (R10)``.
    """

    def __init__(self, message: str | None, rule: str, *, code: str | None = None,
                 params: dict[str, Param] | None = None) -> None:
        params = dict(params or {})
        if message is None:
            assert code is not None, "an IllegalAction needs a message or a code"
            message = english(code, params)
        super().__init__(f"{message} ({rule})", code=code, params=params)
        self.rule = rule

    @classmethod
    def of(cls, code: str, rule: str, **params: Param) -> IllegalAction:
        """The refusal of kind ``code`` under ``rule``, worded in English from :data:`MESSAGES`."""
        return cls(None, rule, code=code, params=params)


class PositionError(EngineError):
    """A position (the rules' position format) that cannot be read."""


class RecordError(EngineError):
    """A game record that cannot be read or does not replay."""
