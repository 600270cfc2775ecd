"""The Deep Realms (rulesets/talisman_deeprealms, TA-743..TA-779): every rule is cited by a scenario
of tests/scenarios/talisman_deeprealms/ (or listed in the mod's NOTES.md); the "Rat" mark that
TA-750 reads is on every card whose title has the word and on no other; the mod stacks with the
other Region mods in any order. Its three forms of generated code are compiled, and its games
played, by tests/games/test_talisman_mods_direct.py."""
from __future__ import annotations

import re
from pathlib import Path

from rulekit import cited_rules, not_modelled_rules

from interpreter.api import check_path, load_program
from interpreter.engine.factory import new_game

ROOT = Path(__file__).resolve().parents[2]
SCOPE = {f"TA-{i:03d}" for i in range(743, 780)}


def stack(*names: str) -> str:
    return f"{ROOT}/rulesets/talisman --with " + ",".join(f"{ROOT}/rulesets/talisman_{n}" for n in names)


def test_every_deep_realms_rule_is_cited_or_listed():
    have = cited_rules(ROOT / "tests" / "scenarios" / "talisman_deeprealms")
    skipped = not_modelled_rules(ROOT / "rulesets" / "talisman_deeprealms" / "NOTES.md", "TA")
    assert sorted(SCOPE - have - set(skipped)) == []
    assert sorted(have - SCOPE) == []                # no typo, no rule of another expansion
    assert sorted(set(skipped) & have) == []         # a rule is tested or listed, not both
    assert len(have) == 37                           # the number the issue reports: all 37


def test_the_rat_mark_is_on_every_title_with_the_word_and_no_other():
    """TA-750 reads the title ("with 'Rat' in its title") through the cards' `rat` flag: a card of
    any Region in the stack (the City's Sewer Rat too) whose title has the word is marked, no other."""
    rs, content = check_path(stack("regions", "highland", "dungeon", "city", "deeprealms"))
    assert [d for d in content.diagnostics if d.severity == "error"] == []
    enemies = [c for c in rs.cards if c.type == "Adventure"]
    wrong = [c.name for c in enemies if bool(c.fields.get("rat")) != bool(re.search(r"\bRat\b", c.name))]
    assert wrong == []
    assert {"Sewer Rat", "Rat King", "Bridge Rat"} <= {c.name for c in enemies if c.fields.get("rat")}


def test_the_deep_realms_stack_with_the_other_regions_in_any_order():
    """Its `extends` lines bring the City and the Dungeon; any `--with` order is one game, no conflict."""
    a, content = check_path(stack("regions", "highland", "dungeon", "city", "deeprealms"))
    b, _ = check_path(stack("deeprealms", "city", "highland"))
    assert [d for d in content.diagnostics if d.severity == "error"] == []
    assert [c.name for c in a.cards] == [c.name for c in b.cards]
    assert {"Rat's Nest", "Throne Room", "Treasure Chamber", "Eyrie", "City Gate"} <= {c.name for c in a.cards}


def test_the_deep_realms_alone_validate_clean():
    """`grimoire validate rulesets/talisman_deeprealms`: its `extends` chain brings the base."""
    _, content = check_path(ROOT / "rulesets" / "talisman_deeprealms")
    assert [d for d in content.diagnostics if d.severity == "error"] == []


def test_a_tunnel_stack_lies_face_down():
    """"he at once takes the top three Tunnel cards ... as a facedown stack in front of him" (TA-757):
    every seat, his own too, sees how many cards a stack holds, not which. `hidden` made `public` is a
    mutant no scenario can catch (a scenario cannot state what a seat sees)."""
    g = new_game(load_program(stack("deeprealms")), 3, 0, seats=[])
    for seat in (0, 1, None):
        seen = g.view(seat)
        assert [seen[f"tunnel_stack of player {p}"] for p in (1, 2, 3)] == [0, 0, 0], seat
