"""Generator functions lowered to frame-based state machines, so that a running game can be copied.

A generator cannot be copied, so a game driven by generators (directgame.py) cannot be cloned for
a search. This pass takes the Python `ast` of generator functions (the direct engine's generated
module, and the game flow in directgame.py) and rewrites each into two plain functions:

- a *factory* with the generator's name and parameters, which returns a new **frame**: a plain
  list `[step, pc, exception, slot...]` holding the step function, the program counter and the
  locals that live across a decision (the others stay Python locals);
- a *step* function `step(frame, sent)` that runs from `frame[1]` until the next decision (it
  returns the decision, having stored where to resume) or the end (it returns `DONE`).

Statements without a decision stay as they were. A statement that contains one is split into
numbered blocks: `if` into a test that jumps, loops into a head that tests (a `for` over a list
keeps its index in the frame, as Python's list iterator does), `try` into blocks whose
exceptions go to a handler block. A decision inside an expression (`x[(yield d)]`, `(yield d) ==
0`, a conditional expression) is first taken out of it into a statement, keeping the order of
evaluation. `yield from g(...)` stores g's frame in a slot of the caller's and calls its step; re-entering
the outermost frame passes an answer down the chain, as `yield from` does, so an exception
travels up through every frame's `try` as it would through generators. A block that resumes a
call is numbered by the called frame's slot (`call_slot`), so a game's driver can find the
innermost frame from the frames alone and resume it directly (resumablegame.py's `_Root`).

A game is then its `GameState` plus one frame chain of plain data, and copying it is copying
both (`copy_frames`), in time that does not grow with the game's length. `ResumableGame`
(resumablegame.py) drives it. See docs/compilation.md for the design and its measurements.
"""
from __future__ import annotations

import ast
import copy
import heapq
from types import BuiltinMethodType, MethodType
from typing import Any, Callable

from ..runtime.values import Position, Seat

__all__ = ["DONE", "STEP_SUFFIX", "NotLowerable", "lower_generators", "lower_function", "copy_value", "CopyPlan", "has_yield",
           "call_slot"]


class _Done:
    """What a step function returns when its generator would have finished."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "DONE"


DONE = _Done()

_P = "_Q_"  # prefix of every name this pass introduces (generated code never uses it)
FR, PC, SENT, EXC = _P + "fr", _P + "pc", _P + "sent", _P + "x"
STEP_SUFFIX = _P + "step"  # a lowered generator's step function is its name and this
EXC_SLOT = 2  # frame[2]: the exception a handler block is handling
FIRST_SLOT = 3


class NotLowerable(Exception):
    """A generator uses a construct this pass does not rewrite (its game then cannot be copied)."""


def _snap(xs: Any) -> Any:
    """What a lowered `for` walks by index: a list or tuple itself (as Python's iterator does, a
    list that grows meanwhile is walked to its new end), anything else as a list made now."""
    return xs if type(xs) is list or type(xs) is tuple else list(xs)


HELPERS: dict[str, Any] = {_P + "DONE": DONE, _P + "snap": _snap, "isinstance": isinstance, "len": len,
                           "list": list, "BaseException": BaseException}


# ---- analysis helpers --------------------------------------------------------------------------
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_COMPS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def has_yield(node: ast.AST) -> bool:
    """A `yield` or `yield from` in `node`, not counting nested functions."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.Yield, ast.YieldFrom)):
            return True
        for c in ast.iter_child_nodes(n):
            if not isinstance(c, _SCOPES):
                stack.append(c)
    return False


class _YieldMemo:
    """`has_yield` for one function's lowering, each node's answer kept: the passes ask it of
    every statement and expression on the way down, which walked each subtree once per level
    (quadratic in the nesting). A node is kept with its answer, so its id cannot be reused
    while the memo lives."""

    def __init__(self) -> None:
        self.known: dict[int, tuple[ast.AST, bool]] = {}

    def __call__(self, node: ast.AST) -> bool:
        known = self.known
        got = known.get(id(node))
        if got is not None and got[0] is node:
            return got[1]
        order: list[tuple[ast.AST, list[ast.AST]]] = []
        stack = [node]
        while stack:  # the nodes not known yet, parents before children
            n = stack.pop()
            got = known.get(id(n))
            if got is not None and got[0] is n:
                continue
            kids = [c for c in _kids(n, _shape(type(n))[1]) if not isinstance(c, _SCOPES)]
            order.append((n, kids))
            stack.extend(kids)
        for n, kids in reversed(order):
            known[id(n)] = (n, isinstance(n, (ast.Yield, ast.YieldFrom)) or any(known[id(c)][1] for c in kids))
        return known[id(node)][1]


def _name(id_: str, ctx: ast.expr_context | None = None) -> ast.Name:
    return ast.Name(id=id_, ctx=ctx or ast.Load())


def _const(v: Any) -> ast.Constant:
    return ast.Constant(value=v)


def _assign(target: str, value: ast.expr) -> ast.Assign:
    return ast.Assign(targets=[_name(target, ast.Store())], value=value, lineno=0)


def _frame_item(i: int, ctx: ast.expr_context | None = None) -> ast.Subscript:
    return ast.Subscript(value=_name(FR), slice=_const(i), ctx=ctx or ast.Load())


def _is_pure(e: ast.expr) -> bool:
    """A value that cannot change while the generator is suspended (so it may be read after)."""
    return isinstance(e, ast.Constant) or (isinstance(e, ast.Name) and not e.id.startswith("__"))


