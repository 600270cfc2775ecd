"""Direct-style compilation (direct.py) of more expression and statement forms: `+` of lists and
of texts, `position`, `values` of a zone and `repeat while`.

`FormsGen` is mixed into `direct._Gen`; what it writes computes what the task engine's closures
compute (compile/compiler.py, library/builtins.py) on the same state, so that both engines play
the same games. `FormsRuntime` is the part of `directgame.Runtime` they call.
"""
from __future__ import annotations

import sys
from typing import Any

from ..runtime.memory import MAX_ITEMS
from .directexpr import _SIMPLE, Unsupported, V
from ..language.tree import walk
from ..runtime.values import Seat
from ..runtime.errors import RuleError
from ..runtime.memory import built_flat, built_lists, built_value, charge_built
from ..runtime.zones import zone_cards

__all__ = ["FormsGen", "FormsRuntime", "FORMS_GLOBALS", "FORMS_KEYWORDS"]



def _join(R: Any, a: list, b: list) -> list:
    """`+` of two lists (as `Game.add`): a new list, within the longest a rule may build and
    charged to the game's memory budget (runtime/memory.py)."""
    out = a + b if type(a) is type(b) else list(a) + list(b)  # a walk is a tuple (directboards.py)
    if len(out) > MAX_ITEMS:
        raise RuleError(f"a list or text longer than {MAX_ITEMS} items", None)
    charge_built(R, len(out))
    return out


# _built: list literals, comprehensions; _built_flat: a literal of single values; _built_lists: one
# of card lists, rows or pairs of rows (directexpr._built_list, runtime/memory.py)
FORMS_GLOBALS = {"_join": _join, "_built": built_value, "_built_flat": built_flat, "_built_lists": built_lists,
                 "tuple": tuple}
FORMS_KEYWORDS = frozenset({"position", "add_dummy", "is_dummy"})


