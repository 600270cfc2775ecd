"""MCTS's prior (`MCTSAgent(prior=...)`, on in `--agents mcts`): the move the `prefer` rules rate
highest gets a bonus that fades with its visits (progressive bias). With a small budget and
playouts that cannot tell the moves apart, the search follows the designer's rule instead of
its noise; where the playouts clearly disagree, the search still wins over the rule."""
from __future__ import annotations

from interpreter.play.agents import MCTS_DEFAULT_BUDGET, MCTSAgent, default_mcts
from interpreter.engine.factory import new_game
from rulekit import build

# "left" and "right" lead to the same game: playouts cannot tell them apart. Picking "win" wins
# outright: playouts can tell that one.
COIN = """
player stat pos: 0..99
turn:
    you chooses x from ["left", "right", "win"] "Pick"
    if x == "win":
        set pos of you to 50
    else:
        set pos of you to 1
    if turn_number >= 2:
        end game
score p: pos of p
"""


def picks(program, prior: float, seeds=range(12)) -> list[str]:
    """The label each agent (one per seed) picks at the first decision, 10 playouts each."""
    out = []
    for s in seeds:
        g = new_game(program, 2, 0)
        out.append(g.decision.labels[MCTSAgent(s, iterations=10, max_playout=30, prior=prior).choose(g, g.decision)])
    return out


def test_the_prior_follows_the_rule_where_playouts_are_noise(tmp_path):
    """Without "win" on offer, left and right score alike: without the prior the search picks
    either (a tie), with it the rule's favourite every time."""
    program = build(tmp_path, COIN.replace(', "win"]', "]") + 'prefer p for "Pick": 1 if it == "right" else 0\n')
    assert set(picks(program, 0)) == {"left", "right"}
    assert picks(program, 1) == ["right"] * 12


def test_playouts_that_clearly_disagree_overrule_the_prior(tmp_path):
    """A rule that prefers a plain move over a sure win: the search, prior or not, takes the win."""
    program = build(tmp_path, COIN + 'prefer p for "Pick": 1 if it == "left" else 0\n')
    assert picks(program, 1).count("win") >= 11


def test_the_batch_default_has_the_prior_and_explicit_agents_do_not():
    """`--agents mcts` searches with the prior; `MCTSAgent(...)` without it searches as before."""
    assert default_mcts(0).prior == MCTS_DEFAULT_BUDGET["prior"] > 0
    assert MCTSAgent(0).prior == 0
