"""Procedure calls in generated code (engine/directcalls.py): a procedure is a generated function
per signature, called with `yield from`, instead of its body written out at every call.

The oracle is the code generator with every call written out in place (`ProcCalls.inlined`
answering yes, as before the change): the same questions, log, result and final state, with zone
arguments (shared and per player), arguments whose kinds differ between calls, calls during setup
and from a state-based rule that asks, nested calls; and the copyable form plays the same and
can be copied inside a called procedure.
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from interpreter.api import load_program
from interpreter.engine.direct import compile_direct
from interpreter.engine.directcalls import ProcCalls
from interpreter.engine.directgame import DirectGame
from interpreter.engine.game import Limits
from interpreter.play.session import agents_for, game_seed
from rulekit import copies_play_alike, play_trace, ruleset

CALLS = """\
game "Calls":
    players 2..4

card type Chip:
    value: 1..3

zone deck: pile, shared, hidden
zone hand: set, per player, public
zone pool: set, shared, public
zone stash: pile, per player, public
player stat score: 0..99
stat moves = 0
event paid

procedure stash_from(z, p):
    if not (z is empty):
        p chooses c from z "Stash which?"
        move c to stash of p
        moves += 1

procedure pay(p, k):
    score of p += k
    fire paid

procedure both(p):
    stash_from(hand of p, p)
    pay(p, 1)

when paid:
    log ["paid", you, moves]

always:
    for each p in players:
        if count(stash of p) >= 3:
            if p may "Cash in the stash?":
                move stash of p to pool
                pay(p, 2)

setup:
    move all_cards() to deck
    shuffle deck
    for each p in players:
        move first(deck) to hand of p
        pay(p, 0)

turn:
    draw from deck to your hand as c
    pay(you, c.value)
    if you may "Take from the pool?":
        stash_from(pool, you)
    both(you)
    if count(hand of you) > 2:
        stash_from(hand of you, you)
        pay(you, 1)
    if deck is empty:
        end game after this turn

score p: score of p + count(stash of p)
"""

CHIPS = """\
cards:
  - {name: Low, type: Chip, value: 1, copies: 6}
  - {name: Mid, type: Chip, value: 2, copies: 5}
  - {name: High, type: Chip, value: 3, copies: 5}
"""


@pytest.fixture(scope="module")
def programs(tmp_path_factory):
    """The ruleset compiled with calls, and (another folder, so another program) inlined."""
    tmp = tmp_path_factory.mktemp("calls")
    called = load_program(ruleset(tmp, CALLS, CHIPS))
    compile_direct(called)
    inlined = load_program(ruleset(tmp, CALLS, CHIPS))
    mp = pytest.MonkeyPatch()
    mp.setattr(ProcCalls, "inlined", lambda self, name: True)
    try:
        compile_direct(inlined)
    finally:
        mp.undo()
    return called, inlined


def test_a_procedure_is_written_once_per_signature_and_called(programs):
    """`stash_from` is called three times, with two signatures (a player's hand, the shared
    pool): its question is written twice, not at every call; `both` (tiny, called once) is
    still written out in place."""
    called, inlined = (compile_direct(p).source for p in programs)
    assert "yield from _p" not in inlined and called.count("yield from _p") >= 7
    assert (called.count("_KCHOOSE"), inlined.count("_KCHOOSE")) == (2, 3)
    assert "yield from _p2" not in called  # `both`, the third procedure


@pytest.mark.parametrize("agents", ["random", "first"])
def test_calls_play_the_games_written_out_bodies_play(programs, agents):
    called, inlined = (compile_direct(p) for p in programs)
    prompts: Counter = Counter()
    for players in (2, 3):
        for i in range(5):
            seed = game_seed(8, i)
            a, b = DirectGame(inlined, players, seed), DirectGame(called, players, seed)
            ta = play_trace(a, agents_for([agents], players, seed))
            tb = play_trace(b, agents_for([agents], players, seed), prompts)
            assert a.error is None and b.error is None, (a.error, b.error)
            assert ta == tb
            assert (a.result, a.log) == (b.result, b.log)
            assert a.state.digest() == b.state.digest()
    assert prompts["Stash which?"] > 0
    if agents == "random":
        assert prompts["Cash in the stash?"] > 0 and prompts["Take from the pool?"] > 0


def test_the_copyable_form_copies_a_game_inside_a_called_procedure(programs):
    """The copyable form plays the same game, and a copy taken at a question asked inside a
    called procedure plays on exactly as the original."""
    dp = compile_direct(programs[0])
    at = lambda g, d: d.prompt == "Stash which?" and len(g.choices) > 4  # noqa: E731
    assert any([copies_play_alike(dp, 3, game_seed(9, i), at) for i in range(3)])


CHAIN = """\
game "Chain":
    players 2

zone deck: pile, shared, hidden
stat n = 0

procedure a():
    n += 1
    b()
    b()

procedure b():
    n += 1
    c()
    c()

procedure c():
    n += 1
    n += 1 / (n - n)

turn:
    a()
    end game
"""


def test_a_call_counts_against_the_depth_limit_and_an_error_names_the_rule(tmp_path):
    """Each call nests one level: three procedures deep passes a limit of 3 and not one of 2 (the
    error names the call); an error in a called body names its own line, as when it was
    written out."""
    folder = ruleset(tmp_path, CHAIN)
    dp = compile_direct(load_program(folder))
    g = DirectGame(dp, 2, 1, limits=Limits(max_depth=2))
    assert g.error is not None and "deeper than 2" in g.error.message
    assert g.error.loc.line == 14  # the call that went too deep, as when its body was written out
    g = DirectGame(dp, 2, 1, limits=Limits(max_depth=3))
    assert g.error is not None and "division by zero" in g.error.message
    assert (Path(g.error.loc.file).name, g.error.loc.line) == ("game.rules", 19)