class FormsGen:
    """Mixed into `direct._Gen` (which provides `expr`, `items`, `emit`, `temp`, `k`, `bind`,
    `dest`, `block`, `count_round`, `settle_check`, `emit_move_many`, `events`, `rs`)."""

    @property
    def empty_lists(self) -> set:
        """Locals set to `[]` by a `let`: they may hold cards later (`Arith.generate`)."""
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

    @property
    def var_kinds(self) -> dict:
        """Generated local → the kind of value it holds (`V.kind`: card, cards, int, player...)."""
        got = self.__dict__.get("_var_kinds")
        if got is None:
            got = self.__dict__["_var_kinds"] = {}
        return got

    @property
    def uses_dummies(self) -> bool:
        """Whether some rule adds a dummy player (then decisions for one go to the active player)."""
        got = self.__dict__.get("_uses_dummies")
        if got is None:
            rs = self.rs
            roots = list(rs.phases.values()) + list(rs.procedures.values()) + list(rs.triggers) + \
                list(rs.actions) + [t for ts in rs.short_triggers.values() for t in ts] + \
                [t for c in rs.cards if c.effect is not None for t in c.effect.triggers]
            got = self.__dict__["_uses_dummies"] = any(m.kind == "add_dummy" for r in roots for m in walk(r))
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

    def scoped(self, name: str, scope: dict) -> V | None:
        """A zone passed to an inlined procedure (`ZoneArg`) is that zone, named and keyed."""
        got = scope.get(name)
        if isinstance(got, ZoneArg):
            return got.v.copy()
        return super().scoped(name, scope)

    def items(self, v: V) -> V:
        if v.kind == "walks":  # a list of walks (directboards.py)
            return v
        return super().items(v)

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
    """Mixed into `directgame.Runtime` (which provides `state`, `rows_zones`, `rs`, `game`, `info`,
    `seats`, `bits`, `tbit`)."""

    def is_dummy(self, p: Any) -> bool:
        return isinstance(p, Seat) and p >= self.state.players

    def add_dummy(self) -> Seat:
        """As `Game.add_dummy`: a seat that takes no turns, with the player zones and stats of any
        player (the zone lists and keys the generated code bound grow by one), in `players`. The
        tables it makes (bits, key names, rows keys) are the same for this seat in every game of
        the ruleset that reached it from the same tables: kept once (`_dummy_tables`), shared read
        only (every writer copies first), with the stats' start values' plan."""
        st = self.state
        seat = Seat(st.players + st.dummies)
        memo = self.tables.setdefault("dummies", {}).get(int(seat))
        if memo is None or memo[0] is not self.bits or memo[1] is not self.key_name or memo[2] is not self.rows_keys:
            memo = self.tables["dummies"][int(seat)] = self._dummy_tables(seat)
        st.dummies += 1
        self.seats = list(self.seats) + [seat]  # the shared table is not changed
        self.bits, self.key_name, self.rows_keys = memo[3], memo[4], memo[5]
        self.tbit.update(memo[6])  # this game's own copy (Runtime)
        zones, bound = st.zones, self.__dict__.get("_player_zones", {})
        for name, key in memo[7]:
            zone = zones[key] = []
            got = bound.get(name)
            if got is not None:
                got[0].append(zone)
                got[1].append(key)
        st.pstats.append({})
        row, fns = st.pstats[seat], self.game.fns
        for name, init, start in memo[8]:
            if init is None:
                row[name] = start
            else:
                v = fns[init](seat)
                row[name] = start.clamp(v) if isinstance(v, int) else v
        for zones_read, bits in self.__dict__.get("_plan_bits", ()):  # per-player `always` rules' seats
            bits.append(self.plan_seat_bits(zones_read, seat))
        self.touched = -1  # anything may have changed
        return seat

    def _dummy_tables(self, seat: Seat) -> tuple:
        """What `add_dummy` sets for `seat` from this game's tables as they are: (the bits, key
        names and rows keys before, and after; the new keys' `tbit`; (zone, key) per player zone;
        per player stat (name, its init function or None, its start value or, with a function, its
        definition to clamp by))."""
        rs = self.rs
        bits, key_name, rows_keys, tbit = dict(self.bits), dict(self.key_name), self.rows_keys, {}
        zones = []
        for name, z in rs.zones.items():
            if z.per_player:
                key = sys.intern(f"{name}#{int(seat)}")  # (as directgame's zone keys)
                bits[key] = 1 << len(bits)
                tbit[key] = bits[name] | bits[key]
                key_name[key] = name
                if name in self.rows_zones:  # a card taken off one of its rows leaves the row
                    rows_keys = rows_keys | {key}
                zones.append((name, key))
        inits, stats = self.info["stat_inits"], []
        for name, sd in rs.stats.items():
            if sd.per_player:
                bits.setdefault(f"{name}#{int(seat)}", 1 << len(bits))
                if name in inits:
                    stats.append((sys.intern(name), inits[name], sd))
                else:
                    v = sd.lo if sd.lo is not None else 0
                    stats.append((sys.intern(name), None, sd.clamp(v) if isinstance(v, int) else v))
        return (self.bits, self.key_name, self.rows_keys, bits, key_name, rows_keys, tbit, zones, stats)

    def bound_player_zone(self, name: str, zones: list, keys: list | None) -> None:
        """Note the lists of a player zone that the generated code bound (`add_dummy` grows them)."""
        got = self.__dict__.setdefault("_player_zones", {}).setdefault(name, [None, None])
        if zones is not None:
            got[0] = zones
        if keys is not None:
            got[1] = keys

    def others_with_dummies(self, you: Any) -> list:
        """`other_players()` once a dummy sits at the table (builtins._other_players)."""
        n = self.state.players
        start = you if you is not None else self.state.active
        playing = [Seat(k) for k in range(n)] if start >= n else [Seat((start + k) % n) for k in range(1, n)]
        return playing + [s for s in self.seats[n:] if s != start]

    def position(self, c: Any) -> int | None:
        """As builtins._position: how many top-level cards lie before `c` in its zone."""
        st = self.state
        key = st.where.get(c, "") if c is not None else ""
        if not key or key[0] == "^":
            return None
        return zone_cards(st, key, key.partition("#")[0] in self.rows_zones).index(c)
