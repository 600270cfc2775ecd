"""Talisman's Dragon mod: each rule of the expansion's inventory range is cited by a scenario of
tests/scenarios/talisman_dragon, or the mod's NOTES.md lists it with a reason; the mod compiles to
generated code. No rule IDs in these docstrings: tests/games/test_talisman.py reads the docstrings
of test_talisman*.py files as base-game citations."""
from __future__ import annotations

from pathlib import Path

from rulekit import not_modelled_rules
from ruamel.yaml import YAML

from interpreter.api import load_program
from interpreter.content.stack import stack_path
from interpreter.engine.direct import compile_direct

ROOT = Path(__file__).resolve().parents[2]
OWN = {f"TA-{i:03d}" for i in range(544, 617)}


def dragon_citations() -> set[str]:
    """The IDs in the `covers:` lists of the Dragon scenarios."""
    out: set[str] = set()
    for f in (ROOT / "tests" / "scenarios" / "talisman_dragon").glob("*.yaml"):
        out.update(YAML(typ="safe").load(f.read_text(encoding="utf-8")).get("covers", []) or [])
    return out


def test_each_dragon_rule_is_cited_or_listed_once():
    """No rule is left out, none both cited and listed, none from outside the range, each listed
    one with a reason; the count of cited rules does not fall."""
    have = dragon_citations()
    notes = not_modelled_rules(ROOT / "rulesets" / "talisman_dragon" / "NOTES.md", "TA")
    assert sorted(OWN - have - set(notes)) == []
    assert sorted(have & set(notes)) == []
    assert sorted((have | set(notes)) - OWN) == []
    assert all(reason.strip() for reason in notes.values())
    assert len(have) >= 71


def test_dragon_mod_compiles_to_generated_code():
    """The stack runs on the direct engine (an Unsupported construct would raise here); the copyable
    form is made in tests/games/test_talisman_mods_direct.py, the observed one by the Dragon
    scenarios that tests/play/test_scenarios.py runs on direct code."""
    stack = stack_path(str(ROOT / "rulesets" / "talisman"), [str(ROOT / "rulesets" / "talisman_dragon")])
    assert compile_direct(load_program(stack)) is not None
