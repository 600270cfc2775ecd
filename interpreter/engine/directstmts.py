"""Statement forms of direct code that the task engine's closures had to themselves: events fired
on several cards at once (`draw 3 from deck to your hand` with a `when drawn` trigger), `move ... as
NAME`, ...

Why: the generated module is the only engine once the task engine is gone, so each statement the
rules allow must be written as direct code, with the task engine's order of effects kept.
"""
from __future__ import annotations

from dataclasses import replace

from ..language.tree import Name, Node
from .directexpr import Unsupported, V

__all__ = ["StmtsGen", "STMTS_KEYWORDS"]

_MOVED = "moved "  # the scope's name for what `move ... as` moves: no rule's name has a space
STMTS_KEYWORDS = frozenset({"fired", "run_fired"})  # Runtime methods the code below calls


class StmtsGen:
    """Mixed into `direct._Gen` (which provides `emit`, `temp`, `k`, `events`, `sync`, `expr`,
    `bind`, `cards_src`, `s_move`)."""

    def move_as(self, n: Node, d: int, scope: dict, loops: int) -> None:
        """`move WHAT to WHERE as NAME`: WHAT evaluated once, before the move (a card, or a
        snapshot of the cards), moved as a plain `move`, then named. NAME is the card when WHAT
        is one card, else the list of the cards (the language names a list of exactly one card
        by the card: a kind only known at run time, which a list of one stands for here)."""
        what = self.expr(n.what, scope)
        if what.kind == "item":  # a mixed list's item, moved: a card
            what = V(f"R.card_item({what.src})", "card")
        t = self.temp()
        kind = "card" if what.kind == "card" else "cards"
        self.emit(d, f"{t} = {what.src if kind == 'card' else self.cards_src(what)}", n.loc)
        inner = dict(scope)
        inner[_MOVED] = (t, kind)
        self.s_move(replace(n, what=Name(id=_MOVED, loc=n.what.loc), name=None), d, inner, loops)
        py = self.bind(scope, n.name, kind)
        self.emit(d, f"{py} = {t}", n.loc)

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
