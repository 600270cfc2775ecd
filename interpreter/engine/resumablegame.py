"""A direct-compiled game that can be copied at any decision: the generated generator functions
and the game flow lowered to frames (resumable.py), driven by `ResumableGame`.

`ResumableGame` plays exactly the game `DirectGame` plays (it is a DirectGame whose functions are
the lowered ones) and adds `clone`: a copy of the `GameState`, of the frame chain (plain lists)
and of the runtime's counters, with the generated functions bound again to the copy (`build`).
Search agents (greedy, mcts) use it when a ruleset compiles to direct code.
"""
from __future__ import annotations

import ast
import dataclasses
import gc
import inspect
import sys
import random
import textwrap
from typing import Any

from .direct import DirectProgram, Unsupported, _helpers
from .directgame import ANYTHING, GEN_FILE, DirectGame, Runtime
from .game import asked
from .resumablelazy import LazyLowering, StepMemo, lazy_program
from .recycle import copied_rows, function_memo, recyclable, recycle_into
from .resumable import CALL_SHIFT, DONE, EXC_SLOT, HELPERS, STEP_SUFFIX, CopyPlan, NotLowerable, copy_value, has_yield, lower_function, lower_generators
from ..runtime.state import GameState

__all__ = ["ResumableGame", "ResumableProgram", "compile_resumable", "copy_state", "lower_whole"]

STEPS_KEY = "_Q_steps"  # the entry of `build`'s table with the step functions (for clone): a list,
# or, when generators are lowered on first call, the game's stubs by name (resumablelazy.py)


class ResumableProgram:
    """The lowered module of one direct program: `build(R, K)` as DirectProgram's, with frame
    factories in place of generator functions."""

    def __init__(self, dp: DirectProgram, build: Any, meta: dict):
        self.dp, self.build, self.meta = dp, build, meta
        self.lowering: LazyLowering | None = None  # when each generator is lowered on first call

    @property
    def source(self) -> str:
        """The lowered module as Python source, for reading (tests, debugging): made again on
        demand, since writing it out costs more than the lowering itself."""
        return ast.unparse(_lowered_tree(self.dp)[0])


def compile_resumable(dp: DirectProgram) -> ResumableProgram:
    """The copyable form of `dp`'s generated module (cached on it; its generators lowered as games
    first call them, or all now when the module is laid out otherwise), or raise `Unsupported`
    saying why not."""
    cached = getattr(dp, "_resumable", None)
    if cached is not None:
        if isinstance(cached, Unsupported):
            raise cached
        return cached
    try:
        out = _lower_program(dp)
    except Unsupported as why:
        dp._resumable = why
        raise
    dp._resumable = out
    return out


def _lower_program(dp: DirectProgram) -> ResumableProgram:
    _flow()  # the game flow must lower too
    lazy = lazy_program(dp, _module_globals(), STEPS_KEY)  # each generator lowered when first called
    if lazy is None:
        return lower_whole(dp)
    out = ResumableProgram(dp, lazy.build, lazy.meta)
    out.lowering = lazy
    return out


def lower_whole(dp: DirectProgram) -> ResumableProgram:
    """`dp`'s module with every generator lowered now (a layout the lazy form does not know;
    tests compare the two)."""
    paused = gc.isenabled()
    gc.disable()  # the pass makes a million short-lived tree nodes and no cycles: collecting
    try:          # while it runs would cost more than the pass (docs/compilation.md)
        tree, meta = _lowered_tree(dp)
        code = compile(tree, GEN_FILE, "exec")  # line numbers kept: errors still name the rule (dp.lines)
    finally:
        if paused:
            gc.enable()
    ns = _module_globals()
    exec(code, ns)  # noqa: S102 - the checked generated module, rewritten by resumable.py only
    return ResumableProgram(dp, ns["build"], meta)


def _module_globals() -> dict[str, Any]:
    """The globals of a lowered module: the direct engine's helpers and the pass's, no builtins."""
    ns: dict[str, Any] = {"__builtins__": {}}
    ns.update(_helpers())
    ns.update(HELPERS)
    return ns


