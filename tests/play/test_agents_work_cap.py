"""MCTS playouts are cut by the rules' work as well as by their number of decisions
(`max_playout_work`, on in `--agents mcts`): a ruleset whose decisions set off long rules gets
shorter playouts, so one search costs about the same everywhere, and the count is the engine's
own (`Limits.max_work`), the same on any machine."""
from __future__ import annotations

from interpreter.engine.factory import new_game
from interpreter.play.agents import MCTS_DEFAULT_BUDGET, MCTSAgent, default_mcts
from rulekit import build

BUSY = """
player stat pos: 0..999
turn:
    you chooses x from ["one", "two"] "Step"
    set pos of you to pos of you + (1 if x == "one" else 2) + count(1..400) - 400
    if turn_number >= 60:
        end game
score p: pos of p
"""


def playout_lengths(program, **budget) -> list[int]:
    """Decisions played by each playout of one search at the first decision (after the first,
    each playout's copy is the one the agent keeps: `_spare`)."""
    g = new_game(program, 2, 0)
    agent = MCTSAgent(1, iterations=4, max_playout=30, **budget)
    out = []
    real = agent._iterate

    def counted(game, seat, root):
        real(game, seat, root)
        out.append(agent._spare.decisions_made - game.decisions_made)

    agent._iterate = counted
    agent.choose(g, g.decision)
    return out


def test_a_playout_stops_once_its_rules_did_the_work_allowed(tmp_path):
    """Each decision here visits 400 items: with 1,000 items allowed a playout stops after 3
    decisions, without a cap after 30; the game's own limits are not touched."""
    program = build(tmp_path, BUSY)
    assert playout_lengths(program) == [30] * 4
    assert playout_lengths(program, max_playout_work=1_000) == [3] * 4


def test_the_default_budget_caps_the_work():
    assert default_mcts(0).max_playout_work == MCTS_DEFAULT_BUDGET["max_playout_work"] == 50_000
