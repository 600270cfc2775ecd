"""Running a ruleset compiled by direct.py: the game driver and the runtime its code calls.

`DirectGame` has the interface of `engine.Game` that batches need (`decision`, `answer`, `over`,
`result`, `error`, `choices`, `steps`, `held()`) and plays the same game: the same `GameState`,
the same card movements (zones.py), the same questions with the same options in the same order,
the same settling of state-based rules (`SettleTask`'s passes), the same RNG draws. It cannot be
copied mid-game (a generator cannot), so agents that search (`clone`) use the copyable form
(resumablegame.py).
"""
from __future__ import annotations

import random
import re
import sys
import operator
from operator import lt as _lt
from typing import Any, Callable, Iterator

from ..runtime.cardstats import ChangeLog
from .blame import rule_terms
from .directabilities import AbilityRuntime, condition_error
from .directcopies import CopyRuntime
from .directboards import BoardRuntime
from .directcover import STOP, CoverRuntime
from .directfacade import DirectFacade
from .directforms import FORMS_GLOBALS, FormsRuntime
from .directpairs import PAIRS_GLOBALS
from .directstmts import StmtsRuntime
from . import setupmemo
from .directtuples import TUPLES_GLOBALS
from .directmixed import MAX_INT, MIXED_GLOBALS, mul, value_text
from ..analysis.effects import PERIOD
from ..analysis.playerplans import SEAT_TURN
from .game import Decision, Limits, asked, game_result, held_names, record_answer, trigger_label, write_log
from ..runtime.errors import GameOver, LimitExceeded, RuleError
from ..runtime.memory import built_value
from ..runtime.state import GameState
from ..runtime.values import Position, Seat, ZoneRef
from ..runtime.zones import cover as _cover, row_ids as _row_ids, take_out as _take_out

__all__ = ["DirectGame", "GENERATED_GLOBALS"]


# ---- helpers the generated code calls (its only globals besides `R` and `K`) -----------------
def _distinct(xs: list) -> bool:
    vals = [x for x in xs if x is not None]
    return len(vals) == len(set(vals))


def _ascending(xs: list) -> bool:
    vals = [x for x in xs if x is not None]
    return all(a < b for a, b in zip(vals, vals[1:]))


def _distinct_nn(xs: list) -> bool:
    """`distinct` of values known never to be none."""
    return len(set(xs)) == len(xs)


def _charged(R: Any, xs: Any) -> Any:
    """Items a nested binding construct visits, counted against the work limit."""
    R.work += len(xs)
    if R.work > R.max_work:
        R.too_much_work()
    return xs


def _ascending_nn(xs: list) -> bool:
    return all(map(_lt, xs, xs[1:]))


def _distinct_values(xs: list) -> list:
    """The values in first-seen order, none left out (as builtins._distinct_values). A short
    list is compared in a loop: making a map for it costs more (a Trove's kinds: about 5,200
    instructions against 6,600 for 8 values, 2,900 against 5,000 for 3)."""
    if len(xs) < 12:
        out = []
        for x in xs:
            if x not in out and x is not None:  # (`in` compares as the map's keys do)
                out.append(x)
        return out
    try:
        out = list(dict.fromkeys(xs))
    except TypeError:  # a value that is a list
        out = []
        for x in xs:
            if x not in out:
                out.append(x)
    if None in out:
        out.remove(None)
    return out


def _last(xs: list) -> Any:
    return xs[-1] if xs else None


def _last_n(xs: list, n: int) -> list:
    return xs[-n:] if n else []


def _sum(R: Any, xs: list) -> Any:
    """`sum(xs)`, its items counted against the work limit (a sum inside a loop is charged per item)."""
    R.work += len(xs)
    if R.work > R.max_work:
        R.too_much_work()
    return sum(xs) if None not in xs else sum(x for x in xs if x is not None)


def _plus(a: Any, b: Any) -> Any:
    """`+=` on numbers (`Game.add`); texts join as texts."""
    if isinstance(a, str) or isinstance(b, str):
        return _scalar_text(a) + _scalar_text(b)
    return _add(a, b)


def _join_text(R: Any, a: Any, b: Any) -> str:
    """`+` with a text (as `Game.add`): bounded, and charged to the memory budget (runtime/memory.py)."""
    return built_value(R, _plus(a, b))


def _scalar_text(v: Any) -> str:
    """`Game.text` of a number, text, yes/no or none, or of a list of them (nested: `_built` bounds the depth)."""
    if isinstance(v, str):
        return v
    if isinstance(v, list):
        return "[" + ", ".join(_scalar_text(x) for x in v) + "]"
    if isinstance(v, bool):
        return "yes" if v else "no"
    return "none" if v is None else str(v)


def _first_n(xs: list, n: int) -> list:
    return xs[:n]


def _ends(rows: list) -> list:
    out = []
    for row in rows:
        out.append(row[0])
        if len(row) > 1:
            out.append(row[-1])
    return out


def _first(xs: list) -> Any:
    return xs[0] if xs else None


class GameRandom(random.Random):
    """A game's RNG: `random.Random`, its `shuffle` written with the per-item draw in place (the
    same swaps from the same bits as `Random.shuffle`, whose `_randbelow` is a Python call per
    item): a card game shuffles its decks in every game's setup."""

    def shuffle(self, x: list) -> None:
        getrandbits = self.getrandbits
        for i in reversed(range(1, len(x))):
            n = i + 1
            k = n.bit_length()
            j = getrandbits(k)  # (`Random._randbelow_with_getrandbits(n)`)
            while j >= n:
                j = getrandbits(k)
            x[i], x[j] = x[j], x[i]


def _random(rng: random.Random, xs: list) -> Any:
    return rng.choice(xs) if xs else None


def _pairs(xs: list) -> list:
    return list(zip(xs, xs[1:]))


def _is_type(types: list, c: Any, name: str) -> bool:
    return c is not None and types[c] == name


def _is_covered(covered: bytearray, c: Any) -> bool:
    return c is not None and bool(covered[c])


_ORDER = (operator.lt, operator.le, operator.gt, operator.ge)  # (C functions: `_ordered` is hot)


def _ordered(op: int, a: Any, b: Any) -> bool:
    """`<`, `<=`, `>`, `>=`: unknown values (a covered card's fields) never compare."""
    return a is not None and b is not None and _ORDER[op](a, b)


def _placeable(positions: Any, c: Any) -> bool:
    """`C can be placed in Z` of a computed card: `positions` is the zone's placement function."""
    return c is not None and bool(positions(c))


def _placeable_in(positions: Any, c: Any, zone: list) -> bool:
    return c is not None and bool(positions(c, zone))


def _card_or_none(v: Any) -> Any:
    """An item of a mixed list used as a card: a card id is a plain int (a player is a Seat)."""
    return v if type(v) is int else None


def _add(a: int, b: int) -> int:
    """`+` of numbers, bounded as `Game.add` bounds it (a number doubled each step would make
    every step slower long before the step limit)."""
    out = a + b
    if -MAX_INT <= out <= MAX_INT:
        return out
    raise RuleError(f"the number {a} + {b} is too large", None)


def _sub(a: int, b: int) -> int:
    out = a - b
    if -MAX_INT <= out <= MAX_INT:
        return out
    raise RuleError(f"the number {a} - {b} is too large", None)


def _value_label(v: Any) -> str:
    """`Game.label` of a value that is no card: a number, text, truth value or a list of them."""
    if isinstance(v, list):
        return "[" + ", ".join(_value_label(x) for x in v) + "]"
    return str(v)


