"""The abuse filter (lichess's `shutup` idea, issue 25): insults in English,
German, Spanish and Russian, found through look-alike letters, digits for
letters, repeated letters and letters spaced or dotted apart.

A line's weight is what it says: 0 for nothing found, ``INSULT`` per insult,
``CRITICAL`` for a slur or a call to self-harm, which reports its author at once.
The player's rolling score (chat.lines) adds up the weights of their last lines.
No database, no Django.
"""

from __future__ import annotations

import re
import unicodedata

INSULT = 1
CRITICAL = 10

# Stems: a word of the line matches when it starts with one (so "idiots",
# "Idioten", "idiota" match "idiot"), unless the entry ends in "$" (the whole word).
# Multi-word entries match across the spaces between words. Entries are folded as
# lines are (lower case, no accents, ß as ss, runs of one letter as one letter).
_INSULTS = {
    "en": ("idiot", "moron", "stupid", "dumb$", "retard", "loser", "fuck", "shit$", "shitty", "asshole",
           "bastard", "bitch", "dick$", "dickhead", "wanker", "scum", "noob$", "cheater$", "stfu$", "gtfo$",
           "pathetic", "imbecile", "cretin", "twat"),
    "de": ("idiot", "vollidiot", "arschloch", "arsch$", "wichser", "spast", "depp$", "deppen", "dumm$",
           "dumme$", "dummer$", "dummkopf", "trottel", "penner", "mistkerl", "schlampe", "scheiße",
           "scheiss$", "fick dich", "halt die fresse", "halts maul", "verpiss dich", "behindert", "betrüger"),
    "es": ("idiota", "imbécil", "estúpid", "tonto", "tonta", "pendej", "cabrón", "gilipollas", "mierda",
           "puta$", "puto$", "subnormal", "inútil", "tramposo", "tramposa", "capullo", "joder", "jódete",
           "mamón", "payaso", "basura", "retrasad"),
    # Russian as Latin letters, as it is often typed.
    "ru-latin": ("suka$", "blyat", "blyad", "pidor", "pidar", "huy$", "hui$", "debil", "mudak", "durak"),
    "ru": ("идиот", "дурак", "дура$", "дебил", "тупой", "тупая", "тупица", "сука", "суки$", "бля", "хуй",
           "хуе", "хуи", "мудак", "мудил", "урод", "лох$", "лошара", "чмо$", "говно", "козел", "тварь",
           "сволоч", "заткнись", "нуб$", "читер", "ублюд"),
}
_CRITICAL = {
    "en": ("nigger", "nigga", "faggot", "fag$", "cunt", "kys$", "kill yourself", "kill urself", "hang yourself",
           "go die", "rape$", "raping"),
    "de": ("hurensohn", "fotze", "missgeburt", "schwuchtel", "neger", "bring dich um", "häng dich auf",
           "vergasen"),
    "es": ("hijo de puta", "maricón", "marica$", "negrata", "sudaca", "mátate", "suicídate", "ahórcate"),
    "ru-latin": ("pidoras", "ubei sebya", "sdohni"),
    "ru": ("пидор", "пидар", "педик", "хохол", "чурка", "жид$", "ниггер", "убей себя", "убейся", "сдохни",
           "выпились", "повесься"),
}

# Look-alikes, folded both ways so that a word of either script matches however
# its letters are mixed: "іdiоt" with Cyrillic і and о is "idiot", "сykа" is "сука".
_TO_LATIN = str.maketrans({
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c",
    "т": "t", "у": "y", "х": "x", "і": "i", "ї": "i", "ј": "j", "ѕ": "s", "ԁ": "d",
    "0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b",
})
_TO_CYRILLIC = str.maketrans({
    "a": "а", "b": "в", "e": "е", "ё": "е", "k": "к", "m": "м", "h": "н", "o": "о", "p": "р", "c": "с",
    "t": "т", "y": "у", "x": "х", "u": "и", "n": "п", "r": "г", "i": "і",
    "0": "о", "3": "з", "4": "ч", "6": "б",
})
# A letter of the other script in a word is folded to this one; "і" is not Russian.
_CYRILLIC_EXTRA = str.maketrans({"і": "и", "ї": "и"})
# Symbols for letters count only before a letter ("@sshole", "$hit", "sh!t"): an
# exclamation mark ending a sentence is not an "i".
_SYMBOLS = {"@": "a", "$": "s", "!": "i", "|": "i", "€": "e"}
_SYMBOL_IN_WORD = re.compile(r"[@$!|€](?=\w)")
_WORD_BREAK = re.compile(r"[^\w\s]+|_")
_SPACED_LETTERS = re.compile(r"\b(?:\w )+\w\b")  # "i d i o t": letters one by one


