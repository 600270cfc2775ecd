"""No bot sees what its seat cannot, in every shipped ruleset.

For each ruleset, games are played at random to decisions where the seat to decide cannot see
some cards. A second game is made from the first that looks the same to that seat (`Game.view`
is equal) but has its hidden cards rearranged — the top of a face-down deck, another player's
hand, a card under a Cloak — and a different random generator, so the dice to come differ too.
A look-ahead agent with the same seed must then answer both games alike: whatever it computes
comes from determinised copies (`agents.determinize`), never from the game it was handed.
The rearrangement here is this test's own (it moves cards by their `where` entries), so it does
not share code with the determinisation it checks.
"""
from __future__ import annotations

from typing import Any
from pathlib import Path

import pytest

from rulekit import hidden_twin, played_rulesets
from interpreter.play.agents import GreedyAgent, MCTSAgent, RandomAgent
from interpreter.api import load_program
from interpreter.engine.factory import new_game

ROOT = Path(__file__).resolve().parents[2]
RULESETS = [p.name for p in played_rulesets()]


def _points(program, players: int, want: int = 2, tries: int = 6):
    """Up to `want` (game, twin) pairs at decisions with several options and something hidden."""
    found = []
    for seed in range(tries):
        g = new_game(program, players, seed)
        walker = RandomAgent(seed)
        for step in range(400):
            if g.over or len(found) >= want:
                break
            d = g.decision
            if step >= 3 + 7 * seed and len(d.options) > 1:
                twin = hidden_twin(g, d.player)
                if twin is not None:
                    found.append((g.clone(), twin))
                    break
            g.answer(walker.choose(g, d))
        if len(found) >= want:
            break
    return found


@pytest.mark.parametrize("ruleset", RULESETS)
def test_look_ahead_is_blind_to_hidden_cards_and_future_dice(ruleset):
    program = load_program(ROOT / "rulesets" / ruleset)
    players = max(program.rs.min_players, 2) if program.rs.max_players >= 2 else program.rs.min_players
    pairs = _points(program, players)
    assert pairs, f"{ruleset}: no decision with hidden cards found"
    for real, twin in pairs:
        seat = real.decision.player
        assert real.view(seat) == twin.view(seat)  # the same game from the seat's chair...
        assert real.state.zones != twin.state.zones or real.state.under != twin.state.under  # ...but not the same game
        assert real.state.rng.getstate() != twin.state.rng.getstate()
        for s in range(2):
            agents = (lambda: GreedyAgent(f"g{s}", samples=2),
                      lambda: MCTSAgent(f"m{s}", iterations=6, max_playout=12, prior=1),  # as --agents mcts
                      lambda: MCTSAgent(f"f{s}", iterations=6, max_playout=12, tree=False))
            for make in agents:
                picks = [make().choose(g, g.decision) for g in (real, twin)]
                assert picks[0] == picks[1], (ruleset, s, real.decision.prompt)


def test_the_twin_would_fool_a_peeking_bot(tmp_path):
    """The check has teeth: an agent that looks ahead on the real game (no determinisation) answers
    the two games differently where the right answer depends on the hidden card."""
    from rulekit import GUESS, tiny  # a guess of the hidden top card's value
    program = tiny(tmp_path, "guess", GUESS)
    differs = 0
    for seed in range(12):
        g = new_game(program, 2, seed)
        twin = hidden_twin(g, 0)
        if twin is None:
            continue
        assert g.view(0) == twin.view(0)

        def peek(game: Any) -> int:  # the old greedy: clones the real game and answers each option
            values = []
            for i in range(len(game.decision.options)):
                c = game.clone()
                c.answer(i)
                values.append(c.result["scores"][0] if c.result else -1)
            return values.index(max(values))
        differs += peek(g) != peek(twin)
        assert GreedyAgent(seed).choose(g, g.decision) == GreedyAgent(seed).choose(twin, twin.decision)
    assert differs >= 3


def test_games_stay_deterministic_with_look_ahead_bots():
    program = load_program(ROOT / "rulesets" / "toil_and_troublez")
    runs = []
    for _ in range(2):
        g = new_game(program, 3, 11)
        agents = [GreedyAgent("a", samples=2), MCTSAgent("b", iterations=4, max_playout=8), RandomAgent("c")]
        for _ in range(60):
            if g.over:
                break
            g.answer(agents[g.decision.player].choose(g, g.decision))
        runs.append((list(g.choices), g.state.digest()))
    assert runs[0] == runs[1]
