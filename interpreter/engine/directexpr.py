"""Expressions for direct-style compilation (direct.py): typed at compile time, written as Python.

`Expressions` is the part of `direct._Gen` that turns an expression node into a `V`: Python
source plus the value's static kind (a card id, a list of card ids, a zone, a player, a number...)
and what is known about it (never none, only uncovered cards). Each construct writes its own code
(`generate` in language/tree.py); this keeps what they share (scopes, value kinds, the constants
table, stat reads, builtin calls), named for them in `tree.Generates`. Knowing the kind is what lets
`c.kind` be one list lookup and `xs where it is T` one comprehension. A node kind, function or
combination of kinds not handled here raises `Unsupported`: the ruleset then runs on the task
engine. Like the rest of the generated code, the source holds no rule text: values go through
`self.k` (the constants table), rule names become numbered locals.
"""
from __future__ import annotations

import ast
import re
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from ..language.tree import Node
from ..library import BUILTINS
from ..library.names import SPECIAL_NAMES
from ..runtime.values import ZoneRef

__all__ = ["Unsupported", "V", "Expressions"]


_SINGLE = frozenset({"int", "bool", "str", "card", "player", "none"})  # kinds whose values hold no list


def _built_list(items: list, depth: int = 0) -> str:
    """A list literal's code: charged to the memory budget as the task engine charges it (the empty
    list, which costs nothing, stays `[]`: other code recognises it). Where the items' kinds tell
    the literal's shape, the charge need not look inside it: single values (`_built_flat`: `[a, b]`
    in `least([a, b])` is hot in dice games); `depth` 2, lists of plain values (a card list, a
    row); 3, lists of those (a pair of rows) (`_built_lists`)."""
    if not items:
        return "[]"
    src = ", ".join(v.src for v in items)
    if depth:
        return f"_built_lists(R, [{src}], {depth})"
    return f"_built_flat(R, [{src}])" if all(v.kind in _SINGLE or v.single for v in items) else f"_built(R, [{src}])"


_COMP_FOR = re.compile(r" for [\w, ]+ in ")  # a comprehension's (or a `for` statement's) clause


def named_in_iterable(line: str) -> bool:
    """Whether a `:=` lies in some comprehension's iterable on this line of generated code (from its
    ` in ` to the clause's end: the comprehension's closing bracket, or its next ` if `/` for ` at
    the same depth), which Python refuses; a `for` statement's own iterable may hold one. (If this
    misses one, compiling the module refuses it and it is compiled again naming none.)"""
    for m in _COMP_FOR.finditer(line):
        if not line[:m.start()].strip():  # the line's `for` statement
            continue
        depth, j, n = 0, m.end(), len(line)
        while j < n:
            ch = line[j]
            if ch in "([{":
                depth += 1
            elif ch in ")]}":
                depth -= 1
                if depth < 0:
                    break
            elif depth == 0 and (line.startswith(" if ", j) or line.startswith(" for ", j)):
                break
            j += 1
        if ":=" in line[m.end():j]:
            return True
    return False


_NAMED = re.compile(r"\((_c\d+) := ")  # a card named where it is first read (`Expressions.named`)


def unnamed(src: str) -> str:
    """`src` with each card `named` in it written out again where it is used: Python allows no
    `:=` in a comprehension's iterable, so the code that writes `[... for x in SRC]` passes SRC
    through this first."""
    while ":=" in src:
        m = _NAMED.search(src)
        if m is None:
            return src
        depth = 0
        for j in range(m.start(), len(src)):  # the `(` that opens the naming, to its `)`
            if src[j] in "([{":
                depth += 1
            elif src[j] in ")]}":
                depth -= 1
                if depth == 0:
                    break
        inner = "(" + src[m.end():j] + ")"
        src = src.replace(f"({m.group(1)} := ", "(")  # each naming (a source copied twice names twice)
        src = re.sub(rf"\b{m.group(1)}\b", lambda _: inner, src)  # and each read
    return src


def _extreme(which: str, src: str) -> str:
    """`min`/`max` of the list at `src` (`R.least`, `R.most`); of a literal of single values
    (`_built_flat(R, [a, b])`), one call that charges the literal as `built_flat` does and picks
    from it (`R.least_flat`, `R.most_flat`): `min([a, b])` is hot in dice games."""
    if src.startswith("_built_flat(R, ["):
        call = ast.parse(src, mode="eval").body
        if isinstance(call, ast.Call) and len(call.args) == 2 and isinstance(call.args[1], ast.List):
            return f"R.{which}_flat({src[len('_built_flat(R, '):-1]})"
    return f"R.{which}({src})"


class Unsupported(Exception):
    """A construct this compiler does not handle: the ruleset cannot run (`factory.compiled` says so)."""


# every card of the game, as `all_cards()` gives it (a copy: the list may be kept and changed)
ALL_CARDS = "list(R.all_ids)"


@dataclass
class V:
    """A compiled expression: Python source and its static kind.

    kinds: card, cards, zone, row, rows, player, players, int, bool, str, list, none, any.
    `top`: a card list known to hold uncovered cards only (fields need no covered check);
    `live`: the source is the game state's own list (copy before keeping it); `zone`: the
    zone's name for kind `zone`; `rows`: whether that zone is a rows zone."""

    src: str
    kind: str
    top: bool = False
    live: bool = False
    zone: str | None = None
    rows: bool = False
    key: str | None = None  # for kind `zone`: the source of its key in the state (`name#owner`)
    nn: bool = False  # never none (a value), or holds no none (a list)
    elem: str | None = None  # for kind `list`: the kind of every item, where known (`str`); for a
    # destination zone, "either": one of two zones (`direct.either_zone`)
    held: str | None = None  # for a stat's cards: the stat's own value (none before a first `set`)
    empty: bool = False  # for kind `list`: a rule function's `[]`, known empty (`x in f()` is false)
    single: bool = False  # a value that holds no list or map (a card field no card gives one: `field_single`)
    types: frozenset | None = None  # for kind `card`: the types it is one of (a typed walk's item, `where_parts`)

    def copy(self, **changes: Any) -> "V":
        """A copy with `changes` (`dataclasses.replace` without its per-call field walk: the
        compiler copies values tens of thousands of times per ruleset)."""
        new = object.__new__(V)
        new.__dict__.update(self.__dict__, **changes)
        return new


