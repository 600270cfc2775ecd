"""The runtime's explicit stack: every piece of rules that is still running is a Task.

A task holds only data (environments, indices, pending options) and references to compiled
code, never a Python generator or a closure over the game, so a whole game — its state and its
stack — can be copied mid-decision in time proportional to its size (`Game.clone`).

Protocol: the game calls `task.step(game)` on the top task. A step may finish the task
(`game.pop()`), push child tasks (`game.push(...)`), or return a `Decision`; the answer is stored
with `task.resume(value)` and the task is stepped again.
"""
from __future__ import annotations

from typing import Any

from ..runtime.errors import GameOver, LimitExceeded, RuleError
from .syncblocks import run_statement
from ..runtime.values import Seat

Game = Any  # the running game (engine.game.Game), which drives the tasks: named for the reader

__all__ = ["run_inline", "Task", "Block", "BlockTask", "ForTask", "RepeatTask", "IfMayTask", "AskTask", "ChooseTask",
           "ChooseManyTask", "SimultaneousTask", "PlaceTask", "FireTask", "SettleTask", "TurnTask", "RoundTask", "MainTask",
           "ActionsTask", "UNSET"]


class _Unset:
    def __repr__(self) -> str:
        return "UNSET"

    def __deepcopy__(self, memo):
        return self


UNSET = _Unset()


class Block:
    """Compiled statements: a tuple of (function, node). Immutable and shared by copies."""

    __slots__ = ("stmts", "loc")

    def __init__(self, stmts: tuple, loc):
        self.stmts = stmts
        self.loc = loc

    def __deepcopy__(self, memo):
        return self


class Task:
    """Base: `catch` says what a `break` does on reaching it ("loop": ends the loop;
    "call": ends the procedure, trigger or turn body); `depth` tasks count towards the depth limit."""

    __slots__ = ("answer",)
    catch: str | None = None
    depth = False
    loc = None

    def step(self, g: "Game"):
        raise NotImplementedError

    def resume(self, value: Any) -> None:
        self.answer = value

    def finish(self, g: "Game") -> None:
        """Called when the task leaves the stack, however it leaves."""


class BlockTask(Task):
    __slots__ = ("block", "env", "pc", "catch", "depth")

    def __init__(self, block: Block, env: dict, catch: str | None = None, depth: bool = False):
        self.block, self.env, self.pc, self.catch, self.depth = block, env, 0, catch, depth

    @property
    def loc(self):
        stmts = self.block.stmts
        return stmts[self.pc - 1][1].loc if self.pc else self.block.loc

    def step(self, g: "Game"):
        stmts = self.block.stmts
        env = self.env
        limit = g.limits.max_steps
        while True:
            if g.dirty and not g.settling and g.settle_before_statement():
                g.push(SettleTask())
                return None
            pc = self.pc
            if pc >= len(stmts):
                g.pop()
                return None
            fn, node = stmts[pc]
            self.pc = pc + 1
            g.steps += 1
            if g.steps > limit:
                raise LimitExceeded(f"more than {limit} steps: a rule seems to run forever", node.loc)
            r = fn(g, env)
            if r is not None:
                g.push(r)
                return None

    def finish(self, g: "Game") -> None:
        if self.depth:
            g.depth -= 1


class ForTask(Task):
    __slots__ = ("items", "i", "name", "body", "env")
    catch = "loop"

    def __init__(self, items: list, name: str, body: Block, env: dict):
        self.items, self.i, self.name, self.body, self.env = items, 0, name, body, env

    @property
    def loc(self):
        return self.body.loc

    def step(self, g: "Game"):
        if self.i >= len(self.items):
            g.pop()
            return None
        self.env[self.name] = self.items[self.i]
        self.i += 1
        r = run_inline(g, self.body, self.env)  # at once while it can (run_inline)
        if r is not None:
            g.push(r)
        return None


class RepeatTask(Task):
    __slots__ = ("limit", "k", "cond", "body", "env")
    catch = "loop"

    def __init__(self, limit: int | None, cond, body: Block, env: dict):
        self.limit, self.k, self.cond, self.body, self.env = limit, 0, cond, body, env

    @property
    def loc(self):
        return self.body.loc

    def step(self, g: "Game"):
        if (self.limit is not None and self.k >= self.limit) or (self.cond is not None and not self.cond(g, self.env)):
            g.pop()
            return None
        self.k += 1
        r = run_inline(g, self.body, self.env)  # at once while it can (run_inline)
        if r is not None:
            g.push(r)
        return None


