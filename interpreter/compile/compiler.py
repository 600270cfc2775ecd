"""Compile checked AST nodes into Python closures, once per ruleset.

Expressions become `f(g, e) -> value`; statements become functions `s(g, e)` that do their work
at once, or return tasks (tasks.py) for the game's stack when they loop, call, fire events or
need a decision. `g` is the running `Game`, `e` the local environment (a dict: `you`, `this`,
`it`, variables). Rule code never becomes Python source.
"""
from __future__ import annotations

import operator
from typing import Any, Callable

from ..language.tree import Node
from ..library import BUILTINS
from ..library.names import SPECIAL_NAMES
from ..runtime.errors import Break, Continue, LimitExceeded, RuleError, value_words
from ..runtime.fields import read_field
from .tasks import (ActionsTask, AskTask, Block, ChooseManyTask, ForTask, IfMayTask, PlaceTask, RepeatTask,
                    RoundTask, SimultaneousTask, TurnTask, run_inline)
from ..content.model import CardData, Ruleset
from ..runtime.memory import MAX_ITEMS, built_value
from ..runtime.values import Seat, TypeRef, ZoneRef
from .fastpaths import item_predicate
from . import codegen as _codegen
from .codegen import generate, generate_statement
from .syncblocks import is_sync, run_block, run_for

__all__ = ["Compiler", "Expr", "Stmt"]

Expr = Callable[[Any, dict], Any]
Stmt = Callable[[Any, dict], Any]

_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
            ">": operator.gt, ">=": operator.ge}
MAX_INT = 2 ** 63  # the largest number a multiplication may make
_UNSET = object()


