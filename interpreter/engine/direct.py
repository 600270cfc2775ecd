"""The code generator: a whole ruleset as one generated Python module, the one engine.

The turn, procedures, triggers and state-based rules become Python *generator* functions, a
decision is a `yield` that the driver (`directgame.DirectGame`) answers with `send`, variables
are Python locals, cards are their ids, zones are the game state's own lists, and expressions
are typed at compile time so that `c.kind` is one list lookup and `row where it is T` one list
comprehension. The generated code works on the same `GameState` with the same card movements
(zones.py), asks the same questions with the same options in the same order and draws from the
same RNG in the same order as the task engine it replaced did: a seeded game ends in the same
state as the recorded golden games. The copyable form (resumable.py) lowers the same generators
to frames of plain data, so a game can be copied for search.

Blocks of statements (each statement writes its own lines: its class's `emit` in language/tree.py,
through what `tree.Generates` names), settling and the module's assembly are here; expressions
are in directexpr.py, the runtime the generated code calls in directgame.py. Only what these modules know is compiled;
anything else is `Unsupported`, and `factory.compiled` refuses the ruleset before play. Rule text never reaches the generated
source: values taken from the rules are constants in a table `K`, rule variables become
numbered Python names, and `directcheck.check_source` verifies the source's tokens before compiling.
"""
from __future__ import annotations

import re
import sys
from typing import Any

from ..language.tree import Node, walk
from ..analysis.effects import is_sync
from .directabilities import AbilityGen, GENERATED_KEYWORDS
from .directcheck import check_source
from .directcopies import COPIES_KEYWORDS, CopyGen
from .directboards import BOARD_KEYWORDS, BoardGen
from .directcalls import ProcCalls
from .directcover import CardStatsFound, CoverStatements
from .directforms import FORMS_KEYWORDS, FormsGen
from .directpairs import PAIRS_KEYWORDS, PairsGen, pair_stats, stat_joins
from .directtuples import TUPLES_KEYWORDS, TuplesGen
from .directlists import ListsGen, nested_stats
from .directmixed import MIXED_KEYWORDS, MixedGen
from .directrebind import old_value_dead
from .directrecursion import RecursiveFunctions
from .directstmts import STMTS_KEYWORDS, StmtsGen
from .setupmemo import prefix_length
from .directeval import compile_expression
from .directexpr import _CARDISH, _SIMPLE, Expressions, RuleFunctions, StatKindsFound, Unsupported, V, named_in_iterable, unnamed
from .directgame import GEN_FILE, GENERATED_GLOBALS, name_bits
from .game import Program
from ..content.model import Ruleset
from ..analysis.effects import changes_state
from ..language.kinds import NUMBER
from ..library import BUILTINS, PURE_BUILTINS

_A0 = re.compile(r"\b_a0\b")  # a generated function's first parameter (`reads_you`)

__all__ = ["Unsupported", "DirectProgram", "compile_direct"]

_MAX_INLINE_INDENT = 10  # Python refuses more than 20 nested blocks: inline only so deep


class DirectProgram:
    """The generated module of one ruleset: `build(R, K)` makes one game's functions. `lines` gives
    each generated line's rule location (for errors), `info` the names of the functions the
    driver calls, `labels` each card's label (for decisions)."""

    def __init__(self, program: Program, build: Any, consts: list, info: dict, lines: list):
        self.program, self.build, self.K, self.info, self.lines = program, build, consts, info, lines
        self.labels: list[str] = [c.label() for c in program.rs.cards]
        self.source = ""  # the generated source, for reading (tests, debugging)
        self.bind_again: tuple | None = None  # `build`'s bindings alone, for a game that reuses functions (`_bind_again_function`)
        self.tables: dict[int, dict] = {}  # player count → lookup tables (directgame._tables)

    def expression(self, node: Node, kinds: tuple[tuple[str, str], ...]) -> tuple[Any, list, str]:
        """One expression that the module does not hold (a bot's `prefer`, a scenario's value),
        compiled on its own with the names `kinds` bound (directeval.py): (build, K, its kind)."""
        return compile_expression(self, lambda: _Gen(self.program), node, kinds)


_PLAIN_DEST = re.compile(r"[\w\[\]]+")  # a zone's list read by name or index: cheaper than a temporary


class NamedInIterable(Unsupported):
    """A card named where first read (`Expressions.named`) reached a comprehension's iterable,
    where Python allows no `:=`, through code that does not pass it through `unnamed`: the module
    is compiled again naming none (`compile_direct`)."""


def compile_direct(program: Program) -> DirectProgram:
    """Compile `program` to a direct-style module, or raise `Unsupported`."""
    cached = getattr(program, "_direct", None)
    if cached is not None:
        if isinstance(cached, Unsupported):
            raise cached
        return cached
    try:
        card_stats, stat_kinds = _learn_stats(program)
        loose: set[str] = set()
        named = True
        for _ in range(3 + 2 * len(program.rs.stats)):  # each pass learns at least one stat's kind
            gen = _Gen(program)
            gen.card_stats, gen.stat_kinds, gen.name_cards = card_stats, stat_kinds, named
            gen.nn_stats = number_stats(program.rs, card_stats, stat_kinds) - loose
            try:
                out = gen.module()
                if gen.maybe_none & gen.nn_stats:  # read as never none, but some write may leave none
                    loose |= gen.maybe_none
                    continue
                break
            except CardStatsFound as found:  # compile again, reading those stats as cards throughout
                card_stats = found.stats
            except StatKindsFound as found:  # again, reading those stats in their kinds
                stat_kinds = found.kinds
            except NamedInIterable:  # a card named in a comprehension's iterable: again, naming none
                named = False
        else:
            raise Unsupported("the kinds of the stats")
    except Unsupported as why:
        program._direct = why
        raise
    program._direct = out
    return out


def number_stats(rs: Ruleset, card_stats: frozenset, stat_kinds: dict) -> frozenset[str]:
    """The stats read as numbers that the module takes never to be none, so that `<` and the
    like compare them in place (`_ordered` is for values that may be none: a covered card's
    field): those held as numbers whose every first value, `set` and `+=` is plainly a number —
    a number, a sum or the like of such, such a stat, a constant of such, a builtin whose result
    is always a number (`Builtin.result`: `count`, `sum`, `min`, `max`) — looked at once, before
    compiling, so that no module is compiled twice for it. Each such write is checked again as it
    is compiled (`stat_store`): one that may still leave none sends the module back to be
    compiled without it (`compile_direct`). `gain`/`lose` leave a number or fail."""
    stats = {n for n in rs.stats if n not in card_stats and n not in stat_kinds}
    writes: dict[str, list[Node]] = {n: [rs.stats[n].init] if rs.stats[n].init is not None else [] for n in stats}
    roots: list = [c.effect for c in rs.cards if c.effect is not None]
    for part in (rs.phases, rs.procedures, rs.triggers, rs.short_triggers, rs.watchers, rs.always, rs.actions,
                 rs.placements):
        roots += [x for x in (part.values() if isinstance(part, dict) else part) if isinstance(x, Node)]
    for root in roots:
        for n in walk(root):
            if n.kind in ("set", "aug"):
                t = n.target
                name = t.id if t.kind == "name" else t.name if t.kind in ("attr", "of") else None
                if name in writes:
                    writes[name].append(n.expr)
    consts: dict[str, bool] = {}

    def number(x: Node) -> bool:
        k = x.kind
        if k == "lit":
            return not isinstance(x.value, str)
        if k == "arith":
            return number(x.left) and number(x.right)
        if k == "neg":
            return number(x.expr)
        if k == "if_expr":
            return number(x.then) and number(x.orelse)
        if k == "call":
            b = BUILTINS.get(x.func)  # a builtin that always gives a number (`count`, `sum`, `min`, `max`)
            return b is not None and b.result == NUMBER and x.func not in rs.functions
        if k == "of":  # (`X.lives` may be a card's field of the stat's name: not taken)
            return x.name in stats and rs.stats[x.name].per_player
        if k == "name":
            if x.id in rs.stats:
                return x.id in stats and not rs.stats[x.id].per_player
            if x.id in rs.constants:
                if x.id not in consts:
                    consts[x.id] = False  # (a constant read in its own value: not known)
                    consts[x.id] = number(rs.constants[x.id].value)
                return consts[x.id]
            return x.id in ("true", "false")
        return False

    changed = True
    while changed:  # a stat set from a stat that is not one is not one either
        changed = False
        for name in list(stats):
            if not all(number(x) for x in writes[name]):
                stats.discard(name)
                changed = True
    return frozenset(stats)


def _list_stats(rs: Ruleset) -> tuple[frozenset, dict]:
    """Stats that start as an empty list are taken to hold cards (a `set` of anything else
    is `Unsupported`): shared ones as `card_stats`, a player's as `stat_kinds`."""
    empty = [name for name, sd in rs.stats.items()
             if sd.init is not None and sd.init.kind == "list" and not sd.init.items]
    empty += [name for name in _stats_set_to_lists(rs) if name not in empty]
    pairs = pair_stats(rs)  # lists of card lists (directpairs.py), in every stat's case
    nested = nested_stats(rs)  # lists of lists of values (directlists.py): no cards
    return (frozenset(n for n in empty if not rs.stats[n].per_player and n not in pairs and n not in nested),
            {**{n: "cards" for n in empty if rs.stats[n].per_player}, **{n: "cardlists" for n in pairs},
             **{n: "list" for n in nested}})


