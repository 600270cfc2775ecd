"""The typed syntax tree: one class per construct of the rule language.

Each class is named after the grammar rule that builds it (`move_stmt` -> `MoveStmt`; a construct
with several surface forms names them all in its docstring) and carries typed fields and the
source location `loc` of the text it was parsed from. `kind` is the construct's short name, the key
the checker and compilers dispatch on. Nodes are immutable by convention and compared by
identity: copies of a running game share them (`__deepcopy__`), and nothing adds attributes to a
node after it is built (the classes have slots). The parser (`language/parser.py`) builds them;
`walk` visits them.
"""
from __future__ import annotations

from dataclasses import dataclass as _dataclass, field as _default, fields, replace as _replace
from typing import Any, ClassVar, Iterator, Protocol

from .diagnostics import ContentError, Diagnostic, Loc, did_you_mean
from .kinds import BOOL, NUMBER, TEXT, ZONE
from .nodeinit import install as _install_inits

__all__ = ["Node", "Decl", "Ability", "walk", "CONSTRUCTS", "Checks", "Generates", "Source", "CARDS", "STATS", "RULES", "TURN", "DICE", "SEATS", "END", "Module", "Effect", "CopiesDecl", "GameDecl", "GameItem", "CardType", "FieldDecl", "RangeType", "BasicType", "EnumType", "DieType", "ZoneDecl", "ZoneProp", "StatDecl", "ConstDecl", "EventDecl", "PhaseDecl", "ProcDecl", "FunctionDecl", "Trigger", "ShortTrigger", "ActionDecl", "Watcher", "AlwaysDecl", "PlacementDecl", "ScoreDecl", "TiebreakDecl", "ValueDecl", "PreferDecl", "HookDecl", "BoardDecl", "BoardItem", "LetStmt", "SetStmt", "AugStmt", "MoveStmt", "DrawStmt", "PlaceStmt", "CoverStmt", "ShuffleStmt", "FireStmt", "ChooseStmt", "SimulChooseStmt", "BreakStmt", "ContinueStmt", "PassStmt", "EndStmt", "PlayTurnStmt", "PlayRoundStmt", "LogStmt", "CallStmt", "IfStmt", "MayCond", "ForStmt", "RepeatStmt", "RollStmt", "GainStmt", "LoseStmt", "AddDummyStmt", "ActionsStmt", "WhereExpr", "IfExpr", "Quantified", "OrExpr", "AndExpr", "NotExpr", "Compare", "InExpr", "IsExpr", "CanPlaceExpr", "RangeLit", "Arith", "Neg", "OfExpr", "Attr", "Index", "Call", "Lit", "Name", "ListLit", "Comprehension", "MapLit", "Count"]

_constructs: list[type] = []  # every class made by `_node`, given its `__init__` at the end of the module


def _node(cls: type) -> type:
    """A construct class: a slotted dataclass of keyword-only fields, compared by identity. Its
    `__init__` is written with every other construct's at the end of this module (nodeinit.py:
    one compilation, kept, instead of one per class)."""
    cls = _dataclass(eq=False, repr=False, kw_only=True, slots=True, init=False)(cls)
    _constructs.append(cls)
    return cls


class Generates(Protocol):
    """What a construct's `generate(gen, scope)` may use of the code generator
    (engine/directexpr.py), which passes itself in: `gen.expr(part, scope)` is a part's typed
    Python source (`src`, `kind`: "int", "card", ...), `gen.value(src, kind)` makes such a value and
    `gen.unsupported(what)` refuses a form it cannot generate. No rule text may go into `src`
    (constants go through the generator's table). Every expression defines `generate` (the
    generator has no `e_KIND`); a construct that defines the classmethod `build(loc, parts, src)`
    (`Source`) needs no transformer method in language/parser.py."""

    def expr(self, n: "Node", scope: dict) -> Any: ...

    def value(self, src: str, kind: str, **known: Any) -> Any: ...

    def unsupported(self, what: str) -> Any: ...

    # --- for statements ---
    # A statement's `emit(gen, d, scope, loops)` writes its lines at indentation depth `d`
    # (`scope`: rule variable -> (Python local, kind); `loops`: the loops around it); it may add
    # names to `scope` (`gen.bind`). A statement that can wait yields its decision (`gen.decision`).
    rs: Any  # the Ruleset being compiled
    p: Any  # the Program being compiled (engine/game.py: its boards, grids, what its code reads)
    events: set[str]  # the events some trigger answers (a `fire` of any other does nothing)
    changed: bool  # the state may have changed since the last settle check (set True after a change)
    sync: bool  # writing a state-based rule's body: no decision, no procedure call, no `fire`
    empty_lists: set[str]  # locals that hold `[]` so far (their kind is learnt from what joins them)
    placement_names: dict[str, str]  # zone -> the generated function of its placement rule
    known_positions: dict[int, str]  # id of a `place` statement -> the temp holding its positions
    procs: dict[str, str]  # procedure -> its generated function's name
    arg_kinds: dict[str, list[str]]  # procedure -> the kinds of its arguments
    procs_written: set[str]  # procedures whose functions are written (their argument kinds fixed)
    max_inline_depth: int  # the deepest indentation a procedure's body is written out at
    short_fns: dict[str, list[str]]  # stat -> the functions of its `when short of` bodies

    def emit(self, depth: int, text: str, loc: Loc | None = None) -> None:
        """Write one line of Python at `depth`, for the rule at `loc` (else the statement's)."""

    def k(self, value: Any) -> str:
        """The generated name of constant `value` (no rule text goes into the source)."""

    def temp(self, prefix: str = "_t") -> str:
        """A fresh local name."""




    def cardish(self, kind: str) -> bool:
        """Whether a value of `kind` is cards (a card, cards, a zone, a row)."""

    def cards_src(self, v: Any) -> str:
        """Source of a snapshot list of the card ids of `v`."""

    def kept(self, v: Any) -> str:
        """Source of `v` as kept in a variable (a live list of the state copied)."""

    def kind_kept(self, v: Any) -> str:
        """The kind of `v` as kept in a variable."""

    def expr_first(self, n: "Node", scope: dict, d: int, loc: Loc | None) -> Any:
        """`expr` of what a statement at depth `d` evaluates before anything else it does (the
        lists at its head may be written as loops before it)."""

    def listed(self, n: "Node", elem: str, x: str, items: str, cond: str | None, kind: str, **known: Any) -> Any:
        """The list `[elem for x in items if cond]` construct `n` makes (as a loop before the
        statement where `expr_first` allows)."""

    def tested(self, n: "Node", quantifier: str, cond: str, target: str, items: str) -> Any:
        """`every|some|no TARGET in ITEMS has COND` that construct `n` tests (as a loop before the
        statement where `expr_first` allows)."""

    def bind(self, scope: dict, name: str, kind: str) -> str:
        """The local that rule variable `name` of `kind` is written to (made when new)."""

    def you(self, scope: dict) -> str:
        """Source of `you` in `scope` ("None": the active player)."""

    def block(self, stmts: list["Node"], d: int, scope: dict, loops: int) -> None:
        """Write a body's statements at depth `d` ("pass" when there are none)."""

    def settle_check(self, d: int) -> None:
        """Write a settle check at depth `d` when the state may have changed."""

    def count_round(self, d: int, body: list["Node"]) -> None:
        """Write a loop round's count against the step and work limits."""

    def loop_body(self, d: int, body: list["Node"], scope: dict, loops: int, ends: bool = True) -> None:
        """Write a loop's body (after `count_round`), with a settle check first only where a round
        may begin on a changed state (`ends`: the loop can end without a `break`)."""

    def asker(self, player: str) -> str:
        """Source of the seat that answers `player`'s question."""

    def field_single(self, name: str) -> bool:
        """Whether no card's field `name` holds a list or map."""

    def named(self, src: str) -> tuple[str, str]:
        """A card's source read more than once: (its first read, each later read)."""

    def unnamed(self, src: str) -> str:
        """`src` fit to be a comprehension's iterable (no card named in it)."""

    def decision(self, player: str, kind: str, prompt: str, options: str, labels: str = "None",
                 loc: Any = None, prompt_of: str | None = None, asked: str | None = None) -> str:
        """Source of a decision for `player` to yield (the driver sends back the answer's index)."""

    def stat_store(self, name: str, v: Any) -> str:
        """Source of `v` as stored in stat `name`."""

    def set_card_stat(self, name: str, v: Any, d: int, n: "Node") -> bool:
        """Write `set` of a shared stat that holds cards; False when `name` is not one."""

    def dest(self, n: "Node", scope: dict) -> Any:
        """The zone `n` names as a destination of cards (a pile, set, row or stack)."""

    def emit_move_one(self, d: int, card: str, dest: Any, bottom: bool, loc: Any, known: bool = False,
                      top_of: Any = None) -> None:
        """Write the move of card `card` to zone `dest` (`known`: it is not none; `top_of`: a
        plain zone whose top card it is)."""

    def plain_zone(self, v: Any) -> bool:
        """Whether zone `v` keeps its cards in one list, known when compiling (a pile or set)."""

    def emit_move_many(self, d: int, what: Any, dest: Any, bottom: bool, loc: Any, once: bool = False,
                       top_of: Any = None) -> None:
        """Write the move of the cards `what` to zone `dest`, one by one (`once`: `dest` worked out
        once, before the first card: no move can change it, `fixed_dest`; `top_of`: the zone whose
        top cards, topmost first, `what` holds)."""

    def fixed_dest(self, n: "Node") -> bool:
        """Whether no move of cards can change the zone destination `n` names (`once` above)."""

    def emit_fire(self, d: int, event: str, subject: str, actor: str, loc: Any) -> None:
        """Write `fire EVENT on SUBJECT by ACTOR` (nothing when no rule answers the event)."""

    def fire_each(self, d: int, event: str, cards: str, actor: str, loc: Any) -> None:
        """Write `EVENT` fired on each card of the list local `cards`."""

    def fire_in_turn(self, d: int, event: str, cards: str, actor: str, loc: Any) -> None:
        """Write `EVENT` fired on each card of the list local `cards` in turn, each card's
        triggers run before the next card's are found."""

    def free_placement(self, zname: str, loc: Any) -> None:
        """Make the placement function of zone `zname`, which has no placement rule."""

    def placement_call(self, zone: Any, card: str) -> str:
        """Source of the positions where `card` may be placed in `zone`."""

    def grid_zone(self, name: str) -> bool:
        """Whether zone `name` is a grid."""

    def grid_place(self, d: int, card: str, key: str, pos: str, loc: Any) -> None:
        """Write the placing of `card` on grid `key` at position `pos`."""

    def recursive(self) -> set[str]:
        """The procedures that may call themselves (never written out in place)."""

    def used_as_player(self, proc: str, i: int) -> bool:
        """Whether procedure `proc` uses its `i`th parameter as a player."""

    def inlined(self, name: str) -> bool:
        """Whether a call of procedure `name` is written out in place."""

    def inline_call(self, name: str, args: list, d: int, scope: dict, n: "Node") -> None:
        """Write procedure `name`'s body in place, given the values `args`."""

    def proc_call(self, name: str, args: list, d: int, scope: dict, n: "Node") -> None:
        """Write a call of procedure `name`'s function for these arguments' kinds."""

    # --- for expressions ---
    card_stats: frozenset  # shared stats that hold lists of cards
    stat_kinds: dict  # stats that hold something else than numbers: name -> kind
    const_nn: set  # constants whose value is a number, never none
    maybe_none: set  # stats a write may leave none or not a number (engine/direct.py `number_stats`)
    const_kinds: dict  # constant -> the kind of its value
    enum_values: Any  # the names of enumerated values
    plain_kinds: tuple[str, ...]  # values kept as they are: numbers, texts, truth values, any
    single_kinds: tuple[str, ...]  # values known to be neither lists nor cards

    def is_local(self, src: str) -> bool:
        """Whether `src` is a plain local name (it may be evaluated twice)."""
    def item_kind(self, kind: str) -> str | None:
        """The kind of an item of a list of kind `kind` (None: not a list)."""
    def scoped(self, name: str, scope: dict) -> Any:
        """The value of `name` where `scope` binds it (a variable, a parameter), else None."""
    def zone(self, name: str, owner: str | None) -> Any:
        """Zone `name` (of the player at source `owner`, for a player's zone) as a value."""
    def stat_read(self, name: str, src: str) -> Any:
        """The value of stat `name`, held at source `src` in the state, in its kind."""
    def items(self, v: Any) -> Any:
        """A list to iterate over (a zone's cards, rows flattened)."""
    def list_kind(self, item: str) -> str:
        """The kind of a list of items of kind `item`."""
    def built_list(self, items: list) -> str:
        """A list literal's source (charged to the memory budget) of compiled items."""
    def list_of(self, items: list) -> Any:
        """A list literal of compiled items: cards, players, zones, rows or plain values."""
    def records_of(self, rows: list) -> Any:
        """Compiled rows as a list of records (a card and plain values each), else None."""
    def record_of(self, items: list) -> Any:
        """Compiled items as one record, or a list of records, else None."""
    def records_syntax(self, x: Any, scope: dict) -> bool:
        """Whether `x` is written as records (a variable holding them, `[w]` of record variables)."""
    def pairs_syntax(self, x: Any) -> bool:
        """Whether `x` is written as lists of card lists, or lists of records held in a stat."""
    def learn_records(self, name: str, kind: str) -> None:
        """Stat `name` holds records of `kind`: the module is compiled again knowing it."""
    def joined(self, n: Any, left: Any, right: Any) -> Any:
        """`A + B` of lists of values or of a mixed list, else None."""
    def mixed_arith(self, n: Any, left: Any, right: Any) -> Any:
        """An operator on texts, a list and a value, cards: what the rules do with them."""
    def compare_item(self, n: Any, left: Any, right: Any) -> Any:
        """`==`/`!=` with an item of a mixed list."""
    def compare_lists(self, n: Any, left: Any, right: Any) -> Any:
        """`==`/`!=` of two lists."""
    def as_card(self, v: Any) -> Any:
        """An item of a mixed list read as a card (none if it is not one)."""
    def fill_empty_list(self, coll: Any, scope: dict, item: str) -> bool:
        """`c in xs`, `xs` a `let xs = []` nothing filled yet: from here on it holds `item`s."""
    number_owners: bool  # a number as a zone's or stat's owner is a seat (expressions on their own)
    def builtin_of(self, n: Any, owner: Any, scope: dict) -> Any:
        """`NAME of X` where NAME is a builtin of one value (`next_player of P`)."""
    def face_of(self, n: Any, scope: dict) -> Any:
        """`d.face`: the face a die shows."""
    def card_fields(self) -> set:
        """Every field some card has."""
    def type_values(self, n: Any) -> list:
        """`Type.field`: the values a card type's enumerated or ranged field may take."""
    def field(self, name: str) -> str:
        """The local holding card field `name`'s table."""
    def field_read(self, table: str, card: str) -> str:
        """The source of a card's field read from its table (through a copy where cards copy)."""
    def where_parts(self, n: Any, scope: dict) -> tuple:
        """`ITEMS where COND`: (the items, the item's local, the condition's source, the card types it admits)."""
    def field_never_none(self, name: str, types: frozenset) -> bool:
        """Whether every card of these types has the field."""
    def field_of_value(self, v: Any, name: str) -> Any:
        """A field of a number, text or truth value: an error when run (none of none)."""
    def record_shape(self, kind: str) -> list:
        """The kinds of a record's positions (`tuple:card,int` -> ["card", "int"])."""
    def index_of(self, obj: Any, key: Any) -> Any:
        """`XS[i]` of a list, or of a map player -> answer."""
    def charged(self, items: str) -> str:
        """A binding construct's items, counted against the work limit inside another one."""
    def binding(self) -> Any:
        """A context: compiling a binding construct's body (`where`, a quantifier, a comprehension)."""
    def rule_call(self, n: Any, scope: dict) -> Any:
        """A rule function's call: its expression compiled where it is called."""
    def builtin(self, n: Any, args: list, scope: dict) -> Any:
        """A builtin function's call, its arguments compiled."""
    def map_constant(self, pairs: list) -> Any:
        """A map whose entries are all known when compiling, as one constant; else None."""
    def rule_value(self, v: Any) -> str:
        """The source of a value in the form the rules keep (cards as the cards themselves)."""


class Source(Protocol):
    """What a construct's `build(loc, parts, src)` may ask of the parse under way (the parser's
    transformer passes itself in): where one of the rule's tokens was written (`token_loc`, for a
    diagnostic that points at a name or an operator), a number or text token decoded as the
    language decodes it (`number`: the digit limit; `text`: the escapes), and which of the
    construct's grammar rules is being reduced (`rule`: one class may be built by several). `loc`
    is the whole rule's location, `parts` its children as Lark filtered them."""

    rule: str  # the grammar rule (alias) being built

    def token_loc(self, tok: Any) -> Loc: ...
    def number(self, tok: Any) -> int: ...
    def text(self, tok: Any) -> str: ...


class Checks(Protocol):
    """What a construct's `check` may use of the checker (analysis/checker.py `_Checker`): the
    ruleset, its shared findings and its general checks. A construct checks its own parts through
    `expr` (any value), `cond` (a condition) or `number_arg` (a number)."""

    rs: Any  # the Ruleset being checked
    used: set[str]  # declarations some rule uses (the rest are warned as unused)
    builtins: Any  # the builtin registry (library.BUILTINS)
    card_fields: dict  # field name -> the card types that have it
    lost_types: bool  # a card type or declaration did not parse: any field or value may exist
    lost_names: set  # names declared in parts of the rules that did not parse

    def expr(self, n: "Node", scope: set[str]) -> None: ...
    def kind(self, n: "Node", scope: set[str]) -> str | None: ...
    def name_kind(self, n: "Name", scope: set[str]) -> str | None: ...
    def stat_kind(self, name: str) -> str | None: ...
    def cond(self, n: "Node", scope: set[str]) -> None: ...
    def number_arg(self, n: "Node", scope: set[str], message: str) -> None: ...
    def name(self, n: "Name", scope: set[str]) -> None: ...
    def call(self, n: "Call", scope: set[str]) -> None: ...
    def compare(self, n: "Compare", scope: set[str]) -> None: ...
    def arith(self, n: "Arith", scope: set[str]) -> None: ...
    def undefined(self, name: str, loc: Loc | None, candidates: set[str], what: str = "name",
                  hint: str | None = None) -> None: ...
    def error(self, code: str, message: str, loc: Loc | None, hint: str | None = None) -> None: ...
    # for statements: their bodies, the names they bind, what they use of the rules
    fired: set[str]  # events some `fire` fires
    fired_on: set[str]  # events some `fire` gives a subject (`on ...`)
    flow: set[str]  # `play_turn`, `play_round`, `pass`: the statements that shape the flow of play
    builtin_events: set[str]  # the events the engine fires itself

    def block(self, stmts: list["Node"], scope: set[str], loops: int) -> None: ...
    def bind(self, name: str, loc: Loc | None, scope: set[str]) -> None: ...
    def target(self, t: "Node", scope: set[str]) -> None: ...
    def assigned_kind(self, s: "Node", scope: set[str]) -> None: ...
    def cards_arg(self, n: "Node", scope: set[str], message: str) -> None: ...
    def zone_arg(self, n: "Node", scope: set[str], message: str) -> None: ...
    def call_stmt(self, s: "CallStmt", scope: set[str]) -> None: ...


# the words `x is ...` knows besides card and die types
_IS_WORDS = frozenset({"empty", "covered", "none", "unknown", "dummy"})

# What a statement may change (`Node.writes`). RULES: it runs other rules (triggers, procedures,
# a turn), which may change anything.
CARDS, STATS, RULES, TURN, DICE, SEATS, END = "cards", "stats", "rules", "turn", "dice", "seats", "end"


