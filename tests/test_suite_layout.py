"""The test suite's own rules: shared helpers live in helper modules (conftest.py, rulekit.py,
golden_games.py, transcripts.py), and no test file imports another test file — a test file that
is imported runs its module-level set-up twice and ties two files' layouts together."""
from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def _imported_modules(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every import in a file, indented ones included."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out.append((node.lineno, node.module))
            if node.module == "tests":
                out += [(node.lineno, f"tests.{a.name}") for a in node.names]
    return out


def test_no_test_file_imports_another():
    files = sorted(p for p in TESTS.rglob("*.py") if "fixtures" not in p.parts)
    assert len(files) > 40
    bad = [f"{p.relative_to(TESTS)}:{line}: imports {mod}" for p in files for line, mod in _imported_modules(p)
           if mod.split(".")[-1].startswith("test_") or mod.startswith("tests.")]
    assert not bad, ("import helper modules by their own name (rulekit, golden_games, transcripts) and move what\n"
                     "test files share into them:\n" + "\n".join(bad))


def test_the_check_sees_an_import_of_a_test_file(tmp_path):
    sample = tmp_path / "test_x.py"
    sample.write_text("import os\nfrom test_constructs import build\ndef f():\n    import tests.test_y\n"
                      "from tests import rulekit\n")
    assert _imported_modules(sample) == [(1, "os"), (2, "test_constructs"), (5, "tests"), (5, "tests.rulekit"),
                                         (4, "tests.test_y")]
