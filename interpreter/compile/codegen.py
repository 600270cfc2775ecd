"""Expressions compiled to generated Python functions: one call instead of a tree of closures.

`generate(compiler, node)` returns `f(g, e)` computing exactly what the closure tree of
`compiler.expr(node)` computes, or None when the expression is too small to gain or too deep.

Untrusted rule files: **no rule text ever reaches the generated source.** Every value taken
from the rules (literals, names, fields, nodes for error locations, closures) is put in a
constants table `K` and referred to as `K[index]`; the source is made only of this module's own
fixed fragments, generated temporary names (`_i3`, `_t7`) and integer indices, and `_check_source`
verifies that with Python's tokenizer before anything is compiled. Code objects are cached by
source text (same shape, same code), so a ruleset is generated once per process.

A node kind this module does not know becomes a call of its ordinary closure (`K[i](g, e)`),
so constructs added elsewhere work unchanged. Names bound by `where`, quantifiers and
comprehensions live in Python locals here; if a part that still needs the environment mentions
such a name, the whole binding construct is left to its closure.
"""
from __future__ import annotations

import io
import operator
import re
import tokenize
from typing import Any, Callable

from ..language.tree import Node, walk
from ..library import BUILTINS
from ..library.names import SPECIAL_NAMES
from ..runtime.errors import Break, Continue, GameOver, LimitExceeded, RuleError
from ..runtime.fields import read_field
from ..content.model import CardData
from ..runtime.memory import built_value
from ..runtime.values import Seat, TypeRef, ZoneRef

__all__ = ["generate"]

MAX_DEPTH = 40  # deeper expressions stay closures (Python's own parser has nesting limits)
_CODE_CACHE: dict[str, Any] = {}


# ---- helpers the generated code calls (its only globals besides K) --------------------------
def _missing(n: Node):
    raise RuleError(f"`{n.id}` has no value here", n.loc)


def _field(g, o, name: str, stats, card_types):
    """`o.name` for anything but a card (see runtime.fields.read_field)."""
    if o.__class__ is ZoneRef:  # a zone's top cards are never covered
        if o.name not in g.program.rows_zones:
            zname, owner = o
            cards = g.cards
            return [cards[i].fields.get(name) for i in g.state.zones[zname if owner is None else f"{zname}#{owner}"]]
        return [x.fields.get(name) for x in g.listify(o)]
    if o.__class__ is list:
        where = g.state.where
        return [(None if where.get(x.id, "")[:1] == "^" else x.fields.get(name)) if x.__class__ is CardData
                else read_field(g, x, name, stats, card_types) for x in o]
    return read_field(g, o, name, stats, card_types)


def _card_field(g, o, name: str):
    return None if g.state.where.get(o.id, "")[:1] == "^" else o.fields.get(name)


def _items(g, v, n: Node) -> list:
    """`g.listify(v)`, counted against the work limit (as compiler._charge)."""
    cls = v.__class__
    if cls is list:
        xs = v
    elif cls is ZoneRef and v.name not in g.program.rows_zones:  # as g.listify, without the call
        name, owner = v
        cards = g.cards
        xs = [cards[i] for i in g.state.zones[name if owner is None else f"{name}#{owner}"]]
    else:
        xs = g.listify(v)
    g.work += len(xs)
    if g.work > g.limits.max_work:
        raise LimitExceeded(f"expressions visited more than {g.limits.max_work} items: "
                            f"a rule seems to run forever", n.loc)
    return xs


def _count(g, v) -> int:
    """`len(g.listify(v))` without building the card list of a plain zone."""
    if v.__class__ is list:
        return len(v)
    if v.__class__ is ZoneRef and v.name not in g.program.rows_zones:
        name, owner = v
        return len(g.state.zones[name if owner is None else f"{name}#{owner}"])
    return len(g.listify(v))


def _grouped(xs: list, k: int, n: Node):
    for x in xs:
        if not isinstance(x, (list, tuple)) or len(x) != k:
            names = n.names
            raise RuleError(f"each item must be a group of {len(names)} to bind {', '.join(names)}", n.loc)
        yield x