# ---- step 1: decisions out of expressions ------------------------------------------------------
class _Exploder:
    """Rewrites statements so that every `yield` is one of: `t = yield v`, `yield v`,
    `yield from g(...)` with `v` and the call free of yields (the canonical forms `_Flattener`
    knows), keeping Python's order of evaluation."""

    def __init__(self, fresh: Callable[[str], str], has_yield: Callable[[ast.AST], bool] = has_yield):
        self.fresh, self.has_yield = fresh, has_yield

    def stmts(self, body: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for s in body:
            out.extend(self.stmt(s) if self.has_yield(s) else [s])
        return out

    def stmt(self, s: ast.stmt) -> list[ast.stmt]:
        loc = s
        if isinstance(s, ast.Expr):
            v = s.value
            if isinstance(v, (ast.Yield, ast.YieldFrom)):
                pre, inner = self.expr(v.value) if v.value is not None else ([], None)
                return pre + [ast.copy_location(ast.Expr(value=type(v)(value=inner)), loc)]
            pre, e = self.expr(v)
            return pre + [ast.copy_location(ast.Expr(value=e), loc)]
        if isinstance(s, ast.Assign):
            if any(self.has_yield(t) for t in s.targets):
                raise NotLowerable("a decision in an assignment's target")
            v = s.value
            if isinstance(v, ast.Yield) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name):
                pre, inner = self.expr(v.value) if v.value is not None else ([], None)
                return pre + [ast.copy_location(ast.Assign(targets=s.targets, value=ast.Yield(value=inner)), loc)]
            pre, e = self.expr(v)
            return pre + [ast.copy_location(ast.Assign(targets=s.targets, value=e), loc)]
        if isinstance(s, ast.AugAssign):
            if not isinstance(s.target, ast.Name):
                raise NotLowerable("a decision in `+=` on a part of a value")
            pre, e = self.expr(s.value)
            return pre + [ast.copy_location(ast.AugAssign(target=s.target, op=s.op, value=e), loc)]
        if isinstance(s, ast.If):
            pre, t = self.expr(s.test)
            return pre + [ast.copy_location(ast.If(test=t, body=self.stmts(s.body), orelse=self.stmts(s.orelse)), loc)]
        if isinstance(s, ast.While):
            if s.orelse:
                raise NotLowerable("`while ... else`")
            body = self.stmts(s.body)
            if self.has_yield(s.test):
                pre, t = self.expr(s.test)
                stop = ast.copy_location(ast.If(test=ast.UnaryOp(op=ast.Not(), operand=t), body=[ast.Break()],
                                                orelse=[]), loc)
                return [ast.copy_location(ast.While(test=_const(True), body=pre + [stop] + body, orelse=[]), loc)]
            return [ast.copy_location(ast.While(test=s.test, body=body, orelse=[]), loc)]
        if isinstance(s, ast.For):
            if s.orelse:
                raise NotLowerable("`for ... else`")
            if self.has_yield(s.target):
                raise NotLowerable("a decision in a loop's target")
            pre, it = self.expr(s.iter)
            return pre + [ast.copy_location(ast.For(target=s.target, iter=it, body=self.stmts(s.body), orelse=[],
                                                    type_comment=None), loc)]
        if isinstance(s, ast.Try):
            handlers = []
            for h in s.handlers:
                if h.type is not None and self.has_yield(h.type):
                    raise NotLowerable("a decision in an `except` clause's type")
                handlers.append(ast.copy_location(ast.ExceptHandler(type=h.type, name=h.name, body=self.stmts(h.body)), h))
            return [ast.copy_location(ast.Try(body=self.stmts(s.body), handlers=handlers, orelse=self.stmts(s.orelse),
                                              finalbody=self.stmts(s.finalbody)), loc)]
        if isinstance(s, ast.Return):
            if s.value is not None:
                raise NotLowerable("a generator that returns a value")
            return [s]
        if isinstance(s, ast.Raise):
            pre, e = self.expr(s.exc) if s.exc is not None else ([], None)
            return pre + [ast.copy_location(ast.Raise(exc=e, cause=s.cause), loc)]
        raise NotLowerable(f"a decision in a `{type(s).__name__}` statement")

    def expr(self, e: ast.expr) -> tuple[list[ast.stmt], ast.expr]:
        """(statements to run first, the expression without yields)."""
        if not self.has_yield(e):
            return [], e
        if isinstance(e, (ast.Yield, ast.YieldFrom)):
            pre, inner = self.expr(e.value) if e.value is not None else ([], None)
            t = self.fresh("y")
            return pre + [ast.copy_location(_assign(t, type(e)(value=inner)), e)], _name(t)
        if isinstance(e, ast.IfExp):
            pre, test = self.expr(e.test)
            if not self.has_yield(e.body) and not self.has_yield(e.orelse):
                return pre, ast.IfExp(test=test, body=e.body, orelse=e.orelse)
            t = self.fresh("v")
            b_pre, b = self.expr(e.body)
            o_pre, o = self.expr(e.orelse)
            branch = ast.copy_location(ast.If(test=test, body=b_pre + [ast.copy_location(_assign(t, b), e)],
                                              orelse=o_pre + [ast.copy_location(_assign(t, o), e)]), e)
            return pre + [branch], _name(t)
        if isinstance(e, ast.BoolOp):
            first, rest = e.values[0], e.values[1:]
            pre, v = self.expr(first)
            if not any(self.has_yield(x) for x in rest):
                return pre, ast.BoolOp(op=e.op, values=[v] + rest)
            t = self.fresh("v")
            tail = rest[0] if len(rest) == 1 else ast.BoolOp(op=e.op, values=rest)
            r_pre, r = self.expr(tail)
            test = _name(t) if isinstance(e.op, ast.And) else ast.UnaryOp(op=ast.Not(), operand=_name(t))
            branch = ast.copy_location(ast.If(test=test, body=r_pre + [ast.copy_location(_assign(t, r), e)],
                                              orelse=[]), e)
            return pre + [ast.copy_location(_assign(t, v), e), branch], _name(t)
        if isinstance(e, ast.NamedExpr):
            pre, v = self.expr(e.value)
            return pre + [ast.copy_location(_assign(e.target.id, v), e)], _name(e.target.id)
        if isinstance(e, _COMPS + (ast.Lambda,)):
            raise NotLowerable("a decision inside a comprehension")
        if isinstance(e, ast.Compare) and len(e.ops) > 1:
            raise NotLowerable("a decision in a chained comparison")
        if isinstance(e, ast.Dict):
            raise NotLowerable("a decision inside a map")
        if isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) and not self.has_yield(e.func):
            # `obj.method(..., (yield d))`: keep the object, not a bound method, across the decision
            # (a copy of the game must call the method of its own copy of the object)
            pre, obj = self._operand(e.func.value, True)
            call = ast.Call(func=ast.Attribute(value=obj, attr=e.func.attr, ctx=ast.Load()), args=e.args,
                            keywords=e.keywords)
            more, out = self.expr(ast.Call(func=_name(_P + "nothing"), args=call.args, keywords=call.keywords))
            call.args, call.keywords = out.args, out.keywords
            return pre + more, call
        # any other expression: its children in order; those before the last one with a decision
        # are evaluated into temporaries first (they could change while the game waits)
        fields = [(name, value) for name, value in ast.iter_fields(e)]
        slots: list[tuple[str, int | None, ast.AST]] = []
        for name, value in fields:
            if isinstance(value, list):
                slots += [(name, i, v) for i, v in enumerate(value) if isinstance(v, ast.AST)]
            elif isinstance(value, ast.AST):
                slots.append((name, None, value))
        last = max(i for i, (_, _, v) in enumerate(slots) if self.has_yield(v))
        new = copy.copy(e)
        for name, value in fields:
            if isinstance(value, list):
                setattr(new, name, list(value))
        pre: list[ast.stmt] = []
        for i, (name, idx, v) in enumerate(slots[:last + 1]):
            if isinstance(v, ast.keyword):
                k_pre, kv = self._operand(v.value, i < last)
                pre += k_pre
                v2: ast.AST = ast.keyword(arg=v.arg, value=kv)
            elif isinstance(v, ast.Starred):
                s_pre, sv = self._operand(v.value, i < last)
                pre += s_pre
                v2 = ast.Starred(value=sv, ctx=v.ctx)
            elif isinstance(v, ast.expr):
                x_pre, v2 = self._operand(v, i < last)
                pre += x_pre
            else:  # an operator or context: nothing to evaluate
                continue
            if idx is None:
                setattr(new, name, v2)
            else:
                getattr(new, name)[idx] = v2
        return pre, new

    def _operand(self, v: ast.expr, before_last: bool) -> tuple[list[ast.stmt], ast.expr]:
        pre, x = self.expr(v)
        if before_last and not _is_pure(x):
            t = self.fresh("v")
            pre = pre + [ast.copy_location(_assign(t, x), v)]
            x = _name(t)
        return pre, x


# ---- step 2: statements with decisions into blocks ---------------------------------------------
def _dispatch(self: ast.NodeVisitor, node: ast.AST) -> Any:
    """`NodeVisitor`'s dispatch by node class (under another name: a game's word list forbids
    the usual one in the interpreter)."""
    return getattr(self, "visit_" + type(node).__name__, self.generic_visit)(node)


_NO_JUMPS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