def _plain(text: str) -> str:
    """Lower case, accents gone (NFKD, marks dropped; ß is ss), ё as е."""
    text = unicodedata.normalize("NFKD", text.lower().replace("ß", "ss"))
    text = _SYMBOL_IN_WORD.sub(lambda match: _SYMBOLS[match.group(0)], text)
    return "".join(char for char in text if not unicodedata.combining(char)).replace("ё", "е")


def _squeezed(text: str, apart: tuple[bool, bool] = (False, False)) -> str:
    """Runs of one letter as one, punctuation inside words gone, spaced letters
    joined; ``apart`` keeps a spaced run's first and/or last letter a word of its own."""
    text = _WORD_BREAK.sub("", text)
    text = _SPACED_LETTERS.sub(lambda match: _joined(match.group(0), *apart), text)
    text = re.sub(r"(\w)\1+", r"\1", text)  # after joining: "a s s h o l e" has its double s only then
    return " ".join(text.split())


def _joined(run: str, first_apart: bool, last_apart: bool) -> str:
    """A run of spaced letters as one word. A one-letter word may stand just
    before or after it ("what a l o s e r", "ну и д е б и л", "tonto y i d i o t a"),
    and nothing tells it from the word's own first letter ("a s s h o l e"): each
    reading is tried (``_READINGS``), and the line weighs what its worst says."""
    letters = run.split(" ")
    head = [letters.pop(0)] if first_apart and len(letters) > 2 else []
    tail = [letters.pop()] if last_apart and len(letters) > 2 else []
    return " ".join([*head, "".join(letters), *tail])


# Each spaced run read whole, without a word before it, after it, or either.
_READINGS = ((False, False), (True, False), (False, True), (True, True))


def foldings(text: str) -> list[tuple[str, str]]:
    """The line read as Latin letters and as Cyrillic ones, once for each
    reading of its spaced letters (only one when it has none)."""
    plain = _plain(text)
    latin, cyrillic = plain.translate(_TO_LATIN), plain.translate(_TO_CYRILLIC).translate(_CYRILLIC_EXTRA)
    readings = _READINGS if _SPACED_LETTERS.search(_WORD_BREAK.sub("", plain)) else _READINGS[:1]
    return [(_squeezed(latin, apart), _squeezed(cyrillic, apart)) for apart in readings]


def _pattern(entries: tuple[str, ...]) -> re.Pattern[str]:
    def one(entry: str) -> str:
        whole = entry.endswith("$")
        stem = re.escape(_squeezed(_plain(entry.rstrip("$"))))
        end = r"(?!\w)" if whole else ""
        return rf"(?<!\w){stem}{end}"

    return re.compile("|".join(one(entry) for entry in entries))


def _compiled(lists: dict[str, tuple[str, ...]]) -> tuple[re.Pattern[str], re.Pattern[str]]:
    latin = tuple(entry for language in ("en", "de", "es", "ru-latin") for entry in lists[language])
    return _pattern(latin), _pattern(lists["ru"])


_INSULT_PATTERNS = _compiled(_INSULTS)
_CRITICAL_PATTERNS = _compiled(_CRITICAL)


def weight(text: str) -> int:
    """How abusive one line is: CRITICAL if it holds a critical entry, else
    INSULT for each insult found (in either folding), under the reading of its
    spaced letters that finds the most."""
    return max(_weight(latin, cyrillic) for latin, cyrillic in foldings(text))


def _weight(latin: str, cyrillic: str) -> int:
    if _CRITICAL_PATTERNS[0].search(latin) or _CRITICAL_PATTERNS[1].search(cyrillic):
        return CRITICAL
    return len(_INSULT_PATTERNS[0].findall(latin)) + len(_INSULT_PATTERNS[1].findall(cyrillic))