def _get(g, o, name: str, stats, card_types):
    if o.__class__ is CardData:
        return None if g.state.where.get(o.id, "")[:1] == "^" else o.fields.get(name)
    return _field(g, o, name, stats, card_types)


def _ordered(op, a, b):
    if a is None or b is None:
        return False  # unknown values (a covered card's fields) never compare
    return op(a, b)


def _is_type(v, what: str) -> bool:
    return isinstance(v, CardData) and v.type == what


# `zone of player` used at once (filtered, counted, a field read): the zone's ids are read
# directly, without making the ZoneRef that `_zone_of` returns; anything else takes that path.
def _of_ids(g, o, name: str):
    if o.__class__ is Seat and name not in g.program.rows_zones:
        return g.state.zones[f"{name}#{int(o)}"]
    return None


def _of_items(g, o, name: str, n_of: Node, n: Node) -> list:
    ids = _of_ids(g, o, name)
    if ids is None:
        return _items(g, _zone_of(g, o, name, n_of), n)
    cards = g.cards
    xs = [cards[i] for i in ids]
    g.work += len(xs)
    if g.work > g.limits.max_work:
        raise LimitExceeded(f"expressions visited more than {g.limits.max_work} items: "
                            f"a rule seems to run forever", n.loc)
    return xs


def _of_count(g, o, name: str, n_of: Node) -> int:
    ids = _of_ids(g, o, name)
    return _count(g, _zone_of(g, o, name, n_of)) if ids is None else len(ids)


def _of_field(g, o, name: str, n_of: Node, field: str, stats, card_types) -> list:
    ids = _of_ids(g, o, name)
    if ids is None:
        return _get(g, _zone_of(g, o, name, n_of), field, stats, card_types)
    cards = g.cards
    return [cards[i].fields.get(field) for i in ids]  # a zone's top cards are never covered


def _zone_of(g, o, name: str, n: Node):
    if o.__class__ is Seat:
        return ZoneRef(name, int(o))
    if isinstance(o, list):  # `zone of some players`: the cards of all of them
        return [c for p in o for c in g.listify(ZoneRef(name, int(p)))]
    if o is None:
        raise RuleError(f"`{name} of ...` needs a player, got nothing", n.loc)
    return ZoneRef(name, int(o))


def _stat_of(g, o, name: str):
    if isinstance(o, list):
        return [g.state.pstats[p][name] for p in o]
    return g.state.pstats[o][name]


def call_rule_function(g, e, holder: list, args) -> Any:
    """Call a rule function (`holder` = [params, body, node] from `Compiler._function`) with the
    argument values: its own environment (`you`, `this` and the parameters), counted against the
    depth and work limits. Closures and generated code both call it."""
    params, body, node = holder
    local = {"you": e.get("you"), "this": e.get("this")}
    for p, a in zip(params, args):
        local[p] = a
    g.depth += 1
    g.work += 1  # a call is work like an item visited: `f(n - 1) + f(n - 1)` cannot run 2 ** 40 calls
    try:
        if g.work > g.limits.max_work:
            raise LimitExceeded(f"rule functions and expressions visited more than {g.limits.max_work} items: "
                                "a rule seems to run forever", node.loc)
        if g.depth > g.limits.max_depth:
            raise LimitExceeded(f"functions nest deeper than {g.limits.max_depth} (endless recursion?)", node.loc)
        return body(g, local)
    finally:
        g.depth -= 1


_GLOBALS = {"_call_fn": call_rule_function, "_of_items": _of_items, "_of_count": _of_count, "_of_field": _of_field, "_get": _get, "_ordered": _ordered, "_is_type": _is_type, "_missing": _missing, "_field": _field, "_card_field": _card_field, "_items": _items, "_count": _count,
            "_grouped": _grouped, "_zone_of": _zone_of, "_stat_of": _stat_of, "_Card": CardData,
            "_ZoneRef": ZoneRef, "_Seat": Seat, "_isinstance": isinstance, "_len": len, "_all": all,
            "_any": any, "_int": int, "_built": built_value, "__builtins__": {}}