def _value_labels(xs: list) -> list[str]:
    """The labels of a choice among values that are no cards (`choose x from [70, 80, 90]`)."""
    return [_value_label(x) for x in xs]


_LEFT = [Position(i, "left") for i in range(64)]
_RIGHT = [Position(i, "right") for i in range(64)]

_UNSET = object()  # a slot of a call evaluated once in a whole expression, not yet filled (directexpr.memo_calls)


def _memo_set(slots: list, i: int, v: Any) -> Any:
    slots[i] = v
    return v


def _moved_all(W: dict, cards: list, key: str, MV: list | None) -> None:
    """A whole plain zone's lone cards moved to zone `key` at once (direct.py `emit_move_all`): as
    the move of each card does it (its `where` entry taken out and put last, in order; the move
    noted once where card statistics follow the moves). Plain loops: `deque(map(W.pop, cards), 0)`
    and the like cost more instructions for the few cards a zone holds (callgrind: 34.04M against
    33.59M a 4-player game of a tableau ruleset)."""
    pop, put = W.pop, W.setdefault
    for c in cards:
        pop(c)
    for c in cards:
        put(c, key)
    if MV is not None:
        mover = W.mover
        MV.extend([(c, key, mover) for c in cards])


GENERATED_GLOBALS: dict[str, Any] = {
    "_UNSET": _UNSET, "_memo_set": _memo_set, "_moved_all": _moved_all,
    "_distinct": _distinct, "_ascending": _ascending, "_distinct_values": _distinct_values,
    "_Seat": Seat, "_charged": _charged, "_Decision": asked, "_MEMO_LIMIT": 200_000, "_first_n": _first_n, "_distinct_nn": _distinct_nn, "_ascending_nn": _ascending_nn, "_first": _first, "_random": _random, "_pairs": _pairs, "_is_type": _is_type,
    "_is_covered": _is_covered, "_ordered": _ordered, "_ends": _ends, "_mul": mul, "_add": _add, "_sub": _sub, "_LEFT": _LEFT, "_RIGHT": _RIGHT,
    "_NEW": Position(None, "new"), "_TOP": Position(None, "top"), "_last": _last, "_last_n": _last_n,
    "_sum": _sum, "_plus": _plus, "_join_text": _join_text, "_YESNO": [True, False], "_KPLACE": "place", "_KCHOOSE": "choose",
    "_card_or_none": _card_or_none, "_placeable": _placeable, "_placeable_in": _placeable_in, "type": type, "int": int, "_KMAY": "may", "_STOP": STOP, "_KSUBSET": "subset", "list": list, "len": len, "all": all, "any": any, "zip": zip, "sum": sum, "map": map,
    "range": range, "enumerate": enumerate, "bool": bool, "set": set, "dict": dict, "__builtins__": {},
}


def _cid(card: Any) -> Any:
    """A card kept in a stat (the card itself, as the task engine keeps it) as its id."""
    return None if card is None else card.id


def _cids(cards: Any) -> list:
    """Cards kept in a stat as their ids (none or another value: no cards)."""
    return [c.id for c in cards] if type(cards) is list else []


GENERATED_GLOBALS.update(FORMS_GLOBALS)
GENERATED_GLOBALS.update({"_cid": _cid, "_cids": _cids, "_ZoneRef": ZoneRef})
GENERATED_GLOBALS.update(PAIRS_GLOBALS)
GENERATED_GLOBALS.update(TUPLES_GLOBALS)
GENERATED_GLOBALS.update(MIXED_GLOBALS)
GENERATED_GLOBALS["_YESNO_LABELS"] = ["yes", "no"]  # a `may`'s options, as the task engine labels them
GENERATED_GLOBALS["_value_labels"] = _value_labels  # a choice among numbers, labelled by the numbers

GEN_FILE = "<grimoire direct>"  # the file name generated code is compiled under (direct.py)
ANYTHING = -1  # every bit set: what `touched = None` means in the task engine


def name_bits(rs: Any) -> dict[str, int]:
    """The bits of the names state-based rules read: the turn (`engine.PERIOD`), zone and stat
    names. Numbered first, so that generated code can use them whatever the player count."""
    out: dict[str, int] = {}
    for name in [PERIOD] + list(rs.zones) + list(rs.stats):
        if name not in out:
            out[_interned(name)] = 1 << len(out)
    return out


def _interned(v: Any) -> Any:
    """A name or text value kept as the one object of its value (`sys.intern`), as the generated
    code's constants are (direct.py `_interned`): a zone's, stat's or type's name, a die face, a card
    field's text. A map keyed by it then finds a constant's key by identity, not by comparing
    characters (the state's zones and stats, the tables below), and `==` of two such texts is one
    pointer test."""
    return sys.intern(v) if type(v) is str else v


def _bits(rs: Any, st: GameState) -> dict[str, int]:
    """One bit per name (`name_bits`), then per player's zone and stat instance (`pile#2`)."""
    out = name_bits(rs)
    names = list(st.zones) + [f"{name}#{p}" for name, sd in rs.stats.items() if sd.per_player
                              for p in range(st.players)] + [f"{PERIOD}#{p}" for p in range(st.players)]
    for name in names:
        if name not in out:
            out[_interned(name)] = 1 << len(out)
    return out


def _tables(dp: Any, st: GameState) -> dict:
    """Lookup tables for games of one ruleset and player count, made once and shared (read only)."""
    cache = dp.tables
    got = cache.get(st.players)
    if got is None:
        rs, rows_zones = dp.program.rs, dp.program.rows_zones
        key_name = {key: key.partition("#")[0] for key in st.zones}
        bits = _bits(rs, st)
        got = cache[st.players] = {
            "types": [_interned(c.type) for c in rs.cards], "all_ids": list(range(len(rs.cards))),
            "seats": [Seat(i) for i in range(st.players)], "others": {}, "key_name": key_name, "bits": bits,
            # what a change of each zone notes for settling: its name, and a player's zone its key too
            "tbit": {key: bits[name] | bits[key] for key, name in key_name.items()},
            # what a seat's becoming or ceasing to be the active player notes (`set_active`)
            "turn_bits": [bits[PERIOD] | bits[f"{PERIOD}#{p}"] for p in range(st.players)],
            "plain_keys": frozenset(k for k, name in key_name.items() if name not in rows_zones and
                                    rs.zones[name].kind != "board" and  # a board's cards lie on spaces
                                    name not in dp.program.grids),  # a card leaving a grid leaves its space
            "rows_keys": frozenset(k for k, name in key_name.items() if name in rows_zones),
            "fields": {}, "fire_plans": {}, "key_owners": {}, "whenever_held": {}, "ids_of": {},  # (`Runtime.fired`, `whenever_pending`)
            "own_zone_keys": {},  # (seat, dummy players) → its zones' keys: `own_zone_keys`
            "seat_keys": {}, "plan_bits": {},  # `player_keys`, `plan_bits_of` (copied where dummies join)
            # a grid's spaces, a space's neighbours (as spaces, and as indices in the grid): `CoverRuntime`
            "spaces": {}, "space_at": {}, "near": {}, "near_at": {}}
    return got


def _off_row(st: GameState, c: int, key: str) -> None:
    """Take lone card `c` out of its row in rows zone `key` (its `where` left as it is); an
    emptied row no longer exists."""
    rows = st.zones[key]
    for row in rows:
        if c in row:
            row.remove(c)
            if not row:  # (the one empty row: `index` finds it)
                r = rows.index(row)
                del _row_ids(st, key)[r]
                del rows[r]
            break


