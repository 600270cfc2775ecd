"""The copyable form of a direct program, each generator lowered the first time a game calls it.

Lowering a whole generated module (resumable.py) costs time in proportion to its size: seconds
for the largest rulesets, which would keep the first decision waiting, though a game calls only
some of its functions (a search's copies none but those the game reached). So the module is
compiled as generated, with one line changed: after the last function definition of `build`,
each generator function `g` is rebound to a `_Lazy` stub, which is what every other function,
table and the returned map then call. The first call of a stub lowers `g` (from its own lines of
the generated source, with their line numbers, so errors still name the rule), compiles the step
function and factory once per program, and binds them, per game, to the cells of the original
`g`: the same variables of the same `build` call that `g` itself would have used. A copy of a game
binds the same compiled code to its own `build` call's cells, on demand (`StepMemo`).

Each function is lowered exactly as the whole-module pass lowers it (`lower_function`), so the
game is the same bit for bit (tests/engine/test_resumable_lazy.py compares the two); a layout
this does not recognise is lowered whole instead (`lazy_program` returns None).

What a lowering gives depends only on the generated source and the lowering code, so the
lowerings a process made are kept in the user cache when it exits (`LazyLowering.save`, one file
per generated source) and a later process takes them from there instead of lowering again: a
search's first decisions in a process no longer wait for the generators its playouts first meet
(tests/engine/test_lowered_kept.py).
"""
from __future__ import annotations

import ast
import atexit
import functools
import gc
import hashlib
import re
import sys
import weakref
from pathlib import Path
from types import CellType, CodeType, FunctionType
from typing import Any

from . import resumable
from .direct import DirectProgram, Unsupported
from .directgame import GEN_FILE
from .resumable import STEP_SUFFIX, NotLowerable, lower_function
from ..language.usercache import cache_dir, read_cached, write_cached
from ..runtime.errors import RuleError

__all__ = ["STEPS_NAME", "lazy_program", "LazyLowering", "StepMemo", "steps_into"]

_GENERATOR = 0x20  # inspect.CO_GENERATOR
STEPS_NAME = "_Q_steps"  # build's local: this game's stubs by generator name
_DEF = re.compile(r"    def (\w+)\((\w+(?:, \w+)*)?\):$")


