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

from dataclasses import dataclass, fields
from typing import Any, ClassVar, Iterator

from .diagnostics import Loc

__all__ = ["Node", "Decl", "Ability", "walk", "CONSTRUCTS", "Module", "Effect", "GameDecl", "GameItem", "CardType", "FieldDecl", "RangeType", "BasicType", "EnumType", "DieType", "ZoneDecl", "ZoneProp", "StatDecl", "ConstDecl", "EventDecl", "PhaseDecl", "ProcDecl", "FunctionDecl", "Trigger", "ShortTrigger", "ActionDecl", "Watcher", "AlwaysDecl", "PlacementDecl", "ScoreDecl", "TiebreakDecl", "HookDecl", "BoardDecl", "BoardItem", "LetStmt", "SetStmt", "AugStmt", "MoveStmt", "DrawStmt", "PlaceStmt", "CoverStmt", "ShuffleStmt", "FireStmt", "ChooseStmt", "SimulChooseStmt", "BreakStmt", "ContinueStmt", "PassStmt", "EndStmt", "PlayTurnStmt", "PlayRoundStmt", "LogStmt", "CallStmt", "IfStmt", "MayCond", "ForStmt", "RepeatStmt", "RollStmt", "GainStmt", "LoseStmt", "AddDummyStmt", "ActionsStmt", "WhereExpr", "IfExpr", "Quantified", "OrExpr", "AndExpr", "NotExpr", "Compare", "InExpr", "IsExpr", "CanPlaceExpr", "RangeLit", "Arith", "Neg", "OfExpr", "Attr", "Index", "Call", "Lit", "Name", "ListLit", "Comprehension", "MapLit", "Count"]

_node = dataclass(eq=False, repr=False, kw_only=True, slots=True)


@_node
class Node:
    """A construct of the language, where it was written (`loc`)."""

    kind: ClassVar[str] = ""
    grammar: ClassVar[tuple[str, ...]] = ()  # the grammar rules that build it
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

    def children(self) -> Iterator["Node"]:
        for f in _field_names(type(self)):
            yield from _nodes_in(getattr(self, f))


@_node
class Decl(Node):
    """A top-level declaration; `replace` marks it as a mod's replacement of the base's."""

    replace: bool = False


@_node
class Stmt(Node):
    """A statement: a line (or block) of a body that does something."""


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
        stack.extend(reversed(list(n.children())))


# ---- module --------------------------------------------------------------------------------------


@_node
class Module(Node):
    """A whole `.rules` file: its declarations, what did not parse, and which ruleset of an `extends` chain it belongs to."""

    kind: ClassVar[str] = "module"
    grammar: ClassVar[tuple[str, ...]] = ('start',)

    decls: list[Node]
    unparsed: list
    layer: str = ""

@_node
class Effect(Node):
    """A card's `effect:` text: the triggers and actions the card brings."""

    kind: ClassVar[str] = "effect"
    grammar: ClassVar[tuple[str, ...]] = ('effect',)

    triggers: list[Node]
    unparsed: list


# ---- declarations --------------------------------------------------------------------------------


@_node
class GameDecl(Decl):
    """`game "Title":` with its settings (players, ...)."""

    kind: ClassVar[str] = "game"
    grammar: ClassVar[tuple[str, ...]] = ('game_decl',)

    title: str
    items: list[Node]

@_node
class GameItem(Node):
    """One setting of the game header: `players 2..6`."""

    kind: ClassVar[str] = "game_item"
    grammar: ClassVar[tuple[str, ...]] = ('game_item',)

    name: str
    value: Node
    name_loc: Loc | None

@_node
class CardType(Decl):
    """`card type Name:` and its fields."""

    kind: ClassVar[str] = "card_type"
    grammar: ClassVar[tuple[str, ...]] = ('card_type',)

    name: str
    fields_: list[Node]
    name_loc: Loc | None

@_node
class FieldDecl(Node):
    """A card type's field: `number: 1..5`, optionally `= default`."""

    kind: ClassVar[str] = "field"
    grammar: ClassVar[tuple[str, ...]] = ('field_decl',)

    name: str
    type: Node
    default: Node | None
    name_loc: Loc | None