def _learn_stats(program: Program) -> tuple[frozenset, dict]:
    """What the stats without a range hold, learnt before the module is compiled: a first pass
    that goes on past what it cannot compile (`_Gen.learning`), so that a stat read before a
    `set` shows its kind is read in that kind from the start."""
    card_stats, stat_kinds = _list_stats(program.rs)
    if not any(sd.lo is None and sd.hi is None and name not in card_stats and name not in stat_kinds
               for name, sd in program.rs.stats.items()) and "cardlists" not in stat_kinds.values():
        return card_stats, stat_kinds  # (lists of lists may turn out to be records: directtuples.py)
    gen = _Gen(program)
    gen.card_stats, gen.stat_kinds, gen.learning = card_stats, dict(stat_kinds), True
    try:
        gen.module()
    except Unsupported:
        pass
    return gen.card_stats, gen.stat_kinds


def _stats_set_to_lists(rs: Ruleset) -> list[str]:
    """Stats without a range that some `set` gives a list joined with `+` (`xs + [c]`): lists
    from the start, though they start as none (so that their reads compile as lists)."""
    out = []
    for name, x in stat_joins(rs):
        if name not in out and any(s.kind == "list" and s.items for s in (x.left, x.right)):
            out.append(name)
    return out


class _Gen(MixedGen, ListsGen, TuplesGen, PairsGen, FormsGen, BoardGen, Expressions, RuleFunctions, RecursiveFunctions,
           CoverStatements, AbilityGen, CopyGen, StmtsGen, ProcCalls):
    """Writes the module's source. One instance per ruleset."""

    def __init__(self, program: Program):
        self.p = program
        self.rs: Ruleset = program.rs
        self.K: list = []
        self.kidx: dict = {}
        self.lines: list[str] = []
        self.line_loc: list = []  # generated line number (1-based) - 1 → the rule's Loc
        self.learnt_calls: dict = {}  # the learning pass's rule function calls (`RuleFunctions.rule_call`)
        self.n = 0
        self.enum_values = self.rs.enum_values()
        self.fields: dict[str, str] = {}  # card field → generated table name
        self.cur_loc = None
        self.zones_used: dict[str, str] = {}  # zone name → local holding its list(s)
        self.const_kinds: dict[str, str] = {}
        self.arg_kinds: dict[str, list[str]] = {}  # procedure → the kinds of its arguments
        self.sync = False
        self.const_nn: set[str] = set()  # constants whose value is a number (never none)
        # stats read as never none (`number_stats`), and those of them that a `set`, `+=` or first
        # value may leave none or not a number (then `compile_direct` compiles again without them)
        self.nn_stats: frozenset[str] = frozenset()
        self.maybe_none: set[str] = set()
        self.last_nn = False  # whether `expr_function`'s last expression is a number, never none
        # state-based rules whose bodies can stop for a decision (`Program.settles_at_once` false):
        # `_settle` is then a generator, called with `yield from` (the `SettleTask` on the stack)
        self.settle_stops = not program.settles_at_once
        self.in_settle = False  # writing a state-based rule's body: no settle checks inside
        self.rule_spans: dict[str, tuple[int, int]] = {}  # each state-based rule body's lines (`reads_you`)
        self.bodies: list[list] = []  # [scope, depth of `nest` it starts at] of the bodies being written
        self.nest: list[list] = []  # [statements, index] of each block being written (`rest_of_body`)
        self.changed = True  # the state may have changed since the last settle check
        self.seat_you: str | None = None  # the local holding a `you` known to be a seat (`asker`)
        # what a settle check calls: `_settle`, or its passes alone where the check's test is its own
        self.settle_passes = "_settle"
        self.events: set[str] = set()
        self.plan_keys: dict[str, tuple] = {}  # local → the zones of a per-player rule
        self.known_positions: dict[int, str] = {}  # place statement → the temp holding its positions
        self._recursive: set[str] | None = None
        self._card_kinds: list[int] | None = None  # `card_kinds`
        self.dispatch: dict[str, tuple] = {}  # event → its handler table (`plan_dispatch`)
        self.read_mask = ""  # ` & MASK` of the bits some state-based rule reads ("" : any)
        self.check_mode = "full"  # settle checks: "full", "short" (never while settling), "none" (setup)
        self.trigger_names: dict[int, str] = {}  # trigger node → its function's name
        self.cur_loops = 0  # the loops around the statement being written (in its body)
        self.procs_written: set[str] = set()  # procedures whose functions are written (kinds fixed)
        self.learning = False  # a first pass that only learns what stats hold (`_learn_stats`)

    # ---- small helpers -----------------------------------------------------------------------
    def k(self, v: Any) -> str:
        key = (type(v).__name__, repr(v)) if isinstance(v, (int, str, bool, type(None), float)) else ("id", id(v))
        i = self.kidx.get(key)
        if i is None:
            i = self.kidx[key] = len(self.K)
            self.K.append(_interned(v))
        return f"_k{i}"  # bound once per game in `build` (a closure cell, not a table lookup)

    def temp(self, prefix: str = "_t") -> str:
        self.n += 1
        return f"{prefix}{self.n}"

    def emit(self, depth: int, text: str, loc=None) -> None:
        self.lines.append("    " * depth + text)
        self.line_loc.append(loc if loc is not None else self.cur_loc)

    def field(self, name: str) -> str:
        if name == "face":
            raise Unsupported("die faces")
        t = self.fields.get(name)
        if t is None:
            t = self.fields[name] = f"_f{len(self.fields)}"
        return t

    def zone(self, name: str, owner: str | None) -> V:
        zd = self.rs.zones[name]
        if zd.kind == "grid" and zd.per_player:
            raise Unsupported("per-player grids")
        if zd.kind not in ("pile", "set", "row", "stack", "rows", "grid", "board"):
            raise Unsupported(f"zone kind {zd.kind}")
        local = self.zones_used.get(name)
        if local is None:
            local = self.zones_used[name] = f"_z{len(self.zones_used)}"
        rows = zd.kind == "rows"
        if zd.per_player:
            if owner is None:
                raise Unsupported("per-player zone without owner")
            src, key = f"{local}[{owner}]", f"{local}k[{owner}]"
        else:
            src, key = local, f"{local}k"
        return V(src, "zone", top=True, live=True, zone=name, rows=rows, key=key)

    # ---- the module --------------------------------------------------------------------------
    def module(self) -> DirectProgram:
        p, rs = self.p, self.rs
        if len(rs.scores) > 1:
            raise Unsupported("more than one score rule")
        funcs: dict[str, str] = {}
        # constants first: everything else may read them
        consts = []
        for i, (name, n) in enumerate(rs.constants.items()):
            fname = f"_co{i}"
            self.const_kinds[name] = self.expr_function(fname, [("you", "player")], n.value, n.loc)
            if self.last_nn:  # a number worked out once per game: never none
                self.const_nn.add(name)
            consts.append((name, fname))
        # the events something answers (a `fire` of any other event does nothing)
        self.events = {t.event for t in rs.triggers}
        for card in rs.cards:
            if card.effect is not None:
                for t in card.effect.triggers:
                    if t.kind == "action":
                        continue  # offered by `take actions` (directabilities.py)
                    self.events.add(t.event)
        self.procs = {name: f"_p{i}" for i, name in enumerate(rs.procedures)}
        self.placement_names = {z: f"_pl{i}" for i, z in enumerate(rs.placements)}
        self.plan_dispatch()
        # settle checks look only at the bits some state-based rule reads (others may pile up)
        reads = list(p.always_reads) + list(p.watcher_reads)
        if any(r is None for r in reads):
            self.read_mask = ""
        else:
            mask = 0
            for r in reads:
                for name in r:
                    mask |= self.name_bits()[name]
            self.read_mask = f" & {self.k(mask)}"
            if reads and all(reads) and mask:  # `_settle` tests the same bits first (`settle_function`)
                self.settle_passes = "_settle_passes"
        self.cover_short()
        for name in ("setup", "turn"):
            if name in rs.phases:
                ph = rs.phases[name]
                funcs[name] = f"_ph_{name}"
                self.function(funcs[name], [("you", "player")], ph.body, ph.loc, call=name == "turn", counted=False,
                              prefix=prefix_length(ph.body, rs, self.card_fields()) if name == "setup" else 0)
        self.cover_phases(funcs)
        # triggers: rule triggers and card effects, by event
        trig_fns: dict[int, tuple] = {}

        def trigger_fn(t: Node) -> tuple:
            got = trig_fns.get(id(t))
            if got is None:
                name = self.trigger_names[id(t)]
                binder = t.binder
                params = [("you", "player"), ("this", "card")] + ([(binder, "card")] if binder else [])
                self.function(name, params, t.body, t.loc, call=True)
                cond = None
                if t.cond is not None:
                    cond = f"_tc{name[3:]}"
                    self.expr_function(cond, params, t.cond, t.loc)
                got = trig_fns[id(t)] = (name, cond, bool(binder), t)
            return got
        rule_triggers: dict[str, list] = {}
        for t in rs.triggers:
            rule_triggers.setdefault(t.event, []).append(trigger_fn(t))
        card_triggers: dict[str, dict[int, list]] = {}
        for card in rs.cards:
            if card.effect is not None:
                for t in card.effect.triggers:
                    if t.kind != "action" and not t.whenever:
                        card_triggers.setdefault(t.event, {}).setdefault(card.id, []).append(trigger_fn(t))
        abilities = self.abilities(trigger_fn)  # `whenever` triggers and actions (directabilities.py)
        # procedures, once the kinds of their arguments are known from their calls (directcalls.py)
        done: set[str] = set()
        self.write_procedures(done)
        # state-based rules: plain functions where they never stop, generators where they can
        always = []
        stopping: set[str] = set()  # the rule bodies written as generators
        for i, a in enumerate(rs.always):
            name = f"_al{i}"
            plan = p.always_players[i]
            start = len(self.lines)
            if plan is None and not is_sync(a.body):
                self.settle_body(name, a.body, a.loc)
                stopping.add(name)
            elif plan is None:
                self.function(name, [("you", "player")], a.body, a.loc, call=False, sync=True)
            else:  # its loop runs over the seats whose zones changed (analysis/playerplans.py)
                self.plan_function(name, a, plan, f"_pk{i}")
            self.rule_spans[name] = (start, len(self.lines))
            always.append((name, p.always_reads[i], a, plan))
        watchers = []
        for i, w in enumerate(rs.watchers):
            cname, bname = f"_wc{i}", f"_wb{i}"
            self.expr_function(cname, [("you", "player")], w.cond, w.loc)
            start = len(self.lines)
            if is_sync(w.body):
                self.function(bname, [("you", "player")], w.body, w.loc, call=False, sync=True)
            else:
                self.settle_body(bname, w.body, w.loc)
                stopping.add(bname)
            self.rule_spans[bname] = (start, len(self.lines))
            watchers.append((cname, bname, p.watcher_reads[i], w))
        self.settle_function(always, watchers, stopping)
        # placement rules
        for zname, pl in rs.placements.items():  # called by name from the code that places
            if rs.zones[zname].kind not in ("rows", "pile", "set", "row", "stack", "grid"):
                raise Unsupported(f"placement in a {rs.zones[zname].kind} zone")
            self.placement_function(self.placement_names[zname], zname, pl)
        self.write_procedures(done)  # those the state-based rules' bodies call
        for name in rs.procedures:  # never called: nothing to run
            if name not in done:
                self.emit(1, f"def {self.procs[name]}():")
                self.emit(2, "pass")
        stat_inits = {}
        for i, (name, sd) in enumerate(rs.stats.items()):
            if sd.init is not None:
                fname = f"_si{i}"
                kind = self.expr_function(fname, [("you", "player")], sd.init, sd.loc)
                if kind == "list" and sd.init.kind == "list" and sd.init.items and \
                        self.stat_kinds.get(name, "list") == "list" and name not in self.card_stats:
                    self.list_stat(name)  # `stat s = [1]`: plain values (`list_of`), read as a list
                elif kind not in ("int", "bool", "str", "none") and not (kind == "list" and sd.init.kind == "list"
                                                                       and not sd.init.items):
                    raise Unsupported("a stat holding cards or players")
                if not self.last_nn:
                    self.maybe_none.add(name)  # (`number_stats`)
                stat_inits[name] = fname
        score = None
        if rs.scores:
            s = rs.scores[0]
            if self.expr_function("_score", [("you", "player"), (s.binder, "player")], s.expr, s.loc) in _NOT_SCORES:
                raise Unsupported("a score that is a card or a player")  # its result shows the card itself
            score = "_score"
        value, value_unsupported = None, None
        if rs.values:  # `value p: EXPR`, for the look-ahead bots on copyable (resumable) games
            v = rs.values[0]
            try:
                self.expr_function("_value", [("you", "player"), (v.binder, "player")], v.expr, v.loc)
                value = "_value"
            except Unsupported as why:  # the game itself still compiles; only its copies need it
                value_unsupported = str(why)
        tiebreaks = []
        for i, t in enumerate(rs.tiebreaks):
            if self.expr_function(f"_tb{i}", [("you", "player"), (t.binder, "player")], t.expr, t.loc) in _NOT_SCORES:
                raise Unsupported("a tiebreak that is a card or a player")
            tiebreaks.append(f"_tb{i}")
        exported = [funcs.get("setup"), funcs.get("turn"), funcs.get("round"), funcs.get("play")] + \
            [a[0] for a in always] + \
            [x for w in watchers for x in w[:2]] + [c[1] for c in consts] + \
            list(stat_inits.values()) + ([score] if score else []) + ([value] if value else []) + tiebreaks + \
            [x for fns in trig_fns.values() for x in fns[:2] if x] + abilities.pop("exported")
        if self.learning:  # (`_learn_stats`) only the stats' kinds were wanted: no Python compile
            raise Unsupported("learning pass")
        build, src, locs = self.assemble(sorted({x for x in exported if x} | {"_settle"}))
        info = {"always": always, "watchers": watchers, "consts": consts,
                "stat_inits": stat_inits, "score": score, "tiebreaks": tiebreaks,
                "number_stats": self.nn_stats,  # read as never none: a scenario may set only numbers
                "value": value, "value_unsupported": value_unsupported,
                "rule_triggers": rule_triggers, "card_triggers": card_triggers, "funcs": funcs}
        info.update(abilities)
        info["var_names"] = self.var_names
        info["var_kinds"] = self.var_kinds
        info["params"] = self.params_of  # each rule function's parameters (`you`, `this`), by name
        info["dummies"] = self.uses_dummies
        info["settle_stops"] = self.settle_stops
        # what single expressions compiled later need to know (directeval.py: `prefer`, scenario values)
        info["expr_kinds"] = (self.card_stats, dict(self.stat_kinds), dict(self.const_kinds))
        out = DirectProgram(p, build, self.K, info, locs)
        out.source = src
        out.bind_again = self.bind_again
        return out

    def assemble(self, exported: list[str]) -> tuple[Any, str, list]:
        """The module: `build(R, K)` binds the game's state, tables and constants to locals, defines
        every function written so far inside it, and returns the `exported` ones by name; checked
        (`check_source`) and compiled. Returns `build`, the source and each line's rule location."""
        head = ["def build(R, K):", "    _LBL = R.label", "    _st = R.state", "    _Z = _st.zones", "    _rng = _st.rng",
                "    _W = _st.where", "    _Wget = _W.get", "    _Wpop = _W.pop", "    _Wput = _W.setdefault",
                "    _PLAIN = R.plain_keys", "    _TB = R.tbit",
                "    _TY = R.types", "    _COV = R.covered", "    _UN = _st.under", "    _MV = R.move_log()"]
        for name, local in self.zones_used.items():
            if self.rs.zones[name].per_player:
                head.append(f"    {local} = R.player_zone({self.k(name)})")
                head.append(f"    {local}k = R.player_keys({self.k(name)})")
            else:
                head.append(f"    {local} = _Z[{self.k(name)}]")
                head.append(f"    {local}k = {self.k(name)}")
        for fname, local in self.fields.items():
            head.append(f"    {local} = R.field_table({self.k(fname)})")
        head += self.copy_bindings()
        for local, zones in self.plan_keys.items():
            head.append(f"    {local} = R.plan_bits_of({self.k(zones)})")
        tail = []
        for table, groups, _ in self.dispatch.values():
            tail.append(f"    {table} = {{}}")
            for fn, ids in groups:
                tail.append(f"    {table}.update(dict.fromkeys({self.k(tuple(ids))}, {fn}))")
        tail += ["    return {" + ", ".join(f"{self.k(x)}: {x}" for x in exported) + "}"]
        head[1:1] = [f"    _k{i} = K[{i}]" for i in range(len(self.K))]  # before their first use
        rec = self.__dict__.get("rec_lines", []), self.__dict__.get("rec_locs", [])  # directrecursion.py
        if self.name_cards:  # a line where a comprehension's iterable holds a named card names none
            # (`unnamed`): one may reach it through a rule function's body, written in later
            self.lines = [unnamed(x) if ":=" in x and " for " in x and named_in_iterable(x) else x for x in self.lines]
        src = "\n".join(head + self.lines + rec[0] + tail) + "\n"
        locs = [None] * len(head) + self.line_loc + rec[1] + [None] * len(tail)
        try:
            _check_direct_source(src)
            code = compile(src, GEN_FILE, "exec")
        except (ValueError, SyntaxError) as why:  # a fault of this module: refused, never run
            if self.name_cards and "comprehension iterable" in str(why):
                raise NamedInIterable() from None
            raise Unsupported(f"the generated code did not pass its checks ({why})") from None
        ns = {"__builtins__": {}}
        ns.update(_helpers())
        exec(code, ns)  # noqa: S102 - our own fixed fragments only (checked above)
        self.bind_again = _bind_again_function(head[1 + len(self.K):], self.lines + rec[0], ns)
        return ns["build"], src, locs

    # ---- functions ---------------------------------------------------------------------------
    def function(self, name: str, params: list[tuple[str, str]], body: list[Node], loc, call: bool,
                 sync: bool = False, counted: bool = True, zones: dict | None = None,
                 check_mode: str | None = None, prefix: int = 0) -> None:
        """A rule body as a generator function (a plain one for `sync` bodies, which never stop).
        `call`: it ends as a procedure's or turn's body does, settling first; `counted`: it
        counts towards the depth limit (procedures and triggers). `zones`: more scope entries
        (a procedure's zone parameters, directcalls.py); `check_mode`: its settle checks, where
        not those of its name; `prefix`: how many of the first statements the first game of a
        player count runs for all (the setup's, setupmemo.py)."""
        scope = {p: (f"_a{i}", kind) for i, (p, kind) in enumerate(params)}
        self.params_of.setdefault(name, {py: (p, kind) for p, (py, kind) in scope.items()})  # for blame.py
        self.cur_loc = loc
        self.sync = sync
        self.check_mode = check_mode or {"_ph_setup": "none", "_ph_turn": "short"}.get(name, "full")
        # the turn's `you` is the seat whose turn it is, never none (`asker`)
        self.seat_you = scope["you"][0] if name == "_ph_turn" and "you" in scope else None
        self.emit(1, f"def {name}({', '.join(s for s, _ in scope.values())}):", loc)
        self.changed = True  # whatever the caller left unsettled
        scope.update(zones or {})
        d = 2
        if call and counted:
            self.emit_enter(2)
            self.emit(2, "try:")
            d = 3
        if prefix:
            body = self.setup_prefix(body, prefix, d, scope)
        self.block(body, d, dict(scope), loops=0)
        if call:
            self.settle_check(d)
        if call and counted:
            self.emit(2, "finally:")
            self.emit(3, "R.depth -= 1")
        if not sync:
            self.emit(2, "if False:")
            self.emit(3, "yield")  # always a generator, even without a decision
        self.sync = False
        self.seat_you = None

    def setup_prefix(self, body: list[Node], n: int, d: int, scope: dict) -> list[Node]:
        """The first `n` statements of `body` written to run only where the game does not lay
        them out from the first game's (setupmemo.py); returns the rest. Written as usual instead
        where their code could stop, draw or read more than the cards' places (the rules' test,
        `prefix_length`, passed it: this is the check on what was written for it)."""
        start = len(self.lines)
        self.emit(d, "if not R.prefix_restored():")
        self.block(body[:n], d + 1, dict(scope), loops=0)
        self.emit(d + 1, "R.prefix_recorded()")
        written = "\n".join(self.lines[start + 1:])
        if "yield" in written or set(_R_ATTR.findall(written)) - _PREFIX_CALLS or _R_PASSED.search(written) or \
                set(_STATE_ATTR.findall(written)) - {"players"}:
            del self.lines[start:], self.line_loc[start:]
            return body
        return body[n:]

    def plan_function(self, name: str, rule: Node, plan: Any, keys: str) -> None:
        """`_al<i>(you, changed)`: an `always` rule that is one loop over the players, run for the
        seats whose instances of the zones `plan` names are among the `changed` bits (-1: every
        seat), in seat order (analysis/playerplans.py)."""
        loop = rule.body[0]
        self.cur_loc = rule.loc
        self.sync = True
        self.emit(1, f"def {name}(_a0, _a1):", rule.loc)
        scope = {"you": ("_a0", "player")}
        py = self.bind(scope, loop.name, "player")
        self.emit(2, f"for {py} in R.seats:", loop.loc)
        self.emit(3, f"if _a1 & {keys}[{py}]:")
        self.block(loop.body, 4, scope, loops=1)
        self.sync = False

    def expr_function(self, name: str, params: list[tuple[str, str]], n: Node, loc) -> str:
        """An expression as a plain function of its parameters; returns the expression's kind."""
        scope = {p: (f"_a{i}", kind) for i, (p, kind) in enumerate(params)}
        self.cur_loc = loc
        start = len(self.lines)
        self.emit(1, f"def {name}({', '.join(s for s, _ in scope.values())}):", loc)
        try:  # (its lists written first as loops, `expr_first`: `some c in xs has ...` without a generator)
            v = self.expr_first(n, scope, 2, n.loc)
        except Unsupported:
            del self.lines[start + 1:], self.line_loc[start + 1:]
            if not self.learning:
                del self.lines[start:], self.line_loc[start:]
                raise
            # (`_learn_stats`) past a condition that needs a stat's kind a later `set` shows
            # (`when landing(s) if at_stat == s`, read before the body that sets it is compiled)
            v = V("None", "none")
        self.emit(2, f"return {v.src}", n.loc)
        self.last_nn = v.nn and v.kind in ("int", "bool")
        return v.kind

    def name_bits(self) -> dict[str, int]:
        """The bits of zone and stat names and the turn, as `directgame._bits` numbers them first."""
        return name_bits(self.rs)

    def reads_test(self, reads: frozenset | None, var: str) -> str:
        """Source testing whether a rule reading `reads` must run, given the changed bits `var`."""
        if reads is None:
            return "True"
        bits = self.name_bits()
        mask = 0
        for r in reads:
            mask |= bits[r]
        return f"{var} == -1" if not mask else f"{var} & {self.k(mask)}"

    def settle_body(self, name: str, body: list[Node], loc) -> None:
        """A state-based rule's body that can stop for a decision: a generator, run while the
        rules settle (`R.settling`), so it checks for nothing to settle inside, as a body the
        `SettleTask` pushed on the stack never does."""
        self.in_settle = True
        try:
            self.function(name, [("you", "player")], body, loc, call=False)
        finally:
            self.in_settle = False

    def settle_function(self, always: list, watchers: list, stopping: set[str] = frozenset()) -> None:
        """`_settle()`: `SettleTask` written out for this ruleset's state-based rules: passes over
        the `always` rules, then the watchers, until a pass changes nothing; each rule runs only
        when something it reads changed before its pass (a per-player rule only for those seats).
        What changed is a number of bits (`R.touched`, -1: anything), see directgame.Runtime.
        Where a rule's body can stop (`stopping`: its generator's name), `_settle` is a generator
        too and runs it with `yield from`."""
        self.cur_loc = None
        reads = [r for _, r, _, _ in always] + [r for _, _, r, _ in watchers]
        e = self.emit
        e(1, "def _settle():")
        if self.settle_stops:
            e(2, "if False:")
            e(3, "yield")  # a generator, even where no rule stops this time
        if not always and not watchers:
            e(2, "R.touched = 0")
            return

        def run(d: int, call: str, fname: str) -> None:
            e(d, f"{'yield from ' if fname in stopping else ''}{call}")

        def you(fname: str) -> str:
            """The rule's `you`, the active player: a new `Seat` per run only where its body reads it."""
            return "_Seat(_st.active)" if self.reads_you(fname) else "None"
        if all(r is not None and r for r in reads):
            test = self.reads_test(frozenset().union(*reads), "R.touched")
            e(2, f"if not ({test}):")
            e(3, "R.touched = 0")  # no rule reads what changed (`Game.settle_needed`)
            e(3, "return")
            # the passes on their own, called by a settle check that tested the same bits
            if self.settle_passes != "_settle":
                assert test == f"R.touched{self.read_mask}"
                e(2, f"{'yield from ' if self.settle_stops else ''}_settle_passes()")
                e(1, "def _settle_passes():")
                if self.settle_stops:
                    e(2, "if False:")
                    e(3, "yield")
        # `R.settling` is True while a rule's body runs (`run_body`): the tests between bodies (what
        # changed, a watcher's condition: an expression) read nothing of it, and most passes run no
        # body. At a pass's start nothing is touched (`R.touched` 0), so a pass that leaves something
        # touched ran a body that changed it, and set `_changer` first
        e(2, "_tc = R.touched")
        e(2, "R.touched = 0")
        e(2, "_passes = 0")
        e(2, "while True:")

        def run_body(d: int, call: str, fname: str, first: bool, changer: int) -> None:
            """Run a rule's body while settling; `first`: the pass's first body (nothing touched before it)."""
            if not first:
                e(d, "_b4 = R.touched")
            e(d, "R.settling = True")
            e(d, "try:")
            run(d + 1, call, fname)
            e(d, "finally:")
            e(d + 1, "R.settling = False")
            e(d, "if R.touched:" if first else "if R.touched != _b4:")
            e(d + 1, f"_changer = {changer}")
        for i, (fname, r, node, plan) in enumerate(always):
            e(3, f"if {self.reads_test(r, '_tc')}:")
            if plan is not None:
                keys = f"_pk{i}"
                self.plan_keys[keys] = plan
                changed = "_tc" if i == 0 else "-1 if _tc == -1 or _b4 == -1 else _tc | _b4"
                run_body(4, f"{fname}({you(fname)}, {changed})", fname, i == 0, i)
            else:
                run_body(4, f"{fname}({you(fname)})", fname, i == 0, i)
        for w, (cname, bname, r, node) in enumerate(watchers):
            j = len(always) + w
            e(3, f"if {self.reads_test(r, '_tc')}:")
            cond = self.expr(node.cond, {"you": ("_you", "player")}).src  # the condition inline
            if "_you" in cond:
                e(4, "_you = _Seat(_st.active)")
            e(4, f"if {cond}:")
            e(5, f"if not _st.watch[{w}]:")
            e(6, f"_st.watch[{w}] = True")
            run_body(6, f"{bname}({you(bname)})", bname, j == 0, j)
            e(4, f"elif _st.watch[{w}]:")
            e(5, f"_st.watch[{w}] = False")
        e(3, "if not R.touched:")
        e(4, "return")
        e(3, "_passes += 1")
        e(3, "if _passes >= R.limits.max_settle_passes:")
        e(4, "R.endless_settling(_changer)")
        e(3, "_tc = R.touched")
        e(3, "R.touched = 0")

    def reads_you(self, fname: str) -> bool:
        """Whether the state-based rule body `fname` (its lines in `rule_spans`) reads its `you` (`_a0`,
        the first parameter): a procedure it calls is handed `_a0` by name, so a body without the
        name reads it nowhere. One not written here is taken to read it."""
        span = self.rule_spans.get(fname)
        if span is None:
            return True
        return any(_A0.search(line) for line in self.lines[span[0] + 1:span[1]])

    def placement_function(self, name: str, zname: str, pl) -> None:
        """`_pl(c)`: the legal positions of card `c` in the rows zone, as `legal_positions`."""
        zd = self.rs.zones[zname]
        if zd.kind == "grid":
            return self.grid_placement_function(name, zname, pl)
        scope = {"card": ("_a0", "topcard"), pl.binder: ("_a1", "topcards")}
        # a per-player zone's rule is given the owner's instance (`placement_call`)
        zone = V("_zl", "zone", zone=zname, rows=zd.kind == "rows") if zd.per_player else self.zone(zname, None)
        extra = ", _zl" if zd.per_player else ""
        self.cur_loc = pl.loc
        self.emit(1, f"def {name}_ok(_a0, _a1):", pl.loc)  # the rule on the row as it would be
        for n in pl.conds:  # each condition tested in turn (its lists written first: `expr_first`)
            c = self.expr_first(n, scope, 2, n.loc)
            self.emit(2, f"if not ({c.src}):", n.loc)
            self.emit(3, "return False")
        self.emit(2, "return True")
        if zd.kind != "rows":  # one candidate: the zone's cards with this one on top (at the end)
            self.emit(1, f"def {name}(_a0{extra}):", pl.loc)
            self.emit(2, f"return [_TOP] if {name}_ok(_a0, [_x for _x in {self.unnamed(zone.src)} if _x != _a0] + [_a0]) else []")
            return
        # per row, bit 1: the left end is legal, bit 2: the right end (a lone card has one end)
        ends = f"({name}_ok(_a0, [_a0] + _cs) and 1 or 0) | (_cs and {name}_ok(_a0, _cs + [_a0]) and 2 or 0)"
        pure = all(self.pure(c, {pl.binder, "card"}) for c in pl.conds)
        self.emit(1, f"def {name}(_a0{extra}):", pl.loc)
        self.emit(2, "_out = []")
        if pure:  # known by the cards' kinds: copies alike in every printed part are one kind
            kinds = self.k(self.card_kinds())
            self.emit(2, f"_kind = {kinds}.__getitem__")
            self.emit(2, "_ka = _kind(_a0)")
        self.emit(2, f"for _i, _row in enumerate({zone.src}):")
        if pure:  # the answers depend on the cards alone: remembered across games (`_MEMO_LIMIT` rows)
            memo = self.k({})
            # (whether the card lies in the row already: it is then left out of it, `_cs`)
            self.emit(3, "_key = (_ka, _a0 in _row, *map(_kind, _row))")
            self.emit(3, f"_got = {memo}.get(_key)")
            self.emit(3, "if _got is None:")
            self.emit(4, "_cs = [_x for _x in _row if _x != _a0]")
            self.emit(4, f"_got = {ends}")
            self.emit(4, f"if len({memo}) < _MEMO_LIMIT:")
            self.emit(5, f"{memo}[_key] = _got")
        else:
            self.emit(3, "_cs = [_x for _x in _row if _x != _a0]")
            self.emit(3, f"_got = {ends}")
        self.emit(3, "if _got & 1:")
        self.emit(4, "_out.append(_LEFT[_i])")
        self.emit(3, "if _got & 2:")
        self.emit(4, "_out.append(_RIGHT[_i])")
        self.emit(2, f"if {'True' if zd.max_rows is None else f'len({zone.src}) < {self.k(zd.max_rows)}'}:")
        if pure:  # a new row: remembered per card
            cache = self.k({})
            self.emit(3, f"_got = {cache}.get(_ka)")
            self.emit(3, "if _got is None:")
            self.emit(4, f"_got = {cache}[_ka] = {name}_ok(_a0, [_a0])")
            self.emit(3, "if _got:")
        else:
            self.emit(3, f"if {name}_ok(_a0, [_a0]):")
        self.emit(4, "_out.append(_NEW)")
        self.emit(2, "return _out")

    def card_kinds(self) -> list[int]:
        """Per card id, a number shared by the cards alike in type, name, fields, effect and text:
        a pure placement rule (`pure`) cannot tell them apart, so its answers are remembered per
        kind (fewer, and met again sooner, than per card). Cards in one row are never the same
        card, so a rule comparing cards themselves finds them different under either key."""
        if self._card_kinds is None:
            seen: dict[str, int] = {}
            self._card_kinds = [seen.setdefault(repr((c.type, c.name, c.fields, c.effect, c.text)), len(seen))
                                for c in self.rs.cards]
        return self._card_kinds

    def pure(self, n: Node, bound: set) -> bool:
        """Whether an expression reads nothing but `bound` names, literals and card fields (so the
        same cards always give the same answer): no zone, stat, constant, player or turn."""
        k = n.kind
        if k == "lit":
            return True
        if k == "name":
            return n.id in bound or (n.id in self.enum_values and n.id not in self.rs.stats and
                                     n.id not in self.rs.zones and n.id not in self.rs.constants) or \
                n.id in ("true", "false", "none")
        if k == "attr":
            return n.name in self.card_fields() and n.name not in self.rs.stats and self.pure(n.obj, bound)
        if k == "call":
            return n.func in PURE_BUILTINS and n.func not in self.rs.functions and \
                all(self.pure(a, bound) for a in n.args)
        if k == "is":
            return (n.what in self.rs.card_types or n.what in ("empty", "none")) and self.pure(n.expr, bound)
        if k in ("where", "quantified", "comprehension"):
            inner = bound | {"it"} | set(getattr(n, "names", None) or ()) | \
                ({n.name} if isinstance(getattr(n, "name", None), str) else set())
            parts = [getattr(n, f) for f in ("items", "iter") if hasattr(n, f)]
            body = [getattr(n, f) for f in ("cond", "expr") if hasattr(n, f)]
            return all(self.pure(x, bound) for x in parts) and all(self.pure(x, inner) for x in body)
        if k in ("compare", "arith", "and", "or", "not", "neg", "list", "if_expr"):
            return all(self.pure(c, bound) for c in n.children())
        return False

    # ---- statements --------------------------------------------------------------------------
    def settle_check(self, d: int) -> None:
        """Settle before the next statement, as `BlockTask` does after a change: emitted only
        where the state may have changed since the last check (`self.changed`)."""
        if not self.sync and not self.in_settle and self.changed and self.check_mode != "none":
            test, call = self.check_lines()
            self.emit(d, test)
            self.emit(d + 1, call)
            self.changed = False

    def check_lines(self) -> tuple[str, str]:
        """A settle check's two lines (unindented)."""
        # the turn never runs while rules settle: no need to ask (procedures and triggers may
        # run during setup, which settles nothing)
        short = self.check_mode == "short"
        return (f"if R.touched{self.read_mask}{'' if short else ' and not R.settling'}:",
                f"{'yield from ' if self.settle_stops else ''}{self.settle_passes}()")

    def loop_body(self, d: int, body: list[Node], scope: dict, loops: int, ends: bool = True) -> None:
        """A loop's body at depth `d`, after its round's count (`count_round`). A round begins as the
        loop statement's own settle check left the state (the first) or as the body's end leaves
        it (the next; a `continue` or `break` follows a check of its own), so the settle check
        before the body's first statement is kept only where either may be changed. After the
        loop the state is as at a round's beginning (`ends`: the loop can end without a `break`)."""
        before = self.changed
        self.changed = True
        start = len(self.lines)
        self.block(body, d, scope, loops)
        again = before or self.changed
        test, call = self.check_lines()
        if not again and self.lines[start:start + 2] == ["    " * d + test, "    " * (d + 1) + call]:
            del self.lines[start:start + 2], self.line_loc[start:start + 2]
        self.changed = again if ends else False

    def block(self, stmts: list[Node], d: int, scope: dict, loops: int) -> None:
        if not stmts:
            self.emit(d, "pass")
        if loops == 0 and not any(sc is scope for sc, _ in self.bodies):  # a body's own statements
            self.bodies.append([scope, len(self.nest)])
            try:
                self.statements(stmts, d, scope, loops)
            finally:
                self.bodies.pop()
        else:
            self.statements(stmts, d, scope, loops)

    def rest_of_body(self, scope: dict) -> list[Node] | None:
        """What may read a variable's old value after the statement being written gives it a new
        one (`bind`), in the body that owns `scope`: each compound statement around it (another
        branch of an `if`, a loop's next rounds) and what follows each, out to the end of the
        body; nothing when the statement is one of the body's own (what follows it reads the new
        value). None when no body owns `scope`."""
        entry = next((e for e in self.bodies if e[0] is scope), None)
        if entry is None:
            return None
        rest: list[Node] = []
        for stmts, i in reversed(self.nest[entry[1]:-1]):
            rest += stmts[i:]
        return rest

    def statements(self, stmts: list[Node], d: int, scope: dict, loops: int) -> None:
        """`block`'s statements, each noted in `nest` while it is written."""
        frame = [stmts, 0]
        self.nest.append(frame)
        try:
            self._statements(stmts, d, scope, loops, frame)
        finally:
            self.nest.pop()

    def _statements(self, stmts: list[Node], d: int, scope: dict, loops: int, frame: list) -> None:
        for i, s in enumerate(stmts):
            frame[1] = i
            self.cur_loc = s.loc
            self.settle_check(d)
            emit = getattr(s, "emit", None)  # a statement writes its own lines (tree.Generates)
            if emit is None:
                raise Unsupported(f"statement {s.kind}")
            self.cur_loops = loops
            if self.learning:  # (`_learn_stats`) past any statement it cannot compile
                try:
                    emit(self, d, scope, loops)
                except Unsupported:
                    self.emit(d, "pass")
                    self.learn_in_branches(s, d, scope, loops)
                continue
            emit(self, d, scope, loops)
            if changes_state(s):  # analysis/effects.py (a `set` of a stat says so itself; loops
                self.changed = True  # and `if`s reckon from their bodies)

    # ---- what a statement's `emit` uses besides the above (tree.Generates) -------------------
    max_inline_depth = _MAX_INLINE_INDENT

    def cardish(self, kind: str) -> bool:
        """Whether a value of `kind` is cards (a card, cards, a zone, a row)."""
        return kind in _CARDISH

    def learn_in_branches(self, s: Node, d: int, scope: dict, loops: int) -> None:
        """(`_learn_stats`) An `if` whose condition cannot be compiled before a stat's kind is known
        (`pairs where it[1] == n`) may learn it in its branches (`set pairs to pairs + [[c, n]]`)."""
        if s.kind != "if":
            return
        for body in [b for _, b in s.branches] + [s.orelse or []]:
            try:
                self.block(body, d + 1, dict(scope), loops)
            except Unsupported:
                pass

    def bind(self, scope: dict, name: str, kind: str) -> str:
        got = scope.get(name)
        if got is not None and "item" in (kind, got[1]) and {kind, got[1]} <= {"item", "player", "card", "row"}:
            if kind == "item" and got[1] != "item" and not self.cur_loops:
                scope[name] = (got[0], "item")  # it may now hold a card or a player: read as an item after
            return got[0]  # an item of a mixed list kept where a player, card or row was (or the reverse)
        if got is not None:
            if got[1] == "list" and (kind in ("cards", "players", "cardlists") or kind.startswith("tuples:")) \
                    and got[0] in self.empty_lists:
                scope[name] = (got[0], kind)  # `let xs = []`, then cards or players (Arith.generate)
                return got[0]
            if {got[1], kind} == {"int", "any"}:
                return got[0]  # a number, or a card's field (a number, a text or none): read alike
            if {got[1], kind} == {"bool", "any"}:
                scope[name] = (got[0], "any")  # a card's flag field, then true or false: read as a field
                return got[0]
            if got[1] != kind and not (kind == "none" or got[1] == "none"):
                rest = self.rest_of_body(scope)
                if rest is None or not old_value_dead(rest, name):
                    raise Unsupported(f"variable `{name}` changes kind")
                got = None  # the old value is never read again: a new local (directrebind.py)
            elif got[1] == "none":
                scope[name] = (got[0], kind)
                return got[0]
            else:
                return got[0]
        py = self.temp("_v")
        scope[name] = (py, kind)
        self.var_names[py] = name  # for "has no value here" (directgame.DirectGame._advance)
        self.var_kinds[py] = kind  # to give a failed rule's variables to blame.py as rule values
        return py

    def kept(self, v: V) -> str:
        """A value to keep in a variable: a live zone list is copied (the engine's are snapshots)."""
        if v.kind == "zone":
            return f"R.cards_of({v.src}, {self.k(v.rows)})"
        if v.kind == "row":
            return v.src  # a row is kept as a reference to the row itself
        return f"list({v.src})" if v.live else v.src

    def kind_kept(self, v: V) -> str:
        return "cards" if v.kind == "zone" else v.kind

    def cards_src(self, v: V) -> str:
        """A list of card ids to move (a snapshot)."""
        if v.kind == "card":
            return f"R.one({v.src})"
        if v.kind == "zone":
            return f"R.cards_of({v.src}, {self.k(v.rows)})"
        if v.kind == "row":
            return f"list({v.src})"
        if v.kind == "cards":
            return f"list({v.src})" if v.live else v.src
        if v.kind == "none":
            return "[]"
        raise Unsupported(f"moving a {v.kind}")

    def dest(self, n: Node, scope) -> V:
        if n.kind == "if_expr":
            either = self.either_zone(n, scope)
            if either is not None:
                return either
        v = self.expr(n, scope)
        if v.kind != "zone" or v.rows:
            raise Unsupported("move to a row or rows zone")
        return v

    def either_zone(self, n: Node, scope) -> V | None:
        """`A if COND else B` of two shared piles or sets, as a destination: the zone's list and
        key chosen by the condition (a pure one: it is evaluated for each)."""
        then, orelse = self.expr(n.then, scope), self.expr(n.orelse, scope)
        if then.kind != "zone" or orelse.kind != "zone" or then.zone == orelse.zone or not self.pure_test(n.cond):
            return None
        zs = [self.rs.zones[v.zone] for v in (then, orelse)]
        if any(z.per_player or z.kind not in ("pile", "set") for z in zs):
            return None
        c = self.expr(n.cond, scope).src
        return V(f"({then.src} if {c} else {orelse.src})", "zone", top=True, live=True, zone=then.zone,
                 key=f"({then.key} if {c} else {orelse.key})", elem="either")

    def pure_test(self, n: Node, seen: frozenset = frozenset()) -> bool:
        """A condition that draws nothing at random, itself or in the rule functions it calls (so
        it may be evaluated twice)."""
        for m in walk(n):
            if m.kind == "call" and m.func in ("random", "roll", "shuffled", "random_int", "shuffle"):
                return False
            if m.kind == "call" and m.func in self.rs.functions and m.func not in seen and \
                    not self.pure_test(self.rs.functions[m.func].expr, seen | {m.func}):
                return False
        return True

    def fixed_dest(self, n: Node, seen: frozenset = frozenset()) -> bool:
        """Whether no move of cards can change the zone destination `n` names: it reads stats, seats,
        values and zones by name, never a card (`carriage of p if clockwise == 1 else carriage of
        previous_player(p)`), itself or in the rule functions it calls, and draws nothing at random."""
        for m in walk(n):
            if m.kind == "call":
                f = self.rs.functions.get(m.func)
                if f is None and m.func not in ("next_player", "previous_player"):
                    return False
                if f is not None and m.func not in seen and not self.fixed_dest(f.expr, seen | {m.func}):
                    return False
            elif m.kind == "compare":  # of two plain values (a zone compared would be its cards)
                if not all(o.kind == "lit" or (o.kind == "name" and o.id not in self.rs.zones) for o in (m.left, m.right)):
                    return False
            elif m.kind not in ("if_expr", "of", "name", "lit"):
                return False
        return True

    def emit_move_many(self, d: int, what: V, dest: V, bottom: bool, loc, once: bool = False,
                       top_of: V | None = None) -> None:
        """`move CARDS to` a pile or set: each card as `emit_move_one` (what changed is noted as bits,
        so noting each card's zone just before it moves notes the same as all of them first). `once`:
        no move changes the destination (`fixed_dest`), so a worked-out one (`pass_to(p)`) is worked
        out before the first card, not at each use for each card. `top_of`: the zone whose top cards,
        topmost first, `what` (a local) holds (`draw N`)."""
        c = self.temp()
        fixed = self.plain_zone(dest) and not bottom and (once or _PLAIN_DEST.fullmatch(dest.src))
        if what.kind == "zone" and self.plain_zone(what) and fixed:
            return self.emit_move_all(d, what, dest, c, loc)
        if top_of is not None and self.plain_zone(top_of) and fixed and _SIMPLE.match(what.src):
            return self.emit_move_all(d, top_of, dest, c, loc, what.src)
        if once and dest.key is not None and not _PLAIN_DEST.fullmatch(dest.src) and not self.grid_zone(dest.zone):
            cs = self.temp()
            self.emit(d, f"{cs} = {self.cards_src(what)}", loc)
            self.emit(d, f"if {cs}:", loc)  # (no card: the destination is not worked out, as before)
            dest = self.dest_in_locals(d + 1, dest, loc)
            nn = what.nn or what.top or what.kind in ("zone", "row")  # (a snapshot of the cards to move)
            what, d = V(cs, "cards", nn=nn), d + 1
        self.emit(d, f"for {c} in {self.cards_src(what)}:", loc)
        if not (what.nn or what.top or what.kind in ("zone", "row")):
            self.emit(d + 1, f"if {c} is None:", loc)
            self.emit(d + 2, "R.not_a_card()", loc)
        self.emit_move_one(d + 1, c, dest, bottom, loc, known=True)

    def emit_move_all(self, d: int, what: V, dest: V, c: str, loc, top: str | None = None) -> None:
        """`move ZONE to DEST`, both plain zones (`plain_zone`), DEST fixed while cards move: where
        no card of the zone has cards under it (each a lone card, as `emit_move_one`'s common case
        finds it: a zone's list holds no covered card), the zone's list emptied into DEST's at once,
        what changed noted once, the cards' entries and moves by `_moved_all`; else card by card.
        DEST is worked out once, before the first card (no card: not at all, as card by card).
        `top`: a local holding the zone's top cards, topmost first (`draw N`): those leave its end."""
        src = what.src
        if not _PLAIN_DEST.fullmatch(src):
            src = self.temp()
            self.emit(d, f"{src} = {what.src}", loc)
        cs = top or self.temp()
        if top is None:
            self.emit(d, f"{cs} = list({src})", loc)
        self.emit(d, f"if {cs}:", loc)
        if not _PLAIN_DEST.fullmatch(dest.src):
            dest = self.dest_in_locals(d + 1, dest, loc)
        self.emit(d + 1, f"if _UN.keys().isdisjoint({cs}):", loc)
        self.emit(d + 2, f"{src}.clear()" if top is None else f"del {src}[-len({cs}):]", loc)
        self.emit(d + 2, f"R.touched |= {self.zone_bits(what)} | {self.zone_bits(dest)}", loc)
        self.emit(d + 2, f"{dest.src}.extend({cs})", loc)
        self.emit(d + 2, f"_moved_all(_W, {cs}, {dest.key}, _MV)", loc)
        self.emit(d + 1, "else:", loc)
        self.emit(d + 2, f"for {c} in {cs}:", loc)
        self.emit_move_one(d + 3, c, dest, False, loc, known=True)

    def dest_in_locals(self, d: int, dest: V, loc) -> V:
        """A destination zone worked out once, at depth `d`: its list and its key in locals."""
        dl, dk = self.temp(), self.temp()
        self.emit(d, f"{dl} = {dest.src}", loc)
        self.emit(d, f"{dk} = {dest.key}", loc)
        return dest.copy(src=dl, key=dk)

    def plain_zone(self, v: V) -> bool:
        """Whether zone `v` is one zone known when compiling whose cards lie in one list (its keys
        among `Runtime.plain_keys`): not rows, a board or a grid."""
        return v.kind == "zone" and v.zone is not None and v.key is not None and v.elem != "either" and \
            not v.rows and self.rs.zones[v.zone].kind in ("pile", "set", "row", "stack")

    def zone_bits(self, v: V) -> str:
        """Source of the bits a change of zone `v` notes for settling (`Runtime.tbit` of its key)."""
        if not self.rs.zones[v.zone].per_player and v.elem != "either":
            return self.k(self.name_bits()[v.zone])
        return f"_TB[{v.key}]"

    def emit_move_one(self, d: int, card: str, dest: V, bottom: bool, loc, known: bool = False,
                      top_of: V | None = None) -> None:
        """`Runtime.move_one` written out: the common case (a lone card off a pile or set) inline,
        anything else (a card in a row, covered or covering) by `Runtime.take_any`. `known`: the
        card is not none. `top_of`: a plain zone (`plain_zone`) whose top card `card` is, or none
        (a `draw`): the card leaves that list's end, with no look-up of where it lies."""
        c = card
        if self.grid_zone(dest.zone):
            return self.grid_move(d, card, dest, loc)
        if not _SIMPLE.match(card):
            c = self.temp()
            self.emit(d, f"{c} = {card}", loc)
        if known:
            self.emit(d, "if True:", loc)
        else:
            self.emit(d, f"if {c} is not None:", loc)
        dest_bits = self.zone_bits(dest)
        put = f"{dest.src}.insert(0, {c})" if bottom else f"{dest.src}.append({c})"
        if top_of is not None:
            self.emit_move_top(d + 1, c, top_of, dest, dest_bits, put, loc)
            return
        at, src = self.temp(), self.temp()
        self.emit(d + 1, f"{at} = _Wget({c})", loc)
        self.emit(d + 1, f"if {at} in _PLAIN and {c} not in _UN:", loc)
        self.emit(d + 2, f"{src} = _Z[{at}]", loc)
        self.emit(d + 2, f"if {src}[-1] == {c}:", loc)  # a draw: the top card, no search
        self.emit(d + 3, f"{src}.pop()", loc)
        self.emit(d + 2, "else:", loc)
        self.emit(d + 3, f"del {src}[{src}.index({c})]", loc)
        # a lone card: its entry taken out and put last (as zones.take_out then put: the narration's
        # order) by dict's own methods, and the move noted once where card statistics follow the
        # moves (`_MV`, cardstats.ChangeLog: the event its hooks would leave, without their calls).
        # The map's methods are bound once per game (`_Wget`, `_Wpop`, `_Wput` in `assemble`): on
        # the ChangeLog (a dict subclass) `_W.get(c)` and the like cost about 40% more than on a
        # dict, a bound method the same
        self.emit(d + 2, f"_Wpop({c})", loc)
        self.emit(d + 2, f"R.touched |= _TB[{at}] | {dest_bits}", loc)
        self.emit(d + 2, put, loc)
        self.emit_noted(d + 2, c, dest, loc)
        self.emit(d + 1, "else:", loc)
        self.emit(d + 2, f"if {at} is not None:", loc)  # (a card out of play has no place to leave)
        self.emit(d + 3, f"R.take_any({c}, {at})", loc)  # (out of `where` now)
        self.emit_put_taken(d + 2, c, dest, dest_bits, put, loc)

    def emit_noted(self, d: int, c: str, dest: V, loc) -> None:
        """A lone card just put into `dest`: its `where` entry, and the move noted once where card
        statistics follow the moves (`_MV`: the event the ChangeLog's hooks would leave)."""
        self.emit(d, f"_Wput({c}, {dest.key})", loc)
        self.emit(d, "if _MV is not None:", loc)
        self.emit(d + 1, f"_MV.append(({c}, {dest.key}, _W.mover))", loc)

    def emit_put_taken(self, d: int, c: str, dest: V, dest_bits: str, put: str, loc) -> None:
        """A card `R.take_any` took out, put into `dest`: the cards under it go along (`mark_under`)."""
        self.emit(d, f"R.touched |= {dest_bits}", loc)
        self.emit(d, put, loc)
        self.emit(d, f"if {c} in _UN:", loc)
        self.emit(d + 1, f"_W[{c}] = {dest.key}", loc)
        self.emit(d + 1, f"R.mark_under({c})", loc)
        self.emit(d, "else:", loc)
        self.emit_noted(d + 1, c, dest, loc)

    def emit_move_top(self, d: int, c: str, top_of: V, dest: V, dest_bits: str, put: str, loc) -> None:
        """`emit_move_one`'s lines for card `c`, the top card of plain zone `top_of`: its `where`
        is that zone's key (a card in a zone's list lies there, not under another), so the card
        leaves by `pop` unless cards lie under it (then as `emit_move_one`'s other case)."""
        src_bits = self.zone_bits(top_of)
        if src_bits.startswith("_TB[") or dest_bits.startswith("_TB["):
            bits = f"{src_bits} | {dest_bits}"
        else:  # two shared zones: one constant
            bits = self.k(self.name_bits()[top_of.zone] | self.name_bits()[dest.zone])
        self.emit(d, f"if {c} not in _UN:", loc)
        self.emit(d + 1, f"{top_of.src}.pop()", loc)
        self.emit(d + 1, f"_Wpop({c})", loc)
        self.emit(d + 1, f"R.touched |= {bits}", loc)
        self.emit(d + 1, put, loc)
        self.emit_noted(d + 1, c, dest, loc)
        self.emit(d, "else:", loc)  # (the card it covers takes its place: zones.take_out)
        self.emit(d + 1, f"R.take_any({c}, {top_of.key})", loc)
        self.emit_put_taken(d + 1, c, dest, dest_bits, put, loc)

    def you(self, scope) -> str:
        return scope["you"][0] if "you" in scope else "None"

    def emit_enter(self, d: int) -> None:
        """A procedure or trigger body begins: one level deeper (`Game.enter_call`)."""
        self.emit(d, "R.depth += 1")
        self.emit(d, "if R.depth > R.max_depth:")
        self.emit(d + 1, "R.too_deep()")

    def asker(self, player: str) -> str:
        """The code of the seat that answers `player`'s question: the active player's for none
        (or, where the rules add dummy players, a dummy player's)."""
        if player == "None":
            return "_st.active"
        if player == self.seat_you and not self.uses_dummies:  # (a dummy player's goes to the active one)
            return player
        if _SIMPLE.match(player) and not self.uses_dummies:
            return f"({player} if {player} is not None else _st.active)"
        if _SIMPLE.match(player):  # `player_or_active` written out (a dummy player's question goes to the active one)
            return f"(_st.active if {player} is None or {player} >= _st.players else {player})"
        return f"R.player_or_active({player})"

    def decision(self, player: str, kind: str, prompt: str, options: str, labels: str = "None",
                 loc: Any = None, prompt_of: str | None = None, asked: str | None = None) -> str:
        """A `Decision` for `player` (none: the active player), naming the rule that asks it
        (`loc`: the JSON's `rule`); the driver counts it against the decision limit
        (`DirectGame._advance`). Only asked with more than one option. `prompt_of`: the prompt is
        made when first read, by that function of the tuple `prompt` (`Decision.prompt`).
        `asked`: the seat that answers, found already (`asker`)."""
        who = asked if asked is not None else self.asker(player)
        where = self.k(loc) if loc is not None else "None"
        if prompt_of is not None:
            return f"_Decision({who}, {kind}, {prompt}, {options}, {labels}, {where}, _LBL, {prompt_of})"
        return f"_Decision({who}, {kind}, {prompt}, {options}, {labels}, {where}, _LBL)"

    def used_as_player(self, proc: str, i: int, seen: frozenset = frozenset()) -> bool:
        """Whether procedure `proc` uses its `i`th parameter as a player (the owner of a zone or
        stat, or so passed on): an item of a mixed list given there is kept an item, not a card."""
        pr = self.rs.procedures[proc]
        if i >= len(pr.params) or proc in seen:
            return False
        name = pr.params[i]

        def named(x) -> bool:
            return x is not None and x.kind == "name" and x.id == name
        for s in pr.body:
            for m in walk(s):
                if (m.kind == "of" and named(m.owner)) or (m.kind == "attr" and named(m.obj) and m.name in self.rs.stats):
                    return True
                if m.kind == "call" and m.func in self.rs.procedures and \
                        any(named(a) and self.used_as_player(m.func, j, seen | {proc}) for j, a in enumerate(m.args)):
                    return True
        return False

    def plan_dispatch(self) -> None:
        """Name every trigger function, and find the events whose triggers are all card triggers
        without a condition, at most one per card: a `fire` of those looks its handler up in a
        table (`_ev<i>`: card id → function) instead of going through `Runtime.fire`."""
        rs = self.rs
        order = list(rs.triggers) + [t for c in rs.cards if c.effect is not None for t in c.effect.triggers
                                     if t.kind != "action"]
        self.trigger_names = {}
        for t in order:
            self.trigger_names.setdefault(id(t), f"_tr{len(self.trigger_names)}")
        by_event: dict[str, dict[int, list]] = {}
        for card in rs.cards:
            for t in (card.effect.triggers if card.effect is not None else ()):
                if t.kind != "action":
                    by_event.setdefault(t.event, {}).setdefault(card.id, []).append(t)
        self.dispatch = {}  # event → (table local, [(trigger function, card ids)], binder)
        if any(c.effect is not None and c.effect.copies for c in rs.cards):
            return  # a copying card answers with another card's triggers: `Runtime.fire` finds them
        for i, (event, table) in enumerate(sorted(by_event.items())):
            if any(t.event == event for t in rs.triggers) or any(t.whenever for h in table.values() for t in h):
                continue
            ts = [t for handlers in table.values() for t in handlers]
            if any(len(h) > 1 for h in table.values()) or any(getattr(t, "cond", None) is not None for t in ts):
                continue
            binders = {bool(getattr(t, "binder", None)) for t in ts}
            if len(binders) != 1:
                continue
            groups: dict[int, list[int]] = {}
            for cid, (t,) in table.items():
                groups.setdefault(id(t), []).append(cid)
            self.dispatch[event] = (f"_ev{i}", [(self.trigger_names[k], ids) for k, ids in groups.items()],
                                    binders.pop())

    def emit_fire(self, d: int, event: str, subject: str, actor: str, loc) -> None:
        """`fire EVENT on SUBJECT by ACTOR` (`Runtime.fire`, or a table lookup: `plan_dispatch`)."""
        if self.sync and event in self.events:
            raise Unsupported("triggers answering a state-based rule")
        if event not in self.events:
            self.emit(d, "pass")
            return
        got = self.dispatch.get(event)
        if got is None or not _SIMPLE.match(subject) or not (actor == "None" or _SIMPLE.match(actor)):
            # `R.fire` in two steps: most events find no trigger that answers (its condition false),
            # and then no generator is made
            pending = self.temp()
            self.emit(d, f"{pending} = R.fired({self.k(event)}, {subject}, {actor})", loc)
            self.emit(d, f"if {pending}:")
            self.emit(d + 1, f"yield from R.run_fired({self.k(event)}, {pending})", loc)
            return
        table, _, binder = got
        f = self.temp()
        you = "_Seat(_st.active)" if actor == "None" else f"_Seat({actor} if {actor} is not None else _st.active)"
        self.emit(d, f"{f} = {table}.get({subject})", loc)
        self.emit(d, f"if {f} is not None:")
        self.emit(d + 1, f"yield from {f}({you}, {subject}{', ' + subject if binder else ''})", loc)

    def inline_call(self, name: str, args: list[V], d: int, scope: dict, n: Node) -> None:
        """A procedure's body written out where it is called (no generator of its own): the
        arguments are evaluated first, the body sees only them, `you` and `this`, counts towards
        the depth limit and settles at its end, as a call does."""
        pr = self.rs.procedures[name]
        inner = {k: scope[k] for k in ("you", "this") if k in scope}
        for param, a in zip(pr.params, args):
            if a.kind == "zone":  # the zone itself, as a rule function's zone parameter (directforms.py)
                inner[param] = self.zone_arg(a, d, n.loc)
                continue
            py = self.temp("_v")
            inner[param] = (py, a.kind)
            self.emit(d, f"{py} = {a.src}", n.loc)
        self.emit_enter(d)
        self.emit(d, "try:")
        self.changed = True
        self.block(pr.body, d + 1, inner, loops=0)
        self.settle_check(d + 1)
        self.emit(d + 1, "pass")
        self.emit(d, "finally:")
        self.emit(d + 1, "R.depth -= 1")
        self.changed = True

    def recursive(self) -> set[str]:
        """Procedures that may call themselves, directly or through others (never inlined)."""
        if self._recursive is None:
            calls = {name: {m.expr.func for s in pr.body for m in walk(s)
                            if m.kind == "call_stmt" and m.expr.kind == "call" and m.expr.func in self.rs.procedures}
                     for name, pr in self.rs.procedures.items()}
            out = set()
            for start in calls:
                seen, todo = set(), list(calls[start])
                while todo:
                    c = todo.pop()
                    if c == start:
                        out.add(start)
                        break
                    if c not in seen:
                        seen.add(c)
                        todo += calls.get(c, ())
            self._recursive = out
        return self._recursive

    def count_round(self, d: int, body: list[Node]) -> None:
        """A loop's round counts as a step (`Limits.max_steps`) and, for the `where`s, quantifiers
        and comprehensions its body holds, as that many times every card visited (`max_work`): a
        bound on the items the task engine would count, so a runaway loop stops under both limits."""
        binders = sum(1 for s in body for m in walk(s) if m.kind in ("where", "quantified", "comprehension"))
        self.emit(d, "R.steps += 1")
        if binders:
            self.emit(d, f"R.work += {self.k(binders * max(1, len(self.rs.cards)))}")
            self.emit(d, "if R.steps > R.max_steps or R.work > R.max_work:")
        else:
            self.emit(d, "if R.steps > R.max_steps:")
        self.emit(d + 1, "R.runaway()")

