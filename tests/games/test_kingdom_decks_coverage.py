"""Enchanters' expansion rules (EN-211..EN-334): each is cited by a scenario of the expansion mods
or a docstring of tests/games/test_kingdom_decks*.py, or rulesets/enchanters_kingdoms/NOTES.md
says why it is not modelled (yet) — as tests/games/test_enchanters_coverage.py does for the base.
Coop mode (EN-335..EN-394) has its own: tests/games/test_enchanters_coop_coverage.py."""
from __future__ import annotations

import re
from pathlib import Path

from ruamel.yaml import YAML
from rulekit import not_modelled_rules, rule_ids

ROOT = Path(__file__).resolve().parents[2]
NOTES = ROOT / "rulesets" / "enchanters_kingdoms" / "NOTES.md"
SCENARIOS = [ROOT / "tests" / "scenarios" / "enchanters_wounds", ROOT / "tests" / "scenarios" / "enchanters_kingdoms",
             ROOT / "tests" / "scenarios" / "enchanters_odyssey", ROOT / "tests" / "scenarios" / "enchanters_eastquest"]
IN_SCOPE = range(211, 335)


def not_modelled() -> dict[str, str]:
    """The rules NOTES.md's section "Not modelled, by rule ID" lists (rulekit.not_modelled_rules)."""
    return not_modelled_rules(NOTES)


def cited() -> set[str]:
    """IDs in the scenarios' `covers:` lists and in the docstrings of the expansion test files."""
    ids: set[str] = set()
    for folder in SCENARIOS:
        for f in folder.glob("*.yaml"):
            ids.update(YAML(typ="safe").load(f.read_text(encoding="utf-8")).get("covers", []) or [])
    for f in (ROOT / "tests" / "games").glob("test_kingdom_decks*.py"):
        if f.name == Path(__file__).name:
            continue
        for doc in re.findall(r'"""(.*?)"""', f.read_text(encoding="utf-8"), re.S):
            ids.update(f"EN-{i:03d}" for i in rule_ids(doc))
    return ids


def test_every_expansion_rule_is_covered_or_said_not_modelled():
    """Each of EN-211..EN-334 is asserted by a scenario or test, or NOTES.md says why not."""
    have, skipped = cited(), not_modelled()
    missing = [f"EN-{i:03d}" for i in IN_SCOPE if f"EN-{i:03d}" not in have and f"EN-{i:03d}" not in skipped]
    assert not missing, f"rules no scenario or test covers and NOTES.md does not list: {missing}"


def test_the_overlords_content_is_covered():
    """The Wound deck and the eight Kingdom decks (EN-211..EN-244), the Book's live copy (EN-235)
    included, are cited by a scenario or test, not merely listed."""
    have = cited()
    assert [f"EN-{i:03d}" for i in range(211, 245) if f"EN-{i:03d}" not in have] == []


def test_the_odyssey_content_is_covered():
    """Odyssey (EN-245..EN-283: Banners and Classes, the Event deck, its six Kingdom decks) is
    rulesets/enchanters_odyssey: every one of its rules is cited by a scenario, none merely listed."""
    have = cited()
    assert [f"EN-{i:03d}" for i in range(245, 284) if f"EN-{i:03d}" not in have] == []


def test_the_eastquest_content_is_covered():
    """EastQuest (EN-284..EN-334: Quests, the Mythic and Automa decks, the solo game, six Kingdom
    decks) is rulesets/enchanters_eastquest: all but the rules NOTES.md lists with a reason are
    cited by a scenario."""
    have = cited()
    uncited = [f"EN-{i:03d}" for i in range(284, 335) if f"EN-{i:03d}" not in have]
    assert uncited == ["EN-293", "EN-301", "EN-317", "EN-318", "EN-319", "EN-334"]
    assert set(uncited) <= set(not_modelled())


def test_cited_rules_are_in_scope():
    """A citation outside EN-211..EN-334 (or a typo) would inflate the coverage."""
    unknown = sorted(r for r in cited() | set(not_modelled()) if int(r[3:]) not in IN_SCOPE)
    assert not unknown, f"IDs outside EN-211..EN-334: {unknown}"


def test_not_modelled_rules_are_not_also_cited():
    """A rule is either tested or declared not modelled, not both."""
    both = sorted(set(not_modelled()) & cited())
    assert not both, f"cited and also listed as not modelled: {both}"


def test_the_list_is_read():
    """The parser of NOTES.md finds the lines it should (a format slip would empty the list)."""
    assert {"EN-293", "EN-301", "EN-334"} <= set(not_modelled())