@_node
class RangeType(Node):
    """A field type `lo..hi` (whole numbers)."""

    kind: ClassVar[str] = "range_type"
    grammar: ClassVar[tuple[str, ...]] = ('range_type',)

    lo: int
    hi: int

@_node
class BasicType(Node):
    """A field type `number`, `text` or `flag`."""

    kind: ClassVar[str] = "basic_type"
    grammar: ClassVar[tuple[str, ...]] = ('enum_type',)

    name: str

@_node
class EnumType(Node):
    """A field type listing its values: `Red | Green | Blue`."""

    kind: ClassVar[str] = "enum_type"
    grammar: ClassVar[tuple[str, ...]] = ('enum_type',)

    values: list[str]

@_node
class DieType(Decl):
    """`die type Name: faces[, N dice]`."""

    kind: ClassVar[str] = "die_type"
    grammar: ClassVar[tuple[str, ...]] = ('die_type',)

    name: str
    faces: Node
    count: int

@_node
class ZoneDecl(Decl):
    """`zone name: pile, shared, hidden`."""

    kind: ClassVar[str] = "zone"
    grammar: ClassVar[tuple[str, ...]] = ('zone_decl',)

    name: str
    props: list[Node]
    name_loc: Loc | None

@_node
class ZoneProp(Node):
    """One property of a zone: words and a number (`rows 3`), or `grid W x H`."""

    kind: ClassVar[str] = "zone_prop"
    grammar: ClassVar[tuple[str, ...]] = ('zone_prop', 'grid_prop',)

    words: str
    number: int | None
    width: int | None = None
    height: int | None = None

@_node
class StatDecl(Decl):
    """`[player] stat name[: lo..hi] [= init]`."""

    kind: ClassVar[str] = "stat"
    grammar: ClassVar[tuple[str, ...]] = ('stat_decl',)

    name: str
    per_player: bool
    lo: int | None
    hi: int | None
    init: Node | None
    name_loc: Loc | None

@_node
class ConstDecl(Decl):
    """`constant NAME = expr`."""

    kind: ClassVar[str] = "constant"
    grammar: ClassVar[tuple[str, ...]] = ('const_decl',)

    name: str
    value: Node
    name_loc: Loc | None

@_node
class EventDecl(Decl):
    """`event name`."""

    kind: ClassVar[str] = "event"
    grammar: ClassVar[tuple[str, ...]] = ('event_decl',)

    name: str
    name_loc: Loc | None

@_node
class PhaseDecl(Decl):
    """`setup:`, `turn:`, `round:` or `play:` with its body."""

    kind: ClassVar[str] = "phase"
    grammar: ClassVar[tuple[str, ...]] = ('phase_decl',)

    name: str
    body: list[Node]

@_node
class ProcDecl(Decl):
    """`procedure name(params):` body."""

    kind: ClassVar[str] = "procedure"
    grammar: ClassVar[tuple[str, ...]] = ('proc_decl',)

    name: str
    params: list[str]
    body: list[Node]
    name_loc: Loc | None = None

@_node
class FunctionDecl(Decl):
    """`function name(params) = expr`: a pure rule function."""

    kind: ClassVar[str] = "function"
    grammar: ClassVar[tuple[str, ...]] = ('function_decl',)

    name: str
    params: list[str]
    expr: Node

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

@_node
class ShortTrigger(Decl):
    """`when short of stat by n:` body: what paying more than you have does."""

    kind: ClassVar[str] = "short_trigger"
    grammar: ClassVar[tuple[str, ...]] = ('short_trigger',)

    stat: str
    binder: str
    body: list[Node]

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

@_node
class Watcher(Decl):
    """`as soon as cond:` body, re-checked after every change."""

    kind: ClassVar[str] = "watcher"
    grammar: ClassVar[tuple[str, ...]] = ('watcher',)

    cond: Node
    body: list[Node]

