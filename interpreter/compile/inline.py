"""Running a nested body (an `if` branch, a `for each` item) at once instead of as a new task.

`BlockTask` re-checks state-based rules before each statement when the state changed. A body
can run straight away, inside the statement that chose it, for as long as nothing changed: the
statements run exactly as `BlockTask.step` would run them (same steps counted, same error
locations, the same look for state-based rules to settle after a change), and at the first
point where a `BlockTask` would stop (a rule must settle, or a statement returned a task), the
rest of the body is handed back as a `BlockTask` already at that statement, with the
statement's task on top of it. The stack then holds what it would have held, minus a task
pushed and popped for nothing.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .syncblocks import run_statement

if TYPE_CHECKING:
    from .tasks import Block, BlockTask

__all__ = ["run_inline"]

_BlockTask: Any = None


def run_inline(g: Any, body: "Block", e: dict) -> Any:
    """Run `body` until it ends (None) or must continue on the stack (the task(s) to push)."""
    stmts = body.stmts
    limit = g.limits.max_steps
    for pc, (fn, node) in enumerate(stmts):
        if g.dirty and not g.settling and g.settle_before_statement():  # as BlockTask.step
            return _rest(body, e, pc)  # its first step pushes the SettleTask
        r = run_statement(g, e, fn, node, limit)
        if r is not None:
            if isinstance(r, list):
                if not r:  # no task after all (e.g. no trigger fired): BlockTask goes on too
                    continue
                return r + [_rest(body, e, pc + 1)]
            return [r, _rest(body, e, pc + 1)]
    return None


def _rest(body: "Block", e: dict, pc: int) -> "BlockTask":
    global _BlockTask
    if _BlockTask is None:  # tasks.py imports this module: import it on first use, once
        from .tasks import BlockTask as _BlockTask
    task = _BlockTask(body, e)
    task.pc = pc
    return task
