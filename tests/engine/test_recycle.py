"""A finished copy made into a new copy in place (`clone(into=...)`, interpreter/engine/recycle.py):
the game it plays on is the one a new copy plays, answer for answer, and it keeps its generated
functions (which is what makes it cheap)."""
from __future__ import annotations

import dataclasses
import random

import pytest

from golden_games import ROOT
from interpreter.api import load_program
from interpreter.engine.factory import new_game
from interpreter.engine.resumable import CopyPlan, copy_value
from interpreter.engine.resumablegame import ResumableGame
from interpreter.play import agents
from interpreter.play.agents import GreedyAgent, MCTSAgent, determinize


def _game(name: str, players: int, seed: int):
    return new_game(load_program(ROOT / "rulesets" / name), players, seed, seats=[MCTSAgent(0)] * players)


def _play(g, rng: random.Random, steps: int) -> tuple:
    for _ in range(steps):
        if g.over:
            break
        g.answer(rng.randrange(len(g.decision.options)))
    d = g.decision
    return (g.error, g.result, g.state.digest(), g.log, g.choices,
            None if d is None else (d.player, d.prompt, list(d.labels)))


def _snapshot(g) -> dict:
    """Everything a copy holds that its play reads: each field of the state (the random source by
    its state), which cards lie covered, the runtime's counters, the pending decision."""
    st = g.state
    out = {f.name: getattr(st, f.name) for f in dataclasses.fields(st) if f.name != "rng"}
    out["where"] = dict(st.where)
    out["rng"] = st.rng.getstate()
    R = g.R
    out["runtime"] = (bytes(R.covered), R.steps, R.work, R.depth, R.touched, list(R.seats), dict(R.bits))
    d = g.decision
    out["decision"] = None if d is None else (d.player, d.kind, d.prompt, d.options, list(d.labels))
    out["game"] = (g.choices, g.log, g.over, g.result, g.decisions_made)
    return out


@pytest.mark.parametrize("name,players", [("stonehenge_wizards", 1), ("stonehenge_wizards", 4),
                                          ("toil_and_troublez", 3), ("enchanters_kingdoms", 2)])
def test_a_recycled_copy_plays_on_as_a_new_copy_does(name, players):
    """At decisions along a game, a spare that played on elsewhere (and past a dummy player's
    joining, where the game has one) is made into a copy of the game: it holds what the game and a
    new copy hold (state, covered cards, counters, decision, log), and played on with the same
    answers, and determinised with the same draws, it gives the new copy's log, state, result and
    next decision; its generated functions are the ones it had."""
    g = _game(name, players, 3)
    walk = random.Random(7)
    spare = g.clone()
    recycled = dummies = 0
    for at in range(10):
        fns = spare.fns
        fresh, reused = g.clone(), g.clone(into=spare)
        assert reused is spare
        recycled += reused.fns is fns
        assert _snapshot(reused) == _snapshot(fresh) == _snapshot(g)
        determinize(fresh, 0, random.Random(at))
        determinize(reused, 0, random.Random(at))
        assert _play(fresh, random.Random(at), 60) == _play(reused, random.Random(at), 60)
        dummies = max(dummies, reused.state.dummies)
        _play(g, walk, 5)
        if g.over:
            break
    assert recycled >= 3
    assert dummies == (1 if players == 1 else 0)  # the solo game's rival joins as a dummy player


def test_a_copy_of_another_program_or_player_count_is_not_taken():
    """A spare of another player count (or program) is left alone: a new copy is made."""
    g, other = _game("toil_and_troublez", 3, 1), _game("toil_and_troublez", 4, 1)
    spare = other.clone()
    copy = g.clone(into=spare)
    assert copy is not spare and spare.state.players == 4
    assert _play(copy, random.Random(2), 40) == _play(g.clone(), random.Random(2), 40)


