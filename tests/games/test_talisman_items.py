"""Talisman, combat and items (second pass): rules a scenario cannot state well — what other
players see, what characters start with — and a psychic attack tried both ways."""
from __future__ import annotations

from typing import Any
from pathlib import Path

import pytest

from interpreter.api import load_program
from interpreter.play.scenario import run_scenario
from interpreter.runtime.values import ZoneRef
from interpreter.engine.factory import new_game

ROOT = Path(__file__).resolve().parents[2]
RULESET = ROOT / "rulesets" / "talisman"


@pytest.fixture(scope="module")
def program():
    return load_program(RULESET)


def cards(g: Any, name: str, owner: int | None = None):
    return [g.cards[i] for i in g.state.zones[ZoneRef(name, owner).key]]


def test_objects_and_followers_are_faceup(program):
    """TA-185 a character's Objects and TA-196 his Followers are kept faceup: every other player
    sees them, card by card (his Spells, by contrast, show only as a count, TA-209)."""
    g = new_game(program, 3, 5, seats=[])
    holder, other = 0, 1
    view = g.view(other)
    for zone in ("objects", "followers"):
        assert program.rs.zones[zone].visibility == "public"
        shown = view[str(ZoneRef(zone, holder))]
        assert isinstance(shown, list) and len(shown) == len(cards(g, zone, holder))
    assert view[str(ZoneRef("spells", holder))] == len(cards(g, "spells", holder))


@pytest.mark.parametrize("seed", range(6))
def test_only_some_characters_start_with_spells(program, seed):
    """TA-206 only characters whose special abilities say so start with Spells (the Hero card's
    `spells`: Druid, Priest, Prophetess, Sorceress 1, Wizard 2); the others start with none."""
    g = new_game(program, 6, seed, seats=[])
    for p in range(6):
        hero = cards(g, "hero", p)[0]
        held = len(cards(g, "spells", p))
        assert held == hero.fields["spells"], (hero.name, held)
    assert any(len(cards(g, "spells", p)) == 0 for p in range(6))      # six of 14: some start with none


SCENARIO = """
name: "the Sorceress attacks another character by psychic combat; no Armour saves the loser"
covers: [TA-174]
ruleset: RULESET
players: 2
seed: 3
setup:
  start_player: 1
  zones:
    "hero of 1": [Sorceress]
    "hero of 2": [Monk]
    "objects of 1": []
    "objects of 2": ["Helmet:Adventures"]
    "followers of 2": []
    "spells of 1": []
    "spells of 2": []
  stats: {"lives of 1": 4, "fate of 1": 0, "alignment of 1": Evil, "gold of 1": 1,
          "lives of 2": 4, "fate of 2": 0, "alignment of 2": Good, "gold of 2": 0,
          "at of 1": {card: Tavern}, "at of 2": {card: "The Fields:8"}}
rolls: [1, 4, 3]
choices:
  - 0
  - "player 2"
  - expect:
      decision: {player: 1, prompt: "Attack him, or use your ability?"}
  - WAY
  - expect:
      decision: {player: WINNER, prompt: "Take which reward?"}
  - "a life"
expect:
  stats: {"lives of 1": LIVES1, "lives of 2": LIVES2}
"""


@pytest.mark.parametrize("way, winner, lives1, lives2",
                         [("attack by psychic combat", 1, 4, 3), ("attack", 2, 3, 4)])
def test_psychic_attack_by_ability(tmp_path, way, winner, lives1, lives2):
    """TA-174 a character whose special ability allows it (the Sorceress) may attack another
    character by psychic combat, Craft against Craft: she rolls 4, the Monk 3; by psychic combat
    4 + 4 = 8 against 3 + 3 = 6 — she wins and takes a life, which the Monk's Helmet cannot save
    (TA-176); by battle 4 + 2 = 6 against 3 + 5 (Strength and his inner belief) — the Monk wins."""
    text = SCENARIO.replace("RULESET", str(RULESET)).replace("WAY", f'"{way}"').replace("WINNER", str(winner)) \
        .replace("LIVES1", str(lives1)).replace("LIVES2", str(lives2))
    path = tmp_path / "psychic.yaml"
    path.write_text(text, encoding="utf-8")
    res = run_scenario(path)
    assert res.passed, res.format()
