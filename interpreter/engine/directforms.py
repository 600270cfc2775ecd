"""Direct-style compilation (direct.py) of more expression and statement forms: `+` of lists and
of texts, `position`, `values` of a zone and `repeat while`.

`FormsGen` is mixed into `direct._Gen`; what it writes computes what the task engine's closures
compute (compile/compiler.py, library/builtins.py) on the same state, so that both engines play
the same games. `FormsRuntime` is the part of `directgame.Runtime` they call.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..compile.compiler import MAX_ITEMS
from .directexpr import _SIMPLE, Unsupported, V
from ..runtime.errors import RuleError
from ..runtime.zones import zone_cards

__all__ = ["FormsGen", "FormsRuntime", "FORMS_GLOBALS", "FORMS_KEYWORDS"]



def _join(a: list, b: list) -> list:
    """`+` of two lists (as `Game.add`): a new list, within the longest a rule may build."""
    out = a + b
    if len(out) > MAX_ITEMS:
        raise RuleError(f"a list or text longer than {MAX_ITEMS} items", None)
    return out


FORMS_GLOBALS = {"_join": _join}
FORMS_KEYWORDS = frozenset({"position"})


class FormsGen:
    """Mixed into `direct._Gen` (which provides `expr`, `items`, `emit`, `temp`, `k`, `bind`,
    `dest`, `block`, `count_round`, `settle_check`, `emit_move_many`, `events`, `rs`)."""

    @property
    def empty_lists(self) -> set:
        """Locals set to `[]` by a `let`: they may hold cards later (`e_arith`)."""
        got = self.__dict__.get("_empty_lists")
        if got is None:
            got = self.__dict__["_empty_lists"] = set()
        return got

    @property
    def var_names(self) -> dict:
        """Generated local → the rule variable it holds (errors name the variable)."""
        got = self.__dict__.get("_var_names")
        if got is None:
            got = self.__dict__["_var_names"] = {}
        return got

    def zone_arg(self, z: V, d: int, loc) -> "ZoneArg":
        """A zone passed to an inlined procedure: its parameter names the zone itself (so that
        cards can move to it), of the owner the call named (evaluated once, at the call)."""
        zd = self.rs.zones[z.zone]
        if zd.per_player:
            local = self.zones_used[z.zone]
            owner = z.key[len(local) + 2:-1]  # `_z3k[OWNER]` (`_Gen.zone`)
            if not _SIMPLE.match(owner):
                t = self.temp()
                self.emit(d, f"{t} = {owner}", loc)
                owner = t
            z = self.zone(z.zone, owner)
        return ZoneArg(z)

    def e_name(self, n, scope):
        got = scope.get(n.id)
        if isinstance(got, ZoneArg):
            return replace(got.v)
        return super().e_name(n, scope)

    def e_arith(self, n, scope):
        """`+` of lists (a list of values, or cards joined with a list that held none so far:
        `let xs = []` ... `let xs = [c] + xs`) and of texts; anything else as directexpr does."""
        if n.op == "+":
            left, right = self.expr(n.left, scope), self.expr(n.right, scope)
            kinds = {left.kind, right.kind}
            cardish = {"cards", "zone", "row"}
            if kinds == {"list"} or (kinds & cardish and kinds <= cardish | {"list"} and "list" in kinds):
                l, r = self.items(left), self.items(right)
                return V(f"_join({l.src}, {r.src})", "list" if kinds == {"list"} else "cards")
            if "str" in kinds and kinds <= {"str", "int", "bool", "none"}:
                return V(f"_plus({left.src}, {right.src})", "str", nn=True)
        return super().e_arith(n, scope)

    def f_position(self, n, a, scope):
        if a[0].kind not in ("card", "none"):
            raise Unsupported("position of a non-card")
        return V(f"R.position({a[0].src})", "int")

    def f_values(self, n, a, scope):
        """`values(XS)`: the items as a list (a zone's cards)."""
        x = a[0]
        if x.kind == "list":
            return x
        if x.kind in ("zone", "row", "cards"):
            return self.items(x)
        raise Unsupported("values")

    def repeat_while(self, n, d, scope, loops) -> None:
        """`repeat while C` / `while C`: the condition before each round. The task engine settles
        before it only where the body stopped for a task; with no state-based rule to settle,
        both are the same."""
        if self.rs.always or self.rs.watchers:
            raise Unsupported("repeat while with state-based rules")
        self.emit(d, "while True:", n.loc)
        cond = self.expr(n.cond, scope)
        self.emit(d + 1, f"if not {cond.src}:", n.cond.loc)
        self.emit(d + 2, "break")
        self.count_round(d + 1, n.body)
        self.changed = True
        self.block(n.body, d + 1, scope, loops + 1)
        self.changed = True


class ZoneArg(tuple):
    """A scope entry (`(src, kind)`) that is a whole zone value (`V`, with its name and key)."""

    v: V

    def __new__(cls, v: V) -> "ZoneArg":
        out = super().__new__(cls, (v.src, v.kind))
        out.v = v
        return out


class FormsRuntime:
    """Mixed into `directgame.Runtime` (which provides `state`, `rows_zones`)."""

    def position(self, c: Any) -> int | None:
        """As builtins._position: how many top-level cards lie before `c` in its zone."""
        st = self.state
        key = st.where.get(c, "") if c is not None else ""
        if not key or key[0] == "^":
            return None
        return zone_cards(st, key, key.partition("#")[0] in self.rows_zones).index(c)
