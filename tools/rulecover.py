"""Which rule lines a game run executes, and which rule lines a mutant's generated code changes:
the coverage analysis that lets tools/mutate_rules.py run a mutant against only the tests that
reach it (as mutmut and Stryker do).

Why a tracing hook here, not in the engine: generated code already knows each of its lines' rule
location (`DirectProgram.lines`, the table errors name `file:line:col` from), so a `sys.settrace`
hook that looks only at frames of the generated module (`GEN_FILE`) records the rule lines a
scenario or a test reaches — and the engine stays as it is, with no cost when nothing traces.

Also a pytest plugin (`-p rulecover`, with `RULECOVER_OUT=FILE` in the environment): it records
the rule lines each test reaches and writes them to FILE as JSON (`{nodeid: [[file, line], ...]}`;
the key `*session*` holds what ran outside any test, e.g. at import; `FILE::*setup*` what ran in
the set-up of a test of FILE, fixtures that its other tests may share). A generated frame whose
module cannot be told is recorded as `["*", 0]`: that test is then run for every mutant.
"""
from __future__ import annotations

import json
import os
import re
import sys
import threading
from pathlib import Path
from typing import Any, Iterator

from interpreter.engine import direct as direct_mod
from interpreter.engine.directgame import GEN_FILE
from interpreter.language.diagnostics import Loc

SESSION = "*session*"
SETUP = "*setup*"  # a test file's set-up phases: `FILE::*setup*`
ANY = ("*", 0)  # a reached line that could not be told: every mutant concerns it
RuleLine = tuple[str, int]  # (resolved file path, 1-based line)

_NAME = re.compile(r"\b_[A-Za-z]+[0-9]+k?\b")
_K_NAME = re.compile(r"\b_k([0-9]+)\b")
_HEAD = re.compile(r"^    (_\w+) = (.+)$")


class Tracer:
    """Records the rule lines that generated code executes, under the key given by `switch`.

    Each generated module is told by its globals: the modules `_Gen.assemble` builds while the
    tracer is installed are registered with their line table; any other generated frame (the
    observed and copyable forms, which keep the direct form's line numbers) takes the table of
    the game that runs it (the first `self` up the stack with a `dp.lines`)."""

    def __init__(self) -> None:
        self.key = SESSION
        self.hits: dict[str, set[tuple[int, int]]] = {}
        self._tables: dict[int, list] = {}  # id(line table) -> table (kept alive: ids stay unique)
        self._modules: dict[int, tuple[dict, list]] = {}  # id(module globals) -> (globals, table)
        self._codes: dict[Any, list | None] = {}  # code object -> its line table
        self._real_assemble = None

    # ---- installing ----------------------------------------------------------------------
    def install(self) -> None:
        real = self._real_assemble = direct_mod._Gen.assemble
        tracer = self

        def assemble(gen: Any, exported: list[str]) -> tuple[Any, str, list]:
            build, src, locs = real(gen, exported)
            tracer._modules[id(build.__globals__)] = (build.__globals__, locs)
            return build, src, locs

        direct_mod._Gen.assemble = assemble
        sys.settrace(self._global)
        threading.settrace(self._global)

    def uninstall(self) -> None:
        sys.settrace(None)
        threading.settrace(None)  # type: ignore[arg-type]
        if self._real_assemble is not None:
            direct_mod._Gen.assemble = self._real_assemble
            self._real_assemble = None
        self._modules.clear()
        self._codes.clear()

    def switch(self, key: str) -> None:
        self.key = key

    # ---- tracing -------------------------------------------------------------------------
    def _global(self, frame: Any, event: str, arg: Any) -> Any:
        code = frame.f_code
        if code.co_filename != GEN_FILE or code.co_name == "<module>":  # (the module defining `build`)
            return None
        table = self._codes.get(code, False)
        if table is False:
            table = self._codes[code] = self._table_of(frame)
        hits = self.hits.setdefault(self.key, set())
        if table is None:
            hits.add((0, 0))
            return None
        tid = id(table)
        self._tables[tid] = table
        add = hits.add
        add((tid, frame.f_lineno))

        def local(frame: Any, event: str, arg: Any) -> Any:
            if event == "line":
                add((tid, frame.f_lineno))
            return local
        return local

    def _table_of(self, frame: Any) -> list | None:
        got = self._modules.get(id(frame.f_globals))
        if got is not None and got[0] is frame.f_globals:
            return got[1]
        f = frame.f_back
        while f is not None:
            me = f.f_locals.get("self") if f.f_code.co_filename != GEN_FILE else None
            lines = getattr(getattr(me, "dp", None), "lines", None)
            if isinstance(lines, list):
                return lines
            f = f.f_back
        return None

    def reached(self, key: str) -> set[RuleLine]:
        """The rule lines reached under `key` (ANY among them when a module could not be told)."""
        out: set[RuleLine] = set()
        for tid, lineno in self.hits.get(key, ()):
            if tid == 0:
                out.add(ANY)
                continue
            table = self._tables[tid]
            loc = table[lineno - 1] if 0 < lineno <= len(table) else None
            if loc is not None:
                out.add((resolved(loc.file), loc.line))
        return out