@_node
class AlwaysDecl(Decl):
    """`always:` body, a state-based rule re-run after every change."""

    kind: ClassVar[str] = "always"
    grammar: ClassVar[tuple[str, ...]] = ('always_decl',)

    body: list[Node]

@_node
class PlacementDecl(Decl):
    """`placement in zone as c:` the conditions a card must meet to be placed."""

    kind: ClassVar[str] = "placement"
    grammar: ClassVar[tuple[str, ...]] = ('placement_decl',)

    zone: str
    binder: str
    conds: list[Node]
    zone_loc: Loc | None

@_node
class ScoreDecl(Decl):
    """`score p: expr`."""

    kind: ClassVar[str] = "score"
    grammar: ClassVar[tuple[str, ...]] = ('score_decl',)

    binder: str
    expr: Node

@_node
class TiebreakDecl(Decl):
    """`tiebreak p: expr`."""

    kind: ClassVar[str] = "tiebreak"
    grammar: ClassVar[tuple[str, ...]] = ('tiebreak_decl',)

    binder: str
    expr: Node

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

@_node
class BoardDecl(Decl):
    """`board name:` its rings, paths and links."""

    kind: ClassVar[str] = "board"
    grammar: ClassVar[tuple[str, ...]] = ('board_decl',)

    name: str
    items: list[Node]
    name_loc: Loc | None

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


# ---- statements ----------------------------------------------------------------------------------


@_node
class LetStmt(Stmt):
    """`let name = expr`."""

    kind: ClassVar[str] = "let"
    grammar: ClassVar[tuple[str, ...]] = ('let_stmt',)

    name: str
    expr: Node
    name_loc: Loc | None

@_node
class SetStmt(Stmt):
    """`set target to expr`."""

    kind: ClassVar[str] = "set"
    grammar: ClassVar[tuple[str, ...]] = ('set_stmt',)

    target: Node
    expr: Node

@_node
class AugStmt(Stmt):
    """`target += expr` / `-=`."""

    kind: ClassVar[str] = "aug"
    grammar: ClassVar[tuple[str, ...]] = ('aug_stmt',)

    target: Node
    op: str
    expr: Node

@_node
class MoveStmt(Stmt):
    """`move cards to dest [on top|at bottom] [as name]`."""

    kind: ClassVar[str] = "move"
    grammar: ClassVar[tuple[str, ...]] = ('move_stmt',)

    what: Node
    dest: Node
    position: str | None
    name: str | None
    name_loc: Loc | None

@_node
class DrawStmt(Stmt):
    """`draw [n] from source to dest [as name]`."""

    kind: ClassVar[str] = "draw"
    grammar: ClassVar[tuple[str, ...]] = ('draw_stmt',)

    count: Node | None
    source: Node
    dest: Node
    name: str | None
    name_loc: Loc | None

@_node
class PlaceStmt(Stmt):
    """`place card in zone` (where its placement rules allow)."""

    kind: ClassVar[str] = "place"
    grammar: ClassVar[tuple[str, ...]] = ('place_stmt',)

    what: Node
    zone: Node

@_node
class CoverStmt(Stmt):
    """`place card on other`: covers the card below."""

    kind: ClassVar[str] = "cover"
    grammar: ClassVar[tuple[str, ...]] = ('cover_stmt',)

    what: Node
    target: Node

@_node
class ShuffleStmt(Stmt):
    """`shuffle zone`."""

    kind: ClassVar[str] = "shuffle"
    grammar: ClassVar[tuple[str, ...]] = ('shuffle_stmt',)

    zone: Node

@_node
class FireStmt(Stmt):
    """`fire event [on subject] [by actor]`."""

    kind: ClassVar[str] = "fire"
    grammar: ClassVar[tuple[str, ...]] = ('fire_stmt',)

    event: str
    subject: Node | None
    actor: Node | None
    event_loc: Loc | None

@_node
class ChooseStmt(Stmt):
    """`player chooses [count] name from options ["prompt"]`."""

    kind: ClassVar[str] = "choose"
    grammar: ClassVar[tuple[str, ...]] = ('choose_stmt',)

    player: Node
    count: Node | None
    name: str
    options: Node
    prompt: str | None
    name_loc: Loc | None

