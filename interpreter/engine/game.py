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

import copy
import random
from dataclasses import dataclass
from typing import Any, Callable

from ..language.tree import Node, walk
from ..compile.compiler import MAX_INT, Compiler
from ..language.diagnostics import Loc
from ..runtime.errors import Break, Continue, GameOver, LimitExceeded, RuleError, explain, value_words
from .actionprefs import action_rules_of, compile_action_prefs
from .blame import rule_terms
from ..compile.syncblocks import is_sync
from ..compile.tasks import BlockTask, FireTask, MainTask, SettleTask, Task
from ..content.model import CardData, Ruleset
from ..runtime.memory import built_value
from ..runtime.state import GameState
from ..runtime.values import Position, RowRef, Seat, Space, TypeRef, ZoneRef
from ..compile.instancedeps import player_plan
from ..analysis import effects
from ..analysis.effects import PERIOD
from ..library import PURE_BUILTINS
from ..library.boards import compile_boards, is_space, move_onto, space_card
from ..runtime.zones import cover, put, row_ids, take_out, zone_cards
from .views import SeatViews

__all__ = ["Game", "Decision", "Limits", "Program", "compile_ruleset"]


@dataclass
class Limits:
    max_steps: int = 2_000_000  # statements executed in one game
    max_depth: int = 64  # nested procedure calls and triggers
    max_turns: int = 5_000
    max_settle_passes: int = 100
    max_decisions: int = 100_000  # answered decisions in one game
    max_work: int = 50_000_000  # items visited by `where`, quantifiers, comprehensions, ranges,
    #                             builtins over collections, and rule function calls
    max_log_chars: int = 20_000_000  # the text of all `log` lines of one game (kept in memory)
    max_memory: int = 20_000_000  # list items and text characters built in one game (runtime/memory.py)


def write_log(game: Any, text: str, limits: "Limits") -> None:
    """Append a `log` line to `game.log`, counting its characters against `max_log_chars` (both
    engines' games keep their log in memory)."""
    game.log_chars += len(text) + 1
    if game.log_chars > limits.max_log_chars:
        raise LimitExceeded(f"the game's log passed {limits.max_log_chars} characters: a rule seems to log "
                            "without end", None)
    game.log.append(text)


class Decision:
    """A pending question: who answers, what kind ("choose" | "may" | "place" | "order"), the options.

    The options' labels are made when first read: bots answering by index never need them, and
    while the decision is pending the state they describe cannot change."""

    __slots__ = ("player", "kind", "prompt", "options", "_labels", "loc", "_label_of")

    def __init__(self, player: int, kind: str, prompt: str, options: list[Any], labels: list[str] | None,
                 loc: Loc | None, label_of: Callable[[Any], str] | None = None):
        self.player, self.kind, self.prompt, self.options, self.loc = player, kind, prompt, options, loc
        self._labels, self._label_of = labels, label_of

    @property
    def labels(self) -> list[str]:
        if self._labels is None:
            self._labels = [self._label_of(o) for o in self.options]
            self._label_of = None
        return self._labels

    def __deepcopy__(self, memo: dict) -> "Decision":
        """A copy that no longer refers to the game it was asked in (its labels are made now)."""
        return Decision(self.player, self.kind, self.prompt, copy.deepcopy(self.options, memo), list(self.labels),
                        self.loc)

    def __repr__(self) -> str:
        return f"Decision(player={self.player}, kind={self.kind!r}, prompt={self.prompt!r}, labels={self.labels!r})"

    def to_json(self) -> dict:
        """The decision as JSON data for people and tools: the player numbered from 1, as in every
        output (the `player` attribute stays the seat's index from 0, as `answer` takes indexes)."""
        return {"player": self.player + 1, "kind": self.kind, "prompt": self.prompt, "options": self.labels,
                "rule": str(self.loc) if self.loc else None}


