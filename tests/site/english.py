"""English words on a page asked in another language: the word list and the
search shared by the server-side walk (test_no_english_prose.py) and the
browser walk (test_language_walk_browser.py)."""

from __future__ import annotations

import re

from api.models import SCOPES

# English words that are no words of German or Spanish (nor, in Latin letters,
# of Russian): "in", "was", "also", "will", "so", "an", "hand", "team",
# "partner", "start" are German too, and "no", "a", "me", "he", "se" Spanish;
# "bye" is left out, the Spanish glossary keeps it: "descanso (bye)".
ENGLISH = frozenset("""
    the and you your yours with this that these those of to is are were has have had not yet here
    when what which who whom than been would should could can can't cannot don't doesn't isn't won't
    it its it's they them their there from for by at or on be being if then only each every any
    some more back new how why where after before about our we us my
    game games play plays played playing player players join joined joins won lost rated unrated casual
    round rounds move moves sign signed seek seeks challenge challenges tournament tournaments rating
    ratings ladder rules resign resigned draw abort offer accept decline cancel create created
    password username email forgot remember log login logout account settings language
    replay watch watching spectator spectators opponent opponents winner wins losses draws
    standings pairing pairings tiebreak tiebreaks bracket upcoming running finished none
    turn seat seats card cards piece pieces pawn pawns time clock report appeal page next previous
    first last show hide yes submit save send reason black rapid classical correspondence found forbidden
""".split())

# What stays as written in every language: the game names, the site's name,
# the language menu, the API's scope names (and the test's usernames and
# tournament names, added by the world).
KEPT_PHRASES = ("Ace in the Hole", "Rhombus Formation", "Rhombus", "aceweb", "BOT",
                "English", "Deutsch", "Español", "Русский",
                *(f"{scope}:" for scope in SCOPES))  # an API scope, as a client sends it: "bot:play: ..."
WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")
CODE = re.compile(r"[A-Z]{2,5}")  # tiebreaks (BH, WON), seats (SW), badges (BOT): codes, not words


def english_found(text: str, kept: tuple[str, ...]) -> list[str]:
    """Each English word in ``text`` with the words around it, e.g. '«Sign» in ...'."""
    for phrase in sorted(kept, key=len, reverse=True):
        text = text.replace(phrase, " ")
    found = []
    for match in WORD.finditer(text):
        if match.group().lower() in ENGLISH and not CODE.fullmatch(match.group()):
            start, end = match.span()
            found.append(f"{text[max(0, start - 40):start]}«{match.group()}»{text[end:end + 40]}")
    return found
