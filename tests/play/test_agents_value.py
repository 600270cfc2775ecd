"""Look-ahead bots follow a ruleset's `value`: greedy judges one step by it, mcts scores its cut
playouts by it. A race scored only at the finish shows the difference: its score says nothing
until the last step, its value (how far each runner got) says which move is progress."""
from __future__ import annotations

from interpreter.play.agents import GreedyAgent, MCTSAgent, RandomAgent
from interpreter.engine.factory import new_game
from rulekit import build

RACE = """
player stat pos: 0..99
turn:
    you chooses x from ["rest", "walk", "sit"]
    if x == "walk":
        set pos of you to pos of you + 1
    if pos of you >= 6 or turn_number >= 40:
        end game
score p: 1 if pos of p >= 6 else 0
"""
VALUE = "value p: pos of p\n"


def first_choices(program, make, seeds=range(8)) -> list[int]:
    """The option each agent (one per seed) picks at the first decision of the race."""
    return [make(s).choose(g, g.decision) for s in seeds for g in [new_game(program, 2, 0)]]


def test_greedy_walks_when_the_value_says_walking_is_progress(tmp_path):
    valued = build(tmp_path / "a", RACE + VALUE)
    plain = build(tmp_path / "b", RACE)
    assert first_choices(valued, GreedyAgent) == [1] * 8
    # without the rule every option looks alike one step ahead: the choice is a coin toss
    assert set(first_choices(plain, GreedyAgent)) != {1}


def test_mcts_cut_playouts_are_scored_by_the_value(tmp_path):
    valued = build(tmp_path / "a", RACE + VALUE)
    plain = build(tmp_path / "b", RACE)
    # playouts cut after 2 decisions never see the finish: only the value tells the moves apart
    for tree in (True, False):
        def make(s, tree=tree):
            return MCTSAgent(s, iterations=30, max_playout=2, tree=tree)
        assert first_choices(valued, make) == [1] * 8
        assert set(first_choices(plain, make)) != {1}


def test_valued_greedy_beats_random_in_the_race(tmp_path):
    program = build(tmp_path, RACE + VALUE)
    wins = 0.0
    for i in range(6):
        seat = i % 2
        agents = [RandomAgent(f"r{i}"), RandomAgent(f"q{i}")]
        agents[seat] = GreedyAgent(f"g{i}")
        g = new_game(program, 2, i)
        while not g.over:
            g.answer(agents[g.decision.player].choose(g, g.decision))
        assert g.error is None
        if seat in g.result["winners"] and len(g.result["winners"]) == 1:
            wins += 1
    assert wins == 6  # walking every turn reaches 6 long before a random runner (1 in 3 a turn)



# Seat 1 trails seat 2 by far and may stay in the game or leave it (its value then 0); the game can
# end with everybody lost. With the last seat's value as the bottom of a cut playout's scale,
# last-but-in and out both scored 0 to its search.
TRAILING = """
player stat pos: 0..99
player stat gone: 0..1
setup:
    set pos of last(players) to 9
turn:
    if gone of you == 0:
        you chooses x from ["stay", "leave"]
        if x == "leave":
            set gone of you to 1
    if count(players where gone of it == 0) == 0:
        end game "everybody left" with no winner
    if turn_number >= 20:
        end game
score p: pos of p
value p: 0 if gone of p == 1 else 1 + pos of p
"""


def test_where_all_can_lose_mcts_scores_staying_in_the_game_above_leaving_it(tmp_path):
    program = build(tmp_path / "a", TRAILING)
    for tree in (True, False):
        def make(s, tree=tree):
            return MCTSAgent(s, iterations=20, max_playout=1, tree=tree)
        assert first_choices(program, make) == [0] * 8  # "stay": worth 1/10 of the leader, "leave" nothing
    # where someone always wins, being last is losing: staying and leaving both score 0 (a coin toss)
    always_won = build(tmp_path / "b", TRAILING.replace('end game "everybody left" with no winner', "end game"))
    assert set(first_choices(always_won, lambda s: MCTSAgent(s, iterations=20, max_playout=1))) == {0, 1}
