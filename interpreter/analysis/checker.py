"""Static checks over a built ruleset: every name resolves, calls have the right arity,
fields and enumeration values exist, events are declared, values have a plausible kind
(a zone is not a number nor a condition); unused declarations are warned.

All problems are reported at once into `content.diagnostics`; nothing here raises. The
language is dynamic, so type checks only fire on what is certain (literals, declared zones
and stats, builtin results); anything unknown passes. When syntax errors hid part of the
rules, checks that could be wrong without that part are held back.
"""
from __future__ import annotations

from ..language.tree import Node
from ..library import BUILTINS
from ..library.names import SPECIAL_NAMES
from ..language.diagnostics import Loc, did_you_mean
from ..language.kinds import ARTICLE, BOOL, NUMBER, TEXT, ZONE
from ..content.model import Ruleset
from .preferchecks import check_action_prefers

__all__ = ["check", "BUILTIN_EVENTS"]

# built-in events fired with no subject: a card's own `when` never answers them (docs/language.md)
_SUBJECTLESS = frozenset({"turn_start", "turn_end", "round_start", "round_end", "game_end"})
BUILTIN_EVENTS = {"drawn", "placed", "rolled"} | _SUBJECTLESS


# statements after which nothing else of their block runs (`end game after this turn` is not one)
_ENDERS = {"break": "break", "continue": "continue", "end_game": "end game"}