@_node
class Node:
    """A construct of the language, where it was written (`loc`)."""

    kind: ClassVar[str] = ""
    grammar: ClassVar[tuple[str, ...]] = ()  # the grammar rules that build it
    # Its effects, its parts aside (analysis/effects.py walks a tree with them): whether it may
    # stop for a decision or start other rules that may (`waits`), what game state it may change
    # (`writes`: CARDS, STATS, RULES, ...), and which of its own fields name where it writes rather than
    # what it reads (`written`: `move ... to Z` changes Z, it does not read it).
    waits: ClassVar[bool] = False
    writes: ClassVar[frozenset[str]] = frozenset()
    written: ClassVar[tuple[str, ...]] = ()
    gives: ClassVar[str | None] = None  # the kind of value it always gives, when that is fixed
    # A chain of parts joined by operators (`a + b - c`, `a or b`): `build` gives a lone part back as
    # it is, so the parser passes one on without calling `build` (a third of all reductions).
    chain: ClassVar[bool] = False
    loc: Loc

    def __repr__(self) -> str:
        inner = ", ".join(f"{f}={getattr(self, f)!r}" for f in _field_names(type(self)))
        return f"{self.kind}({inner})"

    def __deepcopy__(self, memo) -> "Node":
        return self  # syntax is immutable: copies of a game share it

    @property
    def field_names(self) -> tuple[str, ...]:
        """The construct's own fields (location and mod markers aside), in declaration order."""
        return _field_names(type(self))

    def describe(self) -> str:
        """The construct in plain English, as a designer would read it on a card or in `explain`."""
        raise NotImplementedError(type(self).__name__)

    def children(self) -> Iterator["Node"]:
        for f in _field_names(type(self)):
            yield from _nodes_in(getattr(self, f))

    def value_kind(self, ck: "Checks", scope: set[str]) -> str | None:
        """The kind of value it certainly gives (language/kinds.py: ZONE, NUMBER, BOOL, TEXT), or
        None when it could be anything: the language's static types, asked through `ck.kind`."""
        return self.gives

    def check(self, ck: "Checks", scope: set[str]) -> None:
        """Its static checks (names, kinds, arity), reported through the checker `ck`, which
        passes itself in (the tree never imports the analysis); `scope`: the variables bound here.
        By default each part is checked as a value."""
        for child in self.children():
            ck.expr(child, scope)


@_node
class Decl(Node):
    """A top-level declaration; `replace` marks it as a mod's replacement of the base's."""

    replace: bool = False


@_node
class Stmt(Node):
    """A statement: a line (or block) of a body that does something."""

    def check(self, ck: "Checks", scope: set[str], loops: int = 0) -> None:
        """As `Node.check`; `scope` grows with the names it binds, `loops`: the loops around it."""
        for child in self.children():
            ck.expr(child, scope)


@_node
class Expr(Node):
    """An expression: computes a value (it may draw from the random source, nothing else)."""


@_node
class Ability(Decl):
    """A trigger or action a card can carry; `part` names the card part it belongs to, if any."""

    part: str | None = None


_FIELDS: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    """The construct's own fields (location and mod markers aside), in declaration order."""
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in fields(cls) if f.name not in ("loc", "replace", "part"))
    return names


# field annotations that say a field never holds a construct (nor a list of them)
_NOT_NODES = frozenset({"str", "str | None", "int", "int | None", "bool", "Loc", "Loc | None", "list[str]",
                        "list[str] | None"})
_NODE_FIELDS: dict[type, tuple[str, ...]] = {}


def node_fields(cls: type) -> tuple[str, ...]:
    """The construct's own fields that may hold constructs, in declaration order: `_field_names`
    less those whose annotation is a text, number, truth value or location (or a list of texts).
    Why: a walk over every node of a parse (the depth check, `walk`) need not read the others;
    tests/language/test_tree.py checks that no shipped ruleset's construct holds one there."""
    names = _NODE_FIELDS.get(cls)
    if names is None:
        types = {f.name: f.type for f in fields(cls)}
        names = _NODE_FIELDS[cls] = tuple(f for f in _field_names(cls) if types[f] not in _NOT_NODES)
    return names


def _nodes_in(value: Any) -> Iterator[Node]:
    if isinstance(value, Node):
        yield value
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _nodes_in(v)


def walk(node: Node) -> Iterator[Node]:
    """Every node below (and including) `node`, depth first, without recursion limits."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        names = _NODE_FIELDS.get(n.__class__)
        if names is None:
            names = node_fields(n.__class__)
        kids: list[Node] = []  # `n.children()`, without a generator per node and per list
        for f in names:
            v = getattr(n, f)
            if isinstance(v, Node):
                kids.append(v)
            elif isinstance(v, (list, tuple)):
                for c in v:
                    if isinstance(c, Node):
                        kids.append(c)
                    elif isinstance(c, (list, tuple)):
                        kids.extend(_nodes_in(c))
        if kids:
            kids.reverse()
            stack += kids


# ---- module --------------------------------------------------------------------------------------


@_node
class Module(Node):
    """A whole `.rules` file: its declarations, what did not parse, and which ruleset of an `extends` chain it belongs to."""

    kind: ClassVar[str] = "module"
    grammar: ClassVar[tuple[str, ...]] = ('start',)

    decls: list[Node]
    unparsed: list
    layer: str = ""

    def describe(self) -> str:
        return "\n".join(d.describe() for d in self.decls)

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "Module":
        return cls._make(loc=loc, decls=[p for p in parts if isinstance(p, Node)], unparsed=[])


@_node
class Effect(Node):
    """A card's `effect:` text: the triggers and actions the card brings."""

    kind: ClassVar[str] = "effect"
    grammar: ClassVar[tuple[str, ...]] = ('effect',)

    triggers: list[Node]
    unparsed: list
    copies: list[Node] = _default(default_factory=list)  # `copies EXPR` clauses (CopiesDecl)

    def describe(self) -> str:
        return "\n".join(t.describe() for t in list(self.copies) + list(self.triggers))

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "Effect":
        flat = [x for p in parts for x in (p if isinstance(p, list) else [p])]  # a `part` holds several
        return cls.of(loc, [x for x in flat if isinstance(x, Node)], [])

    @classmethod
    def of(cls, loc: Loc, items: list[Node], unparsed: list) -> "Effect":
        """The effect of these abilities and `copies` clauses, kept apart (a `copies` is no ability);
        also for an effect text rebuilt after a syntax error from the parts that parsed."""
        copies = [i for i in items if isinstance(i, CopiesDecl)]
        return cls._make(loc=loc, triggers=[i for i in items if not isinstance(i, CopiesDecl)], unparsed=unparsed,
                   copies=copies)


@_node
class CopiesDecl(Node):
    """`copies EXPR` in a card's effect: while EXPR gives a card, this card counts as a live copy
    of it — its fields (those the other card has) and its triggers and actions — so that a card
    that "is an exact copy of" another follows that card as it changes."""

    kind: ClassVar[str] = "copies"
    grammar: ClassVar[tuple[str, ...]] = ('copies_decl',)

    expr: Node

    def describe(self) -> str:
        return f"While {_d(self.expr)} is a card, this card is an exact copy of it."

    def check(self, ck: "Checks", scope: set[str]) -> None:
        ck.expr(self.expr, scope | {"you", "this"})

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "CopiesDecl":
        return cls._make(loc=loc, expr=parts[0])


# ---- declarations --------------------------------------------------------------------------------


@_node
class GameDecl(Decl):
    """`game "Title":` with its settings (players, ...)."""

    kind: ClassVar[str] = "game"
    grammar: ClassVar[tuple[str, ...]] = ('game_decl',)

    title: str
    items: list[Node]

    def describe(self) -> str:
        return f"The game {self.title!r}: " + "; ".join(i.describe() for i in self.items) + "."

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "GameDecl":
        return cls._make(loc=loc, title=src.text(parts[0]), items=parts[1:])


@_node
class GameItem(Node):
    """One setting of the game header: `players 2..6`."""

    kind: ClassVar[str] = "game_item"
    grammar: ClassVar[tuple[str, ...]] = ('game_item',)

    name: str
    value: Node
    name_loc: Loc | None

    def describe(self) -> str:
        return f"{_words(self.name)} {_d(self.value)}"

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "GameItem":
        return cls._make(loc=loc, name=str(parts[0]), value=parts[1], name_loc=src.token_loc(parts[0]))


@_node
class CardType(Decl):
    """`card type Name:` and its fields."""

    kind: ClassVar[str] = "card_type"
    grammar: ClassVar[tuple[str, ...]] = ('card_type',)

    name: str
    fields_: list[Node]
    name_loc: Loc | None

    def describe(self) -> str:
        a = "An" if self.name[:1].upper() in "AEIOU" else "A"
        return f"{a} {self.name} card has " + (_and([f.describe() for f in self.fields_]) if self.fields_ else "no fields") + "."

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "CardType":
        return cls._make(loc=loc, name=str(parts[0]), fields_=parts[1:], name_loc=src.token_loc(parts[0]))


@_node
class FieldDecl(Node):
    """A card type's field: `number: 1..5`, optionally `= default`."""

    kind: ClassVar[str] = "field"
    grammar: ClassVar[tuple[str, ...]] = ('field_decl',)

    name: str
    type: Node
    default: Node | None
    name_loc: Loc | None

    def describe(self) -> str:
        return f"a {_words(self.name)} ({self.type.describe()})" + (f", {_d(self.default)} unless the card says otherwise" if self.default is not None else "")

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "FieldDecl":
        return cls._make(loc=loc, name=str(parts[0]), type=parts[1], default=parts[2] if len(parts) > 2 else None,
                   name_loc=src.token_loc(parts[0]))


@_node
class RangeType(Node):
    """A field type `lo..hi` (whole numbers)."""

    kind: ClassVar[str] = "range_type"
    grammar: ClassVar[tuple[str, ...]] = ('range_type',)

    lo: int
    hi: int

    def describe(self) -> str:
        return f"a number from {self.lo} to {self.hi}"

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "RangeType":
        return cls._make(loc=loc, lo=src.number(parts[0]), hi=src.number(parts[1]))


@_node
class BasicType(Node):
    """A field type `number`, `text` or `flag`."""

    kind: ClassVar[str] = "basic_type"
    grammar: ClassVar[tuple[str, ...]] = ('enum_type',)  # `EnumType.build` makes it: one word, a basic type's

    name: str

    def describe(self) -> str:
        return {"number": "a number", "text": "a text", "flag": "yes or no"}.get(self.name, self.name)


@_node
class EnumType(Node):
    """A field type listing its values: `Red | Green | Blue`."""

    kind: ClassVar[str] = "enum_type"
    grammar: ClassVar[tuple[str, ...]] = ('enum_type',)

    values: list[str]

    def describe(self) -> str:
        return "one of " + _or(self.values)

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "EnumType | BasicType":
        """`NAME (| NAME)*`: one word that names a basic type is that type (`BasicType`), else the
        values of an enumeration (the one grammar rule builds both)."""
        names = [str(t) for t in parts]
        if len(names) == 1 and names[0] in ("number", "text", "flag"):
            return BasicType(loc=loc, name=names[0])
        return cls._make(loc=loc, values=names)


@_node
class DieType(Decl):
    """`die type Name: faces[, N dice]`."""

    kind: ClassVar[str] = "die_type"
    grammar: ClassVar[tuple[str, ...]] = ('die_type',)

    name: str
    faces: Node
    count: int

    def describe(self) -> str:
        return f"{'An' if self.name[:1].upper() in 'AEIOU' else 'A'} {self.name} die has the faces {_d(self.faces)}" + (f"; there are {self.count} of them" if self.count else "") + "."

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "DieType":
        return cls._make(loc=loc, name=str(parts[0]), faces=parts[1], count=src.number(parts[2]) if parts[2] is not None else 0)


@_node
class ZoneDecl(Decl):
    """`zone name: pile, shared, hidden`."""

    kind: ClassVar[str] = "zone"
    grammar: ClassVar[tuple[str, ...]] = ('zone_decl',)

    name: str
    props: list[Node]
    name_loc: Loc | None

    def describe(self) -> str:
        return f"The {_words(self.name)} is a zone: " + ", ".join(p.describe() for p in self.props) + "."

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "ZoneDecl":
        return cls._make(loc=loc, name=str(parts[0]), props=parts[1:], name_loc=src.token_loc(parts[0]))


@_node
class ZoneProp(Node):
    """One property of a zone: words and a number (`rows 3`), or `grid W x H`."""

    kind: ClassVar[str] = "zone_prop"
    grammar: ClassVar[tuple[str, ...]] = ('zone_prop', 'grid_prop',)

    words: str
    number: int | None
    width: int | None = None
    height: int | None = None

    def describe(self) -> str:
        return f"a {self.width} by {self.height} grid" if self.words == "grid" else " ".join(w for w in (self.words, str(self.number) if self.number is not None else "") if w)

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "ZoneProp":
        if src.rule == "grid_prop":  # `grid W x H`
            return cls._make(loc=loc, words="grid", number=None, width=src.number(parts[0]), height=src.number(parts[1]))
        words = [str(t) for t in parts if t is not None and t.type == "NAME"]  # `rows 3`: words, then a number
        num = [src.number(t) for t in parts if t is not None and t.type == "INT"]
        return cls._make(loc=loc, words=" ".join(words), number=num[0] if num else None)


@_node
class StatDecl(Decl):
    """`[player] stat name[: lo..hi] [= init]`; `lo..` has no upper bound."""

    kind: ClassVar[str] = "stat"
    grammar: ClassVar[tuple[str, ...]] = ('stat_decl',)

    name: str
    per_player: bool
    lo: int | None
    hi: int | None
    init: Node | None
    name_loc: Loc | None

    def describe(self) -> str:
        bounds = (f" ({self.lo} to {self.hi})" if self.hi is not None else f" (at least {self.lo})") \
            if self.lo is not None else ""
        init = f", starting at {_d(self.init)}" if self.init is not None else ""
        return f"{'Each player has' if self.per_player else 'The game keeps'} {_words(self.name)}{bounds}{init}."

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "StatDecl":
        per_player, name, bounds, init = parts  # `per_player` and `stat_bounds`: the parser's plumbing
        lo, hi = bounds if bounds is not None else (None, None)
        return cls._make(loc=loc, name=str(name), per_player=per_player is not None, lo=lo, hi=hi, init=init,
                   name_loc=src.token_loc(name))


@_node
class ConstDecl(Decl):
    """`constant NAME = expr`."""

    kind: ClassVar[str] = "constant"
    grammar: ClassVar[tuple[str, ...]] = ('const_decl',)

    name: str
    value: Node
    name_loc: Loc | None

    def describe(self) -> str:
        return f"{_words(self.name)} is {_d(self.value)}."

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "ConstDecl":
        return cls._make(loc=loc, name=str(parts[0]), value=parts[1], name_loc=src.token_loc(parts[0]))


@_node
class EventDecl(Decl):
    """`event name`."""

    kind: ClassVar[str] = "event"
    grammar: ClassVar[tuple[str, ...]] = ('event_decl',)

    name: str
    name_loc: Loc | None

    def describe(self) -> str:
        return f"{_words(self.name)} is an event rules and cards can answer."

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "EventDecl":
        return cls._make(loc=loc, name=str(parts[0]), name_loc=src.token_loc(parts[0]))


@_node
class PhaseDecl(Decl):
    """`setup:`, `turn:`, `round:` or `play:` with its body."""

    kind: ClassVar[str] = "phase"
    grammar: ClassVar[tuple[str, ...]] = ('phase_decl',)

    name: str
    body: list[Node]

    def describe(self) -> str:
        return f"{_PHASES.get(self.name, self.name)}: {_body(self.body)}."

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "PhaseDecl":
        return cls._make(loc=loc, name=str(parts[0]), body=parts[-1])  # the rule keeps its keyword (`!phase_decl`)


@_node
class ProcDecl(Decl):
    """`procedure name(params):` body."""

    kind: ClassVar[str] = "procedure"
    grammar: ClassVar[tuple[str, ...]] = ('proc_decl',)

    name: str
    params: list[str]
    body: list[Node]
    name_loc: Loc | None = None

    def describe(self) -> str:
        params = f" (given {_and([_words(p) for p in self.params])})" if self.params else ""
        return f"To {_words(self.name)}{params}: {_body(self.body)}."

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "ProcDecl":
        return cls._make(loc=loc, name=str(parts[0]), params=parts[1] or [], body=parts[2], name_loc=src.token_loc(parts[0]))


@_node
class FunctionDecl(Decl):
    """`function name(params) = expr`: a pure rule function."""

    kind: ClassVar[str] = "function"
    grammar: ClassVar[tuple[str, ...]] = ('function_decl',)

    name: str
    params: list[str]
    expr: Node

    def describe(self) -> str:
        params = f" of {_and([_words(p) for p in self.params])}" if self.params else ""
        return f"The {_words(self.name)}{params} is {_d(self.expr)}."

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "FunctionDecl":
        return cls._make(loc=loc, name=str(parts[0]), params=parts[1] or [], expr=parts[2])


@_node
class Trigger(Ability):
    """`when event [(binder)] [if cond]:` body; `whenever` has no once-per-turn limit."""

    kind: ClassVar[str] = "trigger"
    grammar: ClassVar[tuple[str, ...]] = ('trigger', 'whenever',)

    event: str
    binder: str | None
    cond: Node | None
    body: list[Node]
    event_loc: Loc | None = None
    whenever: bool = False

    def describe(self) -> str:
        who = f" ({self.binder})" if self.binder else ""
        cond = f", if {_d(self.cond)}" if self.cond is not None else ""
        word = "Whenever" if self.whenever else "When"
        return f"{word} {_words(self.event)}{who}{cond}: {_body(self.body)}."

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "Trigger":
        event, binder, cond, body = parts
        if src.rule == "whenever":  # as it always was: a `whenever`'s diagnostics point at the whole trigger
            return cls._make(loc=loc, event=str(event), binder=None if binder is None else str(binder), cond=cond,
                       body=body, whenever=True)
        return cls._make(loc=loc, event=str(event), binder=None if binder is None else str(binder), cond=cond, body=body,
                   event_loc=src.token_loc(event))


@_node
class ShortTrigger(Decl):
    """`when short of stat by n:` body: what paying more than you have does."""

    kind: ClassVar[str] = "short_trigger"
    grammar: ClassVar[tuple[str, ...]] = ('short_trigger',)

    stat: str
    binder: str
    body: list[Node]

    def describe(self) -> str:
        return f"When {self.binder} is short of {_words(self.stat)}: {_body(self.body)}."

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "ShortTrigger":
        return cls._make(loc=loc, stat=str(parts[0]), binder=str(parts[1]), body=parts[2])


@_node
class ActionDecl(Ability):
    """`action "Label" [once per turn] [if cond]:` body."""

    kind: ClassVar[str] = "action"
    grammar: ClassVar[tuple[str, ...]] = ('action_decl',)

    label: str
    limit: int | None
    period: str | None
    cond: Node | None
    body: list[Node]

    def describe(self) -> str:
        limit = f" ({_TIMES.get(self.limit, f'{self.limit} times')} per {self.period})" if self.limit else ""
        cond = f", if {_d(self.cond)}" if self.cond is not None else ""
        return f"Action \u201c{self.label}\u201d{limit}{cond}: {_body(self.body)}."

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "ActionDecl":
        label, limit, cond, body = parts  # `limit`: (count, period) from the parser's `use_limit` plumbing
        return cls._make(loc=loc, label=src.text(label), limit=limit[0] if limit else None,
                   period=limit[1] if limit else None, cond=cond, body=body)


@_node
class Watcher(Decl):
    """`as soon as cond:` body, re-checked after every change."""

    kind: ClassVar[str] = "watcher"
    grammar: ClassVar[tuple[str, ...]] = ('watcher',)

    cond: Node
    body: list[Node]

    def describe(self) -> str:
        return f"As soon as {_d(self.cond)}: {_body(self.body)}."

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "Watcher":
        return cls._make(loc=loc, cond=parts[0], body=parts[1])


@_node
class AlwaysDecl(Decl):
    """`always:` body, a state-based rule re-run after every change."""

    kind: ClassVar[str] = "always"
    grammar: ClassVar[tuple[str, ...]] = ('always_decl',)

    body: list[Node]

    def describe(self) -> str:
        return f"At all times: {_body(self.body)}."

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "AlwaysDecl":
        return cls._make(loc=loc, body=parts[0])