def _lowered_tree(dp: DirectProgram) -> tuple[ast.Module, dict]:
    """The syntax tree of `dp`'s module with its generators lowered, and their suspension tables."""
    tree = ast.parse(dp.source)
    build = next(s for s in tree.body if isinstance(s, ast.FunctionDef) and s.name == "build")
    try:
        build.body, steps, meta = lower_generators(build.body, in_place=True)
    except NotLowerable as why:
        raise Unsupported(f"it cannot be made resumable ({why})") from None
    # a generator function nested in one of build's plain functions was not lowered (the
    # lowered ones hold no function definitions: lowering refuses them)
    lowered = set(steps) | {step[:-len(STEP_SUFFIX)] for step in steps}
    if any(has_yield(n) for s in build.body if not (isinstance(s, ast.FunctionDef) and s.name in lowered)
           for n in ast.walk(s) if isinstance(n, ast.FunctionDef)):
        raise Unsupported("it cannot be made resumable (a generator function below the top of `build`)")
    ret = build.body[-1]
    if not (isinstance(ret, ast.Return) and isinstance(ret.value, ast.Dict)):
        raise Unsupported("it cannot be made resumable (the module does not end as expected)")
    ret.value.keys.append(ast.Constant(value=STEPS_KEY))
    ret.value.values.append(ast.List(elts=[ast.Name(id=s, ctx=ast.Load()) for s in steps], ctx=ast.Load()))
    ast.fix_missing_locations(ret)  # the lowered functions have theirs (resumable._fill_locations)
    return tree, meta


_FLOW: dict[str, Any] = {}


def _flow() -> dict[str, Any]:
    """Every generator method of DirectGame (the game flow, `_main`) and of Runtime (`fire`),
    lowered from its own source (so the flow stays one implementation) and set on
    ResumableGame / ResumableRuntime; returns the step functions' suspension tables by name."""
    if _FLOW:
        return _FLOW
    meta: dict[str, tuple] = {}
    # every generator method as the classes resolve it, mix-ins included (directcover's flow of
    # rounds and `play:` phases, the abilities' actions...), lowered in its own module's namespace
    methods = []
    for cls, target in ((DirectGame, ResumableGame), (Runtime, ResumableRuntime)):
        for name in sorted(dir(cls)):
            owner = next((k for k in cls.__mro__ if name in vars(k)), None)
            if owner is not None and inspect.isgeneratorfunction(vars(owner)[name]):
                methods.append((owner, target, name))
    by_module: dict[str, list] = {}
    for owner, target, name in methods:
        by_module.setdefault(owner.__module__, []).append((owner, target, name))
    for module_name, group in by_module.items():
        module = ast.Module(body=[], type_ignores=[])
        for owner, _, name in group:
            lines, start = inspect.getsourcelines(vars(owner)[name])
            tree = ast.parse(textwrap.dedent("".join(lines)))
            ast.increment_lineno(tree, start - 1)
            fn = tree.body[0]
            fn.name = f"{owner.__name__}_{name}"
            try:
                step, factory = lower_function(fn, f"_Q_{owner.__name__}_{name}_step")
            except NotLowerable as why:
                raise Unsupported(f"the game flow cannot be made resumable ({why})") from None
            module.body += [step, factory]
            meta[step.name] = step._q_meta  # type: ignore[attr-defined]
        ast.fix_missing_locations(module)
        source = sys.modules[module_name]
        ns = dict(vars(source))
        ns.update(HELPERS)
        exec(compile(module, source.__file__, "exec"), ns)  # noqa: S102 - our own module's code
        for owner, target, name in group:
            setattr(target, name, ns[f"{owner.__name__}_{name}"])
    _FLOW.update(meta)
    return _FLOW


class ResumableRuntime(Runtime):
    """The runtime whose generator methods (`fire`) are lowered to frame factories (`_flow`)."""


class _Root:
    """The frame chain of a game, with the `send` of a generator (so DirectGame's driver drives it).

    An answer resumes the innermost frame directly, not the outermost (which would pass it down
    through every frame's step as `yield from` does: the parents' code between two decisions is
    the same each time, and a search pays it at every decision of its playouts). `stack` holds
    the chain from the outermost frame to the suspended one; after a step returns a decision, the
    frames it started are found by their program counters (a frame suspended in a call says in
    which slot the called frame lies: resumable.call_slot). When a frame finishes, its parent is
    resumed at that call, where the finished frame's step now says DONE at once; when one raises,
    its parent is resumed there and the finished frame's step raises the exception again, so it
    goes up through the parents' `try` blocks as before (`_unwind`)."""

    __slots__ = ("stack",)

    def __init__(self, stack: list):
        self.stack = stack

    def send(self, value: Any) -> Any:
        stack = self.stack
        fr = stack[-1]
        try:
            d = fr[0](fr, value)
        except BaseException as ex:  # noqa: BLE001 - handed to the parents as `yield from` would
            d, fr = self._unwind(ex)
        while d is DONE:  # `fr` finished: its parent goes on after the call
            stack.pop()
            if not stack:
                raise StopIteration
            fr[0] = _finished
            fr = stack[-1]
            try:
                d = fr[0](fr, None)
            except BaseException as ex:  # noqa: BLE001
                d, fr = self._unwind(ex)
        while True:  # down to the frame that suspended (`fr` itself, or one it called)
            pc = fr[1]
            if pc >= 0:
                return d
            fr = fr[-pc >> CALL_SHIFT]  # (resumable.call_slot)
            stack.append(fr)

    def _unwind(self, ex: BaseException) -> tuple[Any, list]:
        """The innermost frame raised `ex` out of its step (it has finished): its parent resumed at
        the call, where the call raises `ex` again, and so on up until a frame handles it (what
        that frame returned, and the frame), or the outermost raises it."""
        stack = self.stack
        while True:
            fr = stack.pop()
            if not stack:
                raise ex
            fr[0], fr[EXC_SLOT] = _raise_again, ex
            fr = stack[-1]
            try:
                return fr[0](fr, None), fr
            except BaseException as again:  # noqa: BLE001
                ex = again


