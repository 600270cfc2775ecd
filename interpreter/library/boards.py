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

from .builtins import ANYWHERE, CORE_BUILTINS, Builtin
from ..runtime.errors import RuleError
from ..content.model import CardData
from ..runtime.values import Position, ZoneRef
from ..runtime.zones import put, take_out

__all__ = ["Graph", "graph", "build_graph", "walk_ids", "steps_between_ids", "compile_boards", "is_space",
           "move_onto", "space_card"]

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


def compile_boards(compiler: Any, rs: Any) -> list[tuple[str, Any, Any, Any]]:
    """(board, item node, its spaces, the spaces it links to) for every board item, compiled."""
    out = []
    for name, b in rs.boards.items():
        for item in b.items:
            to = compiler.expr(item.to) if item.to is not None else None
            out.append((name, item, compiler.expr(item.spaces), to))
    return out


def _cards(g: Any, f: Any, loc: Any) -> list[CardData]:
    v = g.evaluate(f, {"you": None}, loc)
    items = [v] if isinstance(v, CardData) else g.charged_list(v)
    for c in items:
        if not isinstance(c, CardData):
            raise RuleError(f"a board's spaces are cards, not {g.text(c)}", loc)
    return list(items)


def graph(g: Any) -> Graph:
    """The game's board graph, built on first use from the board declarations."""
    built = g.__dict__.get("_board_graph")
    if built is not None:
        return built
    gr = build_graph(g.program.boards, lambda f, loc: [c.id for c in _cards(g, f, loc)])
    g.__dict__["_board_graph"] = gr
    return gr


def build_graph(items: list, space_ids: Any) -> Graph:
    """The graph of board items (board, item node, spaces, linked spaces), each item's spaces
    given by `space_ids(spaces, loc)` as card ids, evaluated in declaration order (shared by the
    engines: the direct engine's items are its own compiled functions)."""
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


def is_space(g: Any, v: Any) -> bool:
    return isinstance(v, CardData) and bool(g.program.boards) and v.id in graph(g).board_of


def move_onto(g: Any, cards: list[CardData], space: CardData) -> list[CardData]:
    """`move X to S`: the cards go to the board's zone, lying on space S."""
    st = g.state
    key = graph(g).board_of[space.id]
    for c in cards:
        if c.id == space.id:
            raise RuleError("a space cannot lie on itself", None)
        if c.id in st.where:
            take_out(st, c.id, g.program.rows_zones)
        put(st, c.id, key, False, Position(space.id, "space"))
    if cards:
        g.touch(key)
    return cards


def space_card(g: Any, card: CardData) -> CardData | None:
    """The space a card lies on, when it lies on a board."""
    at = g.state.where.get(card.id, "")
    sid = g.state.spaces.get(card.id)
    if sid is None or at not in g.program.board_names:
        return None
    return g.cards[sid]


# ---- functions ---------------------------------------------------------------------------
def _space(g, x, what: str = "a space") -> int:
    if isinstance(x, CardData) and x.id in graph(g).board_of:
        return x.id
    raise RuleError(f"{g.text(x)} is not {what} of a board", None)


def _kinds(g, kinds) -> set | None:
    if kinds is None:
        return None
    return set(g.charged_list(kinds)) if not isinstance(kinds, str) else {kinds}


def _steps(gr: Graph, sid: int, kinds: set | None) -> list[int]:
    return [n for n, k in gr.adj[sid] if kinds is None or k in kinds]


def _neighbours(g, e, s, kinds=None):
    gr = graph(g)
    return [g.cards[n] for n in _steps(gr, _space(g, s), _kinds(g, kinds))]


def _walk_ids(g, s, n, kinds) -> list[list[int]]:
    """Every walk of exactly n steps from s that never steps straight back to the space it left."""
    gr, ks = graph(g), _kinds(g, kinds)
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise RuleError(f"a walk takes a whole number of steps, not {g.text(n)}", None)
    return walk_ids(gr, _space(g, s), n, ks)


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


def _walks(g, e, s, n, kinds=None):
    return [[g.cards[i] for i in w] for w in _walk_ids(g, s, n, kinds)]


def _spaces_away(g, e, s, n, kinds=None):
    ends: list[int] = []
    for w in _walk_ids(g, s, n, kinds):
        end = w[-1] if w else _space(g, s)
        if end not in ends:
            ends.append(end)
    return [g.cards[i] for i in ends]


def _steps_between(g, e, a, b, kinds=None):
    gr, ks = graph(g), _kinds(g, kinds)
    return steps_between_ids(gr, _space(g, a), _space(g, b), ks)


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


def _region(g, e, s):
    return graph(g).region.get(_space(g, s)) if s is not None else None


def _cards_at(g, e, s):
    if s is None:
        return []
    sid = _space(g, s)
    key = graph(g).board_of[sid]
    spots = g.state.spaces
    return [g.cards[c] for c in g.state.zones[key] if spots.get(c) == sid]


def _card_named(g, e, name):
    return next((c for c in g.cards if c.name == name), None)


def _cards_named(g, e, name):
    return [c for c in g.cards if c.name == name]


_grid_spaces = CORE_BUILTINS["spaces"].fn
_grid_space_of = CORE_BUILTINS["space_of"].fn


def _spaces(g, e, z):
    if isinstance(z, ZoneRef) and z.name in g.program.board_names:
        return [g.cards[i] for i in graph(g).order.get(z.name, [])]
    return _grid_spaces(g, e, z)


def _space_of(g, e, card):
    if isinstance(card, CardData) and g.state.where.get(card.id) in g.program.board_names:
        return space_card(g, card)
    return _grid_space_of(g, e, card)


BOARD_BUILTINS: dict[str, Builtin] = {
    "spaces": Builtin(_spaces, 1, 1, "every space of a grid zone (row by row) or of a board (in order)"),
    "space_of": Builtin(_space_of, 1, 1, "the grid space or board space a card lies on (none when none)", reads=ANYWHERE),
    "neighbours": Builtin(_neighbours, 1, 2, "the spaces one step from a board space (along edges of the kinds)"),
    "walks": Builtin(_walks, 2, 3, "every walk of exactly n steps from a space, never stepping straight back"),
    "spaces_away": Builtin(_spaces_away, 2, 3, "the spaces where the walks of exactly n steps from a space end"),
    "steps_between": Builtin(_steps_between, 2, 3, "the fewest steps from one board space to another (none if unreachable)"),
    "region": Builtin(_region, 1, 1, "the name of the first named loop or line holding a board space"),
    "cards_at": Builtin(_cards_at, 1, 1, "the cards lying on a board space", reads=ANYWHERE),
    "card_named": Builtin(_card_named, 1, 1, "the first card with this name (none if there is none)"),
    "cards_named": Builtin(_cards_named, 1, 1, "every card with this name"),
}
