"""The Firelands (rulesets/talisman_firelands, TA-455..TA-461): each rule is cited by a scenario of
tests/scenarios/talisman_firelands/ or listed in the mod's NOTES.md; stacked with the City (the stack
of the City and Firelands scenarios, so a test worker that ran them has it compiled already), it
compiles to direct code: no construct is left to the retiring task engine."""
from __future__ import annotations

from pathlib import Path

from ruamel.yaml import YAML
from rulekit import not_modelled_rules

from interpreter.api import load_program
from interpreter.engine.direct import compile_direct

ROOT = Path(__file__).resolve().parents[2]
SCOPE = [f"TA-{i:03d}" for i in range(455, 462)]


def test_every_firelands_rule_is_cited_or_listed():
    have: set[str] = set()
    for f in (ROOT / "tests" / "scenarios" / "talisman_firelands").glob("*.yaml"):
        have.update(YAML(typ="safe").load(f.read_text(encoding="utf-8")).get("covers", []) or [])
    skipped = not_modelled_rules(ROOT / "rulesets" / "talisman_firelands" / "NOTES.md", "TA")
    assert [r for r in SCOPE if r not in have and r not in skipped] == []
    assert sorted(have - set(SCOPE)) == []
    assert len(have) == 7


def test_the_firelands_stack_with_the_regions_and_compile_to_direct_code():
    mods = ",".join(f"{ROOT}/rulesets/talisman_{n}" for n in ["regions", "city", "firelands"])
    p = load_program(f"{ROOT}/rulesets/talisman --with {mods}")
    assert {"Noble Ifrit", "City Gate"} <= {c.name for c in p.rs.cards}
    compile_direct(p)
