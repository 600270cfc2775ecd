"""Enchanters: every in-scope rule of the inventory is cited by a test or listed as not modelled
(rulesets/enchanters/NOTES.md), as tests/games/test_talisman.py does for Talisman."""
from __future__ import annotations

import re
from pathlib import Path

from ruamel.yaml import YAML
from rulekit import not_modelled_rules, rule_ids, base_test_files

ROOT = Path(__file__).resolve().parents[2]
NOTES = ROOT / "rulesets" / "enchanters" / "NOTES.md"
SCENARIOS = [ROOT / "tests" / "scenarios" / "enchanters", ROOT / "tests" / "scenarios" / "enchanters_overlords"]
# EN-001..EN-210: components, base game, Overlords rules, keywords, FAQ, base decks;
# EN-395..EN-424: the timing table. EN-211..EN-394 are the expansions' decks and modes.
IN_SCOPE = [*range(1, 211), *range(395, 425)]


def not_modelled() -> dict[str, str]:
    """The rules NOTES.md's section "Not modelled, by rule ID" lists (rulekit.not_modelled_rules)."""
    return not_modelled_rules(NOTES)


def cited() -> set[str]:
    """IDs in the scenarios' `covers:` lists and in the docstrings of the Enchanters test files."""
    ids: set[str] = set()
    for folder in SCENARIOS:
        for f in folder.glob("*.yaml"):
            ids.update(YAML(typ="safe").load(f.read_text(encoding="utf-8")).get("covers", []) or [])
    for f in base_test_files("enchanters"):  # not the mods' files
        for doc in re.findall(r'"""(.*?)"""', f.read_text(encoding="utf-8"), re.S):
            ids.update(f"EN-{i:03d}" for i in rule_ids(doc))
    return ids


def test_every_rule_is_covered_or_said_not_modelled():
    """Each in-scope rule is asserted by a scenario or test, or NOTES.md says why it is not modelled."""
    have, skipped = cited(), not_modelled()
    missing = [f"EN-{i:03d}" for i in IN_SCOPE if f"EN-{i:03d}" not in have and f"EN-{i:03d}" not in skipped]
    assert not missing, f"rules no scenario or test covers and NOTES.md does not list: {missing}"


def test_cited_rules_are_in_scope():
    """A citation of an expansion rule (or a typo) would inflate the coverage."""
    unknown = sorted(r for r in cited() | set(not_modelled()) if int(r[3:]) not in IN_SCOPE)
    assert not unknown, f"IDs outside EN-001..EN-210, EN-395..EN-424: {unknown}"


def test_not_modelled_rules_are_not_also_cited():
    """A rule is either tested or declared not modelled, not both."""
    both = sorted(set(not_modelled()) & cited())
    assert not both, f"cited and also listed as not modelled: {both}"


def test_the_list_is_read():
    """The parser of NOTES.md finds the lines it should (a format slip would empty the list)."""
    assert {"EN-002", "EN-010", "EN-034"} <= set(not_modelled())
