"""A chat line's text on its own: cleaned to one plain line, its links found, and
how far it is from another line (issue 25). No database, no Django."""

from __future__ import annotations

import re
import unicodedata

MAX_LENGTH = 140  # lichess's limit: a line, not a letter

# Zero-width and direction marks hide letters from the abuse filter and flip what
# others see (U+202E); Unicode files them under Cf (format), as it does the BOM.
_INVISIBLE_CATEGORIES = {"Cc", "Cf", "Co", "Cs", "Cn"}
_LINE_BREAKS = re.compile(r"[\r\n\u2028\u2029\u0085\v\f]+")
_SPACES = re.compile(r"\s+")

# A link is a scheme, a www. host, or a host with a known top-level domain
# followed by a path or standing alone ("lichess.org", "bit.ly/x").
_LINK = re.compile(
    r"(?:\b[a-z][a-z0-9+.-]*://\S)"
    r"|(?:\bwww\d?\.\S)"
    r"|(?:\b[\w-]+(?:\.[\w-]+)*\.(?:com|org|net|io|ly|gg|me|tv|co|de|es|ru|uk|us|info|xyz|app|dev|link|to|be|cc|su|рф)\b(?:/\S*)?)",
    re.IGNORECASE,
)


def clean(text: str) -> str:
    """One line of visible text: line breaks become spaces, controls and
    zero-width characters go, runs of spaces become one, ends trimmed."""
    text = unicodedata.normalize("NFC", _LINE_BREAKS.sub(" ", text))
    visible = "".join(char for char in text if unicodedata.category(char) not in _INVISIBLE_CATEGORIES)
    return _SPACES.sub(" ", visible).strip()


def has_link(text: str) -> bool:
    return _LINK.search(text) is not None


def distance_below(first: str, second: str, limit: int) -> bool:
    """Whether the edit distance (Levenshtein) of the two is below limit: the
    usual two-row table, given up once a whole row is at the limit."""
    if abs(len(first) - len(second)) >= limit:
        return False
    previous = list(range(len(second) + 1))
    for i, a in enumerate(first, 1):
        current = [i]
        for j, b in enumerate(second, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a != b)))
        if min(current) >= limit:
            return False
        previous = current
    return previous[-1] < limit


def too_close(line: str, earlier: str) -> bool:
    """lichess's flood rule: a line within max(2, length/8) edits of an earlier one
    says nothing new."""
    return distance_below(line.lower(), earlier.lower(), max(2, len(line) // 8))
