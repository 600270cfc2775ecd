"""`roll` fires `rolled` on each die in turn; where no trigger answering it may change what decides
which triggers answer, the generated code finds them for all the dice in one call
(`Runtime.fired_all`; analysis/effects.py `answers_in_one_pass`). These tests hold the two ways
to the same games, and keep the order of one die after another where a trigger changes what
the next die's condition reads.
"""
from __future__ import annotations

from typing import Any

import pytest

from interpreter.api import load_program
from interpreter.analysis.effects import answers_in_one_pass
from interpreter.engine import directstmts
from interpreter.engine.direct import compile_direct
from interpreter.engine.directgame import DirectGame
from interpreter.engine.factory import new_game

from rulekit import ruleset

HEADER = """
game "Dice":
    players 1..4
player stat gold: 0..20 = 3
player stat marks: 0..20 = 0
zone cup: set, shared, public
die type D3: 1..3, 3 dice
setup:
    move all_cards() to cup
"""

TURN = """
turn:
    roll cup
    you choose any again from cup "Again"
    roll again
    if turn_number >= 6:
        end game
score p: gold of p + marks of p
"""

# the condition reads the face only; the body changes a stat: one pass
FACE = HEADER + """
when rolled(d) if d.face == 3:
    you gain 2 gold
    your marks += d.face
""" + TURN

# the condition reads the stat the body changes: one die after another
STAT = HEADER + """
when rolled(d) if gold of you < 5:
    you gain 3 gold
""" + TURN

# the body moves cards: a `whenever` card's place decides whether it answers
MOVES = HEADER + """
zone aside: set, shared, public
when rolled(d) if d.face == 1:
    move d to aside
""" + TURN


def _games(tmp_path, rules: str, players: int, seed: int, rolls: list | None = None) -> list[Any]:
    """The same game with the code as generated, and with every roll firing die by die."""
    out = []
    for one_pass in (True, False):
        program = load_program(ruleset(tmp_path, rules))
        mp = pytest.MonkeyPatch()
        if not one_pass:
            mp.setattr(directstmts, "answers_in_one_pass", lambda rs, event: False)
        try:
            dp = compile_direct(program)
        finally:
            mp.undo()
        assert ("R.fired_all(" in dp.source) == (one_pass and answers_in_one_pass(program.rs, "rolled"))

        def arrange(g: Any) -> None:
            g.forced_rolls = list(rolls or [])
        out.append(DirectGame(dp, players, seed, after_setup=arrange))
    return out


def _play(g: Any, seed: int) -> None:
    k = seed
    while not g.over:
        k = (k * 7 + 3) % 11
        g.answer(k % len(g.decision.options))


def test_which_rolls_fire_in_one_pass(tmp_path):
    assert answers_in_one_pass(load_program(ruleset(tmp_path, FACE)).rs, "rolled")
    assert not answers_in_one_pass(load_program(ruleset(tmp_path, STAT)).rs, "rolled")
    assert not answers_in_one_pass(load_program(ruleset(tmp_path, MOVES)).rs, "rolled")


@pytest.mark.parametrize("rules", [FACE, STAT, MOVES], ids=["face", "stat", "moves"])
@pytest.mark.parametrize("players", [1, 3])
def test_one_pass_plays_the_games_of_one_die_after_another(tmp_path, rules, players):
    for seed in range(1, 7):
        a, b = _games(tmp_path, rules, players, seed)
        _play(a, seed)
        _play(b, seed)
        assert a.error is None and b.error is None
        assert a.state.digest() == b.state.digest() and a.log == b.log and a.result == b.result


def test_a_trigger_that_changes_what_the_next_die_reads_keeps_the_order(tmp_path):
    """Gold 3: the first die's trigger gives 3 (gold 6), and then no later die's condition
    holds. Finding all three dice's triggers first would give 12. Both forms of the code."""
    program = load_program(ruleset(tmp_path, STAT))
    for g in (DirectGame(compile_direct(program), 2, 1), new_game(program, 2, 1)):  # generators, frames
        assert g.decision is not None and g.state.pstats[0]["gold"] == 6


FAILS = HEADER + """
when rolled(d) if 6 / (d.face - 2) > 0:
    your marks += 1
""" + TURN


def test_a_condition_that_fails_on_a_later_die_fails_after_the_earlier_dice_answered(tmp_path):
    """Dice 3, 2, 3: the first die's trigger runs (a mark), then the second's condition fails
    (division by zero) — as one die after another, not before anything ran."""
    a, b = _games(tmp_path, FAILS, 2, 1, rolls=[3, 2, 3])
    for g in (a, b):
        assert g.over and g.error is not None and "zero" in str(g.error)
        assert g.state.pstats[0]["marks"] == 1
    assert (a.error.message, a.error.loc.line) == (b.error.message, b.error.loc.line)
    assert a.state.digest() == b.state.digest()
