"""Direct-style compilation (direct.py): a rule variable given a value of another kind later on.

A rule body's variables live as long as the body (the task engine keeps one environment per
body), and a mod's hook is appended to the body it hooks: the base's `choose k from [1, 2]`
(a number) and the hook's `choose k from hand` (a card) are one variable `k` that changes kind.
Direct code types each variable, so it gives the second `k` a Python local of its own when that
is provably the same game: when the old value can never be read again, i.e. from the statement
that holds the new binding to the end of the body, every read of the name follows a binding of
it on every path (`old_value_dead`). Anything less certain stays `Unsupported`.
"""
from __future__ import annotations

from ..language.tree import Node, walk

__all__ = ["old_value_dead"]


def _mentions(n: Node, name: str) -> bool:
    """Whether `name` appears in `n`: read, or bound by a statement (conservatively, any node
    whose `name` is it, e.g. a field read `x.name`)."""
    for x in walk(n):
        if (x.kind == "name" and x.id == name) or getattr(x, "name", None) == name:
            return True
    return False


def _use(s: Node, name: str) -> str | None:
    """How statement `s` uses `name`: "bind" (it certainly gives it a value before reading it),
    "read" (it may read it first), None (neither, or a binding that not every path makes)."""
    if not _mentions(s, name):
        return None
    if s.kind in ("let", "choose") and s.name == name:
        return "read" if any(_mentions(c, name) for c in s.children()) else "bind"
    if s.kind == "set" and s.target.kind == "name" and s.target.id == name:
        return "read" if _mentions(s.expr, name) else "bind"
    if s.kind == "if":
        if any(_mentions(cond, name) for cond, _ in s.branches):
            return "read"
        bodies = [b for _, b in s.branches] + ([s.orelse] if s.orelse else [])
        return "read" if any(first_use(b, name) == "read" for b in bodies) else None
    if s.kind == "for" and s.name != name and not _mentions(s.iter, name):
        return "read" if first_use(s.body, name) == "read" else None  # it may run no round
    if s.kind == "repeat" and not any(x is not None and _mentions(x, name) for x in (s.times, s.cond)):
        return "read" if first_use(s.body, name) == "read" else None
    return "read"


def first_use(stmts: list[Node], name: str) -> str | None:
    """How a list of statements, run in order, uses `name` first (see `_use`)."""
    for s in stmts:
        got = _use(s, name)
        if got is not None:
            return got
    return None


def old_value_dead(rest: list[Node], name: str) -> bool:
    """Whether `name`'s current value is never read by `rest`, the statements from the one
    being compiled to the end of the body."""
    return first_use(rest, name) != "read"
