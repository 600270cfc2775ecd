"""The package layout keeps the pipeline legible: imports flow one way, down the stages.

Every import inside `interpreter/` (top-level, indented, or under TYPE_CHECKING) is an edge of the
module graph; the graph must have no cycle, each stage may import only its own stage and the
stages below it, no module dodges the order with an indented import (the CLI and the package's
lazy `__getattr__` excepted: they keep `grimoire --help` light), and no stage imports another
stage's private (`_`-prefixed) names.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parent.parent / "interpreter"

# Lowest first: a module may import from its own stage or any stage listed before it.
STAGES = ["language", "content", "runtime", "library", "analysis", "engine", "api", "authoring", "printing", "play", "sim",
          "cli", "__main__", "__init__"]
LAZY_ALLOWED = {"cli", "__init__"}
# one module importing another of its own stage when first needed: the parser imports Lark (larkside)
# only for a text with errors, so that `grimoire validate` of correct files never loads it
LAZY_EDGES = {("language.parser", "language.larkside")}


def _module_name(path: Path) -> str:
    rel = path.relative_to(PKG).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__" and len(parts) > 1:
        parts = parts[:-1]
    return ".".join(parts)


def _stage(module: str) -> str:
    return module.split(".")[0]


def _resolve(module: str, is_pkg: bool, level: int, target: str | None) -> str:
    if module == "__init__":  # the package itself
        module, is_pkg = "", False
    base = module.split(".") if is_pkg else module.split(".")[:-1]
    if level > 1:
        base = base[: len(base) - (level - 1)]
    return ".".join([*base, *([target] if target else [])])


def imports() -> list[tuple[str, str, list[str], bool, int]]:
    """(importer, imported module, names, indented?, line) for every relative import in the package."""
    found = []
    modules = {_module_name(p) for p in PKG.rglob("*.py")}
    for path in sorted(PKG.rglob("*.py")):
        mod = _module_name(path)
        is_pkg = path.name == "__init__.py"
        tree = ast.parse(path.read_text())
        top = {id(n) for n in tree.body}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level:
                target = _resolve(mod, is_pkg, node.level, node.module)
                names = [a.name for a in node.names]
                # `from . import x` names a module when x is one
                subs = [f"{target}.{n}" if target else n for n in names]
                if all(s in modules for s in subs):
                    for s in subs:
                        found.append((mod, s, [], id(node) not in top, node.lineno))
                else:
                    found.append((mod, target or "__init__", names, id(node) not in top, node.lineno))
            elif isinstance(node, ast.Import):
                for a in node.names:
                    if a.name.startswith("interpreter."):
                        found.append((mod, a.name[len("interpreter."):], [], id(node) not in top, node.lineno))
    return found


def test_no_import_cycle():
    graph: dict[str, set[str]] = {}
    for a, b, _, _, _ in imports():
        graph.setdefault(a, set()).add(b)
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        stack.append(m)
        for n in sorted(graph.get(m, ())):
            if state.get(n) == 1:
                return stack[stack.index(n):] + [n]
            if n not in state:
                cyc = visit(n)
                if cyc:
                    return cyc
        stack.pop()
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state:
            cycle = visit(m)
            assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_imports_flow_down_the_stages():
    wrong = [f"{a} (line {ln}) imports {b}" for a, b, _, _, ln in imports()
             if STAGES.index(_stage(b)) > STAGES.index(_stage(a))]
    assert not wrong, "imports against the stage order:\n" + "\n".join(wrong)


def test_no_indented_imports_dodge_the_order():
    lazy = [f"{a} (line {ln}) imports {b} inside a block" for a, b, _, indented, ln in imports()
            if indented and _stage(a) not in LAZY_ALLOWED and (a, b) not in LAZY_EDGES]
    assert not lazy, "\n".join(lazy)


def test_no_stage_imports_private_names_of_another():
    private = [f"{a} (line {ln}) imports {n} from {b}" for a, b, names, _, ln in imports()
               for n in names if n.startswith("_") and _stage(a) != _stage(b)]
    assert not private, "\n".join(private)


def test_the_check_sees_imports():
    """The walk really finds edges (a check over nothing would pass anything)."""
    edges = {(a, b) for a, b, _, _, _ in imports()}
    assert ("api", "engine.game") in edges
    assert len(edges) > 100


# ---- the syntax tree and the grammar stay in step -----------------------------------------------

# Grammar rules that build no construct of their own: lists and pieces a construct's method reads
# (`params`, `block`, `pair`...), wrappers (`replace_decl` marks its declaration, `part_decl` its
# abilities), keyword rules kept as tokens (`!choose`), and rules whose every form has an alias.
PIECES = {"args", "block", "elif_clause", "else_clause", "hook_phase", "hook_when", "pair", "params", "part_decl",
          "per_player", "replace_decl", "stat_bounds", "use_limit"}
KEPT_TOKENS = {"choose", "gain", "lose", "take", "quantifier"}
ALIASED_ONLY = {"board_item", "choose_count", "repeat_stmt", "type_expr"}


def _grammar() -> tuple[set[str], set[str]]:
    """(rules that build a tree node, every rule and alias name)."""
    import re

    from interpreter.language.parser import GRAMMAR_PATH
    text = GRAMMAR_PATH.read_text(encoding="utf-8")
    rules = set(re.findall(r"^[?!]?([a-z_]+)\s*:", text, re.M))
    inlined = set(re.findall(r"^\?([a-z_]+)\s*:", text, re.M))
    aliases = set(re.findall(r"->\s*([a-z_]+)", text))
    return (rules - inlined - ALIASED_ONLY - KEPT_TOKENS) | aliases, rules | aliases


def test_every_grammar_rule_builds_a_construct():
    from interpreter.language.parser import _ToAst
    from interpreter.language.tree import CONSTRUCTS
    building, names = _grammar()
    built = {rule: cls.__name__ for cls in CONSTRUCTS for rule in cls.grammar}
    orphans = sorted(building - set(built) - PIECES)
    assert not orphans, f"grammar rules that build no construct class (add one to language/tree.py): {orphans}"
    unknown = sorted(rule for rule in built if rule not in names)
    assert not unknown, f"construct classes naming grammar rules that do not exist: {unknown}"
    self_built = {rule for cls in CONSTRUCTS if "build" in cls.__dict__ for rule in cls.grammar}  # `Node.build`
    unhandled = sorted(rule for rule in set(built) | PIECES
                       if not callable(getattr(_ToAst, rule, None)) and rule not in self_built)
    assert not unhandled, f"grammar rules with no transformer method in language/parser.py: {unhandled}"


def test_every_construct_builds_itself():
    """A construct is built by its class's `build` only: the parser's transformer (`_ToAst`) keeps
    the plumbing rules that make no construct (a block's list, a call's arguments, an `elif` pair,
    a stat's bounds). A transformer method named after a construct's grammar rule would build it a
    second way, and the parser would take the method. Every grammar rule a construct names is
    built by some class's `build` (`enum_type` by `EnumType.build`, which gives a `BasicType` for
    `number`, `text` or `flag`)."""
    from interpreter.language.parser import _SELF_BUILT, _ToAst
    from interpreter.language.tree import CONSTRUCTS
    assert len(CONSTRUCTS) > 80
    in_parser = sorted(f"{c.__name__} ({rule})" for c in CONSTRUCTS for rule in c.grammar if rule in vars(_ToAst))
    assert not in_parser, ("constructs built by a transformer method in language/parser.py: move each "
                           "method into its class's `build` and delete it: " + ", ".join(in_parser))
    unbuilt = sorted(f"{c.__name__} ({rule})" for c in CONSTRUCTS for rule in c.grammar if rule not in _SELF_BUILT)
    assert not unbuilt, "grammar rules no construct's `build` makes: " + ", ".join(unbuilt)
    assert {cls for cls in _SELF_BUILT.values()} - {c for c in CONSTRUCTS if "build" in c.__dict__} == set()


def test_every_statement_and_expression_has_generated_code():
    """The code generator (engine/direct.py, directexpr.py) writes every construct: a statement by
    its class's own `emit` (the generator has no `s_KIND`), an expression by the class's own
    `generate` only (the generator has no `e_KIND` left: an expression's code lives in its construct)."""
    from interpreter.engine.direct import _Gen
    from interpreter.language.tree import CONSTRUCTS, Expr, Stmt
    stmts = [c for c in CONSTRUCTS if issubclass(c, Stmt)]
    exprs = [c for c in CONSTRUCTS if issubclass(c, Expr)]
    assert len(stmts) > 20 and len(exprs) > 20
    missing = [f"{c.__name__}: emit" for c in stmts if "emit" not in c.__dict__]
    assert not [m for m in dir(_Gen) if m.startswith("s_")], "a statement's code is its class's `emit`"
    missing += [f"{c.__name__}: generate" for c in exprs if "generate" not in c.__dict__]
    assert not missing, "constructs with no generated code: " + ", ".join(missing)
    assert not [m for m in dir(_Gen) if m.startswith("e_")], "expression code belongs in its construct's `generate`"


def test_construct_classes_are_typed_and_closed():
    """One class per kind, a docstring each, and no attribute can be added after parsing."""
    from interpreter.language.diagnostics import Loc
    from interpreter.language.tree import CONSTRUCTS, Name
    kinds = [c.kind for c in CONSTRUCTS]
    assert len(kinds) == len(set(kinds)), "two construct classes share a kind"
    assert all(c.__doc__ and c.grammar for c in CONSTRUCTS)
    n = Name(loc=Loc("x.rules", 1, 1), id="deck")
    with pytest.raises(AttributeError):
        n.cached = 1  # type: ignore[attr-defined]
