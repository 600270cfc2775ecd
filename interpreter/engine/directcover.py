"""More of the language for direct-style compilation: the game's flow (`round:` and `play:` phases,
`play turn of`, `play round`), dice (`roll`, `.face`), `gain`/`lose` with `when short of`,
several and simultaneous choices, `draw N`, grids, stats holding cards, moves to a row, dummy
players, and the runtime of rule functions' values (`linked`, `sort_by`, `unique_most`, ranges).

`CoverStatements` is mixed into `direct._Gen` (module pieces; the statements write their own code,
`emit` in language/tree.py), `CoverRuntime` into `directgame.Runtime` (what the generated code calls). Each piece does what the task engine's
task or closure does (named in its docstring), in the same order, with the same RNG draws and the
same settling, so that both engines play the same game (tests/engine/test_direct_cover.py).
"""
from __future__ import annotations

from itertools import compress, filterfalse
from operator import not_
from typing import Any, Iterator

from ..runtime.errors import GameOver, LimitExceeded, RuleError
from ..runtime.memory import charge_built
from ..runtime.values import Position, Seat, Space
from ..runtime.zones import put as _put
from .directexpr import Unsupported, V, _Bound

__all__ = ["CoverStatements", "CoverRuntime"]


class CoverStatements:
    """Statements and module pieces, mixed into `direct._Gen` (which provides `emit`, `expr`,
    `function`, `k`, `temp`, `bind`, `decision`, `emit_fire`, `rs`, ...)."""

    def cover_phases(self, funcs: dict) -> None:
        """`round:` and `play:` bodies (`RoundTask`, `MainTask`: a body like the turn's, run with
        `you` the start player, ending as a call does)."""
        for name in ("round", "play"):
            ph = self.rs.phases.get(name)
            if ph is not None:
                funcs[name] = f"_ph_{name}"
                self.function(funcs[name], [("you", "player")], ph.body, ph.loc, call=True, counted=False)

    def cover_short(self) -> None:
        """`when short of STAT by N:` bodies, before any body that may `lose` is compiled."""
        self.short_names = []
        short: dict[str, list] = {}
        bodies = []
        for stat, nodes in self.rs.short_triggers.items():  # named first: a body may `lose` again
            for t in nodes:
                fname = f"_sh{len(self.short_names)}"
                self.short_names.append(fname)
                short.setdefault(stat, []).append(fname)
                bodies.append((fname, t))
        self.short_fns = short
        for fname, t in bodies:
            # `change_stat`'s task: `you`, no `this`, the missing amount; not counted in depth
            self.function(fname, [("you", "player"), ("this", "none"), (t.binder, "int")], t.body, t.loc,
                          call=True, counted=False)

    short_names: list
    short_fns: dict  # stat → the functions of its `when short of` bodies (`cover_short`)

    def set_card_stat(self, name: str, v: Any, d: int, n: Any) -> bool:
        """`set STAT to CARDS`: the stat holds the cards themselves, as in the task engine (its
        digest names them as cards); True when written here."""
        if name not in self.card_stats:
            if self.stat_kinds.get(name, "").startswith(("cardlists", "tuples:")):  # `set links to []`: emptied
                return False
            if v.kind in ("cards", "zone", "row") or (v.kind == "list" and v.src == "[]"):
                # (a single card is no list: `stat_store` keeps it, read in kind "card", as a
                # player's `at`; so a figure's space, set to none between, compiles)
                if self.learning:  # (direct._learn_stats)
                    self.card_stats = self.card_stats | {name}
                    return True
                raise CardStatsFound(self.card_stats | {name})
            return False
        if v.kind == "list" and v.src == "[]":
            v = V("[]", "cards", nn=True)
        if v.kind not in ("cards", "zone", "row"):
            raise Unsupported("a stat holding cards and other values")
        self.emit(d, f"R.set_card_stat({self.k(name)}, {self.cards_src(v)})", n.loc)
        self.changed = True
        return True

    # ---- grids ---------------------------------------------------------------------------
    # A grid zone is its list of card ids, as any set; the space each card lies on is the state's
    # `spaces` (y * width + x), as zones.put keeps it. A space is a `values.Space`, as in the task
    # engine (so options, labels and comparisons are the same).
    def grid_zone(self, name: str) -> bool:
        return self.rs.zones[name].kind == "grid"

    def grid_move(self, d: int, card: str, dest: V, loc) -> None:
        """`move CARD to GRID` (`Game.move`): onto the first empty space, row by row."""
        self.emit(d, f"R.move_to_grid({card}, {dest.key})", loc)

    def grid_place(self, d: int, card: str, key: str, pos: str, loc) -> None:
        self.emit(d, f"R.place_in_grid({card}, {key}, {pos})", loc)

    def grid_placement_function(self, name: str, zname: str, pl) -> None:
        """`_pl(c)`: the empty spaces of the grid where the placement rule admits card `c`
        (`legal_positions`: the rule's name is the space)."""
        zd = self.rs.zones[zname]
        if zd.per_player:
            raise Unsupported("per-player placement zone")
        scope = {"card": ("_a0", "card"), pl.binder: _Bound(V("_a1", "space", nn=True))}  # (a space of the grid)
        conds = [self.expr(c, scope) for c in pl.conds]
        zone = self.zone(zname, None)
        self.cur_loc = pl.loc
        self.emit(1, f"def {name}(_a0):", pl.loc)
        self.emit(2, "_out = []")
        self.emit(2, f"for _p, _a1 in R.grid_empty({zone.key}):")
        for c, node in zip(conds, pl.conds):
            self.emit(3, f"if not ({c.src}):", node.loc)
            self.emit(4, "continue")
        self.emit(3, "_out.append(_p)")
        self.emit(2, "return _out")

    def f_space(self, n, a, scope):
        z, x, y = a
        if z.kind != "zone" or not self.grid_zone(z.zone) or x.kind != "int" or y.kind != "int":
            raise Unsupported("space of a non-grid")
        return V(f"R.space({z.key}, {x.src}, {y.src})", "space", nn=True)

    def f_card_at(self, n, a, scope):
        if a[0].kind not in ("space", "none"):
            raise Unsupported("card_at of a non-space")
        return V(f"R.card_at({a[0].src})", "card")

    def f_owner(self, n, a, scope):
        """`owner(c)`: the player whose zone holds the card (none for a shared zone)."""
        if a[0].kind != "card":
            raise Unsupported("owner of a non-card")
        return V(f"R.owner_of({a[0].src})", "player")

    def f_space_of(self, n, a, scope):
        if a[0].kind != "card":
            raise Unsupported("space_of of a non-card")
        return V(f"R.space_of({a[0].src})", "space")

    def near(self, a: list, what: str) -> V:
        x = a[0]
        if x.kind not in ("space", "card"):
            raise Unsupported(f"{what} of this")
        kind = "cards" if what.startswith("cards") else "spaces"
        return V(f"R.{what}({x.src}, {self.k(x.kind == 'card')})", kind, top=kind == "cards", nn=True)

    def f_cards_around(self, n, a, scope):
        return self.near(a, "cards_around")

    def f_cards_beside(self, n, a, scope):
        return self.near(a, "cards_beside")

    def f_spaces_around(self, n, a, scope):
        return self.near(a, "spaces_around")

    def f_spaces_beside(self, n, a, scope):
        return self.near(a, "spaces_beside")

    def f_empty_spaces(self, n, a, scope):
        z = a[0]
        if z.kind != "zone" or not self.grid_zone(z.zone):
            raise Unsupported("empty_spaces of a non-grid")
        return V(f"[_s for _p, _s in R.grid_empty({z.key})]", "spaces", nn=True)

    def f_spaces(self, n, a, scope):
        z = a[0]
        if z.kind != "zone" or not self.grid_zone(z.zone):
            raise Unsupported("spaces of a non-grid")
        return V(f"R.grid_spaces({z.key})", "spaces", nn=True)


