"""Search agents: legal, deterministic for a seed, blind to what their seat may not see, and
better than random on a tiny game."""
from __future__ import annotations

import random
from types import SimpleNamespace

import pytest
from pathlib import Path

from interpreter.play.agents import (AGENT_KINDS, GreedyAgent, MCTSAgent, RandomAgent, determinize, draw_below,
                                     make_agent)
from interpreter.api import load_program
from interpreter.engine.factory import new_game
from rulekit import GUESS, tiny



# Take a card (option 1) or not (2, 3), six turns: taking is always right.
TAKE = """
    card type Tok:
        value: 1..9
    zone deck: pile, shared, hidden
    zone won: set, per player, public
    stat turns = 0
    setup:
        move all_cards() to deck
        shuffle deck
    turn:
        you choose x from [1, 2, 3] "take?"
        if x == 1:
            move top(deck) to your won
        set turns to turns + 1
        if turns >= 6:
            end game
    score p: count(won of p)
    """




def play(program, agents, seed):
    g = new_game(program, len(agents), seed)
    while not g.over:
        d = g.decision
        i = agents[d.player].choose(g, d)
        assert 0 <= i < len(d.options)
        g.answer(i)
    assert g.error is None
    return g


def test_registered():
    assert {"greedy", "mcts"} <= set(AGENT_KINDS)
    assert isinstance(make_agent("mcts", 1), MCTSAgent) and isinstance(make_agent("greedy", 1), GreedyAgent)


def test_legal_and_deterministic_on_a_reference_ruleset():
    program = load_program(Path(__file__).resolve().parents[2] / "rulesets" / "tutorial_fireflies")
    for kind in (GreedyAgent, lambda s: MCTSAgent(s, iterations=6, max_playout=20),
                 lambda s: MCTSAgent(s, iterations=6, max_playout=20, tree=False)):
        runs = []
        for _ in range(2):
            g = play(program, [kind("a"), RandomAgent("b")], 5)
            runs.append((list(g.choices), g.result["scores"]))
        assert runs[0] == runs[1]


def test_greedy_takes_the_scoring_move(tmp_path):
    program = tiny(tmp_path, "take", TAKE)
    g = new_game(program, 2, 0)
    for seed in range(5):
        assert GreedyAgent(seed).choose(g, g.decision) == 0


def test_determinize_keeps_sizes_and_visible_zones(tmp_path):
    program = tiny(tmp_path, "guess", GUESS)
    g = new_game(program, 2, 3)
    before = {k: list(v) for k, v in g.state.zones.items()}
    rng = random.Random(0)
    moved = False
    for _ in range(20):
        c = g.clone()
        determinize(c, 0, rng)  # seat 0 sees neither the deck nor seat 1's hand
        for k, v in c.state.zones.items():
            assert len(v) == len(before[k])
            if k.startswith("won"):
                assert v == before[k]
            for cid in v:
                assert c.state.where[cid] == k
        moved |= c.state.zones["hand#1"] != before["hand#1"]
        c1 = g.clone()
        determinize(c1, 1, rng)  # seat 1 sees its own hand: it stays put
        assert c1.state.zones["hand#1"] == before["hand#1"]
        assert sorted(c1.state.zones["deck"]) == sorted(before["deck"])
    assert moved
    assert g.state.zones == before  # the original is untouched


def test_search_does_not_peek(tmp_path):
    """Two games that look the same to seat 0 but differ in the hidden cards: a seeded agent
    must answer both the same way, though the right guess differs."""
    program = tiny(tmp_path, "guess", GUESS)
    games = {}
    for seed in range(40):
        g = new_game(program, 2, seed)
        top = program.rs.cards[g.state.zones["deck"][-1]].fields["value"]
        games.setdefault(top, g)
    assert len(games) >= 2
    a, b = list(games.values())[:2]
    assert a.view(0) == b.view(0)
    for s in range(4):
        for tree in (True, False):
            pick = [MCTSAgent(s, iterations=30, tree=tree).choose(g, g.decision) for g in (a, b)]
            assert pick[0] == pick[1]
        x, y = a.clone(), b.clone()
        determinize(x, 0, random.Random(s))
        determinize(y, 0, random.Random(s))
        assert x.state.zones == y.state.zones


@pytest.mark.parametrize("tree", [True, False])
def test_mcts_beats_random(tmp_path, tree):
    program = tiny(tmp_path, "take", TAKE)
    wins = 0.0
    n = 8
    for i in range(n):
        seat = i % 2
        agents = [RandomAgent(f"r{i}"), RandomAgent(f"r{i}/1")]
        agents[seat] = MCTSAgent(f"m{i}", iterations=40, tree=tree)
        g = play(program, agents, i)
        if seat in g.result["winners"]:
            wins += 1 / len(g.result["winners"])
    assert wins >= 6  # random vs random wins ~half; always taking wins almost surely


