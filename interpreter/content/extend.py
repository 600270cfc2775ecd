"""`extend`: a mod adds to a declaration of an earlier ruleset of its stack (docs/modding.md).

Why: a mod that *replaces* a card type to add its values makes two such mods overwrite each other
(`mod/conflict`). Additions combine: each mod adds its own fields, enumeration values, list items
or terms, and two mods adding to one declaration give the same game in either order (up to the
order of list items, which follows the stack's order).

- `extend card type T:` — a new field (`speed: 0..3 = 0`), new values of an enumeration field
  (`kingdom += Red | Blue`), or a number field restated with a range that includes its own
  (`health: 1..40`): the field becomes the smallest range that includes every range written for it,
  so two mods widening one field combine too.
- `extend constant NAME += EXPR` — the constant becomes `OLD + EXPR` (for a list literal, one
  list: `[A, B] + [C]` is `[A, B, C]`).
- `extend function NAME(PARAMS) += EXPR` — the function's value becomes `OLD + EXPR`.

Extensions apply in the order of the stack, to the declaration as it stands after every `replace`.
"""
from __future__ import annotations

import dataclasses
from typing import Any

from ..language.diagnostics import Loc, did_you_mean
from ..language.tree import Arith, BasicType, EnumType, ListLit, Node, RangeType

__all__ = ["apply_extensions"]

_CARD_KEYS = {"name", "type", "copies", "effect", "text", "remove", "replace"}  # keys of the card file format
_WHERE = {"card type": "card_types", "constant": "constants", "function": "functions"}


def apply_extensions(content: Any, rs: Any, exts: list[tuple[Node, str]],
                     seen: dict[str, tuple[str, Loc, str]]) -> None:
    """Apply each `extend` (with the ruleset that wrote it) to `rs`, reporting misuse into `content`.
    `seen`: name → (kind, where, ruleset) of the declaration as the stack left it."""
    added: dict[tuple, tuple[Loc, str]] = {}  # (type, field[, value]) or (constant, item) → (where, ruleset)
    for d, layer in exts:
        table = getattr(rs, _WHERE[d.what])
        target = table.get(d.name)
        at = d.name_loc or d.loc
        if target is None and d.name in rs.lost():
            continue  # its declaration has a syntax error, reported already: no guess
        if target is None:
            other = seen.get(d.name)
            if other is not None and other[0] != d.what:
                content.error("mod/extend", f"`extend {d.what} {d.name}`: `{d.name}` is a {other[0]} "
                              f"(at {other[1]}), not a {d.what}", at, f"write `extend {other[0]} {d.name}`"
                              if other[0] in _WHERE else "only card types, constants and functions can be extended")
            else:
                content.error("mod/dangling", f"`extend {d.what} {d.name}`: there is no {d.what} `{d.name}` to "
                              "extend", at, did_you_mean(d.name, list(table)) or
                              f"declare a new {d.what} without `extend`, or stack the mod that declares it")
            continue
        owner = seen.get(d.name, ("", None, ""))
        if owner[2] == layer:
            content.error("mod/extend", f"`extend {d.what} {d.name}` extends a {d.what} of its own ruleset "
                          f"(at {owner[1]})", at, "`extend` is for the rulesets this one is stacked on: edit "
                          "the declaration itself")
            continue
        if d.what == "card type":
            table[d.name] = _card_type(content, target, d, layer, added)
        elif d.what == "constant":
            table[d.name] = dataclasses.replace(target, value=_joined(content, target, d, layer, added))
        elif d.params is not None and list(d.params) != list(target.params):
            content.error("mod/extend", f"`{d.name}` takes ({', '.join(target.params)}), not "
                          f"({', '.join(d.params)})", at, f"write `extend function {d.name}"
                          f"({', '.join(target.params)}) += ...`")
        else:
            table[d.name] = dataclasses.replace(target, expr=Arith(loc=d.value.loc, op="+", left=target.expr,
                                                                   right=d.value, op_loc=at))


def _joined(content: Any, target: Node, d: Node, layer: str, added: dict) -> Node:
    """A constant's value with the extension's added: one list when both are list literals (an item
    already there is refused), else `OLD + NEW`."""
    old, new = target.value, d.value
    if old.kind != "list" or new.kind != "list":
        return Arith(loc=new.loc, op="+", left=old, right=new, op_loc=d.name_loc or d.loc)
    have = {_key(i): i.loc for i in old.items if _key(i) is not None}
    items = list(old.items)
    for i in new.items:
        k = _key(i)
        if k is not None and k in have:
            _twice(content, f"`{_shown(i)}` is already an item of `{d.name}`", i.loc, layer,
                   added.get(("constant", d.name, k)), have[k])
            continue
        if k is not None:
            have[k] = i.loc
            added[("constant", d.name, k)] = (i.loc, layer)
        items.append(i)
    return ListLit(loc=old.loc, items=items)


def _key(n: Node) -> tuple | None:
    """What makes two list items the same, when the text alone tells: a name or a literal."""
    if n.kind == "name":
        return ("name", n.id)
    if n.kind == "lit":
        return ("lit", type(n.value).__name__, n.value)
    return None


def _shown(n: Node) -> str:
    return n.id if n.kind == "name" else repr(n.value)


