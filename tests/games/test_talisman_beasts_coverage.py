"""Talisman's Ancient Beasts and Clockwork Kingdom mods: each rule of the expansion's range of the
inventory is cited by a scenario of tests/scenarios/<mod>, or the mod's NOTES.md lists it with a
reason (tests/games/test_talisman_mods_direct.py compiles both to generated code and plays them on
both engines). No rule IDs in these docstrings:
tests/games/test_talisman.py reads the docstrings of test_talisman*.py files as base-game citations."""
from __future__ import annotations

from pathlib import Path

import pytest
from rulekit import not_modelled_rules, cited_rules

ROOT = Path(__file__).resolve().parents[2]
# mod folder name: (first rule number, last rule number, fewest rules its scenarios must cite)
MODS = {"talisman_beasts": (798, 815, 18), "talisman_clockwork": (816, 830, 15)}


def own(mod: str) -> set[str]:
    lo, hi, _ = MODS[mod]
    return {f"TA-{i:03d}" for i in range(lo, hi + 1)}


@pytest.mark.parametrize("mod", sorted(MODS))
def test_each_rule_is_cited_or_listed_once(mod):
    """No rule is left out, none both cited and listed, none from outside the range, each listed
    one with a reason; the count of cited rules does not fall."""
    have = cited_rules(ROOT / "tests" / "scenarios" / mod)
    notes = not_modelled_rules(ROOT / "rulesets" / mod / "NOTES.md", "TA")
    assert sorted(own(mod) - have - set(notes)) == []
    assert sorted(have & set(notes)) == []
    assert sorted((have | set(notes)) - own(mod)) == []
    assert all(reason.strip() for reason in notes.values())
    assert len(have) >= MODS[mod][2]