@_node
class PlacementDecl(Decl):
    """`placement in zone as c:` the conditions a card must meet to be placed."""

    kind: ClassVar[str] = "placement"
    grammar: ClassVar[tuple[str, ...]] = ('placement_decl',)

    zone: str
    binder: str
    conds: list[Node]
    zone_loc: Loc | None

    def describe(self) -> str:
        return f"A card may be placed in the {_words(self.zone)} only if " + _and([_d(c) for c in self.conds]) + "."

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "PlacementDecl":
        return cls._make(loc=loc, zone=str(parts[0]), binder=str(parts[1]), conds=list(parts[2:]),
                   zone_loc=src.token_loc(parts[0]))


def _binder_and_expr(cls: type, loc: Loc, parts: list, src: "Source") -> Any:
    """`build` of a declaration of one expression per player (`score p:`, `tiebreak p:`,
    `value p:`): the player's name, then the expression."""
    return cls._make(loc=loc, binder=str(parts[0]), expr=parts[1])


@_node
class ScoreDecl(Decl):
    """`score p: expr`."""

    kind: ClassVar[str] = "score"
    grammar: ClassVar[tuple[str, ...]] = ('score_decl',)

    binder: str
    expr: Node

    def describe(self) -> str:
        return f"A player's score ({self.binder}) is {_d(self.expr)}."

    build = classmethod(_binder_and_expr)


@_node
class TiebreakDecl(Decl):
    """`tiebreak p: expr`."""

    kind: ClassVar[str] = "tiebreak"
    grammar: ClassVar[tuple[str, ...]] = ('tiebreak_decl',)

    binder: str
    expr: Node

    def describe(self) -> str:
        return f"Ties are broken by {_d(self.expr)} ({self.binder} for each tied player)."

    build = classmethod(_binder_and_expr)


@_node
class ValueDecl(Decl):
    """`value p: expr`: what an unfinished game is worth to a player (higher is better).

    Content for bots, not a rule: look-ahead agents judge moves and cut playouts by it, so a
    ruleset can say what progress means (like Ludii's heuristics) without game code."""

    kind: ClassVar[str] = "value"
    grammar: ClassVar[tuple[str, ...]] = ('value_decl',)

    binder: str
    expr: Node

    def describe(self) -> str:
        return f"Bots value a game for a player ({self.binder}) by {_d(self.expr)}, higher being better."

    build = classmethod(_binder_and_expr)


@_node
class PreferDecl(Decl):
    """`prefer p [for "PROMPT"]: expr`: how much player p likes each option (`it`) of a decision he
    answers (with `for`, of the decisions whose prompt begins with PROMPT).

    Content for bots, not a rule: the `guided` agent picks among the options it rates highest,
    so a ruleset can say which moves a sensible player makes (walk toward the goal, take the
    treasure) without look-ahead and without game code."""

    kind: ClassVar[str] = "prefer"
    grammar: ClassVar[tuple[str, ...]] = ('prefer_decl', 'prefer_action')

    binder: str
    prompt: str | None
    expr: Node
    # `prefer p for action "LABEL"`: the label rated (a prefix, as a prompt is); `prompt` is None.
    # Why apart from `prompt`: every action decision asks the same "Choose an action", so only the
    # options' own labels, as the rules and cards declare them, tell the actions apart
    action: str | None = None
    action_loc: Loc | None = None  # where the label is written (diagnostics point at it)

    def describe(self) -> str:
        if self.action is not None:
            return (f"Guided bots rate, for a player ({self.binder}), the actions labelled “{self.action}…” "
                    f"(this: the card offering one) by {_d(self.expr)}.")
        which = f"the options (it) of a decision asking “{self.prompt}…”" if self.prompt is not None \
            else "the options (it) of a decision"
        return f"Guided bots prefer, for a player ({self.binder}), {which} that rate highest by {_d(self.expr)}."

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "PreferDecl":
        binder, said, expr = parts
        if src.rule == "prefer_action":  # `prefer p for action "LABEL": ...`
            return cls._make(loc=loc, binder=str(binder), prompt=None, expr=expr, action=src.text(said),
                       action_loc=src.token_loc(said))
        return cls._make(loc=loc, binder=str(binder), prompt=src.text(said) if said is not None else None, expr=expr)


@_node
class HookDecl(Decl):
    """`before|after procedure name:` or `before|after turn:` (a mod hooks a named part)."""

    kind: ClassVar[str] = "hook"
    grammar: ClassVar[tuple[str, ...]] = ('hook_decl', 'phase_hook',)

    when: str
    name: str
    params: list[str] | None
    body: list[Node]
    name_loc: Loc | None
    phase: bool = False

    def describe(self) -> str:
        what = _PHASES.get(self.name, self.name) if self.phase else f"to {_words(self.name)}"
        return f"{self.when.capitalize()} {what.lower() if self.phase else what}: {_body(self.body)}."

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "HookDecl":
        # `hook_when` and `hook_phase` are the parser's plumbing: the word, and the phase's keyword token
        if src.rule == "phase_hook":  # `before|after turn:`
            when, phase, body = parts
            return cls._make(loc=loc, when=when, name=str(phase), params=None, body=body, name_loc=src.token_loc(phase),
                       phase=True)
        when, name, params, body = parts
        return cls._make(loc=loc, when=when, name=str(name), params=params, body=body, name_loc=src.token_loc(name))


@_node
class ExtendDecl(Decl):
    """`extend card type T:`, `extend constant NAME += [..]` or `extend function NAME(..) += EXPR`:
    a mod adds to a declaration of an earlier ruleset, so that several mods adding to one combine."""

    kind: ClassVar[str] = "extend"
    grammar: ClassVar[tuple[str, ...]] = ('extend_card_type', 'extend_const', 'extend_function',)

    what: str  # "card type", "constant" or "function"
    name: str
    name_loc: Loc | None
    fields_: list[Node]  # a card type's: FieldDecl, EnumExtension (empty for the others)
    params: list[str] | None  # a function's
    value: Node | None  # what a constant or function adds

    def describe(self) -> str:
        if self.what == "card type":
            return f"{self.name} cards also have " + _and([f.describe() for f in self.fields_]) + "."
        params = f" of {_and([_words(p) for p in self.params])}" if self.params else ""
        what = f"{_words(self.name)}{params}" if self.what == "function" else _words(self.name)
        return f"Add {_d(self.value)} to {what}."

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "ExtendDecl":
        name, name_loc = str(parts[0]), src.token_loc(parts[0])
        if src.rule == "extend_card_type":
            return cls._make(loc=loc, what="card type", name=name, name_loc=name_loc, fields_=list(parts[1:]), params=None,
                       value=None)
        if src.rule == "extend_const":
            _adds(parts[1], src)
            return cls._make(loc=loc, what="constant", name=name, name_loc=name_loc, fields_=[], params=None, value=parts[2])
        _adds(parts[2], src)  # extend_function
        return cls._make(loc=loc, what="function", name=name, name_loc=name_loc, fields_=[], params=parts[1] or [],
                   value=parts[3])


def _adds(op: Any, src: "Source") -> None:
    """`extend` only adds: `-=` is refused where it is written."""
    if str(op) != "+=":
        raise ContentError([Diagnostic("error", "syntax", "`extend` adds with `+=`; it cannot take away",
                                       src.token_loc(op),
                                       "write `+=`, or `replace` the declaration to remove something")])


@_node
class EnumExtension(Node):
    """`field += A | B` in `extend card type`: new values of an enumeration field."""

    kind: ClassVar[str] = "enum_extension"
    grammar: ClassVar[tuple[str, ...]] = ('enum_extension',)

    name: str
    values: list[str]
    name_loc: Loc | None

    def describe(self) -> str:
        return f"new {_words(self.name)} values " + _and(self.values)

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "EnumExtension":
        _adds(parts[1], src)
        return cls._make(loc=loc, name=str(parts[0]), values=[str(t) for t in parts[2:]], name_loc=src.token_loc(parts[0]))


@_node
class BoardDecl(Decl):
    """`board name:` its rings, paths and links."""

    kind: ClassVar[str] = "board"
    grammar: ClassVar[tuple[str, ...]] = ('board_decl',)

    name: str
    items: list[Node]
    name_loc: Loc | None

    def describe(self) -> str:
        return f"The board {_words(self.name)}: " + "; ".join(i.describe() for i in self.items) + "."

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "BoardDecl":
        return cls._make(loc=loc, name=str(parts[0]), items=list(parts[1:]), name_loc=src.token_loc(parts[0]))


@_node
class BoardItem(Node):
    """A closed loop of spaces, an open path, or a link from one space to another (optionally one way), each with an optional edge kind."""

    kind: ClassVar[str] = "board_item"
    grammar: ClassVar[tuple[str, ...]] = ('board_circle', 'board_line', 'board_link',)

    shape: str
    spaces: Node
    to: Node | None
    one_way: bool
    edge: str | None

    def describe(self) -> str:
        kind = f" ({_words(self.edge)})" if self.edge else ""
        if self.shape == "link":
            return f"{_d(self.spaces)} leads {'only ' if self.one_way else ''}to {_d(self.to)}{kind}"
        return f"{'a loop of' if self.shape == 'closed' else 'a path through'} {_d(self.spaces)}{kind}"

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "BoardItem":
        if src.rule == "board_link":  # `link A to B [one way] [as KIND]`
            spaces, to, one_way, edge = parts
            return cls._make(loc=loc, shape="link", spaces=spaces, to=to, one_way=one_way is not None,
                       edge=None if edge is None else str(edge))
        spaces, edge = parts  # a closed loop (`board_circle`) or an open path (`board_line`)
        return cls._make(loc=loc, shape="closed" if src.rule == "board_circle" else "open", spaces=spaces, to=None,
                   one_way=False, edge=None if edge is None else str(edge))


# ---- statements ----------------------------------------------------------------------------------


@_node
class LetStmt(Stmt):
    """`let name = expr`."""

    kind: ClassVar[str] = "let"
    grammar: ClassVar[tuple[str, ...]] = ('let_stmt',)

    name: str
    expr: Node
    name_loc: Loc | None

    def describe(self) -> str:
        return f"let {self.name} be {_d(self.expr)}"

    def check(self, ck: Checks, scope: set[str], loops: int = 0) -> None:
        ck.expr(self.expr, scope)
        ck.bind(self.name, self.name_loc or self.loc, scope)

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "LetStmt":
        return cls._make(loc=loc, name=str(parts[0]), expr=parts[1], name_loc=src.token_loc(parts[0]))

    def emit(self, gen: Generates, d: int, scope: dict, loops: int) -> None:
        v = gen.expr_first(self.expr, scope, d, self.loc)
        if self.name in gen.rs.stats or self.name in gen.rs.zones or self.name in gen.rs.constants:
            gen.unsupported("let shadowing a stat, zone or constant")
        py = gen.bind(scope, self.name, gen.kind_kept(v))
        gen.emit(d, f"{py} = {gen.kept(v)}", self.loc)
        if self.expr.kind == "list" and not self.expr.items:
            gen.empty_lists.add(py)


@_node
class SetStmt(Stmt):
    """`set target to expr`."""

    kind: ClassVar[str] = "set"
    grammar: ClassVar[tuple[str, ...]] = ('set_stmt',)
    writes: ClassVar[frozenset[str]] = frozenset({STATS})

    target: Node
    expr: Node

    def describe(self) -> str:
        return f"set {_d(self.target)} to {_d(self.expr)}"

    def check(self, ck: Checks, scope: set[str], loops: int = 0) -> None:
        ck.expr(self.expr, scope)
        ck.target(self.target, scope)
        ck.assigned_kind(self, scope)

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "SetStmt":
        return cls._make(loc=loc, target=parts[0], expr=parts[1])

    def emit(self, gen: Generates, d: int, scope: dict, loops: int) -> None:
        t, rs = self.target, gen.rs
        v = gen.expr(self.expr, scope)
        if t.kind == "name":
            name = t.id
            if name in rs.stats and not rs.stats[name].per_player:
                if gen.set_card_stat(name, v, d, self):
                    return
                gen.emit(d, f"R.set_stat({gen.k(name)}, {gen.stat_store(name, v)})", self.loc)
                gen.changed = True
                return
            if name == "start_player":
                gen.emit(d, f"R.set_start({v.src})", self.loc)
                gen.changed = True
                return
            if name in rs.stats or name in rs.zones or name in rs.constants or name not in scope:
                gen.unsupported("set")
            py = gen.bind(scope, name, gen.kind_kept(v))
            gen.emit(d, f"{py} = {gen.kept(v)}", self.loc)
            return
        if t.kind in ("attr", "of"):
            stat = t.name
            if stat not in rs.stats or not rs.stats[stat].per_player:
                gen.unsupported("set")
            owner = gen.expr(t.obj if t.kind == "attr" else t.owner, scope)
            if owner.kind == "players":  # each seat in turn, the value worked out once
                val, p = gen.temp(), gen.temp()
                gen.emit(d, f"{val} = {gen.stat_store(stat, v)}", self.loc)
                gen.emit(d, f"for {p} in {owner.src}:", self.loc)
                gen.emit(d + 1, f"R.set_pstat({p}, {gen.k(stat)}, {val})", self.loc)
                gen.changed = True
                return
            if owner.kind not in ("player", "int"):  # a number: the seat it indexes, as `Compiler._assign`
                gen.unsupported(f"set a stat of a {owner.kind}")
            gen.emit(d, f"R.set_pstat({owner.src}, {gen.k(stat)}, {gen.stat_store(stat, v)})", self.loc)
            gen.changed = True
            return
        gen.unsupported("set")


@_node
class AugStmt(Stmt):
    """`target += expr` / `-=`."""

    kind: ClassVar[str] = "aug"
    grammar: ClassVar[tuple[str, ...]] = ('aug_stmt',)
    writes: ClassVar[frozenset[str]] = frozenset({STATS})

    target: Node
    op: str
    expr: Node

    def describe(self) -> str:
        return f"{'add' if self.op == '+=' else 'subtract'} {_d(self.expr)} {'to' if self.op == '+=' else 'from'} {_d(self.target)}"

    def check(self, ck: Checks, scope: set[str], loops: int = 0) -> None:
        ck.expr(self.expr, scope)
        ck.target(self.target, scope)
        ck.assigned_kind(self, scope)

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "AugStmt":
        return cls._make(loc=loc, target=parts[0], op=str(parts[1]), expr=parts[2])

    def emit(self, gen: Generates, d: int, scope: dict, loops: int) -> None:
        """`X += N`, `X -= N` on a number: a variable, a stat or a player's stat."""
        t, rs = self.target, gen.rs
        cur, v = gen.expr(t, scope), gen.expr(self.expr, scope)
        if cur.kind not in ("int", "any") or v.kind not in ("int", "any"):
            gen.unsupported("+= on anything but numbers")
        new = f"_plus({cur.src}, {v.src})" if self.op == "+=" else f"_sub({cur.src}, {v.src})"
        if v.kind not in ("int", "bool"):  # (`+=` a text joins texts): not read as never none
            gen.maybe_none.add(t.id if t.kind == "name" else t.name)  # (direct.py `number_stats`)
        if t.kind == "name" and t.id in rs.stats and not rs.stats[t.id].per_player:
            gen.emit(d, f"R.set_stat({gen.k(t.id)}, {new})", self.loc)
        elif t.kind in ("attr", "of") and t.name in rs.stats and rs.stats[t.name].per_player:
            owner = gen.expr(t.obj if t.kind == "attr" else t.owner, scope)
            if owner.kind != "player":
                gen.unsupported("+= on several players' stats")
            gen.emit(d, f"R.set_pstat({owner.src}, {gen.k(t.name)}, {new})", self.loc)
        elif t.kind == "name" and t.id in scope:
            gen.emit(d, f"{scope[t.id][0]} = {new}", self.loc)
            return
        else:
            gen.unsupported("+= target")
        gen.changed = True


_MOVED = "moved "  # the scope's name for what `move ... as` moves: no rule's name has a space


def _zoneref_key(local: str) -> str:
    """Source of the key of the zone reference held in `local` (a generated local: read more than
    once): a shared zone's key is its name, read in place; else `ZoneRef.key` (a property: a call)."""
    return f"{local}[0] if {local}.__class__ is _ZoneRef and {local}[1] is None else {local}.key"


@_node
class MoveStmt(Stmt):
    """`move cards to dest [on top|at bottom] [as name]`."""

    kind: ClassVar[str] = "move"
    grammar: ClassVar[tuple[str, ...]] = ('move_stmt',)
    writes: ClassVar[frozenset[str]] = frozenset({CARDS})
    written: ClassVar[tuple[str, ...]] = ('dest',)

    what: Node
    dest: Node
    position: str | None
    name: str | None
    name_loc: Loc | None

    def describe(self) -> str:
        where = {"on top": " on top", "at bottom": " at the bottom"}.get(self.position or "", "")
        return f"move {_d(self.what)} to {_d(self.dest)}{where}" + _as(self.name)

    def check(self, ck: Checks, scope: set[str], loops: int = 0) -> None:
        ck.cards_arg(self.what, scope, "only cards can be moved")
        ck.zone_arg(self.dest, scope, "`move ... to` needs a zone")
        if self.name:
            ck.bind(self.name, self.name_loc or self.loc, scope)

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "MoveStmt":
        what, dest, position, name = parts
        return cls._make(loc=loc, what=what, dest=dest, position=" ".join(str(position).split()) if position is not None else None,
                   name=None if name is None else str(name), name_loc=src.token_loc(name) if name is not None else None)

    def emit(self, gen: Generates, d: int, scope: dict, loops: int) -> None:
        if self.name:
            return self._emit_as(gen, d, scope, loops)
        if gen.p.boards and gen.expr(self.dest, scope).kind in ("card", "any", "none"):
            return self._emit_onto(gen, d, scope)  # onto a board space
        if self._emit_to_row(gen, d, scope):
            return
        what = gen.expr_first(self.what, scope, d, self.loc)  # (the destination is a zone's name)
        if what.kind == "item":  # a mixed list's item, moved: a card
            what = gen.value(f"R.card_item({what.src})", "card")
        dest = gen.dest(self.dest, scope)
        bottom = self.position == "at bottom"
        if self.position not in (None, "at bottom", "on top"):  # on top: where a card goes anyway
            gen.unsupported("move position")
        if what.kind == "card":
            gen.emit_move_one(d, what.src, dest, bottom, self.loc)
        else:
            gen.emit_move_many(d, what, dest, bottom, self.loc, once=gen.fixed_dest(self.dest))

    def _emit_as(self, gen: Generates, d: int, scope: dict, loops: int) -> None:
        """`move WHAT to WHERE as NAME`: WHAT evaluated once, before the move (a card, or a
        snapshot of the cards), moved as a plain `move`, then named. NAME is the card when WHAT
        is one card, else the list of the cards (the language names a list of exactly one card
        by the card: a kind only known at run time, which a list of one stands for here)."""
        what = gen.expr(self.what, scope)
        if what.kind == "item":  # a mixed list's item, moved: a card
            what = gen.value(f"R.card_item({what.src})", "card")
        t = gen.temp()
        kind = "card" if what.kind == "card" else "cards"
        gen.emit(d, f"{t} = {what.src if kind == 'card' else gen.cards_src(what)}", self.loc)
        inner = dict(scope)
        inner[_MOVED] = (t, kind)
        _replace(self, what=Name(id=_MOVED, loc=self.what.loc), name=None).emit(gen, d, inner, loops)
        py = gen.bind(scope, self.name, kind)
        gen.emit(d, f"{py} = {t}", self.loc)

    def _emit_onto(self, gen: Generates, d: int, scope: dict) -> None:
        """`move X to S` with S a card: onto board space S (`boards.move_onto`)."""
        if self.name or self.position not in (None, "at bottom"):
            gen.unsupported("move onto a space ... as, or at a position")
        what, space = gen.expr(self.what, scope), gen.expr(self.dest, scope)
        gen.emit(d, f"R.move_onto({gen.cards_src(what)}, {space.src})", self.loc)

    def _emit_to_row(self, gen: Generates, d: int, scope: dict) -> bool:
        """`move CARDS to ROW [at bottom]` (`Game.move` to a `RowRef`); False: not to a row."""
        if self.dest.kind not in ("name", "call", "index"):
            return False
        dest = gen.expr(self.dest, scope)
        if dest.kind not in ("row", "item"):
            return False
        if self.name or self.position not in (None, "at bottom"):
            gen.unsupported("move to a row ... as")
        what = gen.expr(self.what, scope)
        if what.kind == "item":
            what = gen.value(f"R.card_item({what.src})", "card")
        gen.emit(d, f"R.move_to_row({gen.cards_src(what)}, {dest.src}, {gen.k(self.position == 'at bottom')})", self.loc)
        gen.changed = True
        return True