def _finished(fr: list, sent: Any) -> Any:
    """The step of a frame that has finished, when its parent is resumed at the call."""
    return DONE


def _raise_again(fr: list, sent: Any) -> Any:
    """The step of a frame that raised, when its parent is resumed at the call."""
    raise fr[EXC_SLOT]


_STATE_FIELDS = tuple(f.name for f in dataclasses.fields(GameState))
_LISTS_OF_IDS = frozenset({"zones", "under", "row_ids"})


def _copy_lists(table: dict, memo: dict) -> dict:
    """A copy of a map whose values are lists of numbers or lists of such lists (rows), each
    list noted in `memo` (the fast path of `copy_value` for zones)."""
    out = {}
    for k, xs in table.items():
        new = copied_rows(xs, memo) if xs and type(xs[0]) is list else xs[:]
        out[k] = memo[id(xs)] = new
    memo[id(table)] = out
    return out



def copy_state(st: GameState) -> tuple[GameState, dict]:
    """A copy of `st`, and the memo mapping each of its containers to its copy (so that frames
    that hold a zone's list hold the copy's)."""
    memo: dict = {}
    new = GameState.__new__(GameState)
    for name in _STATE_FIELDS:
        v = getattr(st, name)
        if name == "rng":
            r = random.Random.__new__(random.Random)  # not Random(): that seeds from the OS first
            r.setstate(v.getstate())
            v = r
        elif name == "where":
            v = dict(v)  # a ChangeLog (cardstats) becomes a plain map: copies are not tracked
        elif name in _LISTS_OF_IDS:  # zone key or card → a list of ids, or of rows of ids
            v = _copy_lists(v, memo)
        else:
            v = copy_value(v, memo)
        setattr(new, name, v)
    memo[id(st)] = new
    return new, memo


def _label_of(label_of: Any, R: Any, R2: Any) -> Any:
    """A pending decision's way to label its options (or to make its prompt), for the copy whose
    runtime is `R2`: a method of the game's runtime `R` (`R.label`, `R.subset_prompt`) bound to
    `R2`; any other (an action decision's, which reads no state; None) as it is."""
    if getattr(label_of, "__self__", None) is R:
        return getattr(R2, label_of.__name__)
    return label_of