class Runtime(AbilityRuntime, FormsRuntime, BoardRuntime, CoverRuntime, CopyRuntime, StmtsRuntime):
    """One game's state operations, called by its generated functions (`R` in them)."""

    # What the generated code and the runtime read and write at nearly every statement (the
    # settle test, the step and work limits, the call depth, the state, seats, constants and stat
    # tables) lives in slots. An instance of more than 30 attributes has no shared-key dict, and
    # one whose `__dict__` was asked for (`self.__dict__.setdefault(...)` below) keeps its values
    # in that dict: Python 3.11 then reads each attribute through a hint into the dict
    # (LOAD_ATTR_WITH_HINT), not at a fixed place. A copy of the runtime copies the slots with its
    # `__dict__` (`take_slots`).
    __slots__ = ("touched", "steps", "work", "max_steps", "max_work", "depth", "max_depth", "settling", "built",
                 "state", "seats", "const", "stat_bits", "stat_bounds")

    def __init__(self, game: "DirectGame", dp: Any):
        program = dp.program
        self.game, self.program, self.rs = game, program, program.rs
        self.state: GameState = game.state
        self.limits: Limits = game.limits
        self.settling = False
        self.settle_stops = bool(dp.info.get("settle_stops"))  # `_settle` is a generator
        # what changed since the last settle, as bits (`bits`: a zone's or stat's name, and a
        # player's instance `pile#2`); ANYTHING when anything may have (a new setup, a start player)
        self.touched = 0
        self.steps = 0
        self.max_steps = self.limits.max_steps
        self.work = 0  # items visited, counted as directexpr.charged and direct.count_round say
        self.max_work = self.limits.max_work
        self.built = 0  # list items and text characters built (runtime/memory.py)
        self.max_depth = self.limits.max_depth
        self.depth = 0
        self.covered = bytearray(len(self.rs.cards))
        self.row_home: dict[int, str] = {}  # id of a row list → its zone's key (`move_to_row`)
        self.const: dict[str, Any] = {}
        self.rows_zones = program.rows_zones
        self.labels = dp.labels
        self.info = dp.info
        # tables that depend only on the ruleset and the player count: made once (`_tables`)
        t = _tables(dp, self.state)
        self.types, self.all_ids, self.seats, self._others = t["types"], t["all_ids"], t["seats"], t["others"]
        self.key_name, self.bits, self.tbit = t["key_name"], t["bits"], t["tbit"]
        self.plain_keys, self.rows_keys, self._fields = t["plain_keys"], t["rows_keys"], t["fields"]
        self.tables = t  # (and what the runtime finds once per ruleset and player count: `action_plan`)
        self._ids_of: dict = t["ids_of"]
        # a player's stat's bits for settling, by seat, then name: its name's and its instance's
        # (`touch_stat`); a dummy player's seat is numbered alike in every game of the ruleset, so
        # the table is shared. By seat in a list: a `Seat` (an int subclass) as part of a dict key
        # compares with the key's int only through int's rich comparison; as a list index it is fast
        self.stat_bits: list = t.setdefault("stat_bits", [])
        self.stat_bounds: dict = t.get("stat_bounds") or t.setdefault("stat_bounds", {  # the stats with a range: (lo, hi)
            _interned(name): (sd.lo, sd.hi) for name, sd in self.rs.stats.items() if sd.lo is not None or sd.hi is not None})
        if self.info.get("dummies"):  # `add_dummy` adds keys: this game's own table
            self.tbit = dict(self.tbit)

    # ---- tables the generated code binds once ---------------------------------------------
    def move_log(self) -> list | None:
        """Where card statistics follow this game's moves (its `where` a cardstats.ChangeLog), the
        list of events that the generated code appends a lone card's move to itself; else None
        (a copy's `where` is a plain map: copies are not tracked)."""
        where = self.state.where
        return None if type(where) is dict else where.events

    def player_zone(self, name: str) -> list:
        zones = self.state.zones
        out = [zones[k] for k in self._seat_keys(name)]  # (a copy's dummies: `_seat_keys`)
        if self.info.get("dummies"):
            self.bound_player_zone(name, out, None)
        return out

    def player_keys(self, name: str) -> list:
        if self.info.get("dummies"):  # `add_dummy` grows this game's list: its own copy
            out = list(self._seat_keys(name))
            self.bound_player_zone(name, None, out)
            return out
        return self._seat_keys(name)

    def _seat_keys(self, name: str) -> list:
        """A player zone's key per seat, made once per ruleset and seat count (read only: the
        generated code binds it per game, `_bind_again`)."""
        n = self.state.players + self.state.dummies
        got = self.tables["seat_keys"].get((name, n))
        if got is None:
            got = self.tables["seat_keys"][(name, n)] = [_interned(f"{name}#{p}") for p in range(n)]
        return got

    def field_table(self, name: str) -> list:
        got = self._fields.get(name)
        if got is None:
            cards = self.rs.cards
            got = self._fields[name] = [_interned(c.fields.get("name", c.name)) for c in cards] if name == "name" else \
                [_interned(c.fields.get(name)) for c in cards]
        return got

    # ---- settling ------------------------------------------------------------------------
    def touch(self, key: str) -> None:
        """Note that a zone (by key: `name` or `name#owner`) changed, for settling: its name, and
        for a player's own zone its instance too (analysis/playerplans.py)."""
        self.touched |= self.tbit[key]

    def touch_stat(self, name: str, player: int | None = None) -> None:
        if player is None:
            self.touched |= self.bits[name]
            return
        try:
            self.touched |= self.stat_bits[player][name]
        except (IndexError, KeyError):
            self.touched |= self._pstat_bits(name, player)

    def _pstat_bits(self, name: str, player: int) -> int:
        """A player's stat's bits for settling: its name's and its instance's, found once."""
        if player < 0:  # (no seat: the bits' own error, as before)
            return self.bits[f"{name}#{int(player)}"]
        by_seat = self.stat_bits
        while len(by_seat) <= player:
            by_seat.append({})
        got = by_seat[player][name] = self.bits[name] | self.bits[f"{name}#{int(player)}"]
        return got

    def _touch_card(self, c: int) -> None:
        where = self.state.where
        at = where.get(c)
        while at is not None and at[0] == "^":
            at = where.get(int(at[1:]))
        if at is not None:
            self.touch(at)

    def take_slots(self, other: "Runtime") -> None:
        """`other`'s slot attributes (`__slots__`), which a copy of its `__dict__` leaves out."""
        for name in Runtime.__slots__:
            setattr(self, name, getattr(other, name))

    def new_period(self) -> bool:
        """A turn or round begins (`Game.new_period`): settle, or, where state-based rules can stop
        for a decision (`settle_stops`), return True: the caller runs `yield from R.settle()`."""
        self.touched |= self.bits[PERIOD]
        if not self.settling:
            if self.settle_stops:
                return True
            self.settle()
        return False

    def settle(self) -> None:
        """Replaced by the ruleset's own generated `_settle` (direct.py, `settle_function`)."""
        raise NotImplementedError

    def endless_settling(self, changer: int) -> None:
        nodes = [a[2] for a in self.info["always"]] + [w[3] for w in self.info["watchers"]]
        node = nodes[changer] if changer >= 0 else nodes[0]
        raise LimitExceeded(f"state-based rules keep changing the state after "
                            f"{self.limits.max_settle_passes} passes (endless loop?)", node.loc)

    def plan_bits_of(self, zones: tuple) -> list:
        """Per seat, the bits of its instances of a per-player rule's zones and stats (`pile#2`),
        and the turn's bit (PERIOD) in every seat's where the rule reads whose turn it is: a
        new turn runs it for every player (analysis/playerplans.py)."""
        key = (zones, len(self.seats))
        got = self.tables["plan_bits"].get(key)  # the same every game of a ruleset and seat count
        if got is None:
            got = self.tables["plan_bits"][key] = [self.plan_seat_bits(zones, s) for s in self.seats]
        if self.info.get("dummies"):  # `add_dummy` adds the new seat's bits: this game's own list
            got = list(got)
            self.__dict__.setdefault("_plan_bits", []).append((zones, got))
        return got

    def plan_seat_bits(self, zones: tuple, seat: int) -> int:
        """One seat's bits for a per-player rule reading `zones` (`plan_bits_of`); where it reads
        only whether it is that seat's turn (`playerplans.SEAT_TURN`), the bit `set_active`
        notes for the seat (none for a dummy player, who is never active)."""
        bits, m = self.bits, 0
        for z in zones:
            m |= bits[PERIOD] if z == PERIOD else bits.get(f"{PERIOD}#{int(seat)}", 0) if z == SEAT_TURN \
                else bits[f"{z}#{int(seat)}"]
        return m

    def set_active(self, p: int) -> None:
        """The active player becomes seat `p`: for settling, whose turn it is changed for the
        seat that was active and for `p` (a per-player rule comparing its player with `you`
        runs for those two only, analysis/playerplans.py)."""
        st = self.state
        old = st.active
        st.active = p
        if old != p:
            turn = self.tables["turn_bits"]
            self.touched |= turn[p] | (turn[old] if 0 <= old < len(turn) else ANYTHING)

    # ---- limits ----------------------------------------------------------------------------
    def runaway(self) -> None:
        """A loop passed the step or work limit (the task engine's messages)."""
        if self.steps > self.max_steps:
            raise LimitExceeded(f"more than {self.max_steps} steps: a rule seems to run forever", None)
        self.too_much_work()

    def too_much_work(self) -> None:
        raise LimitExceeded(f"expressions visited more than {self.max_work} items: a rule seems to run forever",
                            None)

    # ---- card movement ---------------------------------------------------------------------
    def _take(self, c: int, back: bool = False) -> None:
        """Take card `c` out of its place, as zones.take_out, keeping the covered flags. `back`:
        the caller puts it somewhere at once and notes that move, so card statistics need no
        event for a lone card taken out (cardstats.ChangeLog)."""
        st = self.state
        self.grid_version += 1  # a grid's cards may have changed (`CoverRuntime.card_at`)
        at = st.where[c]
        if c not in st.under and at in self.rows_keys:  # a lone card off a row
            _off_row(st, c, at)
            where = st.where
            where.pop(c)  # dict's own (no ChangeLog hook); a followed map notes the card taken out
            if not back and type(where) is not dict:
                where.taken_out(c)
            return
        below = st.under.get(c)
        new_top = below[-1] if below else None
        _take_out(st, c, self.rows_zones)
        self.covered[c] = 0
        if new_top is not None:
            self.covered[new_top] = 0

    def one(self, c: Any) -> list:
        return [] if c is None else [c]

    def cards_of(self, zone: list, rows: bool) -> list:
        return [x for r in zone for x in r] if rows else list(zone)

    def prefix_restored(self) -> bool:
        """The setup's prefix laid out from the first game's (setupmemo.py)."""
        return setupmemo.restored(self)

    def prefix_recorded(self) -> None:
        setupmemo.recorded(self)

    def not_a_card(self) -> None:
        raise RuleError("only cards can be moved, not none", None)

    def take_any(self, c: int, at: str) -> None:
        """Take a card out of `at`, where it lies (its `where`, which the generated move has read;
        never none), noting its zone as changed. (`_touch_card` written out for a card on top, and
        `_take`'s first case, a lone card off a row, here: the common case, about 200 a game in a
        tableau.)"""
        st = self.state
        if at in self.rows_keys and c not in st.under:
            self.touched |= self.tbit[at]
            self.grid_version += 1
            _off_row(st, c, at)
            st.where.pop(c)  # dict's own (no ChangeLog hook): put back by the generated code
            return
        if at[0] == "^":
            self._touch_card(c)
        else:
            self.touched |= self.tbit[at]
        self._take(c, True)  # (put back by the generated code: `emit_move_one`)

    def mark_under(self, c: int) -> None:
        """The cards under `c` lie under it wherever it went (as zones.put)."""
        where, mark = self.state.where, f"^{c}"
        for b in self.state.under[c]:
            where[b] = mark

    def cannot_place(self, c: int, zone: str) -> None:
        raise RuleError(f"{self.labels[c]} cannot be placed in {zone}", None)

    def place_prompt(self, c: int) -> str:
        return f"Where does {self.labels[c]} go?"

    def place(self, c: int, key: str, pos: Position) -> None:
        """`place c in` a rows zone at `pos` (as `Game.place`: zones.take_out, then zones.put)."""
        st = self.state
        where = st.where
        at = where.get(c)
        tbit = self.tbit
        if at in self.plain_keys and c not in st.under:  # a lone card off a plain list
            self.touched |= tbit[at]  # (`touch` written out here and below: a move into a row)
            src = st.zones[at]
            del src[src.index(c)]
            where.pop(c)  # as zones.take_out: its entry goes last (the narration's order)
        elif at is not None:
            self._touch_card(c)
            self._take(c, True)
        rows = st.zones[key]
        if pos.side == "new" or not rows:
            ids = st.row_ids.get(key)
            if ids is None or len(ids) != len(rows):
                ids = _row_ids(st, key)
            rows.append([c])
            ids.append(st.next_row_id)  # as zones.row_ids numbers a new row
            st.next_row_id += 1
        elif pos.side == "left":
            rows[pos.row].insert(0, c)
        else:
            rows[pos.row].append(c)
        below = st.under.get(c)
        if below:
            where[c] = key
            for b in below:
                where[b] = f"^{c}"
        else:  # a lone card, out of `where` now: put and noted as the generated code's moves do
            where.setdefault(c, key)  # (direct.py, `emit_move_one`: no ChangeLog hook)
            if type(where) is not dict:
                where.events.append((c, key, where.mover))
        self.touched |= tbit[key]

    def cover(self, c: Any, target: Any) -> None:
        st = self.state
        self.grid_version += 1
        if c is None or target is None:
            raise RuleError("`place X on Y` needs two cards", None)
        if c == target:
            raise RuleError(f"{self.labels[c]} cannot lie on itself", None)
        if target not in st.where:
            raise RuleError(f"{self.labels[target]} is not in play", None)
        if st.where[target].startswith("^"):
            raise RuleError(f"{self.labels[target]} is covered already", None)
        self._touch_card(c)
        self._touch_card(target)
        if c in st.where:
            self._take(c)
        _cover(st, c, target, self.rows_zones)
        for b in st.under[c]:
            self.covered[b] = 1

    def under_of(self, cards: list) -> list:
        under = self.state.under
        out: list = []
        for c in cards:
            if c is not None:
                out.extend(reversed(under.get(c, ())))
        return out

    def under_one(self, c: Any) -> list:
        """`cards_under(c)` of one card: top first."""
        below = self.state.under.get(c)
        return below[::-1] if below else []

    def rows(self, zone: list, key: str) -> list:
        ids = self.state.row_ids.get(key)
        if ids is None or len(ids) != len(zone):
            _row_ids(self.state, key)  # as the engine's `rows()`, which numbers the rows
        home = self.row_home
        for row in zone:  # for `move_to_row` of a row that empties (a few rows: hot in tableau games)
            home[id(row)] = key
        return list(zone)

    def other_players(self, you: Any) -> list:
        """`other_players()`: the others in turn order after `you` (one list per seat, made once:
        generated code never changes a list it did not make)."""
        if self.state.dummies:
            return self.others_with_dummies(you)
        start = you if you is not None else self.state.active
        if self.state.dummies:  # `_other_players` with dummy seats
            return self.others_with_dummies(start)
        got = self._others.get(start)
        if got is None:
            n = self.state.players
            got = self._others[start] = [Seat((start + k) % n) for k in range(1, n)]
        return got

    # ---- stats -----------------------------------------------------------------------------
    def set_stat(self, name: str, v: Any) -> None:
        sd = self.rs.stats[name]
        v = sd.clamp(v) if isinstance(v, int) else v
        stats = self.state.stats
        if stats[name] is not v and (stats[name] != v or type(stats[name]) is not type(v)):
            stats[name] = v
            self.touch_stat(name)

    def set_pstat(self, p: int, name: str, v: Any) -> None:
        bounds = self.stat_bounds.get(name)
        if bounds is not None and isinstance(v, int):  # `StatDef.clamp` written out: hot in dice games
            lo, hi = bounds
            if lo is not None and v < lo:
                v = lo
            elif hi is not None and v > hi:
                v = hi
        stats = self.state.pstats[p]
        old = stats[name]
        if old is not v and (old != v or type(old) is not type(v)):
            stats[name] = v
            try:
                self.touched |= self.stat_bits[p][name]
            except (IndexError, KeyError):  # (the first time for this seat and stat in the ruleset)
                self.touched |= self._pstat_bits(name, p)

    def card_obj(self, c: Any) -> Any:
        """The card with id `c` (none: none), to keep in a stat."""
        return None if c is None else self.rs.cards[c]

    def card_objs(self, ids: list) -> list:
        return [self.rs.cards[c] for c in ids]

    def set_start(self, v: Any) -> None:
        self.state.start_player = int(v)
        self.touched = ANYTHING

    def end_game(self, after: str | None) -> None:
        if after is None:
            raise GameOver()
        if self.state.ending != "turn":
            self.state.ending = after

    def text(self, v: Any) -> str:
        return v if isinstance(v, str) else str(v)

    def log_text(self, v: Any, kind: str) -> None:
        """`log`: the value as `Game.text` writes it (cards by their labels)."""
        write_log(self.game, self._text(v, kind), self.limits)

    def log_items(self, values: tuple, kinds: tuple) -> None:
        """`log [a, b, ...]`: each item as `Game.text` writes it, by its own kind."""
        write_log(self.game, "[" + ", ".join(self._text(v, k) for v, k in zip(values, kinds)) + "]", self.limits)

    def _text(self, v: Any, kind: str) -> str:
        if kind == "value":  # a list or map mixing cards with other values (directmixed.py)
            return value_text(self, v)
        if kind == "card" and v is not None:
            return self._label(v)
        if kind.startswith("map:card") and isinstance(v, dict):  # a simultaneous choice's cards by player
            return "{" + ", ".join(f"{k}: {self._label(c) if c is not None else c}" for k, c in v.items()) + "}"
        if kind == "cards":
            return "[" + ", ".join(self._label(c) for c in v) + "]"
        if kind == "cardlists":  # lists of cards (directpairs.py)
            return "[" + ", ".join(self._text(xs, "cards") for xs in v) + "]"
        if isinstance(v, list):
            return "[" + ", ".join(_scalar_text(x) for x in v) + "]"
        return _scalar_text(v)

    # ---- decisions and events ---------------------------------------------------------------
    def nothing_to_choose(self) -> None:
        raise RuleError("there is nothing to choose from", None)

    def player_or_active(self, player: Any) -> int:
        """The player who answers: the active one for none or a dummy player (`Game.ask`)."""
        return self.state.active if player is None or player >= self.state.players else player

    def too_deep(self) -> None:
        raise LimitExceeded(f"procedures and triggers nest deeper than {self.limits.max_depth} "
                            f"(endless recursion?)", None)

    def label(self, v: Any) -> str:
        return self._label(v)

    def _label(self, v: Any) -> str:
        if v is True or v is False:  # a yes/no question's options (the task engine's labels)
            return "yes" if v else "no"
        if self.state.faces and v in self.state.faces and not isinstance(v, (bool, Seat)):
            return f"{self.rs.cards[v].name} #{v + 1} showing {self.state.faces[v]}"  # `Game.label` of a die
        if isinstance(v, int) and not isinstance(v, (bool, Seat)) and 0 <= v < len(self.labels):
            return self.labels[v]
        if isinstance(v, list):
            return self.row_label(v) + ", ".join(self.labels[c] for c in v)
        if type(v) is tuple:  # (not a grid `Space`, itself a named tuple) a walk over board spaces (directboards.py), as `Game.label` of a list
            return "[" + ", ".join(self._label(c) for c in v) + "]"
        return str(v)

    def ids_of(self, types: str) -> list[int]:
        """The ids of the cards of `types` (card or die type names, space-separated), in the
        cards' order: what `all_cards() where it is T ...` walks (directexpr.py `types_tested`);
        read only."""
        got = self._ids_of.get(types)
        if got is None:
            ty, names = self.types, frozenset(types.split(" "))
            got = self._ids_of[types] = [i for i in self.all_ids if ty[i] in names]
        return got

    def fire(self, event: str, subject: Any, actor: Any) -> Iterator[Decision]:
        """`FireTask`: the subject card's own triggers, then the rules' triggers; a trigger whose
        condition is false does not answer; the active player orders several."""
        yield from self.run_fired(event, self.fired(event, subject, actor))

    def fired(self, event: str, subject: Any, actor: Any) -> list:
        """The triggers answering an event now (`Game.fire_task`: conditions are tested when the
        event fires, e.g. `turn_start` before the new turn's settling runs), as (function,
        arguments, node) and, for a card's `whenever`, its card's name (`run_fired` labels them)."""
        return self.fired_from(event, (subject,), 0, actor)[1] or []

    def fired_from(self, event: str, subjects: Any, i: int, actor: Any) -> tuple:
        """`fired` for `subjects[i]`, then for each next one while no trigger answers: (the index
        of the first subject some trigger answers, its triggers), or (the length, None) when
        none does. A roll fires `rolled` on each die in turn, and a die's triggers run before the
        next die's conditions are tested: the generated code asks again from the next die once
        they have run (`fire_in_turn`, directstmts.py), so a roll makes one call where no die
        has a trigger, not one per die. Conditions change nothing, so which `whenever` cards are
        in play is found once per call."""
        plan = self.tables["fire_plans"].get(event)
        if plan is None:
            plan = self._fire_plan(event)
        cards, rule, whenever, single = plan  # (looked up once per call)
        held = self.whenever_held(event) if whenever else None
        fns = self.game.fns
        you = self.seats[actor] if actor.__class__ is Seat and actor < len(self.seats) else \
            Seat(actor) if actor is not None else Seat(self.state.active)
        n = len(subjects)
        if single is not None:
            # one rule's trigger with a condition, and none of the cards' own (a roll's `rolled`
            # in a dice game): the loop below for that case, its condition asked per subject,
            # then the `whenever` cards in play
            name, cond, binder, node = single
            test = fns[cond]
            while i < n:
                subject = subjects[i]
                try:  # (a condition's Python failure named at its trigger, as below)
                    hit = test(you, subject, subject) if binder else test(you, subject)
                except RuleError:
                    raise
                except Exception as ex:
                    raise condition_error(ex, node) from None
                if hit:
                    pending = [(fns[name], (you, subject, subject) if binder else (you, subject), node)]
                    if held:
                        pending += self.whenever_answers(held, subject)
                    return i, pending
                if held:
                    pending = self.whenever_answers(held, subject)
                    if pending:
                        return i, pending
                i += 1
            return i, None
        copies = self.info["copies"]
        while i < n:
            subject = subjects[i]
            if subject is not None:
                handlers = cards.get(subject, ()) if cards else ()
                if copies:  # a copying card: the copied card's too (directcopies.py)
                    handlers = self.copied_triggers(event, subject, handlers)
                if rule:
                    handlers = list(handlers) + rule if handlers else rule
            else:
                handlers = rule
            pending = []
            if handlers:
                for name, cond, binder, node in handlers:
                    args = (you, subject, subject) if binder else (you, subject)
                    if cond is not None:
                        try:  # (in place, as in `whenever_answers`: a dice game tests one per die rolled)
                            if not fns[cond](*args):
                                continue
                        except RuleError:
                            raise
                        except Exception as ex:
                            raise condition_error(ex, node) from None
                    pending.append((fns[name], args, node))
            if held:  # cards in play answering any card's event (directabilities.py)
                pending += self.whenever_answers(held, subject)
            if pending:
                return i, pending
            i += 1
        return i, None

    def _fire_plan(self, event: str) -> tuple:
        """An event's (cards' own triggers by card, the rules' triggers, whether `whenever`
        triggers answer it, the one rule trigger with a condition where no card's own trigger
        answers: `fired_from`'s loop of its own), found once per ruleset (`tables["fire_plans"]`)."""
        info = self.info
        cards, rule = info["card_triggers"].get(event, _NO_TABLE), info["rule_triggers"].get(event)
        single = rule[0] if not cards and not info["copies"] and rule and len(rule) == 1 and rule[0][1] is not None \
            else None
        plan = self.tables["fire_plans"][event] = (cards, rule, event in info["whenever"], single)
        return plan

    def run_fired(self, event: str, pending: list) -> Iterator[Decision]:
        """Run the triggers `fired` found, the active player ordering several (`FireTask`)."""
        while pending:
            if len(pending) > 1:
                labels = [trigger_label(h[3], h[2].loc) if len(h) > 3 else self._source(h[2], h[1][1]) for h in pending]
                i = yield Decision(int(self.state.active), "order", f"Which `{event}` effect first?",
                                   list(range(len(pending))), labels, None)  # the driver counts it
                fn, args = pending.pop(i)[:2]
            else:
                fn, args = pending.pop()[:2]
            yield from fn(*args)

    def _source(self, node: Any, subject: Any) -> str:
        """A trigger's label when the active player orders several (as `Game.fire_task`)."""
        cards = self.info["card_triggers"]
        if subject is not None and any(node is h[3] for t in cards.values() for h in t.get(subject, ())):
            return trigger_label(self.rs.cards[subject].name, node.loc)
        return trigger_label(None, node.loc)


