"""The generated code's text constants and the state's keys (zone and stat names, a player's
zone key), card types and die faces are each the one object of their text (`sys.intern`), so the
state's maps find a constant's key by identity, not by comparing characters (about 1% of a dice
game's instructions). Nothing else depends on it: this guards the speed only."""
from __future__ import annotations

from interpreter.api import load_program
from interpreter.engine.direct import compile_direct
from interpreter.engine.factory import new_game
from rulekit import ruleset

RULES = """
game "Names":
    players 2
card type Tok:
    value: 1..9
die type Cube: Low | High, 1 dice
zone pool_of_tokens: pile
zone hand_of_tokens: set, per player, owner
player stat gold_pieces = 0
setup:
    move all_cards() where it is Tok to pool_of_tokens
turn:
    roll all_cards() where it is Cube
    your gold_pieces += 1
    if count(all_cards() where it is Cube and it.face == Low) > 5 or your gold_pieces > 1:
        end game
"""
CARDS = "- {name: T1, type: Tok, value: 1}\n"


def test_constants_and_state_keys_are_the_same_objects(tmp_path):
    program = load_program(ruleset(tmp_path, RULES, CARDS))
    dp = compile_direct(program)
    g = new_game(program, 2, 0)
    consts = {k: k for k in dp.K if type(k) is str}
    for key in list(g.state.zones) + list(g.state.pstats[0]) + list(g.R.types) + \
            [f for faces in program.die_faces.values() for f in faces]:
        if key in consts:
            assert consts[key] is key, key
    assert "gold_pieces" in consts and "pool_of_tokens" in consts and "Tok" in consts and "Low" in consts
    assert g.R.player_keys("hand_of_tokens")[1] is next(k for k in g.state.zones if k == "hand_of_tokens#1")
