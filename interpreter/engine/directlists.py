"""Direct-style compilation (direct.py) of stats that hold lists of lists of plain values: a
stat whose `set` puts the stat itself inside a list literal (`set s to [s, s]`, `s + [s]`) nests
lists in lists, so it holds no cards, though it may start as the empty list (which other stats
start as to hold cards, `direct._list_stats`). Such a stat is read in kind `list` from the start.
"""
from __future__ import annotations

from typing import Iterator

from ..content.model import Ruleset
from ..language.tree import Node, walk
from .directcover import CardStatsFound
from .directexpr import StatKindsFound, V

__all__ = ["ListsGen", "nested_stats"]


def _stat_sets(rs: Ruleset) -> Iterator[tuple[str, Node]]:
    """(stat, value) for every `set STAT to VALUE` of a shared stat without a range."""
    roots = [*rs.phases.values(), *rs.procedures.values(), *rs.triggers, *rs.always, *rs.watchers]
    roots += [t for c in rs.cards if c.effect is not None for t in c.effect.triggers]
    for root in roots:
        for n in walk(root):
            if n.kind == "set" and n.target.kind == "name":
                sd = rs.stats.get(n.target.id)
                if sd is not None and sd.lo is None and sd.hi is None and not sd.per_player:
                    yield n.target.id, n.expr


def nested_stats(rs: Ruleset) -> set[str]:
    """Stats some `set` gives a list literal holding the stat itself: lists nested in lists."""
    return {name for name, x in _stat_sets(rs)
            if any(n.kind == "list" and any(i.kind == "name" and i.id == name for i in n.items) for n in walk(x))}


class ListsGen:
    """Mixed into `direct._Gen` first: stats of plain lists (which `CoverStatements` would take
    for card lists when they start empty)."""

    def list_stat(self, name: str) -> None:
        """Stat `name` holds lists of plain values (`stat s = [1]`): read it as a list."""
        if self.stat_kinds.get(name) == "list":
            return
        if self.learning:  # (direct._learn_stats)
            self.stat_kinds[name] = "list"
            return
        raise StatKindsFound({**self.stat_kinds, name: "list"})

    def set_card_stat(self, name: str, v: V, d: int, n: Node) -> bool:
        """A stat that starts empty and is set to a list of plain values (`set s to [xs for ...]`)
        holds no cards: compiled again reading it as a list."""
        if name in self.card_stats and v.kind == "list" and v.src != "[]" and v.src not in self.empty_lists:
            if not self.learning:
                raise CardStatsFound(self.card_stats - {name})
            self.card_stats = self.card_stats - {name}
            self.stat_kinds[name] = "list"
            return False
        return super().set_card_stat(name, v, d, n)
