"""The Highland (rulesets/talisman_highland): what its scenarios cannot state, what each seat sees.
Its rules' citations: tests/games/test_talisman_regions_coverage.py; its stacking and generated
code: tests/games/test_talisman_regions.py; its scenarios: tests/play/test_scenarios.py."""
from __future__ import annotations

from pathlib import Path

from interpreter.api import load_program
from interpreter.engine.factory import new_game
from interpreter.runtime.values import ZoneRef

ROOT = Path(__file__).resolve().parents[2]


def test_the_relic_deck_lies_face_down():
    """The Relics are drawn unseen (rulebook: "Characters who kill the Eagle King and gain a Relic
    Card must randomly draw one card from the Relic deck"), so every seat sees only how many are
    left there, not which: `hidden` made `public` is a mutant no scenario can catch (a scenario
    cannot state what a seat sees)."""
    g = new_game(load_program(f"{ROOT}/rulesets/talisman --with {ROOT}/rulesets/talisman_highland"), 3, 0, seats=[])
    left = len(g.state.zones[ZoneRef("relic_deck", None).key])
    assert left == 4
    for seat in (0, 1, None):
        seen = g.view(seat)
        assert isinstance(seen["relic_deck"], int) and seen["relic_deck"] == left, seat


def test_the_region_deck_lies_face_down_and_its_discard_pile_open():
    """rulesets/talisman_regions: a Region's cards are drawn unseen from its deck (TA-409: "always
    draws from that expansion's deck"), so every seat sees only how many are left there, while the
    discard pile is open: `hidden` made `public` on `region_deck` is a mutant no scenario can catch."""
    g = new_game(load_program(f"{ROOT}/rulesets/talisman --with {ROOT}/rulesets/talisman_highland"), 3, 0, seats=[])
    left = len(g.state.zones[ZoneRef("region_deck", None).key])
    assert left > 0
    for seat in (0, 1, None):
        seen = g.view(seat)
        assert isinstance(seen["region_deck"], int) and seen["region_deck"] == left, seat
        assert isinstance(seen["region_discard"], list), seat
