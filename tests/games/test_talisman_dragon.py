"""Talisman's Dragon mod, what the seats see: the dragon token pool and the Dragon deck lie
facedown (every seat sees only how many cards they hold); the Draconic Lords' cards, the scales on
them and a character's claimed scales lie open. Found by tools/mutate_rules.py: `hidden` made
`public` on the Dragon deck passed every scenario (a scenario reads the state, not a seat's view).
No rule IDs in these docstrings: tests/games/test_talisman.py reads the docstrings of
test_talisman*.py files as base-game citations."""
from __future__ import annotations

from pathlib import Path

from interpreter.api import load_program
from interpreter.content.stack import stack_path
from interpreter.engine.factory import new_game

ROOT = Path(__file__).resolve().parents[2]


def test_the_pool_and_the_dragon_deck_lie_face_down_the_lords_and_scales_open():
    stack = stack_path(str(ROOT / "rulesets" / "talisman"), [str(ROOT / "rulesets" / "talisman_dragon")])
    g = new_game(load_program(stack), 2, 0, seats=[])
    for seat in (0, 1, None):
        seen = g.view(seat)
        for zone in ("dragon_pool", "dragon_deck"):
            assert isinstance(seen[zone], int) and seen[zone] > 0, (seat, zone)
        for zone in ("lords", "lord_scales", "dragon_gone", "scales of player 1"):
            assert isinstance(seen[zone], list), (seat, zone)
