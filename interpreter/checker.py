"""Static checks over a built ruleset: every name resolves, calls have the right arity,
fields and enumeration values exist, events are declared; unused declarations are warned.

All problems are reported at once into `content.diagnostics`; nothing here raises.
"""
from __future__ import annotations

from .ast import Node
from .builtins import BUILTINS
from .compiler import SPECIAL_NAMES
from .diagnostics import did_you_mean
from .model import Ruleset

__all__ = ["check", "BUILTIN_EVENTS"]

BUILTIN_EVENTS = {"drawn", "placed", "rolled", "turn_start", "turn_end", "round_start", "round_end", "game_end"}
_LOOP_KINDS = {"for", "repeat"}


class _Checker:
    def __init__(self, rs: Ruleset):
        self.rs = rs
        self.c = rs.content
        self.used: set[str] = set()
        self.enum_values = rs.enum_values()
        self.card_fields = rs.card_fields()
        self.fired: set[str] = set()
        self.listened: set[str] = set()

    def known_names(self, scope: set[str]) -> set[str]:
        rs = self.rs
        return (scope | set(rs.zones) | set(rs.stats) | set(rs.constants) | SPECIAL_NAMES | set(rs.card_types)
                | set(self.enum_values))

    # ---- top level -------------------------------------------------------------------------
    def run(self) -> None:
        rs = self.rs
        for name, n in rs.constants.items():
            self.expr(n.value, {"you"})
        for sd in rs.stats.values():
            if sd.init is not None:
                self.expr(sd.init, {"you"})
        for name, p in rs.phases.items():
            self.block(p.body, {"you"}, 0)
        if not ({"turn", "round", "play"} & set(rs.phases)):
            self.c.error("game/flow", "the rules define no `turn:`, `round:` or `play:`", None,
                         "add `turn:` with what the active player does")
        for name, p in rs.procedures.items():
            self.block(p.body, {"you", "this", *p.params}, 0)
        for name, f in rs.functions.items():
            self.expr(f.expr, {"you", "this", *f.params})
        for t in rs.triggers:
            self.trigger(t)
        for a in rs.actions:
            self.action(a)
        for stat, triggers in rs.short_triggers.items():
            for t in triggers:
                sd = rs.stats.get(stat)
                if sd is None or not sd.per_player:
                    self.undefined(stat, t.loc, {n for n, d in rs.stats.items() if d.per_player}, "player stat")
                else:
                    self.used.add(stat)
                self.block(t.body, {"you", t.binder}, 0)
        for w in rs.watchers:
            self.expr(w.cond, {"you"})
            self.block(w.body, {"you"}, 0)
        for a in rs.always:
            self.block(a.body, {"you"}, 0)
        for zone, p in rs.placements.items():
            if zone not in rs.zones:
                self.undefined(zone, p.loc, set(rs.zones), "zone")
            else:
                self.used.add(zone)
            for x in p.conds:
                self.expr(x, {"you", p.binder, "card"})
        for s in rs.scores + rs.tiebreaks:
            self.expr(s.expr, {"you", s.binder})
        for tname, node in rs.card_types.items():
            for f in node.fields_:
                if f.default is not None:
                    self.expr(f.default, set())
        effects = {}
        for card in rs.cards:
            if card.effect is not None:
                effects[id(card.effect)] = card.effect
        for eff in effects.values():
            for t in eff.triggers:
                if t.kind == "action":
                    self.action(t)
                else:
                    self.trigger(t)
        self.unused()

    def trigger(self, t: Node) -> None:
        self.listened.add(t.event)
        if t.event not in self.rs.events and t.event not in BUILTIN_EVENTS:
            self.undefined(t.event, t.loc, set(self.rs.events) | BUILTIN_EVENTS, "event",
                           f"declare it with `event {t.event}`")
        scope = {"you", "this"} | ({t.binder} if t.binder else set())
        if t.cond is not None:
            self.expr(t.cond, scope)
        self.block(t.body, scope, 0)

    def action(self, a: Node) -> None:
        if a.cond is not None:
            self.expr(a.cond, {"you", "this"})
        self.block(a.body, {"you", "this"}, 0)

    def unused(self) -> None:
        rs = self.rs
        for name, z in rs.zones.items():
            if name not in self.used:
                self.c.warn("unused/zone", f"zone `{name}` is never used", z.loc, "remove it, or use it in the rules")
        for name, s in rs.stats.items():
            if name not in self.used:
                self.c.warn("unused/stat", f"stat `{name}` is never used", s.loc)
        for name, n in rs.constants.items():
            if name not in self.used:
                self.c.warn("unused/constant", f"constant `{name}` is never used", n.loc)
        for name, p in rs.procedures.items():
            if name not in self.used:
                self.c.warn("unused/procedure", f"procedure `{name}` is never called", p.loc)
        for name, f in rs.functions.items():
            if name not in self.used:
                self.c.warn("unused/function", f"function `{name}` is never used", f.loc)
        for name, loc in rs.events.items():
            if name not in self.fired:
                self.c.warn("unused/event", f"event `{name}` is never fired", loc, f"add `fire {name} on ...`")
            elif name not in self.listened:
                self.c.warn("unused/event", f"nothing answers event `{name}`", loc, f"add `when {name}:` to a card")

    def undefined(self, name: str, loc, candidates: set[str], what: str = "name", hint: str | None = None) -> None:
        self.c.error(f"name/undefined", f"unknown {what} `{name}`", loc, did_you_mean(name, candidates) or hint)

    # ---- statements ------------------------------------------------------------------------
    def block(self, stmts: list[Node], scope: set[str], loops: int) -> None:
        for s in stmts:
            self.stmt(s, scope, loops)

    def bind(self, name: str, loc, scope: set[str]) -> None:
        rs = self.rs
        for table, what in ((rs.zones, "zone"), (rs.stats, "stat"), (rs.constants, "constant"),
                            (rs.card_types, "card type"), (rs.procedures, "procedure"), (rs.functions, "function")):
            if name in table:
                self.c.error("name/shadow", f"`{name}` already names a {what}", loc, "pick another variable name")
                return
        if name in SPECIAL_NAMES and name not in ("it",):
            self.c.error("name/shadow", f"`{name}` is a reserved name", loc, "pick another variable name")
            return
        scope.add(name)

    def stmt(self, s: Node, scope: set[str], loops: int) -> None:
        k = s.kind
        if k == "let":
            self.expr(s.expr, scope)
            self.bind(s.name, s.loc, scope)
        elif k in ("set", "aug"):
            self.expr(s.expr, scope)
            self.target(s.target, scope)
        elif k == "move":
            self.expr(s.what, scope)
            self.expr(s.dest, scope)
            if s.name:
                self.bind(s.name, s.loc, scope)
        elif k == "draw":
            if s.count is not None:
                self.expr(s.count, scope)
            self.expr(s.source, scope)
            self.expr(s.dest, scope)
            if s.name:
                self.bind(s.name, s.loc, scope)
        elif k == "place":
            self.expr(s.what, scope)
            self.expr(s.zone, scope)
        elif k == "cover":
            self.expr(s.what, scope)
            self.expr(s.target, scope)
        elif k == "shuffle":
            self.expr(s.zone, scope)
        elif k == "fire":
            self.fired.add(s.event)
            if s.event not in self.rs.events and s.event not in BUILTIN_EVENTS:
                self.undefined(s.event, s.loc, set(self.rs.events), "event", f"declare it with `event {s.event}`")
            for x in (s.subject, s.actor):
                if x is not None:
                    self.expr(x, scope)
        elif k == "choose":
            self.expr(s.player, scope)
            self.expr(s.options, scope)
            if s.count is not None and s.count.n is not None:
                self.expr(s.count.n, scope)
            self.bind(s.name, s.loc, scope)
        elif k == "roll":
            self.expr(s.dice, scope)
            if not self.rs.die_types:
                self.c.error("dice/none", "`roll` needs dice, but no `die type` is declared", s.loc,
                             "declare one, e.g. `die type D6: 1..6, 2 dice`")
        elif k in ("gain", "lose"):
            self.expr(s.player, scope)
            self.expr(s.amount, scope)
            sd = self.rs.stats.get(s.stat)
            if sd is None or not sd.per_player:
                self.undefined(s.stat, s.stat_loc, {n for n, d in self.rs.stats.items() if d.per_player},
                               "player stat")
            else:
                self.used.add(s.stat)
        elif k == "take_actions":
            self.expr(s.player, scope)
            if s.sources is not None:
                self.expr(s.sources, scope)
        elif k in ("break", "continue"):
            if loops == 0:
                self.c.error("flow/loop", f"`{k}` outside a loop", s.loc, "use it inside `repeat`, `while` or `for each`")
        elif k in ("end_game", "play_round", "pass"):
            pass
        elif k == "add_dummy":
            if s.name:
                self.bind(s.name, s.loc, scope)
        elif k == "play_turn":
            self.expr(s.player, scope)
        elif k == "log":
            self.expr(s.expr, scope)
        elif k == "call_stmt":
            x = s.expr
            if x.kind == "call" and x.func in self.rs.procedures:
                self.used.add(x.func)
                params = self.rs.procedures[x.func].params
                if len(x.args) != len(params):
                    self.c.error("call/arity", f"`{x.func}` takes {len(params)} argument(s) "
                                 f"({', '.join(params)}), got {len(x.args)}", x.loc)
                for a in x.args:
                    self.expr(a, scope)
            elif x.kind == "call":
                if x.func in self.rs.functions:
                    self.c.error("call/value", f"function `{x.func}(...)` gives a value; a line on its own must do "
                                 "something", x.loc, "use it in `let`, `if` or another statement")
                elif x.func in BUILTINS:
                    self.c.error("call/value", f"`{x.func}(...)` gives a value; a line on its own must do something",
                                 x.loc, "use it in `let`, `if` or another statement")
                else:
                    self.undefined(x.func, x.loc, set(self.rs.procedures), "procedure")
            else:
                self.c.error("syntax/statement", "this line does nothing", s.loc,
                             "statements start with a keyword such as let, set, move, if, for each")
        elif k == "if":
            for cond, body in s.branches:
                if cond.kind == "may":
                    self.expr(cond.player, scope)
                else:
                    self.expr(cond, scope)
                self.block(body, scope, loops)
            if s.orelse:
                self.block(s.orelse, scope, loops)
        elif k == "for":
            self.expr(s.iter, scope)
            self.bind(s.name, s.loc, scope)
            self.block(s.body, scope, loops + 1)
        elif k == "repeat":
            for x in (s.times, s.cond):
                if x is not None:
                    self.expr(x, scope)
            self.block(s.body, scope, loops + 1)

    def target(self, t: Node, scope: set[str]) -> None:
        rs = self.rs
        if t.kind == "name":
            if t.id in rs.stats:
                self.used.add(t.id)
                if rs.stats[t.id].per_player:
                    self.c.error("stat/owner", f"`{t.id}` is a player stat: say whose", t.loc,
                                 f"write `your {t.id}` or `{t.id} of p`")
            elif t.id in ("start_player",) or t.id in scope:
                pass
            else:
                self.c.error("assign/target", f"`{t.id}` cannot be set", t.loc,
                             did_you_mean(t.id, set(rs.stats) | scope) or "declare it with `stat` or `let`")
        elif t.kind in ("attr", "of"):
            self.expr(t.obj if t.kind == "attr" else t.owner, scope)
            if t.name not in rs.stats or not rs.stats[t.name].per_player:
                self.c.error("assign/target", f"`{t.name}` is not a player stat", getattr(t, "name_loc", t.loc),
                             did_you_mean(t.name, {n for n, s in rs.stats.items() if s.per_player}))
            else:
                self.used.add(t.name)
        else:
            self.c.error("assign/target", "only a variable, a stat or a player's stat can be set", t.loc)

    # ---- expressions -----------------------------------------------------------------------
    def expr(self, n: Node, scope: set[str]) -> None:
        k = n.kind
        rs = self.rs
        if k == "name":
            name = n.id
            if name in scope or name in SPECIAL_NAMES or name in rs.card_types or name in self.enum_values \
                    or name in rs.die_types:
                return
            if name in rs.zones or name in rs.stats or name in rs.constants:
                self.used.add(name)
                if name in rs.zones and rs.zones[name].per_player:
                    self.c.error("zone/owner", f"`{name}` is a zone per player: say whose", n.loc,
                                 f"write `your {name}` or `{name} of p`")
                if name in rs.stats and rs.stats[name].per_player:
                    self.c.error("stat/owner", f"`{name}` is a player stat: say whose", n.loc,
                                 f"write `your {name}` or `{name} of p`")
                return
            self.undefined(name, n.loc, self.known_names(scope))
        elif k == "of":
            self.expr(n.owner, scope)
            if n.name in rs.zones or n.name in rs.stats:
                self.used.add(n.name)
                d = rs.zones.get(n.name) or rs.stats.get(n.name)
                if not d.per_player:
                    self.c.error("zone/owner", f"`{n.name}` is shared, it has no owner", n.name_loc,
                                 f"write just `{n.name}`")
            elif n.name not in BUILTINS:
                per_player = {z for z, d in rs.zones.items() if d.per_player} | \
                             {s for s, d in rs.stats.items() if d.per_player}
                self.undefined(n.name, n.name_loc, per_player, "zone or player stat")
        elif k == "attr":
            self.expr(n.obj, scope)
            if n.name not in self.card_fields and not (n.name in rs.stats and rs.stats[n.name].per_player):
                self.c.error("field/unknown", f"no card type or player stat has a field `{n.name}`", n.name_loc,
                             did_you_mean(n.name, set(self.card_fields) | set(rs.stats)))
            elif n.name in rs.stats:
                self.used.add(n.name)
        elif k == "call" and n.func in rs.functions:
            self.used.add(n.func)
            params = rs.functions[n.func].params
            if len(n.args) != len(params):
                self.c.error("call/arity", f"`{n.func}` takes {len(params)} argument(s) "
                             f"({', '.join(params)}), got {len(n.args)}", n.loc)
            for a in n.args:
                self.expr(a, scope)
        elif k == "call":
            if n.func in rs.procedures:
                self.c.error("call/value", f"procedure `{n.func}` does something; it gives no value", n.loc,
                             "call it on a line of its own")
            elif n.func not in BUILTINS:
                self.undefined(n.func, n.loc, set(BUILTINS) | set(rs.functions), "function")
            else:
                b = BUILTINS[n.func]
                if not b.lo <= len(n.args) <= b.hi:
                    want = str(b.lo) if b.lo == b.hi else f"{b.lo} to {b.hi}"
                    self.c.error("call/arity", f"`{n.func}` takes {want} argument(s), got {len(n.args)}", n.loc,
                                 b.doc)
            for a in n.args:
                self.expr(a, scope)
        elif k == "is":
            self.expr(n.expr, scope)
            if n.what not in rs.card_types and n.what not in rs.die_types and \
                    n.what not in ("empty", "covered", "none", "unknown", "dummy"):
                self.c.error("name/undefined", f"`is {n.what}`: not a card type", n.loc,
                             did_you_mean(n.what, set(rs.card_types) | {"empty", "covered"})
                             or "use a card type, `empty`, `covered`, `dummy` or `none`")
        elif k == "compare":
            self.expr(n.left, scope)
            self.expr(n.right, scope)
            self.enum_compare(n.left, n.right, scope)
            self.enum_compare(n.right, n.left, scope)
        elif k == "where":
            self.expr(n.items, scope)
            self.expr(n.cond, scope | {"it"})
        elif k == "quantified":
            self.expr(n.iter, scope)
            self.expr(n.cond, scope | set(n.names))
        elif k == "comprehension":
            self.expr(n.iter, scope)
            self.expr(n.expr, scope | {n.name})
        elif k == "map":
            for a, b in n.pairs:
                self.expr(a, scope)
                self.expr(b, scope)
        else:
            for child in n.children():
                self.expr(child, scope)

    def enum_compare(self, side: Node, value: Node, scope: set[str]) -> None:
        """`c.suit == Hartz`: the value must be one of the field's enumeration values."""
        if side.kind != "attr" or value.kind != "name" or value.id in scope:
            return
        allowed = set()
        for tname in self.card_fields.get(side.name, []):
            if tname in self.rs.die_types:
                faces = self.rs.die_types[tname].faces
                allowed |= set(faces.values) if faces.kind == "enum_type" else set()
                continue
            for f in self.rs.card_types[tname].fields_:
                if f.name == side.name and f.type.kind == "enum_type":
                    allowed |= set(f.type.values)
        if allowed and value.id not in allowed and value.id not in self.rs.constants and value.id not in self.rs.stats:
            self.c.error("enum/value", f"`{value.id}` is not a value of field `{side.name}`", value.loc,
                         did_you_mean(value.id, allowed) or f"one of: {', '.join(sorted(allowed))}")


def check(rs: Ruleset) -> None:
    """Run every static check; diagnostics land in `rs.content.diagnostics`."""
    _Checker(rs).run()
