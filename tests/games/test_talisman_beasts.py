"""The Ancient Beasts (rulesets/talisman_beasts): what its scenarios cannot state, what each seat
sees. Its rules' citations: tests/games/test_talisman_beasts_coverage.py; its generated code:
tests/games/test_talisman_mods_direct.py; its scenarios: tests/play/test_scenarios.py."""
from __future__ import annotations

from pathlib import Path

from interpreter.api import load_program
from interpreter.engine.factory import new_game
from interpreter.runtime.values import ZoneRef

ROOT = Path(__file__).resolve().parents[2]


def test_the_beast_deck_lies_face_down_and_the_beasts_in_play_open():
    """A Beast is put into play from the top of the Ancient Beast deck (rulebook: "draw from the
    top of the Ancient Beast deck"), so every seat sees only how many Beasts wait there; the
    Beasts in play stand on the board for all to see (found by tools/mutate_rules.py: `hidden`
    made `public` on game.rules:47 passed every test)."""
    g = new_game(load_program(ROOT / "rulesets" / "talisman_beasts"), 3, 0, seats=[])
    waiting = len(g.state.zones[ZoneRef("beast_deck", None).key])
    assert waiting > 0
    for seat in (0, 1, None):
        seen = g.view(seat)
        assert isinstance(seen["beast_deck"], int) and seen["beast_deck"] == waiting, seat
        assert isinstance(seen["beast_board"], list) and len(seen["beast_board"]) == 1, seat

