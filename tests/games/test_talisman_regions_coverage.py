"""Talisman's expansion Regions (TA-407..TA-418) and the Regions done (the Highland, TA-693..TA-713;
the Dungeon, TA-714..TA-742):
each rule is cited by a scenario of tests/scenarios/talisman_<region>/, or the mod's NOTES.md says
why it is not modelled — as tests/games/test_kingdom_decks_coverage.py does for Enchanters."""
from __future__ import annotations

from pathlib import Path

from ruamel.yaml import YAML
from rulekit import not_modelled_rules

ROOT = Path(__file__).resolve().parents[2]
MODS = ["talisman_regions", "talisman_highland", "talisman_dungeon"]
IN_SCOPE = list(range(407, 419)) + list(range(693, 743))


def not_modelled() -> dict[str, str]:
    """Every mod's NOTES.md "Not modelled, by rule ID" list (rulekit.not_modelled_rules)."""
    out: dict[str, str] = {}
    for mod in MODS:
        out.update(not_modelled_rules(ROOT / "rulesets" / mod / "NOTES.md", "TA"))
    return out


def cited() -> set[str]:
    """IDs in the `covers:` lists of the Region mods' scenarios."""
    ids: set[str] = set()
    for mod in MODS:
        for f in (ROOT / "tests" / "scenarios" / mod).glob("*.yaml"):
            ids.update(YAML(typ="safe").load(f.read_text(encoding="utf-8")).get("covers", []) or [])
    return ids


def test_every_region_rule_is_cited_or_said_not_modelled():
    have, skipped = cited(), not_modelled()
    missing = [f"TA-{i:03d}" for i in IN_SCOPE if f"TA-{i:03d}" not in have and f"TA-{i:03d}" not in skipped]
    assert not missing, f"rules no scenario covers and no NOTES.md lists: {missing}"


def test_the_shared_region_rules_are_all_cited():
    """TA-407..TA-418 (entering, arrows, Region decks) are asserted by scenarios, none merely listed."""
    assert [f"TA-{i:03d}" for i in range(407, 419) if f"TA-{i:03d}" not in cited()] == []


def test_the_highland_rules_are_all_cited():
    """All 21 of the Highland's rules (TA-693..TA-713) are asserted by scenarios, none merely listed."""
    assert [f"TA-{i:03d}" for i in range(693, 714) if f"TA-{i:03d}" not in cited()] == []


def test_citations_are_in_scope_and_not_also_listed():
    """A typo or a rule of another expansion would inflate the count; a rule is tested or listed, not both."""
    scope = {f"TA-{i:03d}" for i in IN_SCOPE}
    assert sorted(cited() - scope) == []
    assert sorted(set(not_modelled()) & cited()) == []


def test_the_dungeon_leaves_only_cards_not_authored():
    """The Dungeon's own rules (TA-714..TA-729) and the Q&A on its authored cards and characters are
    cited; the five answers about cards not authored (the Gypsy, the Clockwork Owl, the Goblin King,
    the Tinker Imp, the Bag of Holding) are listed in its NOTES.md."""
    have = cited()
    assert [f"TA-{i:03d}" for i in range(714, 730) if f"TA-{i:03d}" not in have] == []
    uncited = [f"TA-{i:03d}" for i in range(730, 743) if f"TA-{i:03d}" not in have]
    assert uncited == ["TA-733", "TA-736", "TA-738", "TA-740", "TA-742"]
    assert set(uncited) <= set(not_modelled())


def test_the_count_of_cited_rules():
    """The number the issue reports: 57 of the 62 rules in scope are cited by scenarios."""
    assert len(cited()) == 57