class _Jumps:
    """In a statement without decisions: `break`/`continue` of a lowered loop and `return`
    become jumps between blocks (after the `finally` bodies they leave). Those are statements,
    so only statement lists are walked, never expressions (which cannot hold them)."""

    def __init__(self, flat: "_Flattener"):
        self.flat = flat

    def on(self, s: ast.stmt, depth: int = 0) -> ast.stmt | list[ast.stmt]:
        if isinstance(s, (ast.Break, ast.Continue)):
            return s if depth else self.flat.loop_exit(isinstance(s, ast.Break), s)
        if isinstance(s, ast.Return):
            if s.value is not None:
                raise NotLowerable("a generator that returns a value")
            return self.flat.leave(s)
        if isinstance(s, _NO_JUMPS):
            return s
        inner = depth + 1 if isinstance(s, (ast.For, ast.While)) else depth
        for body in _bodies(s):
            if body:
                body[:] = self._list(body, inner)
        return s

    def _list(self, body: list[ast.stmt], depth: int) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for x in body:
            new = self.on(x, depth)
            if isinstance(new, list):
                out.extend(new)
            else:
                out.append(new)
        return out


def _bodies(s: ast.stmt) -> list[list[ast.stmt]]:
    """The statement lists directly inside `s` (those of its `except` and `case` clauses too)."""
    out = [getattr(s, f) for f in ("body", "orelse", "finalbody") if isinstance(getattr(s, f, None), list)]
    for clause in getattr(s, "handlers", ()) or ():
        out.append(clause.body)
    for clause in getattr(s, "cases", ()) or ():
        out.append(clause.body)
    return out


class _Flattener:
    """Turns a function body (after `_Exploder`) into numbered blocks of plain statements."""

    def __init__(self, fresh: Callable[[str], str], has_yield: Callable[[ast.AST], bool] = has_yield):
        self.fresh, self.has_yield = fresh, has_yield
        self.blocks: dict[int, list[ast.stmt]] = {}
        self.handler_of: dict[int, int | None] = {}
        self.lines: dict[int, int] = {}  # resume block → line of the yield that suspends before it
        self.child: dict[int, str] = {}  # resume block of a `yield from` → the variable with the frame
        self.count = 0
        self.cur: list[ast.stmt] | None = None
        self.handler: int | None = None
        self.loops: list[tuple[int, int, int]] = []  # (break label, continue label, finally depth)
        self.finals: list[list[ast.stmt]] = []
        self.at: ast.AST | None = None  # the statement being lowered (for line numbers)

    def label(self) -> int:
        self.count += 1
        return self.count - 1

    def start(self, label: int) -> None:
        if self.cur is not None:
            self.cur.extend(self.jump(label))
        self.cur = self.blocks[label] = []
        self.handler_of[label] = self.handler

    def emit(self, s: ast.stmt | list[ast.stmt]) -> None:
        if self.cur is None:  # unreachable code after a jump: a block of its own
            self.start(self.label())
        self.cur.extend(s if isinstance(s, list) else [s])

    def jump(self, label: int) -> list[ast.stmt]:
        return self._at([ast.Assign(targets=[_name(PC, ast.Store())], value=_const(label)), ast.Continue()])

    def _at(self, stmts: list[ast.stmt]) -> list[ast.stmt]:
        if self.at is not None:
            for s in stmts:
                ast.copy_location(s, self.at)
        return stmts

    def end_block(self, tail: list[ast.stmt]) -> None:
        self.emit(tail)
        self.cur = None

    def finals_since(self, depth: int) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for body in reversed(self.finals[depth:]):
            out += copy.deepcopy(body)
        return out

    def loop_exit(self, is_break: bool, node: ast.AST) -> list[ast.stmt]:
        if not self.loops:
            raise NotLowerable("`break` outside a loop")
        brk, cont, depth = self.loops[-1]
        out = self.finals_since(depth) + self.jump(brk if is_break else cont)
        return [ast.copy_location(s, node) for s in out]

    def leave(self, node: ast.AST) -> list[ast.stmt]:
        out = self.finals_since(0) + [ast.Return(value=_name(_P + "DONE"))]
        return [ast.copy_location(s, node) for s in out]

    # ---- statements ----------------------------------------------------------------------
    def body(self, stmts: list[ast.stmt]) -> None:
        for s in stmts:
            self.at = s
            if not self.has_yield(s):
                if isinstance(s, (ast.Break, ast.Continue, ast.Return)):
                    self.end_block(_Jumps(self).on(s))
                    continue
                new = _Jumps(self).on(s)
                self.emit(new if isinstance(new, list) else [new])
                if isinstance(s, ast.Raise):
                    self.cur = None
                continue
            self.stmt(s)

    def stmt(self, s: ast.stmt) -> None:
        if isinstance(s, (ast.Expr, ast.Assign)) and isinstance(s.value, (ast.Yield, ast.YieldFrom)):
            target = s.targets[0].id if isinstance(s, ast.Assign) else None
            if isinstance(s.value, ast.Yield):
                self.suspend(s.value.value, target, s)
            else:
                self.call(s.value.value, target, s)
        elif isinstance(s, ast.If):
            if isinstance(s.test, ast.Constant) and not s.test.value and not s.orelse:
                return  # `if False: yield`: only there to make a generator
            other, end = self.label(), self.label()
            self.emit(ast.copy_location(ast.If(test=ast.UnaryOp(op=ast.Not(), operand=s.test),
                                               body=self.jump(other), orelse=[]), s))
            self.body(s.body)
            self.at = s
            if self.cur is not None:
                self.end_block(self.jump(end))
            self.start(other)
            self.body(s.orelse)
            self.at = s
            self.start(end)
        elif isinstance(s, ast.While):
            head, after = self.label(), self.label()
            self.start(head)
            if not (isinstance(s.test, ast.Constant) and s.test.value):
                self.emit(ast.copy_location(ast.If(test=ast.UnaryOp(op=ast.Not(), operand=s.test),
                                                   body=self.jump(after), orelse=[]), s))
            self.loops.append((after, head, len(self.finals)))
            self.body(s.body)
            self.loops.pop()
            self.at = s
            if self.cur is not None:
                self.end_block(self.jump(head))
            self.start(after)
        elif isinstance(s, ast.For):
            it, ix = self.fresh("it"), self.fresh("ix")
            head, after = self.label(), self.label()
            self.emit([ast.copy_location(_assign(it, ast.Call(func=_name(_P + "snap"), args=[s.iter], keywords=[])), s),
                       ast.copy_location(_assign(ix, _const(0)), s)])
            self.start(head)
            done = ast.Compare(left=_name(ix), ops=[ast.GtE()],
                               comparators=[ast.Call(func=_name("len"), args=[_name(it)], keywords=[])])
            self.emit([ast.copy_location(ast.If(test=done, body=self.jump(after), orelse=[]), s),
                       ast.copy_location(ast.Assign(targets=[s.target], value=ast.Subscript(
                           value=_name(it), slice=_name(ix), ctx=ast.Load())), s),
                       ast.copy_location(ast.AugAssign(target=_name(ix, ast.Store()), op=ast.Add(),
                                                       value=_const(1)), s)])
            self.loops.append((after, head, len(self.finals)))
            self.body(s.body)
            self.loops.pop()
            self.at = s
            if self.cur is not None:
                self.end_block(self.jump(head))
            self.start(after)
            self.emit(ast.copy_location(_assign(it, _const(None)), s))
        elif isinstance(s, ast.Try):
            self.try_(s)
        else:
            raise NotLowerable(f"a decision in a `{type(s).__name__}` statement")

    def suspend(self, value: ast.expr | None, target: str | None, s: ast.stmt) -> None:
        resume = self.label()
        self.end_block([ast.copy_location(ast.Assign(targets=[_frame_item(1, ast.Store())], value=_const(resume)), s),
                        ast.copy_location(ast.Return(value=value if value is not None else _const(None)), s)])
        self.start(resume)
        self.lines[resume] = s.lineno
        if target is not None:
            self.emit(ast.copy_location(_assign(target, _name(SENT)), s))

    def call(self, frame: ast.expr, target: str | None, s: ast.stmt) -> None:
        c, r = self.fresh("c"), _P + "r"
        resume = self.label()
        self.emit(ast.copy_location(_assign(c, frame), s))
        self.start(resume)
        self.lines[resume] = s.lineno
        self.child[resume] = c
        step = ast.Subscript(value=_name(c), slice=_const(0), ctx=ast.Load())
        self.emit([ast.copy_location(_assign(r, ast.Call(func=step, args=[_name(c), _name(SENT)], keywords=[])), s),
                   ast.copy_location(ast.If(
                       test=ast.Compare(left=_name(r), ops=[ast.IsNot()], comparators=[_name(_P + "DONE")]),
                       body=[ast.Assign(targets=[_frame_item(1, ast.Store())], value=_const(resume)),
                             ast.Return(value=_name(r))], orelse=[]), s),
                   ast.copy_location(_assign(c, _const(None)), s)])
        if target is not None:
            self.emit(ast.copy_location(_assign(target, _const(None)), s))

    def try_(self, s: ast.Try) -> None:
        if s.finalbody and (s.handlers or s.orelse):
            inner = ast.copy_location(ast.Try(body=s.body, handlers=s.handlers, orelse=s.orelse, finalbody=[]), s)
            s = ast.copy_location(ast.Try(body=[inner], handlers=[], orelse=[], finalbody=s.finalbody), s)
        if s.finalbody:
            if any(self.has_yield(x) for x in s.finalbody):
                raise NotLowerable("a decision in a `finally` clause")
            outer, handler, after = self.handler, self.label(), self.label()
            self.handler = handler
            body = self.label()
            self.start(body)
            self.finals.append(s.finalbody)
            self.body(s.body)
            self.finals.pop()
            self.handler = outer
            self.at = s
            if self.cur is not None:
                nxt = self.label()
                self.start(nxt)  # the normal way out runs the finally clause outside the try
                self.body(copy.deepcopy(s.finalbody))
                if self.cur is not None:
                    self.end_block(self.jump(after))
            self.start(handler)  # reached only through an exception: finally, then raise it again
            self.cur = self.blocks[handler]
            self.body(copy.deepcopy(s.finalbody))
            self.at = s
            if self.cur is not None:
                self.end_block([ast.copy_location(ast.Raise(exc=_frame_item(EXC_SLOT), cause=None), s)])
            self.start(after)
            return
        outer, handler, after = self.handler, self.label(), self.label()
        self.handler = handler
        body = self.label()
        self.start(body)
        self.body(s.body)
        self.handler = outer
        self.at = s
        if self.cur is not None:
            nxt = self.label()
            self.start(nxt)
            self.body(s.orelse)
            if self.cur is not None:
                self.end_block(self.jump(after))
        self.start(handler)
        self.cur = self.blocks[handler]
        for h in s.handlers:
            nxt = self.label()
            if h.type is not None:
                test = ast.Call(func=_name("isinstance"), args=[_frame_item(EXC_SLOT), h.type], keywords=[])
                self.emit(ast.copy_location(ast.If(test=ast.UnaryOp(op=ast.Not(), operand=test),
                                                   body=self.jump(nxt), orelse=[]), h))
            if h.name:
                self.emit(ast.copy_location(_assign(h.name, _frame_item(EXC_SLOT)), h))
            self.body([_ReRaise().on(x) for x in h.body])
            self.at = s
            if self.cur is not None:
                self.end_block(self.jump(after))
            self.start(nxt)
        self.end_block([ast.copy_location(ast.Raise(exc=_frame_item(EXC_SLOT), cause=None), s)])
        self.start(after)


