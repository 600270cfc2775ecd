"""Reading `x.field` of any value at run time: one reader for closures and generated code alike."""
from __future__ import annotations

from ..content.model import CardData
from .errors import RuleError, kind_word
from .values import RowRef, Seat, Space, TypeRef, ZoneRef

__all__ = ["read_field"]

def read_field(g, o, name, stats, card_types):
    """`o.name`: a card's field (unknown while covered), a player's stat, a grid space's column or row
    (from 1), the values of a card type's enumerated field; a list or zone gives one per item."""
    if o.__class__ is CardData:
        if g.state.where.get(o.id, "")[:1] == "^":
            return None  # a covered card's fields are unknown to the rules
        if name == "face":
            return g.state.faces.get(o.id)
        if name == "name" and "name" not in o.fields:
            return o.name
        return o.fields.get(name)
    if isinstance(o, Seat):
        return g.state.pstats[o][name]
    if isinstance(o, Space) and name in ("x", "y"):
        return (o.x if name == "x" else o.y) + 1  # columns and rows count from 1
    if isinstance(o, list):
        return [read_field(g, x, name, stats, card_types) for x in o]
    if isinstance(o, TypeRef):
        for f in card_types[o.name].fields_:
            if f.name == name and f.type.kind == "enum_type":
                return list(f.type.values)
            if f.name == name and f.type.kind == "range_type":
                return list(range(f.type.lo, f.type.hi + 1))
        raise RuleError(f"card type {o.name} has no enumerated field `{name}`", None)
    if isinstance(o, (ZoneRef, RowRef)):
        return [read_field(g, x, name, stats, card_types) for x in g.listify(o)]
    if o is None:
        return None
    raise RuleError(f"{kind_word(type(o).__name__)} has no field `{name}`", None)


