"""More of the language for direct-style compilation: the game's flow (`round:` and `play:` phases,
`play turn of`, `play round`), dice (`roll`, `.face`), `gain`/`lose` with `when short of`, and
simultaneous choices.

`CoverStatements` is mixed into `direct._Gen` (statements and module pieces), `CoverRuntime` into
`directgame.Runtime` (what the generated code calls). Each piece does what the task engine's
task or closure does (named in its docstring), in the same order, with the same RNG draws and the
same settling, so that both engines play the same game (tests/engine/test_direct_cover.py).
"""
from __future__ import annotations

from typing import Any, Iterator

from ..runtime.errors import GameOver, LimitExceeded, RuleError
from ..runtime.values import Seat
from .directexpr import _ITEM_KIND, Unsupported, V

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
        """`when short of STAT as N:` bodies, before any body that may `lose` is compiled."""
        self.short_names = []
        short: dict[str, list] = {}
        for stat, nodes in self.rs.short_triggers.items():
            for t in nodes:
                fname = f"_sh{len(self.short_names)}"
                self.short_names.append(fname)
                # `change_stat`'s task: `you`, no `this`, the missing amount; not counted in depth
                self.function(fname, [("you", "player"), ("this", "none"), (t.binder, "int")], t.body, t.loc,
                              call=True, counted=False)
                short.setdefault(stat, []).append(fname)
        self.short_fns = short

    short_names: list = []
    short_fns: dict = {}

    def s_play_turn(self, n, d, scope, loops):
        """`play turn of P` (`TurnTask`)."""
        if self.sync:
            raise Unsupported("play turn in a state-based rule")
        p = self.expr(n.player, scope)
        if p.kind != "player":
            raise Unsupported("play turn of a non-player")
        self.emit(d, f"yield from R.play_turn({p.src})", n.loc)
        self.changed = True

    def s_play_round(self, n, d, scope, loops):
        """`play round` (`RoundTask`)."""
        if self.sync:
            raise Unsupported("play round in a state-based rule")
        self.emit(d, "yield from R.play_round()", n.loc)
        self.changed = True

    # ---- gain / lose ---------------------------------------------------------------------
    def s_gain(self, n, d, scope, loops):
        self.gain_lose(n, d, scope, 1)

    def s_lose(self, n, d, scope, loops):
        self.gain_lose(n, d, scope, -1)

    def gain_lose(self, n, d: int, scope: dict, sign: int) -> None:
        """`P gains/loses N stat` (`Compiler._gain_lose`, `Game.change_stat`): each player in
        turn, the amount evaluated for each; then the stat's `when short of` bodies, in order,
        for each player who had too little."""
        sd = self.rs.stats.get(n.stat)
        if sd is None or not sd.per_player:
            raise Unsupported("gain or lose of a shared stat")
        who = self.expr(n.player, scope)
        if who.kind not in ("player", "players"):
            raise Unsupported("gain or lose by a non-player")
        handlers = self.short_fns.get(n.stat, [])
        if handlers and self.sync:
            raise Unsupported("`when short of` in a state-based rule")
        p, short = self.temp(), self.temp()
        if handlers:
            self.emit(d, f"{short} = []", n.loc)
        src = f"({who.src},)" if who.kind == "player" else who.src
        self.emit(d, f"for {p} in {src}:", n.loc)
        inner = dict(scope)
        amount = self.expr(n.amount, inner)
        if amount.kind not in ("int", "any"):
            raise Unsupported("gain or lose of a non-number")
        delta = amount.src if sign > 0 else f"-({amount.src})"
        call = f"R.change_stat({p}, {self.k(n.stat)}, {delta})"
        if handlers:
            m = self.temp()
            self.emit(d + 1, f"{m} = {call}", n.loc)
            self.emit(d + 1, f"if {m}:", n.loc)
            self.emit(d + 2, f"{short}.append(({p}, {m}))", n.loc)
            self.emit(d, f"for {p}, {m} in {short}:", n.loc)
            for fname in handlers:
                self.emit(d + 1, f"yield from {fname}(_Seat({p}), None, {m})", n.loc)
        else:
            self.emit(d + 1, call, n.loc)
        self.changed = True

    # ---- dice ----------------------------------------------------------------------------
    def s_roll(self, n, d, scope, loops):
        """`roll DICE` (`Game.roll`): a face per die from the RNG, then `rolled` per die."""
        if self.sync:
            raise Unsupported("roll in a state-based rule")
        dice = self.expr(n.dice, scope)
        if dice.kind not in ("card", "cards", "zone", "row"):
            raise Unsupported("roll of a non-card")
        items = self.temp()
        self.emit(d, f"{items} = {self.cards_src(dice)}", n.loc)
        self.emit(d, f"R.roll({items})", n.loc)
        if "rolled" in self.events:
            c = self.temp()
            self.emit(d, f"for {c} in {items}:", n.loc)
            self.emit_fire(d + 1, "rolled", c, self.you(scope), n.loc)
        self.changed = True

    def choose_many(self, n, d: int, scope: dict) -> None:
        """`P chooses any/up to N/N X from ...` (`ChooseManyTask`): `any` asks yes or no per
        option; the others ask for one option at a time (`up to` may stop) until N are chosen."""
        player = self.expr(n.player, scope)
        opts = self.expr(n.options, scope)
        if player.kind not in ("player", "none"):
            raise Unsupported("choose by a non-player")
        item = _ITEM_KIND.get(opts.kind)
        if item is None:
            raise Unsupported(f"choose from {opts.kind}")
        mode = n.count.mode
        kv = self.expr(n.count.n, scope) if n.count.n is not None else None
        if kv is not None and kv.kind != "int":
            raise Unsupported("choose a non-number of items")
        o, out, i, pick = self.temp(), self.temp(), self.temp(), self.temp()
        self.emit(d, f"{o} = {self.cards_src(opts) if opts.kind in ('card', 'cards', 'zone', 'row') else 'list(' + opts.src + ')'}", n.loc)
        self.emit(d, f"{i} = {kv.src if kv is not None else 'None'}", n.loc)
        self.emit(d, f"{out} = []", n.loc)
        prompt = n.prompt or f"Choose {n.name}"
        who = self.decision(player.src, "_KSUBSET", "_t", "_YESNO").split(",")[0]  # `_Decision(WHO`
        if mode == "any":
            self.emit(d, f"for {pick} in {o}:", n.loc)
            ask = f"{who}, _KSUBSET, R.subset_prompt({self.k(prompt)}, {pick}), _YESNO, None, None, _LBL)"
            self.emit(d + 1, f"if (yield {ask}) == 0:", n.loc)
            self.emit(d + 2, f"{out}.append({pick})", n.loc)
        else:
            if mode == "exactly":
                self.emit(d, f"if {i} is not None and {i} > len({o}):", n.loc)
                self.emit(d + 1, f"R.cannot_choose({i}, len({o}))", n.loc)
            stop = mode == "up_to"
            self.emit(d, f"while {o} and ({i} is None or len({out}) < {i}):", n.loc)
            opts_src = f"{o} + [_STOP]" if stop else o
            ask = f"{who}, _KCHOOSE, {self.k(prompt)}, {opts_src}, None, None, R.label_or_stop)"
            self.emit(d + 1, f"{pick} = 0 if len({opts_src}) == 1 else (yield {ask})", n.loc)
            if stop:
                self.emit(d + 1, f"if {pick} == len({o}):", n.loc)
                self.emit(d + 2, "break", n.loc)
            self.emit(d + 1, f"{out}.append({o}.pop({pick}))", n.loc)
        py = self.bind(scope, n.name, "cards" if item == "card" else "list")
        self.emit(d, f"{py} = {out}", n.loc)

    def draw_many(self, n, d: int, scope: dict) -> None:
        """`draw N from PILE to Z` (`Compiler.s_draw`): the top N cards, the topmost first."""
        if "drawn" in self.events:  # the task engine checks every card's triggers before any runs
            raise Unsupported("drawing several cards that fire `drawn`")
        k = self.expr(n.count, scope)
        src = self.expr(n.source, scope)
        if k.kind != "int" or src.kind != "zone" or src.rows:
            raise Unsupported("draw N from rows")
        dest = self.dest(n.dest, scope)
        t, kk = self.temp(), self.temp()
        self.emit(d, f"{kk} = {k.src}", n.loc)
        self.emit(d, f"{t} = {src.src}[-{kk}:][::-1] if {kk} > 0 else []", n.loc)
        self.emit_move_many(d, V(t, "cards", nn=True), dest, False, n.loc)
        if n.name:
            py = self.bind(scope, n.name, "cards")
            self.emit(d, f"{py} = {t}", n.loc)

    # ---- simultaneous choices ------------------------------------------------------------
    def s_simul_choose(self, n, d, scope, loops):
        """`simultaneously each P in PLAYERS chooses X from ...` (`SimultaneousTask`): every
        player's options from the same state, then asked one by one; the map player → answer
        is stored once all are in."""
        if self.sync:
            raise Unsupported("simultaneous choice in a state-based rule")
        who = self.expr(n.players, scope)
        if who.kind not in ("player", "players"):
            raise Unsupported("simultaneous choice by non-players")
        mode = n.count.mode if n.count is not None else None
        if mode not in (None, "up_to"):
            raise Unsupported(f"simultaneous choice {mode}")
        asks, p = self.temp(), self.temp()
        self.emit(d, f"{asks} = []", n.loc)
        src = f"({who.src},)" if who.kind == "player" else who.src
        self.emit(d, f"for {p} in {src}:", n.loc)
        inner = dict(scope)
        inner[n.var] = (p, "player")
        opts = self.expr(n.options, inner)
        item = _ITEM_KIND.get(opts.kind)
        if item is None:
            raise Unsupported(f"choose from {opts.kind}")
        osrc = self.cards_src(opts) if opts.kind in ("card", "cards", "zone", "row") else f"list({opts.src})"
        k = "None"
        if mode is not None:
            kv = self.expr(n.count.n, inner) if n.count.n is not None else None
            if kv is not None and kv.kind != "int":
                raise Unsupported("choose up to a non-number")
            k = kv.src if kv is not None else "None"
        self.emit(d + 1, f"{asks}.append(({p}, {osrc}, {k}))", n.loc)
        prompt = self.k(n.prompt or f"Choose {n.name}")
        out, o, a, i = self.temp(), self.temp(), self.temp(), self.temp()
        self.emit(d, f"{out} = {{}}", n.loc)
        self.emit(d, f"for {p}, {o}, {i} in {asks}:", n.loc)
        if mode is None:
            self.emit(d + 1, f"if len({o}) <= 1:", n.loc)
            self.emit(d + 2, f"{out}[{p}] = {o}[0] if {o} else None", n.loc)
            self.emit(d + 1, "else:", n.loc)
            ask = self.decision(p, "_KCHOOSE", prompt, o)
            self.emit(d + 2, f"{out}[{p}] = {o}[(yield {ask})]", n.loc)
        else:
            self.emit(d + 1, f"{a} = []", n.loc)
            self.emit(d + 1, f"{out}[{p}] = {a}", n.loc)
            self.emit(d + 1, f"while {o} and ({i} is None or len({a}) < {i}):", n.loc)
            ask = f"_Decision({p}, _KCHOOSE, {prompt}, {o} + [_STOP], None, None, R.label_or_stop)"
            self.emit(d + 2, f"{i}_ = (yield {ask}) if {o} else 0", n.loc)
            self.emit(d + 2, f"if {i}_ == len({o}):", n.loc)
            self.emit(d + 3, "break", n.loc)
            self.emit(d + 2, f"{a}.append({o}.pop({i}_))", n.loc)
        kind = item if mode is None else ("cards" if item == "card" else "list")
        py = self.bind(scope, n.name, "map:" + kind)
        self.emit(d, f"{py} = {out}", n.loc)