@_node
class DrawStmt(Stmt):
    """`draw [n] from source to dest [as name]`."""

    kind: ClassVar[str] = "draw"
    grammar: ClassVar[tuple[str, ...]] = ('draw_stmt',)
    waits: ClassVar[bool] = True
    writes: ClassVar[frozenset[str]] = frozenset({CARDS, RULES})
    written: ClassVar[tuple[str, ...]] = ('dest',)

    count: Node | None
    source: Node
    dest: Node
    name: str | None
    name_loc: Loc | None

    def describe(self) -> str:
        one = self.count is None or (isinstance(self.count, Lit) and self.count.value == 1)
        n = "a card" if one else f"{_d(self.count)} cards"
        return f"draw {n} from {_d(self.source)} to {_d(self.dest)}" + _as(self.name)

    def check(self, ck: Checks, scope: set[str], loops: int = 0) -> None:
        if self.count is not None:
            ck.number_arg(self.count, scope, "`draw N from` needs a number")
        ck.zone_arg(self.source, scope, "`draw from` needs a zone")
        ck.zone_arg(self.dest, scope, "`draw ... to` needs a zone")
        if self.name:
            ck.bind(self.name, self.name_loc or self.loc, scope)

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "DrawStmt":
        count, source, dest, name = parts
        return cls._make(loc=loc, count=count, source=source, dest=dest, name=None if name is None else str(name),
                   name_loc=src.token_loc(name) if name is not None else None)

    def emit(self, gen: Generates, d: int, scope: dict, loops: int) -> None:
        if self.count is not None:
            return self._emit_many(gen, d, scope)
        src = gen.expr(self.source, scope)
        if src.kind == "zoneref" and src.src.isidentifier():  # a zone chosen at run time, among piles
            # and sets (`e_list`): its list found once, a shared zone's by its name (as `is empty`)
            z, at = src.src, gen.temp()
            gen.emit(d, f"{at} = _Z[{_zoneref_key(z)}]", self.loc)
            src = gen.value(at, "zone", live=True)
        elif src.kind == "zoneref":
            src = gen.value(f"_Z[{src.src}.key]", "zone", live=True)
        if src.kind != "zone" or src.rows:
            gen.unsupported("draw from rows")
        dest = gen.dest(self.dest, scope)
        t = gen.temp()
        gen.emit(d, f"{t} = {src.src}[-1] if {src.src} else None", self.loc)
        gen.emit_move_one(d, t, dest, False, self.loc, top_of=src if gen.plain_zone(src) else None)
        if self.name:
            py = gen.bind(scope, self.name, "card")
            gen.emit(d, f"{py} = {t}", self.loc)
        if "drawn" in gen.events:
            gen.emit(d, f"if {t} is not None:")
            gen.emit_fire(d + 1, "drawn", t, gen.you(scope), self.loc)

    def _emit_many(self, gen: Generates, d: int, scope: dict) -> None:
        """`draw N from PILE to Z`: the top N cards, the topmost first."""
        k = gen.expr(self.count, scope)
        src = gen.expr(self.source, scope)
        if k.kind not in ("int", "any") or src.kind != "zone" or src.rows:  # `any`: e.g. a random pick of numbers
            gen.unsupported("draw N from rows")
        dest = gen.dest(self.dest, scope)
        t, kk = gen.temp(), gen.temp()
        gen.emit(d, f"{kk} = {k.src}", self.loc)
        gen.emit(d, f"{t} = {src.src}[-{kk}:][::-1] if {kk} > 0 else []", self.loc)
        gen.emit_move_many(d, gen.value(t, "cards", nn=True), dest, False, self.loc, once=gen.fixed_dest(self.dest),
                           top_of=src)
        if self.name:
            py = gen.bind(scope, self.name, "cards")
            gen.emit(d, f"{py} = {t}", self.loc)
        gen.fire_each(d, "drawn", t, gen.you(scope), self.loc)


@_node
class PlaceStmt(Stmt):
    """`place card in zone` (where its placement rules allow)."""

    kind: ClassVar[str] = "place"
    grammar: ClassVar[tuple[str, ...]] = ('place_stmt',)
    waits: ClassVar[bool] = True
    writes: ClassVar[frozenset[str]] = frozenset({CARDS, RULES})

    what: Node
    zone: Node

    def describe(self) -> str:
        return f"place {_d(self.what)} in {_d(self.zone)}"

    def check(self, ck: Checks, scope: set[str], loops: int = 0) -> None:
        ck.cards_arg(self.what, scope, "only a card can be placed")
        ck.zone_arg(self.zone, scope, "`place ... in` needs a zone")

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "PlaceStmt":
        return cls._make(loc=loc, what=parts[0], zone=parts[1])

    def emit(self, gen: Generates, d: int, scope: dict, loops: int) -> None:
        what = gen.expr(self.what, scope)
        zone = gen.expr(self.zone, scope)
        if what.kind == "card" and zone.kind == "zone" and zone.zone not in gen.placement_names:
            gen.free_placement(zone.zone, self.loc)  # no placement rule: every position
        if what.kind != "card" or zone.kind != "zone":
            gen.unsupported("place what is not a card, or in what is not a zone")
        if not gen.is_local(what.src):  # evaluated once (it is read several times below)
            t = gen.temp()
            gen.emit(d, f"{t} = {what.src}", self.loc)
            what = gen.value(t, "card", nn=what.nn, top=what.top)
        if not what.nn:
            gen.emit(d, f"if {what.src} is None:", self.loc)
            gen.emit(d + 1, "R.no_card_to_place()", self.loc)
        i = gen.temp()
        ps = gen.known_positions.pop(id(self), None)
        if ps is None:  # else: the `can be placed` test just before computed them on this state
            ps = gen.temp()
            gen.emit(d, f"{ps} = {gen.placement_call(zone, what.src)}", self.loc)
        gen.emit(d, f"if not {ps}:")
        gen.emit(d + 1, f"R.cannot_place({what.src}, {gen.k(zone.zone)})", self.loc)
        ask = gen.decision(gen.you(scope), "_KPLACE", f"({what.src},)", ps, loc=self.loc, prompt_of="R.place_prompt")
        gen.emit(d, f"{i} = 0 if len({ps}) == 1 else (yield {ask})", self.loc)
        if gen.grid_zone(zone.zone):
            gen.grid_place(d, what.src, zone.key, f"{ps}[{i}]", self.loc)
        elif zone.rows:
            gen.emit(d, f"R.place({what.src}, {zone.key}, {ps}[{i}])", self.loc)
        else:  # a pile, set or row zone has one position: on top (at the end)
            gen.emit_move_one(d, what.src, zone, False, self.loc)
        if "placed" in gen.events:
            gen.emit_fire(d, "placed", what.src, gen.you(scope), self.loc)


@_node
class CoverStmt(Stmt):
    """`place card on other`: covers the card below."""

    kind: ClassVar[str] = "cover"
    grammar: ClassVar[tuple[str, ...]] = ('cover_stmt',)
    waits: ClassVar[bool] = True
    writes: ClassVar[frozenset[str]] = frozenset({CARDS, RULES})

    what: Node
    target: Node

    def describe(self) -> str:
        return f"lay {_d(self.what)} on {_d(self.target)}"

    def check(self, ck: Checks, scope: set[str], loops: int = 0) -> None:
        ck.cards_arg(self.what, scope, "only a card can be placed")
        ck.cards_arg(self.target, scope, "`place ... on` needs a card")

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "CoverStmt":
        return cls._make(loc=loc, what=parts[0], target=parts[1])

    def emit(self, gen: Generates, d: int, scope: dict, loops: int) -> None:
        what, target = gen.expr(self.what, scope), gen.expr(self.target, scope)
        if what.kind != "card" or target.kind != "card":
            gen.unsupported("cover")
        gen.emit(d, f"R.cover({what.src}, {target.src})", self.loc)
        if "placed" in gen.events:
            gen.emit_fire(d, "placed", what.src, gen.you(scope), self.loc)


@_node
class ShuffleStmt(Stmt):
    """`shuffle zone`."""

    kind: ClassVar[str] = "shuffle"
    grammar: ClassVar[tuple[str, ...]] = ('shuffle_stmt',)
    writes: ClassVar[frozenset[str]] = frozenset({CARDS})

    zone: Node

    def describe(self) -> str:
        return f"shuffle {_d(self.zone)}"

    def check(self, ck: Checks, scope: set[str], loops: int = 0) -> None:
        ck.zone_arg(self.zone, scope, "`shuffle` needs a zone")

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "ShuffleStmt":
        return cls._make(loc=loc, zone=parts[0])

    def emit(self, gen: Generates, d: int, scope: dict, loops: int) -> None:
        z = gen.expr(self.zone, scope)
        if z.kind != "zone" or z.rows:
            gen.unsupported("shuffle")
        gen.emit(d, f"_rng.shuffle({z.src})", self.loc)
        gen.emit(d, f"R.touch({z.key})", self.loc)


@_node
class FireStmt(Stmt):
    """`fire event [on subject] [by actor]`."""

    kind: ClassVar[str] = "fire"
    grammar: ClassVar[tuple[str, ...]] = ('fire_stmt',)
    waits: ClassVar[bool] = True
    writes: ClassVar[frozenset[str]] = frozenset({RULES})

    event: str
    subject: Node | None
    actor: Node | None
    event_loc: Loc | None

    def describe(self) -> str:
        on = f" on {_d(self.subject)}" if self.subject is not None else ""
        by = f" by {_d(self.actor)}" if self.actor is not None else ""
        return f"{_words(self.event)} happens{on}{by}"

    def check(self, ck: Checks, scope: set[str], loops: int = 0) -> None:
        ck.fired.add(self.event)
        if self.subject is not None:
            ck.fired_on.add(self.event)
        if self.event not in ck.rs.events and self.event not in ck.builtin_events:
            ck.undefined(self.event, self.event_loc or self.loc, set(ck.rs.events), "event",
                         f"declare it with `event {self.event}`")
        for x in (self.subject, self.actor):
            if x is not None:
                ck.expr(x, scope)

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "FireStmt":
        event, subject, actor = parts
        return cls._make(loc=loc, event=str(event), subject=subject, actor=actor, event_loc=src.token_loc(event))

    def emit(self, gen: Generates, d: int, scope: dict, loops: int) -> None:
        if gen.sync:
            gen.unsupported("fire in a state-based rule")
        subject = gen.expr(self.subject, scope) if self.subject is not None else gen.value("None", "none")
        actor = gen.expr(self.actor, scope) if self.actor is not None else gen.value(gen.you(scope), "player")
        if subject.kind not in ("card", "none") or actor.kind not in ("player", "none", "any"):
            gen.unsupported("fire")
        gen.emit_fire(d, self.event, subject.src, actor.src, self.loc)


@_node
class ChooseStmt(Stmt):
    """`player chooses [count] name from options ["prompt"]`."""

    kind: ClassVar[str] = "choose"
    grammar: ClassVar[tuple[str, ...]] = ('choose_stmt',)
    waits: ClassVar[bool] = True

    player: Node
    count: Node | None
    name: str
    options: Node
    prompt: str | None
    name_loc: Loc | None

    def describe(self) -> str:
        return f"{_d(self.player)} {_verb(self.player, 'choose')} {_count(self.count)}{self.name} from {_d(self.options)}"

    def check(self, ck: Checks, scope: set[str], loops: int = 0) -> None:
        ck.expr(self.player, scope)
        ck.expr(self.options, scope)
        if self.count is not None and self.count.n is not None:
            ck.expr(self.count.n, scope)
        ck.bind(self.name, self.name_loc or self.loc, scope)

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "ChooseStmt":
        player, _, count, name, options, prompt = parts  # `_`: the verb, `choose` or `chooses`
        return cls._make(loc=loc, player=player, count=count, name=str(name), options=options,
                   prompt=src.text(prompt) if prompt is not None else None, name_loc=src.token_loc(name))

    def emit(self, gen: Generates, d: int, scope: dict, loops: int) -> None:
        if self.count is not None and not gen.sync:
            return self._emit_many(gen, d, scope)
        if self.count is not None or gen.sync:
            gen.unsupported("choose several")
        player = gen.expr(self.player, scope)
        opts = gen.expr_first(self.options, scope, d, self.loc)  # (evaluated first: `where` as a loop)
        if player.kind != "player":
            gen.unsupported("choose by a non-player")
        item = gen.item_kind(opts.kind)
        if item is None:
            gen.unsupported(f"choose from {opts.kind}")
        o = gen.temp()
        gen.emit(d, f"{o} = {gen.cards_src(opts) if gen.cardish(opts.kind) else 'list(' + opts.src + ')'}", self.loc)
        gen.emit(d, f"if not {o}:")
        gen.emit(d + 1, "R.nothing_to_choose()", self.loc)
        py = gen.bind(scope, self.name, item)
        prompt = self.prompt or f"Choose {self.name}"
        # numbers, texts, truth values are labelled as themselves, never as the card of that id
        ask = gen.decision(player.src, "_KCHOOSE", gen.k(prompt), o, f"_value_labels({o})" if item == "any" else "None",
                           loc=self.loc)
        gen.emit(d, f"{py} = {o}[0] if len({o}) == 1 else {o}[(yield {ask})]", self.loc)

    def _emit_many(self, gen: Generates, d: int, scope: dict) -> None:
        """`P chooses any/up to N/N X from ...` (`ChooseManyTask`): `any` asks yes or no per
        option; the others ask for one option at a time (`up to` may stop) until N are chosen."""
        player = gen.expr(self.player, scope)
        opts = gen.expr(self.options, scope)
        if player.kind not in ("player", "none"):
            gen.unsupported("choose by a non-player")
        item = gen.item_kind(opts.kind)
        if item is None:
            gen.unsupported(f"choose from {opts.kind}")
        mode = self.count.mode
        kv = gen.expr(self.count.n, scope) if self.count.n is not None else None
        if kv is not None and kv.kind != "int":
            gen.unsupported("choose a non-number of items")
        o, out, i, pick = gen.temp(), gen.temp(), gen.temp(), gen.temp()
        gen.emit(d, f"{o} = {gen.cards_src(opts) if opts.kind in ('card', 'cards', 'zone', 'row') else 'list(' + opts.src + ')'}", self.loc)
        gen.emit(d, f"{i} = {kv.src if kv is not None else 'None'}", self.loc)
        gen.emit(d, f"{out} = []", self.loc)
        prompt = self.prompt or f"Choose {self.name}"
        if mode == "any":
            # who answers and what makes the words found once, not per option (nothing changes
            # between the questions: their answers are used once all are in)
            who, words = gen.temp(), gen.temp()
            gen.emit(d, f"{who} = {gen.asker(player.src)}", self.loc)
            gen.emit(d, f"{words} = R.subset_prompt", self.loc)
            gen.emit(d, f"for {pick} in {o}:", self.loc)
            # the question's words name the option (a die: its face), made only when read
            ask = gen.decision(player.src, "_KSUBSET", f"({gen.k(prompt)}, {pick})", "_YESNO",
                               loc=self.loc, prompt_of=words, asked=who)
            gen.emit(d + 1, f"if (yield {ask}) == 0:", self.loc)
            gen.emit(d + 2, f"{out}.append({pick})", self.loc)
        else:
            if mode == "exactly":
                gen.emit(d, f"if {i} is not None and {i} > len({o}):", self.loc)
                gen.emit(d + 1, f"R.cannot_choose({i}, len({o}))", self.loc)
            stop = mode == "up_to"
            gen.emit(d, f"while {o} and ({i} is None or len({out}) < {i}):", self.loc)
            opts_src = f"{o} + [_STOP]" if stop else o
            ask = gen.decision(player.src, "_KCHOOSE", gen.k(prompt), opts_src, loc=self.loc)  # `_STOP` labels itself
            gen.emit(d + 1, f"{pick} = 0 if len({opts_src}) == 1 else (yield {ask})", self.loc)
            if stop:
                gen.emit(d + 1, f"if {pick} == len({o}):", self.loc)
                gen.emit(d + 2, "break", self.loc)
            gen.emit(d + 1, f"{out}.append({o}.pop({pick}))", self.loc)
        py = gen.bind(scope, self.name, "cards" if item == "card" else "list")
        gen.emit(d, f"{py} = {out}", self.loc)


@_node
class SimulChooseStmt(Stmt):
    """`simultaneously each p in players choose ...`: secret choices resolved together."""

    kind: ClassVar[str] = "simul_choose"
    grammar: ClassVar[tuple[str, ...]] = ('simul_choose_stmt',)
    waits: ClassVar[bool] = True

    var: str
    players: Node
    count: Node | None
    name: str
    options: Node
    prompt: str | None
    var_loc: Loc | None
    name_loc: Loc | None

    def describe(self) -> str:
        return f"all {_d(self.players)} at once, each {self.var} chooses {_count(self.count)}{self.name} from {_d(self.options)}"

    def check(self, ck: Checks, scope: set[str], loops: int = 0) -> None:
        ck.expr(self.players, scope)
        ck.bind(self.var, self.var_loc or self.loc, scope)
        ck.expr(self.options, scope)
        if self.count is not None and self.count.n is not None:
            ck.expr(self.count.n, scope)
        ck.bind(self.name, self.name_loc or self.loc, scope)

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "SimulChooseStmt":
        var, players, _, count, name, options, prompt = parts  # `_`: the verb
        return cls._make(loc=loc, var=str(var), players=players, count=count, name=str(name), options=options,
                   prompt=src.text(prompt) if prompt is not None else None, var_loc=src.token_loc(var),
                   name_loc=src.token_loc(name))

    def emit(self, gen: Generates, d: int, scope: dict, loops: int) -> None:
        """`simultaneously each P in PLAYERS chooses X from ...` (`SimultaneousTask`): every
        player's options from the same state, then asked one by one; the map player → answer
        is stored once all are in."""
        if gen.sync:
            gen.unsupported("simultaneous choice in a state-based rule")
        who = gen.expr(self.players, scope)
        if who.kind not in ("player", "players"):
            gen.unsupported("simultaneous choice by non-players")
        mode = self.count.mode if self.count is not None else None
        if mode not in (None, "up_to"):
            gen.unsupported(f"simultaneous choice {mode}")
        asks, p = gen.temp(), gen.temp()
        gen.emit(d, f"{asks} = []", self.loc)
        src = f"({who.src},)" if who.kind == "player" else who.src
        gen.emit(d, f"for {p} in {src}:", self.loc)
        inner = dict(scope)
        inner[self.var] = (p, "player")
        opts = gen.expr(self.options, inner)
        item = gen.item_kind(opts.kind)
        if item is None:
            gen.unsupported(f"choose from {opts.kind}")
        osrc = gen.cards_src(opts) if opts.kind in ("card", "cards", "zone", "row") else f"list({opts.src})"
        k = "None"
        if mode is not None:
            kv = gen.expr(self.count.n, inner) if self.count.n is not None else None
            if kv is not None and kv.kind != "int":
                gen.unsupported("choose up to a non-number")
            k = kv.src if kv is not None else "None"
        gen.emit(d + 1, f"{asks}.append(({p}, {osrc}, {k}))", self.loc)
        prompt = gen.k(self.prompt or f"Choose {self.name}")
        out, o, a, i = gen.temp(), gen.temp(), gen.temp(), gen.temp()
        gen.emit(d, f"{out} = {{}}", self.loc)
        gen.emit(d, f"for {p}, {o}, {i} in {asks}:", self.loc)
        if mode is None:
            gen.emit(d + 1, f"if len({o}) <= 1:", self.loc)
            gen.emit(d + 2, f"{out}[{p}] = {o}[0] if {o} else None", self.loc)
            gen.emit(d + 1, "else:", self.loc)
            ask = gen.decision(p, "_KCHOOSE", prompt, o, loc=self.loc)
            gen.emit(d + 2, f"{out}[{p}] = {o}[(yield {ask})]", self.loc)
        else:
            gen.emit(d + 1, f"{a} = []", self.loc)
            gen.emit(d + 1, f"{out}[{p}] = {a}", self.loc)
            gen.emit(d + 1, f"while {o} and ({i} is None or len({a}) < {i}):", self.loc)
            ask = gen.decision(p, "_KCHOOSE", prompt, f"{o} + [_STOP]", loc=self.loc)
            gen.emit(d + 2, f"{i}_ = (yield {ask}) if {o} else 0", self.loc)
            gen.emit(d + 2, f"if {i}_ == len({o}):", self.loc)
            gen.emit(d + 3, "break", self.loc)
            gen.emit(d + 2, f"{a}.append({o}.pop({i}_))", self.loc)
        kind = item if mode is None else ("cards" if item == "card" else "list")
        py = gen.bind(scope, self.name, "map:" + kind)
        gen.emit(d, f"{py} = {out}", self.loc)


