"""Statement forms of direct code that the task engine's closures had to themselves: events fired
on several cards at once (`draw 3 from deck to your hand` with a `when drawn` trigger), `place` in a
zone that has no placement rule (`move ... as NAME` is now `tree.MoveStmt`'s own code).

Why: the generated module is the only engine once the task engine is gone, so each statement the
rules allow must be written as direct code, with the task engine's order of effects kept.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..runtime.errors import RuleError
from .directexpr import Unsupported

__all__ = ["StmtsGen", "StmtsRuntime", "STMTS_KEYWORDS"]

STMTS_KEYWORDS = frozenset({"fired", "fired_from", "run_fired", "no_card_to_place"})  # Runtime methods the code below calls


class StmtsRuntime:
    """Mixed into `directgame.Runtime`: the errors the code below raises, in the task engine's words."""

    def no_card_to_place(self) -> None:
        raise RuleError("there is no card to place (got none)", None)


@dataclass
class _Anywhere:
    """The placement rule of a zone that has none: no condition (`legal_positions` then offers
    every candidate position)."""

    loc: Any
    binder: str = "after placing"  # not a name a rule can write: the conditions read nothing
    conds: list = field(default_factory=list)


class StmtsGen:
    """Mixed into `direct._Gen` (which provides `emit`, `temp`, `k`, `events`, `sync`, `expr`,
    `bind`, `cards_src`, `placement_names`, `placement_function`, `lines`)."""

    def free_placement(self, zname: str, loc: Any) -> None:
        """`place CARD in ZONE` where ZONE has no placement rule: a placement function for it, as
        for a rule with no condition, written beside the module's functions (directrecursion's
        `rec_lines`: this is asked while another function is being written)."""
        if self.rs.zones[zname].kind not in ("rows", "pile", "set", "row", "stack", "grid"):
            raise Unsupported(f"placement in a {self.rs.zones[zname].kind} zone")
        name = f"_plf{len(self.placement_names)}"
        saved = self.lines, self.line_loc, self.cur_loc
        self.lines, self.line_loc = self.__dict__.setdefault("rec_lines", []), self.__dict__.setdefault("rec_locs", [])
        try:
            self.placement_function(name, zname, _Anywhere(loc))
        finally:
            self.lines, self.line_loc, self.cur_loc = saved
        self.placement_names[zname] = name

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

    def fire_in_turn(self, d: int, event: str, cards: str, actor: str, loc) -> None:
        """`EVENT` fired on each of `cards` (a list local) in turn, as `roll` fires `rolled`
        (`Game.roll`): a card's triggers run before the next card's are found. One
        `R.fired_from` finds the next card that any trigger answers (most dice: none); an event
        that a table answers without conditions (`plan_dispatch`) is fired card by card."""
        if event not in self.events:
            return
        if event in self.dispatch:
            c = self.temp()
            self.emit(d, f"for {c} in {cards}:", loc)
            self.emit_fire(d + 1, event, c, actor, loc)
            return
        if self.sync:
            raise Unsupported("triggers answering a state-based rule")
        i, pend = self.temp(), self.temp()
        self.emit(d, f"{i}, {pend} = R.fired_from({self.k(event)}, {cards}, 0, {actor})", loc)
        self.emit(d, f"while {pend}:")
        self.emit(d + 1, f"yield from R.run_fired({self.k(event)}, {pend})", loc)
        self.emit(d + 1, f"{i}, {pend} = R.fired_from({self.k(event)}, {cards}, {i} + 1, {actor})", loc)
