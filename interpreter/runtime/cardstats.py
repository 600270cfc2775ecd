"""Which cards players take, play and move in a game, read from where cards lie — for per-card reports.

The tracker follows every change of a card's place (the state's `where` map notes each one, see
`ChangeLog`), from the end of setup to the end of the game, so a card that comes and goes within
one rule (drawn and discarded, taken and spent) is seen too. A covered card lies where the card
on top of it does. A card that moves counts:

* **moved** in the game, whoever moved it; and **moved by** player P when the move happens while
  P's answer is being carried out (the rules run on from P's decision until the next one);
* **taken** by player P when it arrives in a zone of P's own (a per-player zone) from anywhere
  that is not P's: a shared zone, another player's zone, or out of play;
* **played** by player P when it leaves a zone of P's that others may not see (an `owner` or
  `hidden` per-player zone: a hand, a face-down deck) for a `public` zone, or leaves one of P's
  public zones for another of P's zones (a hand laid open moved to a tableau).

Cards dealt during setup are not counted: setup ends before the tracker starts. The definitions
use only zone ownership and visibility, which every ruleset declares, so they mean the same thing
in every game. Cards are counted by identity (`card_keys`): copies that differ in a field are
different cards, identical copies are one.
"""
from __future__ import annotations

import collections
import copy
from itertools import compress
from typing import Any

__all__ = ["MoveTracker", "ChangeLog", "card_keys"]


class _Marker:
    """A move log event's second item that is no zone key (see `ChangeLog`): a card taken out, a
    card whose top card is between two places, a decision; or what the tracker's table says of an
    event (`MoveTracker._entry`)."""
    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"<{self.name}>"


_TAKEN_OUT = _Marker("taken out")  # (card, _TAKEN_OUT, …): taken out of its place, not put back yet
_WAITING = _Marker("waiting")  # (card, _WAITING, …): laid on a card that is itself between two places
_DECIDED = _Marker("decided")  # (0, _DECIDED, …): a decision came (`ChangeLog.decide`)
_SAME = _Marker("same place")  # `MoveTracker._entry` of a card set where it already lies: no move
_OTHER = _Marker("no move")  # ... of any other event that is not a card set into a zone


def card_keys(cards: list[Any]) -> list[str]:
    """Per card id, the card's identity for statistics: its name, followed by each field in which
    cards of that name differ (`Gem (value 3)`); identical copies share a key."""
    by_name: dict[str, list[Any]] = {}
    for c in cards:
        by_name.setdefault(c.name, []).append(c)
    varying: dict[str, list[str]] = {}
    for name, group in by_name.items():
        fields = sorted({f for c in group for f in c.fields}, key=str)
        varying[name] = [f for f in fields if len({repr(c.fields.get(f)) for c in group}) > 1]
    keys = []
    for c in cards:
        parts = [f"{f} {c.fields.get(f)}" for f in varying[c.name]]
        keys.append(f"{c.name} ({', '.join(parts)})" if parts else c.name)
    return keys