class _ReRaise(ast.NodeTransformer):
    """A bare `raise` in a lowered `except` clause raises the frame's exception (the clause no
    longer runs inside Python's `except`)."""

    on = _dispatch

    def visit_Try(self, node: ast.Try) -> ast.AST:
        node.body = [self.on(x) for x in node.body]
        node.orelse = [self.on(x) for x in node.orelse]
        node.finalbody = [self.on(x) for x in node.finalbody]
        return node  # its own handlers keep their bare raise

    def visit_FunctionDef(self, node: ast.AST) -> ast.AST:
        return node

    visit_Lambda = visit_AsyncFunctionDef = visit_ClassDef = visit_FunctionDef

    def visit_Raise(self, node: ast.Raise) -> ast.AST:
        if node.exc is None:
            return ast.copy_location(ast.Raise(exc=_frame_item(EXC_SLOT), cause=None), node)
        return node


# ---- step 3: which locals live across blocks ---------------------------------------------------
class _Uses(ast.NodeVisitor):
    """Per block: the names it reads before it has surely set them, the names it mentions, and
    the names it stores. Comprehensions and lambdas have their own scope."""

    on = _dispatch

    def __init__(self) -> None:
        self.defined: set[str] = set()
        self.early: set[str] = set()
        self.mentioned: set[str] = set()
        self.stored: set[str] = set()
        self.read: set[str] = set()
        self.inner: list[set[str]] = []

    def run(self, stmts: list[ast.stmt]) -> "_Uses":
        for s in stmts:
            self.on(s)
        return self

    def _store(self, target: ast.Name, definite: bool) -> None:
        self.mentioned.add(target.id)
        self.stored.add(target.id)
        if definite:
            self.defined.add(target.id)

    def visit_Name(self, node: ast.Name) -> None:
        if any(node.id in sc for sc in self.inner):
            return
        self.mentioned.add(node.id)
        if isinstance(node.ctx, ast.Load):
            self.read.add(node.id)
            if node.id not in self.defined:
                self.early.add(node.id)
        else:
            self.stored.add(node.id)

    def visit_Assign(self, node: ast.Assign) -> None:
        self.on(node.value)
        for t in node.targets:
            self._targets(t)

    def _targets(self, t: ast.AST) -> None:
        if isinstance(t, ast.Name):
            self._store(t, True)
        elif isinstance(t, (ast.Tuple, ast.List)):
            for x in t.elts:
                self._targets(x.value if isinstance(x, ast.Starred) else x)
        else:
            self.on(t)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        if isinstance(node.target, ast.Name):
            self.visit_Name(ast.Name(id=node.target.id, ctx=ast.Load()))
        self.on(node.value)
        if isinstance(node.target, ast.Name):
            self._store(node.target, True)
        else:
            self.on(node.target)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self.on(node.value)
        self._targets(node.target)

    def visit_NamedExpr(self, node: ast.NamedExpr) -> None:
        self.on(node.value)
        self.mentioned.add(node.target.id)
        self.stored.add(node.target.id)  # conditional at best: never "surely set"

    def _nested(self, body: list[ast.stmt]) -> None:
        saved = set(self.defined)
        for s in body:
            self.on(s)
        self.defined = saved

    def visit_If(self, node: ast.If) -> None:
        self.on(node.test)
        self._nested(node.body)
        self._nested(node.orelse)

    def visit_While(self, node: ast.While) -> None:
        saved = set(self.defined)
        self.on(node.test)
        self._nested(node.body)
        self._nested(node.orelse)
        self.defined = saved

    def visit_For(self, node: ast.For) -> None:
        self.on(node.iter)
        saved = set(self.defined)
        self._targets(node.target)
        for s in node.body:
            self.on(s)
        self.defined = saved
        self._nested(node.orelse)

    def visit_Try(self, node: ast.Try) -> None:
        self._nested(node.body)
        for h in node.handlers:
            if h.type is not None:
                self.on(h.type)
            saved = set(self.defined)
            if h.name:
                self.mentioned.add(h.name)
                self.stored.add(h.name)
                self.defined.add(h.name)
            for s in h.body:
                self.on(s)
            self.defined = saved
        self._nested(node.orelse)
        self._nested(node.finalbody)

    def visit_With(self, node: ast.With) -> None:
        for item in node.items:
            self.on(item.context_expr)
            if item.optional_vars is not None:
                self._targets(item.optional_vars)
        self._nested(node.body)

    def _comp(self, node: Any) -> None:
        names: set[str] = set()
        for g in node.generators:
            for n in ast.walk(g.target):
                if isinstance(n, ast.Name):
                    names.add(n.id)
        self.on(node.generators[0].iter)  # evaluated in the enclosing scope
        self.inner.append(names)
        for i, g in enumerate(node.generators):
            if i:
                self.on(g.iter)
            for c in g.ifs:
                self.on(c)
        for f in ("elt", "key", "value"):
            if hasattr(node, f):
                self.on(getattr(node, f))
        self.inner.pop()

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _comp

    def visit_Lambda(self, node: ast.Lambda) -> None:
        a = node.args
        names = {x.arg for x in a.posonlyargs + a.args + a.kwonlyargs}
        names |= {x.arg for x in (a.vararg, a.kwarg) if x is not None}
        for d in a.defaults + [d for d in a.kw_defaults if d is not None]:
            self.on(d)
        self.inner.append(names)
        self.on(node.body)
        self.inner.pop()

    def visit_FunctionDef(self, node: ast.AST) -> None:
        raise NotLowerable("a function defined inside a generator")

    visit_AsyncFunctionDef = visit_ClassDef = visit_FunctionDef

    def visit_Global(self, node: ast.AST) -> None:
        raise NotLowerable("`global` or `nonlocal` in a generator")

    visit_Nonlocal = visit_Global

    def visit_Delete(self, node: ast.Delete) -> None:
        if any(isinstance(t, ast.Name) for t in node.targets):
            raise NotLowerable("`del` of a variable in a generator")
        self.generic_visit(node)


