"""Recursive rule functions in direct code (`function fact(n) = 1 if n <= 1 else n * fact(n - 1)`).

Why: direct code writes a rule function's expression out where it is called (`RuleFunctions.
rule_call`), which cannot end when the function calls itself. A call that would nest a function
inside itself is written instead as a call to a plain function of the generated module, one per
function and kinds of its arguments (`you`, `this` and the parameters), whose body is the
function's expression written once. It charges what `codegen.call_rule_function` charges: one
unit of work per call and one level of depth per function nesting, so endless recursion stops with
the same clear error and `f(k - 1) + f(k - 1)` stops at the work limit.

The result of a call inside the body is taken as `any` while the body is written: the body's kind
is then sound whatever the call gives, and it is the function's kind.
"""
from __future__ import annotations

from typing import Any

from ..language.tree import Node
from .directexpr import V, Unsupported, _Bound

__all__ = ["RecursiveFunctions"]


class RecursiveFunctions:
    """Mixed into `direct._Gen`; `rule_call` hands over a call of a function being written."""

    fn_real: frozenset = frozenset()  # functions whose body is being written as a plain function

    def recursive_call(self, n: Node, scope: dict) -> V:
        fd = self.rs.functions[n.func]
        if len(n.args) != len(fd.params):
            raise Unsupported("argument count")
        args = [self.expr(a, scope) for a in n.args]
        if any(a.kind == "zone" for a in args):
            raise Unsupported("a recursive rule function given a zone")
        ctx = [(k, scope[k]) for k in ("you", "this") if k in scope]
        ctx_v = [(k, e.v if isinstance(e, _Bound) else V(e[0], e[1])) for k, e in ctx]
        sig = (n.func, tuple((k, v.kind) for k, v in ctx_v), tuple((a.kind, a.live) for a in args))
        sigs: dict = self.__dict__.setdefault("rec_sigs", {})
        got = sigs.get(sig)
        if got is None:
            got = self._write_recursive(sig, fd, ctx_v, args)
        name, result = got
        depth = len(self.fn_stack) + 1  # the call's own level, and the functions written out around it
        srcs = [self.k(depth)] + [v.src for _, v in ctx_v] + [a.src for a in args]
        return result.copy(src=f"{name}({', '.join(srcs)})")

    def _write_recursive(self, sig: tuple, fd: Any, ctx_v: list, args: list[V]) -> tuple[str, V]:
        """The plain function for `sig`: registered first (its body calls it), then written."""
        sigs = self.rec_sigs
        name = self.temp("_rf")
        sigs[sig] = (name, V("None", "any"))  # a call inside the body: any value
        params = ["_a0"]
        inner: dict = {}
        for k, v in ctx_v:
            params.append(f"_a{len(params)}")
            inner[k] = (params[-1], v.kind)
        for p, a in zip(fd.params, args):
            params.append(f"_a{len(params)}")
            inner[p] = _Bound(V(params[-1], a.kind, live=a.live))
        saved = self.fn_stack, self.fn_real
        self.fn_stack, self.fn_real = (), self.fn_real | {fd.name}
        try:
            body = self.expr(fd.expr, inner)
        finally:
            self.fn_stack, self.fn_real = saved
        if body.kind == "zone":
            raise Unsupported("a recursive rule function giving a zone")
        loc = fd.loc
        lines = self.__dict__.setdefault("rec_lines", [])
        locs = self.__dict__.setdefault("rec_locs", [])
        for depth, text in ((1, f"def {name}({', '.join(params)}):"), (2, "R.depth += _a0"), (2, "R.work += 1"),
                            (2, "try:"), (3, "if R.work > R.max_work:"), (4, "R.runaway()"),
                            (3, "if R.depth > R.max_depth:"), (4, f"R.function_too_deep({self.k(loc)})"),
                            (3, f"return {body.src}"), (2, "finally:"), (3, "R.depth -= _a0")):
            lines.append("    " * depth + text)
            locs.append(loc)
        sigs[sig] = (name, body.copy(src="None", key=None))
        return sigs[sig]
