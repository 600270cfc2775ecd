"""Magical Treehouse: the rules about components, player counts and what players may see.

Rule IDs refer to the rule inventory (../shared/rules/magical_treehouse.md). Everything about
play is tested by the scenarios in tests/scenarios/magical_treehouse/ (see docs/scenarios.md);
these tests cover what a scenario cannot state well: the make-up of the card files, the zones
every player has, the hidden Personal Objective and the player counts.
"""
from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from interpreter.api import load_program
from interpreter.engine.factory import new_game

ROOT = Path(__file__).resolve().parents[2]
RULESET = ROOT / "rulesets" / "magical_treehouse"
SCENARIOS = ROOT / "tests" / "scenarios" / "magical_treehouse"
COLOURS = {"Red", "Blue", "Yellow", "Purple", "Green"}


@pytest.fixture(scope="module")
def program():
    return load_program(RULESET)


def _cards(program, type_):
    return [c for c in program.rs.cards if c.type == type_]


def test_ninety_six_planning_cards(program):
    """MT-009, MT-010, MT-011, MT-012: 96 Planning cards — 80 Treehouses in 5 colours and Levels
    1-5 (16 per colour: 5/4/3/2/2 by Level), 8 Pipes, 8 Spells; every Treehouse and Pipe has a
    Turn Order number and Treehouses show VP; higher Levels go earlier."""
    trees, pipes, spells = (_cards(program, t) for t in ("Treehouse", "Pipe", "Spell"))
    assert (len(trees), len(pipes), len(spells)) == (80, 8, 8)
    assert Counter(c.fields["color"] for c in trees) == {c: 16 for c in COLOURS}
    assert Counter(c.fields["level"] for c in trees) == {1: 25, 2: 20, 3: 15, 4: 10, 5: 10}
    assert all(c.fields["order"] >= 1 for c in trees + pipes)
    by_level = {lv: {c.fields["order"] for c in trees if c.fields["level"] == lv} for lv in range(1, 6)}
    assert all(max(by_level[lv + 1]) < min(by_level[lv]) for lv in range(1, 5))
    assert Counter(c.fields["spell"] for c in spells) == {
        "ReverseDirection": 3, "HandsOnCarriages": 2, "DiscardFromHand": 1,
        "DiscardFromPlanning": 1, "ExchangeWithStorage": 1}


def test_six_double_sided_forest_tiles(program):
    """MT-002, MT-013: the Magic Forest is 6 tiles of 3 x 3 spaces, each space with a Day and a
    Night side; the outer ring of grey edge spaces produces nothing; both sides use all five
    Ingredients."""
    spaces = _cards(program, "ForestSpace")
    assert len(spaces) == 54 and Counter(c.fields["tile"] for c in spaces) == {t: 9 for t in range(1, 7)}
    for c in spaces:
        if c.fields["edge"]:
            assert c.fields["day"] == c.fields["night"] == "NoIngredient"
    for side in ("day", "night"):
        assert {c.fields[side] for c in spaces} == {"JuicyApple", "SpiderWeb", "LightShroom",
                                                      "LizardTail", "BatFang", "NoIngredient"}


def test_objectives_and_familiars(program):
    """MT-004, MT-005, MT-008: 10 Objective tiles, 5 brown and 5 green; 40 Familiars, 10 of each
    of 4 kinds."""
    tiles = _cards(program, "Objective")
    assert Counter(c.fields["back"] for c in tiles) == {"Brown": 5, "Green": 5}
    familiars = _cards(program, "Familiar")
    assert Counter(c.fields["seat"] for c in familiars) == {1: 10, 2: 10, 3: 10, 4: 10}


def test_every_player_has_a_board_village_and_planning_area(program):
    """MT-006, MT-015: each player has a Trash Can and a deck (their board), a Village above it
    and a Planning Area below it; Trash Cans and Villages are public."""
    zones = program.rs.zones
    for name in ("trash", "deck", "village", "planning", "storage", "carriage"):
        assert zones[name].per_player
    assert zones["trash"].visibility == "public" and zones["village"].visibility == "public"


def test_player_counts(program):
    """MT-001, MT-042: the rulebook says 2-4 players but gives no 2-player setup; the ruleset
    plays 3 and 4 and refuses 2."""
    assert (program.rs.min_players, program.rs.max_players) == (3, 4)
    with pytest.raises(ValueError, match="3 to 4"):
        new_game(program, 2, 0)
    for players in (3, 4):  # both counts set up and ask a player to act
        g = new_game(program, players, 0)
        assert g.error is None and not g.over, g.error
        assert g.decision is not None and 0 <= g.decision.player < players


