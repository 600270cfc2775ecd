"""Statement forms of direct code that the task engine's closures had to themselves: events fired
on several cards at once (`draw 3 from deck to your hand` with a `when drawn` trigger), ...

Why: the generated module is the only engine once the task engine is gone, so each statement the
rules allow must be written as direct code, with the task engine's order of effects kept.
"""
from __future__ import annotations

from .directexpr import Unsupported

__all__ = ["StmtsGen", "STMTS_KEYWORDS"]

STMTS_KEYWORDS = frozenset({"fired", "run_fired"})  # Runtime methods the code below calls


class StmtsGen:
    """Mixed into `direct._Gen` (which provides `emit`, `temp`, `k`, `events`, `sync`)."""

    def fire_each(self, d: int, event: str, cards: str, actor: str, loc) -> None:
        """`EVENT` fired on each of `cards` (a list local), as `Game.fire_tasks`: the triggers
        answering each card are found (their conditions tested) for every card first, then run
        card by card in order."""
        if event not in self.events:
            return
        if self.sync:
            raise Unsupported("triggers answering a state-based rule")
        pend, p = self.temp(), self.temp()
        self.emit(d, f"{pend} = [R.fired({self.k(event)}, {p}, {actor}) for {p} in {cards}]", loc)
        self.emit(d, f"for {p} in {pend}:", loc)
        self.emit(d + 1, f"yield from R.run_fired({self.k(event)}, {p})", loc)
