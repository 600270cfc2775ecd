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
  Lists nest at most MAX_DEPTH deep, so no comparison or copy of a value meets Python's recursion
  limit (where that stops a game depends on the interpreter's stack: not the same step every run).
"""
from __future__ import annotations

from typing import Any

from ..language.diagnostics import Loc
from .errors import LimitExceeded, RuleError

__all__ = ["MAX_DEPTH", "MAX_ITEMS", "charge_built", "built_flat", "built_lists", "built_value", "nested_size"]

MAX_ITEMS = 1_000_000  # the longest list or text a rule may build, and the largest value counted with its nested items
MAX_DEPTH = 100  # lists inside lists, at most (deeper ones would meet Python's recursion limit in comparisons,
#                  at a depth that depends on the interpreter's own stack: not the same step on every run)
_NESTING = frozenset({list, tuple, dict})


def charge_built(g: Any, items: int, loc: Loc | None = None) -> None:
    """Count `items` built by game `g` (a `Game` or a direct engine's runtime: both have `built` and
    `limits`) against its memory budget."""
    g.built += items
    if g.built > g.limits.max_memory:
        raise LimitExceeded(f"the game built more than {g.limits.max_memory} list items and text characters "
                            "(its memory budget): a rule seems to grow a value without end", loc)


def nested_size(v: Any, limit: int = MAX_ITEMS) -> tuple[int, int, int]:
    """The items of list (tuple, map) `v` counting the items of the lists inside it each time they
    appear, how deep lists nest in it (1: a flat list), and what finding them cost (the items of
    each distinct list met, plus 20 for each list: going to one costs about as much as 20 items of
    a builtin's loop). Each distinct list is walked once, so a list that holds another twice at every level costs its depth, not 2**depth;
    the walk stops as soon as a count passes `limit`. A flat list costs one C-level pass."""
    top = v.values() if v.__class__ is dict else v
    if _NESTING.isdisjoint(map(type, top)):
        return len(v), 1, 0
    inner = [i for i in top if i.__class__ in _NESTING]
    if all(_NESTING.isdisjoint(map(type, i.values() if i.__class__ is dict else i)) for i in inner):
        # lists of flat lists (rows, pairs): what the walk below finds, without its tables
        return len(v) + sum(map(len, inner)), 2, _walk_cost(len(v), inner)
    got = _three_deep(v, inner)
    if got is not None:
        return got
    sizes: dict[int, int] = {}  # id -> size of each list met (the walk keeps them alive: ids stay unique)
    depths: dict[int, int] = {}
    cost, stack = 0, [(v, False)]
    while stack:
        x, sized = stack.pop()
        items = x.values() if x.__class__ is dict else x
        if sized:
            inner = [id(i) for i in items if i.__class__ in _NESTING]
            n = sizes[id(x)] = len(items) + sum(sizes[i] for i in inner)
            depth = depths[id(x)] = 1 + max(depths[i] for i in inner)
            if n > limit or depth > MAX_DEPTH:
                return n, depth, cost
            continue
        if id(x) in sizes:
            continue
        cost += len(items) + 20
        if _NESTING.isdisjoint(map(type, items)):
            sizes[id(x)], depths[id(x)] = len(items), 1
            continue
        sizes[id(x)] = 0  # being sized: its parts first
        stack.append((x, True))
        stack.extend((i, False) for i in items if i.__class__ in _NESTING and id(i) not in sizes)
    return sizes[id(v)], depths[id(v)], cost


def _three_deep(v: Any, inner: list) -> tuple[int, int, int] | None:
    """`nested_size` of a list whose nested items are lists (`inner`) of flat lists and single
    values (pairs of rows: hot in tableau games), as the walk finds it, without its tables; None
    for any other shape (a map, a tuple, deeper lists)."""
    if not all(i.__class__ is list for i in inner):
        return None
    second = [j for i in inner for j in i if j.__class__ in _NESTING]
    if not all(j.__class__ is list and _NESTING.isdisjoint(map(type, j)) for j in second):
        return None
    n = len(v) + sum(map(len, inner)) + sum(map(len, second))
    return n, 3, _walk_cost(len(v), inner + second)


def _walk_cost(items: int, lists: list) -> int:
    """What `nested_size`'s walk costs over a list of `items` items holding `lists` (at any depth):
    each distinct list's items once, and 20 for each list (one met twice is walked once)."""
    return items + 20 + sum(len(x) + 20 for x in {id(x): x for x in lists}.values())


def built_flat(g: Any, out: list) -> list:
    """`built_value` of a list literal whose items the code generator knows are numbers, texts,
    truth values, cards or players (never a list): only its items are charged, as `built_value`
    charges a flat list (such a literal cannot pass MAX_ITEMS: it is as long as it is written)."""
    g.built += len(out)
    if g.built > g.limits.max_memory:
        charge_built(g, 0)  # (raises: over the budget)
    return out


def built_value(g: Any, out: Any, loc: Loc | None = None) -> Any:
    """`out`, a list, map or text just built: charged to the memory budget, and refused when it
    holds more than MAX_ITEMS items counting nested ones (walking nested lists is charged to the
    work limit, as the items a builtin visits are)."""
    n = len(out)
    if g.built + n > g.limits.max_memory:
        charge_built(g, n, loc)  # (raises)
    g.built += n
    cls = out.__class__
    if cls is str or (cls is list and _NESTING.isdisjoint(map(type, out))):  # a flat list: `nested_size` at once
        if n > MAX_ITEMS:
            raise RuleError(f"a list or text longer than {MAX_ITEMS} items", loc)
        return out
    size, depth, cost = nested_size(out)
    if depth > MAX_DEPTH:
        raise RuleError(f"lists nested more than {MAX_DEPTH} deep", loc)
    return _sized(g, out, size, cost, loc)


def built_lists(g: Any, out: list, depth: int = 2, loc: Loc | None = None) -> list:
    """`built_value` of a list the code generator knows the shape of: lists of plain values (card
    lists, rows: `depth` 2) or lists of those (pairs of rows: `depth` 3). The same charges and
    bounds as `nested_size` finds (every item each time it appears; each distinct list's items
    once, and 20 for each), without looking at what the innermost lists hold."""
    n = len(out)
    if g.built + n > g.limits.max_memory:
        charge_built(g, n, loc)  # (raises)
    g.built += n
    lists = out if depth == 2 else out + [r for pair in out for r in pair]
    size = n + sum(map(len, lists))
    cost = _walk_cost(n, lists)
    return _sized(g, out, size, cost, loc)


def _sized(g: Any, out: Any, size: int, cost: int, loc: Loc | None) -> Any:
    """`out` refused when it holds more than MAX_ITEMS items counting nested ones; finding them
    (`cost`) charged to the work limit."""
    if size > MAX_ITEMS:
        raise RuleError(f"a list or text longer than {MAX_ITEMS} items" if not cost else
                        f"a list holding more than {MAX_ITEMS} items, counting the items of the lists inside it "
                        "each time they appear", loc)
    if cost:
        g.work += cost
        if g.work > g.limits.max_work:
            raise LimitExceeded(f"expressions visited more than {g.limits.max_work} items: "
                                "a rule seems to run forever", loc)
    return out