_NO_TABLE: dict = {}


def _cells_of(fns: dict, names: tuple, dp: Any = None) -> list:
    """The cells of `build`'s locals `names` that its functions `fns` close over (None for a
    name no function reads), found through every function they reach: the exported ones, those
    they call and those in dispatch tables. The way to each (which function's closure, reached
    from which exported one) is the same in every game of `dp`'s functions: kept on `dp` the first
    time (`dp.cell_paths`), followed after (`_follow`; the walk of every function cost 0.1-0.25
    ms, the second game of each batch)."""
    paths = dp.__dict__.get("cell_paths") if dp is not None else None
    if paths is not None:
        cells = _follow(fns, paths, len(names))
        if cells is not None:
            return cells
    found: dict = {}
    seen: set = set()
    todo: list = [(f, (key,)) for key, f in fns.items()]
    where: dict = {}  # function → its path from `fns`: (export key, (closure index, table key or None)...)
    while todo:
        f, path = todo.pop()
        if id(f) in seen or f.__class__ is not _FUNCTION:
            continue
        seen.add(id(f))
        for i, (name, cell) in enumerate(zip(f.__code__.co_freevars, f.__closure__ or ())):
            if name not in found:
                found[name] = cell
                where.setdefault(id(f), (path, f.__code__, []))[2].append((i, name))
            try:
                v = cell.cell_contents
            except ValueError:  # (not bound yet)
                continue
            if v.__class__ is _FUNCTION:
                todo.append((v, path + ((i, None),)))
            elif v.__class__ is dict:
                todo += [(x, path + ((i, k),)) for k, x in v.items() if x.__class__ is _FUNCTION]
    if dp is not None:
        place = {n: j for j, n in enumerate(names)}
        dp.cell_paths = [(path, code, [(i, place[n]) for i, n in picks if n in place])
                         for path, code, picks in where.values()]
    return [found.get(n) for n in names]


