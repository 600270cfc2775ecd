"""The game runner: executes a compiled ruleset, stops at decisions, applies answers.

One interface for every kind of player: `game.decision` says who must choose among which
options; `game.answer(i)` applies the choice. Humans, agents, scenarios and replays all use it.

Event ordering (documented in docs/language.md): an effect runs to completion; the events it
fires run their triggers at once, in declaration order (card effects first, then rule
triggers); when more than one trigger answers one event, the active player orders them.
After every statement that changed the state, `always` rules and `as soon as` watchers are
re-checked until the state stops changing (bounded, so they cannot loop forever).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from .ast import Node, walk
from .compiler import Compiler, _explain
from .diagnostics import Loc
from .errors import Break, Continue, GameOver, LimitExceeded, RuleError
from .model import CardData, Ruleset
from .state import GameState
from .values import Position, RowRef, Seat, ZoneRef
from .zones import cover, put, row_ids, take_out, zone_cards

__all__ = ["Game", "Decision", "Limits", "Program", "compile_ruleset"]


@dataclass
class Limits:
    max_steps: int = 2_000_000  # statements executed in one game
    max_depth: int = 64  # nested procedure calls and triggers
    max_turns: int = 5_000
    max_settle_passes: int = 100
    max_decisions: int = 100_000  # answered decisions in one game
    max_work: int = 50_000_000  # items visited by `where`, quantifiers, comprehensions and ranges


@dataclass
class Decision:
    player: int
    kind: str  # "choose" | "may" | "place" | "order"
    prompt: str
    options: list[Any]
    labels: list[str]
    loc: Loc | None

    def to_json(self) -> dict:
        return {"player": self.player, "kind": self.kind, "prompt": self.prompt, "options": self.labels,
                "rule": str(self.loc) if self.loc else None}


class Program:
    """A ruleset compiled once; many games can run from it."""

    def __init__(self, rs: Ruleset):
        self.rs = rs
        c = Compiler(rs)
        self.phases = {name: c.block(p.body) for name, p in rs.phases.items()}
        self.procedures = {name: (p.params, c.block(p.body), p) for name, p in rs.procedures.items()}
        self.triggers: dict[str, list[tuple[Node, Any]]] = {}
        for t in rs.triggers:
            self.triggers.setdefault(t.event, []).append((t, c.block(t.body)))
        self.card_triggers: dict[int, dict[str, list[tuple[Node, Any]]]] = {}
        compiled_effects: dict[int, dict] = {}
        for card in rs.cards:
            if card.effect is None:
                continue
            key = id(card.effect)
            if key not in compiled_effects:
                table: dict[str, list] = {}
                for t in card.effect.triggers:
                    table.setdefault(t.event, []).append((t, c.block(t.body)))
                compiled_effects[key] = table
            self.card_triggers[card.id] = compiled_effects[key]
        self.watchers = [(w, c.expr(w.cond), c.block(w.body)) for w in rs.watchers]
        self.always = [(a, c.block(a.body)) for a in rs.always]
        # what each state-based rule reads, so that settling skips rules nothing touched
        self.always_reads = [reads_of(a.body, rs) for a in rs.always]
        self.watcher_reads = [reads_of([w.cond], rs) for w in rs.watchers]
        self.placements = {z: (p.binder, [c.expr(x) for x in p.conds], p) for z, p in rs.placements.items()}
        self.constants = [(name, c.expr(n.value)) for name, n in rs.constants.items()]
        self.stat_inits = {name: (c.expr(s.init) if s.init is not None else None) for name, s in rs.stats.items()}
        self.score = (rs.scores[0].binder, c.expr(rs.scores[0].expr)) if rs.scores else None
        self.tiebreaks = [(t.binder, c.expr(t.expr)) for t in rs.tiebreaks]
        self.rows_zones = frozenset(n for n, z in rs.zones.items() if z.kind == "rows")
        self.events_used = set(self.triggers) | {ev for t in self.card_triggers.values() for ev in t}


_READS_ANYTHING = {"all_cards", "zone_of", "owner", "covered", "cards_under"}


def reads_of(nodes: list[Node], rs: Ruleset) -> frozenset[str] | None:
    """Zone and stat names a piece of rules mentions; None when it may read anything."""
    out: set[str] = set()
    stack = list(nodes)
    seen: list[Node] = []
    while stack:  # where cards are moved *to* is written, not read: skip move/draw destinations
        n = stack.pop()
        if n.kind in ("move", "draw") and n.dest.kind in ("name", "of"):
            stack += [c for c in n.children() if c is not n.dest]
            if n.dest.kind == "of":
                stack.append(n.dest.owner)
            continue
        seen.append(n)
        stack += list(n.children())
    for top in seen:
        for n in [top]:
            if n.kind == "name" and (n.id in rs.zones or n.id in rs.stats):
                out.add(n.id)
            elif n.kind in ("of", "attr") and (n.name in rs.zones or n.name in rs.stats):
                out.add(n.name)
            elif n.kind == "call" and (n.func in _READS_ANYTHING or n.func in rs.procedures):
                return None
            elif n.kind == "name" and n.id in ("turn_number", "round_number", "start_player", "active_player"):
                return None
    return frozenset(out)


def compile_ruleset(rs: Ruleset) -> Program:
    return Program(rs)


class Game:
    """One game in progress. Drive it with `decision` / `answer` until `over`."""

    def __init__(self, program: Program, players: int, seed: Any = 0, limits: Limits | None = None,
                 record_digests: bool = True, after_setup: Callable[["Game"], None] | None = None):
        rs = program.rs
        if not rs.min_players <= players <= rs.max_players:
            raise ValueError(f"{rs.title} is for {rs.min_players} to {rs.max_players} players, not {players}")
        self.program, self.rs = program, rs
        self.limits = limits or Limits()
        self.cards: list[CardData] = rs.cards
        self.seats = [Seat(i) for i in range(players)]
        self.state = GameState(seed=seed, players=players, rng=random.Random(seed))
        self.constants: dict[str, Any] = {}
        self.log: list[str] = []
        self.choices: list[int] = []  # answers to decisions that had more than one option
        self.digests: list[str] = []  # state digest at each recorded decision
        self.decision: Decision | None = None
        self.over = False
        self.error: RuleError | None = None
        self.result: dict | None = None
        self.dirty = False
        self.settling = False
        self.touched: set[str] | None = None  # zones/stats changed since the last settle (None: anything)
        self.steps = 0
        self.work = 0
        self.depth = 0
        self.decisions_made = 0
        self.record_digests = record_digests  # a state digest per decision, for logs and replays
        self._answer: Any = None
        self._after_setup = after_setup  # scenarios arrange the state here, before the first turn
        self._init_state()
        self._gen = self._main()
        self._advance(None)

    # ---- driving -------------------------------------------------------------------------
    def answer(self, index: int) -> None:
        """Answer the pending decision with the index of one of its options."""
        d = self.decision
        if d is None:
            raise ValueError("no decision is pending")
        if not 0 <= index < len(d.options):
            raise ValueError(f"choice {index} is out of range 0..{len(d.options) - 1}")
        self.choices.append(index)
        self.decisions_made += 1
        self.decision = None
        self._advance(d.options[index])

    def _advance(self, value: Any) -> None:
        try:
            d = self._gen.send(value) if value is not None or self._started else next(self._gen)
            self._started = True
            self.decision = d
            if self.record_digests:
                self.digests.append(self.state.digest())
        except StopIteration:
            self._finish()
        except GameOver:
            self._finish()
        except RuleError as err:
            self.error = err
            self.over = True
        except (Break, Continue):
            self.error = RuleError("`break` or `continue` outside a loop", None)
            self.over = True
        except RecursionError:
            self.error = LimitExceeded("rules nest too deeply", None)
            self.over = True
        except _HookFailed as hook:  # the caller's own code (e.g. a scenario's arrangement) failed
            self.over = True
            raise hook.original
        except Exception as ex:  # never let a failure escape the Game object
            import traceback
            self.internal_traceback = traceback.format_exc()
            self.error = RuleError(f"internal error: {type(ex).__name__}: {ex}", None)
            self.over = True

    internal_traceback: str | None = None  # for interpreter bugs caught above

    _started = False

    def _main(self) -> Iterator[Decision]:
        yield from self._run_setup()
        play = self.program.phases.get("play")
        env = self._env(self.state.start_player)
        if play is not None:
            yield from play(self, env)
            raise GameOver()
        while True:
            yield from self.play_round()

    def _finish(self) -> None:
        self.over = True
        self.decision = None
        try:
            self.result = self.scores()
        except RuleError as err:
            self.error = err
        except Exception as ex:
            nodes = self.rs.scores + self.rs.tiebreaks
            self.error = RuleError(_explain(ex), nodes[0].loc if nodes else None)

    # ---- setup ---------------------------------------------------------------------------
    def _init_state(self) -> None:
        st, rs = self.state, self.rs
        for name, z in rs.zones.items():
            empty = (lambda: []) if True else None
            if z.per_player:
                for p in range(st.players):
                    st.zones[f"{name}#{p}"] = empty()
            else:
                st.zones[name] = empty()
        st.pstats = [{} for _ in range(st.players)]
        st.watch = [False] * len(self.program.watchers)

    def _run_setup(self) -> Iterator[Decision]:
        st, prog = self.state, self.program
        env: dict = {"you": None}
        for name, f in prog.constants:
            self.constants[name] = _evaluate(f, self, env, self.rs.constants[name].loc)
        for name, sd in self.rs.stats.items():
            init = prog.stat_inits[name]
            if sd.per_player:
                for p in self.seats:
                    v = _evaluate(init, self, {"you": p}, sd.loc) if init else (sd.lo if sd.lo is not None else 0)
                    st.pstats[p][name] = sd.clamp(v) if isinstance(v, int) else v
            else:
                v = _evaluate(init, self, env, sd.loc) if init else (sd.lo if sd.lo is not None else 0)
                st.stats[name] = sd.clamp(v) if isinstance(v, int) else v
        # cards start outside every zone until setup places them
        setup = prog.phases.get("setup")
        self.settling = True  # state-based rules start after setup
        if setup is not None:
            yield from setup(self, self._env(None))
        if self._after_setup is not None:
            try:
                self._after_setup(self)
            except Exception as ex:
                raise _HookFailed(ex) from ex
        self.settling = False
        for i, (node, cond, _) in enumerate(prog.watchers):
            st.watch[i] = bool(_evaluate(cond, self, self._env(st.active), node.loc))
        self.dirty, self.touched = True, None
        yield from self.settle()

    def _env(self, you: int | None) -> dict:
        return {"you": Seat(you) if you is not None else None}

    # ---- flow ----------------------------------------------------------------------------
    def _flow_loc(self, first: str = "turn") -> Loc | None:
        """Where the game's flow is declared (for errors about a game that does not end)."""
        for name in (first, "turn", "round", "play"):
            if name in self.rs.phases:
                return self.rs.phases[name].loc
        return None

    def _new_period(self) -> Iterator[Decision]:
        """A turn or round begins: rules that read the turn, round or active player are re-checked."""
        self.dirty, self.touched = True, None
        if not self.settling:
            yield from self.settle()

    def play_round(self) -> Iterator[Decision]:
        st = self.state
        st.round_number += 1
        if st.round_number > self.limits.max_turns:  # a round usually has turns: same bound
            raise LimitExceeded(f"the game did not end within {self.limits.max_turns} rounds", self._flow_loc("round"))
        yield from self._new_period()
        yield from self.fire("round_start", None, Seat(st.start_player), None)
        body = self.program.phases.get("round")
        if body is not None:
            yield from body(self, self._env(st.start_player))
        else:
            for p in range(st.players):
                yield from self.play_turn(Seat((st.start_player + p) % st.players))
        yield from self.fire("round_end", None, Seat(st.start_player), None)
        if st.ending == "round":
            raise GameOver()

    def play_turn(self, player: int) -> Iterator[Decision]:
        st = self.state
        st.active = int(player)
        st.turn_number += 1
        if st.turn_number > self.limits.max_turns:
            raise LimitExceeded(f"the game did not end within {self.limits.max_turns} turns", self._flow_loc())
        yield from self._new_period()
        env = self._env(player)
        yield from self.fire("turn_start", None, Seat(player), None)
        body = self.program.phases.get("turn")
        if body is not None:
            try:
                yield from body(self, env)
            except Break:
                pass
        yield from self.fire("turn_end", None, Seat(player), None)
        if st.ending == "turn":
            raise GameOver()

    def end_game(self, after: str | None) -> None:
        if after is None:
            raise GameOver()
        if self.state.ending != "turn":
            self.state.ending = after

    # ---- execution helpers ---------------------------------------------------------------
    def step(self, node: Node) -> None:
        self.steps += 1
        if self.steps > self.limits.max_steps:
            raise LimitExceeded(f"more than {self.limits.max_steps} steps: a rule seems to run forever", node.loc)

    def call(self, name: str, args: list, env: dict, loc: Loc) -> Iterator[Decision]:
        params, body, node = self.program.procedures[name]
        if len(args) != len(params):
            raise RuleError(f"`{name}` takes {len(params)} argument(s), got {len(args)}", loc)
        self.depth += 1
        if self.depth > self.limits.max_depth:
            raise LimitExceeded(f"procedures nest deeper than {self.limits.max_depth} (endless recursion?)", node.loc)
        try:
            local = {"you": env.get("you"), "this": env.get("this")}
            local.update(zip(params, args))
            yield from body(self, local)
        except Break:
            pass
        finally:
            self.depth -= 1

    def fire(self, event: str, subject: Any, actor: Any, loc: Loc | None) -> Iterator[Decision]:
        """Run the triggers answering `event` (the subject card's own first, then the rules')."""
        if event not in self.program.events_used:
            return
        handlers = []
        if isinstance(subject, CardData):
            handlers += self.program.card_triggers.get(subject.id, {}).get(event, [])
        handlers += self.program.triggers.get(event, [])
        if not handlers:
            return
        pending = list(handlers)
        while pending:
            if len(pending) > 1:  # simultaneous triggers: the active player orders them
                node, body = yield from self.decide(
                    Seat(self.state.active), "order", f"Which `{event}` effect first?", pending, loc,
                    labels=[f"{h[0].loc}" for h in pending])
                pending.remove((node, body))
            else:
                node, body = pending.pop()
            self.depth += 1
            if self.depth > self.limits.max_depth:
                raise LimitExceeded(f"triggers nest deeper than {self.limits.max_depth} (endless trigger chain?)",
                                    node.loc)
            try:
                env = {"you": Seat(actor) if actor is not None else Seat(self.state.active), "this": subject}
                if node.binder:
                    env[node.binder] = subject
                yield from body(self, env)
            except Break:
                pass
            finally:
                self.depth -= 1

    def settle(self) -> Iterator[Decision]:
        """Re-check `always` rules and `as soon as` watchers until the state stops changing."""
        prog = self.program
        if not prog.always and not prog.watchers:
            self.dirty = False
            return
        self.settling = True
        changer = None  # the last rule that changed the state: the one to blame for an endless loop
        try:
            for _ in range(self.limits.max_settle_passes):
                self.dirty = False
                touched, self.touched = self.touched, set()
                for (node, body), reads in zip(prog.always, prog.always_reads):
                    if touched is None or reads is None or not reads.isdisjoint(touched):
                        was, self.dirty = self.dirty, False
                        yield from body(self, self._env(self.state.active))
                        if self.dirty:
                            changer = node
                        self.dirty = self.dirty or was
                for i, (node, cond, body) in enumerate(prog.watchers):
                    reads = prog.watcher_reads[i]
                    if touched is not None and reads is not None and reads.isdisjoint(touched):
                        continue
                    env = self._env(self.state.active)
                    now = bool(_evaluate(cond, self, env, node.loc))
                    if now and not self.state.watch[i]:
                        self.state.watch[i] = True
                        was, self.dirty = self.dirty, False
                        yield from body(self, env)
                        if self.dirty:
                            changer = node
                        self.dirty = self.dirty or was
                    elif not now and self.state.watch[i]:
                        self.state.watch[i] = False
                if not self.dirty:
                    return
            node = changer or (prog.always or prog.watchers)[0][0]
            raise LimitExceeded(f"state-based rules keep changing the state after "
                                f"{self.limits.max_settle_passes} passes (endless loop?)", node.loc)
        finally:
            self.settling = False

    def decide(self, player: Any, kind: str, prompt: str, options: list, loc: Loc | None,
               labels: list[str] | None = None) -> Iterator[Decision]:
        """Ask `player` to pick one option; a single option is taken without asking."""
        if player is None:
            player = self.state.active
        if isinstance(player, list):
            raise RuleError("a decision needs one player, not a list", loc)
        if len(options) == 1:
            return options[0]
        if self.decisions_made >= self.limits.max_decisions:
            raise LimitExceeded(f"more than {self.limits.max_decisions} decisions: the game does not seem to end",
                                loc)
        labels = labels or [self.label(o) for o in options]
        answer = yield Decision(int(player), kind, prompt, options, labels, loc)
        return answer

    def card_label(self, cid: int) -> str:
        """A card's label (cards are immutable: computed once per game)."""
        labels = self._labels
        if labels is None:
            labels = self._labels = [c.label() for c in self.cards]
        return labels[cid]

    _labels: list[str] | None = None

    def label(self, v: Any) -> str:
        if isinstance(v, CardData):
            return self.card_label(v.id)
        if isinstance(v, RowRef):
            return f"{v}: " + ", ".join(self.card_label(c.id) for c in self.listify(v))
        return str(v)

    # ---- cards and zones -----------------------------------------------------------------
    def listify(self, v: Any) -> list:
        """Any collection-ish value as a list (zones and rows give their top cards)."""
        if isinstance(v, list):
            return v
        if isinstance(v, ZoneRef):
            key = v.key
            ids = zone_cards(self.state, key, v.name in self.program.rows_zones)
            cards = self.cards
            return [cards[i] for i in ids]
        if isinstance(v, RowRef):
            i = self.row_index(v)
            return [] if i is None else [self.cards[c] for c in self.state.zones[v.key][i]]
        if isinstance(v, dict):
            return list(v)
        if v is None:
            return []
        if isinstance(v, (tuple, range)):
            return list(v)
        return [v]

    def row_index(self, ref: RowRef) -> int | None:
        """Where the row a ref names is now (None once it has emptied and closed up)."""
        if ref.rid < 0:
            return ref.index if 0 <= ref.index < len(self.state.zones[ref.key]) else None
        try:
            return row_ids(self.state, ref.key).index(ref.rid)
        except ValueError:
            return None

    def is_rows(self, z: ZoneRef) -> bool:
        return z.name in self.program.rows_zones

    def _cards(self, what: Any, loc: Loc) -> list[CardData]:
        items = self.listify(what) if not isinstance(what, CardData) else [what]
        for c in items:
            if not isinstance(c, CardData):
                raise RuleError(f"only cards can be moved, not {c!r}", loc)
        return list(items)

    def touch(self, *keys: str) -> None:
        """Note that zones (by key) or stats changed, for settling."""
        self.dirty = True
        if self.touched is not None:
            for k in keys:
                self.touched.add(k.partition("#")[0])

    def _touch_card(self, cid: int) -> None:
        at = self.state.where.get(cid)
        while at is not None and at.startswith("^"):
            at = self.state.where.get(int(at[1:]))
        if at is not None:
            self.touch(at)

    def move(self, what: Any, dest: Any, bottom: bool, loc: Loc) -> list[CardData]:
        cards = self._cards(what, loc)
        st = self.state
        for c in cards:
            self._touch_card(c.id)
        if isinstance(dest, RowRef):
            rows = st.zones[dest.key]
            # the row itself, not its index: taking cards out may close up emptied rows before it
            i = self.row_index(dest)
            target = rows[i] if i is not None else None
            for c in cards:
                if c.id in st.where:
                    take_out(st, c.id, self.program.rows_zones)
                if target is None or not any(r is target for r in rows):
                    target = []
                    rows.append(target)
                i = next(i for i, r in enumerate(rows) if r is target)
                put(st, c.id, dest.key, True, Position(i, "left" if bottom else "right"))
        elif isinstance(dest, ZoneRef):
            rows = self.is_rows(dest)
            for c in cards:
                if c.id in st.where:
                    take_out(st, c.id, self.program.rows_zones)
                put(st, c.id, dest.key, rows, None, bottom)
        else:
            raise RuleError(f"cards can only move to a zone or a row, not {dest!r}", loc)
        if cards:
            self.touch(dest.key)
        return cards

    def legal_positions(self, card: Any, zone: Any, env: dict) -> list[Position]:
        """Where `card` may go in `zone`, according to the zone's placement rules."""
        if not isinstance(card, CardData) or not isinstance(zone, ZoneRef):
            raise RuleError("placing needs a card and a zone", None)
        st = self.state
        rule = self.program.placements.get(zone.name)
        if self.is_rows(zone):
            rows = st.zones[zone.key]
            zd = self.rs.zones[zone.name]
            candidates = []
            for i, row in enumerate(rows):
                cards = [self.cards[x] for x in row if x != card.id]
                candidates.append((Position(i, "left"), [card] + cards))
                if cards:
                    candidates.append((Position(i, "right"), cards + [card]))
            if zd.max_rows is None or len(rows) < zd.max_rows:
                candidates.append((Position(None, "new"), [card]))
        else:
            cards = [c for c in self.listify(zone) if c is not card]
            candidates = [(Position(None, "top"), cards + [card])]
        if rule is None:
            return [p for p, _ in candidates]
        binder, conds, _ = rule
        out = []
        local = dict(env)  # the rule's own names must not overwrite the caller's variables
        local["card"] = card
        for pos, after in candidates:
            local[binder] = after
            if all(f(self, local) for f in conds):
                out.append(pos)
        return out

    def place(self, card: CardData, zone: ZoneRef, pos: Position, loc: Loc) -> None:
        st = self.state
        self._touch_card(card.id)
        if card.id in st.where:
            take_out(st, card.id, self.program.rows_zones)
        put(st, card.id, zone.key, self.is_rows(zone), pos)
        self.touch(zone.key)

    def cover(self, card: Any, target: Any, loc: Loc) -> None:
        if not isinstance(card, CardData) or not isinstance(target, CardData):
            raise RuleError("`place X on Y` needs two cards", loc)
        st = self.state
        if card is target:
            raise RuleError(f"{card.label()} cannot lie on itself", loc)
        if target.id not in st.where:
            raise RuleError(f"{target.label()} is not in play", loc)
        if st.where[target.id].startswith("^"):
            raise RuleError(f"{target.label()} is covered already", loc)
        self._touch_card(card.id)
        self._touch_card(target.id)
        if card.id in st.where:
            take_out(st, card.id, self.program.rows_zones)
        cover(st, card.id, target.id, self.program.rows_zones)

    def shuffle(self, zone: Any, loc: Loc) -> None:
        if not isinstance(zone, ZoneRef) or self.is_rows(zone):
            raise RuleError("only a pile or set zone can be shuffled", loc)
        self.state.rng.shuffle(self.state.zones[zone.key])
        self.touch(zone.key)

    # ---- results -------------------------------------------------------------------------
    def scores(self) -> dict:
        prog = self.program
        scores, keys = [], []
        for p in self.seats:
            env = self._env(p)
            s = 0
            if prog.score:
                env[prog.score[0]] = p
                s = prog.score[1](self, env)
            tb = []
            for binder, f in prog.tiebreaks:
                env[binder] = p
                tb.append(f(self, env))
            scores.append(s)
            keys.append((s, *tb))
        best = max(keys) if keys else None
        winners = [p for p in range(len(keys)) if keys[p] == best]
        return {"scores": scores, "winners": winners, "turns": self.state.turn_number,
                "rounds": self.state.round_number, "decisions": self.decisions_made}

    def view(self, seat: int | None) -> dict:
        """What `seat` may see (None: a spectator): hidden zones show only their size."""
        out: dict[str, Any] = {}
        for name, zd in self.rs.zones.items():
            owners = range(self.state.players) if zd.per_player else [None]
            for o in owners:
                ref = ZoneRef(name, o)
                visible = zd.visibility == "public" or (zd.visibility == "owner" and o is not None and o == seat)
                raw = self.state.zones[ref.key]
                if zd.kind == "rows":
                    out[str(ref)] = [[self._show(c, visible) for c in row] for row in raw] if visible else \
                        [len(r) for r in raw]
                else:
                    out[str(ref)] = [self._show(c, visible) for c in raw] if visible else len(raw)
        out["stats"] = {k: self._plain(v, seat) for k, v in self.state.stats.items()}
        out["players"] = [{k: self._plain(v, seat) for k, v in s.items()} for s in self.state.pstats]
        return out

    def _plain(self, v: Any, seat: int | None) -> Any:
        """A stat's value as JSON-ready data for a view (stats may hold cards, players, lists);
        a card the seat may not see shows as `?`."""
        if isinstance(v, CardData):
            return self.card_label(v.id) if self._sees(v.id, seat) else "?"
        if isinstance(v, (Seat, ZoneRef, RowRef)):
            return str(v)
        if isinstance(v, (list, tuple)):
            return [self._plain(x, seat) for x in v]
        if isinstance(v, dict):
            return {str(self._plain(k, seat)): self._plain(x, seat) for k, x in v.items()}
        return v

    def _sees(self, cid: int, seat: int | None) -> bool:
        at = self.state.where.get(cid)
        if at is None:
            return True
        if at.startswith("^"):
            return False
        name, _, owner = at.partition("#")
        vis = self.rs.zones[name].visibility
        return vis == "public" or (vis == "owner" and owner != "" and int(owner) == seat)

    def _show(self, cid: int, visible: bool) -> str:
        label = self.card_label(cid) if visible else "?"
        n = len(self.state.under.get(cid, ()))
        return f"{label} (on {n} hidden)" if n else label


class _HookFailed(Exception):
    def __init__(self, original: Exception):
        self.original = original


def _evaluate(f: Callable, g: "Game", env: dict, loc: Loc | None) -> Any:
    """Evaluate an expression outside any statement; a failure names the declaring rule."""
    try:
        return f(g, env)
    except RuleError:
        raise
    except RecursionError:
        raise LimitExceeded("rules nest too deeply", loc) from None
    except Exception as ex:
        raise RuleError(_explain(ex), loc) from None
