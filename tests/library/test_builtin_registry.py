"""The builtin registry is the one list: what a builtin's value depends on (`Builtin.reads`) is said
once, in `interpreter/library/`, and every stage that needs "which calls are pure" derives it
from there — no module keeps its own list of builtin names."""
from __future__ import annotations

import ast
from pathlib import Path

from interpreter.library import ANYWHERE, ANYWHERE_BUILTINS, ARGS, BUILTINS, PURE_BUILTINS, TURN

INTERPRETER = Path(__file__).resolve().parents[2] / "interpreter"


def test_every_builtin_says_what_it_reads():
    assert {b.reads for b in BUILTINS.values()} <= {ARGS, TURN, ANYWHERE}
    assert PURE_BUILTINS == {n for n, b in BUILTINS.items() if b.pure}
    assert ANYWHERE_BUILTINS == {n for n, b in BUILTINS.items() if b.reads == ANYWHERE}
    assert {"count", "sum", "max", "first", "top", "cards_in"} <= PURE_BUILTINS
    # the RNG, the asking player and where cards lie are not arguments
    assert not {"random", "other_players", "next_player", "zone_of", "all_cards"} & PURE_BUILTINS
    assert {"zone_of", "owner", "all_cards", "covered"} <= ANYWHERE_BUILTINS


def _hand_lists(tree: ast.AST) -> list[tuple[int, list[str]]]:
    """Literal sets, lists and tuples of three or more strings that are all builtin names."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Set, ast.List, ast.Tuple)) and len(node.elts) >= 3:
            words = [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
            if len(words) == len(node.elts) and all(w in BUILTINS for w in words):
                out.append((node.lineno, words))
    return out


def test_no_stage_keeps_its_own_list_of_builtin_names():
    found = [f"{p.relative_to(INTERPRETER)}:{line}: {words}"
             for p in sorted(INTERPRETER.rglob("*.py")) if "library" not in p.parts
             for line, words in _hand_lists(ast.parse(p.read_text(encoding="utf-8")))]
    assert not found, "derive these from the registry (library.PURE_BUILTINS, Builtin.reads):\n" + "\n".join(found)


def test_the_scan_finds_a_hand_list():
    sample = ast.parse('PURE = frozenset({"count", "sum", "max"})\nOK = ("count", "x", "sum")\n')
    assert _hand_lists(sample) == [(1, ["count", "sum", "max"])]