@_node
class SimulChooseStmt(Stmt):
    """`simultaneously each p in players choose ...`: secret choices resolved together."""

    kind: ClassVar[str] = "simul_choose"
    grammar: ClassVar[tuple[str, ...]] = ('simul_choose_stmt',)

    var: str
    players: Node
    count: Node | None
    name: str
    options: Node
    prompt: str | None
    var_loc: Loc | None
    name_loc: Loc | None

@_node
class BreakStmt(Stmt):
    """`break`."""

    kind: ClassVar[str] = "break"
    grammar: ClassVar[tuple[str, ...]] = ('break_stmt',)

@_node
class ContinueStmt(Stmt):
    """`continue`."""

    kind: ClassVar[str] = "continue"
    grammar: ClassVar[tuple[str, ...]] = ('continue_stmt',)

@_node
class PassStmt(Stmt):
    """`pass`."""

    kind: ClassVar[str] = "pass"
    grammar: ClassVar[tuple[str, ...]] = ('pass_stmt',)

@_node
class EndStmt(Stmt):
    """`end game [after this turn|round] ["reason"]`."""

    kind: ClassVar[str] = "end_game"
    grammar: ClassVar[tuple[str, ...]] = ('end_stmt',)

    after: str | None
    reason: Node | None

@_node
class PlayTurnStmt(Stmt):
    """`play turn of player` (in a `play:` or `round:` phase)."""

    kind: ClassVar[str] = "play_turn"
    grammar: ClassVar[tuple[str, ...]] = ('play_turn_stmt',)

    player: Node

@_node
class PlayRoundStmt(Stmt):
    """`play round`."""

    kind: ClassVar[str] = "play_round"
    grammar: ClassVar[tuple[str, ...]] = ('play_round_stmt',)

@_node
class LogStmt(Stmt):
    """`log expr`: a line of the game's log."""

    kind: ClassVar[str] = "log"
    grammar: ClassVar[tuple[str, ...]] = ('log_stmt',)

    expr: Node

@_node
class CallStmt(Stmt):
    """An expression on a line of its own: a procedure call."""

    kind: ClassVar[str] = "call_stmt"
    grammar: ClassVar[tuple[str, ...]] = ('call_stmt',)

    expr: Node

@_node
class IfStmt(Stmt):
    """`if cond:` body, `elif` branches, `else:`."""

    kind: ClassVar[str] = "if"
    grammar: ClassVar[tuple[str, ...]] = ('if_stmt',)

    branches: list[tuple[Node, list[Node]]]
    orelse: list[Node] | None

@_node
class MayCond(Node):
    """`player may "prompt"` as a condition: a yes/no decision."""

    kind: ClassVar[str] = "may"
    grammar: ClassVar[tuple[str, ...]] = ('may_cond',)

    player: Node
    prompt: str
    negate: bool

@_node
class ForStmt(Stmt):
    """`for each name in items:` body."""

    kind: ClassVar[str] = "for"
    grammar: ClassVar[tuple[str, ...]] = ('for_stmt',)

    name: str
    iter: Node
    body: list[Node]
    name_loc: Loc | None

@_node
class RepeatStmt(Stmt):
    """`repeat:`, `repeat n times:` or `while cond:` body."""

    kind: ClassVar[str] = "repeat"
    grammar: ClassVar[tuple[str, ...]] = ('repeat_forever', 'repeat_times', 'while_loop',)

    times: Node | None
    cond: Node | None
    body: list[Node]

@_node
class RollStmt(Stmt):
    """`roll dice`."""

    kind: ClassVar[str] = "roll"
    grammar: ClassVar[tuple[str, ...]] = ('roll_stmt',)

    dice: Node

@_node
class GainStmt(Stmt):
    """`player gains n stat` (capped by the stat's bounds)."""

    kind: ClassVar[str] = "gain"
    grammar: ClassVar[tuple[str, ...]] = ('gain_stmt',)

    player: Node
    amount: Node
    stat: str
    stat_loc: Loc | None

