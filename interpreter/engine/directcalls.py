"""Procedure calls in direct code: a call of a generated generator function (`yield from`).

Why: writing a procedure's body out at every call site (`_Gen.inline_call`) made the generated
module grow with every call of every procedure that calls others (5,659 bodies written out in
the largest mod stack, a 4 MB module): generating it, Python's `compile()`, the observed form's
parse and the copyable form's lowering all grow with the module. A call now runs one function
written for the procedure, once per *signature*: the kinds of `you`, `this` and the arguments
(a zone argument by the zone's name: the function reads the zone itself, and is given its
owner when the zone is per player), and how the caller settles (never during setup, never
inside a state-based rule's body, else as any procedure does). Each function is the body that
`inline_call` would have written for that signature, so a call means what it meant: arguments
evaluated first, in order (as the call's arguments), the body sees only them, `you` and
`this`, counts one level against the depth limit, settles at its end, and its lines carry the
rule's locations. A body that is tiny and called once is still written out in place
(`inlined`): a generator call costs more than such a body.

The functions are written after the one being written (`write_procedures`, from `_Gen.module`),
as recursive procedures are; the copyable form lowers them like any other generator.
"""
from __future__ import annotations

from typing import Any

from ..language.tree import Node, walk
from .directexpr import V
from .directforms import ZoneArg

__all__ = ["ProcCalls", "INLINE_NODES"]

INLINE_NODES = 12  # a body of at most this many syntax nodes, called from one place, is written out there


class ProcCalls:
    """Mixed into `direct._Gen` (which provides `emit`, `function`, `zone`, `zones_used`, `procs`,
    `rs`, `arg_kinds`, `procs_written`, `check_mode`, `in_settle`, `changed`)."""

    def inlined(self, name: str) -> bool:
        """Whether a call of procedure `name` writes its body out in place: only a tiny body
        called from one place in the rules (measured: docs/performance.md)."""
        got = self.__dict__.get("_inline_procs")
        if got is None:
            counts = call_counts(self.rs)
            got = self.__dict__["_inline_procs"] = {
                p for p, pr in self.rs.procedures.items()
                if counts.get(p, 0) <= 1 and sum(1 for s in pr.body for _ in walk(s)) <= INLINE_NODES}
        return name in got

    def proc_call(self, name: str, args: list[V], d: int, scope: dict, n: Node) -> None:
        """`yield from F(you, this, args...)`, F the function of this call's signature (queued to
        be written by `write_calls` if it is new)."""
        ctx = [(k, scope[k]) for k in ("you", "this") if k in scope]
        # setup settles nothing; a state-based rule's body settles nothing inside; elsewhere the
        # turn's shorter test (never while settling) and the full one mean the same
        mode = "none" if self.check_mode == "none" else "settle" if self.in_settle else "full"
        sig_args, srcs = [], [e[0] for _, e in ctx]
        for a in args:
            if a.kind == "zone":
                owned = self.rs.zones[a.zone].per_player
                sig_args.append(("zone", a.zone, owned))
                if owned:
                    local = self.zones_used[a.zone]
                    srcs.append(a.key[len(local) + 2:-1])  # the owner (`_z3k[OWNER]`, `_Gen.zone`)
            else:
                sig_args.append(a.kind)
                srcs.append(a.src)
        sig = (name, tuple((k, e[1]) for k, e in ctx), tuple(sig_args), mode)
        sigs: dict = self.__dict__.setdefault("call_sigs", {})
        fname = sigs.get(sig)
        if fname is None:
            fname = sigs[sig] = f"{self.procs[name]}c{len(sigs)}"
            self.__dict__.setdefault("calls_pending", []).append((fname, sig))
        self.emit(d, f"yield from {fname}({', '.join(srcs)})", n.loc)
        self.changed = True

    def write_procedures(self, done: set[str]) -> None:
        """Write the functions of the procedures called so far, and of those their bodies call:
        a recursive one's (`_p<i>`, its arguments' kinds fixed by its first call, `done` once
        written) and one per signature of the others."""
        rs = self.rs
        while True:
            ready = [n for n in rs.procedures if n in self.arg_kinds and n not in done]
            if not ready and not self.write_calls():
                break
            for name in ready:
                pr = rs.procedures[name]
                params = [("you", "player"), ("this", "card")] + list(zip(pr.params, self.arg_kinds[name]))
                self.function(self.procs[name], params, pr.body, pr.loc, call=True)
                done.add(name)
                self.procs_written.add(name)

    def write_calls(self) -> bool:
        """Write the functions of the signatures called so far (their bodies may call more);
        whether any was written."""
        pending: list = self.__dict__.get("calls_pending", [])
        wrote = bool(pending)
        while pending:
            fname, (name, ctx, sig_args, mode) = pending.pop(0)
            pr = self.rs.procedures[name]
            params: list[tuple[str, str]] = list(ctx)
            zones: dict[str, Any] = {}
            for param, kind in zip(pr.params, sig_args):
                if isinstance(kind, tuple):  # a zone: the zone itself, read through its owner if any
                    _, zone, owned = kind
                    owner = None
                    if owned:
                        owner = f"_a{len(params)}"
                        params.append((f"{param} owner", "player"))  # not a name a rule can write
                    zones[param] = ZoneArg(self.zone(zone, owner))
                else:
                    params.append((param, kind))
            saved, start = self.in_settle, len(self.lines)
            self.in_settle = mode == "settle"
            try:
                self.function(fname, params, pr.body, pr.loc, call=True, zones=zones,
                              check_mode="none" if mode == "none" else None)
            finally:
                self.in_settle = saved
            # nesting too deep is the call's fault, as when the body was written out: the lines
            # entering it name no rule, so the error names the caller's `yield from` line
            self.line_loc[start + 1:start + 4] = [None] * 3
        return wrote


def call_counts(rs: Any) -> dict[str, int]:
    """How many procedure call statements in the rules and cards name each procedure."""
    roots: list = [ph.body for ph in rs.phases.values()] + [pr.body for pr in rs.procedures.values()]
    roots += [t.body for t in rs.triggers] + [a.body for a in rs.always] + [w.body for w in rs.watchers]
    for card in rs.cards:
        if card.effect is not None:
            roots += [getattr(t, "body", None) or [] for t in card.effect.triggers]
    roots += [getattr(a, "body", None) or [] for a in getattr(rs, "actions", None) or ()]
    out: dict[str, int] = {}
    for body in roots:
        for s in body:
            for m in walk(s):
                if m.kind == "call_stmt" and m.expr.kind == "call":
                    out[m.expr.func] = out.get(m.expr.func, 0) + 1
    return out