def _twice(content: Any, what: str, loc: Loc, layer: str, other: tuple[Loc, str] | None, first: Loc) -> None:
    """Something added that is already there: two mods adding it (`mod/conflict`, both places), or
    a mod adding what the declaration itself has (`mod/extend`)."""
    if other is not None and other[1] != layer:
        content.error("mod/conflict", f"{what}: `{other[1]}` adds it too (at {other[0]}), and `{layer}` adds it here",
                      loc, "two mods cannot add the same thing: leave it to one of them (the other can use it "
                      "when both are stacked), or give one another name")
    else:
        content.error("mod/extend", f"{what} (at {first})", loc, "leave it out: it is there already")


def _card_type(content: Any, target: Node, d: Node, layer: str, added: dict) -> Node:
    """The card type with the extension's fields, values and wider ranges."""
    fields = list(target.fields_)
    index = {f.name: i for i, f in enumerate(fields)}
    for f in d.fields_:
        at = f.name_loc or f.loc
        i = index.get(f.name)
        if f.kind == "enum_extension":
            if i is None:
                content.error("mod/dangling", f"`{f.name} += ...`: card type {d.name} has no field `{f.name}`", at,
                              did_you_mean(f.name, list(index)) or f"declare it as a new field: `{f.name}: "
                              f"{' | '.join(f.values)}`")
                continue
            old = fields[i]
            if old.type.kind != "enum_type":
                content.error("mod/extend", f"`{f.name} += ...`: field `{f.name}` of {d.name} is "
                              f"{old.type.describe()}, not a list of values (at {old.name_loc or old.loc})", at,
                              f"restate it with a wider range instead (`{f.name}: 0..99`)")
                continue
            values = list(old.type.values)
            for v in f.values:
                if v in values:
                    _twice(content, f"`{v}` is already a value of field `{f.name}` of {d.name}", at, layer,
                           added.get((d.name, f.name, v)), old.name_loc or old.loc)
                    continue
                values.append(v)
                added[(d.name, f.name, v)] = (at, layer)
            fields[i] = dataclasses.replace(old, type=EnumType(loc=old.type.loc, values=values))
        elif i is None:
            if f.name in _CARD_KEYS:
                content.error("card/field-name", f"`{f.name}` is a key of the card file format; a field cannot "
                              "use it", at, "pick another field name")
                continue
            index[f.name] = len(fields)
            fields.append(f)
            added[(d.name, f.name)] = (at, layer)
        else:
            other = added.get((d.name, f.name))
            if other is not None and other[1] != layer and not _numeric(f.type):
                _twice(content, f"field `{f.name}` of {d.name} is declared twice", at, layer, other, other[0])
                continue
            first = added.setdefault((d.name, f.name, "as declared"), (fields[i], ""))[0]
            wider = _widened(content, first, fields[i], f, d.name)
            if wider is not None:
                fields[i] = wider
    return dataclasses.replace(target, fields_=fields)


def _numeric(t: Node) -> bool:
    return t.kind == "range_type" or (t.kind == "basic_type" and t.name == "number")


def _widened(content: Any, first: Node, old: Node, new: Node, tname: str) -> Node | None:
    """A number field restated in `extend` (`first`: as its own ruleset declared it, `old`: as earlier
    extensions left it): the smallest range holding both (`number` holds all); a range that does not
    hold `first`, another kind or another default is refused (None)."""
    at = new.name_loc or new.loc
    was = f"{old.type.describe()} (at {old.name_loc or old.loc})"
    if not (_numeric(first.type) and _numeric(new.type)):
        hint = (f"write `{new.name} += {' | '.join(new.type.values)}` to add values"
                if old.type.kind == "enum_type" and new.type.kind == "enum_type"
                else "a field's kind cannot change: `replace card type` the whole type, or add a field of "
                     "another name")
        content.error("mod/extend", f"field `{new.name}` of {tname} is {was}: `extend` can only widen a number "
                      "field", at, hint)
        return None
    if new.default is not None and (old.default is None or _text(new.default) != _text(old.default)):
        content.error("mod/extend", f"field `{new.name}` of {tname} has default "
                      f"{_text(old.default) if old.default is not None else 'none'} (at {old.name_loc or old.loc}): "
                      "`extend` cannot change it", new.default.loc, "leave `= ...` out: the default stays")
        return None
    if first.type.kind == "basic_type":
        if new.type.kind == "range_type":
            content.error("mod/extend", f"field `{new.name}` of {tname} is {first.type.describe()} (at "
                          f"{first.name_loc or first.loc}): {new.type.describe()} is narrower", at,
                          "`extend` only widens a field; leave it out")
            return None
        return old
    if new.type.kind == "range_type" and (new.type.lo > first.type.lo or new.type.hi < first.type.hi):
        lo, hi = first.type.lo, first.type.hi
        content.error("mod/extend", f"field `{new.name}` of {tname} is {first.type.describe()} (at "
                      f"{first.name_loc or first.loc}): {new.type.describe()} does not include it", at,
                      f"write a range that includes it, like `{min(new.type.lo, lo)}..{max(new.type.hi, hi)}`")
        return None
    if old.type.kind == "basic_type" or new.type.kind == "basic_type":  # `number` holds every range
        return dataclasses.replace(old, type=BasicType(loc=old.type.loc, name="number"))
    hull = RangeType(loc=old.type.loc, lo=min(new.type.lo, old.type.lo), hi=max(new.type.hi, old.type.hi))
    return dataclasses.replace(old, type=hull)


def _text(n: Node) -> str:
    return repr(n.value) if n.kind == "lit" else n.describe()