class Program:
    """A ruleset compiled once; many games can run from it."""

    def __init__(self, rs: Ruleset):
        self.rs = rs
        c = Compiler(rs)
        self.phases = {name: c.block(p.body) for name, p in rs.phases.items()}
        self.procedures = {name: (p.params, c.block(p.body), p) for name, p in rs.procedures.items()}
        # a trigger is (node, body, condition or None)
        self.triggers: dict[str, list[tuple[Node, Any, Any]]] = {}
        for t in rs.triggers:
            self.triggers.setdefault(t.event, []).append(_trigger(c, t))
        self.card_triggers: dict[int, dict[str, list[tuple[Node, Any, Any]]]] = {}
        self.card_actions: dict[int, list[tuple[Node, Any, Any]]] = {}
        self.whenever: dict[str, list[tuple[int, Node, Any, Any]]] = {}  # event → cards in play that answer it
        compiled_effects: dict[int, tuple[dict, list, list]] = {}
        for card in rs.cards:
            if card.effect is None:
                continue
            key = id(card.effect)
            if key not in compiled_effects:
                table: dict[str, list] = {}
                always_on: list = []
                for t in card.effect.triggers:
                    if t.kind == "action":
                        continue
                    if t.whenever:
                        always_on.append(_trigger(c, t))
                    else:
                        table.setdefault(t.event, []).append(_trigger(c, t))
                acts = [(a, c.expr(a.cond) if a.cond is not None else None, c.block(a.body))
                        for a in card.effect.triggers if a.kind == "action"]
                compiled_effects[key] = (table, always_on, acts)
            table, always_on, acts = compiled_effects[key]
            self.card_triggers[card.id] = table
            if acts:
                self.card_actions[card.id] = acts
            for t, body, cond in always_on:
                self.whenever.setdefault(t.event, []).append((card.id, t, body, cond))
        self.rule_actions = [(a, c.expr(a.cond) if a.cond is not None else None, c.block(a.body)) for a in rs.actions]
        self.short = {stat: [(t, c.block(t.body)) for t in ts] for stat, ts in rs.short_triggers.items()}
        self.watchers = [(w, c.expr(w.cond), c.block(w.body)) for w in rs.watchers]
        self.always = [(a, c.block(a.body)) for a in rs.always]
        # state-based rules that never stop at a decision or call: settling can run at once,
        # inside the statement that changed the state, instead of as a task (see Game.settle_before_statement)
        self.settles_at_once = all(is_sync(a.body) for a in rs.always) and all(is_sync(w.body) for w in rs.watchers)
        # what each state-based rule reads, so that settling skips rules nothing touched
        self.always_reads = [effects.reads(a.body, rs) for a in rs.always]
        # per-player `always` loops re-run only for the players whose zones changed (instancedeps.py)
        self.always_players = [player_plan(a.body, rs, c) for a in rs.always]
        self.watcher_reads = [effects.reads([w.cond], rs) for w in rs.watchers]
        self.placements = {z: (p.binder, [c.expr(x) for x in p.conds], p) for z, p in rs.placements.items()}
        # placement rules whose answer may be reused while the state has not changed (see legal_positions)
        self.placement_env = {z: placement_env_names(p, rs, c) for z, p in rs.placements.items()}
        self.constants = [(name, c.expr(n.value)) for name, n in rs.constants.items()]
        self.stat_inits = {name: (c.expr(s.init) if s.init is not None else None) for name, s in rs.stats.items()}
        self.score = (rs.scores[0].binder, c.expr(rs.scores[0].expr)) if rs.scores else None
        self.tiebreaks = [(t.binder, c.expr(t.expr)) for t in rs.tiebreaks]
        # `value p: expr` (bots only): None when the ruleset declares none
        self.value = (rs.values[0].binder, c.expr(rs.values[0].expr)) if rs.values else None
        # `prefer p [for "PROMPT"]: expr` (guided bots only; `it` is the option): None when the ruleset
        # declares none; else (prompt or None, binder, code, rule), the longest prompts first
        # `prefer p for action "LABEL": expr` (actionprefs.py): the action options' own rules. `prefer`
        # is [] rather than None when only those are declared, so bots still ask `preferences`
        self.prefer_actions = compile_action_prefs(c, rs.prefers)
        self.prefer = sorted(((d.prompt, d.binder, c.expr(d.expr), d) for d in rs.prefers if d.action is None),
                             key=lambda r: -len(r[0]) if r[0] is not None else 1) or \
            ([] if self.prefer_actions else None)
        self.rows_zones = frozenset(n for n, z in rs.zones.items() if z.kind == "rows")
        self.grids = {n: (z.width, z.height) for n, z in rs.zones.items() if z.kind == "grid"}
        self.boards = compile_boards(c, rs)  # board graphs: built per game on first use (boards.py)
        self.board_names = frozenset(rs.boards)
        self.events_used = set(self.triggers) | {ev for t in self.card_triggers.values() for ev in t} | \
            set(self.whenever)
        self.die_faces = {name: rs.die_faces(name) for name in rs.die_types}
        # zones where covered cards keep only one part of their abilities (card parts)
        self.kept_parts = {n: z.keeps for n, z in rs.zones.items() if z.keeps}


def _trigger(c: Compiler, t: Node) -> tuple[Node, Any, Any]:
    cond = t.cond
    return t, c.block(t.body), (c.expr(cond) if cond is not None else None)


def placement_env_names(p: Node, rs: Ruleset, c: Compiler) -> tuple[str, ...] | None:
    """The caller's variables a placement rule may read, when its answer depends only on them, the
    card, the zones and stats (which `Game.touch` versions); None when it may read anything else
    (turn or active player, the RNG, functions) and must be evaluated every time."""
    if effects.reads(list(p.conds), rs) is None:
        return None
    names: set[str] = set()
    for n in (m for cond in p.conds for m in walk(cond)):
        if n.kind == "call" and n.func not in PURE_BUILTINS:
            return None  # `random` draws from the RNG; others may read what is not versioned
        if n.kind == "is" and n.what in ("dummy", "covered"):
            return None
        if n.kind == "name" and c.is_local(n.id) and n.id not in (p.binder, "card"):
            names.add(n.id)
    return tuple(sorted(names))


def trigger_label(source: str | None, loc: Loc | None) -> str:
    """A trigger's option when the active player orders several: its card and its rule's file
    name and line — not the path, which depends on where the game was started from."""
    where = f"{loc.file.replace(chr(92), '/').rsplit('/', 1)[-1]}:{loc.line}" if loc is not None else "?"
    return f"{source}: {where}" if source else where


