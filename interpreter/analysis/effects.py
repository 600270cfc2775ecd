"""What rules do to the game: the state a piece of rules reads, what it may change, and whether it
can stop for a decision — one analysis, so that every stage that must know agrees.

The facts about each construct live on its class in the syntax tree (`Node.waits`, `Node.writes`,
`Node.written`); what a *name* reads depends on the ruleset (a zone, a stat, a constant) and what
a *call* reads on the builtin registry (`Builtin.reads`). The users:

- settling (`engine.game.Program.always_reads` / `watcher_reads`, and the direct engine's read
  mask): a state-based rule is re-run only when something in `reads` changed;
- plain functions for state-based rules (`is_sync`, hence `Program.settles_at_once` and the
  direct engine's settling): a body of statements that never wait runs without a generator;
- the direct engine's settle checks: a settle is due after a statement that `changes_state`.
"""
from __future__ import annotations

import dataclasses
from typing import Any, Iterable, Iterator

from ..content.model import Ruleset
from ..language.tree import CARDS, CONSTRUCTS, RULES, EndStmt, Node, Stmt, walk
from ..library import ANYWHERE_BUILTINS, PURE_BUILTINS

__all__ = ["PERIOD", "reads", "can_wait", "changes_state", "writes_of", "is_sync", "SYNC_KINDS", "can_end_with_no_winner"]

# read by rules that depend on whose turn it is: `you`, a per-player zone or stat without `of`,
# functions that default to the active player. A new turn or round notes it as changed.
PERIOD = "(turn)"

# names whose value is the turn's bookkeeping itself: a rule reading them may read anything
_TURN_COUNTERS = frozenset({"turn_number", "round_number", "start_player", "active_player"})


def reads(nodes: Iterable[Node], rs: Ruleset) -> frozenset[str] | None:
    """Zone and stat names a piece of rules mentions, seeing through constants and rule
    functions; PERIOD when it depends on whose turn it is; None when it may read anything.
    Where a statement writes (`Node.written`: a move's or draw's destination) is not read."""
    out: set[str] = set()
    stack = list(nodes)
    through: set[str] = set()  # constants and functions already looked into
    while stack:
        n = stack.pop()
        if n.written and _skip_written(n, stack):
            continue
        if n.kind == "name":
            if n.id in rs.zones or n.id in rs.stats:
                out.add(n.id)
                if (rs.zones[n.id] if n.id in rs.zones else rs.stats[n.id]).per_player:
                    out.add(PERIOD)  # `trove` alone is the active player's
            elif n.id in ("you", "this"):
                out.add(PERIOD)
            elif n.id in rs.constants and n.id not in through:  # `constant pile = deck` reads deck
                through.add(n.id)
                stack.append(rs.constants[n.id].value)
            elif n.id in _TURN_COUNTERS:
                return None
        elif n.kind in ("of", "attr") and (n.name in rs.zones or n.name in rs.stats):
            out.add(n.name)
        elif n.kind == "call" and n.func in rs.functions and n.func not in rs.procedures:
            if "()" + n.func not in through:  # a function reads what its expression reads
                through.add("()" + n.func)
                stack.append(rs.functions[n.func].expr)
        elif n.kind == "call" and (n.func in ANYWHERE_BUILTINS or n.func in rs.procedures):
            return None
        elif n.kind == "call" and n.func not in rs.functions and n.func not in PURE_BUILTINS:
            out.add(PERIOD)  # e.g. other_players() is counted from the active player
        stack += list(n.children())
    return frozenset(out)


def _skip_written(n: Node, stack: list[Node]) -> bool:
    """Push what a writing statement reads, its destinations aside (a zone named there is
    written, not read; the owner in `Z of p` is still read). False when a destination is not
    a plain zone name (then the whole statement is read as usual)."""
    dests = [getattr(n, f) for f in n.written]
    if any(d.kind not in ("name", "of") for d in dests):
        return False
    stack += [c for c in n.children() if all(c is not d for d in dests)]
    stack += [d.owner for d in dests if d.kind == "of"]
    return True


def can_wait(stmts: Iterable[Node]) -> bool:
    """Whether running these statements may stop for a decision, or start rules that may (a
    `fire`, a procedure call, a turn): what needs the resumable task stack."""
    return any(n.waits for s in stmts for n in walk(s))


def writes_of(stmts: Iterable[Node]) -> frozenset[str]:
    """Everything these statements, and the statements inside them, may change (`Node.writes`)."""
    return frozenset(w for s in stmts for n in walk(s) for w in n.writes)


def changes_state(n: Node) -> bool:
    """Whether one statement itself (its body aside) may move cards or run other rules: after it,
    state-based rules may need a settle. Stats are left to the statement that sets them, which
    knows whether its target is a stat or a variable."""
    return bool(n.writes & {CARDS, RULES})


# statements that never wait (their construct's `waits` is false), but for the blocks `is_sync`
# looks into itself
SYNC_KINDS = frozenset(c.kind for c in CONSTRUCTS if issubclass(c, Stmt) and not c.waits) - {"for", "if", "repeat"}


def is_sync(stmts: list[Node]) -> bool:
    """Whether every statement of a body runs at once, never stopping for a decision (nested plain
    `if`s and `for`s included; a `repeat` is taken as one that may stop)."""
    return all(_sync_stmt(s) for s in stmts)


def _sync_stmt(n: Node) -> bool:
    if n.kind in SYNC_KINDS:
        return True
    if n.kind == "for":
        return is_sync(n.body)
    if n.kind == "if":  # a `may` condition waits for its answer
        return not can_wait(c for c, _ in n.branches) and \
            all(is_sync(b) for _, b in n.branches) and is_sync(n.orelse or [])
    return False


def can_end_with_no_winner(rs: Ruleset) -> bool:
    """Whether some rule or card of `rs` says `end game ... with no winner` (every player loses):
    the search agents then score a seat still in the game above that loss (play/agents.py)."""
    return any(isinstance(n, EndStmt) and n.no_winner for root in _trees(rs) for n in walk(root))


def _trees(rs: Ruleset) -> Iterator[Node]:
    """Every syntax tree the ruleset holds: its declarations (kept in lists and dicts by kind) and
    its cards' effects."""
    for f in dataclasses.fields(rs):
        value: Any = getattr(rs, f.name)
        items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else [value]
        for item in items:
            for x in item if isinstance(item, list) else [item]:
                if isinstance(x, Node):
                    yield x
                elif getattr(x, "effect", None) is not None and isinstance(x.effect, Node):
                    yield x.effect
