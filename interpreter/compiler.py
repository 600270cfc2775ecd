"""Compile checked AST nodes into Python closures, once per ruleset.

Expressions become `f(g, e) -> value`; statements become generator functions `s(g, e)` that
yield `Decision`s whenever a player must choose. `g` is the running `Game`, `e` the local
environment (a dict: `you`, `this`, `it`, variables). Rule code never becomes Python source.
"""
from __future__ import annotations

import operator
from typing import Any, Callable, Iterator

from .ast import Node
from .builtins import BUILTINS
from .errors import Break, Continue, GameOver, LimitExceeded, RuleError
from .model import CardData, Ruleset
from .values import RowRef, Seat, TypeRef, ZoneRef

__all__ = ["Compiler", "Expr", "Stmt"]

Expr = Callable[[Any, dict], Any]
Stmt = Callable[[Any, dict], Iterator]

_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
            ">": operator.gt, ">=": operator.ge}
MAX_ITEMS = 1_000_000  # the longest list or text a rule may build (untrusted content)
MAX_INT = 2 ** 63  # the largest number a multiplication may make
_UNSET = object()

SPECIAL_NAMES = {"you", "this", "it", "players", "player_count", "start_player", "active_player",
                 "true", "false", "none", "turn_number", "round_number"}


class Compiler:
    """Turns nodes into closures; one instance per ruleset (closures are cached on nodes)."""

    def __init__(self, rs: Ruleset):
        self.rs = rs
        self.enum_values = rs.enum_values()

    # ---- expressions ---------------------------------------------------------------------
    def expr(self, n: Node) -> Expr:
        f = getattr(self, "x_" + n.kind, None)
        if f is None:
            raise RuleError(f"`{n.kind}` cannot be used as a value here", n.loc)
        return f(n)

    def x_lit(self, n):
        v = n.value
        return lambda g, e: v

    def x_list(self, n):
        items = [self.expr(i) for i in n.items]
        return lambda g, e: [f(g, e) for f in items]

    def x_map(self, n):
        pairs = [(self.expr(k), self.expr(v)) for k, v in n.pairs]
        return lambda g, e: {k(g, e): v(g, e) for k, v in pairs}

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
        if name in rs.card_types:
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
            return _attr(g, o, name, stats, card_types)
        return get

    def x_index(self, n):
        obj, key = self.expr(n.obj), self.expr(n.key)
        return lambda g, e: obj(g, e)[key(g, e)]

    def x_call(self, n):
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

    def x_arith(self, n):
        left, right, op = self.expr(n.left), self.expr(n.right), n.op
        if op == "+":
            def add(g, e):
                a, b = left(g, e), right(g, e)
                if isinstance(a, list) or isinstance(b, list):
                    out = g.listify(a) + g.listify(b)
                else:
                    out = a + b
                    if out.__class__ is not str:
                        return out
                if len(out) > MAX_ITEMS:
                    raise RuleError(f"a list or text longer than {MAX_ITEMS} items", n.loc)
                return out
            return add
        if op == "-":
            return lambda g, e: left(g, e) - right(g, e)
        if op == "*":
            def mul(g, e):
                a, b = left(g, e), right(g, e)
                if not isinstance(a, int) or not isinstance(b, int):
                    raise RuleError(f"only numbers can be multiplied, not {a!r} and {b!r}", n.loc)
                out = a * b
                if not -MAX_INT <= out <= MAX_INT:
                    raise RuleError(f"the number {a} * {b} is too large", n.loc)
                return out
            return mul
        if op == "/":
            return lambda g, e: left(g, e) // right(g, e)
        return lambda g, e: left(g, e) % right(g, e)

    def x_neg(self, n):
        f = self.expr(n.expr)
        return lambda g, e: -f(g, e)

    def x_compare(self, n):
        left, right, op = self.expr(n.left), self.expr(n.right), _COMPARE[n.op]
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
        return lambda g, e: item(g, e) in g.listify(coll(g, e))

    def x_is(self, n):
        f, what, neg = self.expr(n.expr), n.what, n.negate
        if what == "empty":
            test = lambda g, v: len(g.listify(v)) == 0  # noqa: E731
        elif what == "covered":
            test = lambda g, v: isinstance(v, CardData) and g.state.where.get(v.id, "").startswith("^")  # noqa
        elif what in ("none", "unknown"):
            test = lambda g, v: v is None  # noqa: E731
        elif what in self.rs.card_types:
            test = lambda g, v: isinstance(v, CardData) and v.type == what  # noqa: E731
        else:
            raise RuleError(f"`is {what}`: expected a card type, `empty`, `covered` or `none`", n.loc)
        if neg:
            return lambda g, e: not test(g, f(g, e))
        return lambda g, e: test(g, f(g, e))

    def x_can_place(self, n):
        what, zone = self.expr(n.what), self.expr(n.zone)
        return lambda g, e: bool(g.legal_positions(what(g, e), zone(g, e), e))

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
            return out
        return comp

    # ---- statements ----------------------------------------------------------------------
    def block(self, stmts: list[Node]) -> Stmt:
        compiled = [(self.stmt(s), s) for s in stmts]

        def run(g, e):
            for s, node in compiled:
                g.step(node)
                try:
                    yield from s(g, e)
                except (RuleError, Break, Continue, GameOver):
                    raise
                except RecursionError:
                    raise LimitExceeded("rules nest too deeply for the interpreter (endless recursion?)",
                                        node.loc) from None
                except Exception as ex:  # a content bug, not ours: name the rule
                    raise RuleError(_explain(ex), node.loc) from None
                if g.dirty and not g.settling:
                    yield from g.settle()
        return run

    def stmt(self, n: Node) -> Stmt:
        f = getattr(self, "s_" + n.kind, None)
        if f is None:
            raise RuleError(f"`{n.kind}` is not a statement", n.loc)
        return f(n)

    def s_pass(self, n):
        def run(g, e):
            return
            yield
        return run

    def s_let(self, n):
        f, name = self.expr(n.expr), n.name

        def run(g, e):
            e[name] = f(g, e)
            return
            yield
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
                        g.touch(stat)
            return set_pstat
        raise RuleError("only a variable, a stat or a player's stat can be set", target.loc)

    def s_set(self, n):
        store, f = self._assign(n.target), self.expr(n.expr)

        def run(g, e):
            store(g, e, f(g, e))
            return
            yield
        return run

    def s_aug(self, n):
        store, cur, f, sign = self._assign(n.target), self.expr(n.target), self.expr(n.expr), n.op

        def run(g, e):
            v = f(g, e)
            store(g, e, cur(g, e) + v if sign == "+=" else cur(g, e) - v)
            return
            yield
        return run

    def s_move(self, n):
        what, dest, name, bottom = self.expr(n.what), self.expr(n.dest), n.name, n.position == "at bottom"
        loc = n.loc

        def run(g, e):
            moved = g.move(what(g, e), dest(g, e), bottom, loc)
            if name:
                e[name] = moved[0] if len(moved) == 1 else moved
            return
            yield
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
            for c in cards:
                yield from g.fire("drawn", c, e.get("you"), loc)
        return run

    def s_place(self, n):
        what, zone, loc = self.expr(n.what), self.expr(n.zone), n.loc

        def run(g, e):
            card, z = what(g, e), zone(g, e)
            positions = g.legal_positions(card, z, e)
            if not positions:
                raise RuleError(f"{card.label()} cannot be placed in {z}", loc)
            pos = yield from g.decide(e.get("you"), "place", f"Where does {card.label()} go?", positions, loc)
            g.place(card, z, pos, loc)
            yield from g.fire("placed", card, e.get("you"), loc)
        return run

    def s_cover(self, n):
        what, target, loc = self.expr(n.what), self.expr(n.target), n.loc

        def run(g, e):
            card = what(g, e)
            g.cover(card, target(g, e), loc)
            yield from g.fire("placed", card, e.get("you"), loc)
        return run

    def s_shuffle(self, n):
        zone, loc = self.expr(n.zone), n.loc

        def run(g, e):
            g.shuffle(zone(g, e), loc)
            return
            yield
        return run

    def s_fire(self, n):
        event = n.event
        subject = self.expr(n.subject) if n.subject is not None else None
        actor = self.expr(n.actor) if n.actor is not None else None

        def run(g, e):
            yield from g.fire(event, subject(g, e) if subject else None, actor(g, e) if actor else e.get("you"), n.loc)
        return run

    def s_choose(self, n):
        player, options, name, prompt, loc = self.expr(n.player), self.expr(n.options), n.name, n.prompt, n.loc

        def run(g, e):
            opts = list(g.listify(options(g, e)))  # a snapshot, not the live zone
            if not opts:
                raise RuleError("there is nothing to choose from", loc)
            e[name] = yield from g.decide(player(g, e), "choose", prompt or f"Choose {name}", opts, loc)
        return run

    def s_break(self, n):
        def run(g, e):
            raise Break()
            yield
        return run

    def s_continue(self, n):
        def run(g, e):
            raise Continue()
            yield
        return run

    def s_end_game(self, n):
        after = n.after

        def run(g, e):
            g.end_game(after)
            return
            yield
        return run

    def s_play_turn(self, n):
        player = self.expr(n.player)

        def run(g, e):
            yield from g.play_turn(player(g, e))
        return run

    def s_play_round(self, n):
        def run(g, e):
            yield from g.play_round()
        return run

    def s_log(self, n):
        f = self.expr(n.expr)

        def run(g, e):
            g.log.append(str(f(g, e)))
            return
            yield
        return run

    def s_call_stmt(self, n):
        x = n.expr
        if x.kind != "call" or x.func not in self.rs.procedures:
            raise RuleError("a line on its own must call a procedure", n.loc)
        args = [self.expr(a) for a in x.args]
        name = x.func

        def run(g, e):
            yield from g.call(name, [a(g, e) for a in args], e, n.loc)
        return run

    def _cond(self, c: Node):
        """A condition may be a decision (`P may "..."`): returns a generator function → bool."""
        if c.kind == "may":
            player, prompt, loc = self.expr(c.player), c.prompt, c.loc

            def may(g, e):
                answer = yield from g.decide(player(g, e), "may", prompt, [True, False], loc, labels=["yes", "no"])
                return answer
            return may
        f = self.expr(c)

        def plain(g, e):
            return f(g, e)
            yield
        return plain

    def s_if(self, n):
        branches = [(self._cond(c), self.block(b)) for c, b in n.branches]
        orelse = self.block(n.orelse) if n.orelse else None

        def run(g, e):
            for cond, body in branches:
                if (yield from cond(g, e)):
                    yield from body(g, e)
                    return
            if orelse:
                yield from orelse(g, e)
        return run

    def s_for(self, n):
        it, name, body = self.expr(n.iter), n.name, self.block(n.body)

        def run(g, e):
            for x in list(g.listify(it(g, e))):
                e[name] = x
                try:
                    yield from body(g, e)
                except Continue:
                    continue
                except Break:
                    break
        return run

    def s_repeat(self, n):
        body = self.block(n.body)
        times = self.expr(n.times) if n.times is not None else None
        cond = self.expr(n.cond) if n.cond is not None else None

        def run(g, e):
            k = 0
            limit = times(g, e) if times else None
            while True:
                if limit is not None and k >= limit:
                    return
                if cond is not None and not cond(g, e):
                    return
                k += 1
                try:
                    yield from body(g, e)
                except Continue:
                    continue
                except Break:
                    return
        return run


