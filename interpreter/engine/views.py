"""What one seat may see of a game, made from the state alone.

Every engine keeps the same `GameState` (zones of card ids, stats holding cards as cards), so
the rule of visibility is written once, here, and mixed into each game class: sessions, the
terminal, `grimoire serve` and the docs' examples get the same view whichever engine runs the
game. A zone is shown card by card to the seats that may see it (`public`, or `owner` to its
owner) and by its size to the rest; a covered card is hidden from everyone; a stat holding a
card the seat may not see shows `?`.
"""
from __future__ import annotations

from typing import Any

from ..content.model import CardData
from ..library.boards import Graph
from ..runtime.values import RowRef, Seat, ZoneRef

__all__ = ["SeatViews", "board_graph"]


def board_graph(game: Any) -> Graph:
    """The game's board graph (spaces, edges, regions), built by its runtime on first use."""
    return game.R.graph()


class SeatViews:
    """Mixed into a game class that has `rs` (the ruleset), `cards`, `seats` and `state`."""

    _labels: list[str] | None = None  # cards' labels, made on first use (`card_label`)

    def card_label(self, cid: int) -> str:
        """A card's label (cards are immutable: computed once per game)."""
        labels = self._labels
        if labels is None:
            labels = self._labels = [c.label() for c in self.cards]
        return labels[cid]

    def view(self, seat: int | None) -> dict:
        """What `seat` may see (None: a spectator): hidden zones show only their size."""
        out: dict[str, Any] = {}
        state = self.state
        for name, zd in self.rs.zones.items():
            owners = range(len(self.seats)) if zd.per_player else [None]
            for o in owners:
                ref = ZoneRef(name, o)
                visible = zd.visibility == "public" or (zd.visibility == "owner" and o is not None and o == seat)
                raw = state.zones[ref.key]
                if zd.kind == "rows":
                    out[str(ref)] = [[self._show(c, visible) for c in row] for row in raw] if visible else \
                        [len(r) for r in raw]
                else:
                    out[str(ref)] = [self._show(c, visible) for c in raw] if visible else len(raw)
        out["stats"] = {k: self._plain(v, seat) for k, v in state.stats.items()}
        out["players"] = [{k: self._plain(v, seat) for k, v in s.items()} for s in state.pstats]
        return out

    def _plain(self, v: Any, seat: int | None) -> Any:
        """A stat's value as JSON-ready data for a view (stats may hold cards, players, lists);
        a card the seat may not see shows as `?`."""
        if isinstance(v, CardData):
            return self.card_label(v.id) if self._sees(v.id, seat) else "?"
        if isinstance(v, (Seat, ZoneRef, RowRef)):
            return str(v)
        if isinstance(v, (list, tuple)):
            return [self._plain(x, seat) for x in v]
        if isinstance(v, dict):
            return {str(self._plain(k, seat)): self._plain(x, seat) for k, x in v.items()}
        return v

    def _sees(self, cid: int, seat: int | None) -> bool:
        """Whether `seat` may see which card `cid` is where it lies (a card in no zone is open)."""
        at = self.state.where.get(cid)
        if at is None:
            return True
        if at.startswith("^"):
            return False
        name, _, owner = at.partition("#")
        vis = self.rs.zones[name].visibility
        return vis == "public" or (vis == "owner" and owner != "" and int(owner) == seat)

    def _show(self, cid: int, visible: bool) -> str:
        """A card in a zone as a view lists it: its label (or `?`), and how many cards it hides."""
        label = self.card_label(cid) if visible else "?"
        n = len(self.state.under.get(cid, ()))
        return f"{label} (on {n} hidden)" if n else label
