"""MCTS stops a search once its most visited root move cannot be caught in the iterations left
(`agents._settled`): the move returned is the one the full search returns, at less cost."""
from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.api import load_program
from interpreter.engine.factory import new_game
from interpreter.play import agents
from interpreter.play.agents import MCTSAgent, _settled

ROOT = Path(__file__).resolve().parents[2]


def test_settled_means_no_other_move_can_reach_the_leader():
    assert _settled([6, 2], 3)  # 2 + 3 < 6
    assert not _settled([5, 2], 3)  # 2 + 3 ties 5: the tie-break by mean could go either way
    assert not _settled([4, 4], 0)  # a tie at the end is not settled by visits
    assert _settled([3, 1, 0], 1)
    assert not _settled([3, 1, 2], 1)


def _states(ruleset: str, players: int, count: int) -> list:
    """Games at `count` decisions of a seeded game (answered in turn), each one a fresh copy."""
    program = load_program(ROOT / "rulesets" / ruleset)
    g = new_game(program, players, 7)
    out = []
    while not g.over and len(out) < count:
        if len(g.decision.options) > 1:
            out.append(g.clone())
        g.answer(len(out) % len(g.decision.options))
    return out


@pytest.mark.parametrize("tree", [True, False])
def test_the_early_stop_returns_the_full_searchs_move(monkeypatch, tree):
    """The same seeded agent on the same states picks the same move with and without stopping
    early; and stopping does save iterations on these states."""
    states = _states("stonehenge_wizards", 2, 24)
    budget = {"iterations": 10, "max_playout": 12, "tree": tree}

    def run(stop: bool) -> tuple[list[int], int]:
        runs = [0]
        playout = MCTSAgent._iterate if tree else MCTSAgent._playout

        def counted(self, *args):
            runs[0] += 1
            return playout(self, *args)

        with monkeypatch.context() as m:
            m.setattr(MCTSAgent, "_iterate" if tree else "_playout", counted)
            if not stop:
                m.setattr(agents, "_settled", lambda visits, left: False)
            picks = [MCTSAgent(f"s{i}", **budget).choose(g.clone(), g.decision) for i, g in enumerate(states)]
        return picks, runs[0]

    early, ran = run(True)
    full, ran_full = run(False)
    assert early == full
    assert ran_full == 10 * len(states)
    assert ran < ran_full