class ChangeLog(dict):
    """A `where` map (card id → zone key) that notes where each changed card went, as it happens
    (a card tracker `follow`s it from the end of setup on).

    Why a list of events rather than a call per change: a card moves hundreds of times a game, and
    the tracker's bookkeeping per move is several calls; noting an event costs one append, and
    the tracker reads the list at its next look (`MoveTracker.update`), in order. A card whose
    new place is under another card ("^top"), or that has cards under it, is resolved at once, so
    each event holds where the card lay at that moment, and the flags of the seat whose answer the
    rules are carrying out (`mover`, which `decide` sets at each decision; the tracker's): (card,
    zone, mover) for a card set into a zone; (card, ("^", zone), mover) for a card under it that
    moved along (none where that card is out of play), (card, _WAITING, mover) for a card whose
    top card is itself between two places, (card, _TAKEN_OUT, mover) for a card taken out. A card
    taken out and put straight back somewhere (most moves) leaves one event, (card, zone, mover):
    the tracker would read the pair to the same effect. Every event is a triple whose second item
    tells its kind, so that the tracker reads each alike, with no check of its type
    (`MoveTracker._replay`); a decision after a card was taken out notes (0, _DECIDED, mover),
    where the tracker settles the cards that left play.

    The list of events is made with the map and kept for its life (`follow` empties it), so that
    the generated code can bind it once per game (`Runtime.move_log`): where it moves a lone card
    (no card under it, none over it) it writes the map with dict's own methods, which run no hook,
    and appends the one event `(card, zone, mover)` itself — the most common move without two
    calls of Python methods (`pop` and `setdefault` on a dict subclass do not call `__delitem__`
    and `__setitem__`). `Runtime.place` (a lone card into a row) does the same, and a lone card that
    `Runtime.take_any` takes off a row for the generated code to put back at once notes no
    (card, _TAKEN_OUT) first (`Runtime._take`'s `back`). Every other write runs the hooks below.

    Why the mover in every event rather than a mark per decision in the list: a mark cost the
    replay as much as a move (about 1,100 instructions) and a decision comes about every two
    moves; the mover costs each move one attribute read."""

    __slots__ = ("events", "under", "gone", "out", "movers", "seat_movers", "mover")

    def __init__(self, *args) -> None:
        super().__init__(*args)
        self.events: list[tuple[int, Any, list]] = []  # (before `follow`: emptied there)
        self.under: dict[int, list[int]] = {}
        self.gone: tuple | None = None  # the last (card, _TAKEN_OUT, mover) noted
        self.out = False  # a card was taken out since the last decision
        self.movers: dict = collections.defaultdict(list)  # per seat, its flags (the tracker's, from `follow` on)
        self.seat_movers: list[list] = []  # the same by seat number, for `play_out` (`MoveTracker.marks`)
        self.mover: list = self.movers[None]  # the flags of the seat whose answer is carried out

    def decide(self, player: int) -> None:
        """A decision asked of `player` (`DirectGame.play_out`): the moves from here are its answer's.
        Cards taken out since the last decision and not put back by now left play now: noted where
        a card was taken out, so that a decision costs the replay nothing otherwise."""
        if self.out:
            self.out = False
            self.events.append((0, _DECIDED, self.mover))
        self.mover = self.movers[+player]  # (a plain int: a map finds it by identity, not a Seat's `==`)

    def taken_out(self, card: int) -> None:
        """Note `card` taken out by dict's own methods (`Runtime._take`), not to be put back at once."""
        self.out = True
        self.events.append((card, _TAKEN_OUT, self.mover))

    def __setitem__(self, key, value, _set=dict.__setitem__) -> None:
        _set(self, key, value)  # (bound once: this runs at every move)
        events, mover = self.events, self.mover
        if value[0] != "^" and (key not in self.under or not self.under[key]):
            if events and events[-1] is self.gone and self.gone[0] == key:  # taken out just now
                events[-1] = (key, value, mover)
            else:
                events.append((key, value, mover))
        else:
            at = _resolve(self, key)
            events.append((key, at if at is not None else _WAITING, mover))
            for b in self.under.get(key, ()):  # cards lying under a moved card moved with it
                at = _resolve(self, b)
                if at is not None:  # (one out of play stays there)
                    events.append((b, ("^", at), mover))

    def __delitem__(self, key, _del=dict.__delitem__) -> None:
        _del(self, key)
        self.out = True
        gone = self.gone = (key, _TAKEN_OUT, self.mover)
        self.events.append(gone)

    def follow(self, under: dict[int, list[int]], movers: dict, mover: list) -> list:
        """Start following: the events noted so far (the setup's moves) are dropped, in place;
        the state's `under` map tells which cards lie under which; `movers`, per seat, the flags a
        move sets, `mover` those of the moves from here. Returns the list of events."""
        self.under, self.movers, self.mover = under, movers, mover
        self.events.clear()
        self.gone = None
        self.out = False
        return self.events

    def __deepcopy__(self, memo) -> dict:
        """A copy of the game (a search agent's look-ahead) is not tracked: a plain map."""
        return {k: copy.deepcopy(v, memo) for k, v in self.items()}

    def __reduce__(self):
        return (dict, (dict(self),))