def test_structured_rules_by_default(program):
    """MT-049, MT-244: the Structured Rules are the default (the variant `free_for_all` is 0); the
    free-for-all variant changes only how many players act per beat of the Planning Step."""
    g = new_game(program, 3, 0)
    assert g.constants_value("free_for_all") == 0
    source = (RULESET / "game.rules").read_text(encoding="utf-8")
    assert source.count("free_for_all") == 2  # its declaration and the one line choosing movers


def test_personal_objective_is_seen_by_its_owner_only(program):
    """MT-033, MT-035: the Personal Objective lies face down: a player may look at their own;
    the others see only that there is one."""
    g = new_game(program, 3, 5)
    mine = g.view(0)["personal of player 1"]
    assert isinstance(mine, list) and len(mine) == 1 and "Objective" in mine[0]
    assert g.view(1)["personal of player 1"] == 1 and g.view(None)["personal of player 1"] == 1


def test_face_up_zones(program):
    """MT-014, MT-021, MT-081: Trash Cans, the Common Objectives and a Spell being cast are face
    up: every player sees their cards, where a hidden zone (a deck, a hand) shows only a count.
    (Scenarios cannot state what a player sees, so tools/mutate_rules.py leaves these rules to
    this test.)"""
    g = new_game(program, 3, 0)
    g.answer(0)  # the Day side
    seen = g.view(1)
    assert isinstance(seen["trash of player 1"], list) and isinstance(seen["casting"], list)
    assert len(seen["common"]) == 2 and all("Objective" in t for t in seen["common"])
    assert seen["deck of player 1"] == 24 and seen["hand of player 1"] == 8


def test_the_board_is_open_and_the_tile_stacks_are_not(program):
    """The Magic Forest's tiles (MT-016) and the Familiars on it, the Turn Order Track, a
    Treehouse being moved (MT-155) and the Familiars on each player board (MT-031) lie open on the
    table: every seat sees them as cards (a list, even when empty). The stacks of Forest tiles not
    laid, the box, the supply and the Carriages (the rest of a hand, passed on to a neighbour:
    MT-040) are face down: a seat sees only how many (a number; found by tools/mutate_rules.py for
    the box, the supply and the Carriages)."""
    g = new_game(program, 3, 0)
    g.answer(0)  # the Day side
    for seat in (1, None):
        seen = g.view(seat)
        for zone in ("terrain", "forest", "track", "lifted", "familiars of player 1", "removed"):
            assert isinstance(seen[zone], list), (seat, zone)
        for zone in ("green_tiles", "brown_tiles", "leftover", "deck of player 1", "box", "supply",
                     "carriage of player 1", "carriage of player 2"):
            assert isinstance(seen[zone], int), (seat, zone)
    assert g.view(1)["terrain"] and g.view(1)["familiars of player 1"]  # tiles and Familiars by name
    for zone in ("planning of player 1", "storage of player 1"):  # `owner` zones: seen by their owner alone
        assert isinstance(g.view(0)[zone], list) and isinstance(g.view(1)[zone], int), zone


def test_every_rule_is_covered():
    """Every rule of the inventory named in the game's `source` line (MT-001..MT-253) is cited
    by a scenario's `covers:` list or by a docstring in this file, except the rules the ruleset
    does not model (listed here, with the reason)."""
    not_modelled = {
        "MT-018": "a recommendation for a first game: the players choose the side",
        "MT-024": "a recommendation for a first game: the green Common Objective is random",
        "MT-045": "the youngest player: ages are not modelled, a tie on VP and Biscuits is shared",
        "MT-060": "not looking at the hand before Start: decisions are only asked once play starts",
        "MT-066": "the oldest player calling Start: there is no clock, play starts at once",
        "MT-124": "stalls: every player still planning acts in every beat, so nobody waits",
    }
    source = (RULESET / "game.rules").read_text(encoding="utf-8")
    first, last = map(int, re.search(r"source \"[^\"]*MT-(\d+)\.\.MT-(\d+)", source).groups())
    cited: set[str] = set()
    for f in SCENARIOS.glob("*.yaml"):
        cited.update(YAML(typ="safe").load(f.read_text(encoding="utf-8")).get("covers", []))
    for test in [v for k, v in globals().items() if k.startswith("test_") and k != "test_every_rule_is_covered"]:
        cited.update(re.findall(r"MT-\d{3}", test.__doc__ or ""))
    missing = [f"MT-{i:03d}" for i in range(first, last + 1)
               if f"MT-{i:03d}" not in cited and f"MT-{i:03d}" not in not_modelled]
    assert not missing, f"rules no scenario or test covers: {missing}"
    unknown = sorted(r for r in cited if not first <= int(r[3:]) <= last)
    assert not unknown, f"covers: unknown rule IDs {unknown}"
