"""Faster closures for the hottest expression shapes, with exactly the same results.

Filters (`xs where cond`) and quantifiers (`every a, b in xs has cond`) run their condition once
per item. The general closures bind the item in the environment and evaluate the condition
through several nested closures. Here a condition made only of simple parts (field reads of the
bound item, comparisons, `is Type`, `and`/`or`/`not`, constants, and sub-expressions that do not
mention the bound names) compiles to an *item predicate* `p(g, e, x)` that receives the item
directly, so nothing is written to the environment and most calls disappear.

Anything else returns None and the caller keeps its general closure: new constructs need no
change here. Values that do not mention the bound names are evaluated by their own closure, for
every item, exactly as before (expressions may draw from the RNG: nothing is hoisted).
"""
from __future__ import annotations

import operator
from typing import Any, Callable

from ..language.tree import Node, walk
from ..content.model import CardData
from ..library.names import SPECIAL_NAMES
from ..runtime.fields import read_field
from .codegen import known_shape

__all__ = ["item_predicate", "field_reader", "mentions"]

ItemFn = Callable[[Any, dict, Any], Any]
_EQ = {"==": operator.eq, "!=": operator.ne}
_ORDERED = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}
_SPECIAL_FIELDS = ("face", "name")  # fields `read_field` computes rather than reads


def mentions(n: Node, names: frozenset[str]) -> bool:
    """Whether any `name` node below `n` is one of `names` (a bound item)."""
    return any(m.kind == "name" and m.id in names for m in walk(n))


def field_reader(name: str, fallback: Callable) -> Callable[[Any, Any], Any] | None:
    """`r(g, o)`: the field `name` of a card (None when covered), else the general `read_field`."""
    if name in _SPECIAL_FIELDS:
        return None

    def read(g, o):
        if o.__class__ is CardData:
            if g.state.where.get(o.id, "")[:1] == "^":
                return None  # a covered card's fields are unknown to the rules
            return o.fields.get(name)
        return fallback(g, o)
    return read


def item_predicate(c, n: Node, names: tuple[str, ...]) -> ItemFn | None:
    """An item function for `n` where `names` are bound to the item (one name: the item itself;
    several: the item is a group, name i its i-th element); None when `n` has another shape."""
    if not all(c.is_local(name) for name in names):
        return None  # a bound name that means a zone, stat, type... is not the item
    bound = frozenset(names)
    return _item(c, n, names, bound)


_NONE = object()


def _constant(c, side: Node, other: Node) -> Any:
    """The value of a comparison side that is a constant (as `_enum_side`/`x_name` read it), else _NONE."""
    if side.kind == "lit":
        return side.value
    if side.kind != "name":
        return _NONE
    name, rs = side.id, c.rs
    if other.kind == "attr" and name in c.enum_values and any(f == other.name for _, f in c.enum_values[name]):
        return name
    if name in rs.zones or name in rs.stats or name in rs.constants:
        return _NONE
    if name in ("true", "false", "none"):
        return {"true": True, "false": False, "none": None}[name]
    if name in SPECIAL_NAMES or name in rs.card_types or name in rs.die_types:
        return _NONE
    return name if name in c.enum_values else _NONE


def _item(c, n: Node, names: tuple[str, ...], bound: frozenset[str]) -> ItemFn | None:
    k = n.kind
    if not mentions(n, bound):
        f = c.expr(n)
        return lambda g, e, x: f(g, e)
    if not known_shape(n):
        return None  # a node of another shape than the one written for here: its closure
    if k == "name":
        if len(names) == 1:
            return lambda g, e, x: x
        i = names.index(n.id)
        return lambda g, e, x: x[i]
    if k == "attr":
        obj = _item(c, n.obj, names, bound)
        if obj is None:
            return None
        name, stats, card_types = n.name, c.rs.stats, c.rs.card_types
        read = field_reader(name, lambda g, o: read_field(g, o, name, stats, card_types))
        if read is None:
            return lambda g, e, x: read_field(g, obj(g, e, x), name, stats, card_types)
        if n.obj.kind == "name" and len(names) == 1:
            return lambda g, e, x: read(g, x)
        return lambda g, e, x: read(g, obj(g, e, x))
    if k == "compare":
        left, right = _side(c, n.left, n.right, names, bound), _side(c, n.right, n.left, names, bound)
        if left is None or right is None:
            return None
        if n.op in _EQ:
            op = _EQ[n.op]
            if n.left.kind == "attr" and n.left.obj.kind == "name" and len(names) == 1 and \
                    n.left.name not in _SPECIAL_FIELDS and not mentions(n.right, bound):
                return _field_compare(c, n, op)  # the commonest filter: `it.field == value`
            return lambda g, e, x: op(left(g, e, x), right(g, e, x))
        op = _ORDERED[n.op]

        def ordered(g, e, x):
            a, b = left(g, e, x), right(g, e, x)
            if a is None or b is None:
                return False  # unknown values (a covered card's fields) never compare
            return op(a, b)
        return ordered
    if k == "is" and (n.what in c.rs.card_types or n.what in c.rs.die_types):
        f, what = _item(c, n.expr, names, bound), n.what
        if f is None:
            return None
        if n.negate:
            return lambda g, e, x: not _is_type(f(g, e, x), what)
        return lambda g, e, x: _is_type(f(g, e, x), what)
    if k in ("and", "or"):
        fs = [_item(c, i, names, bound) for i in n.items]
        if any(f is None for f in fs):
            return None
        if k == "and":
            def all_of(g, e, x):
                for f in fs:
                    if not f(g, e, x):
                        return False
                return True
            return all_of

        def any_of(g, e, x):
            for f in fs:
                if f(g, e, x):
                    return True
            return False
        return any_of
    if k == "not":
        f = _item(c, n.expr, names, bound)
        return None if f is None else (lambda g, e, x: not f(g, e, x))
    return None


def _field_compare(c, n: Node, op) -> ItemFn:
    """`it.field == V` / `!=`, V not mentioning the item: one call per item."""
    fname, stats, card_types = n.left.name, c.rs.stats, c.rs.card_types
    const = _constant(c, n.right, n.left)
    other = c._enum_side(n.right, n.left) if const is _NONE else None

    def field_is(g, e, x):
        if x.__class__ is CardData:
            v = None if g.state.where.get(x.id, "")[:1] == "^" else x.fields.get(fname)
        else:
            v = read_field(g, x, fname, stats, card_types)
        return op(v, const if other is None else other(g, e))
    return field_is


def _is_type(v, what: str) -> bool:
    return isinstance(v, CardData) and v.type == what


def _side(c, side: Node, other: Node, names, bound) -> ItemFn | None:
    """One side of a comparison; an enumeration value next to a field stays that value."""
    if not mentions(side, bound):
        const = _constant(c, side, other)
        if const is not _NONE:
            return lambda g, e, x: const
        f = c._enum_side(side, other)
        return lambda g, e, x: f(g, e)
    return _item(c, side, names, bound)
