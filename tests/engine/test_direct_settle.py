"""State-based rules that stop for a decision, on the direct engine (direct.py `settle_body`).

An `always` rule or `as soon as` watcher whose body asks (choose, may, a procedure call, a
`fire`) makes `_settle` a generator: the rule's question is asked where the task engine's
`SettleTask` asks it, before the statement after the change, and the game goes on from there.
Checked against the task engine (the oracle): the same questions with the same labels, the same
log, result and final state, for random and first agents, and the resumable form plays the same
game and can be copied in the middle of settling.
"""
from __future__ import annotations

from collections import Counter

import pytest

from interpreter.engine.factory import new_game
from interpreter.api import load_program
from interpreter.engine.direct import compile_direct
from interpreter.engine.directgame import DirectGame
from interpreter.play.session import agents_for, game_seed
from rulekit import CHIPS, copies_play_alike, play_trace as _play, ruleset

ASKS = """\
game "Settle asks":
    players 2..4

card type Chip:
    value: 1..3

zone deck: pile, shared, hidden
zone hand: set, per player, public
zone pool: set, shared, public
player stat score: 0..99
stat taken = 0
event rewarded

setup:
    move all_cards() to deck
    shuffle deck

procedure reward(p):
    score of p += 1
    fire rewarded

when rewarded:
    log ["rewarded", you]

always:
    for each p in players:
        while count(hand of p) > 2:
            p chooses c from hand of p "Too many: discard which?"
            move c to pool
        if count(hand of p) == 2 and sum((hand of p).value) >= 5:
            if p may "Cash in the pair?":
                move hand of p to pool
                reward(p)

as soon as count(pool) >= 4:
    taken += 1
    active_player chooses c from pool "Take one back?"
    move c to your hand

turn:
    draw from deck to your hand as c
    if you may "Draw another?":
        draw from deck to your hand as d
    if deck is empty:
        end game after this turn

score p: score of p * 10 + count(hand of p)
"""

@pytest.fixture(scope="module")
def program(tmp_path_factory):
    return load_program(ruleset(tmp_path_factory.mktemp("settle"), ASKS, CHIPS))


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("agents", ["random", "first"])
def test_a_state_based_rule_that_asks_plays_as_on_the_task_engine(program, players, agents):
    dp = compile_direct(program)
    assert dp.info["settle_stops"]
    prompts: Counter = Counter()
    for i in range(6):
        seed = game_seed(3, i)
        a, b = new_game(program, players, seed), DirectGame(dp, players, seed)
        ta = _play(a, agents_for([agents], players, seed))
        tb = _play(b, agents_for([agents], players, seed), prompts)
        assert a.error is None and b.error is None, (a.error, b.error)
        assert ta == tb
        assert (a.result, a.log) == (b.result, b.log)
        assert a.state.digest() == b.state.digest()
    if agents == "random":  # the questions the state-based rules ask were asked, and answered
        assert prompts["Too many: discard which?"] > 0 and prompts["Cash in the pair?"] > 0
        assert prompts["Take one back?"] > 0


def test_the_resumable_form_copies_a_game_while_it_settles(program):
    """A copy taken at a question a state-based rule asks plays on exactly as the original."""
    dp = compile_direct(program)
    at = lambda g, d: d.prompt in ("Too many: discard which?", "Take one back?")  # noqa: E731
    assert any([copies_play_alike(dp, 3, game_seed(4, i), at) for i in range(4)])


HOLDS = """\
game "Stats that hold things":
    players 2..4

card type Chip:
    value: 1..3
    colour: Red | Blue

zone deck: pile, shared, hidden
zone hand: set, per player, public
zone pool: set, shared, public
player stat last = none
player stat kept = []
player stat liked = none
stat leader = none
stat seen = []

setup:
    move all_cards() to deck
    shuffle deck

turn:
    draw from deck to your hand as c
    set your last to c
    set your liked to c.colour
    set seen to seen + [c]
    if c.value == 3:
        set your kept to (your kept) + [c]
        set leader to you
    if your last != none and (your last).value == 1 and count(your kept) > 0:
        you choose k from your kept "Give one back?"
        set your kept to (your kept) where it != k
        move k to pool
    if leader == you and your liked == Red:
        log [you, "leads in red with", your last]
    if deck is empty:
        end game after this turn

score p: count(kept of p) * 3 + count(hand of p where it.colour == liked of p)
"""

COLOURED = """\
cards:
  - {name: Ember, type: Chip, value: 1, colour: Red, copies: 4}
  - {name: Brand, type: Chip, value: 3, colour: Red, copies: 3}
  - {name: Drop, type: Chip, value: 1, colour: Blue, copies: 4}
  - {name: Wave, type: Chip, value: 3, colour: Blue, copies: 3}
"""


@pytest.mark.parametrize("agents", ["random", "first"])
def test_stats_holding_a_card_cards_a_player_or_text(tmp_path, agents):
    """A stat without a range may hold a card, a list of cards, a player or a text: the direct
    engine keeps what the task engine keeps (the card itself: the digests agree) and reads it
    in its kind."""
    program = load_program(ruleset(tmp_path, HOLDS, COLOURED))
    dp = compile_direct(program)
    for players in (2, 3):
        for i in range(5):
            seed = game_seed(6, i)
            a, b = new_game(program, players, seed), DirectGame(dp, players, seed)
            assert _play(a, agents_for([agents], players, seed)) == _play(b, agents_for([agents], players, seed))
            assert a.error is None and b.error is None, (a.error, b.error)
            assert (a.result, a.log) == (b.result, b.log)
            assert a.state.digest() == b.state.digest()
    assert any("leads in red" in line for line in b.log) or agents == "first"