@dataclass
class _Hoist:
    """Where a statement lets the lists its expression filters or maps first be written as loops
    (`Expressions.listed`): at depth `d`, before the statement's own lines, for the rule at `loc`.
    `open` until a part of the expression does something else (what follows it stays after it);
    `done`: each construct's list written, by the construct's id (a part compiled twice is the same
    local)."""

    d: int
    loc: Any
    open: bool = True
    done: dict = field(default_factory=dict)


# builtins whose call evaluates its arguments first, each once and in order, and then its own work
# (`Builtin.args_first`): a list made in an argument may be written before the statement
_EAGER_BUILTINS = frozenset(name for name, b in BUILTINS.items() if b.args_first)


_SIMPLE = re.compile(r"_[A-Za-z0-9]+\Z")  # a local name: may be evaluated twice
_PLAIN_READ = re.compile(r"_[A-Za-z0-9]+(\[_[A-Za-z0-9]+\])?\Z")  # a local, or a local indexed by one (a seat's zone)


def _end_of(xs: str, i: str, helper: str) -> str:
    """`first`/`top` of a list: a plain read indexed in place (two subscripts cost less than the
    call, and such a read changes nothing, so reading it twice is the same), else the helper."""
    return f"({xs}[{i}] if {xs} else None)" if _PLAIN_READ.match(xs) else f"{helper}({xs})"


_CARDISH = ("card", "cards", "zone", "row")
_LIST_OF = {"card": "cards", "row": "rows", "rowpair": "rowpairs", "player": "players", "space": "spaces"}
_ITEM_KIND = {"cards": "card", "zone": "card", "row": "card", "rows": "row", "players": "player",
              "list": "any", "rowpairs": "rowpair", "rowpair": "row", "spaces": "space", "mixed": "item",
              "zonerefs": "zoneref"}


_FIXED = re.compile(r"(?:_[azk]\d+|R\.seats)(?:\[_[ak]\d+\])*\Z")  # the same in a whole expression
_MARK = re.compile(r"_mk\d+_")
# a function body worth keeping the value of: it walks a list, asks the runtime or calls such a
# function (a plain read, `first(Z of p)`, costs less than the slot: evaluated at each use)
_COSTLY = re.compile(r" for |R\.|_mk\d+_")


_PLAIN_KINDS = ("int", "str", "bool", "any")  # values kept as they are (no card ids, no seats)
_SINGLE_KINDS = ("int", "str", "bool")  # plain values known not to be lists nor cards (`last(it)` of a number)
_ONE_ITEM_KINDS = _SINGLE_KINDS + ("card", "player")  # `first(x)`, `last(x)` of one of these is x


class StatKindsFound(Exception):
    """Raised when a stat turns out to hold cards, players or text after its reads were compiled
    as numbers: `compile_direct` compiles again knowing `kinds`."""

    def __init__(self, kinds: dict):
        super().__init__("stats holding cards, players or text")
        self.kinds = kinds