_STOP_LABEL = "stop choosing"


class _Stop:
    """The `stop choosing` option of `choose up to` (as tasks._Stop)."""

    def __repr__(self) -> str:
        return "stop"


STOP = _Stop()


class CoverRuntime:
    """Runtime pieces the generated code of `CoverStatements` calls, mixed into
    `directgame.Runtime` (which provides `state`, `limits`, `game`, `info`, `fire`, ...)."""

    def subset_prompt(self, prompt: str, v: Any) -> str:
        return f"{prompt} — {self.label(v)}?"

    def cannot_choose(self, k: int, n: int) -> None:
        raise RuleError(f"cannot choose {k} from {n} option(s)", None)

    def face(self, c: Any) -> Any:
        return None if c is None or self.covered[c] else self.state.faces.get(c)

    def label_or_stop(self, v: Any) -> str:
        return _STOP_LABEL if v is STOP else self.label(v)

    def function_too_deep(self, loc: Any) -> None:
        """A rule function called deeper than `max_depth` (`codegen.call_rule_function`)."""
        raise LimitExceeded(f"functions nest deeper than {self.limits.max_depth} (endless recursion?)", loc)

    # ---- the flow ------------------------------------------------------------------------
    def events(self) -> set:
        info = self.info
        return set(info["rule_triggers"]) | set(info["card_triggers"])

    def reset_uses(self, prefix: str) -> None:
        uses = self.state.uses
        if uses:
            for k in [k for k in uses if k.startswith(prefix)]:
                del uses[k]

    def play_turn(self, player: Any) -> Iterator:
        """`TurnTask`: the player becomes active, the turn counts, `turn_start`, the turn body,
        `turn_end`; `end game after this turn` ends the game here."""
        st, fns, info = self.state, self.game.fns, self.info
        p = int(player)
        st.active = p
        st.turn_number += 1
        if st.turn_number > self.limits.max_turns:
            raise LimitExceeded(f"the game did not end within {self.limits.max_turns} turns", self.flow_loc())
        self.reset_uses("turn:")
        self.new_period()
        events = self.events()
        if "turn_start" in events:
            yield from self.fire("turn_start", None, Seat(p))
        turn = info["funcs"].get("turn")
        if turn is not None:
            yield from fns[turn](Seat(p))
        if "turn_end" in events:
            yield from self.fire("turn_end", None, Seat(p))
        if st.ending == "turn":
            raise GameOver()

    def play_round(self) -> Iterator:
        """`RoundTask`: the round counts, `round_start`, the `round:` body (or every player's
        turn from the start player), `round_end`; `end game after this round` ends it here."""
        st, fns, info = self.state, self.game.fns, self.info
        st.round_number += 1
        if st.round_number > self.limits.max_turns:
            raise LimitExceeded(f"the game did not end within {self.limits.max_turns} rounds", self.flow_loc("round"))
        self.reset_uses("round:")
        self.new_period()
        events = self.events()
        if "round_start" in events:
            yield from self.fire("round_start", None, Seat(st.start_player))
        body = info["funcs"].get("round")
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

    def play_game(self) -> Iterator:
        """`MainTask` after setup: the `play:` body, or rounds until the game ends."""
        info = self.info
        play = info["funcs"].get("play")
        if play is not None:
            yield from self.game.fns[play](Seat(self.state.start_player))
            raise GameOver()
        while True:
            yield from self.play_round()

    def flow_loc(self, first: str = "turn") -> Any:
        phases = self.rs.phases
        for name in (first, "turn", "round", "play"):
            if name in phases:
                return phases[name].loc
        return None

    # ---- stats and dice ------------------------------------------------------------------
    def change_stat(self, player: Any, name: str, delta: Any) -> int:
        """`Game.change_stat`: the stat within its bounds; returns what a loss lacked (0: none)."""
        sd = self.rs.stats[name]
        p = int(player)
        stats = self.state.pstats[p]
        have = stats[name]
        missing = 0
        if delta < 0 and sd.lo is not None and have + delta < sd.lo:
            missing = sd.lo - (have + delta)
        stats[name] = sd.clamp(have + delta)
        self.touch_stat(name, p)
        return missing

    def roll(self, dice: list) -> None:
        """`Game.roll` without scripted faces: a face per die from the game's RNG."""
        faces_of, cards, st = self.program.die_faces, self.rs.cards, self.state
        for c in dice:
            if c is None or cards[c].type not in faces_of:
                raise RuleError(f"only dice can be rolled, not {self._label(c) if c is not None else 'none'}", None)
            st.faces[c] = st.rng.choice(faces_of[cards[c].type])
        for key in {st.where.get(c, "") for c in dice} - {""}:
            if key[0] != "^":  # a covered die notes nothing any rule reads (as `Game.touch("^7")`)
                self.touch(key)

    # ---- values (library/builtins.py, over card ids) ---------------------------------------
    def range(self, lo: int, hi: int) -> list:
        """`lo..hi` (`Compiler.x_range`): bounded, and counted against the work limit."""
        if hi - lo >= _MAX_ITEMS:
            raise RuleError(f"the range {lo}..{hi} is too long (at most {_MAX_ITEMS} numbers)", None)
        self.work += hi - lo + 1
        if self.work > self.max_work:
            self.too_much_work()
        return list(range(lo, hi + 1))

    def least(self, xs: list) -> Any:
        vals = [x for x in xs if x is not None]
        return min(vals) if vals else 0

    def most(self, xs: list) -> Any:
        vals = [x for x in xs if x is not None]
        return max(vals) if vals else 0

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


_MAX_ITEMS = 1_000_000  # as compiler.MAX_ITEMS