class _ToSlots(ast.NodeTransformer):
    """Names that live across blocks become items of the frame (`fr[i]`); of those a block only
    reads, the block reads each once into a local at its start (`cached`)."""

    on = _dispatch

    def __init__(self, slots: dict[str, int], cached: set[str], guarded: set[str] = frozenset()):
        self.slots, self.cached, self.guarded = slots, cached, guarded
        self.inner: list[set[str]] = []

    def visit_Name(self, node: ast.Name) -> ast.AST:
        i = self.slots.get(node.id)
        if i is None or node.id in self.cached or any(node.id in sc for sc in self.inner):
            return node
        if node.id in self.guarded and isinstance(node.ctx, ast.Load):
            # `fr[i] if fr[i] is not UNSET else NAME`: NAME is never set here, so reading it raises
            # UnboundLocalError, as the generator's read of an unset variable did
            test = ast.Compare(left=_frame_item(i), ops=[ast.IsNot()], comparators=[_const(UNSET)])
            return ast.copy_location(ast.IfExp(test=test, body=_frame_item(i), orelse=node), node)
        return ast.copy_location(_frame_item(i, type(node.ctx)()), node)

    def visit_NamedExpr(self, node: ast.NamedExpr) -> ast.AST:
        node.value = self.on(node.value)
        i = self.slots.get(node.target.id)
        if i is None:
            return node
        # fr.__setitem__(i, v) or fr[i]: stores, then gives the value (a walrus cannot store into a list)
        put = ast.Call(func=ast.Attribute(value=_name(FR), attr="__setitem__", ctx=ast.Load()),
                       args=[_const(i), node.value], keywords=[])
        return ast.copy_location(ast.BoolOp(op=ast.Or(), values=[put, _frame_item(i)]), node)

    def _comp(self, node: Any) -> ast.AST:
        names: set[str] = set()
        for g in node.generators:
            for n in ast.walk(g.target):
                if isinstance(n, ast.Name):
                    names.add(n.id)
        node.generators[0].iter = self.on(node.generators[0].iter)
        self.inner.append(names)
        for i, g in enumerate(node.generators):
            if i:
                g.iter = self.on(g.iter)
            g.ifs = [self.on(c) for c in g.ifs]
        for f in ("elt", "key", "value"):
            if hasattr(node, f):
                setattr(node, f, self.on(getattr(node, f)))
        self.inner.pop()
        return node

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _comp

    def visit_Lambda(self, node: ast.Lambda) -> ast.AST:
        a = node.args
        names = {x.arg for x in a.posonlyargs + a.args + a.kwonlyargs}
        names |= {x.arg for x in (a.vararg, a.kwarg) if x is not None}
        self.inner.append(names)
        node.body = self.on(node.body)
        self.inner.pop()
        return node

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> ast.AST:
        if node.name and node.name in self.slots:
            raise NotLowerable("an `except ... as` name that lives across a decision")
        return self.generic_visit(node)


# ---- variables read before they are set ---------------------------------------------------------
UNSET = ...  # a frame slot of a variable not set yet (None is a value the rules may hold)


def _own(name: str) -> bool:
    """A name of the generated code's own, not one this pass introduced."""
    return not name.startswith(_P)


def _load_set(name: str, slot: int) -> ast.stmt:
    """`if fr[slot] is not UNSET: name = fr[slot]`: a variable that may not be set yet stays
    unbound, so that reading it raises UnboundLocalError where the generator's read did."""
    test = ast.Compare(left=_frame_item(slot), ops=[ast.IsNot()], comparators=[_const(UNSET)])
    return ast.If(test=test, body=[_assign(name, _frame_item(slot))], orelse=[])


def _resume_of(s: ast.stmt) -> int | None:
    """The block a `fr[1] = N` statement (where to resume after a decision) names, else None."""
    if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.value, ast.Constant):
        t = s.targets[0]
        if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id == FR \
                and isinstance(t.slice, ast.Constant) and t.slice.value == 1:
            return s.value.value
    return None


def _targets_in(s: ast.stmt, out: list[int]) -> list[int]:
    """The blocks statement `s` may go to next: its `pc = N` jumps and `fr[1] = N` resume points,
    nested ones included."""
    target = _jump_of(s) if isinstance(s, ast.Assign) else None
    if target is None and isinstance(s, ast.Assign):
        target = _resume_of(s)
    if target is not None:
        out.append(target)
    for body in _bodies(s):
        for x in body:
            _targets_in(x, out)
    return out


