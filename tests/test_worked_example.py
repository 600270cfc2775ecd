"""docs/architecture.md's worked example stays true: an expression construct's checks are its own
class's (`check(ck, scope)`), the copy in the doc is the real class, and a new expression needs no
line in the checker."""
from __future__ import annotations

import inspect
import re
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from interpreter.analysis.checker import _Checker, check
from interpreter.api import check_path
from interpreter.engine.direct import _Gen
from interpreter.language.parser import _ToAst, parse_rules
from interpreter.language.tree import CONSTRUCTS, Checks, ConstDecl, Expr, Name, Neg, Node, Stmt
from rulekit import ruleset

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")


def test_the_docs_copy_is_the_class():
    example = DOC[DOC.index("### Worked example"):]
    code = re.search(r"```python\n(.*?)```", example, re.S).group(1)
    assert code == inspect.getsource(Neg)


def test_the_example_lives_in_its_class_alone():
    """Neither the parser nor the code generator has a line of its own for negation, and it still
    parses, checks and runs."""
    assert not hasattr(_ToAst, "neg") and not hasattr(_Gen, "e_neg")
    (const,) = parse_rules("constant c = -(2 + 3)\n", "x.rules").decls
    assert isinstance(const.value, Neg) and (const.value.loc.line, const.value.loc.col) == (1, 14)
    assert const.value.describe() == "minus 2 plus 3"


def test_the_checker_has_no_branch_per_expression():
    src = inspect.getsource(_Checker.expr)
    assert ".check(self, scope)" in src and "kind" not in src.split('"""')[-1]
    src = inspect.getsource(_Checker.kind)  # the static types too: each construct says its kind
    assert ".value_kind(self, scope)" in src and ".kind" not in src.split('"""')[-1]
    # the constructs that used to be branches there check themselves
    own = {c.kind for c in CONSTRUCTS if issubclass(c, Expr) and "check" in c.__dict__}
    assert {"name", "of", "attr", "call", "is", "compare", "arith", "neg", "and", "or", "not", "if_expr",
            "where", "quantified", "comprehension"} <= own
    # and so does every statement (`Checker.stmt` only hands a statement its checker)
    assert ".check(self, scope, loops)" in inspect.getsource(_Checker.stmt)
    assert not [c.__name__ for c in CONSTRUCTS if issubclass(c, Stmt) and "check" not in c.__dict__]


@dataclass(eq=False, repr=False, kw_only=True, slots=True)
class Twice(Expr):
    """`twice x`: a construct the checker has never heard of."""

    kind: ClassVar[str] = "twice"

    expr: Node

    def describe(self) -> str:
        return f"twice {self.expr.describe()}"

    def check(self, ck, scope: set[str]) -> None:
        ck.number_arg(self.expr, scope, "only a number can be doubled")


def _diagnostics_of(tmp_path, name: str) -> list[tuple[str, str]]:
    """Check a small ruleset whose constant `c` is `twice NAME` (placed after parsing)."""
    rs, content = check_path(ruleset(tmp_path, """
        game "T":
            players 2
        zone deck: pile, shared
        constant c = 1
        turn:
            move first(deck) to deck
            if c > 0:
                end game
    """))
    assert not [d for d in content.diagnostics if d.severity == "error"]
    old = rs.constants["c"]
    value = Twice(loc=old.value.loc, expr=Name(loc=old.value.loc, id=name))
    rs.constants["c"] = ConstDecl(loc=old.loc, name="c", value=value, name_loc=old.name_loc)
    content.diagnostics.clear()
    check(rs)
    return [(d.code, d.message) for d in content.diagnostics if d.severity == "error"]


def test_a_new_expression_checks_itself(tmp_path):
    assert _diagnostics_of(tmp_path, "deck") == [("type/number", "only a number can be doubled, not a zone")]
    # its parts are checked through the checker too: an unknown name inside it is reported
    assert _diagnostics_of(tmp_path, "dekc") == [("name/undefined", "unknown name `dekc`")]


def test_the_checker_offers_all_a_construct_may_use(tmp_path):
    """Every member of the `Checks` protocol (what a construct's `check` may call) is on the checker."""
    rs, _ = check_path(ruleset(tmp_path, 'game "T":\n    players 2\nturn:\n    end game\n'))
    ck = _Checker(rs)
    members = set(Checks.__annotations__) | {n for n in vars(Checks) if not n.startswith("_")}
    assert {"expr", "cond", "kind", "error", "rs", "builtins"} <= members
    assert not [m for m in sorted(members) if not hasattr(ck, m)]