def _attr(g, o, name, stats, card_types):
    if o.__class__ is CardData:
        if g.state.where.get(o.id, "")[:1] == "^":
            return None  # a covered card's fields are unknown to the rules
        return o.fields.get(name)
    if isinstance(o, Seat):
        return g.state.pstats[o][name]
    if isinstance(o, list):
        return [_attr(g, x, name, stats, card_types) for x in o]
    if isinstance(o, TypeRef):
        for f in card_types[o.name].fields_:
            if f.name == name and f.type.kind == "enum_type":
                return list(f.type.values)
            if f.name == name and f.type.kind == "range_type":
                return list(range(f.type.lo, f.type.hi + 1))
        raise RuleError(f"card type {o.name} has no enumerated field `{name}`", None)
    if isinstance(o, (ZoneRef, RowRef)):
        return [_attr(g, x, name, stats, card_types) for x in g.listify(o)]
    if o is None:
        return None
    raise RuleError(f"a {type(o).__name__} has no field `{name}`", None)


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


def _explain(ex: Exception) -> str:
    if isinstance(ex, ZeroDivisionError):
        return "division by zero"
    if isinstance(ex, (KeyError, IndexError)):
        return f"no item {ex} here"
    if isinstance(ex, TypeError):
        return f"values of the wrong kind: {ex}"
    return f"{type(ex).__name__}: {ex}"
