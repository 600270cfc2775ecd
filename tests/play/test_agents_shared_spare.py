"""The search agents of one game make their copies in one spare (`share_copies`, used by
`agents_for`, `play` and scenarios' `then:`): each copy is made afresh in it, so every seat answers
as it does with a spare of its own, and only the game's first copy is a new game."""
from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.api import load_program
from interpreter.engine.factory import new_game
from interpreter.play.agents import make_agent, share_copies
from interpreter.play.session import agents_for

ROOT = Path(__file__).resolve().parents[2]


def _answers(program, players: int, seats: list, steps: int) -> tuple:
    g = new_game(program, players, 3, seats=seats)
    out = []
    while not g.over and len(out) < steps:
        d = g.decision
        out.append(seats[d.player].choose(g, d))
        g.answer(out[-1])
    return out, g.state.digest()


@pytest.mark.parametrize("name,players", [("stonehenge_wizards", 3), ("toil_and_troublez", 2)])
def test_seats_sharing_a_spare_answer_as_seats_with_their_own(name, players):
    program = load_program(ROOT / "rulesets" / name)
    own = [make_agent("mcts", f"3/{p}") for p in range(players)]
    shared = agents_for(["mcts"], players, 3)
    assert len({id(a._spares) for a in own}) == players and len({id(a._spares) for a in shared}) == 1
    mixed = share_copies([make_agent("random", "3/0")] + [make_agent("mcts", f"3/{p}") for p in range(1, players)])
    assert _answers(program, players, own, 25) == _answers(program, players, shared, 25)
    assert mixed[1]._spare is None and _answers(program, players, mixed, 10)[0]
    assert mixed[1]._spare is not None and mixed[1]._spare is mixed[-1]._spare
