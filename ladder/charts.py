"""The profile's rating-history chart, drawn on the server as SVG by pygal.

No JavaScript and nothing from a CDN (pygal's tooltip script is switched
off): the page carries the whole chart, with each point's date and rating in
its own <desc class="label"> and <desc class="value"> as pygal writes them.
"""

from __future__ import annotations

from datetime import datetime

import pygal
from django.utils.formats import date_format
from django.utils.translation import gettext
from pygal.style import Style

STYLE = Style(
    background="transparent",
    plot_background="#fbfaf7",
    foreground="#1d1f21",
    foreground_strong="#1d1f21",
    foreground_subtle="#c9bfa8",
    colors=("#8a1c1c",),
    guide_stroke_color="#e2dccd",
    major_guide_stroke_color="#c9bfa8",
    font_family="system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
)


def rating_history_svg(points: list[tuple[datetime, int]]) -> str:
    """An inline <svg> of the rating: the start, then one dot per rated game, evenly
    spaced and numbered; each dot's label is the game's date."""
    chart = pygal.Line(
        js=[], disable_xml_declaration=True, style=STYLE, show_legend=False,
        width=760, height=280, dots_size=3, stroke_style={"width": 2},
        x_title=gettext("Rated games"), show_minor_x_labels=False,
        x_labels_major_every=max(1, len(points) // 10), truncate_label=-1,
        range=_range(points), title=None)
    chart.x_labels = [str(game) for game in range(len(points))]
    chart.add(gettext("Rating"), [{"value": rating, "label": date_format(when, "SHORT_DATE_FORMAT")} for when, rating in points])
    return str(chart.render(is_unicode=True))


def _range(points: list[tuple[datetime, int]]) -> tuple[int, int]:
    """A little room above and below, on round numbers."""
    ratings = [rating for _, rating in points]
    low, high = min(ratings), max(ratings)
    return (low - 25) // 50 * 50, (high + 75) // 50 * 50
