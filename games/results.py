"""How a game's end reads: one wording for every ending, in one place, translatable.

Every ending is "<who> won <how>", "drawn <how>" or "aborted (<rule>)", where
<how> names the ending and the rule it comes from (R15-R17 of Ace in the Hole,
RH25-RH27 and RH43 of Rhombus). The replays' result line and the profile lists'
"How" column (Game.reason_label) read them here. Keyed by Game.Reason's values,
so that this module needs nothing from the models.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy, pgettext_lazy

# Ace in the Hole's sides as a result line names them: "alice (red) won ...".
SIDES = {"red": pgettext_lazy("side in a result line", "red"),
         "black": pgettext_lazy("side in a result line", "black")}
# The rule that holds the platform's endings (resigning, time, leaving,
# aborting) in each game: R17 in Ace in the Hole, RH27 in Rhombus.
PLATFORM_RULE = {"ace-in-the-hole": "R17", "rhombus": "RH27"}

# Each ending as what follows "won" or "drawn"; %(rule)s is PLATFORM_RULE's.
HOW: dict[str, Promise] = {
    "aces": gettext_lazy("by aces (R15)"),
    "points": gettext_lazy("on points (R16)"),
    "resignation": gettext_lazy("by resignation (%(rule)s)"),
    "time": gettext_lazy("on time (%(rule)s)"),
    "abandonment": gettext_lazy("by abandonment (%(rule)s)"),
    "no-pieces": gettext_lazy("by leaving the other side no piece on the board (RH25)"),
    "no-action": gettext_lazy("by leaving the other side no legal action (RH26)"),
    "quiet": gettext_lazy("by the quiet rule (RH27)"),
    "formation": gettext_lazy("by a Formation (RH43)"),
    "no-show": gettext_lazy("by forfeit: no first move (%(rule)s)"),
    "adjudication": gettext_lazy("by adjudication"),
}


def how(reason: str, kind: str) -> str:
    """The ending ``reason`` (a Game.Reason value) as it follows "won" or "drawn".

    >>> how("resignation", "rhombus"), how("no-pieces", "rhombus")
    ('by resignation (RH27)', 'by leaving the other side no piece on the board (RH25)')
    """
    if reason == "aborted":
        return aborted(kind)
    text = HOW.get(reason)
    if text is None:
        return reason
    return str(text) % {"rule": PLATFORM_RULE.get(kind, "R17")}


def aborted(kind: str) -> str:
    return gettext("aborted (%(rule)s)") % {"rule": PLATFORM_RULE.get(kind, "R17")}


def result_line(kind: str, reason: str | None, winner: str | None, names: Mapping[str, str], *,
                both_lost: bool = False) -> str:
    """A finished game's result as a sentence to follow "Result: ", every ending alike.

    ``winner`` is the winning side as Game.winner has it ("red", "SW+NE") or
    None for a draw; ``names`` the players by seat.

    >>> result_line("rhombus", "no-pieces", "SW+NE", {"SW": "ann", "NE": "bo"})
    'ann and bo (SW/NE) won by leaving the other side no piece on the board (RH25)'
    >>> result_line("ace-in-the-hole", "points", None, {})
    'drawn on points (R16)'
    """
    if reason is None:
        return gettext("still being played")
    if reason == "aborted":
        return aborted(kind)
    if both_lost:
        return gettext("Both players lost by forfeit (no-show)")
    if not winner:
        return gettext("drawn %(how)s") % {"how": how(reason, kind)}
    seats = winner.split("+")  # partners win together (RH35)
    players = [names.get(seat, seat) for seat in seats]
    together = players[0] if len(players) == 1 else gettext("%(first)s and %(second)s") % {
        "first": ", ".join(players[:-1]), "second": players[-1]}
    side = "/".join(str(SIDES.get(seat, seat)) for seat in seats)  # Rhombus's SW, NE stay as written
    return gettext("%(names)s (%(side)s) won %(how)s") % {"names": together, "side": side,
                                                          "how": how(reason, kind)}