@pytest.mark.parametrize("agent", [lambda s: MCTSAgent(s, iterations=4, max_playout=12),
                                   lambda s: GreedyAgent(s, samples=2)], ids=["mcts", "greedy"])
def test_a_search_agent_chooses_as_it_did_with_new_copies(monkeypatch, agent):
    """MCTS and greedy reuse their last copies (and find the hidden cards once per decision):
    their choices are those they made with a new copy for every look-ahead."""
    def answers() -> list[int]:
        g = _game("stonehenge_wizards", 2, 4)
        bots = [agent(s) for s in range(2)]
        out = []
        for _ in range(12):
            if g.over:
                break
            a = bots[g.decision.player].choose(g, g.decision)
            out.append(a)
            g.answer(a)
        return out

    recycled = answers()
    real = ResumableGame.clone
    monkeypatch.setattr(ResumableGame, "clone", lambda self, into=None, reseeded=False, plan=None: real(self))
    monkeypatch.setattr(agents, "determinize",  # each world's hidden cards found in the world itself
                        lambda game, seat, rng, plan=None, real=agents.determinize: real(game, seat, rng))
    assert answers() == recycled


@pytest.mark.parametrize("name,players", [("stonehenge_wizards", 4), ("toil_and_troublez", 3),
                                          ("enchanters_kingdoms", 2)])
def test_copies_by_a_plan_play_on_as_new_copies_do(name, players):
    """A search's copies of one game into its spare follow a plan of the frames' copy made at the
    first (resumable.CopyPlan): each holds what a new copy holds and plays on as it does, again
    after the spare played on elsewhere; once the game asks another decision the plan is made again."""
    g = _game(name, players, 5)
    walk = random.Random(3)
    spare, plan = g.clone(), CopyPlan()
    made = 0
    for at in range(8):
        for k in range(3):
            before = plan.decision
            reused = g.clone(into=spare, plan=plan)
            made += plan.decision is not before
            assert reused is spare and plan.fits(g, spare, g.decision) and plan.ops is not None
            assert _snapshot(reused) == _snapshot(g.clone())
            assert _play(reused, random.Random(at * 3 + k), 40) == _play(g.clone(), random.Random(at * 3 + k), 40)
        _play(g, walk, 3)
        if g.over:
            break
    assert made == at + 1  # once per decision searched, not per copy


class _Owner:
    def method(self) -> int:
        return 1


def test_a_plan_copies_what_copy_value_copies():
    """The plan's copy of frames holds what `copy_value`'s holds: containers made anew (what two
    frames share stays shared; a tuple of lists too), what the memo maps replaced (a method of
    a mapped object bound to its copy), anything else shared; a list that holds itself is left
    to `copy_value`."""
    state, state_copy, owner, owner_copy, shared = [1, 2], [1, 2], _Owner(), _Owner(), object()
    inner = [3, state]
    frame = [None, 5, inner, (inner, "x"), {"k": inner, "s": state}, {4, 5}, owner.method, shared, ...]
    memo = {id(state): state_copy, id(owner): owner_copy}
    plan = CopyPlan()
    plan.make("game", "spare", "decision", [frame, inner, 7], dict(memo))
    copied_frame, copied_inner, seven = plan.copy(got := dict(memo))
    expected = copy_value(frame, dict(memo))
    assert copied_frame == expected and seven == 7 and copied_inner is copied_frame[2]
    assert copied_inner is not inner and copied_inner[1] is state_copy
    assert copied_frame[3][0] is copied_inner and copied_frame[4]["k"] is copied_inner
    assert copied_frame[4]["s"] is state_copy and copied_frame[5] == {4, 5} and copied_frame[5] is not frame[5]
    assert copied_frame[6].__self__ is owner_copy and copied_frame[7] is shared
    assert got[id(frame)] is copied_frame  # noted in the memo, as copy_value notes them
    cyclic = [1]
    cyclic.append([cyclic])
    plan.make("game", "spare", "decision", [cyclic], {})
    assert plan.ops is None