def record_answer(g: Any, index: int) -> Decision:
    """Check an answer to `g`'s pending decision and note it (both engines' `answer`)."""
    d = g.decision
    if d is None:
        raise ValueError("no decision is pending")
    if not 0 <= index < len(d.options):
        raise ValueError(f"choice {index} is out of range 0..{len(d.options) - 1}")
    g.choices.append(index)
    g.decisions_made += 1
    g.decision = None
    return d


def game_result(st: GameState, scores: list, keys: list[tuple], decisions: int, first_player: int) -> dict:
    """A finished game's result: scores, winners (best score, then tiebreaks), length, decisions."""
    best = max(keys) if keys else None
    if st.all_win:  # `end game ... with every player winning`: the seats that take turns win together
        won = list(range(min(st.players, len(keys))))
    else:
        won = [p for p in range(len(keys)) if keys[p] == best and not st.no_winner]
    result = {"scores": scores, "winners": won,
              "turns": st.turn_number, "rounds": st.round_number, "decisions": decisions,
              "first_player": first_player}
    if st.end_reason is not None:  # `end game "reason"`
        result["reason"] = st.end_reason
    if st.end_cap:  # `end game ... by cap`: stopped by a safety cap, not by the rules
        result["cap"] = True
    return result


def held_names(st: GameState, cards: list[CardData], rows_zones: frozenset[str], seats: int) -> list[list[str]]:
    """Per seat, the names of the cards in its own zones (cards under others included)."""
    out: list[list[str]] = [[] for _ in range(seats)]
    for key, z in st.zones.items():
        name, _, owner = key.partition("#")
        if not owner:
            continue
        ids = [c for row in z for c in row] if name in rows_zones else list(z)
        for cid in ids:
            out[int(owner)].append(cards[cid].name)
            out[int(owner)] += [cards[u].name for u in st.under.get(cid, ())]
    return out


def compile_ruleset(rs: Ruleset) -> Program:
    return Program(rs)