def _maybe_unset(flat: "_Flattener", uses: dict[int, "_Uses"], params: set[str], slots: set[str]) -> dict[int, set[str]]:
    """Per block, the variables (frame slots) it reads before setting them that some way from the
    function's start reaches it without setting: there the generator raised UnboundLocalError
    (a rule variable set on some paths only: "`x` has no value here"), which a slot holding a
    value would not. A forward must-analysis over the blocks: a variable is surely set at a
    block's start when every jump, resume point or handler that leads there comes after it was
    set (a jump from inside a statement counts what was set before that statement; a handler
    what was set before the block began)."""
    names = {n for u in uses.values() for n in u.early if n in slots and n not in params and _own(n)}
    if not names:
        return {}
    edges: list[tuple[int, int, frozenset[str] | None]] = []  # (from, to, set in the block before it)
    for label, stmts in flat.blocks.items():
        u = _Uses()
        for st in stmts:
            before = frozenset(u.defined & names)
            edges += [(label, t, before) for t in _targets_in(st, [])]
            u.on(st)
        h = flat.handler_of.get(label)
        if h is not None:
            edges.append((label, h, frozenset()))
    entry = min(flat.blocks)
    everything = frozenset(names)
    surely = {label: everything for label in flat.blocks}
    surely[entry] = frozenset()
    changed = True
    while changed:
        changed = False
        incoming: dict[int, frozenset[str]] = {}
        for a, b, before in edges:
            if b not in surely or b == entry:
                continue
            got = surely[a] | before
            incoming[b] = incoming[b] & got if b in incoming else got
        for label, got in incoming.items():
            if got != surely[label]:
                surely[label], changed = got, True
    out = {}
    for label, u in uses.items():
        maybe = (u.early & names) - surely[label]
        if maybe:
            out[label] = maybe
    return out


# ---- the whole function ------------------------------------------------------------------------
def lower_function(fn: ast.FunctionDef, step_name: str | None = None,
                   in_place: bool = False) -> tuple[ast.FunctionDef, ast.FunctionDef]:
    """(step function, factory) for the generator function `fn` (its AST, left unchanged unless
    `in_place`: a caller that drops `fn` afterwards saves copying it)."""
    a = fn.args
    if a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs or a.defaults:
        raise NotLowerable("a generator with other than plain positional parameters")
    if fn.decorator_list:
        raise NotLowerable("a decorated generator")
    counter = [0]

    def fresh(kind: str) -> str:
        counter[0] += 1
        return f"{_P}{kind}{counter[0]}"

    memo = _YieldMemo()
    body = _Exploder(fresh, memo).stmts(fn.body if in_place else copy.deepcopy(fn.body))
    flat = _Flattener(fresh, memo)
    flat.start(flat.label())
    flat.body(body)
    if flat.cur is not None:
        flat.end_block([ast.Return(value=_name(_P + "DONE"))])
    _simplify(flat)
    # locals that live across blocks: the parameters, anything mentioned in two blocks or read
    # in its block before that block surely set it
    params = [x.arg for x in a.args]
    uses = {label: _Uses().run(stmts) for label, stmts in flat.blocks.items()}
    seen: dict[str, int] = {}
    live: set[str] = set(params)
    for u in uses.values():
        for n in u.mentioned:
            seen[n] = seen.get(n, 0) + 1
        live |= u.early
    stored_anywhere = set().union(*(u.stored for u in uses.values())) | set(params)
    live |= {n for n, k in seen.items() if k > 1}
    live = {n for n in live if n in stored_anywhere and n not in (FR, PC, SENT, _P + "r")}
    order = params + sorted(live - set(params))
    slots = {n: FIRST_SLOT + i for i, n in enumerate(order)}
    unset = _maybe_unset(flat, uses, set(params), set(slots))
    # each block, its live names turned into frame items
    for label, stmts in flat.blocks.items():
        u = uses[label]
        maybe = unset.get(label, set())
        cached = {n for n in u.read if n in slots and n not in u.stored}
        new = [_ToSlots(slots, cached, maybe & u.stored).on(s) for s in stmts]
        at = stmts[0] if stmts else fn
        load = [ast.copy_location(_load_set(n, slots[n]) if n in maybe else _assign(n, _frame_item(slots[n])), at)
                for n in sorted(cached)]
        flat.blocks[label] = load + new
    _label_calls(flat, slots)
    labels = sorted(flat.blocks)

    def tree(lo: int, hi: int) -> list[ast.stmt]:
        if hi - lo == 1:
            return flat.blocks[labels[lo]]
        mid = (lo + hi) // 2
        test = ast.Compare(left=_name(PC), ops=[ast.Lt()], comparators=[_const(labels[mid])])
        return [ast.If(test=test, body=tree(lo, mid), orelse=tree(mid, hi))]

    dispatch: list[ast.stmt] = tree(0, len(labels))
    handled = {lab: h for lab, h in flat.handler_of.items() if h is not None}
    if handled:
        table = ast.Dict(keys=[_const(k) for k in handled], values=[_const(v) for v in handled.values()])
        h = _P + "h"
        catch = [
            _assign(h, ast.Call(func=ast.Attribute(value=table, attr="get", ctx=ast.Load()),
                                args=[_name(PC)], keywords=[])),
            ast.If(test=ast.Compare(left=_name(h), ops=[ast.Is()], comparators=[_const(None)]),
                   body=[ast.Raise(exc=None, cause=None)], orelse=[]),
            ast.Assign(targets=[_frame_item(EXC_SLOT, ast.Store())], value=_name(EXC)),
            _assign(PC, _name(h)),
        ]
        dispatch = [ast.Try(body=dispatch, handlers=[ast.ExceptHandler(type=_name("BaseException"), name=EXC,
                                                                        body=catch)],
                            orelse=[], finalbody=[])]
    step_name = step_name or fn.name + STEP_SUFFIX
    # a variable some block may read unset must be a local of the step function, so that reading
    # it unset raises UnboundLocalError as the generator did (see `_maybe_unset`)
    declare = [ast.If(test=_const(False), body=[_assign(n, _const(None)) for n in sorted(set().union(*unset.values()))],
                      orelse=[])] if unset else []
    step_body = declare + [_assign(PC, _frame_item(1)), ast.While(test=_const(True), body=dispatch, orelse=[])]
    step = ast.FunctionDef(name=step_name, args=ast.arguments(
        posonlyargs=[], args=[ast.arg(arg=FR), ast.arg(arg=SENT)], vararg=None, kwonlyargs=[], kw_defaults=[],
        kwarg=None, defaults=[]), body=step_body, decorator_list=[], returns=None, type_comment=None)
    ast.copy_location(step, fn)
    frame = ast.List(elts=[_name(step_name), _const(0), _const(None)] + [_name(p) for p in params] +
                     [_const(UNSET if _own(n) else None) for n in order[len(params):]], ctx=ast.Load())
    fargs = copy.deepcopy(fn.args)
    for x in fargs.args:
        x.annotation = None
    factory = ast.FunctionDef(name=fn.name, args=fargs, body=[ast.Return(value=frame)],
                              decorator_list=[], returns=None, type_comment=None)
    ast.copy_location(factory, fn)
    _fill_locations(step, fn)
    _fill_locations(factory, fn)
    step._q_meta = (dict(flat.lines), {lab: slots[c] for lab, c in flat.child.items() if c in slots})  # type: ignore[attr-defined]
    return step, factory


CALL_SHIFT = 20  # a frame suspended in a call: its pc is -(slot << CALL_SHIFT | block + 1)