_NOT_SCORES = ("card", "player")  # kinds a result would show as ids, where the task engine shows values

_OWN_NAME = re.compile(r"_[A-Za-z0-9_]+\Z")
_KEYWORDS = {"def", "return", "if", "elif", "else", "for", "in", "while", "break", "continue", "pass", "not",
             "and", "or", "is", "None", "True", "False", "yield", "from", "try", "finally", "lambda", "R", "K",
             "list", "len", "all", "any", "zip", "sum", "map", "range", "enumerate", "bool", "state", "build",
             "end_reason", "end_cap", "no_winner", "all_win", "stats", "pstats", "players", "active", "start_player", "turn_number",
             "round_number", "zones", "rng", "under", "choice", "shuffle", "append", "steps", "enter",
             "depth", "dirty", "settling", "settle", "step", "types", "covered", "player_zone",
             "field_table", "player_keys", "cards_of", "one", "move", "move_one", "fire", "ask", "placement",
             "cannot_place", "place_prompt", "place", "cover", "touch", "nothing_to_choose", "end_game",
             "text", "set_stat", "work", "max_work", "runaway", "_charged", "log_items", "_last", "_last_n", "_sum", "_plus", "_TOP", "log_text", "not_a_card", "pop", "_Decision", "_LBL", "label", "player_or_active", "max_depth", "too_deep", "del", "where", "plain_keys", "move_log", "mover", "setdefault", "tbit", "take_any", "mark_under", "index", "insert", "max_steps", "dict", "fromkeys", "update", "under_one", "get", "_MEMO_LIMIT", "clear", "watch", "set", "_Seat", "endless_settling", "plan_bits_of", "limits", "max_settle_passes", "touched", "seats", "_distinct_nn", "_ascending_nn", "_random", "_first", "_pairs", "_is_type", "_is_covered", "_ordered", "set_start", "set_pstat", "const", "seats", "all_ids", "under_of", "rows",
             "other_players", "play_turn", "play_round", "change_stat", "roll", "function_too_deep", "_STOP",
             "lambda", "faces", "pop", "least", "most", "least_flat", "most_flat", "turn_order", "sort_by", "unique_most",
             "linked", "linked_values", "_", "_KSUBSET", "subset_prompt", "cannot_choose", "face", "card_stat", "set_card_stat", "move_to_grid",
             "place_in_grid", "grid_empty", "space", "card_at", "space_of", "cards_around", "cards_beside",
             "spaces_around", "spaces_beside", "grid_spaces", "x", "y",
             "type", "int", "_card_or_none", "move_to_row", "is", "_placeable", "_zl", "_placeable_in", "space_xy", "add_dummy", "owner_of",
             "is_dummy", "key", "_ZoneRef", "card_item",
             "card_obj", "card_objs", "_cid", "_cids", "ids_of"}


