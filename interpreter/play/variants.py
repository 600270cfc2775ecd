"""Variants of a ruleset for sweeps: a declared constant or a card's field set to another value.

An override is a pair (target, value). The target is a constant's name (`hand_size`), or a card
name and one of its fields joined by a dot (`Ace.cost`: every card named Ace). The value is
a number, `true`/`false`, or text. The ruleset is copied with the constant's expression replaced
by that literal value, or with new data for the matching cards, and compiled afresh, so nothing
of the running engine needs to know about variants. Only declared names can be overridden, and a
card field keeps its kind of value (a number stays a number).
"""
from __future__ import annotations

import dataclasses
import functools
from typing import Any

from ..api import load_program
from ..language.tree import Lit
from ..engine.game import Program
from ..runtime.errors import RuleError
from ..content.model import CardData

__all__ = ["load_variant", "parse_value", "parse_override", "VariantError"]


class VariantError(ValueError):
    """An override that names nothing in the ruleset, or gives a value of the wrong kind."""


def parse_value(text: str) -> Any:
    """`3` → 3, `2.5` → 2.5, `true` → True, `'x'` or `x` → "x"."""
    t = text.strip()
    low = t.lower()
    if low in ("true", "false"):
        return low == "true"
    for kind in (int, float):
        try:
            return kind(t)
        except ValueError:
            pass
    if len(t) >= 2 and t[0] == t[-1] and t[0] in "'\"":
        return t[1:-1]
    return t


def parse_override(text: str) -> tuple[str, Any]:
    """`NAME=VALUE` → (NAME, value)."""
    target, sep, value = text.partition("=")
    if not sep or not target.strip():
        raise VariantError(f"`{text}`: write an override as NAME=VALUE (a constant, or Card.field)")
    return target.strip(), parse_value(value)


@functools.lru_cache(maxsize=64)
def load_variant(ruleset: str, overrides: tuple[tuple[str, Any], ...]) -> Program:
    """The ruleset at `ruleset` compiled with `overrides` applied (cached per process)."""
    program = load_program(ruleset)
    rs = program.rs
    constants, cards = dict(rs.constants), list(rs.cards)
    for target, value in overrides:
        if target in constants:
            d = constants[target]
            constants[target] = dataclasses.replace(d, value=Lit(loc=d.loc, value=value))
            continue
        name, dot, field = target.rpartition(".")
        matching = [c for c in cards if c.name == name] if dot else []
        if not matching:
            known = ", ".join(sorted(rs.constants)) or "none"
            raise VariantError(f"`{target}` is neither a constant of {rs.title} (constants: {known}) "
                               f"nor Card.field of a card it has")
        for c in matching:
            if field not in c.fields:
                raise VariantError(f"cards named {name} have no field `{field}` "
                                   f"(fields: {', '.join(c.fields) or 'none'})")
            old = c.fields[field]
            if old is not None and type(old) is not type(value) and not (
                    isinstance(old, float) and isinstance(value, int)):
                raise VariantError(f"{target} is {type(old).__name__} ({old!r}), not {value!r}")
            cards[c.id] = CardData(c.id, c.name, c.type, {**c.fields, field: value}, c.effect)
    try:
        return Program(dataclasses.replace(rs, constants=constants, cards=cards))
    except RuleError as e:
        raise VariantError(f"the variant does not compile: {e.message}") from None
