"""The observed form of a direct program: the same generated code, that also tells the game's
observer (`Game.observer`) what the state does not show — each decision taken without asking
because it had one option, and each shuffle. Scenarios assert them (`offered`, `shuffled`) and
the terminal's narrator tells them; batches never pay for it (they run the plain form).

The form is made from the generated source by rewriting two fragments in place, on their own
lines, so every line keeps its rule location (`DirectProgram.lines`) and the lowering to frames
(resumablegame.py) works on it as on the plain form:

    X[0] if len(X) == 1 else X[(yield ASK)]   →   (_only_option(R, ASK) if X else None, X[0])[1] if ...
    _rng.shuffle(Z)                            →   _shuffled(R, Z)
    if not LEGAL: break  (before an action)    →   if not LEGAL: _only_option(R, ASK); break
"""
from __future__ import annotations

import ast
import gc
from typing import Any

from ..runtime.values import ZoneRef
from .direct import DirectProgram, Unsupported, _check_direct_source, _helpers
from .directgame import GEN_FILE, GENERATED_GLOBALS

__all__ = ["compile_observed"]


def _only_option(R: Any, decision: Any) -> None:
    """Tell the observer of a decision taken without asking (`Game.ask` with one option)."""
    observer = R.game.observer
    if observer is not None:
        observer.only_option(decision)


def _shuffled(R: Any, zone: list) -> None:
    """Shuffle a zone's list (as the plain form does) and tell the observer which zone it was."""
    st = R.state
    st.rng.shuffle(zone)
    observer = R.game.observer
    if observer is not None:
        key = next(k for k, z in st.zones.items() if z is zone)
        name, _, owner = key.partition("#")
        observer.shuffled(ZoneRef(name, int(owner) if owner else None))


OBSERVED_GLOBALS = {"_only_option": _only_option, "_shuffled": _shuffled}
GENERATED_GLOBALS.update(OBSERVED_GLOBALS)  # so the lowered form (resumablegame.py) finds them too


def compile_observed(dp: DirectProgram) -> DirectProgram:
    """`dp` in its observed form (cached on it): a DirectProgram sharing its tables, lines and
    constants, whose `build` and `source` tell the observer; `Unsupported` if it cannot be made.
    The source is checked now; its `build` is compiled when a game first asks for it — a
    copyable game never does (resumablelazy.py compiles the source with its stubs instead)."""
    cached = dp.__dict__.get("_observed")
    if cached is not None:
        return cached
    src = _rewrite(dp.source)
    try:
        _check_direct_source(src)
    except ValueError as why:
        raise Unsupported(f"the observed code did not pass its checks ({why})") from None
    out = _ObservedProgram.__new__(_ObservedProgram)
    out.__dict__.update(dp.__dict__)
    for own in ("_resumable", "_observed", "build"):  # its own lowered form (resumablegame.compile_resumable)
        out.__dict__.pop(own, None)
    out.source = src
    out.bind_again = None  # (the plain form's: this form's games build their own functions)
    dp.__dict__["_observed"] = out
    return out


class _ObservedProgram(DirectProgram):
    """The observed form: its `build` compiled on first use."""

    @property
    def build(self) -> Any:  # type: ignore[override]
        got = self.__dict__.get("_build")
        if got is None:
            try:
                code = compile(self.source, GEN_FILE, "exec")
            except SyntaxError as why:  # the plain form compiled: a rewrite went wrong
                raise Unsupported(f"the observed code did not pass its checks ({why})") from None
            ns: dict[str, Any] = {"__builtins__": {}}
            ns.update(_helpers())
            exec(code, ns)  # noqa: S102 - the checked generated module, rewritten here only
            got = self.__dict__["_build"] = ns["build"]
        return got


def _rewrite(src: str) -> str:
    """The rewrites of the module docstring, each inside one line, by column: the same text as
    `_rewrite_whole`, visiting only the statements whose lines could hold one (`_visit`), with
    the collector paused (the parse makes a million short-lived nodes and no cycles)."""
    lines = src.split("\n")
    marked = _marked_lines(lines)
    paused = gc.isenabled()
    gc.disable()
    try:
        tree = ast.parse(src)
        edits: list[tuple[int, int, int, str]] = []
        _visit_marked(tree.body, marked, lines, edits)
    finally:
        if paused:
            gc.enable()
    return _apply(lines, edits)


def _marked_lines(lines: list[str]) -> list[int]:
    """How many lines before each (1-based) line number hold a name every rewrite starts at: the
    `len` of a decision's test, the `_rng` of a shuffle, an action's `action_decision`."""
    counts = [0, 0]
    n = 0
    for line in lines:
        if "len" in line or "_rng" in line or "action_decision" in line:
            n += 1
        counts.append(n)
    return counts


