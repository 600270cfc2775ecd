"""The Enchanters expansions stacked together (docs/modding.md, Stacking the Enchanters expansions):
the Kingdom decks, Odyssey and EastQuest each *extend* the base's card types, its list of Kingdoms
and the monsters' health and strength bonuses, so all five mods load as one game in any `--with`
order, validate clean and play to the end (solo against the Automa included). The combined rules
(a Slime monster in Odyssey's Desert) are asserted by
tests/scenarios/enchanters_odyssey/desert_and_slimes_stacked.yaml."""
from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.api import check_path, load_program
from interpreter.sim.simulate import simulate

ROOT = Path(__file__).resolve().parents[2] / "rulesets"
BASE = ROOT / "enchanters"
KINGDOMS, ODYSSEY, EAST = ROOT / "enchanters_kingdoms", ROOT / "enchanters_odyssey", ROOT / "enchanters_eastquest"
OVERLORDS, WOUNDS = ROOT / "enchanters_overlords", ROOT / "enchanters_wounds"
ALL = (KINGDOMS, ODYSSEY, EAST, OVERLORDS, WOUNDS)


def _stack(*mods: Path) -> str:
    return f"{BASE} --with {','.join(str(m) for m in mods)}"


def test_the_expansions_stack_in_any_order_as_one_game_that_validates_clean():
    """The `after` lines order the layers; each mod's additions are all there, in that order."""
    rs, content = check_path(_stack(*ALL))
    assert content.diagnostics == []  # not even a warning: no card of one mod shares another's name
    assert content.layers == ["enchanters", "enchanters_overlords", "enchanters_wounds", "enchanters_kingdoms",
                              "enchanters_odyssey", "enchanters_eastquest"]
    reverse = load_program(_stack(*reversed(ALL))).rs
    assert [c.label() for c in reverse.cards] == [c.label() for c in rs.cards]
    kingdoms = [i.id for i in rs.constants["kingdoms"].value.items]
    assert len(kingdoms) == len(set(kingdoms)) == 8 + 8 + 6 + 6
    assert kingdoms[8:10] == ["Angels", "DarkElves"] and kingdoms[-1] == "Samurai"
    monster = {f.name: f for f in rs.card_types["Monster"].fields_}
    assert {"grows", "reach", "pearl", "stationary", "ignore"} <= set(monster)  # one field of each mod
    assert monster["glory"].type.kind == "basic_type"  # Kingdoms: any number (Demons); the base: 0..20
    assert (monster["health"].type.lo, monster["health"].type.hi) == (1, 30)  # the base's: EastQuest's Mythic monsters (up to 18) fit it


@pytest.mark.parametrize("mods", [(KINGDOMS, ODYSSEY), (ODYSSEY, EAST), (EAST, KINGDOMS)],
                         ids=["kingdoms+odyssey", "odyssey+eastquest", "eastquest+kingdoms"])
def test_each_pair_of_expansions_validates_without_errors(mods):
    _, content = check_path(_stack(*mods))
    assert [d for d in content.diagnostics if d.severity == "error"] == []


@pytest.mark.parametrize("players", [1, 2, 4])
def test_bots_play_the_whole_stack_to_the_end(players):
    """Random bots finish games of base + all five mods without a rule error (1: the solo game)."""
    report = simulate(_stack(*ALL), 2, players, 3, ["random"], per_game=True, card_stats=False)
    assert report["errors"] == [] and report["completed"] == 2
