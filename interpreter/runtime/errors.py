"""Run-time errors and control-flow signals. A RuleError names the rule's source location.

A rule that fails inside Python (adding none to a number, indexing a list with none) is reported in
the words of the rules, never with Python's message or a class name: `explain` translates the
failure, and the engine (engine/blame.py) adds which part of the rule held which value.
"""
from __future__ import annotations

import re
from typing import Any

from ..content.model import CardData
from ..language.diagnostics import Loc
from .values import Seat

__all__ = ["RuleError", "LimitExceeded", "Break", "Continue", "GameOver", "explain", "kind_word", "value_words"]

_SHOWN = 60  # characters of a text value shown in a message


class RuleError(Exception):
    """A rule failed while the game ran (content bug): stops this game, names where."""

    cause: Exception | None = None  # the Python failure it reports, if any (engine/blame.py explains it)
    env: dict | None = None  # the variables of the rule that failed, when known

    def __init__(self, message: str, loc: Loc | None):
        self.message, self.loc = message, loc
        super().__init__(f"{loc}: {message}" if loc else message)

    @classmethod
    def of(cls, ex: Exception, loc: Loc | None, env: dict | None = None) -> "RuleError":
        """The rule error for a Python failure inside a rule, worded for the author; it keeps the
        failure and the rule's variables so the engine can say which values were involved."""
        err = cls(explain(ex), loc)
        err.cause, err.env = ex, env
        return err


class LimitExceeded(RuleError):
    """A step, depth or turn limit stopped a runaway rule."""


class Break(Exception):
    pass


class Continue(Exception):
    pass


class GameOver(Exception):
    pass


_OPS = {"+": "add", "-": "subtract", "*": "multiply", "/": "divide", "//": "divide", "%": "take the remainder of",
        "**": "raise"}
_KINDS = {"NoneType": "none", "int": "a number", "float": "a number", "bool": "true or false", "str": "a text",
          "list": "a list", "tuple": "a list", "dict": "a map", "set": "a set", "frozenset": "a set",
          "Seat": "a player", "ZoneRef": "a zone", "RowRef": "a row", "TypeRef": "a card type",
          "Position": "a position", "Space": "a space"}


def kind_word(type_name: str) -> str:
    """A Python type's name as a rule author says it: `NoneType` -> none, `int` -> a number."""
    if type_name in _KINDS:
        return _KINDS[type_name]
    if "Card" in type_name:
        return "a card"
    if "Player" in type_name or "Seat" in type_name:
        return "a player"
    if "Zone" in type_name:
        return "a zone"
    return "a value"


def _kinds_in(text: str) -> str:
    """Every quoted Python type name in a message, in rule words."""
    return re.sub(r"'([A-Za-z_]\w*)'", lambda m: kind_word(m.group(1)), text)


_TYPE_ERRORS: list[tuple[str, Any]] = [
    (r"unsupported operand type\(s\) for (\S+): '(\w+)' and '(\w+)'",
     lambda m: f"cannot {_OPS.get(m[1], 'combine')} {kind_word(m[2])} and {kind_word(m[3])}"),
    (r"'(\S+)' not supported between instances of '(\w+)' and '(\w+)'",
     lambda m: f"cannot compare {kind_word(m[2])} with {kind_word(m[3])} (`{m[1]}`)"),
    (r"(?:list|tuple) indices must be integers(?: or slices)?, not (\w+)",
     lambda m: f"a position in a list must be a number, not {kind_word(m[1])}"),
    (r"'(\w+)' object is not iterable", lambda m: f"{kind_word(m[1])} is not a list of items"),
    (r"'(\w+)' object is not subscriptable", lambda m: f"{kind_word(m[1])} has no items to pick from"),
    (r"object of type '(\w+)' has no len\(\)", lambda m: f"{kind_word(m[1])} cannot be counted"),
    (r"bad operand type for unary (\S+): '(\w+)'", lambda m: f"cannot negate {kind_word(m[2])}"),
    (r'can only concatenate (\w+) \(not "(\w+)"\) to \w+',
     lambda m: f"cannot add {kind_word(m[2])} to {kind_word(m[1])}"),
    (r"unhashable type: '(\w+)'", lambda m: f"{kind_word(m[1])} cannot be a key of a map or an item of a set"),
    (r"'(\w+)' object cannot be interpreted as an integer", lambda m: f"{kind_word(m[1])} is not a whole number"),
    (r"'(\w+)' object is not callable", lambda m: f"{kind_word(m[1])} is not a function"),
]


def explain(ex: Exception) -> str:
    """A Python failure inside a rule's evaluation, in the words a rule author reads: never Python's
    own message or a class name."""
    if isinstance(ex, ZeroDivisionError):
        return "division by zero"
    if isinstance(ex, IndexError):
        return "there is no item at that position"
    if isinstance(ex, KeyError):
        key = ex.args[0] if ex.args else None
        return f"no item {key!r} here" if isinstance(key, (str, int)) else "no such item here"
    if isinstance(ex, AttributeError):
        m = re.search(r"'(\w+)' object has no attribute '(\w+)'", str(ex))
        return f"{kind_word(m[1])} has no field `{m[2]}`" if m else "this value has no such field"
    if isinstance(ex, TypeError):
        text = str(ex)
        for pattern, words in _TYPE_ERRORS:
            m = re.search(pattern, text)
            if m:
                return words(m)
        return "values of the wrong kind" + (f": {_kinds_in(text)}" if "'" in text else "")
    if isinstance(ex, OverflowError):
        return "a number too large"
    if isinstance(ex, ValueError):
        return "a value out of range for this operation"
    if isinstance(ex, MemoryError):  # the process's memory limit (simulate --max-memory), not the game's budget
        return "the game ran out of memory"
    return "the rules cannot work this out"


def value_words(v: Any) -> str:
    """A value as the rules speak of it: none, 3, "text", player 2, a card's name, a list's size."""
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (Seat, int, float)):
        return str(v)
    if isinstance(v, str):
        return f'"{v}"' if len(v) <= _SHOWN else f'"{v[:_SHOWN]}…"'
    if isinstance(v, CardData):
        return f"the card {v.name}"
    if isinstance(v, (list, tuple)):
        return f"a list of {len(v)} item{'s' if len(v) != 1 else ''}"
    if isinstance(v, dict):
        return f"a map of {len(v)} item{'s' if len(v) != 1 else ''}"
    return str(v) if type(v).__str__ is not object.__str__ else "a value"
