"""Game state as plain data: where every card lies, stats, counters and the seeded RNG.

Serialisable (`to_json`), hashable (`digest`) and cloneable in time proportional to its size.
"""
from __future__ import annotations

import copy
import hashlib
import json
import random
from dataclasses import dataclass, field
from typing import Any

__all__ = ["GameState"]


@dataclass
class GameState:
    seed: Any
    players: int  # players who take turns; dummy players (seats players..) come after them
    dummies: int = 0
    zones: dict[str, list] = field(default_factory=dict)  # key → card ids (rows zone: list of rows)
    under: dict[int, list[int]] = field(default_factory=dict)  # card id → ids lying under it, bottom first
    row_ids: dict[str, list[int]] = field(default_factory=dict)  # rows zone key → stable id of each row
    next_row_id: int = 0
    spaces: dict[int, int] = field(default_factory=dict)  # card id → its space (y * width + x) in a grid zone
    where: dict[int, str] = field(default_factory=dict)  # card id → zone key, or "^<id>" when covered
    stats: dict[str, Any] = field(default_factory=dict)  # global stats and game variables
    pstats: list[dict[str, Any]] = field(default_factory=list)  # per-player stats
    watch: list[bool] = field(default_factory=list)  # last value of each `as soon as` condition
    faces: dict[int, Any] = field(default_factory=dict)  # die id → the face it shows
    uses: dict[str, int] = field(default_factory=dict)  # "period:source:index" → uses of an action
    active: int = 0
    start_player: int = 0
    turn_number: int = 0
    round_number: int = 0
    ending: str | None = None  # "turn" | "round" when the game ends after the current one
    end_reason: str | None = None  # the text of the last `end game "reason"` run
    end_cap: bool = False  # the last `end game` run was `... by cap`: a safety cap, not the rules' end
    no_winner: bool = False  # the last `end game` run was `... with no winner`: every player loses
    all_win: bool = False  # the last `end game` run was `... with every player winning`: a team win
    rng: random.Random = field(default_factory=random.Random)

    def to_json(self) -> dict:
        d = {
            "players": self.players,
            "dummies": self.dummies,
            "zones": self.zones,
            "under": {str(k): v for k, v in sorted(self.under.items())},
            "row_ids": self.row_ids,
            "stats": _plain(self.stats),
            "pstats": _plain(self.pstats),
            "watch": self.watch,
            "faces": {str(k): v for k, v in sorted(self.faces.items())},
            "uses": dict(sorted(self.uses.items())),
            "active": self.active,
            "start_player": self.start_player,
            "turn_number": self.turn_number,
            "round_number": self.round_number,
            "ending": self.ending,
            "rng": _rng_digest(self.rng),
        }
        if self.end_reason is not None:  # only games that gave one (other digests stay as they were)
            d["end_reason"] = self.end_reason
        if self.end_cap:  # only games stopped by a cap (other digests stay as they were)
            d["end_cap"] = True
        if self.no_winner:  # only games that ended with no winner (other digests stay as they were)
            d["no_winner"] = True
        if self.all_win:  # only games won by the whole team (other digests stay as they were)
            d["all_win"] = True
        if self.spaces:  # only games with a grid have spaces (other games' digests stay as they were)
            d["spaces"] = {str(k): v for k, v in sorted(self.spaces.items())}
        return d

    def digest(self) -> str:
        """A short hash of the whole state, for replay verification."""
        blob = json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"), default=int)
        return hashlib.sha256(blob.encode()).hexdigest()[:16]

    def clone(self) -> "GameState":
        return copy.deepcopy(self)


MAX_PLAIN_DEPTH = 100  # deeper values are digested without recursion (a hostile rule can nest lists)
MAX_PLAIN_BITS = 10_000  # larger numbers (over about 3,000 digits) are digested from their bytes


def _big_hash(v: int) -> str:
    return hashlib.sha256(v.to_bytes((v.bit_length() + 8) // 8, "big", signed=True)).hexdigest()[:16]


def _plain(v: Any, depth: int = 0) -> Any:
    """Rule values as JSON data: cards by id, maps as sorted pairs (stats may hold any value).
    A value nested deeper than MAX_PLAIN_DEPTH becomes `{"deep": hash}`, so digests and logs of any
    state can be made (the structure decides, not how deep the caller's stack happens to be)."""
    if isinstance(v, int) and not isinstance(v, bool) and v.bit_length() > MAX_PLAIN_BITS:
        return {"bigint": _big_hash(v)}  # Python cannot write such a number as text
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if depth > MAX_PLAIN_DEPTH:
        return {"deep": _deep_hash(v)}
    if isinstance(v, dict):
        if all(isinstance(k, str) for k in v):
            return {k: _plain(x, depth + 1) for k, x in v.items()}
        return {"map": sorted(([_plain(k, depth + 1), _plain(x, depth + 1)] for k, x in v.items()), key=repr)}
    if isinstance(v, (list, tuple)):
        return [_plain(x, depth + 1) for x in v]
    cid = getattr(v, "id", None)
    if isinstance(cid, int):
        return {"card": cid}
    return repr(v)


def _deep_hash(root: Any) -> str:
    """A digest of a value of any depth, walked with an explicit stack (map items in key order)."""
    h = hashlib.sha256()
    stack = [root]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            items = sorted(v.items(), key=lambda kv: (type(kv[0]).__name__, str(kv[0]) if isinstance(
                kv[0], (str, int, float, bool)) or kv[0] is None else str(getattr(kv[0], "id", "?"))))
            h.update(b"{%d" % len(items))
            for k, x in reversed(items):
                stack += [x, k]
        elif isinstance(v, (list, tuple)):
            h.update(b"[%d" % len(v))
            stack.extend(reversed(v))
        elif isinstance(v, int) and not isinstance(v, bool) and v.bit_length() > MAX_PLAIN_BITS:
            h.update(f"bigint:{_big_hash(v)};".encode())
        elif v is None or isinstance(v, (bool, int, float, str)):
            h.update(f"{type(v).__name__}:{v!s};".encode("utf-8", "backslashreplace"))
        elif isinstance(getattr(v, "id", None), int):
            h.update(b"card:%d;" % v.id)
        else:
            h.update(type(v).__name__.encode())
    return h.hexdigest()[:16]


def _rng_digest(rng: random.Random) -> str:
    return hashlib.sha256(repr(rng.getstate()).encode()).hexdigest()[:16]
