"""The Clockwork Kingdom (rulesets/talisman_clockwork): what its scenarios cannot state, what each
seat sees. Its scenarios: tests/play/test_scenarios.py (tests/scenarios/talisman_clockwork)."""
from __future__ import annotations

from pathlib import Path

from interpreter.api import load_program
from interpreter.engine.factory import new_game
from interpreter.runtime.values import ZoneRef

ROOT = Path(__file__).resolve().parents[2]


def test_the_material_deck_lies_face_down_and_its_discard_pile_open():
    """"Material cards are drawn from the Material deck" (TA-816), from the top: every seat sees
    how many wait there, not which; the Materials discarded by crafting (TA-819) lie face up, as
    the Adventure discard pile does."""
    g = new_game(load_program(ROOT / "rulesets" / "talisman_clockwork"), 3, 0, seats=[])
    waiting = len(g.state.zones[ZoneRef("material_deck", None).key])
    assert waiting > 0
    for seat in (0, 1, None):
        seen = g.view(seat)
        assert isinstance(seen["material_deck"], int) and seen["material_deck"] == waiting, seat
        assert isinstance(seen["material_discard"], list), seat
