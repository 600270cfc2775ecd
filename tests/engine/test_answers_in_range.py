"""`DirectGame.play_out` checks a seat's answer against the decision's options unless the seat's
class says its answers are always in range (`answers_in_range`: the random and guided agents, a
search's playouts), so a batch of random games skips the test at every decision and an agent's
bad answer is still reported as the agent's, at the decision, not as a rule failing later."""
from __future__ import annotations

import pytest

from golden_games import ROOT
from interpreter.api import load_program
from interpreter.engine.factory import new_game
from interpreter.play.agents import GuidedAgent, RandomAgent


class _Off:
    """Answers one past the last option from its `n`-th decision on (a buggy agent)."""

    def __init__(self, n: int, past: int = 0):
        self.n, self.past, self.asked = n, past, 0

    def choose(self, game, d) -> int:
        self.asked += 1
        return len(d.options) + self.past if self.asked > self.n else 0


@pytest.mark.parametrize("past", [0, 3])
def test_an_agents_answer_out_of_range_is_its_own_error(past):
    program = load_program(str(ROOT / "rulesets" / "toil_and_troublez"))
    seats = [RandomAgent(1), _Off(5, past)]
    g = new_game(program, 2, 1, seats=seats)
    with pytest.raises(ValueError, match=r"^choice \d+ is out of range 0\.\.\d+$"):
        g.play_out(seats)
    assert g.error is None  # not taken for the rules' failure
    assert seats[1].asked == 6 and len(g.choices) >= 5


def test_a_negative_answer_is_out_of_range_too():
    program = load_program(str(ROOT / "rulesets" / "toil_and_troublez"))

    class _Negative(_Off):
        def choose(self, game, d) -> int:
            return -1

    seats = [_Negative(0), _Negative(0)]
    g = new_game(program, 2, 1, seats=seats)
    with pytest.raises(ValueError, match=r"^choice -1 is out of range"):
        g.play_out(seats)


def test_random_and_guided_seats_are_trusted_and_play_in_range():
    assert RandomAgent.answers_in_range and GuidedAgent.answers_in_range
    program = load_program(str(ROOT / "rulesets" / "stonehenge_wizards"))
    for seats in ([RandomAgent(2)], [GuidedAgent(3), RandomAgent(4)]):
        g = new_game(program, len(seats), 5, seats=seats)
        g.play_out(seats)
        assert g.over and g.error is None and g.result is not None