@_node
class LoseStmt(Stmt):
    """`player loses n stat` (a shortfall runs `when short of`)."""

    kind: ClassVar[str] = "lose"
    grammar: ClassVar[tuple[str, ...]] = ('lose_stmt',)

    player: Node
    amount: Node
    stat: str
    stat_loc: Loc | None

@_node
class AddDummyStmt(Stmt):
    """`add a dummy player [as name]`."""

    kind: ClassVar[str] = "add_dummy"
    grammar: ClassVar[tuple[str, ...]] = ('add_dummy_stmt',)

    name: str | None

@_node
class ActionsStmt(Stmt):
    """`player takes actions [from sources] ["Done"]`."""

    kind: ClassVar[str] = "take_actions"
    grammar: ClassVar[tuple[str, ...]] = ('actions_stmt',)

    player: Node
    sources: Node | None
    done: str


# ---- expressions ---------------------------------------------------------------------------------


@_node
class WhereExpr(Expr):
    """`items where cond`."""

    kind: ClassVar[str] = "where"
    grammar: ClassVar[tuple[str, ...]] = ('where_expr',)

    items: Node
    cond: Node

@_node
class IfExpr(Expr):
    """`a if cond else b`."""

    kind: ClassVar[str] = "if_expr"
    grammar: ClassVar[tuple[str, ...]] = ('if_expr',)

    then: Node
    cond: Node
    orelse: Node

@_node
class Quantified(Expr):
    """`every|some|no a, b in items has cond`."""

    kind: ClassVar[str] = "quantified"
    grammar: ClassVar[tuple[str, ...]] = ('quantified',)

    quantifier: str
    names: list[str]
    iter: Node
    cond: Node

@_node
class OrExpr(Expr):
    """`a or b or ...`."""

    kind: ClassVar[str] = "or"
    grammar: ClassVar[tuple[str, ...]] = ('or_expr',)

    items: list[Node]

@_node
class AndExpr(Expr):
    """`a and b and ...`."""

    kind: ClassVar[str] = "and"
    grammar: ClassVar[tuple[str, ...]] = ('and_expr',)

    items: list[Node]

@_node
class NotExpr(Expr):
    """`not a`."""

    kind: ClassVar[str] = "not"
    grammar: ClassVar[tuple[str, ...]] = ('not_expr',)

    expr: Node

@_node
class Compare(Expr):
    """`a == b`, `!=`, `<`, `<=`, `>`, `>=`."""

    kind: ClassVar[str] = "compare"
    grammar: ClassVar[tuple[str, ...]] = ('compare',)

    op: str
    left: Node
    right: Node

@_node
class InExpr(Expr):
    """`item in collection`."""

    kind: ClassVar[str] = "in"
    grammar: ClassVar[tuple[str, ...]] = ('in_expr',)

    item: Node
    coll: Node

@_node
class IsExpr(Expr):
    """`x is Type` / `x is not Type` (also `is empty`, `is dummy`)."""

    kind: ClassVar[str] = "is"
    grammar: ClassVar[tuple[str, ...]] = ('is_expr', 'is_not_expr',)

    expr: Node
    what: str
    negate: bool
    what_loc: Loc | None

@_node
class CanPlaceExpr(Expr):
    """`card can be placed in zone`."""

    kind: ClassVar[str] = "can_place"
    grammar: ClassVar[tuple[str, ...]] = ('can_place_expr',)

    what: Node
    zone: Node

@_node
class RangeLit(Expr):
    """`lo..hi`."""

    kind: ClassVar[str] = "range"
    grammar: ClassVar[tuple[str, ...]] = ('range_lit',)

    lo: Node
    hi: Node

@_node
class Arith(Expr):
    """`a + b`, `-`, `*`, `/`, `%` (left to right)."""

    kind: ClassVar[str] = "arith"
    grammar: ClassVar[tuple[str, ...]] = ('arith',)

    op: str
    left: Node
    right: Node
    op_loc: Loc | None

