"""Which cards players take and play in a game, read from where cards lie — for per-card reports.

The tracker compares where every card lies (its zone, or for a covered card the zone of the card
on top) at the end of setup, before each decision and at the end of the game. Between two looks:

* a card is **taken** by player P when it arrives in a zone of P's own (a per-player zone) from
  anywhere that is not P's: a shared zone, another player's zone, or out of play;
* a card is **played** by player P when it leaves a zone of P's that others may not see (an
  `owner` or `hidden` per-player zone: a hand, a face-down deck) for a `public` zone.

Cards dealt during setup are not counted as taken: setup ends before the first look. A card that
comes and goes between two decisions (drawn and discarded by the same rule) is not seen; what
the rules do on an answer is seen as a whole. The definitions use only zone ownership and
visibility, which every ruleset declares, so they mean the same thing in every game.
"""
from __future__ import annotations

from typing import Any

__all__ = ["MoveTracker"]


class MoveTracker:
    """Collects, per seat, the names of the cards it took and played during one game."""

    def __init__(self, program: Any):
        self.cards = program.rs.cards
        self.visibility = {name: zd.visibility for name, zd in program.rs.zones.items()}
        self.last: dict[int, str] | None = None
        self.taken: dict[int, set[str]] = {}
        self.played: dict[int, set[str]] = {}

    def start(self, game: Any) -> None:
        """The end of setup: what is where now was dealt, not taken (an `after_setup` hook)."""
        self.last = dict(game.state.where)

    def update(self, game: Any) -> None:
        """Note the cards that moved since the last look."""
        where = game.state.where
        last = self.last
        if last is None:
            self.last = dict(where)
            return
        if last == where:
            return
        now = dict(where)
        get = last.get
        moved = {cid for cid, at in now.items() if get(cid) != at}
        if last.keys() != now.keys():  # some left play altogether
            moved |= last.keys() - now.keys()
        under = game.state.under
        for cid in list(moved):  # cards lying under a moved card moved with it
            moved.update(under.get(cid, ()))
        for cid in sorted(moved):
            was, to = _resolve(last, cid), _resolve(now, cid)
            if was != to:
                self._moved(cid, was, to)
        self.last = now

    def per_seat(self, seats: int) -> tuple[list[list[str]], list[list[str]]]:
        """(taken, played): per seat, the sorted names of the cards it took / played."""
        return ([sorted(self.taken.get(s, ())) for s in range(seats)],
                [sorted(self.played.get(s, ())) for s in range(seats)])

    def _moved(self, cid: int, was: str | None, to: str | None) -> None:
        name = self.cards[cid].name
        was_owner, to_owner = _owner(was), _owner(to)
        if to_owner is not None and to_owner != was_owner:
            self.taken.setdefault(to_owner, set()).add(name)
        if was_owner is not None and self._vis(was) != "public" and to is not None and self._vis(to) == "public":
            self.played.setdefault(was_owner, set()).add(name)

    def _vis(self, key: str) -> str:
        return self.visibility.get(key.partition("#")[0], "public")


def _resolve(where: dict[int, str], cid: int) -> str | None:
    """The zone key a card lies in; a covered card ("^top") lies where the top card of its stack does."""
    at = where.get(cid)
    for _ in range(1000):
        if at is None or not at.startswith("^"):
            return at
        at = where.get(int(at[1:]))
    return None


def _owner(key: str | None) -> int | None:
    if key is None:
        return None
    _, sep, owner = key.partition("#")
    return int(owner) if sep and owner.isdigit() else None
