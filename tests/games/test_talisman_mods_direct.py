"""Talisman mods compile to generated code in its three forms (plain generators; copyable, for
search agents; observed, for scenarios and sessions), the only engine (issue 16): the six with
roaming figures, Omens, Souls and dragon tokens (reaper, bloodmoon, harbinger, souls, beasts,
dragon), the Clockwork Kingdom, the Deep Realms (a Region mod stacked on the City and the Dungeon
by its `extends`) and the Cataclysm (a board replaced). tests/play/test_scenarios.py runs every
one of their scenarios (the observed form). Here each mod also plays the same game in the plain
and the copyable form (2 players, one seed: the compile, seconds of CPU, is the cost)."""
from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.api import load_program
from interpreter.engine.direct import compile_direct
from interpreter.engine.resumablegame import compile_resumable
from rulekit import same_games_in_both_forms

ROOT = Path(__file__).resolve().parents[2]
MODS = ["talisman_beasts", "talisman_bloodmoon", "talisman_cataclysm", "talisman_clockwork", "talisman_deeprealms",
        "talisman_dragon", "talisman_harbinger", "talisman_reaper", "talisman_souls"]


@pytest.mark.parametrize("mod", MODS)
def test_mod_plays_the_same_game_in_both_forms_of_generated_code(mod):
    program = load_program(ROOT / "rulesets" / mod)
    compile_resumable(compile_direct(program))  # raises Unsupported if either form cannot be made
    same_games_in_both_forms(program, players=(2,), games=1)
