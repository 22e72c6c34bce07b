"""Time controls: real-time (minutes + seconds per move) and correspondence (days per move).

One small value shared by the lobby, challenges, the game and its clocks, so
that "5+3" means the same thing everywhere.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.utils.translation import ngettext, pgettext_lazy


@dataclass(frozen=True)
class TimeControl:
    """``initial_seconds`` + ``increment_seconds`` per move, or ``days_per_move``."""

    initial_seconds: int = 0
    increment_seconds: int = 0
    days_per_move: int | None = None

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """``"5+3"`` (5 minutes, 3 seconds a move) or ``"3d"`` (3 days a move).

        >>> TimeControl.parse("5+3").initial_seconds, TimeControl.parse("3d").days_per_move
        (300, 3)
        """
        m = re.fullmatch(r"\s*(\d{1,3})\s*\+\s*(\d{1,3})\s*|\s*(\d{1,2})\s*d\s*", text or "")
        if m is None:
            raise ValueError(f"{text!r} is not a time control: write minutes+seconds like 5+3, or days like 3d")
        if m[3] is not None:
            return cls(days_per_move=int(m[3]))
        return cls(int(m[1]) * 60, int(m[2]))

    @classmethod
    def from_request(cls, key: object) -> TimeControl | None:
        """What a client sent as a control key, or None when it names none (any
        type): the caller refuses with the choices it offers."""
        try:
            return cls.parse(key) if isinstance(key, str) else None
        except ValueError:
            return None

    @property
    def correspondence(self) -> bool:
        return self.days_per_move is not None

    @property
    def budget_ms(self) -> int:
        """A clock's full time: the whole game, or one move in correspondence."""
        if self.days_per_move is not None:
            return self.days_per_move * 86_400_000
        return self.initial_seconds * 1000

    @property
    def key(self) -> str:
        """The text form parse() reads: ``"5+3"`` or ``"3d"``."""
        if self.days_per_move is not None:
            return f"{self.days_per_move}d"
        return f"{self.initial_seconds // 60}+{self.increment_seconds}"

    @property
    def label(self) -> str:
        if self.days_per_move is not None:
            return ngettext("%(days)s day per move", "%(days)s days per move", self.days_per_move) % {
                "days": self.days_per_move}
        return self.key

    @property
    def speed_label(self) -> str:
        """``speed`` as a page shows it, in the reader's language (lichess's words: "Blitz", "Пуля")."""
        return str(SPEED_LABELS[self.speed])

    @property
    def speed(self) -> str:
        """lichess's names, by estimated game length (initial + 40 increments)."""
        if self.days_per_move is not None:
            return "correspondence"
        estimate = self.initial_seconds + 40 * self.increment_seconds
        if estimate < 180:
            return "bullet"
        if estimate < 480:
            return "blitz"
        return "rapid" if estimate < 1500 else "classical"


SPEED_LABELS = {
    "bullet": pgettext_lazy("game speed", "bullet"), "blitz": pgettext_lazy("game speed", "blitz"),
    "rapid": pgettext_lazy("game speed", "rapid"), "classical": pgettext_lazy("game speed", "classical"),
    "correspondence": pgettext_lazy("game speed", "correspondence"),
}
REAL_TIME = tuple(TimeControl.parse(t) for t in ("1+0", "3+2", "5+3", "10+5"))
CORRESPONDENCE = tuple(TimeControl.parse(t) for t in ("1d", "3d", "7d"))
OFFERED = REAL_TIME + CORRESPONDENCE
