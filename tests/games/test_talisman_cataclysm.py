"""The Cataclysm (rulesets/talisman_cataclysm, TA-646..TA-663): a mod that replaces the base board,
stacks with the other Talisman mods in any order, and has each of its
rules cited by a scenario of tests/scenarios/talisman_cataclysm/ or listed in its NOTES.md. Its
Terrain rules need the Harbinger too: rulesets/talisman_cataclysm_terrain, a mod of both. Its
generated code: tests/games/test_talisman_mods_direct.py; its scenarios run there by
tests/play/test_scenarios.py."""
from __future__ import annotations

from pathlib import Path

from rulekit import cited_rules, not_modelled_rules, scenario_log

from interpreter.api import check_path, load_program
from interpreter.engine.factory import new_game
from interpreter.runtime.values import ZoneRef

ROOT = Path(__file__).resolve().parents[2]
BASE = f"{ROOT}/rulesets/talisman --with "
IN_SCOPE = {f"TA-{i:03d}" for i in range(646, 664)}
BASE_RULES_PITTED = {"TA-071"}   # a space draws up to its number: Denizens and facedown Remnants do not count


def mods(*names: str) -> str:
    return ",".join(f"{ROOT}/rulesets/talisman_{n}" for n in names)


def cited() -> set[str]:
    return cited_rules(ROOT / "tests" / "scenarios" / "talisman_cataclysm")


def errors(stack) -> list:
    _, content = check_path(stack)
    return [d for d in content.diagnostics if d.severity == "error"]


def test_every_cataclysm_rule_is_cited_or_said_not_modelled():
    skipped = not_modelled_rules(ROOT / "rulesets" / "talisman_cataclysm" / "NOTES.md", "TA")
    assert sorted(IN_SCOPE - cited() - set(skipped)) == []
    assert sorted(set(skipped) & cited()) == []


def test_citations_are_cataclysm_rules_or_the_base_rule_it_pits():
    """A typo or another expansion's rule would inflate the count; the one base rule cited is the
    one its cards on a space are pitted against (TA-071: draw up to the space's number)."""
    assert sorted(cited() - IN_SCOPE) == sorted(BASE_RULES_PITTED)


def test_the_count_of_cited_rules():
    """The number the issue reports: all 18 Cataclysm rules are cited by scenarios."""
    assert len(cited() & IN_SCOPE) == 18


def test_the_cataclysm_alone_and_with_terrain_validate_clean():
    """`grimoire validate rulesets/talisman_cataclysm` (its `extends` brings the base), and the
    Terrain mod with both of its bases."""
    assert errors(ROOT / "rulesets" / "talisman_cataclysm") == []
    assert errors(ROOT / "rulesets" / "talisman_cataclysm_terrain") == []


def test_the_board_is_replaced_whatever_the_order_of_the_stack():
    """`after` in its header puts it after the Regions, so any `--with` order gives one card list;
    the base's Fields are gone but for two, the Cataclysm's spaces are in, the Regions' gates
    (named base spaces) are still there."""
    a, content = check_path(BASE + mods("regions", "highland", "dungeon", "woodland", "cataclysm"))
    b, _ = check_path(BASE + mods("cataclysm", "woodland", "dungeon", "highland", "regions"))
    assert [d for d in content.diagnostics if d.severity == "error"] == []
    names = [c.name for c in a.cards]
    assert names == [c.name for c in b.cards]
    assert names.count("The Fields") == 2
    assert {"Wasteland", "Crater", "Shanty Town", "Crags", "Forest", "Ruins", "City"} <= set(names)
    assert errors(BASE + mods("cataclysm", "city", "regions")) == []     # the City's gate: the City


def test_the_cataclysm_stacks_with_the_harbinger_in_either_order():
    assert errors(BASE + mods("cataclysm", "harbinger", "cataclysm_terrain")) == []
    a, _ = check_path(BASE + mods("harbinger", "cataclysm", "cataclysm_terrain"))
    b, _ = check_path(BASE + mods("cataclysm", "harbinger", "cataclysm_terrain"))
    assert [c.name for c in a.cards] == [c.name for c in b.cards]



def test_the_denizen_and_remnant_decks_lie_face_down_and_the_denizen_discard_open():
    """The Denizen deck is drawn from its top and the Remnants are dealt facedown from theirs
    (rulebook: "he draws one Denizen card from the top of the Denizen deck"; the Remnant cards are
    "placed facedown"), so every seat sees only how many cards each deck holds; the Denizen
    discard pile lies open (found by tools/mutate_rules.py: `hidden` made `public` on
    game.rules:43 and :45 passed every test)."""
    program = load_program(ROOT / "rulesets" / "talisman_cataclysm")
    g = new_game(program, 3, 0, seats=[])
    held = {z: len(g.state.zones[ZoneRef(z, None).key]) for z in ("denizen_deck", "remnant_deck")}
    assert held["denizen_deck"] > 0 and held["remnant_deck"] > 0
    for seat in (0, 1, None):
        seen = g.view(seat)
        for zone, n in held.items():
            assert isinstance(seen[zone], int) and seen[zone] == n, (seat, zone)
        assert isinstance(seen["denizen_discard"], list), seat


def test_with_no_denizen_left_none_is_said_to_be_drawn(monkeypatch):
    """TA-649: a Denizen space draws "one Denizen card from the top of the Denizen deck"; with the
    deck and its discard pile both empty there is none, and the game must not say that one was
    drawn. `no_denizen_left_to_draw.yaml` plays it; its final state cannot tell (found by
    tools/mutate_rules.py: the draw's `count(denizen_deck) > 0` made `>= 0` moved no card, only
    logged "draws the Denizen" of none)."""
    logged = scenario_log(monkeypatch, ROOT / "tests" / "scenarios" / "talisman_cataclysm" / "no_denizen_left_to_draw.yaml")
    assert [line for line in logged if "visits" in line] and \
        not [line for line in logged if "draws the Denizen" in line], logged
