"""A game's memory budget: the lists and texts a game builds are counted, so untrusted rules cannot
fill memory (issue "Hostile content").

Bytes (tracemalloc, the process size) are slow to measure and differ between machines and Python
versions; items are cheap to count and the same everywhere, so a game stops at the same rule on
every run and every machine. Two bounds:

- the items a game *builds* — each list made by `+`, a list or map literal or a comprehension (its
  items) and each text made by `+` (its characters) — summed over the
  whole game, at most `Limits.max_memory`. What a game holds at once can never exceed what it built,
  whatever is freed, so this bounds its memory (about 8 bytes an item of a list, 1 to 4 a character).
- the size of one value counting the items of the lists inside it every time they appear, at most
  `MAX_ITEMS`: `set s to [s, s]` forty times holds 80 items but 2**40 once written out (a log
  line, the state's digest, a comparison), which would hang the game on memory it never built.
"""
from __future__ import annotations

from typing import Any

from ..language.diagnostics import Loc
from .errors import LimitExceeded, RuleError

__all__ = ["MAX_ITEMS", "charge_built", "built_value", "nested_size"]

MAX_ITEMS = 1_000_000  # the longest list or text a rule may build, and the largest value counted with its nested items
_NESTING = frozenset({list, tuple, dict})


def charge_built(g: Any, items: int, loc: Loc | None = None) -> None:
    """Count `items` built by game `g` (a `Game` or a direct engine's runtime: both have `built` and
    `limits`) against its memory budget."""
    g.built += items
    if g.built > g.limits.max_memory:
        raise LimitExceeded(f"the game built more than {g.limits.max_memory} list items and text characters "
                            "(its memory budget): a rule seems to grow a value without end", loc)


def nested_size(v: Any, limit: int = MAX_ITEMS) -> tuple[int, bool]:
    """The items of list (tuple, map) `v` counting the items of the lists inside it each time they
    appear, and whether it holds any; the walk stops as soon as the count passes `limit`, so it
    never costs more than `limit` visits however the value shares its parts."""
    total, nested, stack = 0, False, [v]
    while stack:
        x = stack.pop()
        items = x.values() if x.__class__ is dict else x
        total += len(items)
        if total > limit:
            return total, True
        if not _NESTING.isdisjoint(map(type, items)):  # the common flat list costs one C-level pass
            nested = True
            stack.extend(i for i in items if i.__class__ in _NESTING)
    return total, nested


def built_value(g: Any, out: Any, loc: Loc | None = None) -> Any:
    """`out`, a list, map or text just built: charged to the memory budget, and refused when it
    holds more than MAX_ITEMS items counting nested ones (walking nested items is charged to the
    work limit, as the items a builtin visits are)."""
    n = len(out)
    charge_built(g, n, loc)
    if out.__class__ is str:
        if n > MAX_ITEMS:
            raise RuleError(f"a list or text longer than {MAX_ITEMS} items", loc)
        return out
    size, nested = nested_size(out)
    if size > MAX_ITEMS:
        raise RuleError(f"a list or text longer than {MAX_ITEMS} items" if not nested else
                        f"a list holding more than {MAX_ITEMS} items, counting the items of the lists inside it "
                        "each time they appear", loc)
    if nested:
        g.work += size
        if g.work > g.limits.max_work:
            raise LimitExceeded(f"expressions visited more than {g.limits.max_work} items: "
                                "a rule seems to run forever", loc)
    return out
