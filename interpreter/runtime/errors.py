"""Run-time errors and control-flow signals. A RuleError names the rule's source location."""
from __future__ import annotations

from ..language.diagnostics import Loc

__all__ = ["RuleError", "LimitExceeded", "Break", "Continue", "GameOver", "explain"]


class RuleError(Exception):
    """A rule failed while the game ran (content bug): stops this game, names where."""

    def __init__(self, message: str, loc: Loc | None):
        self.message, self.loc = message, loc
        super().__init__(f"{loc}: {message}" if loc else message)


class LimitExceeded(RuleError):
    """A step, depth or turn limit stopped a runaway rule."""


class Break(Exception):
    pass


class Continue(Exception):
    pass


class GameOver(Exception):
    pass


def explain(ex: Exception) -> str:
    """A Python failure inside a rule's evaluation, in the words a rule author reads."""
    if isinstance(ex, ZeroDivisionError):
        return "division by zero"
    if isinstance(ex, (KeyError, IndexError)):
        return f"no item {ex} here"
    if isinstance(ex, TypeError):
        return f"values of the wrong kind: {ex}"
    return f"{type(ex).__name__}: {ex}"