@_node
class BreakStmt(Stmt):
    """`break`."""

    kind: ClassVar[str] = "break"
    grammar: ClassVar[tuple[str, ...]] = ('break_stmt',)

    def describe(self) -> str:
        return "stop repeating"

    def check(self, ck: Checks, scope: set[str], loops: int = 0) -> None:
        if loops == 0:
            ck.error("flow/loop", "`break` outside a loop", self.loc, "use it inside `repeat`, `while` or `for each`")

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "BreakStmt":
        return cls._make(loc=loc)

    def emit(self, gen: Generates, d: int, scope: dict, loops: int) -> None:
        if not loops:
            gen.unsupported("break outside a loop")
        gen.emit(d, "break", self.loc)


@_node
class ContinueStmt(Stmt):
    """`continue`."""

    kind: ClassVar[str] = "continue"
    grammar: ClassVar[tuple[str, ...]] = ('continue_stmt',)

    def describe(self) -> str:
        return "go on with the next round of the loop"

    def check(self, ck: Checks, scope: set[str], loops: int = 0) -> None:
        if loops == 0:
            ck.error("flow/loop", "`continue` outside a loop", self.loc,
                     "use it inside `repeat`, `while` or `for each`")

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "ContinueStmt":
        return cls._make(loc=loc)

    def emit(self, gen: Generates, d: int, scope: dict, loops: int) -> None:
        if not loops:
            gen.unsupported("continue outside a loop")
        gen.emit(d, "continue", self.loc)


@_node
class PassStmt(Stmt):
    """`pass`."""

    kind: ClassVar[str] = "pass"
    grammar: ClassVar[tuple[str, ...]] = ('pass_stmt',)

    def describe(self) -> str:
        return "do nothing"

    def check(self, ck: Checks, scope: set[str], loops: int = 0) -> None:
        ck.flow.add(self.kind)

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "PassStmt":
        return cls._make(loc=loc)

    def emit(self, gen: Generates, d: int, scope: dict, loops: int) -> None:
        gen.emit(d, "pass")


@_node
class EndStmt(Stmt):
    """`end game [after this turn|round] ["reason"] [with no winner] [by cap]`; `by cap` marks a
    safety cap, an end the rules themselves do not have, which reports keep apart from natural
    endings; `with no winner` is an end where every player loses, whatever the scores, and
    `with every player winning` one where every player who takes turns wins (a team win)."""

    kind: ClassVar[str] = "end_game"
    grammar: ClassVar[tuple[str, ...]] = ('end_stmt',)
    writes: ClassVar[frozenset[str]] = frozenset({END})

    after: str | None
    reason: Node | None
    cap: bool = False
    no_winner: bool = False
    all_win: bool = False  # `... with every player winning`: a team win, every seat that takes turns wins

    def describe(self) -> str:
        when = f" after this {self.after}" if self.after else ""
        why = f" ({_d(self.reason)})" if self.reason is not None else ""
        return (f"the game ends{when}{why}" + (" with no winner" if self.no_winner else "")
                + (" with every player winning" if self.all_win else "")
                + (", stopped by a cap rather than by the rules" if self.cap else ""))

    def check(self, ck: Checks, scope: set[str], loops: int = 0) -> None:
        if self.reason is not None:  # the optional reason is an expression (text)
            ck.expr(self.reason, scope)

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "EndStmt":
        c = parts
        when = str(c[0]).split()[-1] if c[0] is not None else None
        return cls._make(loc=loc, after=when, reason=c[1] if len(c) > 1 else None,  # `end game "why"`
                   no_winner=len(c) > 2 and c[2] is not None and "winner" in str(c[2]),  # `... with no winner`: everybody loses
                   all_win=len(c) > 2 and c[2] is not None and "winning" in str(c[2]),  # `... with every player winning`
                   cap=len(c) > 3 and c[3] is not None)  # `... by cap`: a safety cap, not the rules' end

    def emit(self, gen: Generates, d: int, scope: dict, loops: int) -> None:
        if self.reason is not None:
            r = gen.expr(self.reason, scope)
            if r.kind not in ("str", "int"):
                gen.unsupported("end game reason")
            gen.emit(d, f"R.state.end_reason = R.text({r.src})", self.loc)
        gen.emit(d, f"R.state.end_cap = {bool(self.cap)}", self.loc)  # `... by cap` (the last `end game` decides)
        gen.emit(d, f"R.state.no_winner = {bool(self.no_winner)}", self.loc)  # `... with no winner`: everybody loses
        gen.emit(d, f"R.state.all_win = {bool(self.all_win)}", self.loc)  # a team win
        gen.emit(d, f"R.end_game({gen.k(self.after)})", self.loc)


@_node
class PlayTurnStmt(Stmt):
    """`play turn of player` (in a `play:` or `round:` phase)."""

    kind: ClassVar[str] = "play_turn"
    grammar: ClassVar[tuple[str, ...]] = ('play_turn_stmt',)
    waits: ClassVar[bool] = True
    writes: ClassVar[frozenset[str]] = frozenset({RULES, TURN})

    player: Node

    def describe(self) -> str:
        return f"{_d(self.player)} {_verb(self.player, 'take')} a turn"

    def check(self, ck: Checks, scope: set[str], loops: int = 0) -> None:
        ck.flow.add(self.kind)
        ck.expr(self.player, scope)

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "PlayTurnStmt":
        return cls._make(loc=loc, player=parts[0])

    def emit(self, gen: Generates, d: int, scope: dict, loops: int) -> None:
        """`play turn of P` (`TurnTask`)."""
        if gen.sync:
            gen.unsupported("play turn in a state-based rule")
        p = gen.expr(self.player, scope)
        if p.kind != "player":
            gen.unsupported("play turn of a non-player")
        gen.emit(d, f"yield from R.play_turn({p.src})", self.loc)
        gen.changed = True


@_node
class PlayRoundStmt(Stmt):
    """`play round`."""

    kind: ClassVar[str] = "play_round"
    grammar: ClassVar[tuple[str, ...]] = ('play_round_stmt',)
    waits: ClassVar[bool] = True
    writes: ClassVar[frozenset[str]] = frozenset({RULES, TURN})

    def describe(self) -> str:
        return "play a round"

    def check(self, ck: Checks, scope: set[str], loops: int = 0) -> None:
        ck.flow.add(self.kind)

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "PlayRoundStmt":
        return cls._make(loc=loc)

    def emit(self, gen: Generates, d: int, scope: dict, loops: int) -> None:
        """`play round` (`RoundTask`)."""
        if gen.sync:
            gen.unsupported("play round in a state-based rule")
        gen.emit(d, "yield from R.play_round(False)", self.loc)
        gen.changed = True


@_node
class LogStmt(Stmt):
    """`log expr`: a line of the game's log."""

    kind: ClassVar[str] = "log"
    grammar: ClassVar[tuple[str, ...]] = ('log_stmt',)

    expr: Node

    def describe(self) -> str:
        return f"tell everyone {_d(self.expr)}"

    def check(self, ck: Checks, scope: set[str], loops: int = 0) -> None:
        ck.expr(self.expr, scope)

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "LogStmt":
        return cls._make(loc=loc, expr=parts[0])

    def emit(self, gen: Generates, d: int, scope: dict, loops: int) -> None:
        """`log X`: X as `Game.text` writes it; a list literal item by item (cards by label)."""
        if self.expr.kind == "list":
            items = [gen.expr(i, scope) for i in self.expr.items]
            srcs = "".join(f"{v.src}, " for v in items)
            gen.emit(d, f"R.log_items(({srcs}), {gen.k(tuple(v.kind for v in items))})", self.loc)
            return
        v = gen.expr(self.expr, scope)
        gen.emit(d, f"R.log_text({v.src}, {gen.k(v.kind)})", self.loc)


@_node
class CallStmt(Stmt):
    """An expression on a line of its own: a procedure call."""

    kind: ClassVar[str] = "call_stmt"
    grammar: ClassVar[tuple[str, ...]] = ('call_stmt',)
    waits: ClassVar[bool] = True
    writes: ClassVar[frozenset[str]] = frozenset({RULES})

    expr: Node

    def describe(self) -> str:
        e = self.expr  # a procedure called on its own line reads as a command: "tidy p", "shuffle up"
        if isinstance(e, Call):
            return " ".join([_words(e.func)] + ([", ".join(_d(a) for a in e.args)] if e.args else []))
        return _d(e)

    def check(self, ck: Checks, scope: set[str], loops: int = 0) -> None:
        ck.call_stmt(self, scope)

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "CallStmt":
        return cls._make(loc=loc, expr=parts[0])

    def emit(self, gen: Generates, d: int, scope: dict, loops: int) -> None:
        x = self.expr
        if gen.sync:
            gen.unsupported("procedure call in a state-based rule")
        if x.kind != "call" or x.func not in gen.procs:
            gen.unsupported("call")
        params = gen.rs.procedures[x.func].params
        if len(x.args) != len(params):
            gen.unsupported("argument count")
        args = [gen.expr(a, scope) for a in x.args]
        args = [gen.value(a.src, "player" if gen.used_as_player(x.func, i) else "card") if a.kind == "item" else a
                for i, a in enumerate(args)]  # a mixed list's item as a card, or as a player where used as one
        args = [gen.value(f"list({a.src})", a.kind) if a.live and a.kind == "cards" else a for a in args]  # a snapshot
        for a, name in zip(args, params):
            if a.kind not in ("player", "row", "card", "int", "str", "bool", "any", "players", "cards", "mixed", "item",
                              "none",
                              "list", "rows") and not a.kind.startswith("map:") and \
                    not (a.kind == "zone" and x.func not in gen.recursive()):
                gen.unsupported("procedure argument kind")
        args = [gen.value(gen.kept(a), a.kind) if a.kind in ("cards", "list") and a.live else a for a in args]
        if x.func not in gen.recursive():  # written out in place, or a function per signature (directcalls.py)
            if d <= gen.max_inline_depth and gen.inlined(x.func):
                gen.inline_call(x.func, args, d, scope, self)
            else:
                gen.proc_call(x.func, args, d, scope, self)
            return
        kinds = gen.arg_kinds.setdefault(x.func, [a.kind for a in args])
        for i, a in enumerate(args):  # a number and a card's field (`any`) are passed alike: `any`
            if kinds[i] != a.kind and {kinds[i], a.kind} == {"int", "any"} and x.func not in gen.procs_written:
                kinds[i] = "any"
        if kinds != [a.kind if {a.kind, k} != {"int", "any"} else "any" for a, k in zip(args, kinds)]:
            gen.unsupported("procedure argument kinds differ between calls")
        this = scope["this"][0] if "this" in scope else "None"
        srcs = ", ".join([gen.you(scope), this] + [a.src for a in args])
        gen.emit(d, f"yield from {gen.procs[x.func]}({srcs})", self.loc)


MAX_BRANCHES = 200  # `elif`s of one `if` (the rulesets use at most 5): the generated code nests them


@_node
class IfStmt(Stmt):
    """`if cond:` body, `elif` branches, `else:`."""

    kind: ClassVar[str] = "if"
    grammar: ClassVar[tuple[str, ...]] = ('if_stmt',)

    branches: list[tuple[Node, list[Node]]]
    orelse: list[Node] | None

    def describe(self) -> str:
        parts = [f"if {_d(c)}: {_body(b)}" for c, b in self.branches]
        text = "; otherwise ".join(parts)
        return text + (f"; otherwise {_body(self.orelse)}" if self.orelse else "")

    def check(self, ck: Checks, scope: set[str], loops: int = 0) -> None:
        for cond, body in self.branches:
            if isinstance(cond, MayCond):
                ck.expr(cond.player, scope)
            else:
                ck.cond(cond, scope)
            ck.block(body, scope, loops)
        if self.orelse:
            ck.block(self.orelse, scope, loops)

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "IfStmt":
        """`if C: B` then its clauses (the parser makes an `elif` a (condition, body) pair and an
        `else` its body; a missing `else` is None). Branches are capped: code nests them."""
        branches, other = [(parts[0], parts[1])], None
        for item in parts[2:]:
            if isinstance(item, tuple):
                branches.append(item)
            elif item is not None:
                other = item
        if len(branches) > MAX_BRANCHES:
            raise ContentError([Diagnostic("error", "limit/branches", f"an `if` with {len(branches) - 1} `elif` branches",
                                           loc, f"keep an `if` under {MAX_BRANCHES} branches: look the "
                                           "value up in a map constant, or split the rule into procedures")])
        return cls._make(loc=loc, branches=branches, orelse=other)

    def emit(self, gen: Generates, d: int, scope: dict, loops: int) -> None:
        first = True
        before, ends = gen.changed, []
        for cond, body in self.branches:
            if isinstance(cond, MayCond):
                if gen.sync:
                    gen.unsupported("may in a state-based rule")
                player = gen.expr(cond.player, scope)
                if player.kind != "player":
                    gen.unsupported("may by a non-player")
                want = 1 if cond.negate else 0
                ask = gen.decision(player.src, '_KMAY', gen.k(cond.prompt), '_YESNO', '_YESNO_LABELS', loc=self.loc)
                c = f"(yield {ask}) == {want}"
            elif _places_what_it_tests(gen, cond, body):
                t = gen.temp()
                gen.expr(cond, scope)  # the same checks as any `can be placed`
                w = gen.expr(cond.what, scope).src
                c = f"{w} is not None and bool({t} := {gen.placement_names[cond.zone.id]}({w}))"
                gen.known_positions[id(body[0])] = t
            else:  # (an `elif`'s condition is evaluated after the conditions before it)
                v = gen.expr_first(cond, scope, d, cond.loc) if first else gen.expr(cond, scope)
                c = v.src
            gen.emit(d, f"{'if' if first else 'elif'} {c}:", cond.loc)
            first = False
            gen.changed = before  # conditions change nothing (a `may` only asks)
            gen.block(body, d + 1, scope, loops)
            ends.append(gen.changed)
        if self.orelse:
            gen.emit(d, "else:")
            gen.changed = before
            gen.block(self.orelse, d + 1, scope, loops)
            ends.append(gen.changed)
        else:
            ends.append(before)
        gen.changed = any(ends)


def _places_what_it_tests(gen: Generates, cond: Node, body: list[Node]) -> bool:
    """`if X can be placed in Z: place X in Z ...`: nothing changes between the test and the
    placement (settling ran before the `if`), so the placement reuses the test's positions."""
    if cond.kind != "can_place" or not body or body[0].kind != "place":
        return False
    w, z, pw, pz = cond.what, cond.zone, body[0].what, body[0].zone
    return all(x.kind == "name" for x in (w, z, pw, pz)) and w.id == pw.id and z.id == pz.id and \
        z.id in gen.placement_names and not gen.rs.zones[z.id].per_player


@_node
class MayCond(Node):
    """`player may "prompt"` as a condition: a yes/no decision."""

    kind: ClassVar[str] = "may"
    grammar: ClassVar[tuple[str, ...]] = ('may_cond',)
    waits: ClassVar[bool] = True

    player: Node
    prompt: str
    negate: bool

    def describe(self) -> str:
        agree = f"{_verb(self.player, 'do')} not agree" if self.negate else _verb(self.player, "agree")
        return f"{_d(self.player)} {agree} to \u201c{self.prompt}\u201d"

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "MayCond":
        """`X may "..."`; `not` before it negates the answer, not the player, and an `and`/`or`
        before it is refused: `X and you may` would read as `(X and you) may`."""
        player, negate = parts[0], False
        while player.kind == "not":
            player, negate = player.expr, not negate
        if player.kind in ("and", "or"):
            word = player.kind
            raise ContentError([Diagnostic(
                "error", "syntax", f"`{word}` cannot join a `may` to a condition: `X {word} you may \"...\"` "
                f"reads as `(X {word} you) may \"...\"`", loc,
                "put the `may` on a line of its own: `if X:` then, inside it, `if you may \"...\":`")])
        return cls._make(loc=loc, player=player, prompt=src.text(parts[1]), negate=negate)


@_node
class ForStmt(Stmt):
    """`for each name in items:` body."""

    kind: ClassVar[str] = "for"
    grammar: ClassVar[tuple[str, ...]] = ('for_stmt',)

    name: str
    iter: Node
    body: list[Node]
    name_loc: Loc | None

    def describe(self) -> str:
        return f"for each {self.name} in {_d(self.iter)}: {_body(self.body)}"

    def check(self, ck: Checks, scope: set[str], loops: int = 0) -> None:
        ck.expr(self.iter, scope)
        ck.bind(self.name, self.name_loc or self.loc, scope)
        ck.block(self.body, scope, loops + 1)

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "ForStmt":
        name, items, body = parts
        return cls._make(loc=loc, name=str(name), iter=items, body=body, name_loc=src.token_loc(name))

    def emit(self, gen: Generates, d: int, scope: dict, loops: int) -> None:
        it = gen.expr_first(self.iter, scope, d, self.loc)
        item = gen.item_kind(it.kind)
        if item is None:
            gen.unsupported(f"for each over {it.kind}")
        src = gen.cards_src(it) if gen.cardish(it.kind) else (f"list({it.src})" if it.live else it.src)
        py = gen.bind(scope, self.name, item)
        gen.emit(d, f"for {py} in {src}:", self.loc)
        gen.count_round(d + 1, self.body)
        gen.loop_body(d + 1, self.body, scope, loops + 1)


@_node
class RepeatStmt(Stmt):
    """`repeat:`, `repeat n times:` or `while cond:` body."""

    kind: ClassVar[str] = "repeat"
    grammar: ClassVar[tuple[str, ...]] = ('repeat_forever', 'repeat_times', 'while_loop',)

    times: Node | None
    cond: Node | None
    body: list[Node]

    def describe(self) -> str:
        if self.times is not None:
            return f"repeat {_d(self.times)} times: {_body(self.body)}"
        if self.cond is not None:
            return f"while {_d(self.cond)}: {_body(self.body)}"
        return f"repeat: {_body(self.body)}"

    def check(self, ck: Checks, scope: set[str], loops: int = 0) -> None:
        if self.times is not None:
            ck.number_arg(self.times, scope, "`repeat N times` needs a number")
        if self.cond is not None:
            ck.cond(self.cond, scope)
        ck.block(self.body, scope, loops + 1)

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "RepeatStmt":
        """Its three rules differ in what comes before the body: nothing, a count or a condition."""
        rule = src.rule
        return cls._make(loc=loc, times=parts[0] if rule == "repeat_times" else None,
                   cond=parts[0] if rule == "while_loop" else None, body=parts[-1])

    def emit(self, gen: Generates, d: int, scope: dict, loops: int) -> None:
        if self.cond is not None:  # `while COND:` (`RepeatTask`): tested before each round, on a settled state
            c = gen.expr(self.cond, scope)
            gen.emit(d, f"while {c.src}:", self.loc)
            gen.count_round(d + 1, self.body)
            gen.changed = True
            gen.block(self.body, d + 1, scope, loops + 1)
            gen.settle_check(d + 1)
            gen.emit(d + 1, "pass")
            gen.changed = True
            return
        if self.times is not None:
            t = gen.expr(self.times, scope)
            if t.kind not in ("int", "any"):  # `any`: a card's field
                gen.unsupported(f"repeat {t.kind} times")
            gen.emit(d, f"for _ in range({t.src}):", self.loc)
        else:
            gen.emit(d, "while True:", self.loc)
        gen.count_round(d + 1, self.body)
        gen.loop_body(d + 1, self.body, scope, loops + 1, ends=self.times is not None)