def test_failing_playouts_count_as_losses(tmp_path):
    program = tiny(tmp_path, "take", TAKE)
    g = new_game(program, 2, 0)
    for tree in (True, False):
        agent = MCTSAgent(0, iterations=9, tree=tree)
        boom = lambda *a: (_ for _ in ()).throw(RuntimeError("boom"))  # noqa: E731
        agent._playout = agent._iterate = boom  # even a broken search answers
        assert 0 <= agent.choose(g, g.decision) < 3


def test_a_failing_game_scores_nothing(tmp_path):
    program = tiny(tmp_path, "broken", """
        card type Tok:
            value: 1..9
        zone deck: pile, shared, hidden
        setup:
            move all_cards() to deck
        turn:
            you choose x from [1, 2] "x?"
            if x == 1:
                log 10 / (x - 1)
            end game
        """)
    g = new_game(program, 2, 0)
    bad = g.clone()
    bad.answer(0)
    assert bad.error is not None  # option 1 breaks the game: a loss, whatever the scores say
    for tree in (True, False):
        assert MCTSAgent(0, iterations=12, tree=tree).choose(g, g.decision) == 1


GRID = """
    card type Tok:
        value: 1..9
    zone board: grid 3 x 3, shared, hidden
    zone supply: set, per player, public
    setup:
        move all_cards() to supply of players[0]
    turn:
        you choose x from [1, 2] "go?"
        place first(your supply) in board
    round:
        play turn of players[0]
        play turn of players[0]
        play turn of players[0]
        play turn of players[1]
        end game
    score p: count(board)
    """


def test_determinize_keeps_grid_spaces(tmp_path):
    program = tiny(tmp_path, "grid", GRID)
    g = new_game(program, 2, 0)
    rng = random.Random(1)
    for _ in range(3):
        g.answer(0)
        if g.decision.kind == "place":
            g.answer(rng.randrange(len(g.decision.options)))
    board = list(g.state.zones["board"])
    assert len(board) >= 2
    occupied = sorted(g.state.spaces[c] for c in board)
    for s in range(10):
        c = g.clone()
        determinize(c, 1, random.Random(s))
        assert sorted(c.state.zones["board"]) == sorted(board)
        assert sorted(c.state.spaces[x] for x in c.state.zones["board"]) == occupied
        assert all(c.state.where[x] == "board" for x in c.state.zones["board"])


COVER = """
    card type Tok:
        value: 1..9
    zone deck: pile, shared, hidden
    zone table: set, shared, public
    setup:
        move all_cards() to deck
        shuffle deck
        move top(deck) to table
        move top(deck) to table
        place top(deck) on first(table)
    turn:
        you choose x from [1, 2] "x?"
        end game
    score p: 0
    """


def test_determinize_redeals_covered_cards(tmp_path):
    """A card under another is hidden from everyone (`Game.view` shows only "on 1 hidden"): the deal
    exchanges it with the deck's cards, and the stack keeps its shape and its place."""
    program = tiny(tmp_path, "cover", COVER)
    g = new_game(program, 2, 0)
    (top, below), = g.state.under.items()
    seen_below = set()
    for s in range(12):
        c = g.clone()
        determinize(c, 0, random.Random(s))
        assert c.view(0) == g.view(0)
        assert c.state.zones["table"] == g.state.zones["table"] and list(c.state.under) == [top]
        (b,) = c.state.under[top]
        assert c.state.where[b] == f"^{top}" and all(c.state.where[x] == "deck" for x in c.state.zones["deck"])
        seen_below.add(b)
    assert len(seen_below) >= 3


def test_the_random_agent_draws_what_randrange_draws():
    """`draw_below` (the random agent's draw, without randrange's calls) gives randrange's answers
    and leaves the generator where randrange leaves it, so saved games and batches replay the same;
    no options is randrange's own error."""
    a, b = random.Random("7/1"), random.Random("7/1")
    counts = [1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 100, 2**40 + 3] * 30
    assert [draw_below(a, n) for n in counts] == [b.randrange(n) for n in counts]
    assert a.getstate() == b.getstate()
    with pytest.raises(ValueError):
        draw_below(a, 0)


def test_the_random_agent_answers_what_randrange_draws():
    """`RandomAgent.choose` (its draw written out, a call less per decision) answers as
    `randrange` over the options does, and leaves its generator where randrange leaves it."""
    agent, b = RandomAgent("7/1"), random.Random("7/1")
    counts = [1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 100, 2**12 + 3] * 30
    assert [agent.choose(None, SimpleNamespace(options=range(n))) for n in counts] == [b.randrange(n) for n in counts]
    assert agent.rng.getstate() == b.getstate()
    with pytest.raises(ValueError):
        agent.choose(None, SimpleNamespace(options=[]))
