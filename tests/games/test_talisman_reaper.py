"""The Reaper (rulesets/talisman_reaper): what its scenarios cannot state, what each seat sees.
Its rules' citations: tests/games/test_talisman_figures_coverage.py; its generated code:
tests/games/test_talisman_mods_direct.py; its scenarios: tests/play/test_scenarios.py."""
from __future__ import annotations

from pathlib import Path

from interpreter.api import load_program
from interpreter.engine.factory import new_game
from interpreter.runtime.values import ZoneRef

ROOT = Path(__file__).resolve().parents[2]


def test_the_genies_spells_are_seen_by_no_one():
    """FAQ (TA-522): "Q3: Can the Prophetess look at the Genie's Spells? A: No." The Genie's Spells
    lie apart, face down (genie_and_guardians.rules: no one looks at them, the Prophetess neither):
    every seat sees how many he has left, not which; his holder learns one as it is offered to him.
    `hidden` made `public` on genie_and_guardians.rules:13 is a mutant no scenario can catch (a
    scenario cannot state what a seat sees)."""
    g = new_game(load_program(ROOT / "rulesets" / "talisman_reaper"), 3, 0, seats=[])
    deck = g.state.zones[ZoneRef("spell_deck", None).key]
    genie = g.state.zones[ZoneRef("genie_spells", None).key]
    genie.extend(deck[:3])                                    # as genie_draw() leaves them
    del deck[:3]
    for seat in (0, 1, 2, None):
        seen = g.view(seat)
        assert isinstance(seen["genie_spells"], int) and seen["genie_spells"] == 3, seat