class IfMayTask(Task):
    """An `if` whose conditions include `P may "..."` decisions: asked in order, lazily."""

    __slots__ = ("branches", "orelse", "env", "i", "answer", "loc")

    def __init__(self, branches: tuple, orelse: Block | None, env: dict, loc):
        self.branches, self.orelse, self.env, self.i, self.answer, self.loc = branches, orelse, env, 0, UNSET, loc

    def step(self, g: "Game"):
        while self.i < len(self.branches):
            (kind, cond, extra), body = self.branches[self.i]
            if kind in ("may", "may_not"):
                if self.answer is UNSET:
                    d = g.ask(cond(g, self.env), "may", extra, [True, False], self.loc, ["yes", "no"])
                    if d is not None:
                        return d
                    self.answer = True
                ok, self.answer = self.answer, UNSET
                if kind == "may_not":
                    ok = not ok
            else:
                ok = cond(g, self.env)
            self.i += 1
            if ok:
                g.pop()
                g.push(BlockTask(body, self.env))
                return None
        g.pop()
        if self.orelse is not None:
            g.push(BlockTask(self.orelse, self.env))
        return None


class AskTask(Task):
    """One decision whose answer is stored in a variable (`choose`), then done."""

    __slots__ = ("player", "kind", "prompt", "options", "labels", "name", "env", "answer", "loc")

    def __init__(self, player, kind, prompt, options, labels, name, env, loc):
        self.player, self.kind, self.prompt, self.options, self.labels = player, kind, prompt, options, labels
        self.name, self.env, self.answer, self.loc = name, env, UNSET, loc

    def step(self, g: "Game"):
        if self.answer is UNSET:
            d = g.ask(self.player, self.kind, self.prompt, self.options, self.loc, self.labels)
            if d is not None:
                return d
            self.answer = self.options[0]
        self.env[self.name] = self.answer
        g.pop()
        return None


ChooseTask = AskTask


class _Stop:
    def __repr__(self) -> str:
        return "stop"


class ChooseManyTask(Task):
    """`choose any` (a yes/no per option), `choose up to N` (may stop), `choose N`."""

    __slots__ = ("player", "mode", "k", "prompt", "options", "remaining", "chosen", "i", "name", "env",
                 "answer", "loc")

    def __init__(self, player, mode, k, prompt, options, name, env, loc):
        self.player, self.mode, self.k, self.prompt, self.options = player, mode, k, prompt, list(options)
        self.remaining, self.chosen, self.i = list(options), [], 0
        self.name, self.env, self.answer, self.loc = name, env, UNSET, loc
        if mode == "exactly" and k is not None and k > len(options):
            raise RuleError(f"cannot choose {k} from {len(options)} option(s)", loc)

    def step(self, g: "Game"):
        while True:
            if self.mode == "any":
                if self.i >= len(self.options):
                    return self._done(g)
                o = self.options[self.i]
                if self.answer is UNSET:
                    return g.ask(self.player, "subset", f"{self.prompt} — {g.label(o)}?", [True, False], self.loc,
                                 ["yes", "no"])
                if self.answer:
                    self.chosen.append(o)
                self.answer = UNSET
                self.i += 1
                continue
            if not self.remaining or (self.k is not None and len(self.chosen) >= self.k):
                return self._done(g)
            stop = self.mode == "up_to"
            opts = self.remaining + ([_Stop()] if stop else [])
            if self.answer is UNSET:
                labels = [g.label(o) for o in self.remaining] + (["stop choosing"] if stop else [])
                d = g.ask(self.player, "choose", self.prompt, opts, self.loc, labels)
                if d is not None:
                    return d
                self.answer = opts[0]
            pick, self.answer = self.answer, UNSET
            if isinstance(pick, _Stop):
                return self._done(g)
            self.remaining.remove(pick)
            self.chosen.append(pick)

    def _done(self, g: "Game"):
        self.env[self.name] = self.chosen
        g.pop()
        return None