def _follow(fns: dict, paths: list, count: int) -> list | None:
    """The cells `_cells_of` found, by the paths it kept; None where a path does not lead to a
    function of the same code (then the walk finds them)."""
    cells: list = [None] * count
    try:
        for path, code, picks in paths:
            f = fns[path[0]]
            for i, key in path[1:]:
                f = f.__closure__[i].cell_contents
                if key is not None:
                    f = f[key]
            if f.__code__ is not code:
                return None
            closure = f.__closure__
            for i, j in picks:
                cells[j] = closure[i]
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        return None
    return cells


_FUNCTION = type(_cells_of)


def _in_range(choose: Callable[[Any, Decision], int]) -> Callable[[Any, Decision], int]:
    """A seat's `choose` whose answer is checked against the decision's options: an agent's bad
    answer is its bug, reported as such, not a rule failing at some later line."""
    def checked(game: Any, d: Decision) -> int:
        i = choose(game, d)
        if not 0 <= i < len(d.options):
            raise ValueError(f"choice {i} is out of range 0..{len(d.options) - 1}")
        return i
    return checked


class DirectGame(DirectFacade):
    """One game of a direct-compiled ruleset. Drive it with `decision` / `answer` until `over`."""

    def __init__(self, dp: Any, players: int, seed: Any = 0, limits: Limits | None = None,
                 after_setup: Any = None, log_moves: bool = False, record_digests: bool = False,
                 observer: Any = None, reuse: Any = None):
        """`record_digests`: keep the state's digest at each decision (sessions' logs and saves).
        `reuse`: a finished game of the same program whose generated functions this game takes
        over (`_functions`); it must not be used again (taken over, it is emptied).
        `observer`: told of each turn's start (and, by the observed form of the code, directobserved.py,
        of decisions taken without asking and of shuffles), from the setup on.
        `log_moves`: the state's `where` notes which cards moved (cardstats.ChangeLog), so that a
        card tracker's looks cost what moved, not what is in play."""
        program = dp.program
        rs = program.rs
        rs.check_players(players)
        self.dp, self.program, self.rs = dp, program, rs
        self.limits = limits or Limits()
        self.cards = rs.cards
        st = self.state = GameState(seed=seed, players=players, rng=GameRandom(seed))
        if log_moves:
            st.where = ChangeLog()
        for name, z in rs.zones.items():  # (the keys as the one object of their text: `_interned`)
            if z.per_player:
                for p in range(players):
                    st.zones[_interned(f"{name}#{p}")] = []
            else:
                st.zones[_interned(name)] = []
        st.pstats = [{} for _ in range(players)]
        st.watch = [False] * len(rs.watchers)
        first = program.__dict__.get("first_faces")  # every die shows its first face (`Game._init_state`)
        if first is None:
            first = program.first_faces = {card.id: program.die_faces[card.type][0] for card in rs.cards
                                           if card.type in program.die_faces}
        st.faces.update(first)
        self.choices: list[int] = []
        self.log: list[str] = []
        self.log_chars = 0
        self.decision: Decision | None = None
        self.over = False
        self.error: RuleError | None = None
        self.result: dict | None = None
        self.decisions_made = 0
        self.first_player = 0
        self._after_setup = after_setup  # e.g. the card tracker's first look (cardstats.py)
        if record_digests:
            self.record_digests = True
        if observer is not None:
            self.observer = observer
        if reuse is not None:
            self._reused = reuse
        self._start()

    def _start(self) -> None:
        """Bind the generated functions to this game and run to its first decision (replaced by
        the resumable form, resumablegame.py)."""
        self.R = Runtime(self, self.dp)
        self.fns = self._functions(self.R)
        self.R.settle = self.fns["_settle"]
        self._gen = self._main()
        self._advance(None)

    def _functions(self, R: Any) -> dict:
        """The generated functions bound to `R` and this game's state: made by `build`, or (with
        `reuse`) a finished game's own, its closures' cells set to this game's values by
        `bind_again` (direct.py) — the same functions as `build` would make, without making
        hundreds of closures for each game of a batch. Only a game that ended without an error,
        its flow run to the end, gives its functions: no generator of it is left suspended to
        run a `finally` later, which would now act on this game."""
        dp, old = self.dp, self.__dict__.pop("_reused", None)
        again = dp.bind_again
        if (again is None or old is None or old.__class__ is not DirectGame or self.__class__ is not DirectGame
                or old.dp is not dp or not old.over or old.error is not None or old._gen.gi_frame is not None
                or "fns" not in old.__dict__):
            return dp.build(R, dp.K)
        fns = old.__dict__.pop("fns")  # (the finished game no longer has them)
        cells = old.__dict__.pop("_cells", None) or _cells_of(fns, again[1], dp)
        for cell, v in zip(cells, again[0](R, dp.K)):
            if cell is not None:
                cell.cell_contents = v
        self._cells = cells
        # the finished game is left a husk: its runtime, state and move log, which refer to each
        # other (the runtime names its game), are freed now by their counts, not left as some 50
        # cyclic objects a game for the collector to find (each collection walks the young heap)
        old.__dict__.clear()
        return fns

    @property
    def steps(self) -> int:
        return self.R.steps

    @property
    def seats(self) -> list[Seat]:
        return self.R.seats

    # ---- driving -----------------------------------------------------------------------------
    def answer(self, index: int) -> None:
        """Answer the pending decision with the index of one of its options."""
        record_answer(self, index)
        self._advance(index)

    def play_out(self, seats: list, look: Any = None, marks: Any = None) -> None:
        """Play to the end, each decision answered by its seat's agent (`look(game)` first, if
        given, until it returns True: it has nothing more to do): `answer` in a loop, without a
        call per decision. `marks`: card statistics' move log (`cardstats.ChangeLog`), told each
        decision's player before it is answered (`decide`: each move then notes whose answer moved
        it, read at the end, not by a call of the tracker per decision)."""
        if self.decision is None:
            return
        self._advance(None, seats, look, marks)

    def _advance(self, value: Any, seats: list | None = None, look: Any = None, marks: list | None = None) -> None:
        """Send `value` (None: the first answer comes from `seats`), then, with `seats`, answer
        every decision until the game ends."""
        gen, choices = self._gen, self.choices
        try:
            if seats is None:
                self.decision = gen.send(value)
                if self.decision is not None and self.decisions_made >= self.limits.max_decisions:
                    self._too_many_decisions()
                self.note_digest()
                return
            d = self.decision
            limit = self.limits.max_decisions
            # (each seat's method found once, not per decision; one whose answers are not known to
            # be in range, checked by a wrapper: random seats, most of a batch, skip the test)
            choose = [seat.choose if getattr(seat, "answers_in_range", False) else _in_range(seat.choose)
                      for seat in seats]
            send = gen.send
            while True:
                if self.decisions_made >= limit:
                    self._too_many_decisions()
                if look is not None and look(self):
                    look = None
                if marks is not None:  # (`ChangeLog.decide`, written out where no card was taken out)
                    if marks.out:
                        marks.decide(d.player)
                    else:
                        marks.mover = marks.seat_movers[d.player]
                i = choose[d.player](self, d)
                choices.append(i)
                self.decisions_made += 1
                self.decision = None
                d = self.decision = send(i)
        except StopIteration:
            self.over = True
            self.decision = None
            return
        except RuleError as err:
            if err.loc is None:
                err = type(err)(err.message, self._where(err))
            self._fail(err)
        except RecursionError as ex:
            self._fail(LimitExceeded("rules nest too deeply", self._where(ex)))
        except UnboundLocalError as ex:  # a variable set only on some paths (as compiler.py says it)
            local = getattr(ex, "name", None) or next(iter(re.findall(r"'(_\w+)'", str(ex))), None)
            name = self.dp.info["var_names"].get(local, "?")
            self._fail(RuleError(f"`{name}` has no value here", self._where(ex)))
        except ValueError as ex:
            if self.decision is not None:  # an agent's bad answer: its bug, not the rules'
                raise
            self._fail(RuleError.of(ex, self._where(ex)))
        except Exception as ex:  # a content bug surfacing as a Python error: name the rule
            self._fail(RuleError.of(ex, self._where(ex)))

    def _too_many_decisions(self) -> None:
        """`Limits.max_decisions` passed (the task engine's `Game.ask` message), named at the rule
        that asks the pending decision."""
        raise LimitExceeded(f"more than {self.limits.max_decisions} decisions: the game does not seem to end",
                            self._where_suspended())

    def _where_suspended(self):
        """The rule asking the pending decision: the innermost generated frame now suspended."""
        loc, g = None, self._gen
        while g is not None:
            frame = getattr(g, "gi_frame", None)
            if frame is not None and frame.f_code.co_filename == GEN_FILE:
                i = frame.f_lineno - 1
                if 0 <= i < len(self.dp.lines) and self.dp.lines[i] is not None:
                    loc = self.dp.lines[i]
            g = getattr(g, "gi_yieldfrom", None)
        return loc

    def _where(self, ex: BaseException):
        """The rule whose generated line raised `ex` (the innermost one in the traceback)."""
        loc = None
        tb = ex.__traceback__
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == GEN_FILE:
                i = tb.tb_lineno - 1
                if 0 <= i < len(self.dp.lines) and self.dp.lines[i] is not None:
                    loc = self.dp.lines[i]
            tb = tb.tb_next
        return loc

    def _variables(self, ex: BaseException) -> tuple[dict, dict]:
        """The rule variables of the innermost generated function that `ex` passed through, as
        rule values (a card id of a `card` variable as the card), for blame.py to read; a
        variable of a kind not given back here is left out (blame then names no value for it);
        and each variable's kind."""
        frame, tb = None, ex.__traceback__
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == GEN_FILE:
                frame = tb.tb_frame
            tb = tb.tb_next
        if frame is None:
            return {}, {}
        names, kinds, cards = self.dp.info["var_names"], self.dp.info.get("var_kinds", {}), self.cards
        env, told = {}, {}
        params = self.dp.info.get("params", {})  # `you`, `this`, arguments (a lowered step: `NAME_Q_step`)
        own = params.get(frame.f_code.co_name) or params.get(frame.f_code.co_name.split("_Q_")[0], {})
        for py, v in frame.f_locals.items():
            name, kind = own[py] if py in own else (names.get(py), kinds.get(py))
            if name is None:
                continue
            if kind is not None:
                told[name] = kind
            if v is None or kind in ("int", "str", "bool"):
                env[name] = v
            elif kind == "player" and type(v) is not bool:
                env[name] = Seat(v)
            elif kind == "card" and type(v) is int:
                env[name] = cards[v]
            elif kind == "cards" and type(v) is list:
                env[name] = [cards[c] for c in v]
            elif kind == "list" and type(v) is list:  # plain values (numbers, texts)
                env[name] = list(v)
        return env, told

    def _fail(self, err: RuleError) -> None:
        if err.cause is not None:  # a Python failure: say which part of the rule held which value
            if err.env is not None:
                err = rule_terms(self, err, err.env)
            else:
                env, kinds = self._variables(err.cause)
                err = rule_terms(self, err, env, kinds)
        self.error = err
        self.over = True
        self.decision = None

    # ---- the game's flow (MainTask, RoundTask, TurnTask) --------------------------------------
    def _main(self) -> Iterator[Decision]:
        R, st, fns, info, rs = self.R, self.state, self.fns, self.dp.info, self.rs
        for name, fname in info["consts"]:
            R.const[name] = fns[fname](None)
        for name, sd in rs.stats.items():
            init = info["stat_inits"].get(name)
            default = sd.lo if sd.lo is not None else 0
            if sd.per_player:
                for p in self.seats:
                    v = fns[init](p) if init else default
                    st.pstats[p][_interned(name)] = sd.clamp(v) if isinstance(v, int) else v
            else:
                v = fns[init](None) if init else default
                st.stats[name] = sd.clamp(v) if isinstance(v, int) else v
        R.settling = True
        if info["funcs"].get("setup"):
            yield from fns[info["funcs"]["setup"]](None)
        if self._after_setup is not None:
            self._after_setup(self)
        self.first_player = st.start_player
        R.settling = False
        for i, (cond, _, _, _) in enumerate(info["watchers"]):
            st.watch[i] = bool(fns[cond](Seat(st.active)))
        R.touched = ANYTHING
        if R.settle_stops:
            yield from R.settle()
        else:
            R.settle()
        events = set(info["rule_triggers"]) | set(info["card_triggers"]) | set(info["whenever"])
        turn = fns[info["funcs"]["turn"]] if info["funcs"].get("turn") else None
        try:
            if info["funcs"].get("round") or info["funcs"].get("play"):  # the flow as MainTask runs it
                yield from R.play_game()
            while True:
                st.round_number += 1
                if st.round_number > self.limits.max_turns:
                    raise LimitExceeded(f"the game did not end within {self.limits.max_turns} rounds", R.flow_loc("round"))
                if st.uses:
                    R.reset_uses("round:")
                started = R.fired("round_start", None, Seat(st.start_player)) if "round_start" in events else ()
                if R.new_period():
                    yield from R.settle()
                if started:  # its conditions were tested before the period's settling (RoundTask)
                    yield from R.run_fired("round_start", started)
                k = 0
                while k < st.players:
                    p = R.seats[(st.start_player + k) % st.players]  # (made once per game: `Seat(...)` is a class call)
                    k += 1
                    R.set_active(p)
                    st.turn_number += 1
                    if st.turn_number > self.limits.max_turns:
                        raise LimitExceeded(f"the game did not end within {self.limits.max_turns} turns", R.flow_loc())
                    if st.uses:
                        R.reset_uses("turn:")
                    started = R.fired("turn_start", None, p) if "turn_start" in events else ()
                    if self.observer is not None:
                        self.observe_turn()
                    if R.new_period():
                        yield from R.settle()
                    if started:  # as TurnTask: the fire is pushed before the settling
                        yield from R.run_fired("turn_start", started)
                    if turn is not None:
                        yield from turn(p)
                    if "turn_end" in events:
                        yield from R.fire("turn_end", None, p)
                    if st.ending == "turn":
                        raise GameOver()
                if "round_end" in events:
                    yield from R.fire("round_end", None, Seat(st.start_player))
                if st.ending == "round":
                    raise GameOver()
        except GameOver:
            pass
        R.settling = False
        if "game_end" in events:
            yield from R.fire("game_end", None, None)
        self.over = True
        self.result = self.scores()

    def scores(self) -> dict:
        info, fns = self.dp.info, self.fns
        scores, keys = [], []
        for p in self.seats:
            s = fns[info["score"]](p, p) if info["score"] else 0
            tb = [fns[f](p, p) for f in info["tiebreaks"]]
            scores.append(s)
            keys.append((s, *tb))
        return game_result(self.state, scores, keys, self.decisions_made, self.first_player)

    def leaders(self) -> list[int]:
        """The seats that would win if the game ended now: `scores()["winners"]`, with the
        tiebreaks worked out only where seats share the top score, and only for those seats (a
        search asks this at every playout it cuts; the tiebreaks decide only a tie at the top)."""
        st, info, fns, seats = self.state, self.dp.info, self.fns, self.seats
        if st.all_win:  # (as `game_result`)
            return list(range(min(st.players, len(seats))))
        if st.no_winner or not seats:
            return []
        name = info["score"]
        if name:
            score = fns[name]
            scores = [score(p, p) for p in seats]
            best = max(scores)
            top = [i for i, s in enumerate(scores) if s == best]
        else:  # every score 0
            top = list(range(len(seats)))
        if len(top) > 1 and info["tiebreaks"]:
            tiebreaks = [fns[f] for f in info["tiebreaks"]]
            keys = [tuple([tb(seats[i], seats[i]) for tb in tiebreaks]) for i in top]
            best_key = max(keys)
            top = [i for i, k in zip(top, keys) if k == best_key]
        return top

    def values(self) -> list[float] | None:
        """Every seat's `value` now (as `Game.values`), or None when the ruleset declares none;
        a `value` rule that the module does not hold is compiled on its own (directfacade.values)."""
        name = self.dp.info.get("value")
        if name is None:
            return super().values()
        out = []
        for p in self.seats:
            v = self.fns[name](p, p)
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                what = "none" if v is None else "a truth value" if isinstance(v, bool) else "not a number"
                raise RuleError(f"the value of player {int(p) + 1} is {what}: `value` must give a number",
                                self.rs.values[0].loc)
            out.append(float(v))
        return out

    def held(self) -> list[list[str]]:
        """Per seat, the names of the cards in its own zones (as `Game.held`)."""
        return held_names(self.state, self.cards, self.program.rows_zones, len(self.seats))