_ALLOWED_NAMES = set(_GLOBALS) | {"K", "g", "e", "f", "def", "return", "lambda", "if", "else", "for", "in",
                                  "not", "and", "or", "is", "None", "True", "False", "state", "where", "get",
                                  "fields", "id", "listify", "charged_list", "stats", "constants", "pstats", "seats", "add", "sub",
                                  "type", "__class__"}
_TEMP = re.compile(r"_[it]\d+\Z")
_SIMPLE = re.compile(r"_i\d+(\[\d+\])?\Z")  # an item local, or one element of a bound group
_EQ_OPS = {"==": "==", "!=": "!="}
_ORDERED = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}


def _check_source(src: str) -> None:
    """Refuse any source with a token this module does not produce itself (defence in depth)."""
    check_tokens(src, _ALLOWED_NAMES, _TEMP)


def check_tokens(src: str, names: set[str] | frozenset[str], own: re.Pattern) -> None:
    """Refuse generated source with any name but `names` and those matching `own`, any number
    but a plain integer, any string or comment: no text from the rules can be in it."""
    for tok in tokenize.generate_tokens(io.StringIO(src).readline):
        if tok.type == tokenize.NAME:
            if tok.string not in names and not own.match(tok.string):
                raise ValueError(f"unexpected name in generated code: {tok.string!r}")
        elif tok.type == tokenize.NUMBER:
            if not tok.string.isdigit():
                raise ValueError("unexpected number in generated code")
        elif tok.type in (tokenize.STRING, tokenize.COMMENT) or (tok.type == tokenize.ERRORTOKEN and
                                                                  tok.string.strip()):
            raise ValueError("unexpected token in generated code")


# The node shapes (field names) the generators below (and syncblocks.py) were written for. A node of another shape
# (say a construct that gained an option) is left to its closure, so later changes elsewhere
# can never be silently bypassed here.
SHAPES = {
    "lit": ("value",), "name": ("id",), "attr": ("obj", "name", "name_loc"), "of": ("name", "name_loc", "owner"),
    "call": ("func", "args", "name_loc"), "index": ("obj", "key"), "list": ("items",), "map": ("pairs",),
    "arith": ("op", "left", "right", "op_loc"), "neg": ("expr",), "compare": ("op", "left", "right"),
    "in": ("item", "coll"), "is": ("expr", "what", "negate", "what_loc"), "not": ("expr",), "and": ("items",),
    "or": ("items",), "if_expr": ("then", "cond", "orelse"), "where": ("items", "cond"),
    "comprehension": ("expr", "name", "iter"), "quantified": ("quantifier", "names", "iter", "cond"),
    "let": ("name", "expr", "name_loc"), "for": ("name", "iter", "body", "name_loc"), "if": ("branches", "orelse"),
}


def known_shape(n: Node) -> bool:
    return SHAPES.get(n.kind) == n.field_names


class _Fail(Exception):
    """This expression (or binding construct) is left to closures."""


