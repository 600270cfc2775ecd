"""The cheap check of a card's fields: what the strict pydantic model of its card type accepts,
decided without building the model.

Building a pydantic model costs milliseconds per card type, and most cards are right; so a card is
first checked here, and only a card this check does not accept goes to pydantic, whose errors the
loader words (`loader.validate_cards`). The check accepts a subset of what the model accepts and
gives the same values for it (tests/content/test_card_fast_check.py compares the two on every
shipped card and on many wrong ones): exact types (a flag is no number, a number no text),
ranges, enum values, no unknown field, every field without a default present.
"""
from __future__ import annotations

from typing import Any

from ..language.tree import Node

__all__ = ["CardShape", "card_shape", "checked_card"]

RESERVED = ("name", "type", "copies", "effect", "text")
_REQUIRED = object()


class CardShape:
    """A card type's fields as the check reads them: (name, kind, allowed, default) in order;
    `ok` is False when the declaration is unusual (a field named like a reserved key, twice),
    so every card of the type goes to pydantic."""

    __slots__ = ("name", "fields", "keys", "ok")

    def __init__(self, name: str, node: Node):
        self.name = name
        self.fields: list[tuple[str, str, Any, Any]] = []
        for f in node.fields_:
            t = f.type
            if t.kind == "range_type":
                kind, allowed = "int", (t.lo, t.hi)
            elif t.kind == "enum_type":
                kind, allowed = "enum", frozenset(t.values) if all(type(v) is str for v in t.values) else None
            else:
                kind, allowed = {"number": "int", "flag": "bool"}.get(t.name, "str"), None
            default: Any = _REQUIRED
            if f.default is not None and f.default.kind == "lit":
                default = f.default.value
            elif f.default is not None and f.default.kind == "name" and t.kind == "basic_type" and t.name == "flag":
                default = f.default.id == "true"
            elif f.default is not None and f.default.kind == "name":
                default = f.default.id
            self.fields.append((f.name, kind, allowed, default))
        names = [f[0] for f in self.fields]
        self.keys = frozenset(RESERVED) | frozenset(names)
        self.ok = len(set(names)) == len(names) and not set(names) & set(RESERVED) \
            and all(kind != "enum" or allowed is not None for _, kind, allowed, _ in self.fields)


def card_shape(name: str, node: Node) -> CardShape:
    """The shape of card type `name` declared by `node`."""
    return CardShape(name, node)


def _fits(value: Any, kind: str, allowed: Any) -> bool:
    if kind == "int":
        return type(value) is int and (allowed is None or allowed[0] <= value <= allowed[1])
    if kind == "str":
        return type(value) is str
    if kind == "bool":
        return type(value) is bool
    return type(value) is str and value in allowed


def checked_card(shape: CardShape, plain: dict[str, Any]) -> tuple[int, str | None, str | None, dict[str, Any]] | None:
    """(copies, text, effect, fields by name) of a card whose plain values `plain` the type's model
    accepts, or None when this check cannot tell (then pydantic decides and words the errors)."""
    if not shape.ok or not shape.keys.issuperset(plain):
        return None
    if type(plain.get("name")) is not str or plain.get("type") != shape.name or type(plain["type"]) is not str:
        return None
    copies = plain.get("copies", 1)
    if type(copies) is not int or not 1 <= copies <= 1000:
        return None
    text, effect = plain.get("text"), plain.get("effect")
    if (text is not None and type(text) is not str) or (effect is not None and type(effect) is not str):
        return None
    fields: dict[str, Any] = {}
    for name, kind, allowed, default in shape.fields:
        if name in plain:
            value = plain[name]
            if not _fits(value, kind, allowed):
                return None
            fields[name] = value
        elif default is _REQUIRED:
            return None
        else:
            fields[name] = default
    return copies, text, effect, fields
