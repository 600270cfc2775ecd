"""Direct-style compilation (direct.py) of lists of card lists: `[[a, b], [c, d]]`, kept in a stat.

A rule may remember pairs of cards (`set links to links + [[x, host]]`) and read them back
(`links where it[1] in zone`, `[pr[0] for each pr in links]`). Here such a value has kind
`cardlists`: a list of lists of card ids, whose items are card lists. A stat holding one keeps
the cards themselves (lists of lists of cards), as the task engine keeps them, so that the two
engines' digests agree; reads turn them into ids (`_cidss`), writes back into cards.

`PairsGen` is mixed into `direct._Gen` before the other expression mixins; a stat is known to
hold lists of card lists from the rules' text (`pair_stats`): a `set` that joins it with a list
literal whose items are lists.
"""
from __future__ import annotations

from typing import Any, Iterator

from ..content.model import Ruleset
from ..language.tree import Node, walk
from .directexpr import _ITEM_KIND, V

__all__ = ["PairsGen", "PAIRS_GLOBALS", "PAIRS_KEYWORDS", "pair_stats", "stat_joins"]

_ITEM_KIND.setdefault("cardlists", "cards")


def _cidss(held: Any) -> list:
    """Lists of cards kept in a stat, as lists of ids (none or another value: no lists)."""
    return [[c.id for c in xs] for xs in held] if type(held) is list else []


def _cobjss(R: Any, lists: list) -> list:
    """Lists of card ids as lists of the cards themselves, to keep in a stat."""
    cards = R.rs.cards
    return [[cards[c] for c in xs] for xs in lists]


PAIRS_GLOBALS = {"_cidss": _cidss, "_cobjss": _cobjss}
PAIRS_KEYWORDS = frozenset({"_cidss", "_cobjss"})


def stat_joins(rs: Ruleset) -> Iterator[tuple[str, Node]]:
    """(stat, `A + B`) for every `set STAT to A + B` of a stat without a range, in the rules."""
    roots = [*rs.phases.values(), *rs.procedures.values(), *rs.triggers, *rs.always, *rs.watchers]
    roots += [t for c in rs.cards if c.effect is not None for t in c.effect.triggers]
    for root in roots:
        for n in walk(root):
            if n.kind != "set" or n.expr.kind != "arith" or n.expr.op != "+":
                continue
            t = n.target
            name = t.id if t.kind == "name" else t.name if t.kind in ("attr", "of") else None
            sd = rs.stats.get(name)
            if sd is not None and sd.lo is None and sd.hi is None:
                yield name, n.expr


def pair_stats(rs: Ruleset) -> list[str]:
    """Stats without a range that a `set` joins with a list literal of lists (`xs + [[a, b]]`)."""
    out: list[str] = []
    for name, x in stat_joins(rs):
        if name not in out and any(s.kind == "list" and s.items and all(i.kind == "list" for i in s.items)
                                   for s in (x.left, x.right)):
            out.append(name)
    return out


class PairsGen:
    """Mixed into `direct._Gen` (which provides `expr`, `items`, `kept`, `stat_kinds`)."""

    def pairs_syntax(self, x) -> bool:
        """Whether `x` is written as lists of card lists: `[[...], ...]`, or a stat holding them."""
        if x.kind == "list":
            return bool(x.items) and all(i.kind == "list" for i in x.items)
        return x.kind == "name" and self.stat_kinds.get(x.id) == "cardlists"

    def stat_read(self, name: str, src: str) -> V:
        if self.stat_kinds.get(name) == "cardlists":
            return V(f"_cidss({src})", "cardlists", nn=True, held=src)
        return super().stat_read(name, src)

    def stat_store(self, name: str, v: V) -> str:
        if self.stat_kinds.get(name) == "cardlists" and (v.kind == "cardlists" or v.src == "[]"):
            return f"_cobjss(R, {v.src})"
        return super().stat_store(name, v)

    def items(self, v: V) -> V:
        if v.kind == "cardlists":  # iterated as it is: each item a list of card ids
            return v
        return super().items(v)