class MoveTracker:
    """Collects, per seat, the cards it took, played and moved during one game, and the cards that
    moved at all (by `card_keys` identity).

    Why flags per card key (a list of 0 and 1 per seat and figure, indexed by the key's place among
    the ruleset's keys sorted, `_key_of`) and a table of events: the replay runs for every move of
    every card, so a move costs a few stores, not the zone facts worked out again; and a report's
    list is the flagged keys read off in order (`_names`), with no card's flag read per card nor
    copies merged (flags per card id cost more there than the key's lookup per move). Lists rather
    than bytearrays: Python specialises a store into a list at an int index, not one into a
    bytearray (about 8% of the replay)."""

    def __init__(self, program: Any):
        self.cards = program.rs.cards
        (self.keys, self.visibility, self.rows_zones, self._zones, self._moves,
         self._sorted_keys, self._key_of, self._table, self._layouts) = _ruleset_facts(program.rs)
        self.game: Any = None
        self.pos: list[str | None] = [None] * len(self.cards)  # card id → the zone it was last seen in
        self.pending: set[int] = set()  # cards taken out of their place and not put anywhere yet
        self.events: list = []  # the moves noted since the last look (`ChangeLog.events`)
        self.decider: int | None = None  # whose answer the rules are carrying out
        # flags per card key: per seat, taken (at 2 × seat) and played (at 2 × seat + 1), as the
        # ruleset's table of moves names them (`_transition`); per decider, moved (None: the moves
        # before any decision), which the move log's events carry (`ChangeLog.mover`)
        self.seat_flags: list[list[int]] = []
        self.movers: dict[int | None, list[int]] = _PerSeat(len(self._sorted_keys))

    def start(self, game: Any) -> None:
        """The end of setup: what is where now was dealt, not taken (an `after_setup` hook)."""
        st = game.state
        if self.events:  # a look during setup (a decision in it) began following already
            self._replay()
        if not isinstance(st.where, ChangeLog):  # a game made without `log_moves`
            st.where = ChangeLog(st.where)
        where = st.where
        # (the moves from here are the last decision's, which the log was told where it is the tracker's)
        mover = where.mover if where.movers is self.movers else self.movers[self.decider]
        self.events = where.follow(st.under, self.movers, mover)
        self.game = game
        pos = self.pos = list(map(where.get, range(len(self.cards))))  # (None: out of play)
        if st.under:  # a covered card ("^top", listed under its top card) lies where its top card does
            for cid, at in where.items():
                if at[0] == "^":
                    pos[cid] = _resolve(where, cid)

    def marks(self, game: Any) -> ChangeLog | None:
        """What a game's `play_out` may tell each decision's player before it is answered: the
        move log (`game`'s, which the tracker follows from `start` on; None where the game keeps
        none), whose events then carry whose answer moved each card, read once, at the end
        (`update`), rather than by a call of the tracker per decision. Where a decision in the
        setup comes before the tracker started, `first_look` must look at it."""
        where, st = game.state.where, game.state
        if not isinstance(where, ChangeLog):
            return None
        # (play_out reads a seat's flags by its number, in a list: a Seat reads a map slowly)
        where.seat_movers = [self.movers[p] for p in range(st.players + st.dummies)]
        return where

    def first_look(self, game: Any) -> bool:
        """A look before a decision while the decisions go to `marks`: only the first, in a setup
        that asks a decision before the tracker started, has work to do (start there). True once
        the tracker follows the game: `play_out` then stops calling it."""
        if self.game is None:
            self.update(game)
        return self.game is not None

    def update(self, game: Any) -> None:
        """A look before a decision (or at the end): settle cards that left play, and note whose
        answer the rules carry out next. A decision told to the log (`ChangeLog.decide`) is such a
        look made at the time: cards taken out and not put back by then left play then."""
        if self.game is None:  # no `after_setup` hook ran: start from here
            self.start(game)
        if self.events:
            self._replay()
        where = game.state.where
        self._settle(where.mover)
        d = game.decision
        self.decider = None if game.over or d is None else d.player
        where.mover = self.movers[self.decider]

    def _replay(self) -> None:
        """Follow the events noted since the last look, in order (see `ChangeLog`). Every event is
        a triple (card, what, the mover's flags), read alike: the table (`_table`: by `what`, then
        by where the card was, filled by `_entry`, kept per ruleset: filling it per game cost a
        third of the replay) tells at once a move that sets no taken or played flag (an empty
        tuple: four moves in five in a card game), a move that sets some (their places in
        `seat_flags`), a card set where it already lies (`_SAME`), or an event that moves no card
        by itself (`_OTHER`), so that the common move costs a few loads and stores, with no check
        of the event's type or parts."""
        pending, pos, table, key_of, seat_flags = self.pending, self.pos, self._table, self._key_of, self.seat_flags
        for cid, to, movers in self.events:
            try:
                entry = table[to][pos[cid]]
            except KeyError:
                entry = self._entry(pos[cid], to)
            if entry:
                if type(entry) is tuple:
                    try:
                        for i in entry:
                            seat_flags[i][key_of[cid]] = 1
                    except IndexError:  # a seat this game has not flagged yet (the table is the ruleset's)
                        self._widen(max(entry) + 1)
                        for i in entry:
                            seat_flags[i][key_of[cid]] = 1
                else:
                    if entry is _SAME:
                        if pending:
                            pending.discard(cid)
                    else:
                        self._other(cid, to, movers)
                    continue
            if pending:  # (most of the time none is: a lone card moved is noted once, see ChangeLog)
                pending.discard(cid)
            pos[cid] = to
            movers[key_of[cid]] = 1
        self.events.clear()

    def _entry(self, was: str | None, to: Any) -> Any:
        """What an event (card, `to`, …) means for a card that was in `was` (see `_replay`), kept
        in the table: `to` a zone key is a move (`_SAME` where `was` is it); anything else
        (`ChangeLog`'s markers, a carried card's ("^", zone)) is `_OTHER`."""
        entry = (_SAME if was == to else self._transition(was, to)) if isinstance(to, str) else _OTHER
        self._table.setdefault(to, {})[was] = entry
        return entry

    def _other(self, cid: int, to: Any, movers: list[int]) -> None:
        """An event other than a card set into a zone (`movers`: the flags of the seat whose answer
        the rules were carrying out)."""
        if type(to) is tuple:  # ("^", zone): a card lying under a moved card moved with it
            was = self.pos[cid]
            if was != to[1]:
                self.pos[cid] = to[1]
                self._moved(cid, was, to[1], movers)
        elif to is _TAKEN_OUT:
            self.pending.add(cid)
        elif to is _WAITING:  # the card on top is itself between two places: wait until it lands
            self.pending.discard(cid)
        elif self.pending:  # _DECIDED: taken out and not put back by a decision (so not in play now)
            self._left(self.pending, movers)

    def _settle(self, movers: list[int]) -> None:
        """Cards taken out and never put back have left play."""
        if self.pending:
            where = self.game.state.where
            self._left([cid for cid in self.pending if cid not in where], movers)

    def _left(self, cards: Any, movers: list[int]) -> None:
        """`cards` (taken out, not put back) left play; the pending ones are settled."""
        for cid in sorted(cards):
            if self.pos[cid] is not None:
                self._moved(cid, self.pos[cid], None, movers)
                self.pos[cid] = None
        self.pending.clear()

    def per_seat(self, seats: int) -> tuple[list[list[str]], list[list[str]]]:
        """(taken, played): per seat, the sorted keys of the cards it took / played."""
        flags = self.seat_flags + [None] * max(0, 2 * seats - len(self.seat_flags))
        names = self._names
        return [*map(names, flags[0:2 * seats:2])], [*map(names, flags[1:2 * seats:2])]

    def _names(self, flags: list | None) -> list[str]:
        if flags is None:
            return []
        return list(compress(self._sorted_keys, flags))  # (flags by key, in the keys' order)

    def moved_by(self, seats: int) -> list[list[str]]:
        """Per seat, the sorted keys of the cards that moved while its answers were carried out."""
        return [*map(self._names, map(self.movers.get, range(seats)))]

    def moved_cards(self) -> list[str]:
        """The keys of the cards that moved at all after setup: every mover's flags (0 or 1 per
        key) or-ed at once as the bits of one number, a byte per key (a column's `any` per key
        took 2-10 us a game)."""
        if not self.movers:
            return []
        moved = 0
        for flags in self.movers.values():
            moved |= int.from_bytes(bytes(flags), "little")
        return list(compress(self._sorted_keys, moved.to_bytes(len(self._sorted_keys), "little")))

    def held(self, game: Any, seats: int) -> list[list[str]]:
        """Per seat, the keys of the cards in its own zones at the end (cards under them included)."""
        keys, under, zones = self.keys, game.state.under, game.state.zones
        out: list[list[str]] = [[] for _ in range(seats)]
        for key, owner, rows in self._owned(zones, seats):
            z = zones[key]
            if not z:
                continue
            ids = [c for row in z for c in row] if rows else z
            mine = out[owner]
            if not under:  # no card lies under another
                mine += map(keys.__getitem__, ids)
                continue
            for cid in ids:
                mine.append(keys[cid])
                below = under.get(cid)
                if below:
                    mine += [keys[u] for u in below]
        return out

    def _owned(self, zones: dict, seats: int) -> list[tuple[str, int, bool]]:
        """(zone key, owner, a rows zone?) of the zones of seats below `seats`, in `zones`' order:
        worked out once per ruleset and layout of zones (`held` read every zone's key per game)."""
        layout = (tuple(zones), seats)
        got = self._layouts.get(layout)
        if got is None:
            got = []
            for key in zones:
                name, _, owner = key.partition("#")
                if owner and int(owner) < seats:
                    got.append((key, int(owner), name in self.rows_zones))
            if len(self._layouts) > 16:  # (a ruleset that adds zones as it goes: keep the last few)
                self._layouts.clear()
            self._layouts[layout] = got
        return got

    def _moved(self, cid: int, was: str | None, to: str | None, movers: list[int]) -> None:
        """One card's move (as `_replay` counts it; `movers`: the mover's flags)."""
        k = self._key_of[cid]
        movers[k] = 1
        for i in self._transition(was, to):
            self.seat_flags[i][k] = 1

    def _transition(self, was: str | None, to: str | None) -> tuple[int, ...]:
        """The places in `seat_flags` of the flags a move from zone key `was` to `to` sets (None:
        out of play): taken by the owner of `to` when it is not `was`'s; played by `was`'s owner
        when the card leaves a zone of its owner's that others may not see for a public one, or a
        public one for another zone of the owner's. Worked out once per ruleset (`_ruleset_facts`);
        `seat_flags` made long enough for them."""
        flags = self._moves.get((was, to))
        if flags is None:
            was_owner, was_public = self._zone(was)
            to_owner, to_public = self._zone(to)
            flags = ()
            if to_owner is not None and to_owner != was_owner:
                flags += (2 * to_owner,)
            if was_owner is not None and to is not None and (
                    (not was_public and to_public) or (was_public and to_owner == was_owner)):
                flags += (2 * was_owner + 1,)
            self._moves[(was, to)] = flags
        self._widen(max(flags, default=-1) + 1)
        return flags

    def _widen(self, width: int) -> None:
        """`seat_flags` as long as `width` at least (in place: `_replay` holds it)."""
        n = len(self._sorted_keys)
        self.seat_flags += [[0] * n for _ in range(width - len(self.seat_flags))]

    def _zone(self, key: str | None) -> tuple[int | None, bool]:
        """A zone key's owner (None: shared, or out of play) and whether it is public; kept per key."""
        got = self._zones.get(key)
        if got is None:
            got = self._zones[key] = (_owner(key), key is None or self._vis(key) == "public")
        return got

    def _vis(self, key: str) -> str:
        return self.visibility.get(key.partition("#")[0], "public")