@_node
class RollStmt(Stmt):
    """`roll dice`."""

    kind: ClassVar[str] = "roll"
    grammar: ClassVar[tuple[str, ...]] = ('roll_stmt',)
    waits: ClassVar[bool] = True
    writes: ClassVar[frozenset[str]] = frozenset({DICE, RULES})

    dice: Node

    def describe(self) -> str:
        return f"roll {_d(self.dice)}"

    def check(self, ck: Checks, scope: set[str], loops: int = 0) -> None:
        ck.expr(self.dice, scope)
        if not ck.rs.die_types:
            ck.error("dice/none", "`roll` needs dice, but no `die type` is declared", self.loc,
                     "declare one, e.g. `die type D6: 1..6, 2 dice`")

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "RollStmt":
        return cls._make(loc=loc, dice=parts[0])

    def emit(self, gen: Generates, d: int, scope: dict, loops: int) -> None:
        """`roll DICE` (`Game.roll`): a face per die from the RNG, then `rolled` per die."""
        if gen.sync:
            gen.unsupported("roll in a state-based rule")
        dice = gen.expr(self.dice, scope)
        if dice.kind not in ("card", "cards", "zone", "row"):
            gen.unsupported("roll of a non-card")
        items = gen.temp()
        gen.emit(d, f"{items} = {gen.cards_src(dice)}", self.loc)
        gen.emit(d, f"R.roll({items})", self.loc)
        gen.fire_in_turn(d, "rolled", items, gen.you(scope), self.loc)
        gen.changed = True


@_node
class GainStmt(Stmt):
    """`player gains n stat` (capped by the stat's bounds)."""

    kind: ClassVar[str] = "gain"
    grammar: ClassVar[tuple[str, ...]] = ('gain_stmt',)
    waits: ClassVar[bool] = True
    writes: ClassVar[frozenset[str]] = frozenset({STATS, RULES})

    player: Node
    amount: Node
    stat: str
    stat_loc: Loc | None

    def describe(self) -> str:
        return f"{_d(self.player)} {_verb(self.player, 'gain')} {_d(self.amount)} {_words(self.stat)}"

    def check(self, ck: Checks, scope: set[str], loops: int = 0) -> None:
        _check_player_stat_change(self, ck, scope)

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "GainStmt":
        return cls._make(loc=loc, player=parts[0], amount=parts[2], stat=str(parts[3]), stat_loc=src.token_loc(parts[3]))

    def emit(self, gen: Generates, d: int, scope: dict, loops: int) -> None:
        _emit_player_stat_change(self, gen, d, scope, 1)


@_node
class LoseStmt(Stmt):
    """`player loses n stat` (a shortfall runs `when short of`)."""

    kind: ClassVar[str] = "lose"
    grammar: ClassVar[tuple[str, ...]] = ('lose_stmt',)
    waits: ClassVar[bool] = True
    writes: ClassVar[frozenset[str]] = frozenset({STATS, RULES})

    player: Node
    amount: Node
    stat: str
    stat_loc: Loc | None

    def describe(self) -> str:
        return f"{_d(self.player)} {_verb(self.player, 'lose')} {_d(self.amount)} {_words(self.stat)}"

    def check(self, ck: Checks, scope: set[str], loops: int = 0) -> None:
        _check_player_stat_change(self, ck, scope)

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "LoseStmt":
        return cls._make(loc=loc, player=parts[0], amount=parts[2], stat=str(parts[3]), stat_loc=src.token_loc(parts[3]))

    def emit(self, gen: Generates, d: int, scope: dict, loops: int) -> None:
        _emit_player_stat_change(self, gen, d, scope, -1)


@_node
class AddDummyStmt(Stmt):
    """`add a dummy player [as name]`."""

    kind: ClassVar[str] = "add_dummy"
    grammar: ClassVar[tuple[str, ...]] = ('add_dummy_stmt',)
    writes: ClassVar[frozenset[str]] = frozenset({SEATS})

    name: str | None

    def describe(self) -> str:
        return "add a dummy player" + _as(self.name)

    def check(self, ck: Checks, scope: set[str], loops: int = 0) -> None:
        if self.name:
            ck.bind(self.name, self.loc, scope)

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "AddDummyStmt":
        return cls._make(loc=loc, name=None if parts[0] is None else str(parts[0]))

    def emit(self, gen: Generates, d: int, scope: dict, loops: int) -> None:
        """`add a dummy player [as NAME]` (`Game.add_dummy`)."""
        if gen.sync:
            gen.unsupported("adding a dummy player in a state-based rule")
        if self.name:
            gen.emit(d, f"{gen.bind(scope, self.name, 'player')} = R.add_dummy()", self.loc)
        else:
            gen.emit(d, "R.add_dummy()", self.loc)
        gen.changed = True


@_node
class ActionsStmt(Stmt):
    """`player takes actions [from sources] ["Done"]`."""

    kind: ClassVar[str] = "take_actions"
    grammar: ClassVar[tuple[str, ...]] = ('actions_stmt',)
    waits: ClassVar[bool] = True
    writes: ClassVar[frozenset[str]] = frozenset({RULES})

    player: Node
    sources: Node | None
    done: str

    def describe(self) -> str:
        src = f" from {_d(self.sources)}" if self.sources is not None else ""
        return f"{_d(self.player)} {_verb(self.player, 'take')} actions{src} until \u201c{self.done}\u201d"

    def check(self, ck: Checks, scope: set[str], loops: int = 0) -> None:
        ck.expr(self.player, scope)
        if self.sources is not None:
            ck.expr(self.sources, scope)

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "ActionsStmt":
        done = parts[3]
        return cls._make(loc=loc, player=parts[0], sources=parts[2], done=src.text(done) if done is not None else "Done")

    def emit(self, gen: Generates, d: int, scope: dict, loops: int) -> None:
        """`P takes actions [from SOURCES] "Done"` (`ActionsTask`): until the player picks "Done",
        offer the legal actions; with none, nothing is asked and the statement ends."""
        if gen.sync:
            gen.unsupported("actions in a state-based rule")
        player = gen.expr(self.player, scope)
        if player.kind != "player":
            gen.unsupported("actions taken by a non-player")
        p, src, legal, i, fn = (gen.temp() for _ in range(5))
        gen.emit(d, f"{p} = {player.src}", self.loc)
        sources = gen.expr(self.sources, scope) if self.sources is not None else None
        live = sources is not None and sources.kind in ("zone", "row")  # read again before each offer
        if sources is None:
            src = "None"
        elif not live:
            gen.emit(d, f"{src} = {gen.cards_src(sources)}", self.loc)
        gen.emit(d, "while True:", self.loc)
        gen.emit(d + 1, f"{legal} = R.actions({p}, {gen.cards_src(sources) if live else src})", self.loc)
        gen.emit(d + 1, f"if not {legal}:")
        gen.emit(d + 2, "break")
        gen.emit(d + 1, f"{i} = yield R.action_decision({p}, {legal}, {gen.k(self.done)})", self.loc)
        gen.emit(d + 1, f"if {i} == len({legal}):")
        gen.emit(d + 2, "break")
        gen.emit(d + 1, f"{fn} = R.use_action({legal}[{i}])", self.loc)
        gen.emit(d + 1, f"yield from {fn}(_Seat({p}), {legal}[{i}][4])", self.loc)
        gen.changed = True


def _check_player_stat_change(s: "GainStmt | LoseStmt", ck: Checks, scope: set[str]) -> None:
    """`P gains/loses N STAT`: STAT must be a player stat."""
    ck.expr(s.player, scope)
    ck.expr(s.amount, scope)
    sd = ck.rs.stats.get(s.stat)
    if sd is None or not sd.per_player:
        ck.undefined(s.stat, s.stat_loc, {n for n, d in ck.rs.stats.items() if d.per_player}, "player stat")
    else:
        ck.used.add(s.stat)


def _emit_player_stat_change(s: "GainStmt | LoseStmt", gen: Generates, d: int, scope: dict, sign: int) -> None:
    """`P gains/loses N stat` (`Compiler._gain_lose`, `Game.change_stat`): each player in
    turn, the amount evaluated for each; then the stat's `when short of` bodies, in order,
    for each player who had too little."""
    sd = gen.rs.stats.get(s.stat)
    if sd is None or not sd.per_player:
        gen.unsupported("gain or lose of a shared stat")
    who = gen.expr(s.player, scope)
    if who.kind not in ("player", "players"):
        gen.unsupported("gain or lose by a non-player")
    handlers = gen.short_fns.get(s.stat, [])
    if handlers and gen.sync:
        gen.unsupported("`when short of` in a state-based rule")
    p, short = gen.temp(), gen.temp()
    if handlers:
        gen.emit(d, f"{short} = []", s.loc)
    src = f"({who.src},)" if who.kind == "player" else who.src
    gen.emit(d, f"for {p} in {src}:", s.loc)
    inner = dict(scope)
    amount = gen.expr(s.amount, inner)
    if amount.kind not in ("int", "any"):
        gen.unsupported("gain or lose of a non-number")
    delta = amount.src if sign > 0 else f"-({amount.src})"
    call = f"R.change_stat({p}, {gen.k(s.stat)}, {delta})"
    if handlers:
        m = gen.temp()
        gen.emit(d + 1, f"{m} = {call}", s.loc)
        gen.emit(d + 1, f"if {m}:", s.loc)
        gen.emit(d + 2, f"{short}.append(({p}, {m}))", s.loc)
        gen.emit(d, f"for {p}, {m} in {short}:", s.loc)
        for fname in handlers:
            gen.emit(d + 1, f"yield from {fname}(_Seat({p}), None, {m})", s.loc)
    else:
        gen.emit(d + 1, call, s.loc)
    gen.changed = True


# ---- expressions ---------------------------------------------------------------------------------


@_node
class WhereExpr(Expr):
    """`items where cond`."""

    kind: ClassVar[str] = "where"
    grammar: ClassVar[tuple[str, ...]] = ('where_expr',)

    items: Node
    cond: Node

    def describe(self) -> str:
        return f"{_d(self.items)} where {_d(self.cond)}"

    def check(self, ck: Checks, scope: set[str]) -> None:
        ck.expr(self.items, scope)
        ck.cond(self.cond, scope | {"it"})

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "WhereExpr":
        return cls._make(loc=loc, items=parts[0], cond=parts[1])

    def generate(self, gen: Generates, scope: dict) -> Any:
        items, x, cond, _ = gen.where_parts(self, scope)
        return gen.listed(self, x, x, items.src, cond, items.kind, top=items.top, nn=items.nn)


@_node
class IfExpr(Expr):
    """`a if cond else b`."""

    kind: ClassVar[str] = "if_expr"
    grammar: ClassVar[tuple[str, ...]] = ('if_expr',)

    then: Node
    cond: Node
    orelse: Node

    def describe(self) -> str:
        return f"{_d(self.then)} if {_d(self.cond)}, else {_d(self.orelse)}"

    def check(self, ck: Checks, scope: set[str]) -> None:
        ck.expr(self.then, scope)
        ck.cond(self.cond, scope)
        ck.expr(self.orelse, scope)

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "IfExpr":
        return cls._make(loc=loc, then=parts[0], cond=parts[1], orelse=parts[2])

    def generate(self, gen: Generates, scope: dict) -> Any:
        """Both sides of one kind (none goes with anything)."""
        cond = gen.expr(self.cond, scope)
        if cond.src in ("True", "False"):  # known (`last(it) is Space` of a number): only that side is ever evaluated
            return gen.expr(self.then if cond.src == "True" else self.orelse, scope)
        then, orelse = gen.expr(self.then, scope), gen.expr(self.orelse, scope)
        kinds = {then.kind, orelse.kind} - {"none"}
        if then.kind == "zone" or orelse.kind == "zone":
            if then.kind == orelse.kind == "zone" and then.zone == orelse.zone and then.rows == orelse.rows and \
                    "_random(" not in cond.src:  # the condition is evaluated for the list and for the key
                key = f"({then.key} if {cond.src} else {orelse.key})"
                return gen.value(f"({then.src} if {cond.src} else {orelse.src})", "zone", top=True, live=True,
                                 zone=then.zone, rows=then.rows, key=key)
            then, orelse = (gen.items(v) if v.kind == "zone" else v for v in (then, orelse))
            kinds = {then.kind, orelse.kind} - {"none"}
        empty = [v for v in (then, orelse) if v.kind == "list" and v.src == "[]"]
        if len(kinds) == 2 and empty and len(empty) == 1:  # `xs if c else []`: a list of the other's kind
            kinds = {then.kind, orelse.kind} - {"list"}
        if len(kinds) > 1:
            if kinds <= {"int", "str", "bool", "any"}:
                kinds = {"any"}
            elif kinds <= {"cards", "list"} and "list" in {then.kind, orelse.kind} and \
                    all(v.kind != "list" or v.src == "[]" for v in (then, orelse)):
                kinds = {"cards"}  # `xs if c else []`
            elif kinds <= {"mixed", "list", "cards", "players", "rows"} and \
                    all(v.elem != "other" for v in (then, orelse) if v.kind == "list"):
                kinds = {"mixed"}  # texts with cards, players or rows (`gen.joined`)
            else:
                gen.unsupported("a conditional value of two kinds")
        kind = kinds.pop() if kinds else "none"
        elems = {v.elem for v in (then, orelse) if v.kind == "list" and v.src != "[]"}
        return gen.value(f"({then.src} if {cond.src} else {orelse.src})", kind, top=then.top and orelse.top,
                         nn=then.nn and orelse.nn, elem=elems.pop() if len(elems) == 1 else None)


@_node
class Quantified(Expr):
    """`every|some|no a, b in items has cond`."""

    kind: ClassVar[str] = "quantified"
    grammar: ClassVar[tuple[str, ...]] = ('quantified',)
    gives: ClassVar[str | None] = BOOL

    quantifier: str
    names: list[str]
    iter: Node
    cond: Node

    def describe(self) -> str:
        q = {"every": "every", "some": "some", "no": "no"}[self.quantifier]
        return f"{q} {', '.join(self.names)} in {_d(self.iter)} {'has' if q != 'no' else 'has'} {_d(self.cond)}"

    def check(self, ck: Checks, scope: set[str]) -> None:
        ck.expr(self.iter, scope)
        ck.cond(self.cond, scope | set(self.names))

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "Quantified":
        return cls._make(loc=loc, quantifier=str(parts[0].children[0]), names=[str(t) for t in parts[1:-2]],
                   iter=parts[-2], cond=parts[-1])

    def generate(self, gen: Generates, scope: dict) -> Any:
        names = self.names
        it = gen.expr(self.iter, scope)
        if it.kind == "pairs" and self.iter.kind == "call" and gen.is_local(it.src[len("_pairs("):-1]):
            xs = it.src[len("_pairs("):-1]  # `adjacent(row)` of a local: pairs without a list
            it = gen.value(f"zip({gen.charged(xs)}, {xs}[1:])", "pairs", top=it.top)
        elif it.kind == "pairs":
            it.src = gen.charged(it.src)
        if it.kind == "pairs" and len(names) == 2:
            item = "topcard" if it.top else "card"
        elif len(names) == 1:
            it = gen.items(it)
            item = gen.item_kind(it.kind)
            if item == "card" and it.top:
                item = "topcard"
            if item is None:
                gen.unsupported("quantifier over this")
            it.src = gen.charged(it.src)
        else:
            gen.unsupported("quantifier groups")
        inner = dict(scope)
        pys = [gen.temp("_i") for _ in names]
        for name, py in zip(names, pys):
            inner[name] = (py, item)
        with gen.binding():
            cond = gen.expr(self.cond, inner)
        target = ", ".join(pys) if len(pys) > 1 else pys[0]
        return gen.tested(self, self.quantifier, cond.src, target, it.src)


@_node
class OrExpr(Expr):
    """`a or b or ...`."""

    kind: ClassVar[str] = "or"
    grammar: ClassVar[tuple[str, ...]] = ('or_expr',)
    chain: ClassVar[bool] = True
    gives: ClassVar[str | None] = BOOL

    items: list[Node]

    def describe(self) -> str:
        return " or ".join(_d(i) for i in self.items)

    def check(self, ck: Checks, scope: set[str]) -> None:
        for item in self.items:
            ck.cond(item, scope)

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> Node:
        return cls._make(loc=loc, items=list(parts)) if len(parts) > 1 else parts[0]

    def generate(self, gen: Generates, scope: dict) -> Any:
        if _types_all_tested(self, gen, scope):
            return gen.value("True", "bool")
        parts = [gen.expr(i, scope).src for i in self.items]
        if "True" in parts:  # a known true part (a typed walk's `it is T`): what follows it is never evaluated
            parts = parts[:parts.index("True") + 1]
            if len(parts) == 1:
                return gen.value("True", "bool")
        return gen.value("(" + " or ".join(parts) + ")", "bool")


def _types_all_tested(n: "OrExpr", gen: Generates, scope: dict) -> bool:
    """Whether `n` is `X is T or X is U ...` of a card whose type is known to be one of those
    named (a typed walk's item: `V.types`): then it is known true."""
    tested, seen = set(), None
    for item in n.items:
        if not isinstance(item, IsExpr) or item.negate:
            return False
        v = gen.expr(item.expr, scope)
        if v.kind != "card" or v.types is None or not gen.is_local(v.src) or seen not in (None, v.src):
            return False
        seen = v.src
        tested.add(item.what)
    return v.types <= tested


@_node
class AndExpr(Expr):
    """`a and b and ...`."""

    kind: ClassVar[str] = "and"
    grammar: ClassVar[tuple[str, ...]] = ('and_expr',)
    chain: ClassVar[bool] = True
    gives: ClassVar[str | None] = BOOL

    items: list[Node]

    def describe(self) -> str:
        return " and ".join(_d(i) for i in self.items)

    def check(self, ck: Checks, scope: set[str]) -> None:
        for item in self.items:
            ck.cond(item, scope)

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> Node:
        return cls._make(loc=loc, items=list(parts)) if len(parts) > 1 else parts[0]

    def generate(self, gen: Generates, scope: dict) -> Any:
        first = gen.expr(self.items[0], scope)
        if first.src == "False":  # known false (`it is Space` of a number): the rest is never evaluated
            return first
        parts = [p for p in [first.src] + [gen.expr(i, scope).src for i in self.items[1:]] if p != "True"]
        if not parts:  # (a known true part, a typed walk's `it is T`, says nothing: left out)
            return gen.value("True", "bool")
        return gen.value("(" + " and ".join(parts) + ")", "bool")


@_node
class NotExpr(Expr):
    """`not a`."""

    kind: ClassVar[str] = "not"
    grammar: ClassVar[tuple[str, ...]] = ('not_expr',)
    gives: ClassVar[str | None] = BOOL

    expr: Node

    def describe(self) -> str:
        e = self.expr  # "held is not empty" reads better than "not held is empty"
        if isinstance(e, IsExpr):
            return f"{_d(e.expr)} is {'' if e.negate else 'not '}{_article(e.what)}{_words(e.what)}"
        if isinstance(e, InExpr):
            return f"{_d(e.item)} is not in {_d(e.coll)}"
        if isinstance(e, Compare) and e.op in _NEGATED:
            return f"{_d(e.left)} {_COMPARE[_NEGATED[e.op]]} {_d(e.right)}"
        return f"not ({_d(e)})" if isinstance(e, (AndExpr, OrExpr)) else f"not {_d(e)}"

    def check(self, ck: Checks, scope: set[str]) -> None:
        ck.cond(self.expr, scope)

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "NotExpr":
        return cls._make(loc=loc, expr=parts[0])

    def generate(self, gen: Generates, scope: dict) -> Any:
        return gen.value(f"(not {gen.expr(self.expr, scope).src})", "bool")


