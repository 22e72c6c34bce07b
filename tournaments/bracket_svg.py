"""An elimination bracket drawn as a standalone SVG string (no Django).

Drawn on the server, like the rating chart, so the page needs no script and
the picture is the same everywhere. The winners' bracket runs in columns left
to right with the losers' bracket below it; the grand final and its reset
stand at the right, the third-place match under the final. Each match is a
box of two lines, seed and name, the winner in bold, wrapped in a link to the
match's page when there is one, and joined by a line to the match its winner
plays next. A player not yet known is shown by where he will come from
("Winner of W1-2").

The drawing has a viewBox and its natural size in pixels, so the page can put
it in a horizontally scrollable box on a phone or scale it down. Colours are
in CSS classes under ``svg.bracket`` (the style sheet inside an inline SVG
applies to the whole page, hence the prefix), so the site's CSS can restyle it.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from tournaments.brackets import Bracket, BracketState, LoserOf, Match, Seed, Slot, Source, WinnerOf

# Turns one of the drawing's English texts (a gettext msgid) into the reader's
# language; the site passes Django's gettext, the default keeps the English.
Translate = Callable[[str], str]


def _english(text: str) -> str:
    return text


def gettext_noop(text: str) -> str:
    """Marks a text for the site's translation catalogs (makemessages looks
    for this name) while this module stays free of Django."""
    return text


BOX_WIDTH = 156
LINE_HEIGHT = 20
BOX_HEIGHT = 2 * LINE_HEIGHT
ROW = BOX_HEIGHT + 14  # one first-round match and the gap below it
COLUMN = BOX_WIDTH + 34
MARGIN = 12
HEADER = 22  # room for a section's column titles
SECTION_GAP = 28
NAME_CHARS = 18  # a longer name is cut, and given whole in the tooltip
MIN_WIDTH_REM = 40  # scaled down to fit its box, but no narrower than this: below, it scrolls

STYLE = """
svg.bracket { font-family: system-ui, sans-serif; font-size: 12px; }
svg.bracket .box { fill: #fff; stroke: #9aa0a6; }
svg.bracket .ready .box { stroke: #1a7f37; stroke-width: 2; }
svg.bracket .void { opacity: 0.45; }
svg.bracket .void .box { stroke-dasharray: 4 3; }
svg.bracket .divider { stroke: #dadce0; }
svg.bracket .seed { fill: #80868b; font-size: 10px; }
svg.bracket .name { fill: #202124; }
svg.bracket .winner .name { font-weight: bold; }
svg.bracket .loser .name { fill: #80868b; }
svg.bracket .pending .name { fill: #80868b; font-style: italic; }
svg.bracket .link { fill: none; stroke: #bdc1c6; }
svg.bracket .title { fill: #5f6368; font-size: 11px; }
svg.bracket .note { fill: #a33; font-size: 10px; font-style: italic; }
svg.bracket a:hover .box, svg.bracket a:focus .box { fill: #f1f3f4; }
"""


@dataclass(frozen=True)
class Box:
    """Where a match is drawn: its top-left corner."""

    x: float
    y: float

    @property
    def middle(self) -> float:
        return self.y + BOX_HEIGHT / 2


# --- layout ---------------------------------------------------------------


def _winners_column(bracket: Bracket, round_number: int) -> int:
    """Winners' rounds sit above the losers' round their losers drop into,
    so in double elimination the finals of both brackets share a column."""
    if not bracket.double or round_number == 1:
        return round_number - 1
    return 2 * round_number - 3


def _winners_box(bracket: Bracket, match: Match, top: float) -> Box:
    # Positions are those of the full power-of-two bracket: a match of round
    # r sits midway between the two it is fed by, byes leave their gap.
    span = 2 ** (match.round - 1)
    middle = top + (match.index - 0.5) * span * ROW
    return Box(MARGIN + _winners_column(bracket, match.round) * COLUMN, middle - BOX_HEIGHT / 2)


def _losers_box(match: Match, top: float) -> Box:
    # Rounds 2j - 1 and 2j have the same number of matches, half of the round before.
    span = 2 ** ((match.round + 1) // 2 - 1)
    middle = top + (match.index - 0.5) * span * ROW
    return Box(MARGIN + (match.round - 1) * COLUMN, middle - BOX_HEIGHT / 2)


@dataclass(frozen=True)
class Layout:
    boxes: dict[str, Box]
    titles: list[tuple[float, float, str]]
    width: float
    height: float


def layout(bracket: Bracket, translate: Translate = _english) -> Layout:
    """Every match's box, the column titles, and the drawing's size."""
    winners_top = MARGIN + HEADER
    winners_height = bracket.size / 2 * ROW
    losers_top = winners_top + winners_height + SECTION_GAP + HEADER
    boxes: dict[str, Box] = {}
    for match in bracket.matches:
        if match.section == "W":
            boxes[match.id] = _winners_box(bracket, match, winners_top)
        elif match.section == "L":
            boxes[match.id] = _losers_box(match, losers_top)
    titles = _titles(bracket, winners_top - HEADER / 2 + 4, losers_top - HEADER / 2 + 4, translate)
    last_column = max((box.x for box in boxes.values()), default=MARGIN)
    boxes.update(_finals(bracket, boxes, last_column, titles, translate))
    width = max(box.x for box in boxes.values()) + BOX_WIDTH + MARGIN
    height = max(box.y for box in boxes.values()) + BOX_HEIGHT + MARGIN
    return Layout(boxes, titles, width, height)


def _finals(bracket: Bracket, boxes: Mapping[str, Box], last_column: float,
            titles: list[tuple[float, float, str]], translate: Translate) -> dict[str, Box]:
    """The grand final (and reset) right of both brackets, midway between
    their finals; the third-place match under the final."""
    placed: dict[str, Box] = {}
    winners_final = boxes[f"W{bracket.round_count('W')}-1"]
    if bracket.double:
        losers = [box for match_id, box in boxes.items() if match_id.startswith("L")]
        lowest = max(losers, key=lambda box: box.x).y if losers else winners_final.y
        y = (winners_final.y + lowest) / 2
        placed["GF"] = Box(last_column + COLUMN, y)
        placed["GF2"] = Box(last_column + 2 * COLUMN, y)
        titles += [(last_column + COLUMN, y - 8, translate(gettext_noop("Grand final"))),
                   (last_column + 2 * COLUMN, y - 8, translate(gettext_noop("Reset, if needed")))]
    elif "3P" in bracket:
        y = winners_final.y + BOX_HEIGHT + SECTION_GAP
        placed["3P"] = Box(winners_final.x, y)
        titles.append((winners_final.x, y - 8, translate(gettext_noop("Third place"))))
    return placed


def _titles(bracket: Bracket, winners_y: float, losers_y: float,
            translate: Translate) -> list[tuple[float, float, str]]:
    """Column titles, for the rounds that have a match (byes can empty one)."""
    rounds = bracket.round_count("W")
    names = {rounds: translate(gettext_noop("Final")), rounds - 1: translate(gettext_noop("Semi-finals")),
             rounds - 2: translate(gettext_noop("Quarter-finals"))}
    present = {(m.section, m.round) for m in bracket.matches}
    titles: list[tuple[float, float, str]] = []
    for r in range(1, rounds + 1):
        if ("W", r) in present:
            if bracket.double:
                title = translate(gettext_noop("Winners %(number)s")) % {"number": r}
            else:
                title = names.get(r) or translate(gettext_noop("Round %(number)s")) % {"number": r}
            titles.append((MARGIN + _winners_column(bracket, r) * COLUMN, winners_y, title))
    for r in range(1, bracket.round_count("L") + 1):
        if ("L", r) in present:
            titles.append((MARGIN + (r - 1) * COLUMN, losers_y,
                           translate(gettext_noop("Losers %(number)s")) % {"number": r}))
    return titles


# --- drawing ------------------------------------------------------------------


def _text(value: str) -> str:
    """XML-escaped text, without the control characters XML 1.0 cannot hold."""
    printable = "".join(c for c in value if c >= " " or c in "\t\n\r")
    return html.escape(printable, quote=True)


def _short(name: str) -> str:
    return name if len(name) <= NAME_CHARS else name[: NAME_CHARS - 1] + "…"


def _source(source: Source, translate: Translate) -> str:
    """Where a player not yet known comes from: "Winner of W1-2"."""
    if isinstance(source, WinnerOf):
        return translate(gettext_noop("Winner of %(match)s")) % {"match": source.match}
    if isinstance(source, LoserOf):
        return translate(gettext_noop("Loser of %(match)s")) % {"match": source.match}
    if isinstance(source, Seed):
        return translate(gettext_noop("Seed %(number)s")) % {"number": source.number}
    return str(source)


def _line(state: BracketState, slot: Slot, player: int | None, source: Source,
          names: Mapping[int, str], translate: Translate) -> tuple[str, str, str]:
    """(class, seed text, name) for one of a match's two lines."""
    if player is None:
        return "pending", "", _source(source, translate)
    if slot.winner is None:
        role = "player"
    else:
        role = "winner" if player == slot.winner else "loser"
    name = names.get(player) or translate(gettext_noop("Player %(number)s")) % {"number": player}
    return role, str(state.seed_of(player)), name


def _match(state: BracketState, slot: Slot, box: Box, names: Mapping[int, str], links: Mapping[str, str],
           walkover: str | None, translate: Translate) -> str:
    match = slot.match
    rows = [_line(state, slot, slot.top, match.top, names, translate),
            _line(state, slot, slot.bottom, match.bottom, names, translate)]
    tooltip = translate(gettext_noop("%(top)s v %(bottom)s")) % {"top": rows[0][2], "bottom": rows[1][2]}
    tooltip += f" ({walkover})" if walkover else ""
    parts = [
        f'<title>{_text(match.id)}: {_text(tooltip)}</title>',
        f'<rect class="box" x="{box.x:g}" y="{box.y:g}" width="{BOX_WIDTH}" height="{BOX_HEIGHT}" rx="3"/>',
        f'<line class="divider" x1="{box.x:g}" y1="{box.middle:g}" x2="{box.x + BOX_WIDTH:g}" y2="{box.middle:g}"/>',
    ]
    for number, (role, seed, name) in enumerate(rows):
        baseline = box.y + number * LINE_HEIGHT + 14
        parts.append(
            f'<g class="{role}"><text class="seed" x="{box.x + 6:g}" y="{baseline:g}">{_text(seed)}</text>'
            f'<text class="name" x="{box.x + 26:g}" y="{baseline:g}">{_text(_short(name))}</text></g>')
    if walkover:  # on the loser's line, at the right: the match was not played
        lost = 1 if rows[0][0] == "winner" else 0
        parts.append(f'<text class="note" text-anchor="end" x="{box.x + BOX_WIDTH - 6:g}" '
                     f'y="{box.y + lost * LINE_HEIGHT + 14:g}">{_text(walkover)}</text>')
    body = "".join(parts)
    if match.id in links:
        body = f'<a href="{_text(links[match.id])}">{body}</a>'
    status = f"{slot.status} walkover" if walkover else slot.status
    return f'<g class="match {status}" id="match-{_text(match.id)}" data-match="{_text(match.id)}">{body}</g>'


def _links(bracket: Bracket, boxes: Mapping[str, Box]) -> list[str]:
    """An elbow from each match to the match its winner plays next in the
    same picture (drop-ins into the losers' bracket are named, not drawn)."""
    paths = []
    for match in bracket.matches:
        for source in (match.top, match.bottom):
            if isinstance(source, WinnerOf):
                start, end = boxes[source.match], boxes[match.id]
                x1, x2 = start.x + BOX_WIDTH, end.x
                elbow = x2 - (COLUMN - BOX_WIDTH) / 2
                paths.append(f'<path class="link" data-from="{_text(source.match)}" data-to="{_text(match.id)}" '
                             f'd="M{x1:g} {start.middle:g}H{elbow:g}V{end.middle:g}H{x2:g}"/>')
    return paths


def bracket_svg(state: BracketState, names: Mapping[int, str], links: Mapping[str, str],
                walkovers: Mapping[str, str] | None = None, translate: Translate = _english) -> str:
    """The bracket as an SVG document: ``names`` maps a player id to the name
    to show, ``links`` a match id to the address of its page, ``walkovers``
    a match decided without a game to the note its loser's line gets ("w/o");
    ``translate`` words the drawing's own texts (column titles, "Winner of W1-2").

    Every match is one ``<g class="match STATUS" data-match="ID">``; the
    winner's line has the class ``winner``.
    """
    drawing = layout(state.bracket, translate)
    label = translate(gettext_noop("Bracket"))
    # A group, not an image: an image's content is hidden from assistive
    # technology and may hold no link, and the matches are links to their games.
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="bracket" role="group" aria-label="{_text(label)}" '
        f'viewBox="0 0 {drawing.width:g} {drawing.height:g}" '
        f'width="{drawing.width:g}" height="{drawing.height:g}" '
        # Scaled to its box by the page's CSS, never beyond its natural size
        # nor below a readable one (a phone scrolls it instead).
        f'style="max-width: {drawing.width:g}px; min-width: min({drawing.width:g}px, {MIN_WIDTH_REM}rem)">',
        f"<style>{STYLE}</style>",
    ]
    parts += [f'<text class="title" x="{x:g}" y="{y:g}">{_text(title)}</text>' for x, y, title in drawing.titles]
    parts += _links(state.bracket, drawing.boxes)
    parts += [_match(state, slot, drawing.boxes[slot.id], names, links, (walkovers or {}).get(slot.id), translate)
              for slot in state.slots]
    parts.append("</svg>")
    return "\n".join(parts)
