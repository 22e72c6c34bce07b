"""Building a Rhombus action use by use (issue 24): what can follow the uses made.

Listing every legal action of a Rhombus position can cost seconds (a Formation
4-card flush on an open board has tens of thousands), so the mover's view
names only the card sets that have an action (``sets``, engine.rhombus.builder
.card_sets), and the page, or a program through the API, asks here which next
uses can still complete a legal action with exactly the chosen cards. The
action is then played as its uses joined by ", ", and the record keeps its
canonical text (N1).

Only the player to move, in a running game, at the game's own ply, is
answered: the answer comes from their own cards (RH29), so anyone else is
refused before the rules are asked anything. It reads the game and writes
nothing, so a refusal changes nothing.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypedDict

from django.utils.translation import gettext

import engine
from engine.rhombus import builder
from games import payloads, refusals
from games.models import TURN_RULE

RHOMBUS = "rhombus"
MAX_CARDS = 4  # RH10, RH45: an action takes at most four cards (Formation)
MAX_USE_CHARS = 24  # the longest use, "8S mystery QD" or "QH+7H c2xc5", with room


class OptionsJSON(TypedDict):
    ply: int
    cards: list[str]
    done: list[str]
    uses: list[str]  # the next uses that can still complete a legal action, in string order
    actions: list[str]  # whole actions of exactly these cards (elim, react, entry, discard), before any use


def well_formed(cards: Any, done: Any) -> str | None:
    """Why a request's ``cards`` or ``done`` cannot be read, in the active
    language, or None. (Whether the cards are the mover's is the rules'.)"""
    if not _strings(cards) or not 1 <= len(cards) <= MAX_CARDS:
        return gettext('"cards" must be a list of one to four card names, e.g. ["QH", "7H"] (RH10)')
    if not _strings(done) or len(done) > MAX_CARDS or any(len(use) > MAX_USE_CHARS for use in done):
        return gettext('"done" must be a list of the uses made so far, at most four, e.g. ["QH+7H c2xc5"]')
    return None


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def options(game: Any, user: Any, ply: int, cards: Sequence[str], done: Sequence[str]) -> OptionsJSON:
    """The uses that can follow ``done`` with exactly ``cards`` chosen in
    ``game`` (as games.store.load reads it), for ``user`` who must be the
    player to move at ``ply``; or :class:`refusals.Refusal` saying why not (not a
    player, the game over, not Rhombus, a stale ply, not their turn, a use the
    rules cannot read)."""
    if user is None or not getattr(user, "is_authenticated", False):
        raise refusals.Refusal(gettext("log in to play"))
    seat = game.seat_of(user)
    if seat is None:
        raise refusals.Refusal(gettext("you are not playing in this game"))
    if not game.running:
        raise refusals.Refusal(gettext("the game is over (%(status)s)") % {"status": game.status})
    if game.kind != RHOMBUS:
        raise refusals.Refusal(gettext("only Rhombus actions are built use by use; %(game)s lists its legal actions "
                                       "in your view") % {"game": game.title})
    if ply != game.ply:
        raise refusals.Refusal(gettext("stale ply %(ply)s: the game is at ply %(current)s; resync and try again")
                               % {"ply": ply, "current": game.ply})
    if game.to_move != seat:
        raise refusals.Refusal(gettext("it is %(seat)s's turn (%(rule)s)")
                               % {"seat": refusals.seat_title(game.to_move), "rule": TURN_RULE[game.kind]})
    try:
        found = builder.options(payloads.state_of(game), list(cards), list(done))
    except engine.EngineError as error:  # NotationError: a use it cannot read
        raise refusals.Refusal(refusals.describe(error)) from None
    return {"ply": ply, "cards": list(cards), "done": list(done),
            "uses": list(found.uses), "actions": list(found.actions)}
