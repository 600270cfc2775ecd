"""Talisman's Reaper and Blood Moon mods: every rule of each expansion's range of the inventory is
cited by a scenario of its folder or listed, with a reason, in the mod's NOTES.md (section "Not
modelled, by rule ID", read by rulekit.not_modelled_rules). No rule IDs in these docstrings:
tests/games/test_talisman.py reads the docstrings of test_talisman*.py files as base-game citations."""
from __future__ import annotations

from pathlib import Path

import pytest
from ruamel.yaml import YAML
from rulekit import not_modelled_rules

ROOT = Path(__file__).resolve().parents[2]
# mod folder name: (first rule number, last rule number, fewest rules its scenarios must cite)
MODS = {"talisman_reaper": (489, 543, 49), "talisman_bloodmoon": (462, 488, 26)}


def ids(lo: int, hi: int) -> list[str]:
    return [f"TA-{i:03d}" for i in range(lo, hi + 1)]


def cited(mod: str) -> set[str]:
    """IDs in the `covers:` lists of the mod's scenarios."""
    out: set[str] = set()
    for f in (ROOT / "tests" / "scenarios" / mod).glob("*.yaml"):
        out.update(YAML(typ="safe").load(f.read_text(encoding="utf-8")).get("covers", []) or [])
    return out


def skipped(mod: str) -> dict[str, str]:
    return not_modelled_rules(ROOT / "rulesets" / mod / "NOTES.md", "TA")


@pytest.mark.parametrize("mod", sorted(MODS))
def test_every_rule_is_cited_or_said_not_modelled(mod):
    """Each rule of the expansion is asserted by a scenario, or NOTES.md says why it is not."""
    lo, hi, _ = MODS[mod]
    have, notes = cited(mod), skipped(mod)
    missing = [r for r in ids(lo, hi) if r not in have and r not in notes]
    assert not missing, f"{mod}: rules no scenario covers and NOTES.md does not list: {missing}"


@pytest.mark.parametrize("mod", sorted(MODS))
def test_citations_are_the_expansions_own_and_not_also_skipped(mod):
    """A citation outside the expansion's range (or a typo) would inflate its coverage; a rule is
    either tested or declared not modelled, not both; the count of cited rules does not fall."""
    lo, hi, fewest = MODS[mod]
    have, notes = cited(mod), skipped(mod)
    assert sorted(have - set(ids(lo, hi))) == []
    assert sorted(set(notes) - set(ids(lo, hi))) == []
    assert sorted(have & set(notes)) == []
    assert len(have) >= fewest
    assert all(reason.strip() for reason in notes.values())