def _visit_marked(body: list[ast.stmt], marked: list[int], lines: list[str],
                  edits: list[tuple[int, int, int, str]]) -> None:
    """`_visit` every node of the statements in `body` whose lines hold a marked one; a rewrite's
    node (and the statement holding an action's pair) always spans the line of its mark."""
    for stmt in body:
        if marked[stmt.end_lineno + 1] == marked[stmt.lineno]:
            continue
        _visit(stmt, lines, edits)
        for field in stmt._fields:
            value = getattr(stmt, field, None)
            if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                _visit_marked(value, marked, lines, edits)
            elif isinstance(value, list):
                for item in value:
                    if isinstance(item, ast.AST):
                        for node in ast.walk(item):
                            _visit(node, lines, edits)
            elif isinstance(value, ast.AST):
                for node in ast.walk(value):
                    _visit(node, lines, edits)


def _rewrite_whole(src: str) -> str:
    """The rewrites, from every node of the whole module (the reference; tests compare the two)."""
    lines = src.split("\n")
    edits: list[tuple[int, int, int, str]] = []
    for node in ast.walk(ast.parse(src)):
        _visit(node, lines, edits)
    return _apply(lines, edits)


def _visit(node: ast.AST, lines: list[str], edits: list[tuple[int, int, int, str]]) -> None:
    """The rewrites at `node`: (line index, start col, end col, new text) added to `edits`."""
    single = _single(node.test) if isinstance(node, (ast.IfExp, ast.If)) else None
    if single is not None:
        ask = next((n.value for o in (node.orelse if isinstance(node, ast.If) else [node.orelse])
                    for n in ast.walk(o) if isinstance(n, ast.Yield)), None)
        if isinstance(node, ast.IfExp):
            body = node.body
        elif len(node.body) == 1 and isinstance(node.body[0], ast.Assign):  # simultaneous choices
            body = node.body[0].value
        else:
            return
        if ask is None or body.lineno != body.end_lineno or ask.lineno != ask.end_lineno:
            return
        line = lines[body.lineno - 1]
        ask_text = lines[ask.lineno - 1][ask.col_offset:ask.end_col_offset]
        options = lines[single.lineno - 1][single.col_offset:single.end_col_offset]
        body_text = line[body.col_offset:body.end_col_offset]
        edits.append((body.lineno - 1, body.col_offset, body.end_col_offset,
                      f"(_only_option(R, {ask_text}) if {options} else None, {body_text})[1]"))
    elif isinstance(node, (ast.While, ast.For, ast.If, ast.FunctionDef, ast.Try)):
        edits += _no_actions(node.body, lines)
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "shuffle"
          and isinstance(node.func.value, ast.Name) and node.func.value.id == "_rng" and len(node.args) == 1
          and node.lineno == node.end_lineno):
        line = lines[node.lineno - 1]
        arg = line[node.args[0].col_offset:node.args[0].end_col_offset]
        edits.append((node.lineno - 1, node.col_offset, node.end_col_offset, f"_shuffled(R, {arg})"))


def _apply(lines: list[str], edits: list[tuple[int, int, int, str]]) -> str:
    lines = list(lines)
    for i, a, b, text in sorted(edits, key=lambda e: (e[0], -e[1])):  # right to left within a line
        lines[i] = lines[i][:a] + text + lines[i][b:]
    return "\n".join(lines)


def _no_actions(body: list[ast.stmt], lines: list[str]) -> list[tuple[int, int, int, str]]:
    """`if not LEGAL: break` before `I = yield R.action_decision(...)`: with no action to take, the
    task engine still asks (its only option: done), and tells the observer."""
    out = []
    for first, then in zip(body, body[1:]):
        if (isinstance(first, ast.If) and isinstance(first.test, ast.UnaryOp) and isinstance(first.test.op, ast.Not)
                and len(first.body) == 1 and isinstance(first.body[0], ast.Break) and not first.orelse
                and isinstance(then, ast.Assign) and isinstance(then.value, ast.Yield)
                and isinstance(then.value.value, ast.Call) and isinstance(then.value.value.func, ast.Attribute)
                and then.value.value.func.attr == "action_decision" and then.lineno == then.end_lineno):
            ask = then.value.value
            stop = first.body[0]
            out.append((stop.lineno - 1, stop.col_offset, stop.end_col_offset,
                        f"_only_option(R, {lines[ask.lineno - 1][ask.col_offset:ask.end_col_offset]}); break"))
    return out


def _single(test: ast.expr) -> ast.expr | None:
    """X of `len(X) == 1` or `len(X) <= 1`, the tests before a decision that is asked only with
    several options (the latter: a simultaneous choice, where a seat may have none); else None."""
    if (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Eq, ast.LtE))
            and isinstance(test.left, ast.Call) and isinstance(test.left.func, ast.Name) and test.left.func.id == "len"
            and len(test.left.args) == 1 and isinstance(test.comparators[0], ast.Constant)
            and test.comparators[0].value == 1):
        return test.left.args[0]
    return None
