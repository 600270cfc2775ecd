"""The Realm of Souls (rulesets/talisman_souls): what its scenarios cannot state, what each seat
sees. Its rules' citations: tests/games/test_talisman_souls_coverage.py; its scenarios:
tests/play/test_scenarios.py (tests/scenarios/talisman_souls)."""
from __future__ import annotations

from pathlib import Path

from interpreter.api import load_program
from interpreter.engine.factory import new_game
from interpreter.runtime.values import ZoneRef

ROOT = Path(__file__).resolve().parents[2]


def test_the_veil_deck_lies_face_down_and_its_discard_pile_open():
    """Veil cards are met only when an instruction says so (TA-793), drawn from the top of the
    Veil deck: every seat sees how many wait there, not which; a Veil card met is discarded face up
    (as the Adventure discard pile). Found by tools/mutate_rules.py: `hidden` made `public` on
    game.rules:27 passed every scenario."""
    g = new_game(load_program(ROOT / "rulesets" / "talisman_souls"), 3, 0, seats=[])
    waiting = len(g.state.zones[ZoneRef("veil_deck", None).key])
    assert waiting > 0
    for seat in (0, 1, None):
        seen = g.view(seat)
        assert isinstance(seen["veil_deck"], int) and seen["veil_deck"] == waiting, seat
        assert isinstance(seen["veil_discard"], list), seat