class LazyLowering:
    """What one program's stubs share: the generated lines, each generator's span, and the
    compiled step and factory code of those lowered so far."""

    def __init__(self, lines: list[str], spans: list[tuple[str, int, int, frozenset[str]]], meta: dict,
                 globals_: dict):
        self.lines, self.spans, self.meta, self.globals = lines, spans, meta, globals_
        self.code: dict[int, tuple[CodeType, CodeType]] = {}  # generator → its compiled lowering
        self.build: Any = None  # the rewritten module's `build`
        self.kept: dict | None = None  # the user cache's lowerings of this source (`_kept`), read on first need
        self.path: Path | None = None  # its file
        self.dirty = False  # lowered here since the file was last written (`save`)

    def compiled(self, i: int) -> tuple[CodeType, CodeType]:
        """(step code, factory code) of generator `i`: lowered and compiled on first use in a
        process, or taken from the user cache, where an earlier process of the same generated
        source and the same lowering code kept it (`_kept`)."""
        got = self.code.get(i)
        if got is not None:
            return got
        kept = self._kept().get(i)
        if kept is not None:
            step, factory, meta = kept
            self.meta[step.co_name] = meta
            got = self.code[i] = (step, factory)
            return got
        paused = gc.isenabled()
        gc.disable()  # as for the whole pass (resumablegame._lower_program): many nodes, no cycles
        try:
            got = self.code[i] = self._compile(i)
        finally:
            if paused:
                gc.enable()
        self._keep(i, got)
        return got

    # ---- lowered code kept between processes --------------------------------------------------
    # A search's first decisions in a process lower each generator its playouts meet for the first
    # time (milliseconds each: parse, lower, compile). What that gives depends only on the generated
    # source and the lowering code, so it is kept in the user cache (language/usercache.py, as the
    # parser keeps its tables): one file per generated source, keyed by the Python version and a
    # digest of the lowering modules' own code; another key, or an entry of another shape, is
    # lowered again.
    def _file(self) -> Path | None:
        base = cache_dir()
        if base is None:
            return None
        digest = hashlib.sha256("\n".join(self.lines).encode()).hexdigest()[:24]
        return base / f"lowered-{digest}.marshal"

    def _kept(self) -> dict:
        """Generator index → (step code, factory code, suspension table) kept for this source."""
        if self.kept is None:
            self.path = self._file()
            found = read_cached(self.path, _lowering_key())
            self.kept = {i: v for i, v in found.items() if _well_formed(self.spans, i, v)} \
                if isinstance(found, dict) else {}
        return self.kept

    def _keep(self, i: int, got: tuple[CodeType, CodeType]) -> None:
        """Note generator `i`'s lowering, to be written by `save` (at the latest when the process
        exits: one write of the file, not one per generator lowered)."""
        step, factory = got
        self._kept()[i] = (step, factory, self.meta[step.co_name])
        if not self.dirty:
            self.dirty = True
            _UNSAVED.add(self)
            if not _UNSAVED_HOOK:
                _UNSAVED_HOOK.append(atexit.register(_save_all))

    def save(self) -> None:
        """Write the lowerings made in this process to the cache file, with those another process
        wrote there meanwhile."""
        self.dirty = False
        _UNSAVED.discard(self)
        path, kept = self.path, self.kept
        if path is None or not kept:
            return
        found = read_cached(path, _lowering_key())
        if isinstance(found, dict):
            for j, v in found.items():
                if j not in kept and _well_formed(self.spans, j, v):
                    kept[j] = v
        elif not path.exists():
            _prune(path.parent)
        write_cached(path, _lowering_key(), kept)  # (a value marshal cannot write is not kept: lowered again)

    def _compile(self, i: int) -> tuple[CodeType, CodeType]:
        name, start, end, free = self.spans[i]
        # the lines and columns it had: blank lines before it cost less than renumbering the tree
        tree = ast.parse("\n" * (start - 1) + "def build(R, K):\n" + "\n".join(self.lines[start:end]))
        fn = tree.body[0].body[0]
        try:
            step, factory = lower_function(fn, in_place=True)
        except NotLowerable as why:  # found only now that a game called it: the game stops, saying so
            raise RuleError(f"this game cannot go on in its copyable form ({why}); play it with "
                            "agents that do not copy the game, such as `random`", None) from None
        # the step and factory have every line number (resumable._fill_locations): only the nodes
        # made here get theirs, the function's (a walk over the whole tree cost a sixth of this)
        made = [ast.arg(arg=n) for n in sorted(free)]
        ret = ast.Return(value=ast.Constant(value=None))
        made += [ret, ret.value]
        outer = ast.FunctionDef(name="_Q_outer", args=ast.arguments(
            posonlyargs=[], args=made[:-2], vararg=None, kwonlyargs=[], kw_defaults=[],
            kwarg=None, defaults=[]), body=[step, factory, ret],
            decorator_list=[], returns=None, type_comment=None)
        made.append(outer)
        for node in made:
            ast.copy_location(node, fn)
        module = ast.Module(body=[outer], type_ignores=[])
        code = compile(module, GEN_FILE, "exec")
        inner = next(c for c in code.co_consts if isinstance(c, CodeType))
        by_name = {c.co_name: c for c in inner.co_consts if isinstance(c, CodeType)}
        self.meta[step.name] = step._q_meta  # type: ignore[attr-defined]
        return by_name[step.name], by_name[factory.name]


_FORMAT = 1  # the shape of a lowered-code file's entries
MAX_LOWERED_FILES = 16  # kept lowered-code files (one per generated source); the oldest go first


@functools.lru_cache(maxsize=1)
def _lowering_key() -> tuple:
    """What a kept lowering depends on besides the source: this Python and the lowering's code."""
    h = hashlib.sha256()
    for module in (resumable, sys.modules[__name__]):
        try:
            h.update(Path(module.__file__ or "").read_bytes())
        except OSError:
            h.update(repr(id(module)).encode())  # (no file to read: a key no other process has)
    return (_FORMAT, sys.version, h.hexdigest())


def _well_formed(spans: list, i: Any, v: Any) -> bool:
    """Whether a kept entry is a lowering of generator `i` of this source (else it is made again)."""
    return (type(i) is int and 0 <= i < len(spans) and type(v) is tuple and len(v) == 3
            and type(v[0]) is CodeType and type(v[1]) is CodeType and type(v[2]) is tuple
            and v[0].co_name == spans[i][0] + STEP_SUFFIX and v[1].co_name == spans[i][0])


_UNSAVED: "weakref.WeakSet[LazyLowering]" = weakref.WeakSet()  # programs with lowerings not yet written
_UNSAVED_HOOK: list = []  # the `atexit` hook, once registered


def _save_all() -> None:
    for low in list(_UNSAVED):
        low.save()


def _prune(folder: Path) -> None:
    """Before a new lowered-code file is written: the oldest go, so at most `MAX_LOWERED_FILES` stay."""
    try:
        files = sorted(folder.glob("lowered-*.marshal"), key=lambda f: f.stat().st_mtime)
        for f in files[:max(0, len(files) + 1 - MAX_LOWERED_FILES)]:
            f.unlink()
    except OSError:
        pass


