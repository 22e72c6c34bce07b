"""The engine's errors: every one is a ValueError with a message for a player."""
from __future__ import annotations


class EngineError(ValueError):
    """Base of every error the engine raises on bad input."""


class NotationError(EngineError):
    """Text or JSON that does not spell an action (see the rules' Notation)."""


class IllegalAction(EngineError):
    """A well-formed action that the rules do not allow in this position.

    ``rule`` is the number of the rule it breaks, e.g. ``"R10"``; the message
    ends with it in brackets: ``7H e1-e8: the path is blocked at e4 (R10)``.
    """

    def __init__(self, message: str, rule: str) -> None:
        super().__init__(f"{message} ({rule})")
        self.rule = rule


class PositionError(EngineError):
    """A position (the rules' position format) that cannot be read."""


class RecordError(EngineError):
    """A game record that cannot be read or does not replay."""
