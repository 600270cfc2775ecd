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
from ..language.tree import CARDS, CONSTRUCTS, DICE, RULES, SEATS, STATS, TURN, EndStmt, Node, Stmt, walk
from ..library import ANYWHERE_BUILTINS, PURE_BUILTINS

__all__ = ["PERIOD", "reads", "can_wait", "changes_state", "writes_of", "is_sync", "SYNC_KINDS", "can_end_with_no_winner",
           "answers_in_one_pass"]

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


# ---- an event fired on each card of a list, in one pass --------------------------------------
# `roll` fires `rolled` on each die in turn: a die's answering triggers are found (their
# conditions tested) after the earlier dice's have run. Finding them for every die first (one
# call for the roll, engine/directgame.py `fired_all`) gives the same answers when nothing those
# triggers may change (their bodies, the procedures and triggers these start, and the settling
# after a change: `always` rules and watchers) is read in deciding which triggers answer: the
# conditions, and for a card's `whenever` where that card lies.

_PLAIN_OPS = frozenset({"and", "or", "not", "compare", "arith", "neg", "lit", "if_expr"})
_EVERYTHING = frozenset({CARDS, STATS, TURN, DICE, SEATS})


def answers_in_one_pass(rs: Ruleset, event: str) -> bool:
    """Whether the triggers answering `event` on each card of a list may be found for all the
    cards before any of them runs, with the same answers as finding each card's just before it
    runs (see above). False whenever unsure: a condition reading what this does not follow, a
    trigger that may start a turn or any rule, copying cards."""
    triggers = [t for t in _all_triggers(rs) if t.event == event]
    if not triggers:
        return True
    if any(c.effect is not None and getattr(c.effect, "copies", None) for c in rs.cards):
        return False  # a copying card answers with what it copies: where it lies decides
    read: set[str] = {DICE, CARDS}  # a die's face, which a covered die does not show
    if any(t.whenever for t in triggers):
        read |= {CARDS, SEATS}  # a `whenever` card answers while in play, for its zone's owner
    for t in triggers:
        if t.cond is not None:
            got = _condition_reads(t.cond, rs, {t.binder, "you", "this"})
            if got is None:
                return False
            read |= got
    written = _writes_closure([s for t in triggers for s in t.body], rs)
    return written is not None and not (written & read)


def _all_triggers(rs: Ruleset) -> list[Node]:
    """Every `when`/`whenever` trigger of the rules and of the cards' effects."""
    out = list(rs.triggers)
    for c in rs.cards:
        if c.effect is not None:
            out += [n for n in walk(c.effect) if n.kind == "trigger"]
    return out


def _condition_reads(cond: Node, rs: Ruleset, bound: set) -> set[str] | None:
    """What a trigger's condition reads (CARDS, STATS, TURN, DICE, SEATS), seeing through
    constants and rule functions; None for anything else (a builtin, a list, a filter, a name
    this does not know): the caller then keeps the order of one card after another."""
    out: set[str] = set()
    fields = {f for c in rs.cards for f in c.fields}
    values = {v for v in rs.enum_values()} | set(rs.card_types) | set(rs.die_types)
    stack, through = [cond], set()
    while stack:
        n = stack.pop()
        k = n.kind
        if k == "name":
            i = n.id
            if i in bound:
                continue
            if i in rs.constants:
                if i not in through:
                    through.add(i)
                    stack.append(rs.constants[i].value)
                continue
            if i in rs.stats or i in rs.zones:
                per_player = (rs.stats[i] if i in rs.stats else rs.zones[i]).per_player
                out |= {STATS if i in rs.stats else CARDS} | ({TURN} if per_player else set())
            elif i in _TURN_COUNTERS:  # set by a new turn or round (`start_player`: also by `set`)
                out |= {TURN, STATS} if i == "start_player" else {TURN}
            elif i not in values:
                return None
            continue
        if k == "attr":
            if n.name == "face":
                out |= {DICE, CARDS}
            elif n.name in rs.stats or n.name in rs.zones or n.name not in fields:
                return None
        elif k == "of":
            if n.name in rs.stats:
                out.add(STATS)
            elif n.name in rs.zones:
                out.add(CARDS)
            else:
                return None
        elif k == "call":
            f = rs.functions.get(n.func)
            if f is None or n.func in rs.procedures:
                return None
            if n.func not in through:
                through.add(n.func)
                bound = bound | set(f.params)
                stack.append(f.expr)
        elif k not in _PLAIN_OPS:
            return None
        stack += list(n.children())
    return out


def _writes_closure(body: list[Node], rs: Ruleset) -> set[str] | None:
    """What running `body` may change (CARDS, STATS, ...), with the procedures it calls, the
    `when short of` rules its losses start, every trigger where it fires any other event, and
    the `always` rules and watchers that settle after a change; None where it may start a turn
    or actions (then anything)."""
    out: set[str] = set()
    todo = list(body) + [s for a in rs.always for s in a.body] + [s for w in rs.watchers for s in w.body]
    seen: set[int] = set()
    every = False
    while todo:
        s = todo.pop()
        for n in walk(s):
            if n.kind in ("play_turn", "play_round", "actions"):
                return None
            w = n.writes
            out |= w - {RULES}
            if n.kind == "call_stmt" and not (n.expr.kind == "call" and n.expr.func in rs.procedures):
                return None  # (the checker allows only procedures here: not one this knows)
            if n.kind == "call" and n.func in rs.procedures:
                if id(rs.procedures[n.func]) not in seen:
                    seen.add(id(rs.procedures[n.func]))
                    todo += rs.procedures[n.func].body
            elif RULES in w and n.kind in ("gain", "lose"):
                for t in rs.short_triggers.get(n.stat, []):
                    if id(t) not in seen:
                        seen.add(id(t))
                        todo += t.body
            elif RULES in w and n.kind != "call_stmt" and not every:
                every = True  # another event fired: any trigger may answer
                todo += [x for t in _all_triggers(rs) for x in t.body]
    return out
