"""The tutorial game's own tests (docs/tutorial.md), beside its scenarios in
rulesets/tutorial_fireflies/scenarios (run by tests/test_docs.py): what a scenario cannot state —
who may see which zone."""
from __future__ import annotations

from pathlib import Path

from interpreter.api import load_program
from interpreter.engine.factory import new_game

ROOT = Path(__file__).resolve().parents[2]
RULESET = ROOT / "rulesets" / "tutorial_fireflies"


def test_the_deck_is_face_down_and_everything_else_is_open():
    """"shuffled into one face-down deck"; the jar, the discard pile, the card just turned up and
    every player's catch are on the table for all to see."""
    g = new_game(load_program(RULESET), 2, 1)
    g.answer(0)  # catch another: the jar, the revealed card and the deck all hold something
    for seat in (0, 1, None):
        view = g.view(seat)
        assert isinstance(view["deck"], int) and view["deck"] > 0          # only its size
        for zone in ("revealed", "jar", "discard", "catch of player 1", "catch of player 2"):
            assert isinstance(view[zone], list), (seat, zone)
    assert new_game(load_program(RULESET), 2, 1).view(0)["jar"]                 # a card shows by name

