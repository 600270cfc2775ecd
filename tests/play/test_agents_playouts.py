"""MCTS playouts follow the ruleset's `prefer` rules (the `guided` policy) rather than uniform
random play: a move that only pays off when the player goes on sensibly is judged by how a
sensible player would go on. The game below offers a sure step or a gamble behind three doors;
the doors pay only when each is opened, which `prefer` says. Played on at random, the gamble
succeeds one time in eight and looks worse than the sure step (about 0.31 against 0.69 for the
player who moves first); played on by the preferences it always succeeds and looks better (about
0.75 against 0.25)."""
from __future__ import annotations

from interpreter.play.agents import MCTSAgent
from interpreter.engine.factory import new_game
from rulekit import build

DOORS = """
player stat pos: 0..99
turn:
    you chooses x from ["safe", "gamble"] "Pick"
    if x == "safe":
        set pos of you to 1
    else:
        let opened = 0
        repeat 3 times:
            if you may "Open the door?":
                let opened = opened + 1
        set pos of you to 5 if opened == 3 else 0
    if turn_number >= 2:
        end game
score p: pos of p
"""
PREFER = 'prefer p for "Open the door": 1 if it == true else 0\n'


def first_choices(program, seeds=range(6), **kw) -> list[str]:
    """The label each agent (one per seed) picks at the first decision."""
    out = []
    for s in seeds:
        g = new_game(program, 2, 0)
        out.append(g.decision.labels[MCTSAgent(s, **kw).choose(g, g.decision)])
    return out


def test_flat_playouts_follow_the_preferences(tmp_path):
    guided = build(tmp_path / "a", DOORS + PREFER)
    assert first_choices(guided, iterations=60, tree=False) == ["gamble"] * 6
    # the same search with uniform playouts sees the gamble fail seven times in eight
    assert first_choices(guided, iterations=60, tree=False, guided_playouts=False) == ["safe"] * 6


def test_tree_playouts_follow_the_preferences(tmp_path):
    guided = build(tmp_path / "a", DOORS + PREFER)
    plain = build(tmp_path / "b", DOORS)
    assert first_choices(guided, iterations=40) == ["gamble"] * 6
    # without `prefer` rules the playouts are uniform, and the sure step looks better
    assert first_choices(plain, iterations=40).count("safe") >= 5


def test_without_prefer_rules_playouts_draw_as_before(tmp_path):
    """A ruleset without `prefer`: the guided policy is the old uniform draw, so an agent answers
    exactly as one with guided playouts turned off (same seed, same random stream)."""
    plain = build(tmp_path, DOORS)
    for tree in (True, False):
        assert first_choices(plain, seeds=range(4), iterations=20, tree=tree) == \
            first_choices(plain, seeds=range(4), iterations=20, tree=tree, guided_playouts=False)