class Expressions:
    """Expression compilation, mixed into `direct._Gen` (which provides `k`, `temp`, `zone`, `you`,
    `field`, `rs`, `enum_values`, `const_kinds` and `placement_names`)."""

    card_stats: frozenset = frozenset()  # shared stats that hold lists of cards (`CardStats`)
    stat_kinds: dict = {}  # stats that hold something else than numbers: name → kind (`stat_store`)
    learning = False  # a first pass learning `stat_kinds` (direct._learn_stats)
    binding_depth = 0  # binding constructs (`where`, quantifiers, comprehensions) being compiled
    # a number as a zone's or stat's owner (`hand of 1`, seats from 0, as the task engine reads it):
    # for expressions compiled on their own (directeval.py: scenarios' `values:`), not for rules
    number_owners = False
    # a card read more than once in one expression (`leader(you).bonus`: whether it is
    # none or covered, then its field) is named where first read (`named`): on for the module's
    # code (direct.compile_direct), which compiles again without it should a naming reach a
    # comprehension's iterable that `unnamed` did not write out
    name_cards = False

    expr_depth = 0  # expressions being compiled, the outermost one first (0: a whole expression next)

    hoist: _Hoist | None = None  # where the expression being compiled may write lists first (`expr_first`)
    hoist_at: _Hoist | None = None  # the same, for the construct being compiled itself (`listed`)

    def expr(self, n: Node, scope: dict) -> V:
        """An expression's code: every construct writes its own (`generate`, language/tree.py),
        using what `tree.Generates` names of this generator. A whole expression (not a part of
        another) is where the rule function calls it repeats are evaluated once (`memo_calls`)."""
        own = getattr(n, "generate", None)
        if own is None:
            raise Unsupported(f"expression {n.kind}")
        if self.hoist is not None:
            return self._expr_hoisting(n, scope, own, self.hoist)
        if self.hoist_at is not None:  # a part of a construct `expr_first` may write first: not itself
            at, self.hoist_at = self.hoist_at, None
            try:
                return self._compiled(own, scope)
            finally:
                self.hoist_at = at
        return self._compiled(own, scope)

    def _compiled(self, own: Any, scope: dict) -> V:
        if self.expr_depth:
            return own(self, scope)
        self.expr_depth, self.whole_binding = 1, self.binding_depth
        try:
            v = own(self, scope)
        finally:
            self.expr_depth, calls = 0, self.whole_calls
            self.whole_calls = {}
        return self.memo_calls(v) if calls else v

    # ---- lists written as loops before their statement -------------------------------------
    # In CPython 3.11 a comprehension makes a function object and a frame at each evaluation: a
    # filter of 8 items costs about 1,300 instructions more than a loop appending to a list. A
    # statement that evaluates an expression before anything else it does (`expr_first`) lets the
    # lists at the expression's head be written as such loops, into locals, just before it: the
    # list of `xs where c` and `(xs).f`, alone or as the first thing a builtin's argument or an
    # operator's side evaluates (and the next such, while nothing else came between). Each is then
    # evaluated exactly where the comprehension was (nothing with an effect or an error ran
    # before it), once. A construct's other parts (a `where`'s condition, an `and`'s right side,
    # an `if`'s branches, a rule function's body) keep their comprehensions.
    def expr_first(self, n: Node, scope: dict, d: int, loc: Any) -> V:
        """`n`, which its statement (written at depth `d`) evaluates before anything else it does:
        the lists at its head written as loops before the statement (`listed`)."""
        outer = self.hoist
        self.hoist = _Hoist(d, loc)
        try:
            return self.expr(n, scope)
        finally:
            self.hoist = outer

    def _expr_hoisting(self, n: Node, scope: dict, own: Any, h: _Hoist) -> V:
        """`expr` inside `expr_first`: the construct may write its list first if nothing came
        before it; its parts may too where it evaluates them first, in order: a builtin of
        `_EAGER_BUILTINS` (its arguments compiled once each, in order) and `+`, `-`... (each of its
        forms evaluates its left side first; it may compile its sides more than once, as it tries
        their kinds: a list written once is the same local each time)."""
        at = self.hoist_at
        self.hoist_at = h
        if not (n.kind == "arith" or (n.kind == "call" and n.func in _EAGER_BUILTINS and n.func not in self.rs.functions)):
            self.hoist = None
        try:
            v = self._compiled(own, scope)
        finally:
            self.hoist, self.hoist_at = h, at
        if id(n) not in h.done and n.kind != "lit":
            h.open = False  # it did something: what follows stays after it
        return v

    def listed(self, n: Node, elem: str, x: str, items: str, cond: str | None, kind: str, **known: Any) -> V:
        """The list `[elem for x in items if cond]` (`cond` None: every item) that construct `n`
        makes: a loop into a local before the statement where `expr_first` allows, else the
        comprehension."""
        if cond == "True":  # known true (a typed walk's `it is T`)
            cond = None
        if cond is None and elem == x:  # every item as it is: a copy
            return self._first(n, f"list({unnamed(items)})", lambda t, d: [(d, f"{t} = list({items})")], kind,
                               **known)
        text = f"[{elem} for {x} in {unnamed(items)}{'' if cond is None else f' if {cond}'}]"

        def loop(t: str, d: int) -> list[tuple[int, str]]:
            keep = [(d + 1, f"if {cond}:")] if cond is not None else []
            return [(d, f"{t} = []"), (d, f"for {x} in {items}:")] + keep + \
                [(d + 1 + len(keep), f"{t}.append({elem})")]
        return self._first(n, text, loop, kind, **known)

    def tested(self, n: Node, quantifier: str, cond: str, target: str, items: str) -> V:
        """`every|some|no TARGET in ITEMS has COND` that construct `n` tests: a loop that stops at
        the first item that decides, before the statement where `expr_first` allows, else `all`
        or `any` of a generator (a function, a frame and a resumption per item)."""
        gen = f"{cond} for {target} in {unnamed(items)}"
        text = {"every": f"all({gen})", "some": f"any({gen})", "no": f"(not any({gen}))"}[quantifier]
        start, stop = ("True", f"not ({cond})") if quantifier == "every" else \
            ("False" if quantifier == "some" else "True", cond)

        def loop(t: str, d: int) -> list[tuple[int, str]]:
            return [(d, f"{t} = {start}"), (d, f"for {target} in {items}:"), (d + 1, f"if {stop}:"),
                    (d + 2, f"{t} = {start == 'False'}"), (d + 2, "break")]
        return self._first(n, text, loop, "bool")

    def _first(self, n: Node, text: str, loop: Any, kind: str, **known: Any) -> V:
        """Construct `n`'s value: `loop(local, depth)`'s lines written before the statement where
        `expr_first` allows (the value then in that local), else `text`. (A rule function call's
        slot, `_mk`, is filled inside the expression: a value that holds one stays in it.)"""
        h = self.hoist_at
        if h is not None and id(n) in h.done:  # compiled again (`+` tries its sides' kinds first)
            return h.done[id(n)].copy()
        if h is None or not h.open or self.binding_depth or "_mk" in text:
            return V(text, kind, **known)
        got = h.done[id(n)] = V(self.temp(), kind, **known)
        for d, line in loop(got.src, h.d):
            self.emit(d, line, h.loc)
        return got.copy()

    def value(self, src: str, kind: str, **known: Any) -> V:
        """A value of generated source `src` and kind `kind`, for a construct's own `generate`;
        `known`: what else is known of it (`V`'s fields: `nn`, `top`, `live`, `elem`...)."""
        return V(src, kind, **known)

    def unsupported(self, what: str) -> None:
        """Refuse a form a construct's `generate` cannot write code for."""
        raise Unsupported(what)

    # ---- what the constructs' own `generate` (language/tree.py) use besides `expr` --------------
    plain_kinds = _PLAIN_KINDS
    single_kinds = _SINGLE_KINDS

    def is_local(self, src: str) -> bool:
        """Whether `src` is a plain local name (it may be evaluated twice)."""
        return _SIMPLE.match(src) is not None

    def item_kind(self, kind: str) -> str | None:
        """The kind of an item of a list of kind `kind` (None: not a list)."""
        return _ITEM_KIND.get(kind)

    def list_kind(self, item: str) -> str:
        """The kind of a list of items of kind `item`."""
        return _LIST_OF.get(item, "list")

    def built_list(self, items: list) -> str:
        """A list literal's code, charged to the memory budget (`_built_list`)."""
        return _built_list(items)

    def scoped(self, name: str, scope: dict) -> V | None:
        """The value of `name` where `scope` binds it (a rule variable, a rule function's
        parameter), else None."""
        if isinstance(scope.get(name), _Bound):  # a rule function's parameter (`rule_call`)
            return scope[name].v.copy()
        if name in scope and name not in ("true", "false", "none"):
            py, kind = scope[name]
            if kind == "topcard":  # an item of a list of uncovered cards: never none, never covered
                return V(py, "card", top=True)
            if kind == "topcards":
                return V(py, "cards", top=True)
            return V(py, kind)
        return None

    # ---- stats holding cards, players or text ------------------------------------------------
    # A stat is read as a number until a `set` stores another kind of value in it; then the
    # module is compiled again knowing that kind (`StatKindsFound`). A card is kept in the state
    # as the card itself, as the task engine keeps it (the digest names it as a card).
    def stat_read(self, name: str, src: str) -> V:
        """The value of stat `name`, held at `src` in the state, in its kind."""
        kind = self.stat_kinds.get(name, "int")
        if kind == "card":
            return V(f"_cid({src})", "card")
        if kind == "cards":
            return V(f"_cids({src})", "cards", nn=True, held=src)
        return V(src, kind, nn=name in self.nn_stats)

    def stat_store(self, name: str, v: V) -> str:
        """The source of the value `set` stores in stat `name` (the card itself for a card)."""
        if not (v.nn and v.kind in ("int", "bool")):
            self.maybe_none.add(name)  # not read as never none (direct.py `number_stats`)
        sd = self.rs.stats[name]
        known = self.stat_kinds.get(name)
        kind = "cards" if v.kind in ("zone", "row") else v.kind
        if kind == "none" or (kind == "list" and v.src == "[]" and known in (None, "cards", "list")):
            return v.src  # none, or an empty list: the same in every kind
        if sd.lo is not None or sd.hi is not None or (kind in ("int", "bool") and known in (None, "any")):
            if kind not in ("int", "bool", "str", "any"):
                raise Unsupported("a number stat holding cards or players")
            return v.src
        if kind not in ("card", "cards", "player", "str", "list", "any"):
            raise Unsupported(f"a stat holding {kind}")
        plain = ("str", "any")  # values kept as they are, read as `any`: a card field's value
        if known is None or (known != kind and kind in plain and known in plain):
            if known == "any":
                return v.src
            if self.learning:
                self.stat_kinds[name] = "any" if known == "str" else kind
                return v.src
            raise StatKindsFound({**self.stat_kinds, name: "any" if known == "str" else kind})
        if known != kind:
            raise Unsupported("a stat holding values of several kinds")
        if kind == "card":
            return f"R.card_obj({v.src})"
        if kind == "cards":
            return f"R.card_objs({self.cards_src(v)})"
        return f"list({v.src})" if v.live else v.src

    def list_of(self, items: list) -> V:
        """A list literal of its items compiled (`ListLit.generate` compiles them once, to look at them)."""
        kinds = {v.kind for v in items}
        if kinds == {"player"}:
            return V(_built_list(items), "players")
        if kinds == {"zone"}:  # zones as values: `values.ZoneRef`s, as the task engine has them
            return self.zone_refs(items)
        if kinds == {"row"}:  # a group of rows (e.g. a pair for `linked`): rows by reference
            return V(_built_list(items, 2), "rowpair")
        if "card" in kinds and kinds <= {"card", "none"}:  # `[none, c]`: cards, some none (not `nn`)
            return V(_built_list(items), "cards", nn=all(v.nn or v.top for v in items))
        if kinds == {"cards"}:  # lists of cards (directpairs.py's kind), each a snapshot
            return V(_built_list([V(self.kept(v), "cards") for v in items], 2), "cardlists", nn=True)
        if kinds == {"rowpair"}:  # pairs of rows (`linked(row, [[r1, r2]])`): rows by reference
            return V(_built_list(items, 3), "rowpairs")
        if "list" in kinds and kinds <= {"list", *_PLAIN_KINDS, "none"}:  # lists of plain values, nested
            return V(_built_list(items), "list", elem="other")  # (`_built` bounds their depth and size)
        if kinds & {"card", "cards", "zone", "row", "rows", "players", "list", "map", "type", "pairs"}:
            raise Unsupported("a list of lists or of cards mixed with other values")
        return V(_built_list(items), "list", elem="str" if kinds <= {"str"} else "other")

    def field_never_none(self, name: str, types: frozenset) -> bool:
        """Whether every card of these types has the field (so its value is never none)."""
        return name == "name" or all(c.fields.get(name) is not None for c in self.rs.cards if c.type in types)

    def named(self, src: str) -> tuple[str, str]:
        """A card's source `src` to be read more than once: (its first read, each later read),
        `(_c7 := SRC)` and `_c7` where `name_cards` allows (else `src` each time: an expression
        such as an inlined rule function's body, worked out at each read)."""
        if not self.name_cards or _SIMPLE.match(src):
            return src, src
        c = self.temp("_c")
        return f"({c} := {src})", c

    def unnamed(self, src: str) -> str:
        """`src` fit to be a comprehension's iterable (`unnamed`)."""
        return unnamed(src)

    def field_single(self, name: str) -> bool:
        """Whether no card's field `name` holds a list or map (its value, or none, is a single
        value: a list literal of it is charged as `built_flat` charges one, `min([a, b])` is one call)."""
        memo = self.__dict__.setdefault("_single_fields", {})
        got = memo.get(name)
        if got is None:
            got = memo[name] = all(isinstance(c.fields.get(name), (int, str, bool, type(None))) for c in self.rs.cards)
        return got

    def type_values(self, n) -> list:
        tname = n.obj.id
        for f in self.rs.card_types[tname].fields_:
            if f.name == n.name and f.type.kind == "enum_type":
                return list(f.type.values)
            if f.name == n.name and f.type.kind == "range_type":
                return list(range(f.type.lo, f.type.hi + 1))
        raise Unsupported("type field")

    def card_fields(self) -> set:
        s = getattr(self, "_card_fields", None)
        if s is None:
            s = self._card_fields = {"name"} | {k for c in self.rs.cards for k in c.fields}
        return s

    def items(self, v: V) -> V:
        """A card list to iterate over (rows zones flattened); kept live where it is only read."""
        if v.kind == "zone":
            if v.rows:
                return V(f"[_x for _r in {unnamed(v.src)} for _x in _r]", "cards", top=True)
            return V(v.src, "cards", top=True, live=True)
        if v.kind == "row":
            return V(v.src, "cards", top=True, live=True)
        if v.kind in ("cards", "list", "players", "rows", "rowpairs", "rowpair", "spaces", "mixed", "zonerefs"):
            return v
        raise Unsupported(f"a list from a {v.kind}")

    def f_all_cards(self, n, a, scope):
        return V(ALL_CARDS, "cards", nn=True)

    def f_random(self, n, a, scope):
        if len(a) != 1:
            raise Unsupported("random")
        xs = self.items(a[0])
        return V(f"_random(_rng, {xs.src})", _ITEM_KIND.get(xs.kind, "any"))

    def f_cards_in(self, n, a, scope):
        x = self.items(a[0])
        if x.kind != "cards":
            raise Unsupported("cards_in")
        return x

    def f_cards_under(self, n, a, scope):
        x = a[0]
        if x.kind == "card":
            return V(f"R.under_one({x.src})", "cards", nn=True)
        if x.kind == "cards":
            return V(f"R.under_of({x.src})", "cards", nn=True)
        raise Unsupported("cards_under")

    def f_rows(self, n, a, scope):
        z = a[0]
        if z.kind != "zone" or not z.rows:
            raise Unsupported("rows")
        return V(f"R.rows({z.src}, {z.key})", "rows")

    def f_ends(self, n, a, scope):
        z = a[0]
        if z.kind != "zone" or not z.rows:
            raise Unsupported("ends")
        return V(f"_ends({z.src})", "cards", top=True)

    def f_other_players(self, n, a, scope):
        return V(f"R.other_players({self.you(scope)})", "players")

    def f_distinct(self, n, a, scope):
        x = self.items(a[0])
        return V(f"{'_distinct_nn' if x.nn else '_distinct'}({x.src})", "bool", nn=True)

    def f_ascending(self, n, a, scope):
        x = self.items(a[0])
        return V(f"{'_ascending_nn' if x.nn else '_ascending'}({x.src})", "bool", nn=True)

    def f_distinct_values(self, n, a, scope):
        x = self.items(a[0])
        if x.kind in ("cards", "players", "rows"):
            raise Unsupported("distinct_values of cards")
        return V(f"_distinct_values({x.src})", "list")

    def f_count(self, n, a, scope):
        x = a[0]
        if x.kind == "zone" and x.rows:
            return V(f"sum(map(len, {x.src}))", "int", nn=True)
        if x.kind == "card":
            return V(f"(0 if {x.src} is None else 1)", "int", nn=True)
        return V(f"len({self.items(x).src})", "int", nn=True)

    def f_first(self, n, a, scope):
        if len(a) == 1 and a[0].kind in _ONE_ITEM_KINDS:  # a single value is the list of itself
            return a[0]
        x = self.items(a[0])
        item = _ITEM_KIND.get(x.kind, "any")
        if len(a) == 1:
            return V(_end_of(x.src, "0", "_first"), item)
        if a[1].kind != "int":
            raise Unsupported("first(n)")
        return V(f"_first_n({x.src}, {a[1].src})", x.kind, top=x.top)

    def f_rest(self, n, a, scope):
        x = self.items(a[0])
        return V(f"{x.src}[1:]", x.kind, top=x.top)

    def f_last(self, n, a, scope):
        if len(a) == 1 and a[0].kind in _ONE_ITEM_KINDS:  # a single value is the list of itself
            return a[0]
        x = self.items(a[0])
        if len(a) == 1:
            return V(f"_last({x.src})", _ITEM_KIND.get(x.kind, "any"))
        if a[1].kind != "int":
            raise Unsupported("last(n)")
        return V(f"_last_n({x.src}, {a[1].src})", x.kind, top=x.top, nn=x.nn)

    def f_sum(self, n, a, scope):
        x = self.items(a[0])
        if x.kind in ("cards", "players", "rows"):
            raise Unsupported("sum of cards")
        return V(f"_sum(R, {x.src})", "int", nn=True)

    def f_values(self, n, a, scope):
        x = a[0]
        if x.kind != "list":
            return self.items(x)  # `values(zone)`: its cards (`listify`)
        return x

    def f_adjacent(self, n, a, scope):
        x = self.items(a[0])
        return V(f"_pairs({x.src})", "pairs", top=x.top)

    def placement_call(self, zone: V, what: str) -> str:
        """The call of a zone's placement function (`_pl(c)`; a per-player zone's with its instance)."""
        name = self.placement_names[zone.zone]
        return f"{name}({what}, {zone.src})" if self.rs.zones[zone.zone].per_player else f"{name}({what})"

    def where_parts(self, n, scope) -> tuple[V, str, str, frozenset | None]:
        """`ITEMS where COND`: the items, the item's local name, the condition's source and the
        card types the condition admits (None: any)."""
        items = self.items(self.expr(n.items, scope))
        item = _ITEM_KIND.get(items.kind)
        if item is None:
            raise Unsupported("where over this")
        walked = None
        if items.src == ALL_CARDS and not self.binding_depth:  # every card of the types the condition admits
            walked = self.types_tested(n.cond)
            if walked is not None:
                items = items.copy(src=f"R.ids_of({self.k(' '.join(sorted(walked)))})")
        x = self.temp("_i")
        inner = dict(scope)
        # (an item of a list with no none: never none; of a typed walk: its type known to be one of
        # those walked, so the condition's own `it is T` is known: `IsExpr`)
        inner["it"] = (x, "topcard" if items.top and item == "card" else item) if not (items.nn and item == "card") \
            or items.top else _Bound(V(x, "card", nn=True, types=walked))
        items.src = self.charged(items.src)
        with self.binding():
            cond = self.expr(n.cond, inner)
        return items, x, cond.src, self.admitted_types(n.cond) if item == "card" else None

    def charged(self, items: str) -> str:
        """The items of a binding construct (`where`, a quantifier, a comprehension): inside another
        one, counted against the work limit (`Limits.max_work`), as the task engine counts them."""
        return f"_charged(R, {items})" if self.binding_depth else items

    @contextmanager
    def binding(self):
        """Compiling a binding construct's body: the items of every level inside another are
        charged against the work limit (`charged`), so a deep nest stops like any runaway (the
        checker bounds the depth: `limit/depth`)."""
        self.binding_depth += 1
        try:
            yield
        finally:
            self.binding_depth -= 1

    def types_tested(self, cond: Node) -> frozenset | None:
        """The card and die types outside which `cond` (about `it`) is false, where the condition
        says so: `it is T`, `it is T or it is U`, either as a part of an `and` (None: any type).
        `all_cards() where COND` then walks the cards of those types only (`Runtime.ids_of`, in the
        cards' order), testing COND on each, less the type tests the walk answers (`V.types`)."""
        if cond.kind == "is" and not cond.negate and cond.expr.kind == "name" and cond.expr.id == "it" and \
                (cond.what in self.rs.card_types or cond.what in self.rs.die_types):
            return frozenset([cond.what])
        if cond.kind == "or":
            parts = [self.types_tested(c) for c in cond.items]
            return None if any(p is None for p in parts) else frozenset().union(*parts)
        if cond.kind == "and":
            for c in cond.items:
                got = self.types_tested(c)
                if got is not None:
                    return got
        return None

    def admitted_types(self, cond: Node) -> frozenset | None:
        """The card types for which `cond` (about `it`) can hold: `it is T`, alone or in an `and`."""
        if cond.kind == "is" and not cond.negate and cond.expr.kind == "name" and cond.expr.id == "it" and \
                cond.what in self.rs.card_types:
            return frozenset([cond.what])
        if cond.kind == "and":
            for c in cond.items:
                got = self.admitted_types(c)
                if got is not None:
                    return got
        return None

