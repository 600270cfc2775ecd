"""Direct-style compilation (direct.py) of boards (library/boards.py, docs/boards.md): the board
graph, `move X to SPACE`, and the functions that read the board.

`BoardGen` is mixed into `direct._Gen`: it writes one function per board item giving its spaces
(card ids), and compiles the board functions to calls of `BoardRuntime`, the part of
`directgame.Runtime` that builds the graph on first use (`boards.build_graph`, as the task
engine does) and answers them on card ids, with the task engine's messages.
"""
from __future__ import annotations

from typing import Any

from .directexpr import _ITEM_KIND, Unsupported, V
from ..library.boards import build_graph, steps_between_ids, walk_ids
from ..runtime.errors import RuleError
from ..runtime.values import Position
from ..runtime.zones import put

__all__ = ["BoardGen", "BoardRuntime", "BOARD_KEYWORDS"]

# kind `walks`: a list of walks, each a tuple of space ids (a tuple, so that a decision labels it
# as the task engine labels a list of spaces: `[A2 (Out), C1 (Mid)]`); its items are card lists
_ITEM_KIND.setdefault("walks", "cards")

BOARD_KEYWORDS = frozenset({"walks", "tuple", "move_onto", "space_of", "board_space_of", "board_spaces", "neighbours", "region",
                            "cards_at", "card_named", "cards_named", "steps_between", "spaces_away", "edge_kinds"})


class BoardGen:
    """Mixed into `direct._Gen` (which provides `expr`, `emit`, `cards_src`, `k`, `p`, `rs`)."""

    def board_tables(self, exported: list) -> list:
        """A function per board item giving its spaces (and, for a link, the spaces it leads to)
        as card ids; the table `(board, item, spaces function, to function)` the runtime builds
        the graph from (`Program.boards`)."""
        out = []
        for i, (board, item) in enumerate(self.p.boards):
            fns = []
            for j, node in enumerate((item.spaces, item.to)):
                if node is None:
                    fns.append(None)
                    continue
                name = f"_bd{i}_{j}"
                v = self.expr(node, {"you": ("_a0", "player")})
                if v.kind not in ("card", "cards", "zone", "row", "none"):
                    raise Unsupported("board spaces that are not cards")
                self.emit(1, f"def {name}(_a0):", item.loc)
                self.emit(2, f"return {self.cards_src(v)}", node.loc)
                exported.append(name)
                fns.append(name)
            out.append((board, item, fns[0], fns[1]))
        return out

    def _board_call(self, a: list, kinds_at: int) -> list[str]:
        srcs = [v.src for v in a]
        if len(a) > kinds_at:
            if a[kinds_at].kind not in ("str", "list", "none"):
                raise Unsupported("edge kinds")
            srcs[kinds_at] = f"R.edge_kinds({srcs[kinds_at]})"
        return srcs

    def f_spaces(self, n, a, scope):
        if a[0].kind == "zone" and self.rs.zones[a[0].zone].kind == "board":
            return V(f"R.board_spaces({self.k(a[0].zone)})", "cards", nn=True)
        other = getattr(super(), "f_spaces", None)  # a grid's spaces: directexpr's, where it has them
        if other is None:
            raise Unsupported("spaces of a grid")
        return other(n, a, scope)

    def f_space_of(self, n, a, scope):
        if self.p.grids:
            other = getattr(super(), "f_space_of", None)
            if other is None:
                raise Unsupported("space_of with grids")
            return other(n, a, scope)
        if a[0].kind not in ("card", "none", "any"):
            raise Unsupported("space_of of a non-card")
        return V(f"R.board_space_of({a[0].src})", "card")

    def f_neighbours(self, n, a, scope):
        return V(f"R.neighbours({', '.join(self._board_call(a, 1))})", "cards", nn=True)

    def f_walks(self, n, a, scope):
        if a[1].kind not in ("int", "any"):
            raise Unsupported("walks")
        return V(f"R.walks({', '.join(self._board_call(a, 2))})", "walks", nn=True)

    def f_spaces_away(self, n, a, scope):
        if a[1].kind not in ("int", "any"):
            raise Unsupported("spaces_away")
        return V(f"R.spaces_away({', '.join(self._board_call(a, 2))})", "cards", nn=True)

    def f_steps_between(self, n, a, scope):
        return V(f"R.steps_between({', '.join(self._board_call(a, 2))})", "int")

    def f_region(self, n, a, scope):
        return V(f"R.region({a[0].src})", "str")

    def f_cards_at(self, n, a, scope):
        return V(f"R.cards_at({a[0].src})", "cards", top=True, nn=True)

    def f_card_named(self, n, a, scope):
        if a[0].kind not in ("str", "any", "none"):  # a name, or a card's field holding one
            raise Unsupported("card_named")
        return V(f"R.card_named({a[0].src})", "card")

    def f_cards_named(self, n, a, scope):
        if a[0].kind not in ("str", "any", "none"):  # a name, or a card's field holding one
            raise Unsupported("cards_named")
        return V(f"R.cards_named({a[0].src})", "cards", nn=True)