class Game(SeatViews):
    """One game in progress. Drive it with `decision` / `answer` until `over`.

    The running rules are an explicit stack of tasks (tasks.py), so `clone()` copies a game
    mid-decision in time proportional to its state, with no replay.
    """

    # told what the state does not show (scenarios assert it): `only_option(decision)` for each
    # decision taken without asking, `shuffled(zone)` for each shuffle; None in play (no cost)
    observer: Any = None

    def __init__(self, program: Program, players: int, seed: Any = 0, limits: Limits | None = None,
                 record_digests: bool = True, after_setup: Callable[["Game"], None] | None = None,
                 observer: Any = None):
        rs = program.rs
        if observer is not None:
            self.observer = observer
        rs.check_players(players)
        self.init_fields(program, players, seed, limits, record_digests, after_setup)
        self.stack: list[Task] = [MainTask()]
        self._init_state()
        self._run()

    def init_fields(self, program: Program, players: int, seed: Any, limits: Limits | None,
                    record_digests: bool, after_setup: Callable[["Game"], None] | None) -> None:
        """Every field of a game that has not started (also used by a `Game` that only evaluates
        expressions over another engine's state: directfacade.py)."""
        rs = program.rs
        self.program, self.rs = program, rs
        self.limits = limits or Limits()
        self.cards: list[CardData] = rs.cards
        self._seats: list[Seat] = []
        self.state = GameState(seed=seed, players=players, rng=random.Random(seed))
        self.constants: dict[str, Any] = {}
        self.log: list[str] = []
        self.log_chars = 0
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
        self.built = 0  # list items and text characters built, against `limits.max_memory`
        self.depth = 0
        self.decisions_made = 0
        self.first_player = 0  # the start player once setup is over (for first-player statistics)
        self.record_digests = record_digests  # a state digest per decision, for logs and replays
        self.forced_rolls: list = []  # faces that the next rolls show (scenarios script dice with it)
        self._after_setup = after_setup  # scenarios arrange the state here, before the first turn
        self.stack = []

    # ---- driving -------------------------------------------------------------------------
    def answer(self, index: int) -> None:
        """Answer the pending decision with the index of one of its options."""
        d = record_answer(self, index)
        self.stack[-1].resume(d.options[index])
        self._run()

    def clone(self) -> "Game":
        """An independent copy of this game, at the same decision (program and cards shared)."""
        new = Game.__new__(Game)
        new.__dict__.update(self.__dict__)
        memo: dict = {}
        for name in ("state", "stack", "decision", "constants", "touched"):
            setattr(new, name, copy.deepcopy(getattr(self, name), memo))
        new.log, new.choices, new.digests = list(self.log), list(self.choices), list(self.digests)
        new.forced_rolls = list(self.forced_rolls)
        new._placement_cache = None  # a clone's state may be rearranged (determinisation) without `touch`
        new.__dict__.pop("observer", None)  # a search's what-ifs are not the watched game's events
        return new

    def _run(self) -> None:
        """Step the top task until a decision is needed or the game is over."""
        stack = self.stack
        try:
            while stack:
                task = stack[-1]
                try:
                    d = task.step(self)
                except (Break, Continue) as signal:
                    self._unwind(isinstance(signal, Break))
                    continue
                except GameOver:
                    self._game_over()
                    continue
                if d is not None:
                    self.decision = d
                    if self.record_digests:
                        self.digests.append(self.state.digest())
                    return
            self._finish()
        except RuleError as err:
            if err.loc is None and stack:
                err = type(err)(err.message, stack[-1].loc)
            self._fail(err)
        except RecursionError:
            self._fail(LimitExceeded("rules nest too deeply", stack[-1].loc if stack else None))
        except _HookFailed as hook:  # the caller's own code (e.g. a scenario's arrangement) failed
            self.over = True
            raise hook.original
        except Exception as ex:  # a content bug surfacing as a Python error: name the rule
            import traceback
            self.internal_traceback = traceback.format_exc()  # kept for interpreter bugs
            self._fail(RuleError.of(ex, stack[-1].loc if stack else None, getattr(stack[-1], "env", None) if stack else None))

    internal_traceback: str | None = None

    def _fail(self, err: RuleError) -> None:
        if err.cause is not None:  # a Python failure: say which part of the rule held which value
            env = err.env if err.env is not None else getattr(self.stack[-1], "env", None) if self.stack else None
            err = rule_terms(self, err, env)
        self.error = err
        self.over = True
        self.decision = None

    def _unwind(self, is_break: bool) -> None:
        """`break` / `continue`: pop up to the nearest loop (or procedure/trigger/turn body)."""
        stack = self.stack
        while stack:
            task = stack[-1]
            if task.catch == "loop":
                if is_break:
                    self.pop()
                return
            if task.catch == "call":
                self.pop()
                return
            self.pop()
        raise RuleError("`break` or `continue` outside a loop", None)

    def _game_over(self) -> None:
        stack = self.stack
        while len(stack) > 1:
            self.pop()
        if stack and isinstance(stack[0], MainTask) and stack[0].stage < MainTask.END:
            stack[0].stage = MainTask.END
        self.settling = False

    def _finish(self) -> None:
        self.over = True
        self.decision = None
        try:
            self.result = self.scores()
        except RuleError as err:
            self.error = err
        except Exception as ex:
            nodes = self.rs.scores + self.rs.tiebreaks
            self.error = RuleError.of(ex, nodes[0].loc if nodes else None)

    # ---- the stack -----------------------------------------------------------------------
    def push(self, task: Any) -> None:
        if isinstance(task, list):
            for t in reversed(task):
                self.stack.append(t)
        else:
            self.stack.append(task)

    def pop(self) -> None:
        self.stack.pop().finish(self)

    def enter_call(self, task: BlockTask, loc: Loc | None, what: str = "procedures") -> BlockTask:
        """Count a procedure or trigger body towards the depth limit (its `finish` uncounts it)."""
        if self.depth + 1 > self.limits.max_depth:
            why = "endless trigger chain?" if what == "triggers" else "endless recursion?"
            raise LimitExceeded(f"{what} nest deeper than {self.limits.max_depth} ({why})", loc)
        self.depth += 1
        return task

    def new_period(self) -> None:
        """A turn or round begins: rules that read the turn, round or active player are re-checked
        (before its start triggers run, as the settle task lands on top of them); a rule that reads
        none of them and none of whose zones and stats changed would find what it found before."""
        self.dirty = True
        if self.recheck_all_each_period:
            self.touched = None
        elif self.touched is not None:
            self.touched.add(PERIOD)
        if not self.settling:
            self.push(SettleTask())

    # True: every state-based rule is re-checked at each turn and round start, as before the
    # PERIOD reads; kept as a switch so tests can replay games recorded that way step for step
    recheck_all_each_period = False

    def settle_before_statement(self) -> bool:
        """Before a statement runs after a change: settle now if no rule reads the change (nothing
        to do) or every state-based body runs at once (`Program.settles_at_once`: the same rules
        in the same order and steps as the `SettleTask`); True when the caller must stop and let a
        `SettleTask` run on the stack first."""
        if not self.settle_needed():
            self.dirty, self.touched = False, set()  # what changed, no state-based rule reads
            return False
        if not self.program.settles_at_once:
            return True
        task = SettleTask()
        stack = self.stack
        stack.append(task)
        while stack and stack[-1] is task:
            task.step(self)
        return False

    def settle_needed(self) -> bool:
        """Whether any `always` rule or watcher reads a zone or stat changed since the last settle."""
        touched, prog = self.touched, self.program
        if touched is None:
            return bool(prog.always or prog.watchers)
        for reads in prog.always_reads:
            if reads is None or not reads.isdisjoint(touched):
                return True
        for reads in prog.watcher_reads:
            if reads is None or not reads.isdisjoint(touched):
                return True
        return False

    def ask(self, player: Any, kind: str, prompt: str, options: list, loc: Loc | None,
            labels: list[str] | None = None) -> Decision | None:
        """A decision for `player`, or None when there is only one option (taken without asking)."""
        if len(options) == 1:
            if self.observer is not None:
                who = player if isinstance(player, int) and int(player) < self.state.players else self.state.active
                self.observer.only_option(Decision(int(who), kind, prompt, options, labels or None, loc, self.label))
            return None
        if player is None:
            player = self.state.active
        if isinstance(player, list):
            raise RuleError("a decision needs one player, not a list", loc)
        if int(player) >= self.state.players:  # a dummy player's choices are made by the active player
            player = self.state.active
        if self.decisions_made >= self.limits.max_decisions:
            raise LimitExceeded(f"more than {self.limits.max_decisions} decisions: the game does not seem to end",
                                loc)
        return Decision(int(player), kind, prompt, options, labels or None, loc, self.label)

    # ---- setup ---------------------------------------------------------------------------
    def _init_state(self) -> None:
        st, rs = self.state, self.rs
        for name, z in rs.zones.items():
            if z.per_player:
                for p in range(st.players):
                    st.zones[f"{name}#{p}"] = []
            else:
                st.zones[name] = []
        st.pstats = [{} for _ in range(st.players)]
        st.watch = [False] * len(self.program.watchers)
        for card in self.cards:
            if card.type in self.program.die_faces:
                st.faces[card.id] = self.program.die_faces[card.type][0]

    def init_values(self) -> None:
        """Constants and stats' starting values (cards start outside every zone until setup)."""
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

    def run_hook(self, hook: Callable[["Game"], None]) -> None:
        """The caller's own code (a scenario's arrangement): its failure is the caller's, not a rule's."""
        try:
            hook(self)
        except Exception as ex:
            raise _HookFailed(ex) from ex
        finally:
            self._placement_cache = None  # the hook may arrange the state directly, without `touch`
            self.version += 1

    def evaluate(self, f: Callable, env: dict, loc: Loc | None) -> Any:
        return _evaluate(f, self, env, loc)

    def _env(self, you: int | None) -> dict:
        return {"you": Seat(you) if you is not None else None}

    @property
    def seats(self) -> list[Seat]:
        """Every seat: the players who take turns, then dummy players (kept in the state)."""
        n = self.state.players + self.state.dummies
        if len(self._seats) != n:
            self._seats = [Seat(i) for i in range(n)]
        return self._seats

    def flow_loc(self, first: str = "turn") -> Loc | None:
        """Where the game's flow is declared (for errors about a game that does not end)."""
        for name in (first, "turn", "round", "play"):
            if name in self.rs.phases:
                return self.rs.phases[name].loc
        return None

    # ---- dummy players ---------------------------------------------------------------------
    def is_dummy(self, seat: Any) -> bool:
        return int(seat) >= self.state.players

    def add_dummy(self) -> Seat:
        """A seat that takes no turns: it has the player stats and zones of any player, is in
        `players` and `other_players()`, not in `turn_order()`; the active player decides for it."""
        st = self.state
        seat = Seat(st.players + st.dummies)
        st.dummies += 1
        for name, z in self.rs.zones.items():
            if z.per_player:
                st.zones[f"{name}#{int(seat)}"] = []
        st.pstats.append({})
        for name, sd in self.rs.stats.items():
            if sd.per_player:
                init = self.program.stat_inits[name]
                v = init(self, {"you": seat}) if init else (sd.lo if sd.lo is not None else 0)
                st.pstats[seat][name] = sd.clamp(v) if isinstance(v, int) else v
        self.touched = None
        self.dirty = True
        self.version += 1
        return seat

    def end_game(self, after: str | None) -> None:
        if after is None:
            raise GameOver()
        if self.state.ending != "turn":
            self.state.ending = after

    # ---- calls and events ----------------------------------------------------------------
    def call_task(self, name: str, args: list, env: dict, loc: Loc) -> BlockTask:
        params, body, node = self.program.procedures[name]
        if len(args) != len(params):
            raise RuleError(f"`{name}` takes {len(params)} argument(s), got {len(args)}", loc)
        local = {"you": env.get("you"), "this": env.get("this")}
        local.update(zip(params, args))
        return self.enter_call(BlockTask(body, local, catch="call", depth=True), node.loc)

    def fire_task(self, event: str, subject: Any, actor: Any, loc: Loc | None) -> FireTask | None:
        """The task that runs the triggers answering `event`, or None when nothing answers: the
        subject card's own `when` triggers, the rules' triggers, then `whenever` triggers of cards
        in play (each run by the card's owner). A trigger whose condition is false now does not
        answer; when several answer, the active player orders them."""
        prog = self.program
        if event not in prog.events_used:
            return None
        you = Seat(actor) if actor is not None else Seat(self.state.active)
        candidates = []
        if isinstance(subject, CardData):
            for node, body, cond in prog.card_triggers.get(subject.id, {}).get(event, ()):
                candidates.append((node, body, cond, {"you": you, "this": subject}, subject.name))
        for node, body, cond in prog.triggers.get(event, ()):
            candidates.append((node, body, cond, {"you": you, "this": subject}, None))
        for cid, node, body, cond in prog.whenever.get(event, ()):
            owner = self._in_play_owner(cid)
            if owner is not None and self.ability_live(cid, node):
                candidates.append((node, body, cond, {"you": Seat(owner), "this": self.cards[cid]},
                                   self.cards[cid].name))
        pending = []
        for node, body, cond, env, source in candidates:
            if node.binder:
                env[node.binder] = subject
            if cond is not None:
                try:
                    if not cond(self, env):
                        continue
                except RuleError:
                    raise
                except Exception as ex:  # a content bug in the condition: name the rule
                    raise RuleError(f"in this trigger's condition: {explain(ex)}", node.loc) from None
            pending.append((node, body, env, trigger_label(source, node.loc)))
        return FireTask(event, pending, loc) if pending else None

    def fire_tasks(self, event: str, subjects: list, actor: Any, loc: Loc | None) -> list | None:
        tasks = [t for t in (self.fire_task(event, s, actor, loc) for s in subjects) if t is not None]
        return tasks or None

    def push_fire(self, event: str, subject: Any, actor: Any, loc: Loc | None) -> None:
        task = self.fire_task(event, subject, actor, loc)
        if task is not None:
            self.push(task)

    # ---- dice and stats ------------------------------------------------------------------
    def roll(self, dice: Any, actor: Any, loc: Loc) -> list | None:
        """Roll each die (a random face from the game's RNG, or the next forced face); then
        `rolled` fires for each, in order."""
        items = self.listify(dice) if not isinstance(dice, CardData) else [dice]
        faces_of = self.program.die_faces
        for d in items:
            if not isinstance(d, CardData) or d.type not in faces_of:
                raise RuleError(f"only dice can be rolled, not {value_words(d)}", loc)
            faces = faces_of[d.type]
            if self.forced_rolls:
                face = self.forced_rolls.pop(0)
                if face not in faces:
                    raise RuleError(f"scripted roll `{face}` is not a face of {d.type}", loc)
            else:
                face = self.state.rng.choice(faces)
            self.state.faces[d.id] = face
        if items:
            self.touch(*{self.state.where.get(d.id, "") for d in items} - {""})
        return self.fire_tasks("rolled", items, actor, loc)

    def change_stat(self, player: Any, stat: str, delta: int, loc: Loc) -> list:
        """`gain`/`lose`: change a player stat within its bounds; a loss larger than what the
        player has runs the stat's `when short of` rules with the missing amount."""
        sd = self.rs.stats[stat]
        p = int(player)
        have = self.state.pstats[p][stat]
        missing = 0
        if delta < 0 and sd.lo is not None and have + delta < sd.lo:
            missing = sd.lo - (have + delta)
        self.state.pstats[p][stat] = sd.clamp(have + delta)
        self.touch(f"{stat}#{p}")  # the stat and its instance (instancedeps.py)
        if not missing:
            return []
        return [BlockTask(body, {"you": Seat(p), "this": None, node.binder: missing}, catch="call")
                for node, body in self.program.short.get(stat, ())]

    def add(self, a: Any, b: Any) -> Any:
        """`+`: numbers add, lists (and zones) join, and a text joins with anything as text."""
        if isinstance(a, str) or isinstance(b, str):
            out: Any = self.text(a) + self.text(b)
        elif isinstance(a, (list, ZoneRef, RowRef)) or isinstance(b, (list, ZoneRef, RowRef)):
            out = self.listify(a) + self.listify(b)
        else:
            out = a + b
            if out.__class__ is int and not -MAX_INT <= out <= MAX_INT:
                raise RuleError(f"the number {a} + {b} is too large", None)
            return out
        return built_value(self, out)  # charged to the memory budget, bounded in size

    def sub(self, a: Any, b: Any) -> Any:
        """`-`: numbers, bounded as `add` bounds them (a number that keeps growing would make each
        step slower, long before the step limit)."""
        out = a - b
        if out.__class__ is int and not -MAX_INT <= out <= MAX_INT:
            raise RuleError(f"the number {a} - {b} is too large", None)
        return out

    def write_log(self, text: str) -> None:
        """`log`: a line of the game's log, all of which is kept: bounded in characters."""
        write_log(self, text, self.limits)

    def text(self, v: Any) -> str:
        """A value as a designer reads it (for `log` and joined texts)."""
        if isinstance(v, str):
            return v
        if isinstance(v, bool):
            return "yes" if v else "no"
        if v is None:
            return "none"
        if isinstance(v, (CardData, RowRef)):
            return self.label(v)
        if isinstance(v, TypeRef):
            return v.name
        if isinstance(v, list):
            return "[" + ", ".join(self.text(x) for x in v) + "]"
        return str(v)

    def label(self, v: Any) -> str:
        if isinstance(v, CardData):
            if v.id in self.state.faces:
                return f"{v.name} #{v.id + 1} showing {self.state.faces[v.id]}"
            return self.card_label(v.id)
        if isinstance(v, RowRef):
            return f"{v}: " + ", ".join(self.card_label(c.id) for c in self.listify(v))
        if isinstance(v, list):  # e.g. a walk over board spaces: its items by their labels
            return "[" + ", ".join(self.label(x) for x in v) + "]"
        return str(v)

    # ---- cards and zones -----------------------------------------------------------------
    def charged_list(self, v: Any) -> list:
        """`listify`, with the items counted against the work limit: what a builtin or `in` does
        to a collection (a sum of a long list inside a loop would otherwise go uncounted)."""
        out = self.listify(v)
        self.work += len(out)
        if self.work > self.limits.max_work:
            raise LimitExceeded(f"expressions visited more than {self.limits.max_work} items: "
                                "a rule seems to run forever", None)
        return out

    def listify(self, v: Any) -> list:
        """Any collection-ish value as a list (zones and rows give their top cards)."""
        cls = v.__class__
        if cls is list:
            return v
        if cls is ZoneRef:  # the commonest case first, without the `key` property and helper calls
            name, owner = v
            z = self.state.zones[name if owner is None else f"{name}#{owner}"]
            cards = self.cards
            if name in self.program.rows_zones:
                return [cards[i] for row in z for i in row]
            return [cards[i] for i in z]
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

    # ---- grids ---------------------------------------------------------------------------
    def grid_size(self, key: str) -> tuple[int, int] | None:
        return self.program.grids.get(key.partition("#")[0])

    def grid_occupied(self, key: str) -> dict[int, int]:
        """Space index → the card on it, for one grid zone."""
        spaces = self.state.spaces
        return {spaces[c]: c for c in self.state.zones[key] if c in spaces}

    def space_of(self, card: CardData) -> Space | None:
        cid = card.id
        at = self.state.where.get(cid, "")
        if cid not in self.state.spaces or at.startswith("^"):
            return None
        if at in self.program.board_names:
            return space_card(self, card)
        w, _ = self.grid_size(at)
        i = self.state.spaces[cid]
        return Space(at, i % w, i // w)

    def _empty_positions(self, key: str) -> list[Position]:
        w, h = self.grid_size(key)
        taken = self.grid_occupied(key)
        return [Position(i, f"space {i % w + 1},{i // w + 1}") for i in range(w * h) if i not in taken]

    def _cards(self, what: Any, loc: Loc) -> list[CardData]:
        items = self.listify(what) if not isinstance(what, CardData) else [what]
        for c in items:
            if not isinstance(c, CardData):
                raise RuleError(f"only cards can be moved, not {value_words(c)}", loc)
        return list(items)

    def touch(self, *keys: str) -> None:
        """Note that zones (by key) or stats changed, for settling."""
        self.dirty = True
        self.version += 1
        touched = self.touched
        if touched is not None:
            for k in keys:
                name, _, inst = k.partition("#")
                touched.add(name)
                if inst:  # the instance too (`pile#2`): see instancedeps.py
                    touched.add(k)

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
            if dest.name in self.program.grids:  # `move` fills the first empty spaces, row by row
                for c in cards:
                    if c.id in st.where:
                        take_out(st, c.id, self.program.rows_zones)
                    free = self._empty_positions(dest.key)
                    if not free:
                        raise RuleError(f"{dest} has no empty space left", loc)
                    put(st, c.id, dest.key, False, free[0])
                if cards:
                    self.touch(dest.key)
                return cards
            if rows and cards:
                raise RuleError(f"cards go into the rows of {dest} with `place`, or `move ... to` one of its rows",
                                loc)
            for c in cards:
                if c.id in st.where:
                    take_out(st, c.id, self.program.rows_zones)
                put(st, c.id, dest.key, rows, None, bottom)
        elif is_space(self, dest):  # onto a board space: into the board's zone, lying on that space
            return move_onto(self, cards, dest)
        else:
            raise RuleError(f"cards can only move to a zone, a row or a board space, not {self.text(dest)}", loc)
        if cards:
            self.touch(dest.key)
        return cards

    def legal_positions(self, card: Any, zone: Any, env: dict) -> list[Position]:
        """Where `card` may go in `zone`, according to the zone's placement rules."""
        if not isinstance(card, CardData):
            raise RuleError(f"there is no card to place (got {self.text(card)})", None)
        if not isinstance(zone, ZoneRef):
            raise RuleError(f"cards are placed in a zone, not in {self.text(zone)}", None)
        st = self.state
        rule = self.program.placements.get(zone.name)
        names = self.program.placement_env.get(zone.name) if rule is not None else None
        if names is not None:  # the same question on an unchanged state has the same answer
            sig = (card.id, zone.key, self.version, tuple(env.get(x) for x in names))
            hit = self._placement_cache
            if hit is not None and hit[0][:3] == sig[:3] and all(a is b for a, b in zip(hit[0][3], sig[3])):
                self.work += hit[2]  # as if evaluated again: the same items visited
                return list(hit[1])
            work = self.work
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
        elif zone.name in self.program.grids:  # every empty space; the rule's name is the space
            w, _ = self.program.grids[zone.name]
            candidates = [(p, Space(zone.key, p.row % w, p.row // w)) for p in self._empty_positions(zone.key)]
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
            for f in conds:  # as all(): the first false condition ends the check
                if not f(self, local):
                    break
            else:
                out.append(pos)
        if names is not None:
            self._placement_cache = (sig, tuple(out), self.work - work)
        return out

    version = 0  # bumped by every change `touch` notes (placement answers are cached per version)
    _placement_cache: tuple | None = None

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
        if self.observer is not None:
            self.observer.shuffled(zone)

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
        return game_result(self.state, scores, keys, self.decisions_made, self.first_player)

    def values(self) -> list[float] | None:
        """Every seat's `value` now (what the ruleset says a player should value, higher better),
        or None when the ruleset declares none. For look-ahead bots: it changes nothing."""
        prog = self.program
        if prog.value is None:
            return None
        binder, f = prog.value
        out = []
        for p in self.seats:
            env = self._env(p)
            env[binder] = p
            v = f(self, env)
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                what = "none" if v is None else "a truth value" if isinstance(v, bool) else "not a number"
                raise RuleError(f"the value of player {int(p) + 1} is {what}: `value` must give a number",
                                self.rs.values[0].loc)
            out.append(float(v))
        return out

    def preferences(self, decision: Decision) -> list[float] | None:
        """How much the deciding player likes each option of `decision` by the ruleset's `prefer`
        rule for it — the rule whose prompt the decision's prompt begins with (the longest), else
        the rule without one — with `it` bound to the option (`none` counts 0); None when no rule
        applies. For guided bots: it changes nothing."""
        rule = next((r for r in self.program.prefer or () if r[0] is None or (decision.prompt or "").startswith(r[0])), None)
        by_action = action_rules_of(self.program.prefer_actions, decision.options, decision.labels) \
            if decision.kind == "action" and self.program.prefer_actions else None
        if rule is None and by_action is None:
            return None
        out = []
        for i, option in enumerate(decision.options):
            named = by_action[i] if by_action is not None else None
            if named is not None:  # `prefer p for action "LABEL"`: `it` the label, `this` the card
                (_, binder, f, decl), label, card = named
                env = self._env(decision.player)
                env[binder], env["it"], env["this"] = Seat(decision.player), label, card
            elif rule is not None:
                _, binder, f, decl = rule
                env = self._env(decision.player)
                env[binder], env["it"] = Seat(decision.player), option
            else:  # an option no rule names, beside options that a rule for actions rates
                out.append(0.0)
                continue
            v = f(self, env)
            if v is None:
                v = 0
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                what = "a truth value" if isinstance(v, bool) else "not a number"
                shown = named[1] if named is not None else self.label(option)
                raise RuleError(f"the preference of player {decision.player + 1} for {shown} is {what}: "
                                "`prefer` must give a number (or none)", decl.loc)
            out.append(float(v))
        return out

    def option_values(self, decision: Decision) -> list:
        """The options of `decision` as rule values (the facade of both engines: directfacade.py)."""
        return decision.options

    def expression_value(self, node: Node, env: dict | None, tell: bool = True, kinds: dict | None = None) -> Any:
        """An expression of the rules evaluated now with the variables `env` (a scenario's
        `values:`, a failed rule's part: engine/blame.py); the facade of both engines
        (directfacade.py). With `tell` false, a failure is Python's own."""
        c = Compiler(self.rs)
        c.generate = False
        f = c.expr(node)
        return f(self, dict(env or {})) if not tell else _evaluate(f, self, dict(env or {}), None)

    def constants_value(self, name: str) -> Any:
        """A constant's value (None for a name that is no constant): the facade of both engines."""
        return self.constants.get(name)

    def evaluator(self) -> "Game":
        """The game that evaluates rule-language expressions over this game's state: itself (a
        game of direct code gives a task-engine one, directfacade.py)."""
        return self

    def held(self) -> list[list[str]]:
        """Per seat, the names of the cards in its own zones (cards under others included)."""
        return held_names(self.state, self.cards, self.program.rows_zones, len(self.seats))

    def _in_play_owner(self, cid: int) -> int | None:
        """A card is in play when it lies uncovered in a per-player zone: its owner answers for it."""
        at = self.state.where.get(cid)
        if at is None or at.startswith("^") or "#" not in at:
            return None
        return int(at.partition("#")[2])

    def ability_live(self, cid: int, node: Node) -> bool:
        """Card parts: in a zone declared `covered keep PART`, only the top card has all its
        abilities; the cards below it keep only the abilities of that part."""
        kept = self.program.kept_parts
        if not kept:
            return True
        at = self.state.where.get(cid)
        if at is None or at.startswith("^"):
            return True
        name = at.partition("#")[0]
        part = kept.get(name)
        if part is None:
            return True
        z = self.state.zones[at]
        return (bool(z) and z[-1] == cid) or getattr(node, "part", None) == part

    def reset_uses(self, prefix: str) -> None:
        uses = self.state.uses
        for k in [k for k in uses if k.startswith(prefix)]:
            del uses[k]

    def available_actions(self, player: int, sources: Any) -> list[tuple[str, Node, Any, Any, Any]]:
        """Actions `player` may take now: the rules' own, then those of the player's cards in
        play (and of cards in `sources`), each within its use limit and condition."""
        out = []
        p = Seat(player)
        for i, (node, cond, body) in enumerate(self.program.rule_actions):
            out.append((f"rule:{i}", node, cond, body, None))
        cards: list[CardData] = []
        for key, ids in self.state.zones.items():
            if key.endswith(f"#{int(player)}") and key.partition("#")[0] not in self.program.rows_zones:
                cards += [self.cards[i] for i in ids]
        if sources is not None:
            cards += [c for c in self.listify(sources) if isinstance(c, CardData) and c not in cards]
        for c in cards:
            for i, (node, cond, body) in enumerate(self.program.card_actions.get(c.id, ())):
                if self.ability_live(c.id, node):
                    out.append((f"{c.id}:{i}", node, cond, body, c))
        legal = []
        for key, node, cond, body, card in out:
            if node.limit is not None and self.state.uses.get(f"{node.period}:{key}", 0) >= node.limit:
                continue
            if cond is not None and not cond(self, {"you": p, "this": card}):
                continue
            legal.append((key, node, cond, body, card))
        return legal


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
        raise RuleError.of(ex, loc, env) from None
