"""Running `for each` and `if` bodies at once, without tasks, where that changes nothing.

Normally a loop or an `if` pushes tasks (tasks.py) so that its body can stop at a decision and
so that state-based rules are re-checked between statements. While the game is *settling* (an
`always` rule or `as soon as` watcher is running, or setup), no re-check happens between
statements; a body made only of statements that never need the stack (assignments, moves,
shuffles, logs, `break`/`continue`, and nested loops and `if`s of the same kind) then runs the
same way as a plain Python loop, which is several times cheaper than tasks.

Equivalence with the task path, which the golden-game test checks: the same statements run in
the same order on the same environment, each counts one step against the same limit, `break`
and `continue` end or advance the innermost loop, and an error names the innermost statement
(as the top task would).
"""
from __future__ import annotations

from typing import Any

from ..analysis.effects import can_wait
from ..language.tree import CONSTRUCTS, Node, Stmt
from .codegen import known_shape
from ..runtime.errors import Break, Continue, GameOver, LimitExceeded, RuleError

__all__ = ["is_sync", "run_block", "SYNC_KINDS"]

# statements whose compiled function always returns None (they never push a task): those that
# cannot wait (analysis/effects.py), but for the blocks `is_sync` runs itself
SYNC_KINDS = frozenset(c.kind for c in CONSTRUCTS if issubclass(c, Stmt) and not c.waits) - {"for", "if", "repeat"}


def is_sync(stmts: list[Node]) -> bool:
    """Whether every statement of a body can run at once (nested plain `if`s and `for`s included)."""
    return all(_sync_stmt(s) for s in stmts)


def _sync_stmt(n: Node) -> bool:
    if n.kind in SYNC_KINDS:
        return True
    if n.kind in ("for", "if") and not known_shape(n):
        return False  # a loop or `if` of another shape than the one written for here (codegen.SHAPES)
    if n.kind == "for":
        return is_sync(n.body)
    if n.kind == "if":  # a `may` condition waits for its answer
        return not can_wait(c for c, _ in n.branches) and \
            all(is_sync(b) for _, b in n.branches) and is_sync(n.orelse or [])
    return False


def run_statement(g: Any, e: dict, fn: Any, node: Node, limit: int) -> Any:
    """One compiled statement, counted as a step, its errors located as Game._run locates them.

    Shared by every path that runs statements without a task of their own (here and inline.py)."""
    g.steps += 1
    if g.steps > limit:
        raise LimitExceeded(f"more than {limit} steps: a rule seems to run forever", node.loc)
    try:
        return fn(g, e)
    except (Break, Continue, GameOver):
        raise
    except RuleError as err:
        if err.loc is None:  # as Game._run does with the top task's statement
            raise type(err)(err.message, node.loc) from None
        raise
    except RecursionError:
        raise LimitExceeded("rules nest too deeply", node.loc) from None
    except Exception as ex:  # a content bug surfacing as a Python error: name the statement
        import traceback
        g.internal_traceback = traceback.format_exc()
        raise RuleError.of(ex, node.loc, e) from None


def run_block(g: Any, e: dict, stmts: tuple) -> None:
    """Run compiled statements `(fn, node)` in order, counting steps as BlockTask does."""
    limit = g.limits.max_steps
    for fn, node in stmts:
        run_statement(g, e, fn, node, limit)


def run_for(g: Any, e: dict, items: list, name: str, stmts: tuple) -> None:
    """`for each` run at once: as ForTask, the variable stays bound to the last item."""
    for x in items:
        e[name] = x
        try:
            run_block(g, e, stmts)
        except Break:
            return
        except Continue:
            continue
