"""Card movement on the game state: take a card from wherever it lies, put it somewhere.

A card lying on another (`cover`) hides it; when the top card leaves, the one below surfaces.
Every card is always in exactly one place: a zone list, a row, or under another card.
"""
from __future__ import annotations

from .state import GameState
from .values import Position

__all__ = ["take_out", "put", "cover", "row_of", "zone_cards", "row_ids"]


def zone_cards(state: GameState, key: str, rows: bool) -> list[int]:
    """Top-level cards of a zone (rows flattened, row by row, left to right)."""
    z = state.zones[key]
    if rows:
        return [c for row in z for c in row]
    return z


def row_ids(state: GameState, key: str) -> list[int]:
    """The stable ids of a rows zone's rows, in row order. Rows added by other code (at the end)
    get fresh ids here."""
    rows, ids = state.zones[key], state.row_ids.setdefault(key, [])
    while len(ids) < len(rows):
        ids.append(state.next_row_id)
        state.next_row_id += 1
    if len(ids) > len(rows):
        del ids[len(rows):]
    return ids


def row_of(state: GameState, key: str, cid: int) -> int:
    for i, row in enumerate(state.zones[key]):
        if cid in row:
            return i
    raise KeyError(cid)


def take_out(state: GameState, cid: int, rows_zones: frozenset[str]) -> None:
    """Remove a card from its place; a card it covered takes its place."""
    at = state.where[cid]
    below = state.under.pop(cid, None)
    space = state.spaces.pop(cid, None)
    if at.startswith("^"):  # it was itself covered: leave the stack above intact
        top = int(at[1:])
        state.under[top].remove(cid)
        if below:
            for b in below:
                state.where[b] = at
            state.under[top][0:0] = below
        if not state.under[top]:
            del state.under[top]
        del state.where[cid]
        return
    rows, r = None, None
    if at.partition("#")[0] in rows_zones:  # a per-player zone's key is `name#owner`
        rows = state.zones[at]
        r = row_of(state, at, cid)
        lst = rows[r]
    else:
        lst = state.zones[at]
    i = lst.index(cid)
    if below:
        new_top = below.pop()
        lst[i] = new_top
        if space is not None:
            state.spaces[new_top] = space  # the card below surfaces on the same grid space
        _surface(state, new_top, below, at)
    else:
        del lst[i]
        if rows is not None and not lst:
            del row_ids(state, at)[r]
            del rows[r]  # an emptied row no longer exists
    del state.where[cid]


def _surface(state: GameState, new_top: int, rest: list[int], key: str) -> None:
    state.where[new_top] = key
    if rest:
        state.under[new_top] = rest
        for b in rest:
            state.where[b] = f"^{new_top}"


def put(state: GameState, cid: int, key: str, rows: bool, pos: Position | None = None, bottom: bool = False) -> None:
    """Put a card (already taken out) into a zone; `pos` chooses the row and end for rows zones."""
    z = state.zones[key]
    if rows:
        if pos is None or pos.side == "new" or not z:
            row_ids(state, key)
            z.append([cid])
            row_ids(state, key)
        elif pos.side == "left":
            z[pos.row].insert(0, cid)
        else:
            z[pos.row].append(cid)
    elif pos is not None and pos.side.startswith("space"):
        z.append(cid)
        state.spaces[cid] = pos.row  # a grid space, y * width + x
    elif bottom:
        z.insert(0, cid)
    else:
        z.append(cid)
    state.where[cid] = key
    for b in state.under.get(cid, ()):
        state.where[b] = f"^{cid}"


def cover(state: GameState, cid: int, target: int, rows_zones: frozenset[str]) -> None:
    """Lay card `cid` (already taken out) on `target`: it takes the target's place, the target goes under."""
    at = state.where[target]
    if at.startswith("^"):
        raise ValueError("cannot lay a card on a covered card")
    z = state.zones[at]
    if at.partition("#")[0] in rows_zones:
        row = z[row_of(state, at, target)]
        row[row.index(target)] = cid
    else:
        z[z.index(target)] = cid
    if target in state.spaces:
        state.spaces[cid] = state.spaces.pop(target)
    stack = state.under.pop(target, []) + [target]
    state.under[cid] = state.under.get(cid, []) + stack
    state.where[cid] = at
    for b in state.under[cid]:
        state.where[b] = f"^{cid}"