class _Stubs(dict):
    """One game's stubs by generator name (`build`'s `_Q_steps`), and the names of those bound so
    far in the order they were bound (`bound`): a copy of the game maps the steps its frames may
    hold from these, without a look at every stub (`StepMemo`, `steps_into`)."""

    __slots__ = ("bound",)

    def __init__(self) -> None:
        super().__init__()
        self.bound: list[str] = []


class _Lazy:
    """One game's stub for generator `i`: called, it is the factory (a new frame); the first
    call binds the lowered code to the original function's cells."""

    __slots__ = ("low", "i", "src", "factory", "step", "stubs")

    def __init__(self, low: LazyLowering, i: int, src: FunctionType, stubs: _Stubs):
        self.low, self.i, self.src, self.stubs = low, i, src, stubs
        self.factory: Any = None
        self.step: Any = None

    def __call__(self, *args: Any) -> list:
        f = self.factory
        if f is None:
            f = self.bind()
        return f(*args)

    def bind(self) -> Any:
        """Make this game's step function and factory (once)."""
        if self.factory is not None:
            return self.factory
        step_code, factory_code = self.low.compiled(self.i)
        src = self.src
        cells = dict(zip(src.__code__.co_freevars, src.__closure__ or ()))
        own = {step_code.co_name: CellType(), factory_code.co_name: CellType()}
        cells.update(own)
        g = self.low.globals
        step = FunctionType(step_code, g, step_code.co_name, None,
                            tuple(cells[n] for n in step_code.co_freevars))
        factory = FunctionType(factory_code, g, factory_code.co_name, None,
                               tuple(cells[n] for n in factory_code.co_freevars))
        own[step_code.co_name].cell_contents = step
        own[factory_code.co_name].cell_contents = factory
        self.step, self.factory = step, factory
        self.stubs.bound.append(src.__name__)
        return factory


def _stub(low: LazyLowering) -> Any:
    """The `_Q_lazy(g, i, stubs)` of the rewritten module: g's stub, noted in this game's stubs."""
    def lazy(src: FunctionType, i: int, stubs: _Stubs) -> _Lazy:
        s = stubs[src.__name__] = _Lazy(low, i, src, stubs)
        return s
    return lazy


class StepMemo(dict):
    """The memo of a game's copy (`copy_value`) that maps a step function of the original game to
    the copy's, binding the copy's stub when a frame first needs it."""

    def __init__(self, memo: dict, old: _Stubs, new: _Stubs):
        super().__init__(memo)
        self.steps = {id(old[n].step): (n, old[n].step) for n in old.bound}  # (the bound ones)
        self.new = new

    def get(self, key: int, default: Any = None) -> Any:
        got = dict.get(self, key)
        if got is None:
            hit = self.steps.get(key)
            if hit is not None:
                stub = self.new[hit[0]]
                stub.bind()
                got = self[key] = stub.step
                return got
            return default
        return got


def steps_into(old: _Stubs, new: _Stubs, memo: dict, known: int) -> int:
    """Map in `memo` each step of a game's stubs `old` bound since the first `known` to the step
    of the same generator in `new` (a copy's stubs, bound now if need be); returns how many of
    `old`'s are mapped. A search's copy made into the same spare again and again (engine/recycle.py)
    keeps this map, so a copy finds each step its frames hold in a plain dict."""
    bound = old.bound
    for name in bound[known:]:
        s = new[name]
        s.bind()
        memo[id(old[name].step)] = s.step
    return len(bound)


def lazy_program(dp: DirectProgram, globals_: dict, steps_key: str) -> LazyLowering | None:
    """The rewritten module (its `build`, and its suspension tables in `meta`, filled as
    generators are lowered), or None when the generated module is not laid out as expected (the
    caller then lowers it whole). `globals_`: the module's globals (helpers), completed here.

    The rewritten module is compiled once, from the source alone (so a form whose own `build` no
    game needs, the observed one of a copyable game, is never compiled as it stands): its
    generators are read off the text (`_guess`), and the compiled module must show exactly
    those (`_layout` of its `build`); if it does not, `dp.build` says which they are and the
    module is compiled again."""
    lines = dp.source.split("\n")
    guess = _guess(lines)
    compiled = found = None
    if guess is not None:
        new = _rebound(lines, *guess)
        try:
            compiled = compile("\n".join(new), GEN_FILE, "exec")
        except SyntaxError:
            compiled = None
        if compiled is not None:
            build = next((c for c in compiled.co_consts if isinstance(c, CodeType) and c.co_name == "build"), None)
            found = _layout(lines, build) if build is not None else None
            if found is None or ([g[:3] for g in found[0]], found[1]) != guess:
                compiled = None
    if compiled is None:
        layout = _layout(lines, dp.build.__code__)
        if layout is None:
            return None
        gens, at = layout
        try:
            compiled = compile("\n".join(_rebound(lines, gens, at)), GEN_FILE, "exec")
        except SyntaxError:
            return None
    else:
        gens = found[0]  # with their free names, from the compiled module
    meta: dict = {}
    low = LazyLowering(lines, gens, meta, globals_)
    globals_["_Q_lazy"] = _stub(low)
    globals_["_Q_stubs"] = _Stubs
    globals_["_Q_STEPS_KEY"] = steps_key
    exec(compiled, globals_)  # noqa: S102 - the checked generated module, one line rewritten here
    low.build = globals_["build"]
    return low


