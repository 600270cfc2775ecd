"""Which `always` rules are one loop over the players that reads only each player's own zones
and stats (and whose turn it is), so that settling re-runs the loop only for the players whose
zones or stats changed.

An `always` rule whose whole body is `for each p in players:` is re-run when a zone or stat it
reads changed. When the loop body provably depends on `p`'s own zones and stats only, the run can
be limited to the players whose instances of those zones and stats changed (the generated code
notes changes per player instance, `hand#2`, `coins#2`): for every other player the body would
find what it found the last time it ran, and that run changed nothing (or its changes would have
been noted and the body re-run), so running it again changes nothing either. The body qualifies
when (checked by `player_plan`, otherwise the whole rule runs as written):

- it reads the state only as `Z of p` for per-player zones `Z` and `S of p` for player stats `S`
  (no shared zones or stats, no constants, no other player's zones, no randomness), and the
  turn variable `you` (no other turn variable: `this`, `active_player`, the turn's counters);
- its calls are pure builtins (`library.PURE_BUILTINS`) and rule functions whose expression
  passes the same test once the parameters given `p` stand for `p` (looked into up to
  `_DEPTH` calls deep; a parameter given anything else is a plain value there);
- it never rebinds `p`, and its statements are `let`, `if`, `for each`, `move ... to Z of p` or
  to a shared zone (which it never reads), `set S of p to ...` and `S of p += ...` / `-=` for a
  player stat `S`, and `set` / `+=` of its own local variables; so one player's body neither
  reads nor writes another player's zones or stats, and every card it handles comes from the
  zones it reads (an untouched, empty zone does nothing).

A stat the body writes counts as read (the whole rule is re-run when it changes, `effects.reads`,
and may set it back). A body that reads `you` depends on whose turn it is as well. The active
player changes only where a turn begins (engine/directgame.py `Runtime.set_active`, followed by
the new turn's settling), and there the seats whose turn ended and began are noted as changed
(the bits `(turn)#k`). A body that reads `you` only as `p == you` or `p != you` (its player
compared with the active one) reads just whether it is its player's turn: its plan holds
`SEAT_TURN`, and a new turn runs it for those two seats. A body that reads `you` any other way
holds the pseudo-read `effects.PERIOD`, which a new turn or round notes as changed and which
stands in every seat's bits, so that pass runs the loop for every player (`plan_seat_bits`).

The loop then runs over the selected seats, in seat order, as the same compiled statements: the
same moves and stat changes in the same order as the full run, minus the runs that change nothing
(engine/direct.py `plan_function`).
"""
from __future__ import annotations

from ..content.model import Ruleset
from ..language.tree import Node, walk
from ..library import PURE_BUILTINS
from ..library.names import SPECIAL_NAMES
from .effects import PERIOD

__all__ = ["player_plan", "SEAT_TURN"]

_EXPR_KINDS = frozenset({"lit", "list", "range", "name", "of", "attr", "index", "call", "arith", "neg",
                         "compare", "in", "not", "and", "or", "if_expr", "where", "quantified",
                         "comprehension", "is"})
_STMT_KINDS = frozenset({"let", "if", "for", "move", "pass", "set", "aug"})
_CONSTANT_NAMES = frozenset({"true", "false", "none", "it"})
_TURN_NAMES = frozenset({"you"})  # whose turn it is: noted as changed by a new turn or round (PERIOD)
_DEPTH = 8  # rule functions looked into through at most this many nested calls
# read by a body that compares its player with `you` and reads `you` no other way: whether it is
# that player's turn, which changes for two seats only (the turn's old and new player)
SEAT_TURN = PERIOD + "#"


def player_plan(body: list[Node], rs: "Ruleset") -> tuple[str, ...] | None:
    """The per-player zones and stats an `always` body's loop over the players reads (and
    PERIOD when it reads whose turn it is), when the loop may be run only for the players whose
    zones or stats changed; None when it must run for all."""
    if len(body) != 1 or body[0].kind != "for" or body[0].iter.kind != "name" or body[0].iter.id != "players":
        return None
    loop = body[0]
    zones = _loop_reads(loop.name, loop.body, rs)
    if zones is None:
        return None
    if PERIOD in zones:
        zones.discard(SEAT_TURN)  # (every seat runs on a new turn anyway)
    return tuple(sorted(zones)) if zones - {PERIOD, SEAT_TURN} else None