@_node
class Compare(Expr):
    """`a == b`, `!=`, `<`, `<=`, `>`, `>=`."""

    kind: ClassVar[str] = "compare"
    grammar: ClassVar[tuple[str, ...]] = ('compare',)
    gives: ClassVar[str | None] = BOOL

    op: str
    left: Node
    right: Node

    def describe(self) -> str:
        return f"{_d(self.left)} {_COMPARE[self.op]} {_d(self.right)}"

    def check(self, ck: Checks, scope: set[str]) -> None:
        ck.compare(self, scope)

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "Compare":
        return cls._make(loc=loc, op=str(parts[1]), left=parts[0], right=parts[2])

    def generate(self, gen: Generates, scope: dict) -> Any:
        left, right = gen.expr(self.left, scope), gen.expr(self.right, scope)
        op = self.op
        if "item" in (left.kind, right.kind):
            return gen.compare_item(self, left, right)
        if left.kind == "row" and right.kind in ("row", "none") and op in ("==", "!="):  # the same row
            return gen.value(f"({left.src} {'is' if op == '==' else 'is not'} {right.src})", "bool")
        if op in ("==", "!=") and "none" in (left.kind, right.kind) and (left.held or right.held):
            held = left.held or right.held  # a stat holding cards: none until first set
            return gen.value(f"({held} {'is' if op == '==' else 'is not'} None)", "bool")
        for v in (left, right):
            if v.kind in ("cards", "zone", "row", "rows", "list", "players", "map", "type", "pairs"):
                return gen.compare_lists(self, left, right)  # `==`/`!=` of two lists
        if (left.kind == "card") != (right.kind == "card") and "none" not in (left.kind, right.kind):
            gen.unsupported("comparing a card with another kind")
        if op in ("==", "!="):
            return gen.value(f"({left.src} {op} {right.src})", "bool")
        if left.nn and right.nn:  # neither side can be none: a plain comparison
            return gen.value(f"({left.src} {op} {right.src})", "bool")
        return gen.value(f"_ordered({_ORDERINGS.index(op)}, {left.src}, {right.src})", "bool")


@_node
class InExpr(Expr):
    """`item in collection`."""

    kind: ClassVar[str] = "in"
    grammar: ClassVar[tuple[str, ...]] = ('in_expr',)
    gives: ClassVar[str | None] = BOOL

    item: Node
    coll: Node

    def describe(self) -> str:
        return f"{_d(self.item)} is in {_d(self.coll)}"

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "InExpr":
        return cls._make(loc=loc, item=parts[0], coll=parts[1])

    def generate(self, gen: Generates, scope: dict) -> Any:
        """Equality with each item (`Compiler.x_in`; a card never equals a player); records and
        card lists by list equality, card ids for the cards."""
        if gen.records_syntax(self.coll, scope):  # `record in records`, `[a, b] in card_lists`
            item, coll = gen.expr(self.item, scope), gen.expr(self.coll, scope)
            if (coll.kind.startswith("tuples:") and item.kind == "tuple:" + coll.kind[7:]) or \
                    (coll.kind == "cardlists" and item.kind == "cards"):
                return gen.value(f"({item.src} in {coll.src})", "bool")
        item, coll = gen.expr(self.item, scope), gen.expr(self.coll, scope)
        if item.kind == "item" and coll.kind in ("cards", "zone", "row", "players"):
            xs = gen.items(coll)
            t = "int" if xs.kind == "cards" else "_Seat"
            return gen.value(f"(type({item.src}) is {t} and {item.src} in {xs.src})", "bool")
        xs = gen.items(coll) if coll.kind != "map" else None
        if xs is None or xs.kind not in ("cards", "players", "list", "rows"):
            gen.unsupported(f"`in` a {coll.kind}")
        want = {"cards": "card", "players": "player", "rows": "row", "list": None}[xs.kind]
        if want is None:
            if xs.src == "[]" or xs.empty:  # an empty list (a base's default that a mod replaces)
                return gen.value(f"({item.src} in {xs.src})", "bool")
            if (item.kind in ("card", "cards") or item.kind.startswith("tuple:")) and \
                    gen.fill_empty_list(self.coll, scope, item.kind):
                return gen.value(f"({item.src} in {xs.src})", "bool")
            if item.kind not in ("int", "str", "bool", "any"):
                gen.unsupported("`in` a list of values, of something else")
            return gen.value(f"({item.src} in _charged(R, {xs.src}))", "bool")  # charged per item (a loop's long list)
        if item.kind == want:
            return gen.value(f"({item.src} in {xs.src})", "bool")
        if item.kind == "none":
            return gen.value(f"(None in {xs.src})", "bool")
        if xs.kind == "players" and item.kind in gen.plain_kinds:
            # a player is a number (`Seat`) in both engines: `2 in players` compares numbers, as
            # `Compiler.x_in`'s equality does
            return gen.value(f"({item.src} in {xs.src})", "bool")
        if item.kind in gen.plain_kinds + ("card", "player", "row", "space"):
            # a value of another kind never equals an item (a card is never a player, a number never
            # a card or a row): false, both sides evaluated as `x_in` evaluates them
            return gen.value(f"(({item.src}, {xs.src}) and False)", "bool")
        return gen.unsupported(f"a {item.kind} `in` a list of {xs.kind}")


@_node
class IsExpr(Expr):
    """`x is Type` / `x is not Type` (also `is empty`, `is dummy`)."""

    kind: ClassVar[str] = "is"
    grammar: ClassVar[tuple[str, ...]] = ('is_expr', 'is_not_expr',)
    gives: ClassVar[str | None] = BOOL

    expr: Node
    what: str
    negate: bool
    what_loc: Loc | None

    def describe(self) -> str:
        return f"{_d(self.expr)} is {'not ' if self.negate else ''}{_article(self.what)}{_words(self.what)}"

    def check(self, ck: Checks, scope: set[str]) -> None:
        ck.expr(self.expr, scope)
        rs, what = ck.rs, self.what
        if what not in rs.card_types and what not in rs.die_types and what not in _IS_WORDS \
                and not ck.lost_types and what not in ck.lost_names:
            ck.error("name/undefined", f"`is {what}`: not a card type", self.what_loc or self.loc,
                     did_you_mean(what, set(rs.card_types) | {"empty", "covered"})
                     or "use a card type, `empty`, `covered`, `dummy` or `none`")

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "IsExpr":
        expr, what = parts
        return cls._make(loc=loc, expr=expr, what=str(what), negate=src.rule == "is_not_expr", what_loc=src.token_loc(what))

    def generate(self, gen: Generates, scope: dict) -> Any:
        what = self.what
        if what == "dummy":
            v = gen.expr(self.expr, scope)
            if v.kind not in ("player", "none", "any"):
                gen.unsupported("is dummy")
            src = f"R.is_dummy({v.src})"
            return gen.value(f"(not {src})" if self.negate else src, "bool")
        v = gen.expr(self.expr, scope)
        if v.kind == "item":  # an item of a mixed list: a card only if it is a plain int
            v = gen.as_card(v)
        if what == "empty":
            if v.kind == "zone" and v.rows:
                src = f"(not {v.src})"
            elif v.kind in ("zone", "row", "cards", "list", "players", "rows", "mixed", "rowpairs", "spaces", "zonerefs"):
                src = f"(not {v.src})"
            elif v.kind == "zoneref" and v.src.isidentifier():  # (a local: read more than once)
                # a shared zone's key is its name (`ZoneRef.key`, a property: a Python call)
                src = f"(not _Z[{_zoneref_key(v.src)}])"
            elif v.kind == "zoneref":
                src = f"(not _Z[{v.src}.key])"
            elif v.kind == "card":
                src = f"({v.src} is None)"
            else:
                gen.unsupported("is empty")
        elif what in gen.rs.card_types or what in gen.rs.die_types:
            if v.kind in gen.single_kinds or v.kind == "player":  # a number, a text, a truth value or a player is no card
                return gen.value("True" if self.negate else "False", "bool")
            if v.kind != "card":
                gen.unsupported("is Type on a non-card")
            if v.types is not None and (what not in v.types or len(v.types) == 1):  # a typed walk's item
                return gen.value("False" if (what in v.types) == self.negate else "True", "bool")
            if v.top or v.nn:  # (never none: its type is known)
                return gen.value(f"(_TY[{v.src}] != {gen.k(what)})" if self.negate
                                 else f"(_TY[{v.src}] == {gen.k(what)})", "bool")
            src = f"(({v.src}) is not None and _TY[{v.src}] == {gen.k(what)})" if gen.is_local(v.src) else \
                f"_is_type(_TY, {v.src}, {gen.k(what)})"
        elif what == "covered":
            if v.kind != "card":
                gen.unsupported("is covered")
            src = f"_is_covered(_COV, {v.src})"
        elif what in ("none", "unknown"):
            src = f"({v.src} is None)"
        else:
            gen.unsupported(f"is {what}")
        return gen.value(f"(not {src})" if self.negate else src, "bool")


@_node
class CanPlaceExpr(Expr):
    """`card can be placed in zone`."""

    kind: ClassVar[str] = "can_place"
    grammar: ClassVar[tuple[str, ...]] = ('can_place_expr',)
    gives: ClassVar[str | None] = BOOL

    what: Node
    zone: Node

    def describe(self) -> str:
        return f"{_d(self.what)} can be placed in {_d(self.zone)}"

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "CanPlaceExpr":
        return cls._make(loc=loc, what=parts[0], zone=parts[1])

    def generate(self, gen: Generates, scope: dict) -> Any:
        what, zone = gen.expr(self.what, scope), gen.expr(self.zone, scope)
        if what.kind != "card" or zone.kind != "zone" or zone.zone not in gen.rs.placements:
            gen.unsupported("can be placed in a zone without a placement rule")
        if not gen.is_local(what.src):  # evaluated once
            if gen.rs.zones[zone.zone].per_player:
                return gen.value(f"_placeable_in({gen.placement_names[zone.zone]}, {what.src}, {zone.src})", "bool")
            return gen.value(f"_placeable({gen.placement_names[zone.zone]}, {what.src})", "bool")
        return gen.value(f"({what.src} is not None and bool({gen.placement_call(zone, what.src)}))", "bool")


@_node
class RangeLit(Expr):
    """`lo..hi`."""

    kind: ClassVar[str] = "range"
    grammar: ClassVar[tuple[str, ...]] = ('range_lit',)

    lo: Node
    hi: Node

    def describe(self) -> str:
        return f"{_d(self.lo)} to {_d(self.hi)}"

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "RangeLit":
        return cls._make(loc=loc, lo=parts[0], hi=parts[1])

    def generate(self, gen: Generates, scope: dict) -> Any:
        lo, hi = gen.expr(self.lo, scope), gen.expr(self.hi, scope)
        if lo.kind not in ("int", "any") or hi.kind not in ("int", "any"):  # `any`: a die's face, as `R.range`
            gen.unsupported("a range of non-numbers")  # takes it (a number; else the same error as `x_range`)
        return gen.value(f"R.range({lo.src}, {hi.src})", "list", nn=True)


@_node
class Arith(Expr):
    """`a + b`, `-`, `*`, `/`, `%` (left to right)."""

    kind: ClassVar[str] = "arith"
    grammar: ClassVar[tuple[str, ...]] = ('arith',)
    chain: ClassVar[bool] = True

    op: str
    left: Node
    right: Node
    op_loc: Loc | None

    def describe(self) -> str:
        return f"{_d(self.left)} {_ARITH[self.op]} {_d(self.right)}"

    def check(self, ck: Checks, scope: set[str]) -> None:
        ck.expr(self.left, scope)
        ck.expr(self.right, scope)
        ck.arith(self, scope)

    def value_kind(self, ck: Checks, scope: set[str]) -> str | None:
        if self.op != "+":
            return NUMBER
        return NUMBER if ck.kind(self.left, scope) == NUMBER and ck.kind(self.right, scope) == NUMBER else None

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> Node:
        """`a + b - c` folds left to right, `(a + b) - c`, each node where its left operand starts;
        a lone operand (`?sum` with nothing added) is itself."""
        node = parts[0]
        for i in range(1, len(parts), 2):
            op = parts[i]
            node = cls._make(loc=node.loc, op=str(op), left=node, right=parts[i + 1], op_loc=src.token_loc(op))
        return node

    def generate(self, gen: Generates, scope: dict) -> Any:
        """Numbers, bounded as the rules bound them; `+` also joins lists (of cards, values,
        records, card lists, walks) and texts. Each case compiles the sides anew, in this order."""
        if self.op == "+":
            got = self._joined_lists(gen, scope)
            if got is not None:
                return got
        left, right = gen.expr(self.left, scope), gen.expr(self.right, scope)
        if self.op == "+" and left.kind in ("cards", "zone", "row") and right.kind in ("cards", "zone", "row"):
            l, r = gen.items(left), gen.items(right)
            return gen.value(f"({l.src} + {r.src})", "cards", top=l.top and r.top)
        joined = gen.joined(self, left, right)
        if joined is not None:
            return joined
        if left.kind not in ("int", "any") or right.kind not in ("int", "any"):
            return gen.mixed_arith(self, left, right)  # texts, a list and a value, cards
        nn = left.nn and right.nn
        if self.op == "*":
            return gen.value(f"_mul({left.src}, {right.src})", "int", nn=nn)
        if self.op in ("+", "-"):  # bounded as the task engine bounds them (`Game.add`, `Game.sub`)
            return gen.value(f"{'_add' if self.op == '+' else '_sub'}({left.src}, {right.src})", "int", nn=nn)
        op = {"/": "//", "%": "%"}.get(self.op)
        if op is None:
            gen.unsupported("operator")
        return gen.value(f"({left.src} {op} {right.src})", "int", nn=nn)

    def _joined_lists(self, gen: Generates, scope: dict) -> Any:
        """`+` of lists of records, of lists of card lists, of walks, of lists and of texts; None
        for the other cases."""
        sides = (self.left, self.right)
        if any(gen.pairs_syntax(x) or gen.records_syntax(x, scope) for x in sides):
            # two lists of records of one shape (or one and the empty list); a stat first read as
            # lists of card lists learns here that it holds records
            left, right = gen.expr(self.left, scope), gen.expr(self.right, scope)
            kinds = {left.kind, right.kind} - {"list"}
            records = [k for k in kinds if k.startswith("tuples:")]
            if len(records) == 1 and kinds <= {records[0], "cardlists"}:
                for side, v in ((self.left, left), (self.right, right)):
                    if v.kind == "cardlists" and side.kind == "name" and side.id in gen.rs.stats:
                        gen.learn_records(side.id, records[0])
                # (a list: empty, written `[]` or a variable `let xs = []` made and nothing filled)
                if all(v.src == "[]" or v.src in gen.empty_lists for v in (left, right) if v.kind == "list"):
                    return gen.value(f"_join(R, {left.src}, {right.src})", records[0], nn=True)
        if any(gen.pairs_syntax(x) for x in sides):  # two lists of card lists (or one and the empty list)
            left, right = gen.expr(self.left, scope), gen.expr(self.right, scope)
            kinds = {left.kind, right.kind}
            if "cardlists" in kinds and kinds <= {"cardlists", "list"} and \
                    all(v.src == "[]" for v in (left, right) if v.kind == "list"):
                return gen.value(f"_join(R, {left.src}, {right.src})", "cardlists", nn=True)
        left, right = gen.expr(self.left, scope), gen.expr(self.right, scope)
        kinds = {left.kind, right.kind}
        cardish = {"cards", "zone", "row"}
        if kinds == {"walks"}:
            return gen.value(f"_join(R, {left.src}, {right.src})", "walks", nn=True)
        # lists of values; cards joined with a list that holds none so far (`let xs = []` ...
        # `let xs = [c] + xs`); a list of values joined with cards is a mixed list (`gen.joined`)
        empty = all(v.src == "[]" or v.src in gen.empty_lists for v in (left, right) if v.kind == "list")
        if kinds == {"list"} or (kinds & cardish and kinds <= cardish | {"list"} and "list" in kinds and empty):
            l, r = gen.items(left), gen.items(right)
            return gen.value(f"_join(R, {l.src}, {r.src})", "list" if kinds == {"list"} else "cards")
        if "str" in kinds and kinds <= {"str", "int", "bool", "none"}:
            return gen.value(f"_join_text(R, {left.src}, {right.src})", "str", nn=True)
        return None


@_node
class Neg(Expr):
    """`-a`."""

    kind: ClassVar[str] = "neg"
    grammar: ClassVar[tuple[str, ...]] = ('neg',)
    gives: ClassVar[str | None] = NUMBER

    expr: Node

    def describe(self) -> str:
        return f"minus {_d(self.expr)}"

    def check(self, ck: Checks, scope: set[str]) -> None:
        ck.number_arg(self.expr, scope, "only a number can be negated")

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "Neg":
        return cls._make(loc=loc, expr=parts[0])

    def generate(self, gen: Generates, scope: dict) -> Any:
        v = gen.expr(self.expr, scope)
        if v.kind != "int":
            gen.unsupported("negation of a non-number")
        return gen.value(f"(-{v.src})", "int")


@_node
class OfExpr(Expr):
    """`name of player` / `your name`: a player's zone or stat."""

    kind: ClassVar[str] = "of"
    grammar: ClassVar[tuple[str, ...]] = ('of_expr', 'your_expr',)

    name: str
    name_loc: Loc | None
    owner: Node

    def describe(self) -> str:
        owner = self.owner
        if isinstance(owner, Name) and owner.id == "you":
            return f"your {_words(self.name)}"
        return f"the {_words(self.name)} of {_d(owner)}"

    def check(self, ck: Checks, scope: set[str]) -> None:
        ck.expr(self.owner, scope)
        rs, name = ck.rs, self.name
        if name in rs.zones or name in rs.stats:
            ck.used.add(name)
            if not (rs.zones.get(name) or rs.stats.get(name)).per_player:
                ck.error("zone/owner", f"`{name}` is shared, it has no owner", self.name_loc, f"write just `{name}`")
        elif name not in ck.builtins:
            per_player = {z for z, d in rs.zones.items() if d.per_player} | \
                         {s for s, d in rs.stats.items() if d.per_player}
            ck.undefined(name, self.name_loc, per_player, "zone or player stat")

    def value_kind(self, ck: Checks, scope: set[str]) -> str | None:
        owner, rs = self.owner, ck.rs
        one_player = isinstance(owner, Name) and owner.id not in ("players",) and owner.id in scope | {"you"} \
            or isinstance(owner, Call) and owner.func in ("next_player", "previous_player")
        if not one_player:  # `STAT of players` is a list of numbers
            return None
        return ZONE if self.name in rs.zones else ck.stat_kind(self.name) if self.name in rs.stats else None

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "OfExpr":
        """`NAME of OWNER`, or `your NAME`: the owner is `you`, written where the whole is."""
        name = parts[0]
        owner = parts[1] if src.rule == "of_expr" else Name(loc=loc, id="you")
        return cls._make(loc=loc, name=str(name), name_loc=src.token_loc(name), owner=owner)

    def generate(self, gen: Generates, scope: dict) -> Any:
        name, rs = self.name, gen.rs
        owner = gen.expr(self.owner, scope)
        if owner.kind == "item":  # an item of a mixed list used as a player
            owner = gen.value(owner.src, "player")
        if owner.kind == "int" and gen.number_owners:  # a scenario's `offered of 1`: the seat numbered from 0
            owner = gen.value(f"_Seat({owner.src})", "player")
        if owner.kind == "int" and (name in rs.zones or (name in rs.stats and rs.stats[name].per_player)):
            # `hand of 1`, `points of 1`: the seat at that index, as `set points of 1 to ...` writes it
            owner = gen.value(owner.src, "player")
        if name in rs.zones:
            if owner.kind == "player":
                return gen.zone(name, owner.src)
            if owner.kind == "players":
                z = gen.zone(name, "_p")
                if z.rows:
                    gen.unsupported("rows of several players")
                return gen.value(f"[_c for _p in {gen.unnamed(owner.src)} for _c in {gen.unnamed(z.src)}]", "cards", top=True)
            gen.unsupported(f"zone of a {owner.kind}")
        if name in rs.stats and rs.stats[name].per_player and owner.kind == "player":
            return gen.stat_read(name, f"_st.pstats[{owner.src}][{gen.k(name)}]")
        if name in rs.stats and rs.stats[name].per_player and owner.kind == "players":
            if name in gen.stat_kinds:
                gen.unsupported("a stat of several players holding cards, players or text")
            return gen.value(f"[_st.pstats[_p][{gen.k(name)}] for _p in {gen.unnamed(owner.src)}]", "list")  # one per player
        return gen.builtin_of(self, owner, scope)  # `next_player of P`: a builtin of one value