class _Checker:
    def __init__(self, rs: Ruleset):
        self.rs = rs
        self.c = rs.content
        self.used: set[str] = set()
        self.builtins = BUILTINS  # for the constructs' own checks (language/tree.py `Checks`)
        self.builtin_events = BUILTIN_EVENTS
        self.enum_values = rs.enum_values()
        self.card_fields = rs.card_fields()
        self.fired: set[str] = set()
        self.fired_on: set[str] = set()  # events some `fire` gives a subject (`on ...`)
        self.card_triggers: list[Node] = []  # `when` triggers of card effects (checked once all fires are known)
        self.listened: set[str] = set()
        self.flow: set[str] = set()  # `play_turn`, `play_round`: the statements that start a turn or round
        self.handled: set[int] = set()  # name nodes already reported (no second error for them)
        self.constant_stack: set[str] = set()
        self.lost_names = rs.lost()
        self.lost_any = any(k == "*" for k, _ in rs.unparsed)
        # a lost card type may hold any field or value; a lost unknown declaration may be anything
        self.lost_types = self.lost_any or bool(rs.lost("card"))

    def known_names(self, scope: set[str]) -> set[str]:
        rs = self.rs
        return (scope | set(rs.zones) | set(rs.stats) | set(rs.constants) | SPECIAL_NAMES | set(rs.card_types)
                | set(self.enum_values))

    # ---- top level -------------------------------------------------------------------------
    def run(self) -> None:
        rs = self.rs
        for n in rs.constants.values():
            self.expr(n.value, {"you"})
        for sd in rs.stats.values():
            if sd.init is not None:
                self.expr(sd.init, {"you"})
        for p in rs.phases.values():
            self.block(p.body, {"you"}, 0)
        if not ({"turn", "round", "play"} & set(rs.phases)) and not rs.partial:
            self.c.error("game/flow", "the rules define no `turn:`, `round:` or `play:`", None,
                         "add `turn:` with what the active player does")
        for p in rs.procedures.values():
            self.block(p.body, {"you", "this", *p.params}, 0)
        for name, f in rs.functions.items():
            if name in BUILTINS:
                self.c.error("name/duplicate", f"`{name}` is a built-in function", f.loc,
                             "give your function another name")
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
            self.cond(w.cond, {"you"})
            self.block(w.body, {"you"}, 0)
        for a in rs.always:
            self.block(a.body, {"you"}, 0)
        for zone, p in rs.placements.items():
            if zone not in rs.zones:
                self.undefined(zone, (getattr(p, "zone_loc", None) or p.loc), set(rs.zones), "zone")
            else:
                self.used.add(zone)
            for x in p.conds:
                self.cond(x, {"you", p.binder, "card"})
        for s in rs.scores + rs.tiebreaks + rs.values:
            self.expr(s.expr, {"you", s.binder})
        for s in rs.prefers:  # `it`: the option being rated (an action's label; `this`: its card)
            self.expr(s.expr, {"you", s.binder, "it", "this"} if s.action is not None else {"you", s.binder, "it"})
        check_action_prefers(rs)
        for b in rs.boards.values():
            self.board(b)
        for node in rs.card_types.values():
            for f in node.fields_:
                if f.default is not None:
                    self.expr(f.default, set())
        effects = {id(card.effect): card.effect for card in rs.cards if card.effect is not None}
        for eff in rs.content.unbuilt_effects:  # a card with a wrong field: its effect is checked too
            effects[id(eff)] = eff
        for eff in effects.values():
            for cp in eff.copies:  # `copies EXPR`: its expression, with `you` and `this`
                cp.check(self, set())
            for t in eff.triggers:
                if t.kind == "action":
                    self.action(t)
                else:
                    self.trigger(t)
                    if not t.whenever:
                        self.card_triggers.append(t)
        if rs.card_types and not rs.cards and not rs.partial and not self.lost_types \
                and not any(d.code.startswith(("yaml/", "cards/", "limit/")) for d in self.c.diagnostics):
            first = next(iter(rs.card_types.values()))
            names = ", ".join(f"`{n}`" for n in rs.card_types)
            self.c.warn("cards/none", f"no card file gives any card, though the rules declare card types ({names})",
                        getattr(first, "name_loc", None) or first.loc,
                        "write the cards in a YAML file in the ruleset's card folder (docs/language.md, Card files)")
        if not rs.partial:  # a declaration may look unused only because its user did not parse
            self.unused()
            self.card_triggers_that_never_run()
            self.kept_parts(effects.values())
            self.phases_never_reached()

    def phases_never_reached(self) -> None:
        """`play:` replaces the whole default flow and `round:` the default round: a `round:` that no
        `play round` starts, or a `turn:` that no `play turn of` (nor a default round) starts, never runs."""
        phases, flow = self.rs.phases, self.flow
        if "play" in phases and "round" in phases and "play_round" not in flow:
            self.c.warn("flow/phase", "`round:` never runs: `play:` replaces the default flow and never says "
                        "`play round`", phases["round"].loc, "add `play round` to `play:`, or remove `play:` to "
                        "play rounds until a rule ends the game")
        if "turn" not in phases or "play_turn" in flow:
            return
        if "round" in phases and ("play" not in phases or "play_round" in flow):
            self.c.warn("flow/phase", "`turn:` never runs: `round:` replaces the default round and never says "
                        "`play turn of ...`", phases["turn"].loc,
                        "give each player a turn in `round:`: `for each p in turn_order(): play turn of p`")
        elif "play" in phases and "play_round" not in flow:
            self.c.warn("flow/phase", "`turn:` never runs: `play:` replaces the default flow and never says "
                        "`play turn of ...` or `play round`", phases["turn"].loc,
                        "in `play:`, write `play round` (every player's turn) or `play turn of p`; or remove "
                        "`play:` to play rounds until a rule ends the game")

    def card_triggers_that_never_run(self) -> None:
        """A card's `when EVENT:` answers only firings whose subject is that card: an event that never
        has a subject (`turn_end`, or one the rules fire without `on`) never reaches it."""
        told: set[tuple[str, str]] = set()
        for t in self.card_triggers:
            subjectless = t.event in _SUBJECTLESS or (t.event in self.rs.events and t.event in self.fired
                                                       and t.event not in self.fired_on)
            if subjectless and (t.event, str(t.loc)) not in told:
                told.add((t.event, str(t.loc)))
                self.c.warn("trigger/never", f"this card's `when {t.event}:` never runs: `{t.event}` is never fired "
                            "on a card, and a card's `when` answers only firings on that card",
                            getattr(t, "event_loc", None) or t.loc,
                            f"write `whenever {t.event}:` to answer it while the card is in play"
                            + ("" if t.event in _SUBJECTLESS else ", or fire it `on` the card"))

    def kept_parts(self, effects) -> None:
        """Card parts: a zone that keeps part NAME of covered cards, where no card has that part."""
        parts = {t.part for eff in effects for t in eff.triggers} - {None}
        for z in self.rs.zones.values():
            if z.keeps and z.keeps not in parts and self.rs.cards:
                self.c.warn("zone/part", f"zone `{z.name}` keeps part `{z.keeps}` of covered cards, but no card "
                            f"has a `part {z.keeps}:`", z.loc, did_you_mean(z.keeps, parts)
                            or "group a card's lasting abilities under `part NAME:` in its effect")

    def board(self, b: Node) -> None:
        """A board's items are evaluated once, when the game starts: no player, no `this`."""
        self.used.add(b.name)  # its zone holds what lies on the spaces; rules may never name it
        for item in b.items:
            for x in (item.spaces, item.to):
                if x is not None:
                    kind = self.kind(x, set())
                    if kind in (NUMBER, BOOL, TEXT):
                        self.type_error("board", f"a board item lists space cards, not {ARTICLE[kind]}", x.loc,
                                        "e.g. `all_cards() where it is Space`, or `card_named(\"Gate\")`")
                    self.expr(x, set())

    def trigger(self, t: Node) -> None:
        self.listened.add(t.event)
        if t.event not in self.rs.events and t.event not in BUILTIN_EVENTS:
            self.undefined(t.event, (getattr(t, "event_loc", None) or t.loc), set(self.rs.events) | BUILTIN_EVENTS, "event",
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
                self.c.warn("unused/stat", f"stat `{name}` is never used", s.loc, "remove it, or use it in the rules")
        for name, n in rs.constants.items():
            if name not in self.used:
                self.c.warn("unused/constant", f"constant `{name}` is never used", _name_loc(n))
        for name, p in rs.procedures.items():
            if name not in self.used:
                self.c.warn("unused/procedure", f"procedure `{name}` is never called", _name_loc(p),
                            f"call it on a line of its own: `{name}(...)`")
        for name, f in rs.functions.items():
            if name not in self.used:
                self.c.warn("unused/function", f"function `{name}` is never used", _name_loc(f))
        for name, loc in rs.events.items():
            if name not in self.fired:
                self.c.warn("unused/event", f"event `{name}` is never fired", loc, f"add `fire {name} on ...`")
            elif name not in self.listened:
                self.c.warn("unused/event", f"nothing answers event `{name}`", loc, f"add `when {name}:` to a card")

    def undefined(self, name: str, loc: Loc | None, candidates: set[str], what: str = "name",
                  hint: str | None = None) -> None:
        if name in self.lost_names or self.lost_any:
            return  # probably declared in a part of the rules that has a syntax error
        if what == "name" and self.lost_types:
            return  # may be a value of a card type that did not parse
        self.c.error("name/undefined", f"unknown {what} `{name}`", loc, did_you_mean(name, candidates) or hint)

    def type_error(self, code: str, message: str, loc: Loc | None, hint: str | None = None) -> None:
        self.c.error(f"type/{code}", message, loc, hint)

    def error(self, code: str, message: str, loc: Loc | None, hint: str | None = None) -> None:
        self.c.error(code, message, loc, hint)

    # ---- statements ------------------------------------------------------------------------
    def block(self, stmts: list[Node], scope: set[str], loops: int) -> None:
        ender, told = None, False
        for s in stmts:
            if ender is not None and not told:  # the first line after it, once per block
                word = _ENDERS[ender.kind]
                self.c.warn("flow/unreachable", f"this line never runs: `{word}` above it "
                            f"{'ends the game' if ender.kind == 'end_game' else 'leaves this pass of the loop'}",
                            s.loc, f"remove it, or move it above `{word}`")
                told = True
            self.stmt(s, scope, loops)
            if ender is None and s.kind in _ENDERS and not (s.kind == "end_game" and s.after):
                ender = s

    def bind(self, name: str, loc: Loc | None, scope: set[str]) -> None:
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
        """A statement: each construct checks itself (`check` in language/tree.py), through this checker."""
        s.check(self, scope, loops)

    def call_stmt(self, s: Node, scope: set[str]) -> None:
        x = s.expr
        if x.kind != "call":
            self.expr(x, scope)
            self.c.error("syntax/statement", "this line does nothing", s.loc,
                         "statements start with a keyword such as let, set, move, if, for each")
            return
        at = (getattr(x, "name_loc", None) or x.loc)
        if x.func in self.rs.procedures:
            self.used.add(x.func)
            params = self.rs.procedures[x.func].params
            if len(x.args) != len(params):
                self.c.error("call/arity", f"`{x.func}` takes {len(params)} argument(s) "
                             f"({', '.join(params)}), got {len(x.args)}", at,
                             f"call it as `{x.func}({', '.join(params)})`")
        elif x.func in BUILTINS or x.func in self.rs.functions:
            self.used.add(x.func)
            self.c.error("call/value", f"`{x.func}(...)` gives a value; a line on its own must do something",
                         at, "use it in `let`, `if` or another statement")
        else:
            self.undefined(x.func, at, set(self.rs.procedures), "procedure")
        for a in x.args:
            self.expr(a, scope)

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
            elif t.id not in self.lost_names:
                self.c.error("assign/target", f"`{t.id}` cannot be set", t.loc,
                             did_you_mean(t.id, set(rs.stats) | scope) or "declare it with `stat` or `let`")
        elif t.kind in ("attr", "of"):
            self.expr(t.obj if t.kind == "attr" else t.owner, scope)
            if t.name not in rs.stats or not rs.stats[t.name].per_player:
                if t.name not in self.lost_names:
                    self.c.error("assign/target", f"`{t.name}` is not a player stat", (getattr(t, "name_loc", None) or t.loc),
                                 did_you_mean(t.name, {n for n, s in rs.stats.items() if s.per_player}))
            else:
                self.used.add(t.name)
        else:
            self.c.error("assign/target", "only a variable, a stat or a player's stat can be set", t.loc)

    def assigned_kind(self, s: Node, scope: set[str]) -> None:
        """`set STAT to ZONE`: a stat holds a number."""
        t = s.target
        name = t.id if t.kind == "name" else getattr(t, "name", None)
        if name in self.rs.stats and (t.kind != "name" or name not in scope):
            kind = self.kind(s.expr, scope)
            if kind in (ZONE, BOOL, TEXT):
                self.type_error("assign", f"stat `{name}` holds a number, not {ARTICLE[kind]}", s.expr.loc,
                                f"`count({_src(s.expr)})` is how many cards it holds" if kind == ZONE else None)

    # ---- kinds of values -------------------------------------------------------------------
    def kind(self, n: Node, scope: set[str]) -> str | None:
        """What a value certainly is (ZONE, NUMBER, BOOL, TEXT), or None when it could be anything:
        each construct says (`value_kind` in language/tree.py)."""
        return n.value_kind(self, scope)

    def name_kind(self, n: Node, scope: set[str]) -> str | None:
        """What a bare name certainly is: a zone, a stat's kind, a constant's value's kind."""
        rs = self.rs
        if n.id in scope:
            return None
        if n.id in ("true", "false"):
            return BOOL
        if n.id in ("player_count", "turn_number", "round_number"):
            return NUMBER
        if n.id in rs.zones:
            return ZONE
        if n.id in rs.stats:
            return self.stat_kind(n.id)
        if n.id in rs.constants and n.id not in self.constant_stack:
            self.constant_stack.add(n.id)
            try:
                return self.kind(rs.constants[n.id].value, set())
            finally:
                self.constant_stack.discard(n.id)
        return None

    def stat_kind(self, name: str) -> str | None:
        """A stat is a number unless it has no bounds and starts at a value of another kind
        (`player stat at = none` may hold a card, a player, a text...)."""
        sd = self.rs.stats[name]
        if sd.lo is not None or sd.init is None:
            return NUMBER
        return self.kind(sd.init, set())

    def cards_arg(self, n: Node, scope: set[str], message: str) -> None:
        self.expr(n, scope)
        kind = self.kind(n, scope)
        if kind in (NUMBER, BOOL, TEXT):
            self.type_error("cards", f"{message}, not {ARTICLE[kind]}", n.loc, "name a card, a list of cards or a zone")

    def zone_arg(self, n: Node, scope: set[str], message: str) -> None:
        self.expr(n, scope)
        kind = self.kind(n, scope)
        if kind in (NUMBER, BOOL, TEXT):
            self.type_error("zone", f"{message}, not {ARTICLE[kind]}", n.loc,
                            did_you_mean(_src(n), self.rs.zones) if n.kind == "name" else None)

    def number_arg(self, n: Node, scope: set[str], message: str) -> None:
        self.expr(n, scope)
        kind = self.kind(n, scope)
        if kind in (ZONE, BOOL, TEXT):
            self.type_error("number", f"{message}, not {ARTICLE[kind]}", n.loc,
                            f"`count({_src(n)})` is how many cards it holds" if kind == ZONE else None)

    def cond(self, n: Node, scope: set[str]) -> None:
        """A condition: any value works at run time, but a zone is always 'true' — a sure mistake."""
        self.expr(n, scope)
        self.not_a_zone(n, scope)

    def not_a_zone(self, n: Node, scope: set[str]) -> None:
        if self.kind(n, scope) == ZONE:
            self.type_error("condition", f"a zone is not a condition: `{_src(n)}` is always true", n.loc,
                            f"ask `{_src(n)} is empty` or `not ({_src(n)} is empty)`")

    # ---- expressions -----------------------------------------------------------------------
    def expr(self, n: Node, scope: set[str]) -> None:
        """A value: each construct checks itself (`check` in language/tree.py), through this checker."""
        n.check(self, scope)

    def name(self, n: Node, scope: set[str]) -> None:
        rs, name = self.rs, n.id
        if id(n) in self.handled or name in scope or name in SPECIAL_NAMES or name in rs.card_types \
                or name in self.enum_values or name in rs.die_types:
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
        if name in rs.procedures:
            self.c.error("call/value", f"procedure `{name}` does something; it is not a value", n.loc,
                         f"call it on a line of its own: `{name}(...)`")
            return
        self.undefined(name, n.loc, self.known_names(scope))

    def call(self, n: Node, scope: set[str]) -> None:
        at = (getattr(n, "name_loc", None) or n.loc)
        if n.func in self.rs.procedures:
            self.used.add(n.func)
            self.c.error("call/value", f"procedure `{n.func}` does something; it gives no value", at,
                         "call it on a line of its own")
        elif n.func not in BUILTINS:
            self.undefined(n.func, at, set(BUILTINS), "function")
        else:
            b = BUILTINS[n.func]
            if not b.lo <= len(n.args) <= b.hi:
                want = str(b.lo) if b.lo == b.hi else f"{b.lo} to {b.hi}"
                self.c.error("call/arity", f"`{n.func}` takes {want} argument(s), got {len(n.args)}", at,
                             f"{n.func}: {b.doc}")
        for a in n.args:
            self.expr(a, scope)
        if n.func in BUILTINS and BUILTINS[n.func].collection and n.args and n.func not in self.rs.procedures:
            self.collection_arg(n, scope)

    def collection_arg(self, n: Node, scope: set[str]) -> None:
        """`count(5)`, `rows(deck)`: the argument cannot be what the function needs."""
        arg = n.args[0]
        kind = self.kind(arg, scope)
        if kind in (NUMBER, BOOL, TEXT):
            self.type_error("argument", f"`{n.func}` needs a zone or a list, not {ARTICLE[kind]}", arg.loc,
                            f"{n.func}: {BUILTINS[n.func].doc}")
        elif kind == ZONE and n.func in ("rows", "ends"):
            zone = self.rs.zones.get(arg.id if arg.kind == "name" else getattr(arg, "name", ""))
            if zone is not None and zone.kind != "rows":
                self.type_error("argument", f"`{n.func}` needs a zone of kind `rows`; `{zone.name}` is a {zone.kind}",
                                arg.loc, f"declare it as `zone {zone.name}: rows N, ...`")
        if len(n.args) > 1 and n.func in ("first", "last"):
            self.number_arg_kind(n.args[1], scope, f"`{n.func}(items, n)` needs a number n")

    def number_arg_kind(self, n: Node, scope: set[str], message: str) -> None:
        kind = self.kind(n, scope)
        if kind in (ZONE, BOOL, TEXT):
            self.type_error("number", f"{message}, not {ARTICLE[kind]}", n.loc)

    def arith(self, n: Node, scope: set[str]) -> None:
        """`deck + 1`: arithmetic needs numbers (`+` also joins two lists or zones)."""
        left, right = self.kind(n.left, scope), self.kind(n.right, scope)
        for side, kind, other in ((n.left, left, right), (n.right, right, left)):
            if kind == ZONE and (n.op != "+" or other in (NUMBER, BOOL, TEXT)):
                self.type_error("arith", f"arithmetic on a zone: `{_src(side)}` is a zone, not a number", side.loc,
                                f"`count({_src(side)})` is how many cards it holds")
                return
            if kind in (BOOL,) or (kind == TEXT and n.op != "+"):
                self.type_error("arith", f"arithmetic on {ARTICLE[kind]}", side.loc, "arithmetic needs numbers")
                return

    def compare(self, n: Node, scope: set[str]) -> None:
        self.enum_compare(n.left, n.right, scope)
        self.enum_compare(n.right, n.left, scope)
        self.expr(n.left, scope)
        self.expr(n.right, scope)
        left, right = self.kind(n.left, scope), self.kind(n.right, scope)
        for side, kind, other in ((n.left, left, right), (n.right, right, left)):
            if kind == ZONE and (n.op not in ("==", "!=") or other == NUMBER):
                self.type_error("compare", f"`{_src(side)}` is a zone; it does not compare with {n.op}", side.loc,
                                f"`count({_src(side)})` is how many cards it holds")
                return

    def enum_compare(self, side: Node, value: Node, scope: set[str]) -> None:
        """`c.FIELD == VALUE`: the value must be one of the field's enumeration values."""
        rs = self.rs
        if side.kind != "attr" or value.kind != "name" or self.lost_types:
            return
        name = value.id
        if name in scope or name in rs.constants or name in rs.stats or name in rs.zones or name in SPECIAL_NAMES:
            return
        decls = [f for t in self.card_fields.get(side.name, []) if t in rs.card_types
                 for f in rs.card_types[t].fields_ if f.name == side.name]
        faces = {v for t in self.card_fields.get(side.name, []) if t in rs.die_types
                 and rs.die_types[t].faces.kind == "enum_type" for v in rs.die_types[t].faces.values}
        if not decls and not faces:
            return
        allowed = {v for f in decls if f.type.kind == "enum_type" for v in f.type.values} | faces
        if name in allowed:
            return
        if not name[:1].isupper() and name not in self.enum_values:
            return  # most likely a variable: the name check decides
        self.handled.add(id(value))
        elsewhere = sorted({fld for _, fld in self.enum_values.get(name, [])})
        if not allowed:
            what = "a number" if all(f.type.kind == "range_type" or getattr(f.type, "name", "") == "number"
                                     for f in decls) else "not an enumeration"
            self.c.error("enum/value", f"field `{side.name}` is {what}; `{name}` is "
                         + (f"a value of field `{elsewhere[0]}`" if elsewhere else "not one of its values"),
                         value.loc, f"compare `{side.name}` with a number" if what == "a number" else None)
        elif elsewhere:
            self.c.error("enum/value", f"`{name}` is a value of field `{elsewhere[0]}`, not of `{side.name}`",
                         value.loc, f"`{side.name}` is one of: {', '.join(sorted(allowed))}")
        else:
            self.c.error("enum/value", f"`{name}` is not a value of field `{side.name}`", value.loc,
                         did_you_mean(name, allowed) or f"one of: {', '.join(sorted(allowed))}")


def _name_loc(n: Node) -> Loc | None:
    return (getattr(n, "name_loc", None) or n.loc)


def _src(n: Node) -> str:
    """A short rendering of a simple expression for messages."""
    if n.kind == "name":
        return n.id
    if n.kind == "of":
        owner = n.owner
        if owner.kind == "name" and owner.id == "you":
            return f"your {n.name}"
        return f"{n.name} of {_src(owner)}"
    if n.kind == "lit":
        return repr(n.value) if isinstance(n.value, str) else str(n.value)
    if n.kind == "call":
        return f"{n.func}(...)"
    return "..."


def check(rs: Ruleset) -> None:
    """Run every static check; diagnostics land in `rs.content.diagnostics`."""
    _Checker(rs).run()
