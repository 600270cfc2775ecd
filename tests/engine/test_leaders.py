"""`DirectGame.leaders()`: the seats that would win if the game ended now, as `scores()`'s
winners, with the tiebreaks worked out only for the seats tied at the top score (a search asks it
at every playout it cuts: `agents._cut_values`)."""
from __future__ import annotations

import random

import pytest

from golden_games import ROOT
from interpreter.api import load_program
from interpreter.engine.factory import new_game
from interpreter.play.agents import _cut_values, _outcome
from rulekit import build


@pytest.mark.parametrize("name,players", [("stonehenge_wizards", 4), ("stonehenge_wizards", 1),
                                          ("toil_and_troublez", 3), ("magical_treehouse", 3),
                                          ("enchanters", 2)])
def test_the_leaders_are_the_winners_of_the_scores_at_every_decision(name, players):
    """Random play, compared at each of the first 150 decisions (ties at the top, broken by the
    tiebreaks or shared, come up in these: the dice game's players start level)."""
    program = load_program(ROOT / "rulesets" / name)
    for seed in (1, 2):
        g = new_game(program, players, seed)
        rng = random.Random(seed)
        ties = 0
        for _ in range(150):
            if g.over:
                break
            want = g.scores()["winners"]
            assert g.leaders() == want
            if g.values() is None:  # (a ruleset with a `value` rule scores a cut playout by it)
                assert _cut_values(g) == [_outcome({"winners": want}, p) for p in range(len(g.seats))]
            scores = g.scores()["scores"]
            ties += scores.count(max(scores)) > 1
            g.answer(rng.randrange(len(g.decision.options)))
        if name == "stonehenge_wizards":
            assert ties  # (the tiebreaks were asked)


TIES = """
player stat vp: 0..99
player stat gems: 0..99
turn:
    you chooses x from ["one", "two"] "Step"
    if x == "one":
        you gain 1 vp
    else:
        you gain 1 gems
score p: vp of p
tiebreak p: gems of p
tiebreak p: 0 - vp of p
"""


def test_the_tiebreaks_decide_only_among_the_seats_level_at_the_top(tmp_path):
    program = build(tmp_path, TIES)
    g = new_game(program, 3, 0)
    st = g.state
    for vp, gems, want in [([2, 2, 1], [0, 1, 5], [1]), ([2, 2, 1], [1, 1, 5], [0, 1]), ([1, 3, 3], [9, 0, 0], [1, 2]),
                           ([0, 0, 0], [0, 0, 0], [0, 1, 2]), ([5, 0, 0], [0, 0, 9], [0])]:
        for p in range(3):
            st.pstats[p]["vp"], st.pstats[p]["gems"] = vp[p], gems[p]
        assert g.scores()["winners"] == want
        assert g.leaders() == want
        share = 1 / len(want)
        assert _cut_values(g) == [share if p in want else 0.0 for p in range(3)]  # (no `value` rule here)
    st.no_winner = True
    assert g.leaders() == g.scores()["winners"] == []
    st.no_winner, st.all_win = False, True
    assert g.leaders() == g.scores()["winners"] == [0, 1, 2]
