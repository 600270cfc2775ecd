"""Talisman: every in-scope rule of the inventory is cited by a test or listed as not modelled."""
from __future__ import annotations

import re
from pathlib import Path

from rulekit import base_test_files
from ruamel.yaml import YAML

ROOT = Path(__file__).resolve().parents[2]
RULESET = ROOT / "rulesets" / "talisman"
SCENARIOS = ROOT / "tests" / "scenarios" / "talisman"
IN_SCOPE = range(1, 407)  # TA-001..TA-406: the base game; TA-407 on are the expansions (issue 6)


def not_modelled() -> dict[str, str]:
    """The rules NOTES.md's section "Not modelled, by rule ID" lists, each on a line
    `- TA-nnn[, TA-nnn] — reason`."""
    out: dict[str, str] = {}
    notes = (RULESET / "NOTES.md").read_text(encoding="utf-8")
    section = notes.split("## Not modelled, by rule ID", 1)[1].split("\n## ", 1)[0]
    for line in section.splitlines():
        m = re.match(r"\s*-\s+((?:TA-\d{3}(?:\.\.TA-\d{3})?(?:,\s*)?)+)\s+—\s+(.+)", line)
        if not m:
            continue
        for part in re.findall(r"TA-(\d{3})(?:\.\.TA-(\d{3}))?", m.group(1)):
            lo = int(part[0])
            hi = int(part[1]) if part[1] else lo
            for i in range(lo, hi + 1):
                out[f"TA-{i:03d}"] = m.group(2)
    return out


def cited() -> set[str]:
    """IDs in scenarios' `covers:` lists and in the docstrings of the Talisman test files."""
    ids: set[str] = set()
    for f in SCENARIOS.glob("*.yaml"):
        ids.update(YAML(typ="safe").load(f.read_text(encoding="utf-8")).get("covers", []) or [])
    for f in base_test_files("talisman"):  # not the mods' files
        if f.name == Path(__file__).name:
            continue
        for doc in re.findall(r'"""(.*?)"""', f.read_text(encoding="utf-8"), re.S):
            ids.update(re.findall(r"TA-\d{3}", doc))
    return ids


def test_every_rule_is_covered_or_said_not_modelled():
    """Each base-game rule is asserted by a scenario or test, or NOTES.md says why it is not
    modelled (physical components, advice, or what the rulebook leaves out)."""
    have, skipped = cited(), not_modelled()
    missing = [f"TA-{i:03d}" for i in IN_SCOPE if f"TA-{i:03d}" not in have and f"TA-{i:03d}" not in skipped]
    assert not missing, f"rules no scenario or test covers and NOTES.md does not list: {missing}"


def test_cited_rules_are_base_game_rules():
    """A citation of an expansion rule (or a typo) would inflate the coverage."""
    unknown = sorted(r for r in cited() if int(r[3:]) not in IN_SCOPE)
    assert not unknown, f"covers: IDs outside TA-001..TA-406 {unknown}"


def test_not_modelled_rules_are_not_also_cited():
    """A rule is either tested or declared not modelled, not both."""
    both = sorted(set(not_modelled()) & cited())
    assert not both, f"cited and also listed as not modelled: {both}"