class Compiler:
    """Turns nodes into closures; one instance per ruleset (closures are cached on nodes)."""

    def __init__(self, rs: Ruleset):
        self.rs = rs
        self.enum_values = rs.enum_values()
        self._functions: dict[str, list] = {}  # name → [params, compiled body], filled on first use

    def is_local(self, name: str) -> bool:
        """Whether a rule's `name` reads a variable of the environment (not a zone, stat, constant,
        special name, type or enumerated value), e.g. the item a filter binds."""
        if name in ("you", "this", "it"):
            return True
        rs = self.rs
        return not (name in rs.zones or name in rs.stats or name in rs.constants or name in SPECIAL_NAMES or
                    name in rs.card_types or name in rs.die_types or name in self.enum_values)

    def _function(self, name: str) -> list:
        """A user function, compiled once; the holder exists before its body so recursion works."""
        holder = self._functions.get(name)
        if holder is None:
            node = self.rs.functions[name]
            holder = self._functions[name] = [node.params, None, node]
            holder[1] = self.expr(node.expr)
        return holder

    # ---- expressions ---------------------------------------------------------------------
    generate = True  # whole expressions become generated functions (codegen.py) where they can
    _generating = 0

    def expr(self, n: Node) -> Expr:
        if self.generate and not self._generating:
            self._generating += 1
            try:
                fast = generate(self, n)
            finally:
                self._generating -= 1
            if fast is not None:
                return fast
        f = getattr(self, "x_" + n.kind, None)
        if f is not None:
            return f(n)
        if hasattr(n, "compile"):  # a construct that compiles itself (language/tree.py `Compiles`)
            return n.compile(self)
        raise RuleError(f"`{n.kind}` cannot be used as a value here", n.loc)

    def x_lit(self, n):
        v = n.value
        return lambda g, e: v

    def x_list(self, n):
        items, loc = [self.expr(i) for i in n.items], n.loc
        return lambda g, e: built_value(g, [f(g, e) for f in items], loc)

    def x_map(self, n):
        pairs, loc = [(self.expr(k), self.expr(v)) for k, v in n.pairs], n.loc
        return lambda g, e: built_value(g, {k(g, e): v(g, e) for k, v in pairs}, loc)

    def x_range(self, n):
        lo, hi = self.expr(n.lo), self.expr(n.hi)

        def rng(g, e):
            a, b = lo(g, e), hi(g, e)
            if b - a >= MAX_ITEMS:
                raise RuleError(f"the range {a}..{b} is too long (at most {MAX_ITEMS} numbers)", n.loc)
            _charge(g, b - a + 1, n)
            return list(range(a, b + 1))
        return rng

    def x_name(self, n):
        name, rs = n.id, self.rs
        if name in rs.zones:
            z = rs.zones[name]
            if z.per_player:
                return lambda g, e: ZoneRef(name, e["you"])  # checker requires `of` except where `you` is meant
            ref = ZoneRef(name, None)
            return lambda g, e: ref
        if name in rs.stats:
            return lambda g, e: g.state.stats[name]
        if name in rs.constants:
            return lambda g, e: g.constants[name]
        if name in SPECIAL_NAMES:
            return self._special(name)
        if name in rs.card_types or name in rs.die_types:
            t = TypeRef(name)
            return lambda g, e: t
        if name in self.enum_values:
            return lambda g, e: name

        def local(g, e):
            try:
                return e[name]
            except KeyError:
                raise RuleError(f"`{name}` has no value here", n.loc) from None
        return local

    def _special(self, name):
        if name == "true":
            return lambda g, e: True
        if name == "false":
            return lambda g, e: False
        if name == "none":
            return lambda g, e: None
        if name in ("you", "this", "it"):
            return lambda g, e: e.get(name)
        if name == "players":
            return lambda g, e: g.seats
        if name == "player_count":
            return lambda g, e: g.state.players
        if name == "start_player":
            return lambda g, e: Seat(g.state.start_player)
        if name == "active_player":
            return lambda g, e: Seat(g.state.active)
        if name == "turn_number":
            return lambda g, e: g.state.turn_number
        return lambda g, e: g.state.round_number

    def x_of(self, n):
        name, owner = n.name, self.expr(n.owner)
        if name in self.rs.zones:
            def zone_of(g, e):
                o = owner(g, e)
                if isinstance(o, list):  # `trove of other_players()`: the cards of all of them
                    return [c for p in o for c in g.listify(ZoneRef(name, int(p)))]
                if o is None:
                    raise RuleError(f"`{name} of ...` needs a player, got nothing", n.loc)
                return ZoneRef(name, int(o))
            return zone_of
        if name in self.rs.stats:
            def stat_of(g, e):
                o = owner(g, e)
                if isinstance(o, list):
                    return [g.state.pstats[p][name] for p in o]
                return g.state.pstats[o][name]
            return stat_of
        if name in BUILTINS:
            fn = BUILTINS[name].fn
            return lambda g, e: fn(g, e, owner(g, e))
        raise RuleError(f"`{name}` is not a zone or player stat", n.loc)

    def x_attr(self, n):
        obj, name = self.expr(n.obj), n.name
        stats = self.rs.stats
        card_types = self.rs.card_types

        def get(g, e):
            o = obj(g, e)
            return read_field(g, o, name, stats, card_types)
        return _fast_attr(obj, name, stats, card_types) or get

    def x_index(self, n):
        obj, key = self.expr(n.obj), self.expr(n.key)
        return lambda g, e: obj(g, e)[key(g, e)]

    def x_call(self, n):
        if n.func in self.rs.functions:
            return self._call_function(n)
        if n.func in self.rs.procedures:
            raise RuleError(f"procedure `{n.func}` is a statement, not a value", n.loc)
        b = BUILTINS.get(n.func)
        if b is None:
            raise RuleError(f"unknown function `{n.func}`", n.loc)
        args = [self.expr(a) for a in n.args]
        fn = b.fn
        if not args:
            return lambda g, e: fn(g, e)
        if len(args) == 1:
            a0 = args[0]
            return lambda g, e: fn(g, e, a0(g, e))
        return lambda g, e: fn(g, e, *[a(g, e) for a in args])

    def _call_function(self, n):
        holder, args, loc = self._function(n.func), [self.expr(a) for a in n.args], n.loc
        if len(args) != len(holder[0]):
            raise RuleError(f"`{n.func}` takes {len(holder[0])} argument(s), got {len(args)}", loc)

        call_fn = _codegen.call_rule_function  # one calling convention for closures and generated code
        return lambda g, e: call_fn(g, e, holder, [a(g, e) for a in args])

    def x_arith(self, n):
        left, right, op = self.expr(n.left), self.expr(n.right), n.op
        if op == "+":
            return lambda g, e: g.add(left(g, e), right(g, e))
        if op == "-":
            return lambda g, e: g.sub(left(g, e), right(g, e))
        if op == "*":
            def mul(g, e):
                a, b = left(g, e), right(g, e)
                if not isinstance(a, int) or not isinstance(b, int):
                    raise RuleError(f"only numbers can be multiplied, not {value_words(a)} and {value_words(b)}", n.loc)
                out = a * b
                if not -MAX_INT <= out <= MAX_INT:
                    raise RuleError(f"the number {a} * {b} is too large", n.loc)
                return out
            return mul
        if op == "/":
            return lambda g, e: left(g, e) // right(g, e)
        return lambda g, e: left(g, e) % right(g, e)

    def _enum_side(self, side: Node, other: Node):
        """In `x.field == V`, `V` means the enumeration value even where a stat shares the name."""
        if other.kind == "attr" and side.kind == "name" and side.id in self.enum_values and \
                any(f == other.name for _, f in self.enum_values[side.id]):
            v = side.id
            return lambda g, e: v
        return self.expr(side)

    def x_compare(self, n):
        left, right, op = self._enum_side(n.left, n.right), self._enum_side(n.right, n.left), _COMPARE[n.op]
        if n.op in ("==", "!="):
            return lambda g, e: op(left(g, e), right(g, e))

        def ordered(g, e):
            a, b = left(g, e), right(g, e)
            if a is None or b is None:
                return False  # unknown values (a covered card's fields) never compare
            return op(a, b)
        return ordered

    def x_in(self, n):
        item, coll = self.expr(n.item), self.expr(n.coll)
        return lambda g, e: item(g, e) in g.charged_list(coll(g, e))

    def x_is(self, n):
        f, what, neg = self.expr(n.expr), n.what, n.negate
        if what == "empty":
            test = lambda g, v: len(g.listify(v)) == 0  # noqa: E731
        elif what == "covered":
            test = lambda g, v: isinstance(v, CardData) and g.state.where.get(v.id, "").startswith("^")  # noqa
        elif what in ("none", "unknown"):
            test = lambda g, v: v is None  # noqa: E731
        elif what == "dummy":
            test = lambda g, v: isinstance(v, Seat) and g.is_dummy(v)  # noqa: E731
        elif what in self.rs.card_types or what in self.rs.die_types:
            test = lambda g, v: isinstance(v, CardData) and v.type == what  # noqa: E731
        else:
            raise RuleError(f"`is {what}`: expected a card type, `empty`, `covered` or `none`", n.loc)
        if neg:
            return lambda g, e: not test(g, f(g, e))
        return lambda g, e: test(g, f(g, e))

    def x_can_place(self, n):
        what, zone = self.expr(n.what), self.expr(n.zone)
        def can(g, e):
            card = what(g, e)
            return isinstance(card, CardData) and bool(g.legal_positions(card, zone(g, e), e))
        return can

    def x_not(self, n):
        f = self.expr(n.expr)
        return lambda g, e: not f(g, e)

    def x_and(self, n):
        fs = [self.expr(i) for i in n.items]
        return lambda g, e: all(f(g, e) for f in fs)

    def x_or(self, n):
        fs = [self.expr(i) for i in n.items]
        return lambda g, e: any(f(g, e) for f in fs)

    def x_if_expr(self, n):
        then, cond, orelse = self.expr(n.then), self.expr(n.cond), self.expr(n.orelse)
        return lambda g, e: then(g, e) if cond(g, e) else orelse(g, e)

    def x_where(self, n):
        items, cond = self.expr(n.items), self.expr(n.cond)
        fast = _fast_where(self, n, items)
        if fast is not None:
            return fast

        def where(g, e):
            saved = e.get("it", _UNSET)
            out = []
            xs = g.listify(items(g, e))
            _charge(g, len(xs), n)
            try:
                for x in xs:
                    e["it"] = x
                    if cond(g, e):
                        out.append(x)
            finally:
                _restore(e, ["it"], [saved])
            return out
        return where

    def x_quantified(self, n):
        names, it, cond, q = n.names, self.expr(n.iter), self.expr(n.cond), n.quantifier
        fast = _fast_quantified(self, n, it)
        if fast is not None:
            return fast

        def bind(e, x):
            if len(names) == 1:
                e[names[0]] = x
            else:
                if not isinstance(x, (list, tuple)) or len(x) != len(names):
                    raise RuleError(f"each item must be a group of {len(names)} to bind {', '.join(names)}", n.loc)
                for name, v in zip(names, x):
                    e[name] = v

        def test(g, e):
            xs = g.listify(it(g, e))
            _charge(g, len(xs), n)
            for x in xs:
                bind(e, x)
                if cond(g, e):
                    if q == "some":
                        return True
                    if q == "no":
                        return False
                elif q == "every":
                    return False
            return q != "some"

        def quant(g, e):  # the bound names are local to the expression
            saved = [e.get(name, _UNSET) for name in names]
            try:
                return test(g, e)
            finally:
                _restore(e, names, saved)
        return quant

    def x_comprehension(self, n):
        body, name, it = self.expr(n.expr), n.name, self.expr(n.iter)

        def comp(g, e):
            out = []
            saved = e.get(name, _UNSET)
            xs = g.listify(it(g, e))
            _charge(g, len(xs), n)
            try:
                for x in xs:
                    e[name] = x
                    out.append(body(g, e))
            finally:
                _restore(e, [name], [saved])
            return built_value(g, out, n.loc)
        return comp

    # ---- statements ----------------------------------------------------------------------
    # A statement compiles to `run(g, env)`, which does its work at once and returns None, or
    # returns a task (see tasks.py) that the game pushes on its stack: loops, decisions, calls.
    def block(self, stmts: list[Node]) -> Block:
        loc = stmts[0].loc if stmts else None
        return Block(tuple((self.stmt(s), s) for s in stmts), loc)

    def stmt(self, n: Node):
        f = getattr(self, "s_" + n.kind, None)
        if f is None:
            raise RuleError(f"`{n.kind}` is not a statement", n.loc)
        return f(n)

    def s_pass(self, n):
        return lambda g, e: None

    def s_let(self, n):
        f, name = self.expr(n.expr), n.name

        def run(g, e):
            e[name] = f(g, e)
        return run

    def _assign(self, target: Node):
        """A function (g, e, value) that stores into a variable, stat or player stat."""
        rs = self.rs
        if target.kind == "name":
            name = target.id
            if name in rs.stats and not rs.stats[name].per_player:
                sd = rs.stats[name]

                def set_global(g, e, v):
                    v = sd.clamp(v) if isinstance(v, int) else v
                    stats = g.state.stats
                    if stats[name] is not v and (stats[name] != v or type(stats[name]) is not type(v)):
                        stats[name] = v
                        g.touch(name)  # only a real change makes state-based rules look again
                return set_global
            if name == "start_player":
                def set_start(g, e, v):
                    g.state.start_player = int(v)
                    g.touched = None
                    g.dirty = True
                return set_start
            if name in rs.stats or name in rs.zones or name in rs.constants:
                raise RuleError(f"`{name}` cannot be assigned here", target.loc)

            def set_local(g, e, v):
                e[name] = v
            return set_local
        if target.kind in ("attr", "of"):
            stat = target.name
            owner = self.expr(target.obj if target.kind == "attr" else target.owner)
            if stat not in rs.stats or not rs.stats[stat].per_player:
                raise RuleError(f"`{stat}` is not a player stat", target.loc)
            sd = rs.stats[stat]

            def set_pstat(g, e, v):
                who = owner(g, e)
                v = sd.clamp(v) if isinstance(v, int) else v
                for p in (who if isinstance(who, list) else [who]):
                    stats = g.state.pstats[p]
                    if stats[stat] is not v and (stats[stat] != v or type(stats[stat]) is not type(v)):
                        stats[stat] = v
                        g.touch(f"{stat}#{int(p)}")  # the stat and its instance (instancedeps.py)
            return set_pstat
        raise RuleError("only a variable, a stat or a player's stat can be set", target.loc)

    def s_set(self, n):
        store, f = self._assign(n.target), self.expr(n.expr)
        return lambda g, e: store(g, e, f(g, e))

    def s_aug(self, n):
        store, cur, f, plus = self._assign(n.target), self.expr(n.target), self.expr(n.expr), n.op == "+="

        def run(g, e):
            v, old = f(g, e), cur(g, e)
            store(g, e, g.add(old, v) if plus else g.sub(old, v))
        return run

    def s_move(self, n):
        what, dest, name, bottom = self.expr(n.what), self.expr(n.dest), n.name, n.position == "at bottom"
        loc = n.loc

        def run(g, e):
            moved = g.move(what(g, e), dest(g, e), bottom, loc)
            if name:
                e[name] = moved[0] if len(moved) == 1 else moved
        return run

    def s_draw(self, n):
        count = self.expr(n.count) if n.count is not None else None
        src, dest, name, loc = self.expr(n.source), self.expr(n.dest), n.name, n.loc

        def run(g, e):
            k = count(g, e) if count else 1
            pile = g.listify(src(g, e))
            cards = list(reversed(pile[-k:])) if k > 0 else []
            g.move(cards, dest(g, e), False, loc)
            if name:
                e[name] = (cards[0] if cards else None) if count is None else cards
            return g.fire_tasks("drawn", cards, e.get("you"), loc)
        return run

    def s_place(self, n):
        what, zone, loc = self.expr(n.what), self.expr(n.zone), n.loc

        def run(g, e):
            card, z = what(g, e), zone(g, e)
            positions = g.legal_positions(card, z, e)
            if not positions:
                raise RuleError(f"{card.label()} cannot be placed in {z}", loc)
            return PlaceTask(card, z, positions, e, loc)
        return run

    def s_cover(self, n):
        what, target, loc = self.expr(n.what), self.expr(n.target), n.loc

        def run(g, e):
            card = what(g, e)
            g.cover(card, target(g, e), loc)
            return g.fire_task("placed", card, e.get("you"), loc)
        return run

    def s_shuffle(self, n):
        zone, loc = self.expr(n.zone), n.loc
        return lambda g, e: g.shuffle(zone(g, e), loc)

    def s_fire(self, n):
        event = n.event
        subject = self.expr(n.subject) if n.subject is not None else None
        actor = self.expr(n.actor) if n.actor is not None else None

        def run(g, e):
            return g.fire_task(event, subject(g, e) if subject else None, actor(g, e) if actor else e.get("you"),
                               n.loc)
        return run

    def s_choose(self, n):
        player, options, name, prompt, loc = self.expr(n.player), self.expr(n.options), n.name, n.prompt, n.loc
        prompt = prompt or f"Choose {name}"
        if n.count is not None:
            mode = n.count.mode
            count = self.expr(n.count.n) if n.count.n is not None else None

            def run_many(g, e):
                opts = list(g.listify(options(g, e)))
                return ChooseManyTask(player(g, e), mode, count(g, e) if count else None, prompt, opts, name, e, loc)
            return run_many

        def run(g, e):
            opts = list(g.listify(options(g, e)))  # a snapshot, not the live zone
            if not opts:
                raise RuleError("there is nothing to choose from", loc)
            if len(opts) == 1:
                if g.observer is not None:  # a scenario asserts the decision it was not asked
                    g.ask(player(g, e), "choose", prompt, opts, loc)
                e[name] = opts[0]
                return None
            return AskTask(player(g, e), "choose", prompt, opts, None, name, e, loc)
        return run

    def s_simul_choose(self, n):
        players, options, name, var, loc = self.expr(n.players), self.expr(n.options), n.name, n.var, n.loc
        prompt = n.prompt or f"Choose {name}"
        mode = n.count.mode if n.count is not None else None
        count = self.expr(n.count.n) if n.count is not None and n.count.n is not None else None

        def run(g, e):
            who = players(g, e)
            asks = []
            for p in (g.listify(who) if isinstance(who, list) else [who]):
                if not isinstance(p, Seat):
                    raise RuleError(f"`simultaneously each {var} in ...` needs players, got {g.text(p)}", loc)
                pe = dict(e)
                pe[var] = p
                # every player's options come from the same state, before anyone answers
                asks.append((p, list(g.listify(options(g, pe))), count(g, pe) if count else None))
            return SimultaneousTask(asks, mode, prompt, name, e, loc)
        return run

    def s_roll(self, n):
        dice, loc = self.expr(n.dice), n.loc
        return lambda g, e: g.roll(dice(g, e), e.get("you"), loc)

    def s_gain(self, n):
        return self._gain_lose(n, +1)

    def s_lose(self, n):
        return self._gain_lose(n, -1)

    def _gain_lose(self, n, sign):
        player, amount, stat, loc = self.expr(n.player), self.expr(n.amount), n.stat, n.loc
        if stat not in self.rs.stats or not self.rs.stats[stat].per_player:
            raise RuleError(f"`{stat}` is not a player stat", n.stat_loc)

        def run(g, e):
            who = player(g, e)
            tasks = []
            for p in (who if isinstance(who, list) else [who]):
                tasks += g.change_stat(p, stat, sign * amount(g, e), loc)
            return tasks or None
        return run

    def s_take_actions(self, n):
        player, loc, done = self.expr(n.player), n.loc, n.done
        sources = self.expr(n.sources) if n.sources is not None else None
        return lambda g, e: ActionsTask(player(g, e), sources(g, e) if sources else None, done, loc)

    def s_break(self, n):
        def run(g, e):
            raise Break()
        return run

    def s_continue(self, n):
        def run(g, e):
            raise Continue()
        return run

    def s_end_game(self, n):
        after, cap = n.after, n.cap  # `... by cap`: the result says the game was stopped by a cap
        no_win = n.no_winner  # `... with no winner`: the result lists no winner
        all_win = getattr(n, "all_win", False)  # `... with every player winning`: a team win
        if getattr(n, "reason", None) is None:
            def bare(g, e):
                g.state.end_cap = cap
                g.state.no_winner = no_win
                g.state.all_win = all_win
                g.end_game(after)
            return bare
        why = self.expr(n.reason)  # `end game "reason"`: the result and simulate reports name it

        def run(g, e):
            g.state.end_reason = g.text(why(g, e))
            g.state.end_cap = cap
            g.state.no_winner = no_win
            g.state.all_win = all_win
            g.end_game(after)
        return run

    def s_play_turn(self, n):
        player = self.expr(n.player)
        return lambda g, e: TurnTask(player(g, e))

    def s_add_dummy(self, n):
        name = n.name

        def run(g, e):
            seat = g.add_dummy()
            if name:
                e[name] = seat
        return run

    def s_play_round(self, n):
        return lambda g, e: RoundTask()

    def s_log(self, n):
        f = self.expr(n.expr)
        return lambda g, e: g.write_log(g.text(f(g, e)))

    def s_call_stmt(self, n):
        x = n.expr
        if x.kind != "call" or x.func not in self.rs.procedures:
            raise RuleError("a line on its own must call a procedure", n.loc)
        args = [self.expr(a) for a in x.args]
        name = x.func

        def run(g, e):
            return g.call_task(name, [a(g, e) for a in args], e, n.loc)
        return run

    def s_if(self, n):
        if any(c.kind == "may" for c, _ in n.branches):
            branches = tuple(((("may_not" if getattr(c, "negate", False) else "may", self.expr(c.player), c.prompt)
                               if c.kind == "may" else
                               ("plain", self.expr(c), None)), self.block(b)) for c, b in n.branches)
            orelse = self.block(n.orelse) if n.orelse else None
            return lambda g, e: IfMayTask(branches, orelse, e, n.loc)
        plain = [(self.expr(c), self.block(b)) for c, b in n.branches]
        orelse = self.block(n.orelse) if n.orelse else None
        if is_sync([n]):
            return _sync_if(plain, orelse, generate_statement(self, n) if self.generate else None)

        def run(g, e):  # the chosen body runs at once while it can (inline.py)
            for cond, body in plain:
                if cond(g, e):
                    return run_inline(g, body, e)
            return run_inline(g, orelse, e) if orelse is not None else None
        return run

    def s_for(self, n):
        it, name, body = self.expr(n.iter), n.name, self.block(n.body)
        if is_sync([n]):
            return _sync_for(it, name, body, generate_statement(self, n) if self.generate else None)
        return lambda g, e: ForTask(list(g.listify(it(g, e))), name, body, e)

    def s_repeat(self, n):
        body = self.block(n.body)
        times = self.expr(n.times) if n.times is not None else None
        cond = self.expr(n.cond) if n.cond is not None else None
        return lambda g, e: RepeatTask(times(g, e) if times else None, cond, body, e)