class ResumableGame(DirectGame):
    """A DirectGame on lowered code: the same game, and `clone` at any decision."""

    record_digests = False  # set by search agents on their copies; digests are the task engine's

    def _start(self) -> None:
        self.rp = compile_resumable(self.dp)
        self.R = ResumableRuntime(self, self.dp)
        self.fns = self.rp.build(self.R, self.dp.K)
        self.R.settle = self.fns["_settle"]
        _flow()
        self._root = self._main()  # the lowered game flow: its first frame
        self._gen = _Root([self._root])
        self._advance(None)

    def clone(self, into: "ResumableGame | None" = None, reseeded: bool = False,
              plan: CopyPlan | None = None) -> "ResumableGame":
        """An independent copy at the same decision: the state, the frames and the runtime's
        counters copied, the generated functions bound to the copy; program and cards shared.

        `into`: a copy of a game of the same program that the caller no longer needs (a search's
        finished playout); it is made into this game's copy in place, keeping its generated
        functions, which cost more to bind again than the state costs to copy (recycle.py); a
        game it cannot take is ignored and a new copy made. `reseeded`: the caller seeds the copy's
        random source at once (a search's determinisation), so a recycled copy's is not set.
        `plan`: the caller's plan of the frames' copy (resumable.CopyPlan), for copies of this game
        into `into` again and again while this game is not played on (a search's playouts): made
        at the first such copy, made again when this game or `into` is another."""
        if into is not None and into is not self and recyclable(self, into):
            memo = recycle_into(self, into, reseeded, STEPS_KEY)  # (its steps mapped too)
            return self._copy_flow(into, memo, self.R, into.R, steps_mapped=True, plan=plan)
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        st, memo = copy_state(self.state)
        new.state = st
        memo[id(self)] = new
        R = self.R
        R2 = object.__new__(type(R))
        R2.__dict__.update(R.__dict__)
        R2.take_slots(R)
        R2.game, R2.state, R2.covered = new, st, bytearray(R.covered)
        # the runtime's own per-game tables: a dummy player grows them (directforms.add_dummy), and
        # `row_home` knows rows by the identity of their lists, which the copy has anew
        R2.seats, R2.bits, R2.tbit, R2.key_name = list(R.seats), dict(R.bits), dict(R.tbit), dict(R.key_name)
        R2.__dict__.pop("_player_zones", None)
        R2.__dict__.pop("_grid_seen", None)  # which card lies on which grid space: each game's own
        R2.row_home = {id(memo[i]): k for i, k in R.row_home.items() if i in memo}
        R2.const = copy_value(R.const, memo)
        memo[id(R)] = R2
        new.R = R2
        fns = new.fns = self.rp.build(R2, self.dp.K)
        R2.settle = fns["_settle"]
        memo.update(function_memo(self, new))
        return self._copy_flow(new, memo, R, R2)

    def _copy_flow(self, new: "ResumableGame", memo: dict, R: Any, R2: Any,
                   steps_mapped: bool = False, plan: CopyPlan | None = None) -> "ResumableGame":
        """The rest of a copy, once its state and runtime are made (`memo`: what each of this
        game's containers and functions became, and its step functions too if `steps_mapped`):
        the frames, the log and the pending decision (by `plan` where given, see `clone`)."""
        steps = self.fns[STEPS_KEY]
        d = self.decision
        copied = None
        if steps_mapped:
            if plan is not None:
                if not plan.fits(self, new, d):
                    plan.make(self, new, d, [self._root, None if d is None else d.options, *self._gen.stack], memo)
                if plan.ops is not None:
                    try:
                        copied = plan.copy(memo)
                    except KeyError:  # the memo lacks what the plan noted: this game changed
                        plan.src = None  # (made again at the next copy; this one as below)
        elif type(steps) is not list:  # lowered on first call: the copy's steps are bound as frames need them
            memo = StepMemo(memo, steps, new.fns[STEPS_KEY])
        else:
            for a, b in zip(steps, new.fns[STEPS_KEY]):
                memo[id(a)] = b
        if copied is not None:
            new._root, options = copied[0], copied[1]
            new._gen = _Root(copied[2:])
        else:
            new._root = copy_value(self._root, memo)
            got = memo.get
            new._gen = _Root([got(id(fr)) for fr in self._gen.stack])
            options = None if d is None else copy_value(d.options, memo)
        new.choices, new.log = list(self.choices), list(self.log)
        if "digests" in self.__dict__ or "forced_rolls" in self.__dict__:  # (directfacade) not shared
            new.__dict__["digests"], new.forced_rolls = list(self.digests), list(self.forced_rolls)
        new._after_setup = None
        new.__dict__.pop("observer", None)  # a search's what-ifs are not the watched game's events
        if d is not None:
            new.decision = asked(d.player, d.kind, d._prompt, options,  # (`Decision(...)`, without the class call)
                                 None if d._labels is None else list(d._labels), d.loc,
                                 _label_of(d._label_of, R, R2) if d._labels is None else None,
                                 _label_of(d._prompt_of, R, R2))
        return new

    @property
    def touched(self) -> Any:
        return self.R.touched

    @touched.setter
    def touched(self, value: Any) -> None:
        """`None`: anything may have changed (a search rearranged the state): settle everything,
        and take which cards lie covered from the state again."""
        self.R.touched = ANYTHING if value is None else value
        covered = self.R.covered
        covered[:] = bytes(len(covered))
        for below in self.state.under.values():
            for c in below:
                covered[c] = 1

    def _where_suspended(self):
        """The rule asking the pending decision: the innermost generated frame's suspension."""
        loc, fr = None, self._root
        metas = self.rp.meta
        while fr is not None:
            name = fr[0].__name__
            meta = metas.get(name) or _flow().get(name)
            if meta is None:
                break
            lines, child = meta
            pc = fr[1]
            if name in metas and pc in lines:
                i = lines[pc] - 1
                if 0 <= i < len(self.dp.lines) and self.dp.lines[i] is not None:
                    loc = self.dp.lines[i]
            slot = child.get(pc)
            fr = fr[slot] if slot is not None else None
        return loc