class BoardRuntime:
    """Mixed into `directgame.Runtime` (which provides `state`, `info`, `rs`, `game`, `touch`,
    `_touch_card`, `_take`, `_text`)."""

    def graph(self) -> Any:
        """The game's board graph, built on first use (`boards.graph`)."""
        gr = self.__dict__.get("_graph")
        if gr is None:
            fns = self.game.fns
            gr = self.__dict__["_graph"] = build_graph(self.info["boards"], lambda f, loc: fns[f](None))
        return gr

    def _space(self, x: Any) -> int:
        if x is None or x not in self.graph().board_of:
            raise RuleError(f"{self._text(x, 'card')} is not a space of a board", None)
        return x

    def edge_kinds(self, kinds: Any) -> set | None:
        if kinds is None:
            return None
        return {kinds} if isinstance(kinds, str) else set(kinds)

    def move_onto(self, cards: list, space: Any) -> None:
        """`move CARDS to SPACE` (`Game.move` then `boards.move_onto`)."""
        for c in cards:
            if c is None:
                raise RuleError("only cards can be moved, not none", None)
        for c in cards:
            self._touch_card(c)
        board_of = self.graph().board_of if self.info["boards"] else {}
        if space not in board_of:
            raise RuleError(f"cards can only move to a zone, a row or a board space, not "
                            f"{self._text(space, 'card')}", None)
        st, key = self.state, board_of[space]
        for c in cards:
            if c == space:
                raise RuleError("a space cannot lie on itself", None)
            if c in st.where:
                self._take(c)
            put(st, c, key, False, Position(space, "space"))
        if cards:
            self.touch(key)

    def board_spaces(self, board: str) -> list:
        return list(self.graph().order.get(board, []))

    def board_space_of(self, c: Any) -> Any:
        """The space a card lies on (`Game.space_of`, boards only; a grid's is `CoverRuntime.space_of`)."""
        st = self.state
        if c is None or c not in st.spaces:
            return None
        at = st.where.get(c, "")
        if at.startswith("^") or at not in self.info["board_names"]:
            return None
        return st.spaces[c]

    def neighbours(self, s: Any, kinds: set | None = None) -> list:
        return [m for m, k in self.graph().adj[self._space(s)] if kinds is None or k in kinds]

    def _walk_ids(self, s: Any, n: Any, kinds: set | None) -> tuple[int, list]:
        gr = self.graph()
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise RuleError(f"a walk takes a whole number of steps, not {self._text(n, 'int')}", None)
        start = self._space(s)
        return start, walk_ids(gr, start, n, kinds)

    def walks(self, s: Any, n: Any, kinds: set | None = None) -> list:
        """`walks(s, n)`: every walk of exactly n steps, each a tuple of space ids."""
        return [tuple(w) for w in self._walk_ids(s, n, kinds)[1]]

    def spaces_away(self, s: Any, n: Any, kinds: set | None = None) -> list:
        start, walks = self._walk_ids(s, n, kinds)
        ends: list[int] = []
        for w in walks:
            end = w[-1] if w else start
            if end not in ends:
                ends.append(end)
        return ends

    def steps_between(self, a: Any, b: Any, kinds: set | None = None) -> int | None:
        return steps_between_ids(self.graph(), self._space(a), self._space(b), kinds)

    def region(self, s: Any) -> str | None:
        return self.graph().region.get(self._space(s)) if s is not None else None

    def cards_at(self, s: Any) -> list:
        if s is None:
            return []
        sid = self._space(s)
        spots = self.state.spaces
        return [c for c in self.state.zones[self.graph().board_of[sid]] if spots.get(c) == sid]

    def card_named(self, name: str) -> int | None:
        return next((c.id for c in self.rs.cards if c.name == name), None)

    def cards_named(self, name: str) -> list:
        return [c.id for c in self.rs.cards if c.name == name]