class _Gen:
    def __init__(self, c):
        self.c, self.rs = c, c.rs
        self.consts: list[Any] = []
        self.bound: dict[str, str] = {}  # rule name → Python local of the item bound to it
        self.zone_items: set[str] = set()  # item locals known to be uncovered cards (from a zone's listing)
        self.temps = 0
        self.gain = 0  # nodes handled here (a tree of one node is not worth a function)

    def k(self, v: Any) -> str:
        self.consts.append(v)
        return f"K[{len(self.consts) - 1}]"

    def temp(self, prefix: str = "_t") -> str:
        self.temps += 1
        return f"{prefix}{self.temps}"

    def fallback(self, n: Node) -> str:
        if any(m.kind == "name" and m.id in self.bound for m in walk(n)):
            raise _Fail()  # the closure would read the bound name from the environment
        return f"{self.k(self.c.expr(n))}(g, e)"

    def gen(self, n: Node, depth: int = 0) -> str:
        if depth > MAX_DEPTH:
            raise _Fail()
        f = getattr(self, "g_" + n.kind, None) if known_shape(n) else None
        out = f(n, depth + 1) if f is not None else None
        if out is None:
            return self.fallback(n)
        self.gain += 1
        return out

    # ---- leaves ------------------------------------------------------------------------
    def g_lit(self, n, d):
        return self.k(n.value)

    def _local(self, name: str) -> bool:
        return self.c.is_local(name)

    def g_name(self, n, d):
        name, rs = n.id, self.rs
        if name in self.bound and self._local(name):
            return self.bound[name]
        if name in rs.zones:
            return None if rs.zones[name].per_player else self.k(ZoneRef(name, None))
        if name in rs.stats:
            return f"g.state.stats[{self.k(name)}]"
        if name in rs.constants:
            return f"g.constants[{self.k(name)}]"
        if name in ("true", "false", "none"):
            return {"true": "True", "false": "False", "none": "None"}[name]
        if name in ("you", "this", "it"):
            return f"e.get({self.k(name)})"
        if name == "players":
            return "g.seats"
        if name in SPECIAL_NAMES:
            return None
        if name in rs.card_types or name in rs.die_types:
            return self.k(TypeRef(name))
        if name in self.c.enum_values:
            return self.k(name)
        key = self.k(name)
        return f"(e[{key}] if {key} in e else _missing({self.k(n)}))"

    # ---- structure ---------------------------------------------------------------------
    def _zone_of_player(self, n: Node) -> bool:
        """`zone of P`: a zone's cards, read directly by the `_of_*` helpers."""
        return n.kind == "of" and n.name in self.rs.zones

    def g_attr(self, n, d):
        name = n.name
        if name in ("face", "name"):
            return None
        stats, cts, key = self.k(self.rs.stats), self.k(self.rs.card_types), self.k(name)
        if self._zone_of_player(n.obj):
            z = n.obj
            return (f"_of_field(g, {self.gen(z.owner, d + 1)}, {self.k(z.name)}, {self.k(z)}, {key}, {stats}, "
                    f"{cts})")
        o = self.gen(n.obj, d)
        if o in self.zone_items:  # a zone's top card: a card, and never covered
            return f"{o}.fields.get({key})"
        if _SIMPLE.match(o):  # an item local: read it twice, no call for a card's field
            return (f"((None if g.state.where.get({o}.id, {self.k('')})[:1] == {self.k('^')} "
                    f"else {o}.fields.get({key})) if {o}.__class__ is _Card else _field(g, {o}, {key}, {stats}, {cts}))")
        return f"_get(g, {o}, {key}, {stats}, {cts})"

    def g_of(self, n, d):
        name, rs = n.name, self.rs
        if name in rs.zones:
            return f"_zone_of(g, {self.gen(n.owner, d)}, {self.k(name)}, {self.k(n)})"
        if name in rs.stats:
            return f"_stat_of(g, {self.gen(n.owner, d)}, {self.k(name)})"
        return None

    def g_call(self, n, d):
        if n.func in self.rs.functions and n.func not in self.rs.procedures:
            return self._rule_function(n, d)
        if n.func in self.rs.functions or n.func in self.rs.procedures or n.func not in BUILTINS:
            return None
        args = [self.gen(a, d) for a in n.args]
        if n.func == "count" and len(args) == 1:
            z = n.args[0]
            if self._zone_of_player(z):
                return f"_of_count(g, {self.gen(z.owner, d + 1)}, {self.k(z.name)}, {self.k(z)})"
            return f"_count(g, {args[0]})"
        fn = self.k(BUILTINS[n.func].fn)
        return f"{fn}(g, e{''.join(', ' + a for a in args)})"

    def _rule_function(self, n, d) -> str | None:
        """A call of a rule function: its arguments inline, its body its own compiled function."""
        c = self.c
        if len(n.args) != len(self.rs.functions[n.func].params):
            return None  # the closure path reports the wrong argument count
        saved, c._generating = c._generating, 0  # the body is an expression of its own: generate it too
        try:
            holder = c._function(n.func)
        finally:
            c._generating = saved
        args = "".join(self.gen(a, d) + ", " for a in n.args)
        return f"_call_fn(g, e, {self.k(holder)}, ({args}))"

    def g_index(self, n, d):
        return f"{self.gen(n.obj, d)}[{self.gen(n.key, d)}]"

    def g_list(self, n, d):
        return "_built(g, [" + "".join(self.gen(i, d) + ", " for i in n.items) + f"], {self.k(n.loc)})"

    def g_map(self, n, d):
        return "_built(g, {" + "".join(f"{self.gen(k, d)}: {self.gen(v, d)}, " for k, v in n.pairs) + f"}}, {self.k(n.loc)})"

    def g_arith(self, n, d):
        if n.op == "*":
            return None  # checked multiplication stays in its closure
        left, right = self.gen(n.left, d), self.gen(n.right, d)
        if n.op == "+":
            return f"g.add({left}, {right})"
        if n.op == "-":
            return f"g.sub({left}, {right})"
        py = {"/": "//", "%": "%"}[n.op]
        return f"({left} {py} {right})"

    def g_neg(self, n, d):
        return f"(-{self.gen(n.expr, d)})"

    def _side(self, side: Node, other: Node, d) -> str:
        """As compiler._enum_side: an enumeration value next to a field stays that value."""
        if other.kind == "attr" and side.kind == "name" and side.id in self.c.enum_values and \
                any(f == other.name for _, f in self.c.enum_values[side.id]):
            return self.k(side.id)
        return self.gen(side, d)

    def g_compare(self, n, d):
        left, right = self._side(n.left, n.right, d), self._side(n.right, n.left, d)
        if n.op in ("==", "!="):
            return f"({left} {_EQ_OPS[n.op]} {right})"
        return f"_ordered({self.k(_ORDERED[n.op])}, {left}, {right})"

    def g_in(self, n, d):
        item, coll = self.gen(n.item, d), self.gen(n.coll, d)
        return f"({item} in g.charged_list({coll}))"

    def g_is(self, n, d):
        what, v = n.what, self.gen(n.expr, d)
        if what == "empty":
            test = f"(_count(g, {v}) == 0)"
        elif what in ("none", "unknown"):
            test = f"({v} is None)"
        elif what in self.rs.card_types or what in self.rs.die_types:
            if _SIMPLE.match(v):
                test = f"(_isinstance({v}, _Card) and {v}.type == {self.k(what)})"
            else:
                test = f"_is_type({v}, {self.k(what)})"
        else:
            return None
        return f"(not {test})" if n.negate else test

    def g_not(self, n, d):
        return f"(not {self.gen(n.expr, d)})"

    def g_and(self, n, d):
        return "(True if (" + " and ".join(self.gen(i, d) for i in n.items) + ") else False)"

    def g_or(self, n, d):
        return "(True if (" + " or ".join(self.gen(i, d) for i in n.items) + ") else False)"

    def g_if_expr(self, n, d):
        return f"({self.gen(n.then, d)} if {self.gen(n.cond, d)} else {self.gen(n.orelse, d)})"

    # ---- binding constructs: the item is a Python local --------------------------------
    def _zone_valued(self, n: Node) -> bool:
        """Whether `n` is a zone (`zone`, `zone of P`): its items are cards lying uncovered in it."""
        return (n.kind == "of" or n.kind == "name" and n.id not in self.bound) and \
            (n.name if n.kind == "of" else n.id) in self.rs.zones

    def _binding(self, n: Node, names: list[str], parts: list[Node], d,
                 source: Node | None = None) -> tuple[list[str], str, list[str]] | None:
        """Generate `parts` with `names` bound to fresh locals; None leaves `n` to its closure.
        `source`: the node listed, when its items are known to be uncovered cards of a zone."""
        if not all(self._local(x) for x in names):
            return None
        saved, consts, temps, zone_items = dict(self.bound), len(self.consts), self.temps, set(self.zone_items)
        item = self.temp("_i")
        if source is not None and len(names) == 1 and self._zone_valued(source):
            self.zone_items.add(item)  # parts are pure: the cards stay where they are while they run
        if len(names) == 1:
            self.bound[names[0]] = item
        else:
            for i, x in enumerate(names):
                self.bound[x] = f"{item}[{i}]"
        try:
            return [item], item, [self.gen(p, d) for p in parts]
        except _Fail:  # undone: temporaries may be reused, so they must not stay marked
            del self.consts[consts:]
            self.temps, self.zone_items = temps, zone_items
            return None
        finally:
            self.bound = saved

    def g_where(self, n, d):
        items = self.gen(n.items, d)
        b = self._binding(n, ["it"], [n.cond], d, n.items)
        if b is None:
            return None
        _, item, (cond,) = b
        if self._zone_of_player(n.items):
            z = n.items
            src = f"_of_items(g, {self.gen(z.owner, d + 1)}, {self.k(z.name)}, {self.k(z)}, {self.k(n)})"
        else:
            src = f"_items(g, {items}, {self.k(n)})"
        return f"[{item} for {item} in {src} if {cond}]"

    def g_comprehension(self, n, d):
        items = self.gen(n.iter, d)
        b = self._binding(n, [n.name], [n.expr], d, n.iter)
        if b is None:
            return None
        _, item, (body,) = b
        return f"_built(g, [{body} for {item} in _items(g, {items}, {self.k(n)})], {self.k(n.loc)})"

    def g_quantified(self, n, d):
        items = self.gen(n.iter, d)
        b = self._binding(n, list(n.names), [n.cond], d)
        if b is None:
            return None
        _, item, (cond,) = b
        src = f"_items(g, {items}, {self.k(n)})"
        if len(n.names) > 1:
            src = f"_grouped({src}, {len(n.names)}, {self.k(n)})"
        gen = f"{cond} for {item} in {src}"
        if n.quantifier == "every":
            return f"_all({gen})"
        if n.quantifier == "some":
            return f"_any({gen})"
        return f"(not _any({gen}))"