class SimultaneousTask(Task):
    """`simultaneously each p in PLAYERS chooses ...`: one private decision per player.

    Every player's options were computed before the task started (from one state), the players
    are asked one by one in the given order, and each answer is kept here — not in the game
    state, not in any variable the rules can read — until all are in. Only then is the map
    player → answer stored in the variable, so the rules resolve every answer together.
    A player with no option answers `none`; one option is taken without asking."""

    __slots__ = ("asks", "mode", "prompt", "name", "env", "i", "child", "answers", "loc")

    def __init__(self, asks: list, mode, prompt, name, env, loc):
        self.asks, self.mode, self.prompt, self.name, self.env, self.loc = asks, mode, prompt, name, env, loc
        self.i, self.child, self.answers = 0, None, {}

    def step(self, g: "Game"):
        if self.child is not None:  # the current player's decision task has finished
            self.answers[self.asks[self.i][0]] = self.child.get(self.name)
            self.child = None
            self.i += 1
        while self.i < len(self.asks):
            player, opts, k = self.asks[self.i]
            self.child = {}
            if self.mode is None:
                if len(opts) <= 1:
                    if opts and g.observer is not None:  # a scenario asserts the decision it was not asked
                        g.ask(player, "choose", self.prompt, opts, self.loc)
                    self.answers[player] = opts[0] if opts else None
                    self.child = None
                    self.i += 1
                    continue
                g.push(AskTask(player, "choose", self.prompt, opts, None, self.name, self.child, self.loc))
            else:
                g.push(ChooseManyTask(player, self.mode, k, self.prompt, opts, self.name, self.child, self.loc))
            return None
        self.env[self.name] = self.answers
        g.pop()
        return None


class PlaceTask(Task):
    __slots__ = ("card", "zone", "positions", "env", "answer", "loc")

    def __init__(self, card, zone, positions, env, loc):
        self.card, self.zone, self.positions, self.env, self.answer, self.loc = card, zone, positions, env, UNSET, loc

    def step(self, g: "Game"):
        if self.answer is UNSET:
            d = g.ask(self.env.get("you"), "place", f"Where does {self.card.label()} go?", self.positions, self.loc)
            if d is not None:
                return d
            self.answer = self.positions[0]
        g.place(self.card, self.zone, self.answer, self.loc)
        g.pop()
        fire = g.fire_task("placed", self.card, self.env.get("you"), self.loc)
        if fire is not None:
            g.push(fire)
        return None


class FireTask(Task):
    """The triggers answering one event; the active player orders simultaneous ones."""

    __slots__ = ("event", "pending", "answer", "loc")

    def __init__(self, event: str, pending: list, loc):
        self.event, self.pending, self.answer, self.loc = event, pending, UNSET, loc

    def step(self, g: "Game"):
        if not self.pending:
            g.pop()
            return None
        if len(self.pending) > 1:
            if self.answer is UNSET:
                return g.ask(Seat(g.state.active), "order", f"Which `{self.event}` effect first?",
                             list(range(len(self.pending))), self.loc, [h[3] for h in self.pending])
            i, self.answer = self.answer, UNSET
            handler = self.pending.pop(i)
        else:
            handler = self.pending.pop()
        node, body, env, _ = handler
        g.push(g.enter_call(BlockTask(body, dict(env), catch="call", depth=True), node.loc, "triggers"))
        return None


