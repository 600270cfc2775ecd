"""Combinations a rulebook forbids (docs/modding.md, "What a game has only one of: `provides`"): a
mod that says `provides "THING"` in its header fills a place the game has one of — Talisman's
Cataclysm board replaces the main board (TA-646), the Dragon's overlay the Inner Region (TA-544) —
so two mods of a stack that provide the same thing are `mod/exclusive`, named at both places, and
no `after` settles it. Cheap: tiny tmp rulesets, and Talisman stacks only loaded and checked."""
from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.api import check_path
from interpreter.cli import main
from rulekit import named_ruleset

ROOT = Path(__file__).resolve().parents[2]
BASE = """
game "Base":
    players 2

zone deck: pile, shared, hidden
player stat gold = 0

turn:
    you gain 1 gold
    end game

score p: gold of p
"""


def _mod(name: str, header: str) -> str:
    return f'game "Mod {name}":\n    extends "base"\n    players 2\n{header}'


def _errors(stack: str) -> list:
    _, content = check_path(stack)
    return [d for d in content.diagnostics if d.severity == "error"]


@pytest.fixture
def base(tmp_path) -> Path:
    return named_ruleset(tmp_path / "rulesets", "base", BASE)


def test_two_mods_providing_the_same_thing_cannot_be_stacked(tmp_path, base):
    a = named_ruleset(tmp_path / "mods", "a", _mod("a", '    provides "main board"\n'))
    b = named_ruleset(tmp_path / "mods", "b", _mod("b", '    provides "main board"\n    after "a"\n'))
    errs = _errors(f"{base} --with {a},{b}")
    assert [e.code for e in errs] == ["mod/exclusive"]   # `after "a"` does not settle it
    e = errs[0]
    assert e.loc.file.endswith("b/game.rules") and (e.loc.line, e.loc.col) == (4, 14)
    assert "a/game.rules:4:14" in e.message and "`a`" in e.message and "main board" in e.message
    assert "not both" in e.hint


def test_mods_providing_different_things_or_alone_are_fine(tmp_path, base):
    a = named_ruleset(tmp_path / "mods", "a", _mod("a", '    provides "main board"\n'))
    b = named_ruleset(tmp_path / "mods", "b", _mod("b", '    provides "Inner Region overlay"\n'))
    assert _errors(f"{base} --with {a},{b}") == []
    assert _errors(f"{base} --with {a}") == []


def test_provides_takes_a_name_in_quotes(tmp_path, base):
    a = named_ruleset(tmp_path / "mods", "a", _mod("a", "    provides 3\n"))
    assert [e.code for e in _errors(f"{base} --with {a}")] == ["mod/provides"]


def test_a_second_main_board_is_refused_with_the_cataclysm(tmp_path, capsys):
    """The rulebook's Cataclysm board replaces the base board (TA-646): a mod that brings another main
    board is refused by `validate` and by `simulate`, in the game's words, before anything is played."""
    other = named_ruleset(tmp_path, "other_board", 'game "Another board":\n    extends "talisman"\n'
                          '    provides "main board"\n    after "talisman_cataclysm"\n')
    stack = ["--with", f"{ROOT}/rulesets/talisman_cataclysm,{other}"]
    assert main(["validate", f"{ROOT}/rulesets/talisman", *stack]) == 1
    out = capsys.readouterr().out
    assert "other_board/game.rules:3:14: error: `other_board` provides the main board here" in out
    assert "talisman_cataclysm/game.rules:" in out and "[mod/exclusive]" in out
    assert main(["simulate", f"{ROOT}/rulesets/talisman", *stack, "-n", "1", "--quiet"]) != 0
    both = capsys.readouterr()
    assert "[mod/exclusive]" in both.out + both.err and "Traceback" not in both.out + both.err


def test_every_shipped_talisman_expansion_together_is_allowed():
    """The Cataclysm (main board) and the Dragon (Inner Region overlay) provide different things, so
    every expansion of issues 22 and 23 stacks — no `mod/exclusive` among the shipped mods."""
    mods = ["city", "highland", "dungeon", "deeprealms", "woodland", "firelands", "cataclysm", "dragon",
            "harbinger", "cataclysm_terrain"]
    stack = f"{ROOT}/rulesets/talisman --with " + ",".join(f"{ROOT}/rulesets/talisman_{m}" for m in mods)
    assert [e for e in _errors(stack) if e.code.startswith("mod/")] == []
