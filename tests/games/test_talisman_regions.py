"""The Talisman Region mods (rulesets/talisman_regions, rulesets/talisman_highland, rulesets/talisman_dungeon)
stack on the base as one game whatever the `--with` order, and a Region mod given alone brings the
shared Region rules it extends (docs/modding.md, "Talisman's expansion Regions")."""
from __future__ import annotations

from pathlib import Path

from interpreter.api import load_program
from interpreter.engine.direct import compile_direct
from interpreter.engine.resumablegame import compile_resumable
from interpreter.sim.simulate import simulate

ROOT = Path(__file__).resolve().parents[2]
BASE = f"{ROOT}/rulesets/talisman --with "


def mods(*names: str) -> str:
    return ",".join(f"{ROOT}/rulesets/talisman_{n}" for n in names)


def names(stack: str) -> list[str]:
    return [c.name for c in load_program(stack).rs.cards]


def test_any_order_of_the_region_mods_is_one_game():
    a = names(BASE + mods("regions", "highland", "dungeon"))
    b = names(BASE + mods("dungeon", "highland", "regions"))
    assert a == b
    assert {"Eyrie", "Treasure Chamber", "Highland Entrance", "Dungeon Entrance"} <= set(a)


def test_a_region_mod_alone_brings_the_shared_rules():
    """`--with rulesets/talisman_highland` finds `talisman_regions` beside it: the Highland deck's home
    `Realm` and the Region deck exist, and nothing of the Dungeon."""
    p = load_program(BASE + mods("highland"))
    assert "region_deck" in p.rs.zones and "relic_deck" in p.rs.zones
    assert "Treasure Chamber" not in {c.name for c in p.rs.cards}


def test_the_highland_and_dungeon_compile_to_generated_code():
    """Direct and copyable (search agents; the observed form is the scenarios'): the task engine's
    fallback is going, so a form that does not compile would leave the stack unplayable there."""
    compile_resumable(compile_direct(load_program(BASE + mods("highland", "dungeon"))))  # raises Unsupported


def test_guided_bots_play_the_highland_and_dungeon_on_direct_code_to_the_end():
    """One game of the guided bots (the `prefer` rules are evaluated for every decision, the new
    prompts too) on the generated code."""
    report = simulate(BASE + mods("highland", "dungeon"), 1, 3, 7, ["guided"], per_game=True, card_stats=False)
    assert report["errors"] == [] and report["completed"] == 1
