"""Talisman expansions II (this file's MODS: the Realm of Souls, the Frostmarch, the Sacred Pool, the
Harbinger): each rule of each expansion is cited by a scenario of its mod (or a docstring of its
test file), or the mod's NOTES.md says why it is not modelled — as tests/games/test_talisman.py does
for the base game. Rule IDs stay out of these docstrings: the base's coverage test reads the
docstrings of every test_talisman*.py file as base-game citations."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from ruamel.yaml import YAML
from rulekit import not_modelled_rules, rule_ids

ROOT = Path(__file__).resolve().parents[2]
# mod: (its rule range in the inventory, the test files whose docstrings cite its rules)
MODS = {
    "talisman_souls": (range(780, 798), []),
    "talisman_frostmarch": (range(831, 835), []),
    "talisman_sacredpool": (range(835, 836), []),
    "talisman_harbinger": (range(617, 646), ["test_harbinger_omens.py"]),
}
BASE = range(1, 407)  # a scenario may also cite the base rule its text is pitted against


def cited(mod: str) -> set[str]:
    """IDs in the mod's scenarios' `covers:` lists and in its test files' docstrings."""
    ids: set[str] = set()
    for f in (ROOT / "tests" / "scenarios" / mod).glob("*.yaml"):
        ids.update(YAML(typ="safe").load(f.read_text(encoding="utf-8")).get("covers", []) or [])
    for name in MODS[mod][1]:
        for doc in re.findall(r'"""(.*?)"""', (ROOT / "tests" / "games" / name).read_text(encoding="utf-8"), re.S):
            ids.update(f"TA-{i:03d}" for i in rule_ids(doc, "TA"))
    return ids


def not_modelled(mod: str) -> dict[str, str]:
    return not_modelled_rules(ROOT / "rulesets" / mod / "NOTES.md", "TA")


@pytest.mark.parametrize("mod", MODS)
def test_every_rule_is_cited_or_said_not_modelled(mod):
    """Each rule of the expansion is asserted by a scenario or test, or its NOTES.md says why not."""
    have, skipped = cited(mod), not_modelled(mod)
    missing = [f"TA-{i:03d}" for i in MODS[mod][0] if f"TA-{i:03d}" not in have and f"TA-{i:03d}" not in skipped]
    assert not missing, f"{mod}: rules no scenario or test covers and NOTES.md does not list: {missing}"


@pytest.mark.parametrize("mod", MODS)
def test_citations_are_of_the_expansion_or_the_base(mod):
    """A citation of another expansion's rule (or a typo) would inflate the coverage; the
    not-modelled list names only the expansion's own rules."""
    own = {f"TA-{i:03d}" for i in MODS[mod][0]}
    base = {f"TA-{i:03d}" for i in BASE}
    assert not (cited(mod) - own - base), sorted(cited(mod) - own - base)
    assert set(not_modelled(mod)) <= own, sorted(set(not_modelled(mod)) - own)


@pytest.mark.parametrize("mod", MODS)
def test_not_modelled_rules_are_not_also_cited(mod):
    """A rule is either tested or declared not modelled, not both."""
    assert not set(not_modelled(mod)) & cited(mod)


def test_how_many_rules_are_cited():
    """The share of the four expansions' rules cited by tests: 51 of 52 (the rest are listed with
    reasons), so a lost scenario shows here."""
    total = sum(len(r) for r, _ in MODS.values())
    have = sum(len({f"TA-{i:03d}" for i in r} & cited(m)) for m, (r, _) in MODS.items())
    assert (have, total) == (51, 52)