# ---- fast paths (fastpaths.py): same results, fewer calls; None keeps the general closure ----
def _sync_if(plain: list, orelse: Block | None, fast: Stmt | None = None) -> Stmt:
    """A plain `if` whose bodies never need the stack: run at once while settling (syncblocks.py),
    by its generated function where there is one (codegen.generate_statement)."""
    def run(g, e):
        if fast is not None and g.settling:
            return fast(g, e)
        for cond, body in plain:
            if cond(g, e):
                if g.settling:
                    return run_block(g, e, body.stmts)
                return run_inline(g, body, e)
        if orelse is None:
            return None
        if g.settling:
            return run_block(g, e, orelse.stmts)
        return run_inline(g, orelse, e)
    return run


def _sync_for(it: Expr, name: str, body: Block, fast: Stmt | None = None) -> Stmt:
    def run(g, e):
        if fast is not None and g.settling:
            return fast(g, e)
        items = list(g.listify(it(g, e)))
        if g.settling:
            return run_for(g, e, items, name, body.stmts)
        return ForTask(items, name, body, e)
    return run


def _fast_where(c: Compiler, n: Node, items: Expr) -> Expr | None:
    """`xs where cond` with the condition as an item predicate: the item is never bound in `e`."""
    pred = item_predicate(c, n.cond, ("it",))
    if pred is None:
        return None

    def where(g, e):
        xs = g.listify(items(g, e))
        _charge(g, len(xs), n)
        return [x for x in xs if pred(g, e, x)]
    return where