_KEYWORDS |= GENERATED_KEYWORDS | FORMS_KEYWORDS | BOARD_KEYWORDS | PAIRS_KEYWORDS | TUPLES_KEYWORDS | MIXED_KEYWORDS  # written by directabilities, -forms, -boards, -pairs, -tuples
_KEYWORDS |= COPIES_KEYWORDS  # written by directcopies
_KEYWORDS |= {"prefix_restored", "prefix_recorded"}  # the setup's prefix (`_Gen.setup_prefix`)
_KEYWORDS |= {"extend", "keys", "isdisjoint", "_moved_all"}  # a whole zone moved at once (`emit_move_all`)
_R_ATTR, _STATE_ATTR = re.compile(r"\bR\.(\w+)"), re.compile(r"\b_st\.(\w+)")
_R_PASSED = re.compile(r"\bR\b(?!\.)")  # the runtime handed to a helper (`_charged(R, ...)` counts work)
# what a prefix's code may call of the runtime: moves and the cards of some types
_PREFIX_CALLS = {"touched", "all_ids", "ids_of", "take_any", "mark_under", "not_a_card", "card_item", "prefix_recorded"}
_KEYWORDS |= STMTS_KEYWORDS  # written by directstmts
_KEYWORDS |= {"fired", "run_fired"}  # `fire` in two steps (`emit_fire`)