def call_slot(pc: int) -> int | None:
    """The slot holding the frame that a frame whose program counter is `pc` is suspended in (it
    suspended in a call: `yield from`), else None (it suspended itself, or has not started)."""
    return -pc >> CALL_SHIFT if pc < 0 else None


def _label_calls(flat: "_Flattener", slots: dict[str, int]) -> None:
    """Number each block that resumes a call (`yield from`) by the slot of the called frame: the
    driver of a game (resumablegame.py) resumes the innermost frame directly, and finds below a
    frame that has just suspended the frame it called by its program counter alone, the frame's
    own field (`call_slot`), with no table to look up per answer. The other blocks keep their
    numbers (from 0, the entry); the dispatch and the tables are made from the new ones."""
    new: dict[int, int] = {}
    for label, var in flat.child.items():
        if var not in slots:
            raise NotLowerable("a called generator's frame not kept across the call")
        if label >= 1 << CALL_SHIFT:
            raise NotLowerable("a generator too long to number its blocks")
        new[label] = -(slots[var] << CALL_SHIFT | (label + 1))
    if not new:
        return

    def walk(stmts: list[ast.stmt]) -> None:
        for st in stmts:
            if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.value, ast.Constant):
                t = st.targets[0]
                if ((isinstance(t, ast.Name) and t.id == PC) or (isinstance(t, ast.Subscript) and isinstance(
                        t.value, ast.Name) and t.value.id == FR and isinstance(t.slice, ast.Constant)
                        and t.slice.value == 1)) and st.value.value in new:
                    st.value = ast.copy_location(_const(new[st.value.value]), st.value)
            else:
                for body in _bodies(st):
                    walk(body)

    for stmts in flat.blocks.values():
        walk(stmts)
    flat.blocks = {new.get(k, k): v for k, v in flat.blocks.items()}
    flat.handler_of = {new.get(k, k): (None if h is None else new.get(h, h)) for k, h in flat.handler_of.items()}
    flat.lines = {new.get(k, k): v for k, v in flat.lines.items()}
    flat.child = {new[k]: v for k, v in flat.child.items()}


def _jump_of(s: ast.stmt) -> int | None:
    """The block a `pc = N` statement jumps to, else None."""
    if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name) \
            and s.targets[0].id == PC and isinstance(s.value, ast.Constant):
        return s.value.value
    return None


def _tail_jump(stmts: list[ast.stmt]) -> int | None:
    if len(stmts) >= 2 and isinstance(stmts[-1], ast.Continue):
        return _jump_of(stmts[-2])
    return None


def _jump_nodes(stmts: list[ast.stmt], out: list[ast.Assign]) -> list[ast.Assign]:
    """The `pc = N` statements in `stmts`, nested ones included (they are statements, so only
    statement lists are walked)."""
    for s in stmts:
        if isinstance(s, ast.Assign):
            if _jump_of(s) is not None:
                out.append(s)
        else:
            for body in _bodies(s):
                _jump_nodes(body, out)
    return out


def _simplify(flat: _Flattener) -> None:
    """Fewer trips through the dispatch: a jump to a block that only jumps goes straight on, and
    a block reached by one jump only (not a resume point, handler or the entry) is appended to
    the block that jumps to it.

    The merges are made one at a time, each time the first mergeable block in block order, and
    each round first drops the blocks nothing jumps to any more (as counted at the round's
    start), as a plain loop over the blocks would; the jump counts, the blocks that may have
    become mergeable and the jumps in each block are kept up to date instead of being counted
    again, which made this quadratic in the size of a function."""
    fixed = set(flat.lines) | {h for h in flat.handler_of.values() if h is not None} | {0}
    blocks = flat.blocks
    trivial = {lab: _tail_jump(st) for lab, st in blocks.items() if len(st) == 2 and _tail_jump(st) is not None}

    def resolve(lab: int) -> int:
        seen = set()
        while lab in trivial and lab not in seen:
            seen.add(lab)
            lab = trivial[lab]
        return lab

    jumps = {lab: _jump_nodes(stmts, []) for lab, stmts in blocks.items()}
    refs: dict[int, int] = {}
    for nodes in jumps.values():
        for n in nodes:
            if n.value.value in trivial:
                n.value = _const(resolve(n.value.value))
            refs[n.value.value] = refs.get(n.value.value, 0) + 1
    position = {lab: i for i, lab in enumerate(blocks)}
    tail_of = {lab: _tail_jump(st) for lab, st in blocks.items()}
    jumped_by: dict[int, set[int]] = {}  # block → the blocks whose tail jumps to it
    for lab, t in tail_of.items():
        if t is not None:
            jumped_by.setdefault(t, set()).add(lab)

    def mergeable(lab: int) -> bool:
        t = tail_of[lab]
        return not (t is None or t == lab or t in fixed or refs.get(t) != 1 or t not in blocks
                    or flat.handler_of.get(t) != flat.handler_of.get(lab))

    queue = [(position[lab], lab) for lab in blocks]  # blocks that may be mergeable, in order
    heapq.heapify(queue)
    unreachable = [x for x in blocks if x not in fixed and not refs.get(x)]
    dropped: list[int] = []
    while True:
        for x in dropped:  # the counts at this round's start no longer include the dropped blocks
            for n in jumps.pop(x):
                t = n.value.value
                refs[t] -= 1
                if refs[t] == 0 and t in blocks and t not in fixed:
                    unreachable.append(t)
                for lab in jumped_by.get(t, ()):
                    heapq.heappush(queue, (position[lab], lab))
        dropped = [x for x in dict.fromkeys(unreachable) if x in blocks]
        unreachable = []
        for x in dropped:
            del blocks[x]  # unreachable now
        while queue:
            _, lab = heapq.heappop(queue)
            if lab in blocks and mergeable(lab):
                break
        else:
            return
        t = tail_of[lab]
        stmts = blocks[lab]
        tail = stmts[-2]
        del stmts[-2:]
        stmts.extend(blocks.pop(t))
        jumps[lab] = [n for n in jumps[lab] if n is not tail] + jumps.pop(t)
        refs[t] -= 1
        jumped_by[t].discard(lab)
        was = tail_of.pop(t)
        if was is not None:
            jumped_by[was].discard(t)
        nxt = tail_of[lab] = _tail_jump(stmts)
        if nxt is not None:
            jumped_by.setdefault(nxt, set()).add(lab)
        heapq.heappush(queue, (position[lab], lab))


def _fill_locations(node: ast.AST, default: ast.AST) -> None:
    """Line numbers for the nodes this pass made: their parent's (so errors name the rule).
    Walked with a stack in the order of the recursive walk it replaces (deep trees, and faster;
    a node reached twice keeps what it was given first), reading each node's attributes and
    fields from its `__dict__`, which holds all that it was given: each function a game first
    calls is lowered then, within its first decisions' time."""
    stack = [(node, default.lineno, default.col_offset)]
    pop, push = stack.pop, stack.append
    walks, AST = _WALKS, ast.AST
    while stack:
        n, line, col = pop()
        t = type(n)
        walk = walks.get(t)
        if walk is None:
            located, fields = _shape(t)
            walk = walks[t] = (located, fields[::-1])
        d = n.__dict__
        if walk[0]:
            ln = d.get("lineno")
            if ln is None or ln == 0:
                n.lineno = line
                n.col_offset = col
            else:
                line = ln
                col = d["col_offset"]
            end = d.get("end_lineno")
            if end is None or end < line:
                n.end_lineno = line
                n.end_col_offset = col
        for f in walk[1]:  # the children pushed last first, so taken in order
            v = d.get(f)
            if type(v) is list:
                for c in reversed(v):
                    if isinstance(c, AST):
                        push((c, line, col))
            elif isinstance(v, AST):
                push((v, line, col))


