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

__all__ = ["MoveTracker", "ChangeLog"]


class ChangeLog(dict):
    """A `where` map (card id → zone key) that notes which cards' entries were set or removed, so
    that a look need not compare every card (the direct engine uses it when cards are tracked)."""

    __slots__ = ("changed",)

    def __init__(self, *args) -> None:
        super().__init__(*args)
        self.changed: set[int] = set()

    def __setitem__(self, key, value) -> None:
        self.changed.add(key)
        dict.__setitem__(self, key, value)

    def __delitem__(self, key) -> None:
        self.changed.add(key)
        dict.__delitem__(self, key)


class MoveTracker:
    """Collects, per seat, the names of the cards it took and played during one game."""

    def __init__(self, program: Any):
        self.cards = program.rs.cards
        self.visibility = {name: zd.visibility for name, zd in program.rs.zones.items()}
        self.last: dict[int, str] | None = None
        self.taken: dict[int, set[str]] = {}
        self.played: dict[int, set[str]] = {}
        self._zones: dict[str | None, tuple[int | None, bool]] = {}

    def start(self, game: Any) -> None:
        """The end of setup: what is where now was dealt, not taken (an `after_setup` hook)."""
        self.last = dict(game.state.where)
        if isinstance(game.state.where, ChangeLog):
            game.state.where.changed.clear()

    def update(self, game: Any) -> None:
        """Note the cards that moved since the last look."""
        where = game.state.where
        last = self.last
        if last is not None and isinstance(where, ChangeLog):
            self._update_from_log(game, where, last)
            return
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

    def _update_from_log(self, game: Any, where: ChangeLog, last: dict[int, str]) -> None:
        """`update` for a map that logs its changes: only the logged cards can have moved (the
        same comparison as `update` makes over every card)."""
        changed = where.changed
        if not changed:
            return
        get = where.get
        moved = [cid for cid in changed if last.get(cid) != get(cid)]
        changed.clear()
        if not moved:
            return
        under = game.state.under
        below = [b for cid in moved for b in under.get(cid, ())]  # cards under a moved card moved with it
        order = sorted(set(moved).union(below)) if below else sorted(moved)
        was = [_resolve(last, cid) for cid in order]  # before the snapshot catches up
        for cid in moved:
            at = get(cid)
            if at is None:
                last.pop(cid, None)
            else:
                last[cid] = at
        for cid, before in zip(order, was):
            to = _resolve(last, cid)
            if before != to:
                self._moved(cid, before, to)

    def per_seat(self, seats: int) -> tuple[list[list[str]], list[list[str]]]:
        """(taken, played): per seat, the sorted names of the cards it took / played."""
        return ([sorted(self.taken.get(s, ())) for s in range(seats)],
                [sorted(self.played.get(s, ())) for s in range(seats)])

    def _moved(self, cid: int, was: str | None, to: str | None) -> None:
        was_owner, was_public = self._zone(was)
        to_owner, to_public = self._zone(to)
        if to_owner is not None and to_owner != was_owner:
            self.taken.setdefault(to_owner, set()).add(self.cards[cid].name)
        if was_owner is not None and not was_public and to is not None and to_public:
            self.played.setdefault(was_owner, set()).add(self.cards[cid].name)

    def _zone(self, key: str | None) -> tuple[int | None, bool]:
        """A zone key's owner (None: shared, or out of play) and whether it is public; kept per key."""
        got = self._zones.get(key)
        if got is None:
            got = self._zones[key] = (_owner(key), key is None or self._vis(key) == "public")
        return got

    def _vis(self, key: str) -> str:
        return self.visibility.get(key.partition("#")[0], "public")


def _resolve(where: dict[int, str], cid: int) -> str | None:
    """The zone key a card lies in; a covered card ("^top") lies where the top card of its stack does."""
    at = where.get(cid)
    if at is None or at[0] != "^":
        return at
    for _ in range(1000):
        if at is None or at[0] != "^":
            return at
        at = where.get(int(at[1:]))
    return None


def _owner(key: str | None) -> int | None:
    if key is None:
        return None
    _, sep, owner = key.partition("#")
    return int(owner) if sep and owner.isdigit() else None
