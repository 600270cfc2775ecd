"""The abstract syntax tree: one generic node class keyed by grammar rule name.

Every node keeps its source location so the checker and the runtime can point at the rule.
"""
from __future__ import annotations

from typing import Any, Iterator

from .diagnostics import Loc

__all__ = ["Node", "walk"]


class Node:
    """A syntax node: `kind` is the grammar rule's alias (e.g. `move_stmt`), fields are attributes."""

    def __init__(self, kind: str, loc: Loc, **fields: Any) -> None:
        self.kind = kind
        self.loc = loc
        self.fields = tuple(fields)
        self.__dict__.update(fields)

    def __repr__(self) -> str:
        inner = ", ".join(f"{f}={getattr(self, f)!r}" for f in self.fields)
        return f"{self.kind}({inner})"

    def __deepcopy__(self, memo) -> "Node":
        return self  # syntax is immutable: copies of a game share it

    def children(self) -> Iterator["Node"]:
        for f in self.fields:
            yield from _nodes_in(getattr(self, f))


def _nodes_in(value: Any) -> Iterator[Node]:
    if isinstance(value, Node):
        yield value
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _nodes_in(v)


def walk(node: Node) -> Iterator[Node]:
    """Every node below (and including) `node`, depth first, without recursion limits."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(list(n.children())))