_RESOLVED: dict[str, str] = {}


def resolved(file: str) -> str:
    """A rule location's file as an absolute path (locations name files as they were loaded)."""
    got = _RESOLVED.get(file)
    if got is None:
        got = _RESOLVED[file] = str(Path(file).resolve())
    return got


def real_path(file: str, moved: list[tuple[str, str]]) -> str:
    """`file` of a mutant's copy named as the real file (`moved`: (copy folder, real folder) pairs)."""
    for copy, real in moved:
        if file.startswith(copy + os.sep):
            return real + file[len(copy):]
    return file


# ---- what a mutant changes ------------------------------------------------------------------
def code_groups(source: str, lines: list, consts: list, moved: list[tuple[str, str]] = ()) \
        -> dict[Any, list[str]]:
    """The generated module's body lines grouped by their rule line, each made comparable across
    two compilations: a constant `_kN` written as its value, a name bound in `build`'s head (a
    zone's list, a field table) as what it binds, and the numbered temporaries renamed in the
    order they appear in the group (a statement dropped earlier renumbers every later one).
    Lines of no rule (the head, the dispatch tables) are grouped under None. `moved`: (copy
    folder, real folder) pairs, to name a mutant copy's files as the real ones."""
    src = source.split("\n")
    canon: dict[str, str] = {}
    shown: dict[int, str] = {}

    def const(m: re.Match) -> str:
        i = int(m.group(1))
        if i >= len(consts):
            return m.group()
        got = shown.get(i)
        if got is None:
            value = consts[i]
            if isinstance(value, Loc):  # a decision's rule location: its file as the real one, absolute
                got = f"«{real_path(resolved(value.file), moved)}:{value.line}:{value.col}»"
            else:
                got = f"«{value!r}»"
            shown[i] = got
        return got

    body_start = 0
    for i, text in enumerate(src):
        if text.startswith("    def "):
            body_start = i
            break
        m = _HEAD.match(text)
        if m and not m.group(1).startswith("_k"):
            canon[m.group(1)] = "«" + _K_NAME.sub(const, m.group(2)) + "»"
    groups: dict[Any, list[str]] = {}
    for i in range(body_start, len(src)):
        loc = lines[i] if i < len(lines) else None
        key = None
        if loc is not None:
            key = (real_path(resolved(loc.file), moved), loc.line)
        groups.setdefault(key, []).append(src[i])
    out: dict[Any, list[str]] = {}
    for key, texts in groups.items():
        names: dict[str, str] = {}

        def rename(m: re.Match) -> str:
            n = m.group()
            if n.startswith("_k") and n[2:].isdigit():
                return const(_K_NAME.match(n))
            if n in canon:
                return canon[n]
            return names.setdefault(n, f"_{len(names)}")
        out[key] = [_NAME.sub(rename, t) for t in texts]
    return out


def changed_lines(base: dict[Any, list[str]], mutant: dict[Any, list[str]]) -> set[RuleLine] | None:
    """The rule lines whose generated code differs between two `code_groups`; None when no rule
    line's code differs: a change to data (a card field, a zone's visibility) or to the module's
    shared part alone (the build head, the dispatch tables), which the tests may all see. The
    shared part changing along with some rule lines (a function emitted on its own once its code
    is no longer shared with another ability's, a new export) follows from those lines' change
    and is not counted: a game reaches the new function only through the changed lines' rules."""
    out: set[RuleLine] = set()
    for key in base.keys() | mutant.keys():
        if key is not None and base.get(key) != mutant.get(key):
            out.add(key)
    return out or None


# ---- the pytest plugin ------------------------------------------------------------------------
_PLUGIN: Tracer | None = None


def pytest_configure(config: Any) -> None:
    global _PLUGIN
    if os.environ.get("RULECOVER_OUT"):
        _PLUGIN = Tracer()
        _PLUGIN.install()


def pytest_runtest_protocol(item: Any, nextitem: Any) -> Iterator[None]:
    if _PLUGIN is not None:
        _PLUGIN.switch(item.nodeid)
    yield
    if _PLUGIN is not None:
        _PLUGIN.switch(SESSION)


pytest_runtest_protocol.hookwrapper = True  # type: ignore[attr-defined]


def pytest_runtest_setup(item: Any) -> Iterator[None]:
    """A test's set-up (its fixtures: a module's fixture, made in its first test's set-up, serves
    every test of the file) is recorded for the whole file: `FILE::*setup*`."""
    if _PLUGIN is not None:
        _PLUGIN.switch(item.nodeid.split("::")[0] + "::" + SETUP)
    yield
    if _PLUGIN is not None:
        _PLUGIN.switch(item.nodeid)


pytest_runtest_setup.hookwrapper = True  # type: ignore[attr-defined]


def pytest_unconfigure(config: Any) -> None:
    global _PLUGIN
    if _PLUGIN is None:
        return
    tracer, _PLUGIN = _PLUGIN, None
    tracer.uninstall()
    out = {key: sorted(tracer.reached(key)) for key in tracer.hits}
    Path(os.environ["RULECOVER_OUT"]).write_text(json.dumps(out), encoding="utf-8")
