"""editors/vscode: the TextMate grammar is kept in step with the Lark grammar and the builtin
registry, its patterns compile and mark what they should, and the extension's files exist."""
from __future__ import annotations

import json
import re
from pathlib import Path

from interpreter.authoring.features import keywords
from interpreter.library import BUILTINS

ROOT = Path(__file__).resolve().parents[2]
VSCODE = ROOT / "editors" / "vscode"
GRAMMAR = json.loads((VSCODE / "syntaxes" / "grimoire.tmLanguage.json").read_text(encoding="utf-8"))


def _words(pattern_name: str) -> set[str]:
    match = GRAMMAR["repository"][pattern_name]["match"]
    return set(re.search(r"\\b\(([^)]*)\)", match).group(1).split("|"))


def test_highlighting_knows_every_keyword_and_builtin():
    assert _words("keyword") == set(keywords())  # a new keyword in grimoire.lark must be added here
    assert _words("builtin") == set(BUILTINS)
    assert {"move", "when", "replace"} <= set(keywords())


def test_patterns_mark_a_rule_line():
    line = 'zone bag: deck, shared, hidden   # "not a string" here'
    repo = GRAMMAR["repository"]
    decl = re.search(repo["declaration"]["match"], line)
    assert decl.group(1) == "zone" and decl.group(2) == "bag"
    assert re.search(repo["comment"]["match"], line).group(0) == '# "not a string" here'
    text = "    move first(deck, 2) to your hand"
    assert [m.group(0) for m in re.finditer(repo["keyword"]["match"], text)] == ["move", "to", "your"]
    assert [m.group(1) for m in re.finditer(repo["builtin"]["match"], text)] == ["first"]
    assert not re.search(repo["builtin"]["match"], "let first = 2")  # a name, not a call


def test_extension_files_are_wired():
    package = json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))
    assert package["contributes"]["languages"][0]["extensions"] == [".rules"]
    for rel in (package["main"], package["contributes"]["grammars"][0]["path"],
                package["contributes"]["languages"][0]["configuration"]):
        assert (VSCODE / rel).is_file(), rel
    assert package["contributes"]["configuration"]["properties"]["grimoire.command"]["default"] == ["grimoire", "lsp"]
    json.loads((VSCODE / "language-configuration.json").read_text(encoding="utf-8"))
