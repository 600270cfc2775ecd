"""Which part of a failed rule held which value: "cannot add none and a number in `position(w) + 1`:
`position(w)` is none because `w` is none".

Why after the fact: a rule fails rarely, and the game stops when it does, so nothing is spent on the
way. The failing statement is found by its location; its own expressions (not those of the blocks
inside it) are evaluated again (each by the game's engine: `expression_value`, directeval.py for
direct code), innermost first, with the rule's variables, to find the innermost
one that fails and the values of its parts. Expressions may draw from the game's random source; the
game has ended, so drawing again changes nothing that is played.
"""
from __future__ import annotations

from typing import Any

from ..language.tree import Expr, Node, Stmt, walk
from ..runtime.errors import RuleError, explain, value_words

__all__ = ["blame", "rule_terms", "source_of"]

_SHOWN = 60  # characters of an expression shown in a message
_MISSING = object()


def source_of(n: Node) -> str:
    """An expression as a rule author would write it (the common forms; others in plain English)."""
    k = n.kind
    if k == "name":
        return n.id
    if k == "lit":
        return f'"{n.value}"' if isinstance(n.value, str) else str(n.value).lower() if isinstance(n.value, bool) \
            else str(n.value)
    if k == "call":
        return f"{n.func}({', '.join(source_of(a) for a in n.args)})"
    if k == "attr":
        return f"{source_of(n.obj)}.{n.name}"
    if k == "index":
        return f"{source_of(n.obj)}[{source_of(n.key)}]"
    if k == "of":
        return f"your {n.name}" if n.owner.kind == "name" and n.owner.id == "you" else f"{n.name} of {source_of(n.owner)}"
    if k in ("arith", "compare"):
        return f"{source_of(n.left)} {n.op} {source_of(n.right)}"
    if k == "neg":
        return f"-{source_of(n.expr)}"
    if k == "list":
        return f"[{', '.join(source_of(i) for i in n.items)}]"
    return n.describe()


def _quoted(n: Node) -> str:
    text = source_of(n)
    return f"`{text}`" if len(text) <= _SHOWN else f"`{text[:_SHOWN]}…`"


def _statement_at(rs: Any, loc: Any) -> Node | None:
    """The statement (or declaration, or expression) written at this spot of the rules or a card."""
    roots = list(rs.content.modules) + [c.effect for c in rs.cards if getattr(c, "effect", None) is not None]
    best = None
    for root in roots:
        if root.loc is None or root.loc.file != loc.file and root.kind != "effect":
            continue
        for n in walk(root):
            if n.loc is not None and (n.loc.file, n.loc.line, n.loc.col) == (loc.file, loc.line, loc.col):
                if best is None or isinstance(n, Stmt) and not isinstance(best, Stmt):
                    best = n
        if best is not None:
            return best
    return best


def _own_expressions(node: Node) -> list[Node]:
    """The expressions of a statement, innermost first, leaving out the statements nested in it."""
    out: list[Node] = []

    def gather(n: Node) -> None:
        for child in n.children():
            if isinstance(child, Stmt):
                continue
            gather(child)
            if isinstance(child, Expr):
                out.append(child)
    if isinstance(node, Expr):
        gather(node)
        out.append(node)
    else:
        gather(node)
    return out


def blame(game: Any, err: RuleError, env: dict | None, kinds: dict | None = None) -> str | None:
    """The error's message with the failing part of the rule and the values involved, or None when
    they cannot be told (the message stays as it is). `kinds`: the kind of value each variable
    holds where the game knows it (a none `card` variable reads its fields as none)."""
    if err.cause is None or err.loc is None:
        return None
    node = _statement_at(game.rs, err.loc)
    if node is None:
        return None
    env = dict(env or {})
    values: dict[int, Any] = {}
    failing = None
    for e in _own_expressions(node):
        if any(isinstance(c, Expr) and id(c) not in values for c in e.children()):
            continue  # a part of it failed already: the innermost failure is the one to tell
        try:
            values[id(e)] = game.expression_value(e, env, tell=False, kinds=kinds)
        except Exception as ex:  # noqa: BLE001 - any failure is the one being explained
            if failing is None:
                failing = (e, ex)
    if failing is None:
        return None
    e, ex = failing
    if type(ex) is not type(err.cause) or e.kind == "name":
        return None  # not the failure being explained (or a variable not at hand): say no more
    parts = [f"{explain(ex)} in {_quoted(e)}"]
    told = []
    for child in e.children():
        if not isinstance(child, Expr) or child.kind == "lit" or id(child) not in values:
            continue
        v = values[id(child)]
        if v is None:
            chain = _none_chain(child, values)
            told.append(f"{_quoted(child)} is none" + (f" because {_quoted(chain)} is none" if chain is not child else ""))
        else:
            told.append(f"{_quoted(child)} is {value_words(v)}")
    return parts[0] + (": " + ", ".join(told) if told else "")


def _none_chain(n: Node, values: dict[int, Any]) -> Node:
    """The innermost part of `n` that is none too: the cause of `n` being none."""
    while True:
        inner = next((c for c in n.children() if isinstance(c, Expr) and id(c) in values and values[id(c)] is None),
                     None)
        if inner is None:
            return n
        n = inner


def rule_terms(game: Any, err: RuleError, env: dict | None, kinds: dict | None = None) -> RuleError:
    """The error, its message told in rule terms when the failing part can be found (else as it was)."""
    try:
        text = blame(game, err, env, kinds)
    except Exception:  # noqa: BLE001 - explaining must never hide the error being explained
        text = None
    if not text:
        return err
    told = type(err)(text, err.loc)
    told.cause, told.env = err.cause, err.env
    return told