class _Bound(tuple):
    """A scope entry that is a whole compiled value (`(src, kind)` with the `V` kept): a rule
    function's parameter, so that a zone passed in keeps its name and key."""

    v: V

    def __new__(cls, v: V) -> "_Bound":
        out = super().__new__(cls, (v.src, v.kind))
        out.v = v
        return out


def _fields(x: Any) -> Any:
    """A scope entry or value as plain data, to key `RuleFunctions.learnt_calls` by."""
    if isinstance(x, _Bound):
        x = x.v
    return tuple(x.__dict__.items()) if isinstance(x, V) else x


class RuleFunctions:
    """Rule functions (`function f(x) = EXPR`), mixed into `direct._Gen`: each call is the
    function's expression compiled where it is called, typed by its arguments (so a zone or a
    row passed in stays one). Arguments that are not plain locals or constants are evaluated
    once, in order, as the parameters of a `lambda` called on the spot. The call counts towards
    the depth limit as a procedure call does: `R.depth` plus the functions nesting here must stay
    within `max_depth`. A function called inside itself is a plain function (directrecursion.py)."""

    fn_stack: tuple = ()  # the rule functions being compiled, outermost first

    def rule_call(self, n: Node, scope: dict) -> V:
        fd = self.rs.functions[n.func]
        if n.func in self.fn_stack or n.func in self.fn_real:  # a plain function (directrecursion.py)
            return self.recursive_call(n, scope)
        if len(n.args) != len(fd.params):
            raise Unsupported("argument count")
        args = [self.expr(a, scope) for a in n.args]
        if not self.learning:
            return self._inlined(n, fd, args, scope)
        # the learning pass (`direct._learn_stats`) keeps only the kinds it learns: a call
        # compiled before in the same context gives the same value and learns nothing new
        key = (n.func, self.fn_stack, self.fn_real, tuple(_fields(a) for a in args),
               tuple((k, _fields(scope[k])) for k in ("you", "this") if k in scope),
               self.card_stats, frozenset(self.stat_kinds.items()), self.expr_depth, self.binding_depth)
        got = self.learnt_calls.get(key)
        if got is not None:
            return got.copy()
        got = self._inlined(n, fd, args, scope)
        if self.card_stats == key[5] and self.stat_kinds.items() == key[6]:
            self.learnt_calls[key] = got.copy()
        return got

    def _inlined(self, n: Node, fd: Any, args: list[V], scope: dict) -> V:
        """The call `n` of rule function `fd` written out where it is called, on `args`."""
        inner = {k: scope[k] for k in ("you", "this") if k in scope}
        names, values = [], []
        for param, a in zip(fd.params, args):
            if a.kind == "zone" or _SIMPLE.match(a.src):
                inner[param] = _Bound(a)
            else:
                py = self.temp("_v")
                names.append(py)
                values.append(a.src)
                inner[param] = _Bound(a.copy(src=py))
        depth = len(self.fn_stack) + 1
        self.fn_stack = self.fn_stack + (n.func,)
        try:
            body = self.expr(fd.expr, inner)
        finally:
            self.fn_stack = self.fn_stack[:-1]
        src = body.src
        if len(src) > _MAX_INLINED:  # functions calling functions many times over: `Unsupported`
            raise Unsupported("rule functions too large to write out where they are called")
        bound = {}  # a zone's key (or a stat's cards' own value) naming the lambda's parameters too
        if names:
            src = f"(lambda {', '.join(names)}: {src})({', '.join(values)})"
            used = re.compile(r"\b(?:" + "|".join(names) + r")\b")
            # bound by a lambda of their own, so the arguments are evaluated again where the key is
            # read: only arguments that draw nothing at random (otherwise the key stays unbound,
            # and a move to such a zone fails where it runs, naming the rule)
            if all(self.pure_test(a) for a in n.args):
                bound = {f: f"(lambda {', '.join(names)}: {s})({', '.join(values)})" for f in ("key", "held")
                         if (s := getattr(body, f)) and used.search(s)}
        src = f"({src} if R.depth + {self.k(depth)} <= R.max_depth else R.function_too_deep({self.k(fd.loc)}))"
        fixed = [inner[k][0] for k in inner]
        if self.expr_depth and _COSTLY.search(body.src) and self.same_value_whole(n.func, fixed):
            src = self.memo_call((n.func, depth, *fixed), src)
        if body.kind == "list" and body.src == "[]":  # `function f() = []`: known empty, whatever `in` asks of it
            return body.copy(src=src, empty=True)
        return body.copy(src=src, **bound)

    # ---- a call repeated in one expression, evaluated once -----------------------------------
    # Written out at each call, a function that other functions call is evaluated again and again
    # in one expression (a player's rows asked for dozens of times in one condition, a list of pairs
    # of those rows built again for each row tested). Nothing changes the state while an expression is evaluated, so a call that draws
    # nothing at random, with the same arguments, has the same value throughout: the whole
    # expression keeps each such value from its first evaluation (a list `_mo` of slots, `_UNSET`
    # until then). The first evaluation is where the first use is, so a call the expression never
    # reaches is not evaluated and an error is raised where it was; the work and memory a value
    # costs are charged once.
    whole_calls: dict = {}  # a call (function, nesting, arguments) → its mark in the expression being compiled
    whole_binding = 0  # `binding_depth` where the whole expression begins
    marked: dict = {}  # every mark (`_mk12_`) → the call's code, for the whole module (per instance)

    def same_value_whole(self, func: str, args: list[str]) -> bool:
        """Whether a call of `func` with these arguments (and `you`, `this`) has one value in the
        whole expression: no random draw in it, and each argument a parameter of the generated
        function (`_a0`), a constant or a player's zone."""
        known = self.__dict__.setdefault("_pure_functions", {})
        pure = known.get(func)
        if pure is None:
            pure = known[func] = self.pure_test(self.rs.functions[func].expr)
        return pure and all(_FIXED.match(a) for a in args)

    def memo_call(self, call: tuple, src: str) -> str:
        """A mark standing for the call `src` (the function, its nesting and its arguments: `call`)
        until the whole expression is compiled (`memo_calls`)."""
        calls, marked = self.__dict__.setdefault("whole_calls", {}), self.__dict__.setdefault("marked", {})
        got = calls.get(call)
        if got is None:
            got = calls[call] = f"_mk{len(marked)}_"
            marked[got] = src
        if self.binding_depth > self.whole_binding:  # in a `where`, a quantifier...: evaluated per item
            self.__dict__.setdefault("repeated", set()).add(got)
        return got

    def memo_calls(self, v: V) -> V:
        """`v` with its marks replaced: a call used once by its code, one used more than once by its
        slot, filled at its first use; the expression is then `(lambda _mo: ...)([_UNSET] * n)`."""
        fields = {f: getattr(v, f) for f in ("src", "key", "held") if getattr(v, f)}
        return v.copy(**{f: self._unmark(text) for f, text in fields.items()})

    def _unmark(self, text: str) -> str:
        if "_mk" not in text:
            return text
        uses: dict[str, int] = {}
        todo = [text]
        while todo:  # how often each call is used: in the text, and in each call's code used once
            for m in _MARK.findall(todo.pop()):
                uses[m] = uses.get(m, 0) + 1
                if uses[m] == 1:
                    todo.append(self.marked[m])
        repeated = self.__dict__.get("repeated", ())
        slots = {m: i for i, m in enumerate(sorted(m for m, n in uses.items() if n > 1 or m in repeated))}

        def code(m: re.Match) -> str:
            src = _MARK.sub(code, self.marked[m.group(0)])
            i = slots.get(m.group(0))
            if i is None:
                return src
            return f"(_mo[{i}] if _mo[{i}] is not _UNSET else _memo_set(_mo, {i}, {src}))"
        out = _MARK.sub(code, text)
        if not slots:
            return out
        return f"(lambda _mo: {out})([_UNSET] * {len(slots)})"

    # ---- more expressions: conditional values, membership, indexing, ranges, players ---------
    def fill_empty_list(self, coll: Node, scope: dict, item: str) -> bool:
        """`c in xs` where `xs` is a variable that `let xs = []` made and nothing has filled yet
        (`if not (c in ends): set ends to ends + [c]`): from here on it holds cards (`c` a card),
        lists of cards (`c` a list of cards) or records (`c` a record: directtuples.py), as
        `bind` reads it at its first fill."""
        got = scope.get(coll.id) if coll.kind == "name" else None
        if not isinstance(got, tuple) or got[1] != "list" or got[0] not in self.empty_lists:
            return False
        kind = "cards" if item == "card" else "cardlists" if item == "cards" else "tuples:" + item[6:]
        scope[coll.id] = (got[0], kind)
        return True

    def map_constant(self, pairs: list) -> V | None:
        """`{k: v, ...}` whose entries are all known when compiling: one constant (numbers, or
        texts); None when some entry is computed (`MapLit.generate` compiles them then)."""
        got = {}
        for kn, vn in pairs:
            k, v = self.map_literal(kn), self.map_literal(vn)
            if k is _NOT_LITERAL or v is _NOT_LITERAL:
                return None
            got[k] = v
        kinds = {type(v) for v in got.values()}
        if kinds == {str}:  # e.g. enumerated values
            return V(self.k(got), "map:str")
        if kinds - {int}:
            raise Unsupported("map values")
        return V(self.k(got), "map")

    def builtin(self, n: Node, args: list, scope: dict) -> V:
        """A builtin function's call (`f_NAME`), its arguments compiled."""
        m = getattr(self, "f_" + n.func, None)
        if m is None:
            raise Unsupported(f"function {n.func}")
        return m(n, args, scope)

    def index_of(self, obj: V, key: V) -> V:
        """`XS[i]` of a list (players, rows, cards, values), or of a map player → answer."""
        if obj.kind.startswith("map:"):
            return V(f"{obj.src}[{key.src}]", obj.kind[4:])
        xs = self.items(obj) if obj.kind in ("zone", "row") else obj
        item = _ITEM_KIND.get(xs.kind) if xs.kind != "list" else "any"
        if xs.kind == "rowpair":
            item = "row"
        if item is None or key.kind not in ("int", "any"):
            return self.index_by_value(obj, xs, item, key)  # by a card, text...: as Python fails (directmixed.py)
        return V(f"{xs.src}[{key.src}]", item, top=xs.top)

    def f_min(self, n, a, scope):
        return V(_extreme("least", self.items(a[0]).src), "int", nn=True)

    def f_max(self, n, a, scope):
        return V(_extreme("most", self.items(a[0]).src), "int", nn=True)

    def f_top(self, n, a, scope):
        xs = self.items(a[0])
        return V(_end_of(xs.src, "-1", "_last"), _ITEM_KIND.get(xs.kind, "any"), top=xs.top)

    def f_bottom(self, n, a, scope):
        xs = self.items(a[0])
        return V(_end_of(xs.src, "0", "_first"), _ITEM_KIND.get(xs.kind, "any"), top=xs.top)

    def f_turn_order(self, n, a, scope):
        return V("R.turn_order()", "players", nn=True)

    def f_next_player(self, n, a, scope):
        p = a[0] if a else V(self.you(scope), "player")
        if p.kind != "player":
            raise Unsupported("next_player of a non-player")
        return V(f"_Seat(({p.src} + 1) % _st.players)", "player", nn=True)

    def f_previous_player(self, n, a, scope):
        p = a[0] if a else V(self.you(scope), "player")
        if p.kind != "player":
            raise Unsupported("previous_player of a non-player")
        return V(f"_Seat(({p.src} - 1) % _st.players)", "player", nn=True)

    def f_sort_by(self, n, a, scope):
        xs, ks = self.items(a[0]), self.items(a[1])
        if ks.kind != "list":
            raise Unsupported("sort_by on non-values")
        return V(f"R.sort_by({xs.src}, {ks.src})", xs.kind, top=xs.top)

    def f_unique_most(self, n, a, scope):
        xs, ks = self.items(a[0]), self.items(a[1])
        if ks.kind != "list":
            raise Unsupported("unique_most on non-values")
        return V(f"R.unique_most({xs.src}, {ks.src})", _ITEM_KIND.get(xs.kind, "any"))

    def f_linked(self, n, a, scope):
        start, pairs = a
        if start.kind in _PLAIN_KINDS and pairs.kind == "list":  # plain values, compared by value
            return V(f"R.linked_values({start.src}, {pairs.src})", "list", elem="other")
        if start.kind != "row" or pairs.kind != "rowpairs":
            raise Unsupported("linked of these")
        return V(f"R.linked({start.src}, {pairs.src})", "rows")

    def face_of(self, n, scope):
        """`d.face` (`read_field`): the face a die shows; none while it is covered."""
        obj = self.expr(n.obj, scope)
        if obj.kind == "card":
            c = obj.src if _SIMPLE.match(obj.src) else None
            if c is None:
                return V(f"R.face({obj.src})", "any")
            if obj.top:  # an item of a list of uncovered cards: never none, never covered
                return V(f"_st.faces.get({c})", "any")
            if obj.nn:  # never none (an item of `all_cards()`)
                return V(f"(None if _COV[{c}] else _st.faces.get({c}))", "any")
            return V(f"(None if {c} is None or _COV[{c}] else _st.faces.get({c}))", "any")
        if obj.kind in ("cards", "zone", "row"):
            xs = self.items(obj)
            return V(f"[R.face(_x) for _x in {unnamed(xs.src)}]", "list")
        raise Unsupported("face of this")

    # ---- mixed lists: cards, players, rows and texts in one list (options of a choice) -------
    # Their items have kind `item`: a card is a plain int, a player a `Seat`, a row a list, a
    # text a str. Where a rule uses an item as a card or a player it is one (the checker and the
    # rule's own tests see to that); tests of what an item is look at its Python type.
    def joined(self, n, left: V, right: V) -> V | None:
        """`A + B` of lists (`Game.add`): a list of values, or a mixed list."""
        if n.op != "+":
            return None
        kinds = {left.kind, right.kind}
        if kinds in ({"players"}, {"rows"}):
            return V(f"({left.src} + {right.src})", left.kind)
        if kinds & {"int", "any", "str", "bool", "none"} or not (kinds & {"list", "mixed"} or kinds == {"cards", "players"}):
            return None
        sides = [self.items(v) if v.kind in ("zone", "row") else v for v in (left, right)]
        if all(v.kind == "list" for v in sides):
            elem = "other" if "other" in (sides[0].elem, sides[1].elem) else \
                sides[0].elem if sides[0].elem == sides[1].elem else None
            return V(f"({sides[0].src} + {sides[1].src})", "list", elem=elem)
        for v in sides:  # a number among cards or players would be taken for one
            if v.kind == "list" and v.elem == "other" and v.src != "[]":
                raise Unsupported("a list joining cards or players with values that are not texts")
            if v.kind not in ("list", "mixed", "cards", "players", "rows"):
                raise Unsupported(f"a list joining a {v.kind}")
        return V(f"({sides[0].src} + {sides[1].src})", "mixed")

    def as_card(self, v: V) -> V:
        if v.kind != "item":
            return v
        if _SIMPLE.match(v.src):
            return V(f"({v.src} if type({v.src}) is int else None)", "card")
        return V(f"_card_or_none({v.src})", "card")

    def compare_item(self, n, left: V, right: V) -> V:
        """`==`/`!=` with an item of a mixed list: a card equals only a card (a plain int)."""
        if n.op not in ("==", "!="):
            raise Unsupported("ordering items of a mixed list")
        other = right if left.kind == "item" else left
        item = left if left.kind == "item" else right
        if other.kind in ("card", "int"):
            test = "is" if other.kind == "card" else "is not"
            eq = f"(type({item.src}) {test} int and {item.src} == {other.src})"
        elif other.kind == "player":
            eq = f"(type({item.src}) is _Seat and {item.src} == {other.src})"
        elif other.kind in ("str", "none", "item"):
            eq = f"({item.src} == {other.src})"
        elif other.kind == "row":
            eq = f"({item.src} is {other.src})"
        else:
            raise Unsupported(f"comparing an item of a mixed list with a {other.kind}")
        return V(eq if n.op == "==" else f"(not {eq})", "bool")

    def zone_refs(self, items: list) -> V:
        """`[pile_a, pile_b]`: a list of zones as `ZoneRef`s (options of a choice label as the task
        engine's do); only piles and sets, so that a chosen one reads as a plain list."""
        out = []
        for v in items:
            zd = self.rs.zones[v.zone]
            if zd.kind not in ("pile", "set", "stack", "row") or zd.per_player:
                raise Unsupported("a list of zones other than shared piles and sets")
            out.append(self.k(ZoneRef(v.zone, None)))
        return V("[" + ", ".join(out) + "]", "zonerefs", nn=True)

    def map_literal(self, n: Node):
        """A map entry known when compiling: a literal, or an enumerated value's name that names
        nothing else (`Compiler.x_name` gives the name itself)."""
        if n.kind == "lit" and isinstance(n.value, (int, str)) and not isinstance(n.value, bool):
            return n.value
        rs = self.rs
        if n.kind == "name" and n.id in self.enum_values and not (
                n.id in rs.zones or n.id in rs.stats or n.id in rs.constants or n.id in rs.card_types or
                n.id in rs.die_types or n.id in SPECIAL_NAMES):
            return n.id
        return _NOT_LITERAL


_NOT_LITERAL = object()
_MAX_INLINED = 200_000  # characters of one rule function call written out

