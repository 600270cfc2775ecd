"""Per-player `always` loops run only for the seats whose zones or stats changed
(analysis/playerplans.py): which loops get the plan, and that a game with the plan plays exactly as
the same game running every `always` loop in full."""
from __future__ import annotations

import pytest

from interpreter.analysis.effects import PERIOD
from interpreter.analysis.playerplans import SEAT_TURN
from interpreter.api import load_program
from interpreter.engine.factory import new_game
from interpreter.play.session import agents_for, game_seed
from rulekit import answer, build, play_trace, ruleset

PRELUDE = """\
card type Purse:
    cap: 1..9
zone box: pile, shared, hidden
zone pool: set, shared, public
zone purse: set, per player, public
player stat coins: 0..99 = 0
player stat low = 9
stat pot = 0
constant ceiling = 4
function limit(x) = first(purse of x).cap
function room(x) = limit(x) - coins of x
function shared_limit(x) = count(pool) + coins of x
function mine() = coins of you
function two(x, y) = coins of x + coins of y
function down(x, n) = 0 if n <= 0 else count(purse of x) + down(x, n - 1)
turn:
    pass
"""


def plan(tmp_path, body: str):
    """The plan `player_plan` gives the one `always` rule `body` (indented under `always:`)."""
    program = build(tmp_path, PRELUDE + "always:\n" + body)
    assert len(program.always_players) == 1
    return program.always_players[0]


@pytest.mark.parametrize("body, reads", [
    # a stat of `p` set or added to: written, so re-run when it changes (the full rule would set it back)
    ("    for each p in players:\n        set coins of p to min([coins of p, 5])\n", ("coins",)),
    ("    for each p in players:\n        if count(purse of p) > 1:\n            coins of p += 1\n",
     ("coins", "purse")),
    ("    for each p in players:\n        let n = 0\n        set n to coins of p\n        low of p -= n\n",
     ("coins", "low")),
    # rule functions given `p`, looked into through another function
    ("    for each p in players:\n        set coins of p to min([coins of p, limit(p)])\n", ("coins", "purse")),
    ("    for each p in players:\n        if room(p) < 0:\n            set coins of p to limit(p)\n",
     ("coins", "purse")),
    # whose turn it is, read only as `p != you`: only the seats whose turn began or ended run
    ("    for each p in players:\n        if p != you:\n            set coins of p to min([coins of p, limit(p)])\n",
     (SEAT_TURN, "coins", "purse")),
    ("    for each p in players:\n        if you == p and count(purse of p) > 1:\n            coins of p += 1\n",
     (SEAT_TURN, "coins", "purse")),
    # `you` read otherwise: a new turn runs it for every seat
    ("    for each p in players:\n        let q = you\n        if p != q:\n            set coins of p to 0\n",
     (PERIOD, "coins")),
    ("    for each p in players:\n        if p != you and count(purse of p) > 1:\n            set low of p to 0\n"
     "        let q = you\n        if q == p:\n            set coins of p to 0\n", (PERIOD, "coins", "low", "purse")),
])
def test_a_loop_over_the_players_that_keeps_to_its_player_gets_a_plan(tmp_path, body, reads):
    assert plan(tmp_path, body) == reads


@pytest.mark.parametrize("body", [
    # another player's stat, a shared stat, a local named like the loop variable
    "    for each p in players:\n        for each q in players:\n            set coins of q to 0\n",
    "    for each p in players:\n        set pot to coins of p\n",
    "    for each p in players:\n        coins of you += 1\n",
    "    for each p in players:\n        set p to you\n",
    # functions reading a shared zone, the active player's stat, a constant, or given two players
    "    for each p in players:\n        set coins of p to min([coins of p, shared_limit(p)])\n",
    "    for each p in players:\n        set coins of p to mine()\n",
    "    for each p in players:\n        set coins of p to min([coins of p, ceiling])\n",
    "    for each p in players:\n        set coins of p to two(p, you)\n",
    # a function calling itself: looked into only so deep (`_DEPTH`), then refused
    "    for each p in players:\n        set coins of p to down(p, 2)\n",
    # whose turn it is, but no per-player state: nothing to select seats by
    "    for each p in players:\n        if p == you:\n            set pot to 1\n",
])
def test_a_loop_reaching_beyond_its_player_runs_in_full(tmp_path, body):
    assert plan(tmp_path, body) is None


CAPS = """\
game "Caps":
    players 2..4

card type Purse:
    cap: 2..4

zone box: pile, shared, hidden
zone purse: set, per player, public
player stat coins: 0..99 = 0
player stat lowest = 99

function limit(x) = first(purse of x).cap

setup:
    move all_cards() to box
    shuffle box
    for each p in players:
        draw from box to purse of p

# outside your own turn your coins are capped by your purse; in it they may exceed it
always:
    for each p in players:
        if p != you and not (purse of p is empty):
            set coins of p to min([coins of p, limit(p)])

always:
    for each p in players:
        if coins of p < lowest of p:
            set lowest of p to coins of p

turn:
    your coins += 3
    if you may "Gain more?":
        your coins += 2
    if turn_number >= 9:
        end game after this turn

score p: coins of p * 100 + lowest of p
"""

PURSES = """\
cards:
  - {name: Small, type: Purse, cap: 2, copies: 3}
  - {name: Big, type: Purse, cap: 4, copies: 3}
"""


def _program(tmp_path, plans=None):
    program = load_program(ruleset(tmp_path, CAPS, PURSES))
    if plans is not None:
        program.always_players = plans
    return program


def test_the_caps_rule_gets_its_plan_with_the_turn_in_it(tmp_path):
    assert _program(tmp_path).always_players == [(SEAT_TURN, "coins", "purse"), ("coins", "lowest")]


@pytest.mark.parametrize("players", [2, 3])
def test_a_new_turn_caps_the_player_whose_turn_ended(tmp_path, players):
    """Nothing of the first player changes when the second player's turn begins: only whose turn
    it is. The plan must still run the loop for the first player then (a plan without the turn's
    bits, shown last, leaves them over their cap)."""
    for plans, capped in [(None, True), ([None, None], True), ([(PERIOD, "coins", "purse"), ("coins", "lowest")], True),
                          ([("coins", "purse"), ("coins", "lowest")], False)]:
        g = new_game(_program(tmp_path, plans), players, 3)
        caps = [g.rs.cards[g.state.zones[f"purse#{p}"][0]].fields["cap"] for p in range(players)]
        answer(g, 0, "yes")  # the first player ends their turn with 5 coins, over any purse's cap
        assert g.decision.player == 1  # the second player's turn has begun
        assert g.state.pstats[0]["coins"] == (caps[0] if capped else 5), plans
        answer(g, 1, "yes")  # and the second player's, the next one's begins
        assert g.decision.player == 2 % players
        assert g.state.pstats[1]["coins"] == (caps[1] if capped else 5), plans


@pytest.mark.parametrize("players", [2, 3, 4])
def test_games_with_the_plan_play_as_with_every_loop_run_in_full(tmp_path, players):
    planned, full = _program(tmp_path), _program(tmp_path, [None, None])
    for i in range(4):
        seed = game_seed(11, i)
        b = new_game(full, players, seed, seats=[])
        tb = play_trace(b, agents_for(["random"], players, seed))
        assert b.error is None, b.error
        for a in (new_game(planned, players, seed, seats=[]), new_game(planned, players, seed)):  # both forms
            ta = play_trace(a, agents_for(["random"], players, seed))
            assert a.error is None, a.error
            assert ta == tb and (a.result, a.log) == (b.result, b.log)
            assert a.state.digest() == b.state.digest()
