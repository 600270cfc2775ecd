"""Board graphs: named spaces joined by edges (docs/boards.md).

A board's spaces are ordinary cards (so each carries fields and an `effect:` like any card);
`board NAME:` joins them with closed loops and open lines of spaces, and with links (two-way or
one way) between them. Each loop, line or link may be named (`as NAME`): the name is the kind
of its edges (for `walks(s, n, kinds)`) and, for loops and lines, the region of its spaces.

The graph depends only on the cards and constants, so it is built once per game, when first
needed, and shared by clones. The board's name is also a zone: the cards lying on its spaces
(`move c to s` with `s` a space); a card's space is kept in the state's `spaces` map.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .builtins import ANYWHERE, Builtin
from ..runtime.errors import RuleError

__all__ = ["Graph", "build_graph", "walk_ids", "steps_between_ids", "BOARD_BUILTINS"]

MAX_WALKS = 100_000  # walks of one call: a dense graph and a long move could otherwise explode


@dataclass
class Graph:
    """Every board of a game: neighbours of each space (in declaration order), regions, boards."""

    adj: dict[int, list[tuple[int, str | None]]] = field(default_factory=dict)
    region: dict[int, str] = field(default_factory=dict)
    board_of: dict[int, str] = field(default_factory=dict)
    order: dict[str, list[int]] = field(default_factory=dict)

    def add_space(self, board: str, cid: int, loc: Any) -> None:
        other = self.board_of.setdefault(cid, board)
        if other != board:
            raise RuleError(f"a space belongs to one board; this card is already a space of `{other}`", loc)
        if cid not in self.adj:
            self.adj[cid] = []
            self.order.setdefault(board, []).append(cid)

    def join(self, a: int, b: int, kind: str | None) -> None:
        if a != b and all(n != b for n, _ in self.adj[a]):
            self.adj[a].append((b, kind))


def build_graph(items: list, space_ids: Any) -> Graph:
    """The graph of board items (board, item node, spaces, linked spaces), each item's spaces
    given by `space_ids(spaces, loc)` as card ids, evaluated in declaration order (the items'
    spaces are generated functions: engine/directboards.py)."""
    gr = Graph()
    for board, item, spaces, to in items:
        first = space_ids(spaces, item.loc)
        for c in first:
            if item.shape != "link" or c not in gr.board_of:
                gr.add_space(board, c, item.loc)
        if item.shape == "link":
            second = space_ids(to, item.loc)
            for c in second:
                if c not in gr.board_of:  # a link may reach a space of a board declared before (an annex)
                    gr.add_space(board, c, item.loc)
            for a in first:
                for b in second:
                    gr.join(a, b, item.edge)
                    if not item.one_way:
                        gr.join(b, a, item.edge)
            continue
        ids = list(first)
        if len(set(ids)) != len(ids):
            raise RuleError("a space appears twice in one line of spaces", item.loc)
        pairs = list(zip(ids, ids[1:]))
        if item.shape == "closed" and len(ids) > 2:
            pairs.append((ids[-1], ids[0]))
        for a, b in pairs:  # the listed direction first: walks list "forward" before "back"
            gr.join(a, b, item.edge)
        for a, b in pairs:
            gr.join(b, a, item.edge)
        if item.edge is not None:
            for cid in ids:
                gr.region.setdefault(cid, item.edge)
    return gr


# ---- functions ---------------------------------------------------------------------------


def _steps(gr: Graph, sid: int, kinds: set | None) -> list[int]:
    return [n for n, k in gr.adj[sid] if kinds is None or k in kinds]


def walk_ids(gr: Graph, start: int, n: int, ks: set | None) -> list[list[int]]:
    """Every walk of exactly n steps from space `start` along edges of the kinds `ks` (None: any)."""
    out: list[list[int]] = []
    stack: list[tuple[int, int | None, list[int]]] = [(start, None, [])]
    while stack:
        at, came_from, path = stack.pop()
        if len(path) == n:
            out.append(path)
            if len(out) > MAX_WALKS:
                raise RuleError(f"more than {MAX_WALKS} walks of {n} steps: too many to list", None)
            continue
        nxt = [m for m in _steps(gr, at, ks) if m != came_from]
        stack.extend((m, at, path + [m]) for m in reversed(nxt))
    return out


def steps_between_ids(gr: Graph, start: int, goal: int, ks: set | None) -> int | None:
    """The fewest steps from space `start` to `goal` along edges of the kinds `ks` (None: any)."""
    seen, frontier, d = {start}, [start], 0
    while frontier:
        if goal in frontier:
            return d
        d += 1
        nxt = []
        for x in frontier:
            for m in _steps(gr, x, ks):
                if m not in seen:
                    seen.add(m)
                    nxt.append(m)
        frontier = nxt
    return None


BOARD_BUILTINS: dict[str, Builtin] = {
    "spaces": Builtin(1, 1, "every space of a grid zone (row by row) or of a board (in order)"),
    "space_of": Builtin(1, 1, "the grid space or board space a card lies on (none when none)", reads=ANYWHERE),
    "neighbours": Builtin(1, 2, "the spaces one step from a board space (along edges of the kinds)"),
    "walks": Builtin(2, 3, "every walk of exactly n steps from a space, never stepping straight back"),
    "spaces_away": Builtin(2, 3, "the spaces where the walks of exactly n steps from a space end"),
    "steps_between": Builtin(2, 3, "the fewest steps from one board space to another (none if unreachable)"),
    "region": Builtin(1, 1, "the name of the first named loop or line holding a board space"),
    "cards_at": Builtin(1, 1, "the cards lying on a board space", reads=ANYWHERE),
    "card_named": Builtin(1, 1, "the first card with this name (none if there is none)"),
    "cards_named": Builtin(1, 1, "every card with this name"),
}