class SettleTask(Task):
    """Re-check `always` rules and `as soon as` watchers until a pass changes nothing."""

    __slots__ = ("passes", "i", "touched", "started", "changer", "running", "was_dirty")

    def __init__(self):
        self.passes, self.i, self.touched, self.started = 0, 0, None, False
        self.changer = None  # the last rule that changed the state: the one to blame for an endless loop
        self.running = None  # the rule whose body is on the stack above this task
        self.was_dirty = False

    def step(self, g: "Game"):
        prog = g.program
        if not self.started:
            self.started = True
            g.settling = True
            if not prog.always and not prog.watchers:
                g.dirty = False
                g.pop()
                return None
            self._new_pass(g)
        if self.running is not None:  # a rule's body just finished on the stack
            self._ran(g)
        n_always = len(prog.always)
        while True:
            i = self.i
            touched = self.touched
            if i < n_always:
                self.i += 1
                reads = prog.always_reads[i]
                if touched is None or reads is None or not reads.isdisjoint(touched):
                    plan = prog.always_players[i]
                    if plan is not None and touched is not None and g.touched is not None:
                        env = plan.env(g, touched)  # only the players whose zones changed
                        if env is None:
                            continue
                        if self._run(g, prog.always[i][0], plan.block, env):
                            return None
                        continue
                    if self._run(g, prog.always[i][0], prog.always[i][1], g._env(g.state.active)):
                        return None
                continue
            w = i - n_always
            if w < len(prog.watchers):
                self.i += 1
                reads = prog.watcher_reads[w]
                if touched is not None and reads is not None and reads.isdisjoint(touched):
                    continue
                node, cond, body = prog.watchers[w]
                env = g._env(g.state.active)
                now = bool(g.evaluate(cond, env, node.loc))
                if now and not g.state.watch[w]:
                    g.state.watch[w] = True
                    if self._run(g, node, body, env):
                        return None
                    continue
                if not now and g.state.watch[w]:
                    g.state.watch[w] = False
                continue
            if not g.dirty:
                g.pop()
                return None
            self.passes += 1
            if self.passes >= g.limits.max_settle_passes:
                node = self.changer or (prog.always or prog.watchers)[0][0]
                raise LimitExceeded(f"state-based rules keep changing the state after "
                                    f"{g.limits.max_settle_passes} passes (endless loop?)", node.loc)
            self._new_pass(g)

    def _run(self, g: "Game", node, body: Block, env: dict) -> bool:
        """Run a rule's body: at once where it can (run_inline), else on the stack (True: the
        rest of the body was pushed; this task resumes when it is done)."""
        self.running, self.was_dirty, g.dirty = node, g.dirty, False
        rest = run_inline(g, body, env)
        if rest is None:
            self._ran(g)
            return False
        g.push(rest)
        return True

    def _ran(self, g: "Game") -> None:
        """A rule's body finished: did it change anything?"""
        if g.dirty:
            self.changer = self.running
        g.dirty = g.dirty or self.was_dirty
        self.running = None

    def _new_pass(self, g: "Game") -> None:
        g.dirty = False
        self.touched, g.touched = g.touched, set()
        self.i = 0

    def finish(self, g: "Game") -> None:
        g.settling = False


class ActionsTask(Task):
    """`P takes actions`: offer the legal actions (and `done`) until the player is done."""

    __slots__ = ("player", "sources", "done", "answer", "loc", "legal")

    def __init__(self, player, sources, done: str, loc):
        self.player, self.sources, self.done, self.answer, self.loc, self.legal = player, sources, done, UNSET, loc, None

    def step(self, g: "Game"):
        if self.answer is UNSET:
            legal = g.available_actions(int(self.player), self.sources)
            labels = [(f"{a[1].label} ({a[4].name})" if a[4] is not None else a[1].label) for a in legal]
            d = g.ask(self.player, "action", "Choose an action", legal + [None], self.loc, labels + [self.done])
            if d is not None:
                return d
            self.answer = None
        pick, self.answer = self.answer, UNSET
        if pick is None:
            g.pop()
            return None
        key, node, _, body, card = pick
        if node.limit is not None:
            k = f"{node.period}:{key}"
            g.state.uses[k] = g.state.uses.get(k, 0) + 1
        g.push(g.enter_call(BlockTask(body, {"you": Seat(int(self.player)), "this": card}, catch="call", depth=True),
                            node.loc))
        return None


class TurnTask(Task):
    __slots__ = ("player", "stage")

    def __init__(self, player: int):
        self.player, self.stage = int(player), 0

    def step(self, g: "Game"):
        st = g.state
        self.stage += 1
        if self.stage == 1:
            st.active = self.player
            st.turn_number += 1
            if st.turn_number > g.limits.max_turns:
                raise LimitExceeded(f"the game did not end within {g.limits.max_turns} turns", g.flow_loc())
            g.reset_uses("turn:")
            g.push_fire("turn_start", None, Seat(self.player), None)
            g.new_period()
            if g.observer is not None and hasattr(g.observer, "turn_started"):  # a narrator tells turns apart
                g.observer.turn_started(g)
        elif self.stage == 2:
            body = g.program.phases.get("turn")
            if body is not None:
                g.push(BlockTask(body, g._env(self.player), catch="call"))
        elif self.stage == 3:
            g.push_fire("turn_end", None, Seat(self.player), None)
        else:
            g.pop()
            if st.ending == "turn":
                raise GameOver()
        return None


