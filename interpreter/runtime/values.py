"""Runtime values that rules see besides numbers, texts, booleans and lists.

Cards are `CardData` objects (see model.py); players are `Seat`s; zones and rows are refs
into the game state so that rules can both read and move them.
"""
from __future__ import annotations

from typing import NamedTuple

__all__ = ["Seat", "ZoneRef", "RowRef", "TypeRef", "Position", "Space"]


class Seat(int):
    """A player, by seat number (0-based). An int so it hashes and serialises plainly."""

    def __repr__(self) -> str:
        return f"player {int(self) + 1}"

    __str__ = __repr__


class ZoneRef(NamedTuple):
    """A zone instance: `name` and, for per-player zones, the owning seat."""

    name: str
    owner: int | None

    @property
    def key(self) -> str:
        return self.name if self.owner is None else f"{self.name}#{self.owner}"

    def __str__(self) -> str:
        return self.name if self.owner is None else f"{self.name} of player {self.owner + 1}"


class RowRef(NamedTuple):
    """One row of a `rows` zone. `rid` is the row's stable id: a ref keeps naming the same row
    when rows before it empty and close up (it names no row once its own row has emptied).
    `index` is the row's position when the ref was made (for display; and refs without an id)."""

    key: str
    index: int
    rid: int = -1

    def __str__(self) -> str:
        return f"row {self.index + 1} of {self.key.split('#')[0]}"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RowRef):
            return NotImplemented
        if self.rid >= 0 and other.rid >= 0:
            return self.key == other.key and self.rid == other.rid
        return self.key == other.key and self.index == other.index

    def __ne__(self, other: object) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self) -> int:
        return hash(self.key)


class TypeRef(NamedTuple):
    """A card type named in an expression (`c is SomeType`, `SomeType.field`)."""

    name: str


class Position(NamedTuple):
    """Where a `place` puts a card: row index (or None for a new row) and side."""

    row: int | None
    side: str  # "left" | "right" | "new" | "top"

    def __str__(self) -> str:
        if self.side == "new":
            return "a new row"
        if self.side == "top":
            return "on top"
        if self.side.startswith("space"):
            return self.side
        return f"row {self.row + 1}, {self.side} end"


class Space(NamedTuple):
    """One space of a `grid` zone: the zone's key and 0-based column `x` and row `y`
    (rules read `s.x` and `s.y` from 1)."""

    key: str
    x: int
    y: int

    def __str__(self) -> str:
        name, _, owner = self.key.partition("#")
        where = name if not owner else f"{name} of player {int(owner) + 1}"
        return f"space {self.x + 1},{self.y + 1} of {where}"