@_node
class Neg(Expr):
    """`-a`."""

    kind: ClassVar[str] = "neg"
    grammar: ClassVar[tuple[str, ...]] = ('neg',)

    expr: Node

@_node
class OfExpr(Expr):
    """`name of player` / `your name`: a player's zone or stat."""

    kind: ClassVar[str] = "of"
    grammar: ClassVar[tuple[str, ...]] = ('of_expr', 'your_expr',)

    name: str
    name_loc: Loc | None
    owner: Node

@_node
class Attr(Expr):
    """`x.field`."""

    kind: ClassVar[str] = "attr"
    grammar: ClassVar[tuple[str, ...]] = ('attr',)

    obj: Node
    name: str
    name_loc: Loc | None

@_node
class Index(Expr):
    """`x[key]`."""

    kind: ClassVar[str] = "index"
    grammar: ClassVar[tuple[str, ...]] = ('index',)

    obj: Node
    key: Node

@_node
class Call(Expr):
    """`name(args)`: a builtin, rule function or procedure."""

    kind: ClassVar[str] = "call"
    grammar: ClassVar[tuple[str, ...]] = ('call',)

    func: str
    args: list[Node]
    name_loc: Loc | None

@_node
class Lit(Expr):
    """A number or a text."""

    kind: ClassVar[str] = "lit"
    grammar: ClassVar[tuple[str, ...]] = ('int_lit', 'str_lit',)

    value: Any

@_node
class Name(Expr):
    """A name: a variable, zone, stat, constant, type or value."""

    kind: ClassVar[str] = "name"
    grammar: ClassVar[tuple[str, ...]] = ('name',)

    id: str

@_node
class ListLit(Expr):
    """`[a, b, ...]`."""

    kind: ClassVar[str] = "list"
    grammar: ClassVar[tuple[str, ...]] = ('list_lit',)

    items: list[Node]

@_node
class Comprehension(Expr):
    """`[expr for each name in items]`."""

    kind: ClassVar[str] = "comprehension"
    grammar: ClassVar[tuple[str, ...]] = ('comprehension',)

    expr: Node
    name: str
    iter: Node

@_node
class MapLit(Expr):
    """`{key: value, ...}`."""

    kind: ClassVar[str] = "map"
    grammar: ClassVar[tuple[str, ...]] = ('map_lit',)

    pairs: list[tuple[Node, Node]]

@_node
class Count(Node):
    """How many a choice takes: `any`, `up to n`, `n`."""

    kind: ClassVar[str] = "count"
    grammar: ClassVar[tuple[str, ...]] = ('count_any', 'count_up_to', 'count_exactly',)

    mode: str
    n: Node | None


CONSTRUCTS: tuple[type[Node], ...] = (Module, Effect, GameDecl, GameItem, CardType, FieldDecl, RangeType, BasicType, EnumType, DieType, ZoneDecl, ZoneProp, StatDecl, ConstDecl, EventDecl, PhaseDecl, ProcDecl, FunctionDecl, Trigger, ShortTrigger, ActionDecl, Watcher, AlwaysDecl, PlacementDecl, ScoreDecl, TiebreakDecl, HookDecl, BoardDecl, BoardItem, LetStmt, SetStmt, AugStmt, MoveStmt, DrawStmt, PlaceStmt, CoverStmt, ShuffleStmt, FireStmt, ChooseStmt, SimulChooseStmt, BreakStmt, ContinueStmt, PassStmt, EndStmt, PlayTurnStmt, PlayRoundStmt, LogStmt, CallStmt, IfStmt, MayCond, ForStmt, RepeatStmt, RollStmt, GainStmt, LoseStmt, AddDummyStmt, ActionsStmt, WhereExpr, IfExpr, Quantified, OrExpr, AndExpr, NotExpr, Compare, InExpr, IsExpr, CanPlaceExpr, RangeLit, Arith, Neg, OfExpr, Attr, Index, Call, Lit, Name, ListLit, Comprehension, MapLit, Count)
"""Every construct class, for checks and docs that must cover them all."""