_WALKS: dict[type, tuple[bool, tuple[str, ...]]] = {}  # (located, fields last first), by node class
_SHAPES: dict[type, tuple[bool, tuple[str, ...]]] = {}


def _shape(t: type) -> tuple[bool, tuple[str, ...]]:
    """(whether nodes of class `t` carry line numbers, its fields)."""
    got = _SHAPES.get(t)
    if got is None:
        got = _SHAPES[t] = ("lineno" in t._attributes, tuple(t._fields))
    return got


def _kids(n: ast.AST, fields: tuple[str, ...]) -> list[ast.AST]:
    """`ast.iter_child_nodes(n)` as a list, without its generators."""
    out: list[ast.AST] = []
    for f in fields:
        v = getattr(n, f, None)
        if isinstance(v, list):
            out += [x for x in v if isinstance(x, ast.AST)]
        elif isinstance(v, ast.AST):
            out.append(v)
    return out


def lower_generators(body: list[ast.stmt], in_place: bool = False) -> tuple[list[ast.stmt], list[str], dict]:
    """Every generator function directly in `body` replaced by its step function and factory
    (`in_place`: the generators' trees are used up, not copied).
    Returns (the new body, the step functions' names in order, their suspension tables)."""
    out: list[ast.stmt] = []
    steps: list[str] = []
    meta: dict[str, tuple] = {}
    for s in body:
        if isinstance(s, ast.FunctionDef) and has_yield(s):
            step, factory = lower_function(s, in_place=in_place)
            out += [step, factory]
            steps.append(step.name)
            meta[step.name] = step._q_meta  # type: ignore[attr-defined]
        else:
            out.append(s)
    return out, steps, meta


# ---- copying frames ----------------------------------------------------------------------------
_ATOMIC = frozenset({int, str, bool, float, type(None), type(...), bytes, Seat, Position})  # never changed in place
# (`...`: a frame slot not set yet, resumable.UNSET)


def copy_value(v: Any, memo: dict) -> Any:
    """A copy of a frame or of a value held in one: lists, dicts, sets and tuples are copied (one
    copy per object, so what two frames share stays shared); what `memo` maps (this game's state
    and functions) is replaced; anything else (the program's tables, numbers, seats) is shared."""
    t = type(v)
    if t in _ATOMIC:
        return v
    got = memo.get(id(v))
    if got is not None:
        return got
    if t is list:
        new: Any = []
        memo[id(v)] = new
        new.extend([x if type(x) in _ATOMIC else copy_value(x, memo) for x in v])
        return new
    if t is tuple:
        new = tuple([x if type(x) in _ATOMIC else copy_value(x, memo) for x in v])
    elif t is dict:
        if set(map(type, v.values())) <= _ATOMIC:  # (stats, faces: nothing inside to copy, one copy in C)
            new = memo[id(v)] = v.copy()
            return new
        new = {}
        memo[id(v)] = new
        for k, x in v.items():
            new[k] = x if type(x) in _ATOMIC else copy_value(x, memo)
        return new
    elif t is set:
        new = set(v)
    elif t is MethodType or t is BuiltinMethodType:  # a method of a copied object: the copy's
        owner = getattr(v, "__self__", None)
        if owner is None or type(owner) in _ATOMIC:
            return v
        return getattr(copy_value(owner, memo), v.__name__)
    else:
        return v
    memo[id(v)] = new
    return new


class _Cyclic(Exception):
    """A list reached again from inside itself: `CopyPlan` leaves such frames to `copy_value`."""


class CopyPlan:
    """`copy_value` of one game's frames (and of what else the copy maps with them), worked out
    once and replayed for each copy of that game into one recycled copy (engine/recycle.py).

    A search copies the same game at the same decision again and again (`mcts`: once per
    playout), and `copy_value` finds out at each copy, object by object, which values are
    atomic, which the memo maps (the state's containers, the functions) and which are
    containers to copy. The plan notes that once: the containers in the order they can be made
    (those a container holds before it), each with the places in it to fill from the memo
    (`ops`); a copy is then a slice, a `dict.copy` or a `set` per container and one memo lookup
    per place. The memo's keys are the ids of the copied game's own objects, so they are the same
    for every copy of it while it is not played on; the plan is made again once its game asks
    another decision (`fits`). Lists that hold themselves (never seen in frames) are left to
    `copy_value` (`ops` None)."""

    __slots__ = ("src", "dst", "decision", "ops", "roots")

    def __init__(self) -> None:
        self.src = self.dst = self.decision = None
        self.ops: list | None = None
        self.roots: list = []

    def fits(self, src: Any, dst: Any, decision: Any) -> bool:
        """Whether this plan was made for copies of `src` (at its pending `decision`) into `dst`."""
        return self.src is src and self.dst is dst and self.decision is decision

    def make(self, src: Any, dst: Any, decision: Any, roots: list, memo: dict) -> None:
        """Work out the copy of `roots` (values of `src`'s frames) with `memo` as a copy's memo
        holds it before its frames are copied."""
        self.src, self.dst, self.decision = src, dst, decision
        ops: list = []
        busy: dict[int, bool] = {}  # id → True while its contents are walked, False once made
        atomic = _ATOMIC

        def walk(v: Any) -> Any:
            t = type(v)
            if t in _ATOMIC:
                return None
            k = id(v)
            if k in memo:
                return k
            if t is list or t is dict or t is tuple or t is set:
                state = busy.get(k)
                if state is not None:
                    if state:
                        raise _Cyclic
                    return k
                busy[k] = True
                places, methods = [], []
                if t is not set:  # (a set's members are hashable values: shared, as copy_value does)
                    for i, x in (v.items() if t is dict else enumerate(v)):
                        if type(x) in atomic:
                            continue
                        got = id(x)
                        if got not in memo:
                            got = walk(x)
                            if got is None:
                                continue
                        if type(got) is tuple:
                            methods.append((i, *got))
                        else:
                            places.append((i, got))
                busy[k] = False
                ops.append((v, k, _KINDS[t], tuple(places), tuple(methods)))
                return k
            if t is MethodType or t is BuiltinMethodType:
                owner = getattr(v, "__self__", None)
                if owner is None or type(owner) in _ATOMIC:
                    return None
                got = walk(owner)
                return None if got is None or type(got) is tuple else (got, v.__name__)
            return None

        try:
            self.roots = [(r, walk(r)) for r in roots]
        except _Cyclic:
            self.ops = None
            return
        self.ops = ops

    def copy(self, memo: dict) -> list:
        """The copies of the roots (in `make`'s order), each container made anew and noted in
        `memo` (a KeyError: the memo lacks what the plan expects; the caller copies otherwise)."""
        for v, k, kind, places, methods in self.ops:  # type: ignore[union-attr]
            o = v[:] if kind == 0 else v.copy() if kind == 1 else list(v) if kind == 2 else set(v)
            for i, key in places:
                o[i] = memo[key]
            for i, key, name in methods:
                o[i] = getattr(memo[key], name)
            memo[k] = tuple(o) if kind == 2 else o
        return [r if k is None else memo[k] if type(k) is int else getattr(memo[k[0]], k[1]) for r, k in self.roots]


_KINDS = {list: 0, dict: 1, tuple: 2, set: 3}
