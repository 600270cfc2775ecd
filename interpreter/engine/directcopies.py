"""Direct-style compilation (direct.py) of `copies EXPR`, a card that counts as a live copy of
another card (docs/language.md, `copies`).

Why a mix-in of its own: the copy is looked up where a card's fields and abilities are — the
field tables the generated code indexes, the triggers answering an event on a card, the actions
of cards in play and the `whenever` triggers — so that, while the expression gives a card, the
copying card reads that card's fields and answers with its abilities, and follows it the moment
it changes (the expression is evaluated at each look-up: nothing is stored, nothing goes stale,
and copies of a game need nothing of their own).

`CopyGen` is the part of `direct._Gen` that writes each clause's expression as a function of
(`you`, `this`): `you` is the owner of the zone the card lies in (the active player while it lies
in a shared zone), `this` the copying card. `CopyRuntime` is the part of `directgame.Runtime`
that answers "which card does this one copy now".
"""
from __future__ import annotations

import re
from typing import Any

from ..runtime.values import Seat

__all__ = ["CopyGen", "CopyRuntime", "COPIES_KEYWORDS"]

# attribute names the code written here uses (direct.py's token check allows them)
COPIES_KEYWORDS = frozenset({"copier_ids", "copied_value"})
_SIMPLE = re.compile(r"_[A-Za-z0-9]+\Z")  # a local name: may be evaluated twice


class CopyGen:
    """Mixed into `direct._Gen` (which provides `expr_function` and `rs`)."""

    def copying(self) -> bool:
        """Whether some card of the ruleset copies another (then field reads check for it)."""
        got = getattr(self, "_copying_cards", None)
        if got is None:
            got = self._copying_cards = any(c.effect is not None and c.effect.copies for c in self.rs.cards)
        return got

    def field_read(self, table: str, card: str) -> str:
        """The code reading a card's field from its table: `_f3[c]`; in a ruleset with copying
        cards, a copying card (`_CPY`: a few ids, a set lookup) reads through `R.copied_value`."""
        if not self.copying():
            return f"{table}[{card}]"
        if _SIMPLE.match(card):
            return f"({table}[{card}] if {card} not in _CPY else _CPV({table}, {card}))"
        return f"_CPV({table}, {card})"

    def copy_bindings(self) -> list[str]:
        """Lines of `build` binding what `field_read` uses."""
        return ["    _CPY = R.copier_ids()", "    _CPV = R.copied_value"] if self.copying() else []

    def copy_functions(self, exported: list[str]) -> dict[int, str]:
        """Card id → the name of the function giving the card it copies now (or none), for every
        card whose effect says `copies EXPR` (one function per effect text, shared by the cards
        that carry it). The functions' names are added to `exported`."""
        out: dict[int, str] = {}
        made: dict[int, str] = {}
        for card in self.rs.cards:
            eff = card.effect
            if eff is None or not eff.copies:
                continue
            name = made.get(id(eff))
            if name is None:
                name = made[id(eff)] = f"_cp{len(made)}"
                clause = eff.copies[-1]  # (several clauses: the last one says it)
                self.expr_function(name, [("you", "player"), ("this", "card")], clause.expr, clause.loc)
                exported.append(name)
            out[card.id] = name
        return out


class CopyRuntime:
    """Mixed into `directgame.Runtime` (which provides `state`, `info`, `game`, `in_play_owner`)."""

    _copying: frozenset = frozenset()  # cards whose copy is being looked up (a copy of a copy...)

    def copy_source(self, cid: int) -> int | None:
        """The card `cid` copies now, or None: its `copies` expression, `you` being the owner of
        the zone it lies in. A copy of a copying card is a copy of what that card copies; a loop
        (two cards copying each other) stops at the card that started it."""
        name = self.info["copies"].get(cid)
        if name is None or cid in self._copying:
            return None
        owner = self.in_play_owner(cid)
        you = Seat(owner if owner is not None else self.state.active)
        self._copying = self._copying | {cid}
        try:
            src = self.game.fns[name](you, cid)
            if src is not None and src != cid and src in self.info["copies"]:
                src = self.copy_source(src) or src
        finally:
            self._copying = self._copying - {cid}
        return None if src is None or src == cid or isinstance(src, (bool, Seat)) or not isinstance(src, int) else src

    def copier_ids(self) -> frozenset:
        """The ids of the cards that may copy another."""
        return frozenset(self.info["copies"])

    def copied_value(self, table: list, cid: Any) -> Any:
        """A field of card `cid` (`table`: card id → value): the copied card's, where it has one."""
        own = table[cid]
        if cid in self.info["copies"]:
            src = self.copy_source(cid)
            if src is not None and table[src] is not None:
                return table[src]
        return own

    def copied_triggers(self, event: str, subject: Any, handlers: Any) -> Any:
        """The triggers answering `event` on `subject`: its own, then those of the card it copies."""
        src = self.copy_source(subject) if type(subject) is int else None  # (a card, not a seat)
        if src is None:
            return handlers
        more = self.info["card_triggers"].get(event, {}).get(src, ())
        return list(handlers) + list(more) if more else handlers

    def copied_actions(self, cid: int, own: Any) -> list:
        """A card's actions in play, as (use key suffix, (function, condition, node)): its own, then
        those of the card it copies (counted apart: `c<source>.<i>`)."""
        out = list(enumerate(own))
        src = self.copy_source(cid) if cid in self.info["copies"] else None
        if src is not None:
            out += [(f"c{src}.{i}", a) for i, a in enumerate(self.info["card_actions"].get(src, ()))]
        return out

    def copied_whenever(self, event: str) -> list:
        """The `whenever` triggers copying cards answer now: the copied card's, as (function,
        condition, binder, node, copying card id), to be tested like the cards' own."""
        table = self.info["whenever"].get(event, ())
        if not table:
            return []
        out = []
        for cid in self.info["copies"]:
            src = self.copy_source(cid)
            if src is not None:
                out += [(name, cond, binder, node, cid) for name, cond, binder, node, c in table if c == src]
        return out