def _loop_reads(p: str, stmts: list[Node], rs: "Ruleset") -> set[str] | None:
    """The per-player zones and stats (`X of p`) the loop body reads or writes, and PERIOD when it
    reads `you`; None when it does anything else."""
    zones: set[str] = set()
    exprs: list[Node] = []
    todo = list(stmts)
    while todo:
        s = todo.pop()
        if s.kind not in _STMT_KINDS:
            return None
        if s.kind == "let":
            if s.name == p:
                return None
            exprs.append(s.expr)
        elif s.kind == "if":
            for cond, block in s.branches:
                exprs.append(cond)
                todo += block
            todo += s.orelse or []
        elif s.kind == "for":
            if s.name == p:
                return None
            exprs.append(s.iter)
            todo += s.body
        elif s.kind == "move":
            if s.name == p or not _own_or_unread_dest(s.dest, p, rs):
                return None
            exprs.append(s.what)
        elif s.kind in ("set", "aug"):
            stat = _own_stat_or_local(s.target, p, rs)
            if stat is None:
                return None
            if stat:
                zones.add(stat)  # written: read as well (the whole rule would set it back)
            exprs.append(s.expr)
    if not _expr_reads(exprs, frozenset({p}), rs, zones, 0):
        return None
    return zones


def _expr_reads(exprs: list[Node], own: frozenset[str], rs: "Ruleset", zones: set[str], depth: int) -> bool:
    """Add to `zones` what `exprs` read of the player whose names are `own` (SEAT_TURN for `you`
    in `p == you` / `p != you`, PERIOD for any other `you`); False when they read anything else.
    A rule function's expression is looked into with its parameters given one of `own` standing
    for that player."""
    seat_tests: set[int] = set()  # the `you` of `p == you`: only whether it is `p` is read
    for n in (m for x in exprs for m in walk(x)):  # (a node before its children)
        if n.kind not in _EXPR_KINDS:
            return False
        if n.kind == "compare" and n.op in ("==", "!="):
            sides = (n.left, n.right)
            if all(x.kind == "name" for x in sides) and {x.id in own for x in sides} == {True, False}:
                seat_tests.update(id(x) for x in sides if x.id in _TURN_NAMES)
        if n.kind == "name":
            if n.id in rs.zones or n.id in rs.stats or n.id in rs.constants:
                return False
            if n.id in _TURN_NAMES:
                zones.add(SEAT_TURN if id(n) in seat_tests else PERIOD)
            elif n.id in SPECIAL_NAMES and n.id not in _CONSTANT_NAMES:
                return False
        elif n.kind == "of":
            if n.name in rs.stats:  # a player stat of `p`: its changes are noted per player too
                if not rs.stats[n.name].per_player or n.owner.kind != "name" or n.owner.id not in own:
                    return False
                zones.add(n.name)
            elif n.name in rs.zones:
                if not rs.zones[n.name].per_player or n.owner.kind != "name" or n.owner.id not in own:
                    return False
                zones.add(n.name)
        elif n.kind == "attr" and (n.name in rs.zones or n.name in rs.stats):
            return False
        elif n.kind == "call" and n.func in rs.functions and n.func not in rs.procedures:
            if not _function_reads(n, own, rs, zones, depth):
                return False
        elif n.kind == "call" and n.func not in PURE_BUILTINS:
            return False
        elif n.kind == "is" and n.what in ("dummy", "covered"):
            return False
        elif n.kind in ("comprehension", "quantified", "where") and own & set(_binders(n)):
            return False
    return True


def _function_reads(call: Node, own: frozenset[str], rs: "Ruleset", zones: set[str], depth: int) -> bool:
    """A call of a rule function: its expression read with the parameters given a name of the
    player (`f(p)`) standing for that player (the arguments are read where they are)."""
    fn = rs.functions[call.func]
    if depth >= _DEPTH or len(call.args) != len(fn.params):
        return False
    mine = frozenset(q for q, a in zip(fn.params, call.args) if a.kind == "name" and a.id in own)
    if any(q in rs.zones or q in rs.stats or q in rs.constants or q in SPECIAL_NAMES for q in fn.params):
        return False  # a parameter hiding a rule name: not worth the doubt
    return _expr_reads([fn.expr], mine, rs, zones, depth + 1)


def _binders(n: Node) -> tuple[str, ...]:
    """Names a comprehension or quantifier binds (a binder named like the loop variable hides it)."""
    names = getattr(n, "names", None) or ()
    one = getattr(n, "name", None)
    return tuple(names) + ((one,) if isinstance(one, str) else ())


def _own_stat_or_local(target: Node, p: str, rs: "Ruleset") -> str | None:
    """A `set` or `+=` target: a player stat of `p` (its name), a local variable (""), or None."""
    if target.kind == "of":
        if target.name in rs.stats and rs.stats[target.name].per_player and target.owner.kind == "name" \
                and target.owner.id == p:
            return target.name
        return None
    if target.kind == "name" and target.id != p and target.id not in rs.zones and target.id not in rs.stats \
            and target.id not in rs.constants and target.id not in SPECIAL_NAMES and target.id not in rs.functions:
        return ""
    return None


def _own_or_unread_dest(dest: Node, p: str, rs: "Ruleset") -> bool:
    """A move's destination: a zone of `p`, or a shared zone (which the body may not read)."""
    if dest.kind == "of":
        return dest.name in rs.zones and rs.zones[dest.name].per_player and dest.owner.kind == "name" \
            and dest.owner.id == p
    return dest.kind == "name" and dest.id in rs.zones and not rs.zones[dest.id].per_player
