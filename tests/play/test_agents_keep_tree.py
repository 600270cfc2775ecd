"""MCTS's kept tree (`MCTSAgent(keep_tree=True)`, on in `--agents mcts`): when a seat decides
again right after its own move and sees what every world of its last search showed it after that
move, the new search starts from that move's node, and the playouts already below it count
towards the budget. What decides the reuse is only what the seat sees, so the bot stays blind to
hidden cards and future dice."""
from __future__ import annotations

import copy
import weakref
from pathlib import Path

from interpreter.api import load_program
from interpreter.engine.factory import new_game
from interpreter.play.agents import MCTS_DEFAULT_BUDGET, MCTSAgent, deal_plan, default_mcts
from rulekit import hidden_twin

ROOT = Path(__file__).resolve().parents[2]
BUDGET = dict(MCTS_DEFAULT_BUDGET, max_playout=12)


def _searches(agent: MCTSAgent) -> list[bool]:
    """Wrap `agent._kept_root` to record, per search, whether it started from a kept node."""
    used: list[bool] = []
    kept_root = agent._kept_root

    def recorded(game, decision):
        node = kept_root(game, decision)
        used.append(node is not None)
        return node
    agent._kept_root = recorded  # type: ignore[method-assign]
    return used


def _would_reuse(agent: MCTSAgent, game) -> bool:
    """Whether `agent`'s next search on `game` would start from its kept node (asked of a
    throwaway copy of the agent, so the agent itself is left as it was)."""
    probe = copy.copy(agent)
    probe._kept = (weakref.ref(game), *agent._kept[1:])
    probe._plan = deal_plan(game, game.decision.player)
    return probe._kept_root(game, game.decision) is not None


def _play_to_reuse(seed: int):
    """A dice game with one kept-tree agent in seat 0 and random moves elsewhere, played until
    that agent's next search would start from a kept node: (game, agent)."""
    program = load_program(ROOT / "rulesets" / "stonehenge_wizards")
    g = new_game(program, 2, seed)
    agent = MCTSAgent(f"k{seed}", **BUDGET)
    for step in range(300):
        d = g.decision
        if g.over:
            break
        if d.player == 0 and len(d.options) > 1:
            if agent._kept is not None and _would_reuse(agent, g):
                return g, agent
            g.answer(agent.choose(g, d))
        else:
            g.answer(step % len(d.options))
    return None


def test_the_batch_default_keeps_the_tree_and_explicit_agents_do_not():
    assert default_mcts(0).keep_tree is True
    assert MCTSAgent(0).keep_tree is False


def test_a_kept_tree_saves_playouts_in_the_dice_game():
    """The dice game asks each player about each die in turn: most searches follow the seat's own
    last move, and they run fewer playouts of their own."""
    program = load_program(ROOT / "rulesets" / "stonehenge_wizards")
    runs = {}
    for keep in (False, True):
        agents = [MCTSAgent(f"s{s}", **dict(BUDGET, keep_tree=keep)) for s in range(2)]
        used = [_searches(a) for a in agents]
        count = [0]
        for a in agents:
            iterate = a._iterate

            def counted(*args, _it=iterate):
                count[0] += 1
                return _it(*args)
            a._iterate = counted  # type: ignore[method-assign]
        g = new_game(program, 2, 3)
        for _ in range(40):
            if g.over:
                break
            g.answer(agents[g.decision.player].choose(g, g.decision))
        runs[keep] = (count[0], sum(map(sum, used)), sum(map(len, used)))
    (plain, _, _), (kept, reused, searches) = runs[False], runs[True]
    assert reused >= searches // 3 and kept < plain


def test_what_the_seat_sees_decides_the_reuse():
    """A kept node is taken only while the seat sees what its worlds showed: change something it
    sees (a stat of its own) and the next search starts afresh."""
    found = _play_to_reuse(1)
    assert found is not None
    g, agent = found
    assert _would_reuse(agent, g.clone())
    changed = g.clone()
    st = changed.state.pstats[0]
    key = next(k for k, v in st.items() if type(v) is int)
    st[key] += 1
    assert not _would_reuse(agent, changed)


def test_a_kept_tree_is_blind_to_hidden_cards_and_future_dice():
    """At a search that starts from a kept node, a twin game that looks the same to the seat but
    differs in its hidden cards and random generator gets the same answer from the same agent."""
    checked = 0
    for seed in range(1, 8):
        found = _play_to_reuse(seed)
        if found is None:
            continue
        g, agent = found
        twin = hidden_twin(g, 0)
        if twin is None:
            continue
        assert g.view(0) == twin.view(0) and g.state.rng.getstate() != twin.state.rng.getstate()
        picks, reused = [], []
        for game in (g, twin):
            a = copy.copy(agent)
            a.rng = copy.deepcopy(agent.rng)
            a._spare = None
            a._kept = (weakref.ref(game), *agent._kept[1:-1], copy.deepcopy(agent._kept[-1]))
            used = _searches(a)
            picks.append(a.choose(game, game.decision))
            reused += used
        assert reused == [True, True]
        assert picks[0] == picks[1]
        checked += 1
    assert checked >= 2
