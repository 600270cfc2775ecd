"""Which `always` rules are one loop over the players that reads only each player's own zones
and stats, so that settling re-runs the loop only for the players whose zones changed.

An `always` rule whose whole body is `for each p in players:` is re-run when a zone it reads
changed. When the loop body provably depends on `p`'s own zones only, the run can be limited to
the players whose instances of those zones changed (the generated code notes changes per player
instance): for every other player the body would find the same cards it found the last time it
ran, and that run changed nothing (or its changes would have been noted and the body re-run), so
running it again changes nothing either. The body qualifies when (checked by `player_plan`,
otherwise the whole rule runs as written):

- it reads the state only as `Z of p` for per-player zones `Z` and `S of p` for player stats `S`
  (no shared zones or stats, no constants, no turn or player variables, no rule functions, no
  randomness);
- its calls are pure builtins (`library.PURE_BUILTINS`), and it never rebinds `p`;
- its statements are `let`, `if`, `for each` and `move ... to Z of p` or to a shared zone (which
  it never reads), so one player's body neither reads nor writes another player's zones, and
  every card it handles comes from the zones it reads (an untouched, empty zone set does nothing).

The loop then runs over the selected seats, in seat order, as the same compiled statements: the
same moves in the same order as the full run, minus the runs that change nothing
(engine/direct.py `plan_function`).
"""
from __future__ import annotations

from ..content.model import Ruleset
from ..language.tree import Node, walk
from ..library import PURE_BUILTINS
from ..library.names import SPECIAL_NAMES

__all__ = ["player_plan"]

_EXPR_KINDS = frozenset({"lit", "list", "range", "name", "of", "attr", "index", "call", "arith", "neg",
                         "compare", "in", "not", "and", "or", "if_expr", "where", "quantified",
                         "comprehension", "is"})
_STMT_KINDS = frozenset({"let", "if", "for", "move", "pass"})
_CONSTANT_NAMES = frozenset({"true", "false", "none", "it"})


def player_plan(body: list[Node], rs: "Ruleset") -> tuple[str, ...] | None:
    """The per-player zones and stats an `always` body's loop over the players reads, when the
    loop may be run for the players whose zones changed only; None when it must run for all."""
    if len(body) != 1 or body[0].kind != "for" or body[0].iter.kind != "name" or body[0].iter.id != "players":
        return None
    loop = body[0]
    zones = _loop_reads(loop.name, loop.body, rs)
    return tuple(sorted(zones)) if zones else None


def _loop_reads(p: str, stmts: list[Node], rs: "Ruleset") -> set[str] | None:
    """The per-player zones and stats (`X of p`) the loop body reads; None when it does anything else."""
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
    for n in (m for x in exprs for m in walk(x)):
        if n.kind not in _EXPR_KINDS:
            return None
        if n.kind == "name":
            if n.id in rs.zones or n.id in rs.stats or n.id in rs.constants:
                return None
            if n.id in SPECIAL_NAMES and n.id not in _CONSTANT_NAMES:
                return None
        elif n.kind == "of":
            if n.name in rs.stats:  # a player stat of `p`: its changes are noted per player too
                if not rs.stats[n.name].per_player or n.owner.kind != "name" or n.owner.id != p:
                    return None
                zones.add(n.name)
            elif n.name in rs.zones:
                if not rs.zones[n.name].per_player or n.owner.kind != "name" or n.owner.id != p:
                    return None
                zones.add(n.name)
        elif n.kind == "attr" and (n.name in rs.zones or n.name in rs.stats):
            return None
        elif n.kind == "call" and (n.func not in PURE_BUILTINS or n.func in rs.functions):
            return None
        elif n.kind == "is" and n.what in ("dummy", "covered"):
            return None
        elif n.kind in ("comprehension", "quantified", "where") and p in _binders(n):
            return None
    return zones


def _binders(n: Node) -> tuple[str, ...]:
    """Names a comprehension or quantifier binds (a binder named like the loop variable hides it)."""
    names = getattr(n, "names", None) or ()
    one = getattr(n, "name", None)
    return tuple(names) + ((one,) if isinstance(one, str) else ())


def _own_or_unread_dest(dest: Node, p: str, rs: "Ruleset") -> bool:
    """A move's destination: a zone of `p`, or a shared zone (which the body may not read)."""
    if dest.kind == "of":
        return dest.name in rs.zones and rs.zones[dest.name].per_player and dest.owner.kind == "name" \
            and dest.owner.id == p
    return dest.kind == "name" and dest.id in rs.zones and not rs.zones[dest.id].per_player