def _fast_quantified(c: Compiler, n: Node, it: Expr) -> Expr | None:
    names, q = tuple(n.names), n.quantifier
    pred = item_predicate(c, n.cond, names)
    if pred is None:
        return None
    several = len(names) > 1

    def quant(g, e):
        xs = g.listify(it(g, e))
        _charge(g, len(xs), n)
        for x in xs:
            if several and (not isinstance(x, (list, tuple)) or len(x) != len(names)):
                raise RuleError(f"each item must be a group of {len(names)} to bind {', '.join(names)}", n.loc)
            if pred(g, e, x):
                if q == "some":
                    return True
                if q == "no":
                    return False
            elif q == "every":
                return False
        return q != "some"
    return quant


def _fast_attr(obj: Expr, name: str, stats, card_types) -> Expr | None:
    """`x.field`: a card's field read directly; a zone's top cards (never covered) field by field."""
    if name in ("face", "name"):
        return None

    def get(g, e):
        o = obj(g, e)
        if o.__class__ is CardData:
            if g.state.where.get(o.id, "")[:1] == "^":
                return None  # a covered card's fields are unknown to the rules
            return o.fields.get(name)
        if o.__class__ is ZoneRef:
            return [x.fields.get(name) for x in g.listify(o)]
        return read_field(g, o, name, stats, card_types)
    return get




def _charge(g, items: int, n: Node) -> None:
    """Count the items an expression visits: expressions run no statements, so nested
    comprehensions could otherwise loop for ever without touching the step limit."""
    g.work += items
    if g.work > g.limits.max_work:
        raise LimitExceeded(f"expressions visited more than {g.limits.max_work} items: "
                            f"a rule seems to run forever", n.loc)


def _restore(e: dict, names: list, saved: list) -> None:
    for name, old in zip(names, saved):
        if old is _UNSET:
            e.pop(name, None)
        else:
            e[name] = old