class CardStatsFound(Exception):
    """Raised when a shared stat turns out to hold cards after its reads were compiled as
    numbers: `compile_direct` compiles again with `stats` read as card lists."""

    def __init__(self, stats: frozenset):
        super().__init__("stats holding cards")
        self.stats = stats


_STOP_LABEL = "stop choosing"


class _Stop:
    """The `stop choosing` option of `choose up to` (as tasks._Stop; `str` is its label)."""

    def __repr__(self) -> str:
        return "stop"

    def __str__(self) -> str:
        return _STOP_LABEL


STOP = _Stop()


class CoverRuntime:
    """Runtime pieces the generated code of `CoverStatements` calls, mixed into
    `directgame.Runtime` (which provides `state`, `limits`, `game`, `info`, `fire`, ...)."""

    _card_stat_ids: dict | None = None  # (`card_stat_ids` until its first use)

    def card_stat(self, name: str) -> list:
        """A stat holding cards, as card ids (remembered while the stat holds the same list; read
        without the property: hot where a rule function asks `c in face_down` for each card)."""
        cur = self.state.stats[name]
        seen = self._card_stat_ids
        got = seen.get(name) if seen is not None else None
        if got is not None and got[0] is cur:
            return got[1]
        ids = [c.id for c in cur] if isinstance(cur, list) else []
        self.card_stat_ids[name] = (cur, ids)
        return ids

    def set_card_stat(self, name: str, ids: list) -> None:
        """`set STAT to CARDS` (`Compiler._assign`): only a real change notes the stat changed."""
        cards = self.rs.cards
        v = [cards[c] for c in ids]
        stats = self.state.stats
        if stats[name] != v or type(stats[name]) is not list:
            stats[name] = v
            self.touch_stat(name)

    @property
    def card_stat_ids(self) -> dict:
        got = self.__dict__.get("_card_stat_ids")
        if got is None:
            got = self.__dict__["_card_stat_ids"] = {}
        return got

    def subset_prompt(self, prompt: str, v: Any) -> str:
        """`choose any`'s question about one option, made when the decision's prompt is first read
        (`Decision.prompt`): the generated code hands over its arguments, not the words."""
        return f"{prompt} — {self.label(v)}?"

    def cannot_choose(self, k: int, n: int) -> None:
        raise RuleError(f"cannot choose {k} from {n} option(s)", None)

    def face(self, c: Any) -> Any:
        return None if c is None or self.covered[c] else self.state.faces.get(c)

    # ---- dummy players ----------------------------------------------------------------------
    def card_item(self, v: Any) -> Any:
        """An item of a mixed list moved as a card: a text or player is not one (`Game._cards`)."""
        if v is None or type(v) is int:
            return v
        raise RuleError(f"only cards can be moved, not {v!r}", None)

    def owner_of(self, c: Any) -> Any:
        """`owner(c)` (`builtins._owner`): the owner of the zone the card lies in, under a cover too."""
        if c is None:
            raise RuleError("`owner` needs a card, not none", None)
        where = self.state.where
        key = where.get(c, "")
        while key.startswith("^"):
            key = where[int(key[1:])]
        _, _, owner = key.partition("#")
        return Seat(int(owner)) if owner else None

    def function_too_deep(self, loc: Any) -> None:
        """A rule function called deeper than `max_depth` (as a procedure or trigger nests)."""
        raise LimitExceeded(f"functions nest deeper than {self.limits.max_depth} (endless recursion?)", loc)

    # ---- the flow ------------------------------------------------------------------------
    def events(self) -> set:
        info = self.info
        return set(info["rule_triggers"]) | set(info["card_triggers"])

    def play_turn(self, player: Any) -> Iterator:
        """`TurnTask`: the player becomes active, the turn counts, `turn_start`, the turn body,
        `turn_end`; `end game after this turn` ends the game here."""
        st, fns, info = self.state, self.game.fns, self.info
        p = int(player)
        self.set_active(p)
        st.turn_number += 1
        if st.turn_number > self.limits.max_turns:
            raise LimitExceeded(f"the game did not end within {self.limits.max_turns} turns", self.flow_loc())
        self.reset_uses("turn:")
        events = self.events()
        started = self.fired("turn_start", None, Seat(p)) if "turn_start" in events else ()
        if self.game.observer is not None:
            self.game.observe_turn()
        if self.new_period():  # after the fire's conditions (TurnTask pushes the fire, then the settling)
            yield from self.settle()
        if started:
            yield from self.run_fired("turn_start", started)
        turn = info["funcs"].get("turn")
        if turn is not None:
            yield from fns[turn](Seat(p))
        if "turn_end" in events:
            yield from self.fire("turn_end", None, Seat(p))
        if st.ending == "turn":
            raise GameOver()

    def play_round(self, again: bool) -> Iterator:
        """`RoundTask`: the round counts, `round_start`, the `round:` body (or every player's
        turn from the start player), `round_end`; `end game after this round` ends it here.
        `again`: round after round until the game ends (`play_game`: one generator less between
        each decision and the game; `play round` plays one)."""
        st, fns, info = self.state, self.game.fns, self.info
        events = self.events()
        body = info["funcs"].get("round")
        while True:
            st.round_number += 1
            if st.round_number > self.limits.max_turns:
                raise LimitExceeded(f"the game did not end within {self.limits.max_turns} rounds", self.flow_loc("round"))
            self.reset_uses("round:")
            started = self.fired("round_start", None, Seat(st.start_player)) if "round_start" in events else ()
            if self.new_period():
                yield from self.settle()
            if started:
                yield from self.run_fired("round_start", started)
            if body is not None:
                yield from fns[body](Seat(st.start_player))
            else:
                k = 0
                while k < st.players:
                    p = (st.start_player + k) % st.players
                    k += 1
                    yield from self.play_turn(p)
            if "round_end" in events:
                yield from self.fire("round_end", None, Seat(st.start_player))
            if st.ending == "round":
                raise GameOver()
            if not again:
                return

    def play_game(self) -> Iterator:
        """`MainTask` after setup: the `play:` body, or rounds until the game ends."""
        info = self.info
        play = info["funcs"].get("play")
        if play is not None:
            yield from self.game.fns[play](Seat(self.state.start_player))
            raise GameOver()
        yield from self.play_round(True)

    def flow_loc(self, first: str = "turn") -> Any:
        phases = self.rs.phases
        for name in (first, "turn", "round", "play"):
            if name in phases:
                return phases[name].loc
        return None

    # ---- stats and dice ------------------------------------------------------------------
    def change_stat(self, player: Any, name: str, delta: Any) -> int:
        """`Game.change_stat`: the stat within its bounds; returns what a loss lacked (0: none).
        (`StatDef.clamp` and `touch_stat` written out, as in `set_pstat`: hot in dice games.)"""
        p = int(player)
        stats = self.state.pstats[p]
        loss = delta < 0  # (first, as before: a delta that is no number fails here, with the same words)
        v = stats[name] + delta
        missing = 0
        bounds = self.stat_bounds.get(name)
        if bounds is not None:
            lo, hi = bounds
            if lo is not None and v < lo:
                if loss:
                    missing = lo - v
                v = lo
            elif hi is not None and v > hi:
                v = hi
        stats[name] = v
        try:
            self.touched |= self.stat_bits[p][name]
        except (IndexError, KeyError):  # (the first time for this seat and stat in the ruleset)
            self.touched |= self._pstat_bits(name, p)
        return missing

    def roll(self, dice: list) -> None:
        """`Game.roll`: a face per die from the game's RNG, or the next scripted face (scenarios'
        `rolls:`, the game's `forced_rolls`)."""
        faces_of, cards, st, forced = self.program.die_faces, self.rs.cards, self.state, self.game.forced_rolls
        place, tbit, touched = st.where.get, self.tbit, 0  # (bound once: see `whenever_pending`)
        if forced:
            for c in dice:
                if c is None or cards[c].type not in faces_of:
                    raise RuleError(f"only dice can be rolled, not {self._label(c) if c is not None else 'none'}", None)
                if not forced:  # the script ran out: the game's RNG from here on
                    st.faces[c] = st.rng.choice(faces_of[cards[c].type])
                    continue
                face = forced.pop(0)
                if face not in faces_of[cards[c].type]:
                    raise RuleError(f"scripted roll `{face}` is not a face of {cards[c].type}", None)
                st.faces[c] = face
            for c in dice:
                key = place(c)
                if key and key[0] != "^":  # a covered die notes nothing any rule reads (as `Game.touch("^7")`)
                    touched |= tbit[key]
        else:  # (hot in dice games: each die's faces found by its id, one draw each as before)
            by_id = self.tables.get("die_faces")  # (a die's faces, their count and its bits, by id)
            if by_id is None:
                by_id = self.tables["die_faces"] = [
                    (f, len(f), len(f).bit_length()) if f else None for f in (faces_of.get(card.type) for card in cards)]
            # (`Random.choice` less its calls: `_randbelow`'s draw written out, the same bits as the
            # game's RNG draws them, a `random.Random` or directgame.GameRandom)
            faces, getrandbits = st.faces, st.rng.getrandbits
            for c in dice:
                spec = by_id[c] if c is not None else None
                if spec is None:
                    raise RuleError(f"only dice can be rolled, not {self._label(c) if c is not None else 'none'}", None)
                got, n, k = spec
                j = getrandbits(k)
                while j >= n:
                    j = getrandbits(k)
                faces[c] = got[j]
                key = place(c)  # (what the roll touched, in the same walk)
                if key and key[0] != "^":
                    touched |= tbit[key]
        self.touched |= touched

    # ---- values (library/builtins.py, over card ids) ---------------------------------------
    def range(self, lo: int, hi: int) -> list:
        """`lo..hi` (`Compiler.x_range`): bounded, and counted against the work limit."""
        if hi - lo >= _MAX_ITEMS:
            raise RuleError(f"the range {lo}..{hi} is too long (at most {_MAX_ITEMS} numbers)", None)
        if hi >= lo:  # an empty range (HI below LO) costs nothing, and never gives work back
            self.work += hi - lo + 1
        if self.work > self.max_work:
            self.too_much_work()
        return list(range(lo, hi + 1))

    def least(self, xs: list) -> Any:
        if xs.__class__ is list and None not in xs:  # the usual case, without a filtered copy (hot in dice games)
            return min(xs) if xs else 0
        vals = [x for x in xs if x is not None]
        return min(vals) if vals else 0

    def most(self, xs: list) -> Any:
        if xs.__class__ is list and None not in xs:
            return max(xs) if xs else 0
        vals = [x for x in xs if x is not None]
        return max(vals) if vals else 0

    def least_flat(self, xs: list) -> Any:
        """`least` of a list literal of single values, charged to the memory budget first as
        `memory.built_flat` charges it: one call, where `min([a, b])` would be two (hot in dice games)."""
        self.built += len(xs)
        if self.built > self.limits.max_memory:
            charge_built(self, 0)  # (raises: over the budget)
        return min(xs) if None not in xs else self.least(xs)

    def most_flat(self, xs: list) -> Any:
        """`most` of a list literal of single values, charged as `least_flat` charges it."""
        self.built += len(xs)
        if self.built > self.limits.max_memory:
            charge_built(self, 0)
        return max(xs) if None not in xs else self.most(xs)

    def turn_order(self) -> list:
        n, start = self.state.players, self.state.start_player
        return [Seat((start + k) % n) for k in range(n)]

    def sort_by(self, xs: list, ks: list) -> list:
        if len(xs) != len(ks):
            raise RuleError(f"sort_by: {len(xs)} items but {len(ks)} values", None)
        known = [k for k in ks if k is not None]
        if any(type(k) is not type(known[0]) for k in known[1:]):
            raise RuleError("sort_by: the values must be all numbers or all texts", None)
        order = sorted(range(len(xs)), key=lambda i: (ks[i] is None, ks[i] if ks[i] is not None else 0))
        return [xs[i] for i in order]

    def unique_most(self, xs: list, ks: list) -> Any:
        if len(xs) != len(ks):
            raise RuleError(f"unique_most: {len(xs)} items but {len(ks)} values", None)
        known = [(k, x) for x, k in zip(xs, ks) if k is not None]
        if not known:
            return None
        best = max(k for k, _ in known)
        winners = [x for k, x in known if k == best]
        return winners[0] if len(winners) == 1 else None

    def linked(self, start: Any, pairs: list) -> list:
        """`linked(row, pairs of rows)`: rows are the state's own lists (the same row is the same
        list), as `RowRef`s compare by their row."""
        group, frontier = [start], [start]
        while frontier:
            x = frontier.pop()
            for pr in pairs:
                for a, b in (pr, pr[::-1]):
                    if a is x and not any(b is y for y in group):
                        group.append(b)
                        frontier.append(b)
        return group

    def linked_values(self, start: Any, pairs: list) -> list:
        """`linked(x, [[a, b], ...])` of plain values (`_linked` in the library): equal values are the
        same item; a link that is not a pair is a rule error."""
        links = [pr if type(pr) is list else [pr] for pr in pairs]
        self.work += len(links) + sum(map(len, links))  # visited as `_charged` counts a binding's items
        if self.work > self.max_work:
            self.too_much_work()
        group, frontier = [start], [start]
        while frontier:
            x = frontier.pop()
            for pr in links:
                if len(pr) != 2:
                    raise RuleError("linked: each link must be a pair [a, b]", None)
                for a, b in (pr, pr[::-1]):
                    if a == x and b not in group:
                        group.append(b)
                        frontier.append(b)
        return group



    def move_to_row(self, cards: list, row: list, bottom: bool) -> None:
        """`Game.move` to a row: each card taken out, then put at the row's left or right end; a
        row that has emptied (and closed up) is begun again at the zone's end."""
        st = self.state
        if not isinstance(row, list):
            raise RuleError(f"cards can only move to a zone, a row or a board space, not {row}", None)
        key = st.where.get(row[0]) if row else self.row_home.get(id(row))
        if key is None:
            raise RuleError("this row no longer exists", None)
        for c in cards:
            if c is None or type(c) is not int:
                raise RuleError("only cards can be moved", None)
            self._touch_card(c)
        rows = st.zones[key]
        target = row
        for c in cards:
            if c in st.where:
                self._take(c)
            if not any(r is target for r in rows):
                target = []
                rows.append(target)
            i = next(i for i, r in enumerate(rows) if r is target)
            _put(st, c, key, True, Position(i, "left" if bottom else "right"))
        if cards:
            self.touch(key)

    # ---- grids ---------------------------------------------------------------------------
    def grid_size(self, key: str) -> tuple:
        return self.program.grids[key.partition("#")[0]]

    grid_version = 0  # bumped by every change that may move a card on or off a grid space
    _grid_seen: dict | None = None  # a game's own (`grid_seen`), dropped by a copy or a recycled runtime

    def card_at(self, s: Any) -> Any:
        """`card_at(space)`: the card on it (`grid_occupied`, remembered while no card moves)."""
        if s is None:
            return None
        seen = self._grid_seen
        got = seen.get(s.key) if seen is not None else None
        if got is None or got[0] != self.grid_version:
            got = self._grid_occupied(s.key)
        return got[1].get(s.y * got[2] + s.x)

    def _grid_occupied(self, key: str) -> tuple:
        """(the version it was seen at, each occupied space's index to its card, the grid's width),
        remembered in `grid_seen` until a card may have moved (`grid_version`)."""
        spaces = self.state.spaces
        got = self.grid_seen[key] = (self.grid_version, {spaces[c]: c for c in self.state.zones[key] if c in spaces},
                                     self.program.grids[key.partition("#")[0]][0])
        return got

    @property
    def grid_seen(self) -> dict:
        got = self.__dict__.get("_grid_seen")
        if got is None:
            got = self.__dict__["_grid_seen"] = {}
        return got

    @property
    def grid_tables(self) -> dict:
        got = self.__dict__.get("_grid_tables")
        if got is None:
            got = self.__dict__["_grid_tables"] = {}
        return got

    def space(self, key: str, x: int, y: int) -> Space:
        """`space(grid, x, y)`: a space of whole numbers looked up in one table (per ruleset and
        player count: `tables["space_at"]`); any other, checked and made (`_grid_space`)."""
        if type(x) is int and type(y) is int:
            got = self.tables["space_at"].get((key, x, y))
            if got is not None:
                return got
        return self._grid_space(key, x, y)

    def _grid_space(self, key: str, x: int, y: int) -> Space:
        w, h = self.grid_size(key)
        if not (1 <= x <= w and 1 <= y <= h):
            raise RuleError(f"{key} has no space {x},{y} (it is {w} x {h})", None)
        if type(x) is int and type(y) is int:
            got = self.tables["space_at"][(key, x, y)] = self._spaces(key, w, h)[(y - 1) * w + x - 1]
            return got
        return Space(key, x - 1, y - 1)

    def _spaces(self, key: str, w: int, h: int) -> list:
        """Every space of grid `key` (w x h), row by row: values that never change, made once per
        ruleset and player count (hot in tableau games, which ask for spaces and their neighbours
        at every look at the grid)."""
        got = self.tables["spaces"].get(key)
        if got is None:
            got = self.tables["spaces"][key] = [Space(key, i % w, i // w) for i in range(w * h)]
        return got

    def space_of(self, c: Any) -> Any:
        st = self.state
        if c is None or c not in st.spaces:
            return None
        at = st.where.get(c, "")
        if at[:1] == "^" or at.partition("#")[0] not in self.program.grids:
            return None
        w, h = self.grid_size(at)
        i = st.spaces[c]
        return self._spaces(at, w, h)[i] if 0 <= i < w * h else Space(at, i % w, i // w)

    def _near(self, x: Any, is_card: bool, steps: tuple) -> list:
        s = self.space_of(x) if is_card else x
        if s is None:
            return []
        cached = type(s.x) is int and type(s.y) is int
        if cached:  # a space's neighbours, found once per ruleset (a new list each time: the caller's own)
            got = self.tables["near"].get((s, steps is _AROUND))
            if got is not None:
                return list(got)
        w, h = self.grid_size(s.key)
        out = [Space(s.key, s.x + dx, s.y + dy) for dx, dy in steps if 0 <= s.x + dx < w and 0 <= s.y + dy < h]
        if cached:
            self.tables["near"][(s, steps is _AROUND)] = tuple(out)
        return out

    def spaces_around(self, x: Any, is_card: bool) -> list:
        return self._near(x, is_card, _AROUND)

    def spaces_beside(self, x: Any, is_card: bool) -> list:
        return self._near(x, is_card, _BESIDE)

    def cards_around(self, x: Any, is_card: bool) -> list:
        return self._cards_near(x, is_card, _AROUND)

    def cards_beside(self, x: Any, is_card: bool) -> list:
        return self._cards_near(x, is_card, _BESIDE)

    def _cards_near(self, x: Any, is_card: bool, steps: tuple) -> list:
        """The cards on the spaces `_near` finds, in its order: each looked up by its space's index
        in the grid's occupied spaces (`card_at`'s table, once per call, not once per space; the
        indices found once per ruleset for a space of whole numbers)."""
        s = self.space_of(x) if is_card else x
        if s is None:
            return []
        table = self.tables["near_at"]
        at = table.get((s, steps is _AROUND)) if type(s.x) is int and type(s.y) is int else None
        if at is None:
            w = self.grid_size(s.key)[0]
            at = tuple(n.y * w + n.x for n in self._near(s, False, steps))
            if type(s.x) is int and type(s.y) is int:
                table[(s, steps is _AROUND)] = at
        seen = self._grid_seen
        got = seen.get(s.key) if seen is not None else None
        if got is None or got[0] != self.grid_version:
            got = self._grid_occupied(s.key)
        occupied = got[1]
        return [occupied[i] for i in at if i in occupied]

    def row_label(self, row: list) -> str:
        """`str(RowRef)` of a row (by its place now) and a colon, as `Game.label` begins a row."""
        key = self.state.where.get(row[0]) if row else None
        if key is None:
            return "row: "
        i = next((i for i, r in enumerate(self.state.zones[key]) if r is row), None)
        return "row: " if i is None else f"row {i + 1} of {key.split('#')[0]}: "

    def space_xy(self, s: Any, x: bool) -> Any:
        if s is None:
            return None
        return (s.x if x else s.y) + 1

    def grid_spaces(self, key: str) -> list:
        w, h = self.grid_size(key)
        return [Space(key, x, y) for y in range(h) for x in range(w)]

    def grid_empty(self, key: str) -> list:
        """Each empty space as (its `place` position, the space), row by row (`_empty_positions`;
        the positions and spaces are immutable, so made once per grid)."""
        table = self._empty_table(key)
        taken = set(map(self.state.spaces.get, self.state.zones[key]))  # (none for a card off the spaces)
        return list(compress(table, map(not_, map(taken.__contains__, range(len(table)))))) if taken else list(table)

    def _empty_table(self, key: str) -> list:
        table = self.grid_tables.get(key)
        if table is None:
            w, h = self.grid_size(key)
            table = self.grid_tables[key] = [(Position(i, f"space {i % w + 1},{i // w + 1}"),
                                              Space(key, i % w, i // w)) for i in range(w * h)]
        return table

    def move_to_grid(self, c: Any, key: str) -> None:
        """`move` to a grid (`Game.move`): onto the first empty space (found without listing
        every empty one: a setup moves a grid's cards in one at a time)."""
        st = self.state
        if c is None:  # `move none to ...` moves nothing (`listify(None)`)
            return
        self._touch_card(c)
        if c in st.where:
            self._take(c)
        table = self._empty_table(key)
        taken = set(map(st.spaces.get, st.zones[key]))
        i = next(filterfalse(taken.__contains__, range(len(table))), None)
        if i is None:
            raise RuleError(f"{_zone_text(key)} has no empty space left", None)
        _put(st, c, key, False, table[i][0])
        self.grid_version += 1
        self.touch(key)

    def place_in_grid(self, c: int, key: str, pos: Position) -> None:
        """`place` in a grid (`Game.place`) on the chosen space."""
        st = self.state
        self._touch_card(c)
        if c in st.where:
            self._take(c)
        _put(st, c, key, False, pos)
        self.grid_version += 1
        self.touch(key)


def _zone_text(key: str) -> str:
    name, _, owner = key.partition("#")
    return name if not owner else f"{name} of player {int(owner) + 1}"


_BESIDE = ((0, -1), (-1, 0), (1, 0), (0, 1))
_AROUND = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))
_MAX_ITEMS = 1_000_000  # as compiler.MAX_ITEMS