def generate(c, n: Node) -> Callable[[Any, dict], Any] | None:
    """A generated function for expression `n`, or None to keep the closure."""
    gen = _Gen(c)
    try:
        body = gen.gen(n)
    except _Fail:
        return None
    except RuleError:
        return None  # the closure compiler reports it, with its own message
    if gen.gain < 2:
        return None
    src = f"def f(g, e):\n    return {body}\n"
    code = _CODE_CACHE.get(src)
    if code is None:
        _check_source(src)
        code = _CODE_CACHE[src] = compile(src, "<grimoire expression>", "exec")
    ns = dict(_GLOBALS)
    ns["K"] = tuple(gen.consts)
    exec(code, ns)  # defines f from our own checked source; K holds every rule-derived value
    return ns["f"]


# ---- statements run at once while settling (see syncblocks.py) ------------------------------
# A plain `if` or `for each` whose body never needs the task stack becomes one generated
# function: nested loops are Python loops, `let` stores straight into the environment, other
# statements call their closures. It behaves as syncblocks.run_block: one step per statement
# against the same limit, `break`/`continue` on the innermost loop, errors naming the innermost
# statement (`_s` is the index of the statement running, in the table `K[...]` of nodes).
MAX_NESTING = 12  # Python refuses more than 20 nested blocks