def _own_field(table: str, card: str) -> str:
    """A card's own field (`f[card]`), never a copied card's: what `name` reads."""
    return f"{table}[{card}]"


@_node
class Attr(Expr):
    """`x.field`."""

    kind: ClassVar[str] = "attr"
    grammar: ClassVar[tuple[str, ...]] = ('attr',)

    obj: Node
    name: str
    name_loc: Loc | None

    def describe(self) -> str:
        return f"the {_words(self.name)} of {_d(self.obj)}"

    def check(self, ck: Checks, scope: set[str]) -> None:
        ck.expr(self.obj, scope)
        rs, name = ck.rs, self.name
        grid_attr = name in ("x", "y") and any(z.kind == "grid" for z in rs.zones.values())
        if name not in ck.card_fields and not (name in rs.stats and rs.stats[name].per_player) \
                and not grid_attr:  # a grid space's column and row
            if not ck.lost_types:
                ck.error("field/unknown", f"no card type or player stat has a field `{name}`", self.name_loc,
                         did_you_mean(name, set(ck.card_fields) | set(rs.stats)))
        elif name in rs.stats:
            ck.used.add(name)

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "Attr":
        obj, name = parts
        return cls._make(loc=loc, obj=obj, name=str(name), name_loc=src.token_loc(name))

    def generate(self, gen: Generates, scope: dict) -> Any:
        name, rs = self.name, gen.rs
        if name == "face" and rs.die_types:
            return gen.face_of(self, scope)
        obj = gen.expr(self.obj, scope)
        if obj.kind == "item" and name in gen.card_fields() and name not in rs.stats:
            obj = gen.as_card(obj)  # an item of a mixed list read as a card: a card's field
        if obj.kind == "none" and name in gen.card_fields():
            return gen.value("None", "none")  # none's field: none, as `Game` reads it
        if obj.kind == "space" and name in ("x", "y"):  # columns and rows count from 1 (`read_field`)
            if obj.nn:
                return gen.value(f"({obj.src}.{name} + 1)", "int", nn=True)
            return gen.value(f"R.space_xy({obj.src}, {gen.k(name == 'x')})", "int")
        if obj.kind == "type":
            return gen.value(gen.k(gen.type_values(self)), "list")
        if obj.kind == "player" and name in rs.stats:
            return gen.stat_read(name, f"_st.pstats[{obj.src}][{gen.k(name)}]")
        if name not in gen.card_fields():
            gen.unsupported(f"field {name}")
        f = gen.field(name)
        rd = gen.field_read  # `f[card]`, or through a copy
        if name == "name":  # a copying card keeps its own name (docs/language.md, `copies`)
            rd = _own_field
        if self.obj.kind == "where" and obj.kind == "cards":  # `(xs where c).f`: one comprehension
            items, x, cond, types = gen.where_parts(self.obj, scope)
            elem = rd(f, x) if items.top else f"(None if _COV[{x}] else {rd(f, x)})"
            return gen.listed(self, elem, x, items.src, cond, "list",
                              nn=items.top and types is not None and gen.field_never_none(name, types))
        if obj.kind == "card" and obj.top:
            return gen.value(rd(f, obj.src), "any", single=gen.field_single(name))
        if obj.kind == "card" and obj.nn and gen.is_local(obj.src):  # never none (an item of `all_cards()`)
            return gen.value(f"(None if _COV[{obj.src}] else {rd(f, obj.src)})", "any", single=gen.field_single(name))
        if obj.kind == "card":  # (the card named where first read: `leader(you).bonus` works it out once)
            first, c = gen.named(obj.src)
            return gen.value(f"(None if {first} is None or _COV[{c}] else {rd(f, c)})", "any",
                             single=gen.field_single(name))
        if obj.kind in ("cards", "zone", "row"):
            src = gen.unnamed(obj.src if obj.kind != "zone" or not obj.rows else f"[_x for _r in {obj.src} for _x in _r]")
            x = gen.temp("_i")
            if obj.top or obj.kind in ("zone", "row"):
                return gen.listed(self, rd(f, x), x, src, None, "list")
            return gen.listed(self, f"None if _COV[{x}] else {rd(f, x)}", x, src, None, "list")
        return gen.field_of_value(obj, name)  # a number's or text's field: an error


@_node
class Index(Expr):
    """`x[key]`."""

    kind: ClassVar[str] = "index"
    grammar: ClassVar[tuple[str, ...]] = ('index',)

    obj: Node
    key: Node

    def describe(self) -> str:
        return f"{_d(self.obj)}[{_d(self.key)}]"

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "Index":
        return cls._make(loc=loc, obj=parts[0], key=parts[1])

    def generate(self, gen: Generates, scope: dict) -> Any:
        obj = gen.expr(self.obj, scope)
        key = self.key
        if obj.kind.startswith("tuple:") and key.kind == "lit" and type(key.value) is int:
            shape = gen.record_shape(obj.kind)  # `record[i]`, `i` a literal: the kind of that position
            i = key.value
            if -len(shape) <= i < len(shape):
                return gen.value(f"{obj.src}[{i}]", shape[i])
        k = gen.expr(key, scope)
        return gen.index_of(obj, k) if obj.kind != "map" else gen.value(f"{obj.src}[{k.src}]", "int")


@_node
class Call(Expr):
    """`name(args)`: a builtin, rule function or procedure."""

    kind: ClassVar[str] = "call"
    grammar: ClassVar[tuple[str, ...]] = ('call',)

    func: str
    args: list[Node]
    name_loc: Loc | None

    def describe(self) -> str:
        if not self.args:  # `other_players()` reads "other players"
            return _words(self.func)
        if len(self.args) == 1:  # `count(hand)` reads "count of hand"
            words = _words(self.func)
            return f"{words} {_d(self.args[0])}" if words.endswith(" of") else f"{words} of {_d(self.args[0])}"
        return f"{_words(self.func)}(" + ", ".join(_d(a) for a in self.args) + ")"

    def check(self, ck: Checks, scope: set[str]) -> None:
        fn = ck.rs.functions.get(self.func)
        if fn is None:  # a builtin, or a mistake: the registry's arity and argument kinds
            ck.call(self, scope)
            return
        ck.used.add(self.func)
        if len(self.args) != len(fn.params):
            ck.error("call/arity", f"`{self.func}` takes {len(fn.params)} argument(s) "
                     f"({', '.join(fn.params)}), got {len(self.args)}", self.loc)
        for a in self.args:
            ck.expr(a, scope)

    def value_kind(self, ck: Checks, scope: set[str]) -> str | None:
        b = ck.builtins.get(self.func)
        return b.result if b is not None else None

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "Call":
        func, args = parts  # `args`: the parser's list of expressions, None for `f()`
        return cls._make(loc=loc, func=str(func), args=args or [], name_loc=src.token_loc(func))

    def generate(self, gen: Generates, scope: dict) -> Any:
        f = self.func
        if f in gen.rs.functions and f not in gen.rs.procedures:
            return gen.rule_call(self, scope)
        if f in gen.rs.procedures:
            gen.unsupported("a procedure used as a value")
        return gen.builtin(self, [gen.expr(a, scope) for a in self.args], scope)


@_node
class Lit(Expr):
    """A number or a text."""

    kind: ClassVar[str] = "lit"
    grammar: ClassVar[tuple[str, ...]] = ('int_lit', 'str_lit',)

    value: Any

    def describe(self) -> str:
        return f"\u201c{self.value}\u201d" if isinstance(self.value, str) else str(self.value)

    def value_kind(self, ck: Checks, scope: set[str]) -> str | None:
        return NUMBER if isinstance(self.value, int) else TEXT

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "Lit":
        tok = parts[0]
        return cls._make(loc=loc, value=src.number(tok) if src.rule == "int_lit" else src.text(tok))

    def generate(self, gen: Generates, scope: dict) -> Any:
        v = self.value
        kind = "bool" if isinstance(v, bool) else "int" if isinstance(v, int) else "str" if isinstance(v, str) \
            else None
        if kind is None:
            gen.unsupported("literal")
        return gen.value(gen.k(v), kind, nn=True)


@_node
class Name(Expr):
    """A name: a variable, zone, stat, constant, type or value."""

    kind: ClassVar[str] = "name"
    grammar: ClassVar[tuple[str, ...]] = ('name',)

    id: str

    def describe(self) -> str:
        return _SPECIAL.get(self.id, _words(self.id))

    def check(self, ck: Checks, scope: set[str]) -> None:
        ck.name(self, scope)

    def value_kind(self, ck: Checks, scope: set[str]) -> str | None:
        return ck.name_kind(self, scope)

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "Name":
        return cls._make(loc=loc, id=str(parts[0]))

    def generate(self, gen: Generates, scope: dict) -> Any:
        got = gen.scoped(self.id, scope)  # a rule variable, a function's parameter
        if got is not None:
            return got
        name, rs = self.id, gen.rs
        if name in rs.zones:
            if rs.zones[name].per_player:
                return gen.zone(name, gen.you(scope) if "you" in scope else None)
            return gen.zone(name, None)
        if name in rs.stats:
            if rs.stats[name].per_player:
                gen.unsupported("player stat without owner")
            if name in gen.card_stats:  # a stat holding a list of cards (`CardStats`)
                return gen.value(f"R.card_stat({gen.k(name)})", "cards", nn=True)
            return gen.stat_read(name, f"_st.stats[{gen.k(name)}]")
        if name in rs.constants:
            kind = gen.const_kinds.get(name)
            if kind is None:
                gen.unsupported("constant used before it is defined")
            return gen.value(f"R.const[{gen.k(name)}]", kind, nn=name in gen.const_nn)
        if name == "true":
            return gen.value("True", "bool")
        if name == "false":
            return gen.value("False", "bool")
        if name == "none":
            return gen.value("None", "none")
        if name == "players":
            return gen.value("R.seats", "players")
        if name == "player_count":
            return gen.value("_st.players", "int")
        if name in ("start_player", "active_player"):
            return gen.value("_st.start_player" if name == "start_player" else "_st.active", "player")
        if name in ("turn_number", "round_number"):
            return gen.value(f"_st.{name}", "int")
        if name in rs.card_types:
            return gen.value(gen.k(name), "type")
        if name in gen.enum_values:
            return gen.value(gen.k(name), "str")
        return gen.unsupported(f"name {name}")


@_node
class ListLit(Expr):
    """`[a, b, ...]`."""

    kind: ClassVar[str] = "list"
    grammar: ClassVar[tuple[str, ...]] = ('list_lit',)

    items: list[Node]

    def describe(self) -> str:
        return "[" + ", ".join(_d(i) for i in self.items) + "]"

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "ListLit":
        return cls._make(loc=loc, items=parts[0] or [])

    def generate(self, gen: Generates, scope: dict) -> Any:
        """A list of cards, of plain values, of records, of card lists or of walks (a mix of
        cards and values other than texts is `Unsupported`)."""
        items = self.items
        if items and all(i.kind == "list" and i.items for i in items):  # `[[a, 1], [b, 2]]`: records
            got = gen.records_of([[gen.expr(x, scope) for x in i.items] for i in items])
            if got is not None:
                return got
        elif items and not any(i.kind == "list" for i in items):
            values = [gen.expr(i, scope) for i in items]
            got = gen.record_of(values)
            if got is not None:
                return got
            if not all(i.kind == "name" for i in items):  # (names: walks, below)
                return gen.list_of(values)  # not compiled again: a list nested in lists would be, at each depth
        if items and all(i.kind == "list" for i in items):  # `[xs, ys]`, all card lists: kind `cardlists`
            values = [gen.expr(i, scope) for i in items]
            if all(v.kind == "cards" for v in values):
                return gen.value(gen.built_list([gen.value(gen.kept(v), "cards") for v in values]), "cardlists",
                                 nn=True)
        if items and all(i.kind == "name" and scope.get(i.id, ("", ""))[1] == "cards" for i in items):
            values = [gen.expr(i, scope) for i in items]  # `[w, ...]` of walks: each a tuple, as `walks()` gives
            return gen.value("[" + ", ".join(f"tuple({v.src})" for v in values) + "]", "walks", nn=True)
        return gen.list_of([gen.expr(i, scope) for i in items])


@_node
class Comprehension(Expr):
    """`[expr for each name in items]`."""

    kind: ClassVar[str] = "comprehension"
    grammar: ClassVar[tuple[str, ...]] = ('comprehension',)

    expr: Node
    name: str
    iter: Node

    def describe(self) -> str:
        return f"{_d(self.expr)} for each {self.name} in {_d(self.iter)}"

    def check(self, ck: Checks, scope: set[str]) -> None:
        ck.expr(self.iter, scope)
        ck.expr(self.expr, scope | {self.name})

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "Comprehension":
        return cls._make(loc=loc, expr=parts[0], name=str(parts[1]), iter=parts[2])

    def generate(self, gen: Generates, scope: dict) -> Any:
        items = gen.items(gen.expr(self.iter, scope))
        item = gen.item_kind(items.kind)
        if item is None:
            gen.unsupported("comprehension over this")
        x = gen.temp("_i")
        inner = dict(scope)
        inner[self.name] = (x, item)
        src = gen.charged(items.src)
        with gen.binding():
            body = gen.expr(self.expr, inner)
        if body.kind == "cards":  # lists of cards (kind `cardlists`), each a snapshot
            return gen.value(f"_built_lists(R, [{gen.kept(body)} for {x} in {gen.unnamed(src)}], 2)", "cardlists", nn=True)
        kind = gen.list_kind(body.kind)
        if body.kind not in ("card", "int", "str", "bool", "any", "row", "rowpair", "player", "space", "list"):
            gen.unsupported("comprehension of lists")
        elem = "other" if body.kind == "list" else None  # lists of plain values: never cards or players
        shape = {"row": 2, "rowpair": 3}.get(body.kind)  # rows, pairs of rows: charged knowing their shape
        if shape:
            return gen.value(f"_built_lists(R, [{body.src} for {x} in {gen.unnamed(src)}], {shape})", kind)
        return gen.value(f"_built(R, [{body.src} for {x} in {gen.unnamed(src)}])", kind, elem=elem)  # charged as the task engine charges it


@_node
class MapLit(Expr):
    """`{key: value, ...}`."""

    kind: ClassVar[str] = "map"
    grammar: ClassVar[tuple[str, ...]] = ('map_lit',)

    pairs: list[tuple[Node, Node]]

    def describe(self) -> str:
        return "{" + ", ".join(f"{_d(k)}: {_d(v)}" for k, v in self.pairs) + "}"

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "MapLit":
        return cls._make(loc=loc, pairs=[p for p in parts if p is not None])

    def generate(self, gen: Generates, scope: dict) -> Any:
        """Entries known when compiling: one constant; computed ones: numbers or texts as a plain
        map, cards and other values as a rule value."""
        got = gen.map_constant(self.pairs)
        if got is not None:
            return got
        pairs = [(gen.expr(kn, scope), gen.expr(vn, scope)) for kn, vn in self.pairs]
        if any(k.kind not in ("int", "str", "player") for k, _ in pairs):
            gen.unsupported("a map keyed by cards or lists")
        vkinds = {v.kind for _, v in pairs}
        body = ", ".join(f"{k.src}: {v.src if vkinds <= {'int', 'str'} else gen.rule_value(v)}" for k, v in pairs)
        kind = "map" if vkinds == {"int"} else "map:str" if vkinds == {"str"} else "value"
        return gen.value("{" + body + "}", kind, nn=True)


@_node
class Count(Node):
    """How many a choice takes: `any`, `up to n`, `n`."""

    kind: ClassVar[str] = "count"
    grammar: ClassVar[tuple[str, ...]] = ('count_any', 'count_up_to', 'count_exactly',)

    mode: str
    n: Node | None

    def describe(self) -> str:
        return {"any": "any number of", "up_to": f"up to {_d(self.n)}", "exactly": _d(self.n)}[self.mode]

    @classmethod
    def build(cls, loc: Loc, parts: list, src: "Source") -> "Count":
        """`any` (no part), `up to N`, or `N`: a number token, or a bracketed expression."""
        n = parts[0] if parts else None
        if isinstance(n, str):  # a token: `2`, not `(2)`
            n = Lit(loc=loc, value=src.number(n))
        return cls._make(loc=loc, mode=src.rule.removeprefix("count_"), n=n)  # the rules name the modes

# ---- English ----------------------------------------------------------------------------------
# `describe()` renders a construct in plain English for designers: card text, `explain`, hover.

_PHASES = {"setup": "To set up", "turn": "On a turn", "round": "Each round", "play": "The game is played"}
_TIMES = {1: "once", 2: "twice"}
_COMPARE = {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most", ">": "is more than",
            ">=": "is at least"}
_ARITH = {"+": "plus", "-": "minus", "*": "times", "/": "divided by", "%": "modulo"}
_SPECIAL = {"you": "you", "this": "this card", "it": "it", "players": "every player", "true": "yes", "false": "no",
            "none": "nothing", "active_player": "the active player", "start_player": "the start player",
            "player_count": "the number of players", "turn_number": "the turn number",
            "round_number": "the round number"}


_ORDERINGS = ("<", "<=", ">", ">=")  # as the generated code's `_ordered` numbers them

_NEGATED = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}


def _article(what: str) -> str:
    """`is empty`, `is dummy`, but `is a` (or `is an`) before a card type."""
    return "" if what in ("empty", "dummy") else "an " if what[:1].upper() in "AEIOU" else "a "


def _words(name: str) -> str:
    return name.replace("_", " ")


def _d(x: Any) -> str:
    if x is None:
        return "nothing"
    if isinstance(x, Node):
        return x.describe()
    if isinstance(x, (list, tuple)):
        return _body(list(x))
    return str(x)


def _body(stmts: list[Node] | None) -> str:
    return "; ".join(s.describe() for s in stmts or []) or "nothing"


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1] if items else ""


def _or(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1] if items else ""


def _as(name: str | None) -> str:
    return f" (call it {name})" if name else ""


def _is_you(n: Node) -> bool:
    return isinstance(n, Name) and n.id == "you"


def _verb(player: Node, verb: str) -> str:
    """`you gain`, `p gains`, `p does`."""
    return verb if _is_you(player) else verb + ("es" if verb.endswith(("o", "s")) else "s")


def _count(count: Node | None) -> str:
    return f"{count.describe()} " if count is not None else ""


CONSTRUCTS: tuple[type[Node], ...] = (Module, Effect, CopiesDecl, GameDecl, GameItem, CardType, FieldDecl, RangeType, BasicType, EnumType, DieType, ZoneDecl, ZoneProp, StatDecl, ConstDecl, EventDecl, PhaseDecl, ProcDecl, FunctionDecl, Trigger, ShortTrigger, ActionDecl, Watcher, AlwaysDecl, PlacementDecl, ScoreDecl, TiebreakDecl, ValueDecl, PreferDecl, HookDecl, ExtendDecl, EnumExtension, BoardDecl, BoardItem, LetStmt, SetStmt, AugStmt, MoveStmt, DrawStmt, PlaceStmt, CoverStmt, ShuffleStmt, FireStmt, ChooseStmt, SimulChooseStmt, BreakStmt, ContinueStmt, PassStmt, EndStmt, PlayTurnStmt, PlayRoundStmt, LogStmt, CallStmt, IfStmt, MayCond, ForStmt, RepeatStmt, RollStmt, GainStmt, LoseStmt, AddDummyStmt, ActionsStmt, WhereExpr, IfExpr, Quantified, OrExpr, AndExpr, NotExpr, Compare, InExpr, IsExpr, CanPlaceExpr, RangeLit, Arith, Neg, OfExpr, Attr, Index, Call, Lit, Name, ListLit, Comprehension, MapLit, Count)
"""Every construct class, for checks and docs that must cover them all."""

_install_inits(_constructs)
