"""The City (rulesets/talisman_city, TA-664..TA-692): each rule is cited by a scenario of
tests/scenarios/talisman_city/ or listed in the mod's NOTES.md; the mod stacks with the other Region
mods in any order (its direct code is compiled, with every other mod here, by
tests/games/test_talisman_firelands.py)."""
from __future__ import annotations

from pathlib import Path

from ruamel.yaml import YAML
from rulekit import not_modelled_rules

from interpreter.api import load_program
from interpreter.engine.factory import new_game

ROOT = Path(__file__).resolve().parents[2]
SCOPE = [f"TA-{i:03d}" for i in range(664, 693)]


def cited() -> set[str]:
    ids: set[str] = set()
    for f in (ROOT / "tests" / "scenarios" / "talisman_city").glob("*.yaml"):
        ids.update(YAML(typ="safe").load(f.read_text(encoding="utf-8")).get("covers", []) or [])
    return ids


def stack(*names: str) -> str:
    return f"{ROOT}/rulesets/talisman --with " + ",".join(f"{ROOT}/rulesets/talisman_{n}" for n in names)


def test_every_city_rule_is_cited_or_listed():
    skipped = not_modelled_rules(ROOT / "rulesets" / "talisman_city" / "NOTES.md", "TA")
    have = cited()
    assert [r for r in SCOPE if r not in have and r not in skipped] == []
    assert sorted(have - set(SCOPE)) == []          # no typo, no rule of another expansion
    assert len(have) == 29                           # the number the issue reports: all 29


def test_the_city_stacks_with_the_other_regions_in_any_order():
    a = [c.name for c in load_program(stack("regions", "highland", "dungeon", "city")).rs.cards]
    b = [c.name for c in load_program(stack("city", "dungeon", "highland", "regions")).rs.cards]
    assert a == b
    assert {"City Gate", "Jail", "Eyrie", "Treasure Chamber"} <= set(a)



def test_the_shop_decks_lie_face_down_and_the_posters_bought_face_up():
    """The shop decks and the Wanted Poster deck lie facedown ("place the Potion, Magic Emporium,
    Armoury, Pet, and Stables decks facedown beside their corresponding spaces"): every seat sees
    how many cards are left, not which; the Wanted Posters a character bought are his, faceup for
    every seat (a bounty on an alignment is claimed against the others). `hidden` made `public`, or
    `public` made `hidden`, is a mutant no scenario can catch (a scenario cannot state what a seat
    sees)."""
    g = new_game(load_program(stack("regions", "city")), 3, 0, seats=[])
    for seat in (0, 1, None):
        seen = g.view(seat)
        assert (seen["shop_deck"], seen["poster_deck"]) == (16, 7), seat
        assert all(seen[f"posters of player {p}"] == [] for p in (1, 2, 3)), seat