def _limit(g, n: Node):
    raise LimitExceeded(f"more than {g.limits.max_steps} steps: a rule seems to run forever", n.loc)


def _relocate(g, err: Exception, at: int, nodes: tuple) -> Exception:
    """The error a statement's failure becomes, as syncblocks.run_block makes it."""
    if at < 0:
        return err  # the generated statement itself: its caller names it
    loc = nodes[at].loc
    if isinstance(err, RuleError):
        return type(err)(err.message, loc) if err.loc is None else err
    if isinstance(err, RecursionError):
        return LimitExceeded("rules nest too deeply", loc)
    import traceback
    g.internal_traceback = traceback.format_exc()
    return RuleError.of(err, loc)


_GLOBALS.update({"_limit": _limit, "_relocate": _relocate, "_Flow": (Break, Continue, GameOver), "_list": list, "_Exception": Exception})
_ALLOWED_NAMES |= {"_limit", "_relocate", "_Flow", "_list", "_s", "lim", "err", "try", "except", "raise", "from",
                   "elif", "break", "continue", "pass", "as", "limits", "max_steps", "steps", "_Exception"}


class _StmtGen:
    def __init__(self, c):
        self.c = c
        self.x = _Gen(c)  # expressions share its constants table
        self.nodes: list[Node] = []
        self.lines: list[str] = []

    def k(self, v) -> str:
        return self.x.k(v)

    def expr(self, n: Node) -> str:
        consts, temps, zone_items = len(self.x.consts), self.x.temps, set(self.x.zone_items)
        try:
            return self.x.gen(n)
        except _Fail:
            del self.x.consts[consts:]
            self.x.temps, self.x.zone_items = temps, zone_items
            return f"{self.k(self.c.expr(n))}(g, e)"

    def emit(self, depth: int, text: str) -> None:
        self.lines.append("    " * depth + text)

    def body(self, stmts: list[Node], depth: int, loops: int) -> None:
        if depth > MAX_NESTING:
            raise _Fail()
        if not stmts:
            self.emit(depth, "pass")
        for s in stmts:
            self.nodes.append(s)
            self.emit(depth, f"_s = {len(self.nodes) - 1}")
            self.emit(depth, "g.steps += 1")
            self.emit(depth, "if g.steps > lim:")
            self.emit(depth + 1, f"_limit(g, {self.k(s)})")
            self.stmt(s, depth, loops)

    def stmt(self, n: Node, depth: int, loops: int) -> None:
        if n.kind in ("for", "if") and not known_shape(n):
            raise _Fail()  # a loop or `if` of another shape: the task path alone
        if n.kind == "let" and not known_shape(n):
            self.emit(depth, f"{self.k(self.c.stmt(n))}(g, e)")
        elif n.kind == "for":
            self.head(n, depth, loops)
        elif n.kind == "if":
            self.branches(n, depth, loops)
        elif n.kind == "let":
            self.emit(depth, f"e[{self.k(n.name)}] = {self.expr(n.expr)}")
        elif n.kind in ("break", "continue") and loops:
            self.emit(depth, n.kind)
        elif n.kind == "pass":
            self.emit(depth, "pass")
        else:  # its own closure, which never returns a task (syncblocks.SYNC_KINDS)
            self.emit(depth, f"{self.k(self.c.stmt(n))}(g, e)")

    def head(self, n: Node, depth: int, loops: int) -> None:
        item = self.x.temp("_i")
        self.emit(depth, f"for {item} in _list(g.listify({self.expr(n.iter)})):")
        self.emit(depth + 1, f"e[{self.k(n.name)}] = {item}")
        self.body(n.body, depth + 1, loops + 1)

    def branches(self, n: Node, depth: int, loops: int) -> None:
        for i, (cond, body) in enumerate(n.branches):
            self.emit(depth, f"{'if' if i == 0 else 'elif'} {self.expr(cond)}:")
            self.body(body, depth + 1, loops)
        if n.orelse:
            self.emit(depth, "else:")
            self.body(n.orelse, depth + 1, loops)


def generate_statement(c, n: Node) -> Callable[[Any, dict], None] | None:
    """One generated function running the plain `if`/`for each` statement `n` at once (its own
    step is counted by whoever runs it); None to keep the task path alone."""
    gen = _StmtGen(c)
    gen.emit(1, "_s = -1")
    gen.emit(1, "lim = g.limits.max_steps")
    gen.emit(1, "try:")
    try:
        gen.stmt(n, 2, 0)
    except (_Fail, RuleError):
        return None
    gen.emit(1, "except _Flow:")
    gen.emit(2, "raise")
    gen.emit(1, "except _Exception as err:")
    gen.emit(2, f"raise _relocate(g, err, _s, {gen.k(tuple(gen.nodes))}) from None")
    src = "def f(g, e):\n" + "\n".join(gen.lines) + "\n"
    code = _CODE_CACHE.get(src)
    if code is None:
        _check_source(src)
        code = _CODE_CACHE[src] = compile(src, "<grimoire statement>", "exec")
    ns = dict(_GLOBALS)
    ns["K"] = tuple(gen.x.consts)
    exec(code, ns)  # defines f from our own checked source; K holds every rule-derived value
    return ns["f"]
