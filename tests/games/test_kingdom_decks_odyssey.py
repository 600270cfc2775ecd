"""Enchanters' Odyssey expansion as a mod (rulesets/enchanters_odyssey): its rules are asserted by
the scenarios in tests/scenarios/enchanters_odyssey/; these tests check its decks as components,
that it stacks with the Overlords mods in any order, and that bots play it to the end."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from interpreter.api import check_path, load_program
from interpreter.sim.simulate import simulate

ROOT = Path(__file__).resolve().parents[2] / "rulesets"
BASE = ROOT / "enchanters"
ODYSSEY, OVERLORDS = ROOT / "enchanters_odyssey", ROOT / "enchanters_overlords"
WOUNDS, KINGDOMS = ROOT / "enchanters_wounds", ROOT / "enchanters_kingdoms"
NEW = ["Centaurs", "Gladiators", "Harpies", "Medusae", "Mermaids", "Mummies"]


def _stack(*mods: Path) -> str:
    return f"{BASE} --with {','.join(str(m) for m in mods)}"


def _cards(*mods: Path):
    return load_program(_stack(*mods)).rs.cards


def _kingdom(card) -> str:
    return str(card.fields.get("kingdom"))


def test_six_new_kingdoms_each_with_a_two_player_half():
    """EN-245: six new Kingdom decks, used like the others (each has "2"-marked cards)."""
    cards = [c for c in _cards(ODYSSEY) if _kingdom(c) in NEW]
    assert set(Counter(_kingdom(c) for c in cards)) == set(NEW)
    halves = Counter(_kingdom(c) for c in cards if c.fields.get("two"))
    assert all(7 <= halves[k] for k in NEW), halves


def test_enough_banners_classes_and_events_for_four_players():
    """EN-247, EN-251: 2 Banners and 2 Classes per player, 3 Events per player, at 4 players."""
    cards = _cards(ODYSSEY)
    assert sum(1 for c in cards if _kingdom(c) == "Banners") >= 8
    assert sum(1 for c in cards if _kingdom(c) == "ClassCards") >= 8
    assert sum(1 for c in cards if c.type == "EventCard") >= 12


def test_odyssey_stacks_with_the_overlords_mods_in_any_order():
    """`after` in Odyssey's header loads the Overlords mods first whatever order `--with` names."""
    want = [c.label() for c in _cards(OVERLORDS, WOUNDS, ODYSSEY)]
    assert [c.label() for c in _cards(ODYSSEY, WOUNDS, OVERLORDS)] == want
    for mods in [(ODYSSEY,), (OVERLORDS, ODYSSEY), (OVERLORDS, WOUNDS, ODYSSEY)]:
        _, content = check_path(_stack(*mods))
        assert [d for d in content.diagnostics if d.severity == "error"] == []


@pytest.mark.parametrize("mods", [(ODYSSEY,), (OVERLORDS, ODYSSEY), (OVERLORDS, WOUNDS, ODYSSEY)],
                         ids=["odyssey", "overlords+odyssey", "overlords+wounds+odyssey"])
@pytest.mark.parametrize("players", [2, 4])
def test_bots_play_odyssey_to_the_end(mods, players):
    """Random bots finish every game of each stack without a rule error."""
    report = simulate(_stack(*mods), 3, players, 5, ["random"], per_game=True, card_stats=False)
    assert report["errors"] == [] and report["completed"] == 3
