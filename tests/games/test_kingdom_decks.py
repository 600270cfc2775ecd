"""Enchanters' Overlords expansion content as mods: the Wound deck (rulesets/enchanters_wounds) and
the eight Kingdom decks (rulesets/enchanters_kingdoms). The rules themselves are asserted by the
scenarios in tests/scenarios/enchanters_wounds/ and tests/scenarios/enchanters_kingdoms/; these
tests check the decks as components and that the mods stack in any order and play to the end."""
from __future__ import annotations

from collections import Counter
from pathlib import Path
from statistics import mean

import pytest

from interpreter.api import check_path, load_program
from interpreter.engine.factory import new_game
from interpreter.sim.simulate import simulate

ROOT = Path(__file__).resolve().parents[2] / "rulesets"
BASE = ROOT / "enchanters"
WOUNDS, KINGDOMS, OVERLORDS = ROOT / "enchanters_wounds", ROOT / "enchanters_kingdoms", ROOT / "enchanters_overlords"
NEW = ["Angels", "DarkElves", "Demons", "Fairies", "Golems", "Mages", "Slimes", "Troglodytes"]


def _stack(*mods: Path) -> str:
    return f"{BASE} --with {','.join(str(m) for m in mods)}"


def _cards(*mods: Path):
    return load_program(_stack(*mods)).rs.cards


def _field(card, name):
    """A card's field value (the loaded card keeps them in `fields`)."""
    return card.fields.get(name)


def test_each_new_kingdom_deck_has_25_cards_with_a_two_half():
    """Each Kingdom deck is 25 cards (the component list), and has "2"-marked cards for 2 players."""
    cards = [c for c in _cards(KINGDOMS) if str(_field(c, "kingdom")) in NEW and c.type != "Village"]
    per = Counter(str(_field(c, "kingdom")) for c in cards)
    assert per == {k: 25 for k in NEW}
    halves = Counter(str(_field(c, "kingdom")) for c in cards if _field(c, "two"))
    assert all(10 <= halves[k] <= 15 for k in NEW), halves


def test_each_new_kingdom_has_its_village():
    """The rulebook names each deck's home (Angels: Sun Tower, ...): one Village card per new Kingdom."""
    villages = Counter(str(_field(c, "kingdom")) for c in _cards(KINGDOMS) if c.type == "Village")
    assert all(villages[k] == 1 for k in NEW) and sum(villages.values()) == 16


def test_the_wound_deck_has_25_cards():
    """EN-215: Wound cards form their own stack: the Wound deck, 25 cards, dealt to no Kingdom."""
    wounds = [c for c in _cards(WOUNDS) if c.type == "Wound"]
    assert len(wounds) == 25


def test_the_wound_deck_is_face_down_and_the_wound_stacks_are_open():
    """EN-211, EN-215: the Wound cards drawn are random, so the Wound deck is face down: every seat
    (and a spectator) sees how many cards it holds (all 25 after setup), not which. A player's Wound
    cards are kept "in the same manner as Item or Enchantment Cards", open on the table: every seat
    sees them as cards. Reading: the Wound cards discarded lie open, as the base game's graveyard
    does. Found by tools/mutate_rules.py: the deck made public, the discard hidden, passed
    every test."""
    g = new_game(load_program(_stack(WOUNDS)), 2, 1)
    for answer in ["Standard", "Bandits", "Cultists", "Gnolls", "Goblins"]:  # the base game's setup
        g.answer(g.decision.labels.index(answer))
    assert g.error is None and g.state.turn_number > 0
    for seat in (None, 0, 1):
        seen = g.view(seat)
        assert seen["wound_deck"] == 25, seat
        assert isinstance(seen["wound_cards of player 1"], list), seat
        assert isinstance(seen["wound_cards of player 2"], list), seat
        assert isinstance(seen["wound_discard"], list), seat


def test_golem_monsters_are_the_most_durable():
    """EN-233: Golem Monsters are very durable: their mean health is above every other deck's."""
    monsters = [c for c in _cards(KINGDOMS) if c.type == "Monster"]
    health = {k: mean(_field(c, "health") for c in monsters if str(_field(c, "kingdom")) == k)
              for k in {str(_field(c, "kingdom")) for c in monsters}}
    assert max(health, key=health.get) == "Golems", health


def test_every_demon_monster_is_worth_negative_glory():
    """EN-227: every Demon Monster card is worth negative Glory Points (the Dragon is no Monster card)."""
    demons = [c for c in _cards(KINGDOMS) if c.type == "Monster" and str(_field(c, "kingdom")) == "Demons"]
    assert len(demons) == 12 and all(_field(c, "glory") < 0 for c in demons)


def test_the_mods_stack_in_any_order_as_the_same_game():
    """`after` in the headers fixes the order: Overlords, then the Wound deck, then the Kingdoms,
    whatever order `--with` names them in; and no mod conflicts with another."""
    want = [c.label() for c in _cards(OVERLORDS, WOUNDS, KINGDOMS)]
    assert [c.label() for c in _cards(KINGDOMS, WOUNDS, OVERLORDS)] == want
    assert [c.label() for c in _cards(WOUNDS, KINGDOMS, OVERLORDS)] == want
    for mods in [(WOUNDS,), (KINGDOMS,), (WOUNDS, KINGDOMS), (OVERLORDS, WOUNDS, KINGDOMS)]:
        _, content = check_path(_stack(*mods))
        assert [d for d in content.diagnostics if d.severity == "error"] == []


@pytest.mark.parametrize("mods", [(WOUNDS,), (KINGDOMS,), (OVERLORDS, WOUNDS, KINGDOMS)],
                         ids=["wounds", "kingdoms", "overlords+wounds+kingdoms"])
@pytest.mark.parametrize("players", [2, 4])
def test_bots_play_the_mods_to_the_end(mods, players):
    """Random bots finish every game of each stack without a rule error."""
    report = simulate(_stack(*mods), 3, players, 5, ["random"], per_game=True, card_stats=False)
    assert report["errors"] == [] and report["completed"] == 3