class RoundTask(Task):
    __slots__ = ("stage", "k")

    def __init__(self):
        self.stage, self.k = 0, 0

    def step(self, g: "Game"):
        st = g.state
        if self.stage == 0:
            self.stage = 1
            st.round_number += 1
            if st.round_number > g.limits.max_turns:  # a round usually has turns: same bound
                raise LimitExceeded(f"the game did not end within {g.limits.max_turns} rounds", g.flow_loc("round"))
            g.reset_uses("round:")
            g.push_fire("round_start", None, Seat(st.start_player), None)
            g.new_period()
        elif self.stage == 1:
            body = g.program.phases.get("round")
            if body is not None:
                self.stage = 2
                g.push(BlockTask(body, g._env(st.start_player), catch="call"))
            elif self.k < st.players:
                g.push(TurnTask((st.start_player + self.k) % st.players))
                self.k += 1
            else:
                self.stage = 2
        elif self.stage == 2:
            self.stage = 3
            g.push_fire("round_end", None, Seat(st.start_player), None)
        else:
            g.pop()
            if st.ending == "round":
                raise GameOver()
        return None


class MainTask(Task):
    """Setup, then the `play:` phase or rounds until the game ends, then `game_end`."""

    __slots__ = ("stage",)
    END = 10

    def __init__(self):
        self.stage = 0

    def step(self, g: "Game"):
        st, prog = g.state, g.program
        if self.stage == 0:
            self.stage = 1
            g.init_values()
            g.settling = True  # state-based rules start after setup
            setup = prog.phases.get("setup")
            if setup is not None:
                g.push(BlockTask(setup, g._env(None)))
        elif self.stage == 1:
            self.stage = 2
            if g._after_setup is not None:
                g.run_hook(g._after_setup)
            g.first_player = st.start_player
            g.settling = False
            for i, (node, cond, _) in enumerate(prog.watchers):
                st.watch[i] = bool(g.evaluate(cond, g._env(st.active), node.loc))
            g.dirty, g.touched = True, None
            g.push(SettleTask())
        elif self.stage == 2:
            play = prog.phases.get("play")
            if play is not None:
                self.stage = 3
                g.push(BlockTask(play, g._env(st.start_player), catch="call"))
            else:
                g.push(RoundTask())
        elif self.stage == 3:
            raise GameOver()
        elif self.stage == self.END:
            self.stage = self.END + 1
            g.push_fire("game_end", None, None, None)  # end-of-game effects, before scoring
        else:
            g.pop()
        return None


# ---- running a nested body at once ----------------------------------------------------------------
# `BlockTask` re-checks state-based rules before each statement when the state changed. A body
# (an `if` branch, a `for each` item) can run straight away, inside the statement that chose it,
# for as long as nothing changed: the statements run exactly as `BlockTask.step` would run them
# (same steps counted, same error locations, the same look for state-based rules to settle after a
# change), and at the first point where a `BlockTask` would stop (a rule must settle, or a
# statement returned a task), the rest of the body is handed back as a `BlockTask` already at that
# statement, with the statement's task on top of it. The stack then holds what it would have held,
# minus a task pushed and popped for nothing.

def run_inline(g: Any, body: Block, e: dict) -> Any:
    """Run `body` until it ends (None) or must continue on the stack (the task(s) to push)."""
    stmts = body.stmts
    limit = g.limits.max_steps
    for pc, (fn, node) in enumerate(stmts):
        if g.dirty and not g.settling and g.settle_before_statement():  # as BlockTask.step
            return _rest(body, e, pc)  # its first step pushes the SettleTask
        r = run_statement(g, e, fn, node, limit)
        if r is not None:
            if isinstance(r, list):
                if not r:  # no task after all (e.g. no trigger fired): BlockTask goes on too
                    continue
                return r + [_rest(body, e, pc + 1)]
            return [r, _rest(body, e, pc + 1)]
    return None


def _rest(body: Block, e: dict, pc: int) -> BlockTask:
    task = BlockTask(body, e)
    task.pc = pc
    return task