def _check_direct_source(src: str) -> None:
    """Refuse any source with a token this module does not write itself (defence in depth: no
    rule text is ever put in the source; names are numbered, values are in `K`)."""
    check_source(src, _KEYWORDS, _OWN_NAME)


_BINDING = re.compile(r"    (\w+) = ")


def _interned(v: Any) -> Any:
    """A text the generated code holds as a constant, as the one object of its value (`sys.intern`):
    the state's maps are keyed by the same objects (directgame.py `_interned`), so a key compares by
    identity, not by its characters."""
    return sys.intern(v) if type(v) is str else v


def _bind_again_function(binds: list[str], body: list[str], ns: dict) -> tuple | None:
    """`build`'s bindings of one game's runtime and state without its functions: a finished
    game's functions are all closures over `build`'s cells, so setting those cells to a new
    game's values makes them that game's (`DirectGame`'s `reuse`), without making them again
    (hundreds of closures, a tenth of a short game). Returns (`_bind_again(R, K)`, the names of the
    values it returns, in order), or None where `build` does more than bind names and define
    functions (then every game builds its own)."""
    if any(line.startswith("    ") and not line.startswith("     ") and not line.startswith("    def ")
           for line in body):
        return None
    names = []
    for line in binds:
        m = _BINDING.match(line)
        if m is None:
            return None
        names.append(m.group(1))
    consts = sorted({int(i) for line in binds for i in re.findall(r"\b_k(\d+)\b", line)})
    src = "\n".join(["def _bind_again(R, K):"] + [f"    _k{i} = K[{i}]" for i in consts] + binds +
                    ["    return (R, " + "".join(f"{n}, " for n in names) + ")"]) + "\n"
    _check_direct_source(src)
    exec(compile(src, GEN_FILE, "exec"), ns)  # noqa: S102 - build's own binding lines (checked)
    return ns["_bind_again"], ("R",) + tuple(names)


def _helpers() -> dict:
    return GENERATED_GLOBALS
