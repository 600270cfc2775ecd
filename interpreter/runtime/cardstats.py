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

import copy
from itertools import compress
from typing import Any

__all__ = ["MoveTracker", "ChangeLog", "card_keys"]


class _Odd(tuple):
    """A move log's event other than a card set into a zone (see `ChangeLog`): its own type, so that
    `MoveTracker._replay` reads the common event, a plain (card, zone) tuple, without looking at
    its parts (the card's sign, the zone's kind) first."""
    __slots__ = ()


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
    the tracker's bookkeeping per move is several calls; noting `(card, zone)` costs one append,
    and the tracker reads the list at its next look (`MoveTracker.update`), in order. A card whose
    new place is under another card ("^top"), or that has cards under it, is resolved at once, so
    each event holds where the card lay at that moment: (card, zone) for a card set into a zone,
    and, as an `_Odd` (a tuple the tracker tells apart by its type, so that the common event
    needs no check of its parts), (~card, zone) for a card under it that moved along, (card,
    None) for a card whose top card is itself between two places, (card, False) for a card taken
    out. A card taken out and put straight back somewhere (most moves) leaves one event, (card,
    zone): the tracker would read the pair to the same effect.

    The list of events is made with the map and kept for its life (`follow` empties it), so that
    the generated code can bind it once per game (`Runtime.move_log`): where it moves a lone card
    (no card under it, none over it) it writes the map with dict's own methods, which run no hook,
    and appends the one event `(card, zone)` itself — the most common move without two calls of
    Python methods (`pop` and `setdefault` on a dict subclass do not call `__delitem__` and
    `__setitem__`). `Runtime.place` (a lone card into a row) does the same, and a lone card that
    `Runtime.take_any` takes off a row for the generated code to put back at once notes no
    (card, False) first (`Runtime._take`'s `back`). Every other write runs the hooks below."""

    __slots__ = ("events", "under", "gone")

    def __init__(self, *args) -> None:
        super().__init__(*args)
        self.events: list[tuple[int, str | None | bool] | int] = []  # (before `follow`: emptied there)
        self.under: dict[int, list[int]] = {}
        self.gone: tuple | None = None  # the last (card, False) noted

    def taken_out(self, card: int) -> None:
        """Note `card` taken out by dict's own methods (`Runtime._take`), not to be put back at once."""
        self.events.append(_Odd((card, False)))

    def __setitem__(self, key, value, _set=dict.__setitem__) -> None:
        _set(self, key, value)  # (bound once: this runs at every move)
        events = self.events
        if value[0] != "^" and (key not in self.under or not self.under[key]):
            if events and events[-1] is self.gone and self.gone[0] == key:  # taken out just now
                events[-1] = (key, value)
            else:
                events.append((key, value))
        else:
            at = _resolve(self, key)
            events.append((key, at) if at is not None else _Odd((key, None)))
            for b in self.under.get(key, ()):  # cards lying under a moved card moved with it
                events.append(_Odd((~b, _resolve(self, b))))

    def __delitem__(self, key, _del=dict.__delitem__) -> None:
        _del(self, key)
        gone = self.gone = _Odd((key, False))
        self.events.append(gone)

    def follow(self, under: dict[int, list[int]]) -> list:
        """Start following: the events noted so far (the setup's moves) are dropped, in place;
        the state's `under` map tells which cards lie under which. Returns the list of events."""
        self.under = under
        self.events.clear()
        self.gone = None
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
    the ruleset's keys sorted, `_key_of`) and a table of zone-to-zone moves: the replay runs for
    every move of every card, so a move costs a few stores, not the zone facts worked out again;
    and a report's list is the flagged keys read off in order (`_names`), with no card's flag read
    per card nor copies merged. Lists rather than bytearrays: Python specialises a store into a
    list at an int index, not one into a bytearray (about 8% of the replay)."""

    def __init__(self, program: Any):
        self.cards = program.rs.cards
        (self.keys, self.visibility, self.rows_zones, self._zones, self._moves,
         self._sorted_keys, self._key_of) = _ruleset_facts(program.rs)
        self.game: Any = None
        self.pos: list[str | None] = [None] * len(self.cards)  # card id → the zone it was last seen in
        self.pending: set[int] = set()  # cards taken out of their place and not put anywhere yet
        self.events: list = []  # the moves noted since the last look (`ChangeLog.events`)
        self.decider: int | None = None  # whose answer the rules are carrying out
        # flags per card key (`_key_of`): per seat (`movers`: per decider, None the moves before any decision)
        self.taken: dict[int, list[int]] = {}
        self.played: dict[int, list[int]] = {}
        self.movers: dict[int | None, list[int]] = {}
        self._trans: dict[Any, dict[Any, tuple[list[int], ...]]] = {}  # to → from → the flags such a move sets

    def start(self, game: Any) -> None:
        """The end of setup: what is where now was dealt, not taken (an `after_setup` hook)."""
        st = game.state
        if self.events:  # a look during setup (a decision in it) began following already
            self._replay()
        if not isinstance(st.where, ChangeLog):  # a game made without `log_moves`
            st.where = ChangeLog(st.where)
            st.where.events = self.events  # (the list `marks` gave)
        self.events = st.where.follow(st.under)  # (the list `marks` gave, where it was asked first)
        self.game = game
        where = st.where
        pos = self.pos = list(map(where.get, range(len(self.cards))))  # (None: out of play)
        if st.under:  # a covered card ("^top", listed under its top card) lies where its top card does
            for cid, at in where.items():
                if at[0] == "^":
                    pos[cid] = _resolve(where, cid)

    def marks(self, game: Any) -> list:
        """The list a game's `play_out` may append each decision's player to, before it is
        answered: the move log itself (`game`'s, which the tracker follows from `start` on), so
        that the looks are read in order with the moves, once, at the end (`update`) rather than by
        a call per decision. Where a decision in the setup comes before the tracker started,
        `first_look` must look at it."""
        where = game.state.where
        return where.events if isinstance(where, ChangeLog) else self.events

    def first_look(self, game: Any) -> bool:
        """A look before a decision while the moves go to `marks`: only the first, in a setup
        that asks a decision before the tracker started, has work to do (start there). True once
        the tracker follows the game: `play_out` then stops calling it."""
        if self.game is None:
            self.update(game)
        return self.game is not None

    def update(self, game: Any) -> None:
        """A look before a decision (or at the end): settle cards that left play, and note whose
        answer the rules carry out next. A decision found in the log (see `marks`) is such a look
        made at the time: cards taken out and not put back by then left play then."""
        if self.game is None:  # no `after_setup` hook ran: start from here
            self.start(game)
        if self.events:
            self._replay()
        self._settle()
        d = game.decision
        self.decider = None if game.over or d is None else d.player

    def _flags(self, table: dict, who: Any) -> list[int]:
        got = table.get(who)
        if got is None:
            got = table[who] = [0] * len(self._sorted_keys)
        return got

    def _replay(self) -> None:
        """Follow the moves noted since the last look, in order (see `ChangeLog`), and the looks
        noted among them (decisions, see `marks`); `_moved` written out, as this runs for every
        move of every card. A card set into a zone (a plain tuple: about 99 events in 100 that
        are not looks) is read first; the transition's flags by destination, then origin
        (`_trans`), with no key tuple built per move."""
        pending, pos, trans, all_movers, key_of = self.pending, self.pos, self._trans, self.movers, self._key_of
        movers = self._flags(all_movers, self.decider)
        for ev in self.events:
            if type(ev) is tuple:  # (card, zone): a card set into a zone
                cid, to = ev
                if pending:  # (most of the time none is: a lone card moved is noted once, see ChangeLog)
                    pending.discard(cid)
            elif type(ev) is _Odd:
                cid, to = ev
                if to is False:
                    pending.add(cid)
                    continue
                if cid < 0:
                    cid = ~cid
                elif pending:
                    pending.discard(cid)
                if to is None:  # the card on top is itself between two places: wait until it lands
                    continue
            else:  # a decision asked of player `ev` (a seat number): who moves what moves next
                if pending:  # taken out and not put back since the last look (so not in play now)
                    self._left(pending)
                self.decider = ev
                movers = all_movers.get(ev)
                if movers is None:
                    movers = self._flags(all_movers, ev)
                continue
            was = pos[cid]
            if was == to:
                continue
            pos[cid] = to
            k = key_of[cid]
            movers[k] = 1
            try:
                flags = trans[to][was]
            except KeyError:
                flags = self._transition(was, to)
            if flags:
                for f in flags:
                    f[k] = 1
        self.events.clear()

    def _settle(self) -> None:
        """Cards taken out and never put back have left play."""
        if self.pending:
            where = self.game.state.where
            self._left([cid for cid in self.pending if cid not in where])

    def _left(self, cards: Any) -> None:
        """`cards` (taken out, not put back) left play; the pending ones are settled."""
        for cid in sorted(cards):
            if self.pos[cid] is not None:
                self._moved(cid, self.pos[cid], None)
                self.pos[cid] = None
        self.pending.clear()

    def per_seat(self, seats: int) -> tuple[list[list[str]], list[list[str]]]:
        """(taken, played): per seat, the sorted keys of the cards it took / played."""
        return ([self._names(self.taken.get(s)) for s in range(seats)],
                [self._names(self.played.get(s)) for s in range(seats)])

    def _names(self, flags: list | None) -> list[str]:
        if flags is None:
            return []
        return list(compress(self._sorted_keys, flags))  # (flags by key, in the keys' order)

    def moved_by(self, seats: int) -> list[list[str]]:
        """Per seat, the sorted keys of the cards that moved while its answers were carried out."""
        return [self._names(self.movers.get(s)) for s in range(seats)]

    def moved_cards(self) -> list[str]:
        """The keys of the cards that moved at all after setup."""
        return self._names([any(col) for col in zip(*self.movers.values())] if self.movers else None)

    def held(self, game: Any, seats: int) -> list[list[str]]:
        """Per seat, the keys of the cards in its own zones at the end (cards under them included)."""
        keys, under = self.keys, game.state.under
        out: list[list[str]] = [[] for _ in range(seats)]
        for key, z in game.state.zones.items():
            name, _, owner = key.partition("#")
            if not owner or int(owner) >= seats:
                continue
            ids = [c for row in z for c in row] if name in self.rows_zones else z
            mine = out[int(owner)]
            if not under:  # no card lies under another
                mine += [keys[c] for c in ids]
                continue
            for cid in ids:
                mine.append(keys[cid])
                below = under.get(cid)
                if below:
                    mine += [keys[u] for u in below]
        return out

    def _moved(self, cid: int, was: str | None, to: str | None) -> None:
        """One card's move (as `_replay` counts it)."""
        k = self._key_of[cid]
        self._flags(self.movers, self.decider)[k] = 1
        got = self._trans.get(to)
        flags = got.get(was) if got is not None else None
        for f in flags if flags is not None else self._transition(was, to):
            f[k] = 1

    def _transition(self, was: str | None, to: str | None) -> tuple[list[int], ...]:
        """The flags a move from zone key `was` to `to` sets (None: out of play): taken by the
        owner of `to` when it is not `was`'s; played by `was`'s owner when the card leaves a zone of
        its owner's that others may not see for a public one, or a public one for another zone of
        the owner's. Worked out once per ruleset (`_ruleset_facts`), the flags once per game."""
        move = self._moves.get((was, to))
        if move is None:
            was_owner, was_public = self._zone(was)
            to_owner, to_public = self._zone(to)
            move = self._moves[(was, to)] = (
                to_owner if to_owner is not None and to_owner != was_owner else None,
                was_owner if was_owner is not None and to is not None and (
                    (not was_public and to_public) or (was_public and to_owner == was_owner)) else None)
        took, played = move
        flags = ()
        if took is not None:
            flags += (self._flags(self.taken, took),)
        if played is not None:
            flags += (self._flags(self.played, played),)
        self._trans.setdefault(to, {})[was] = flags
        return flags

    def _zone(self, key: str | None) -> tuple[int | None, bool]:
        """A zone key's owner (None: shared, or out of play) and whether it is public; kept per key."""
        got = self._zones.get(key)
        if got is None:
            got = self._zones[key] = (_owner(key), key is None or self._vis(key) == "public")
        return got

    def _vis(self, key: str) -> str:
        return self.visibility.get(key.partition("#")[0], "public")


_FACTS: list[tuple[Any, tuple]] = []  # the last few rulesets' facts (a batch plays one ruleset)


def _ruleset_facts(rs: Any) -> tuple:
    """(card keys, zone visibility, rows zones, zone key → (owner, public), (from, to) → (taker,
    player), the distinct keys sorted, and per card id its key's place among them) of a ruleset,
    worked out once rather than per game (the card keys alone took about a tenth of a short game);
    the fourth and fifth fill as games meet zones and moves. The last two let the tracker flag keys
    rather than cards, so a report's list is read off in order (`MoveTracker._names`), not sorted
    nor merged per list."""
    for known, facts in _FACTS:
        if known is rs:
            return facts
    keys = card_keys(rs.cards)
    names = sorted(set(keys))
    place = {k: i for i, k in enumerate(names)}
    facts = (keys, {name: zd.visibility for name, zd in rs.zones.items()},
             frozenset(n for n, zd in rs.zones.items() if zd.kind == "rows"), {}, {},
             names, [place[k] for k in keys])
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