class _PerSeat(dict):
    """Per seat (None: no decision yet), flags per card key, made on first use."""
    __slots__ = ("width",)

    def __init__(self, width: int) -> None:
        super().__init__()
        self.width = width

    def __missing__(self, seat: Any) -> list[int]:
        got = self[seat] = [0] * self.width
        return got


_FACTS: list[tuple[Any, tuple]] = []  # the last few rulesets' facts (a batch plays one ruleset)


def _ruleset_facts(rs: Any) -> tuple:
    """(card keys, zone visibility, rows zones, zone key → (owner, public), (from, to) → the
    flags it sets (`MoveTracker._transition`), the distinct keys sorted, per card id its key's place
    among them, the replay's table (`MoveTracker._entry`) and the seats' zones per layout of zones
    (`MoveTracker._owned`)) of a ruleset, worked out once rather than per game (the card keys alone
    took about a tenth of a short game); the fourth, fifth and last two fill as games go. The
    sorted keys and places let a report's list be read off in order (`MoveTracker._names`), not
    sorted nor merged per list."""
    for known, facts in _FACTS:
        if known is rs:
            return facts
    keys = card_keys(rs.cards)
    names = sorted(set(keys))
    place = {k: i for i, k in enumerate(names)}
    facts = (keys, {name: zd.visibility for name, zd in rs.zones.items()},
             frozenset(n for n, zd in rs.zones.items() if zd.kind == "rows"), {}, {},
             names, [place[k] for k in keys], {}, {})
    _FACTS.insert(0, (rs, facts))
    del _FACTS[4:]
    return facts


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