_Layout = tuple[list[tuple[str, int, int, frozenset[str]]], int]  # the generators, the rebinding's line


def _layout(lines: list[str], code: CodeType) -> _Layout | None:
    """Each generator function of `build` (name, first line, end line, free names) and the line
    after the last function definition, where the rebinding goes; None when the module is not
    laid out as expected."""
    gens: list[tuple[str, int, int, frozenset[str]]] = []
    last_def = -1
    for c in code.co_consts:
        if not isinstance(c, CodeType) or c.co_name.startswith("<"):
            continue
        if _nested_generator(c):
            raise Unsupported("it cannot be made resumable (a generator function below the top of `build`)")
        start = c.co_firstlineno - 1
        if not 0 <= start < len(lines) or not lines[start].startswith(f"    def {c.co_name}("):
            return None  # a decorated function, or not where it was expected
        end = _end_of(lines, start)
        last_def = max(last_def, end)
        if c.co_flags & _GENERATOR:
            if not _DEF.match(lines[start]):
                return None  # parameters other than plain ones: the whole pass says why not
            gens.append((c.co_name, start, end, frozenset(c.co_freevars)))
    # the rebinding goes on the first statement after the last definition, which must be simple
    at = last_def
    if not gens or at >= len(lines) or not lines[at].startswith("    ") or lines[at].startswith("     "):
        return None
    ret = _return_line(lines)
    if not lines[ret].startswith("    return {") or ret < at:
        return None
    first = min(g[1] for g in gens)
    if any(ln.startswith("    ") and not ln.startswith("     ") and not ln.startswith("    def ")
           for ln in lines[first:at]):
        return None  # a statement between the definitions could hold a generator itself
    return gens, at


def _end_of(lines: list[str], start: int) -> int:
    """The line after the function defined at `start` (its body: the lines indented deeper)."""
    end = start + 1
    while end < len(lines) and (not lines[end].strip() or lines[end].startswith("     ")):
        end += 1
    return end


def _return_line(lines: list[str]) -> int:
    ret = len(lines) - 1
    while ret > 0 and not lines[ret].strip():
        ret -= 1
    return ret


_YIELD = re.compile(r"\byield\b")


def _guess(lines: list[str]) -> tuple[list[tuple[str, int, int]], int] | None:
    """What `_layout` will find, from the text alone, less the free names (known once compiled):
    each function defined at the top of `build` whose lines say `yield` is a generator."""
    defs = [i for i, ln in enumerate(lines) if ln.startswith("    def ")]
    if not defs:
        return None
    gens = []
    ends = {}
    for start in defs:
        m = _DEF.match(lines[start])
        end = ends[start] = _end_of(lines, start)
        body = "\n".join(lines[start + 1:end])
        if _YIELD.search(body):
            if m is None:
                return None
            gens.append((m.group(1), start, end))
    at = max(ends.values())
    if not gens or at >= len(lines):
        return None
    return gens, at


def _rebound(lines: list[str], gens: list, at: int) -> list[str]:
    """The module's lines with each generator rebound to its stub after the last definition, and
    the stubs returned with `build`'s table."""
    new = list(lines)
    rebind = [f"{STEPS_NAME} = _Q_stubs()"] + [f"{n} = _Q_lazy({n}, {i}, {STEPS_NAME})" for i, (n, *_) in enumerate(gens)]
    ret = _return_line(lines)
    new[ret] = new[ret].replace("    return {", f"    return {{_Q_STEPS_KEY: {STEPS_NAME}, ", 1)
    new[at] = "    " + "; ".join(rebind) + "; " + new[at][4:]
    return new


def _nested_generator(code: CodeType) -> bool:
    """A generator function defined inside `code` (at any depth; not a generator expression)."""
    for c in code.co_consts:
        if isinstance(c, CodeType):
            if (c.co_flags & _GENERATOR and not c.co_name.startswith("<")) or _nested_generator(c):
                return True
    return False
