"""What the direct engine writes around a statement (issue 16), against the task engine (the oracle):
the same decisions, log, result and final state.

`draw from PILE`: the card drawn is the pile's top, so the generated code takes it off the list's
end without looking up where it lies (direct.py `emit_move_top`); a card with cards under it
(moved onto the pile after `place ... on`) goes by `take_any` with them. The state-based rules read
the zones drawn from (the shared deck, each player's own stash): a draw that failed to note its
source as changed would leave them unsettled.

`_settle`: the rules are marked as settling just before a body runs (`settle_function`), and a
body's trigger then settles nothing between its statements.
"""
from __future__ import annotations

import re

import pytest

from interpreter.api import load_program
from interpreter.engine.direct import compile_direct
from interpreter.engine.directgame import DirectGame
from interpreter.engine.factory import new_game
from interpreter.play.session import agents_for, game_seed
from rulekit import play_trace, ruleset

TOPS = """\
game "Draw tops":
    players 2..4

card type Chip:
    value: 1..3

zone deck: pile, shared, hidden
zone stash: pile, per player, public
zone table: set, shared, public
zone pool: pile, shared, public
stat refills = 0
player stat cashed = 0

setup:
    move all_cards() to deck
    shuffle deck

turn:
    if deck is empty or turn_number > 40:
        end game
    draw from deck to your stash as c
    log ["drew", c, (cards_under(c)).value, count(cards_under(c))]
    if count(stash of you) >= 2:
        if you may "Pass one on?":
            draw from stash of you to pool as d
            log ["passed", d, count(cards_under(d))]
    if count(table) >= 2:
        if you may "Stack the table?":
            let low = first(table)
            let high = last(table)
            place high on low
            move high to deck
    elif you may "Lay one down?":
        draw from deck to table

# reads each stash: runs after a draw from it
always:
    for each p in players:
        if count(stash of p) == 1 and (some c in stash of p has c.value == 3):
            cashed of p += 1
            move stash of p to table

# reads the deck: fires on the draw that empties it
as soon as deck is empty:
    refills += 1
    if refills < 3:
        move pool to deck
        shuffle deck

score p: cashed of p * 10 + count(stash of p) + refills
"""

CHIPS = """\
cards:
  - {name: Low, type: Chip, value: 1, copies: 5}
  - {name: Mid, type: Chip, value: 2, copies: 5}
  - {name: High, type: Chip, value: 3, copies: 4}
"""


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    return load_program(ruleset(tmp_path_factory.mktemp("tops"), TOPS, CHIPS))


def test_a_draw_takes_the_top_card_without_looking_up_where_it_lies(program):
    """Both draws (a shared pile, a player's own) are written with the pile's own `pop`."""
    pops = [line.strip() for line in compile_direct(program).source.splitlines() if line.strip().endswith(".pop()")]
    assert any(re.fullmatch(r"_z\d+\.pop\(\)", p) for p in pops), pops  # the deck
    assert any(re.fullmatch(r"_z\d+\[_a0\]\.pop\(\)", p) for p in pops), pops  # your stash


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("agents", ["random", "first"])
def test_draws_play_as_on_the_task_engine(program, players, agents):
    dp = compile_direct(program)
    covered = refilled = cashed = 0
    for i in range(8):
        seed = game_seed(7, i)
        a, b = new_game(program, players, seed), DirectGame(dp, players, seed)
        ta = play_trace(a, agents_for([agents], players, seed))
        tb = play_trace(b, agents_for([agents], players, seed))
        assert a.error is None and b.error is None, (a.error, b.error)
        assert ta == tb
        assert (a.result, a.log) == (b.result, b.log)
        assert a.state.digest() == b.state.digest()
        covered += sum(1 for line in b.log if ("drew" in line or "passed" in line) and not line.endswith(", 0"))
        refilled += b.state.stats["refills"] > 0
        cashed += sum(b.state.pstats[p]["cashed"] for p in range(players))
    if agents == "random":  # the paths were taken: a covering card drawn, the deck emptied, a stash cashed
        assert covered > 0 and refilled > 0 and cashed > 0


RINGS = """\
game "Rings":
    players 2..3

card type Chip:
    value: 1..3

zone deck: pile, shared, hidden
zone pool: set, shared, public
stat rung = 0
stat odd = 0
event ring

setup:
    move all_cards() to deck
    shuffle deck

turn:
    draw from deck to pool
    if deck is empty:
        end game

as soon as count(pool) >= 3:
    fire ring

when ring:
    rung += 1
    log ["rung", rung]
    rung += 1

# reads `rung`: never between the trigger's two steps, which run while the rules settle
always:
    if rung == 1:
        odd += 1

score p: odd * 10 + rung
"""


def test_a_body_run_while_settling_does_not_settle_inside(tmp_path):
    """`_settle` marks the rules as settling (`R.settling`) before a watcher's body runs: the
    trigger it fires checks for nothing to settle between its statements, as the task engine's
    `SettleTask` runs it; the `always` rule never sees the odd count in between."""
    program = load_program(ruleset(tmp_path, RINGS, CHIPS))
    dp = compile_direct(program)
    for players in (2, 3):
        seed = game_seed(7, players)
        a, b = new_game(program, players, seed), DirectGame(dp, players, seed)
        assert play_trace(a, agents_for(["random"], players, seed)) == \
            play_trace(b, agents_for(["random"], players, seed))
        assert a.error is None and b.error is None, (a.error, b.error)
        assert (a.result, a.log) == (b.result, b.log) and a.state.digest() == b.state.digest()
        assert b.state.stats["rung"] == 2 and b.state.stats["odd"] == 0
