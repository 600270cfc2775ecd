"""The `guided` agent follows a ruleset's option preferences (`prefer p [for "PROMPT"]: EXPR`,
docs/language.md): a random choice among the options rated highest; without a rule it plays
exactly as `random` does, so it can be the default seat without changing any other game."""
from __future__ import annotations

import pytest

from interpreter.play.agents import GuidedAgent, RandomAgent
from interpreter.runtime.errors import RuleError
from interpreter.sim.simulate import simulate
from interpreter.engine.factory import new_game
from rulekit import build, errors, ruleset

RACE = """
player stat pos: 0..99
turn:
    you chooses x from ["rest", "walk", "sit"]
    if x == "walk":
        set pos of you to pos of you + 1
    if you may "Jump two steps?":
        set pos of you to pos of you + 2
    if pos of you >= 6 or turn_number >= 40:
        end game
score p: 1 if pos of p >= 6 else 0
"""


def answers(program, make, seed=0, n=30) -> list[tuple[str, str]]:
    """(prompt, label) of the first `n` decisions of a game whose every seat is made by `make`."""
    g = new_game(program, 2, seed)
    seats = [make(f"{seed}/{i}") for i in range(2)]
    out = []
    while not g.over and len(out) < n:
        d = g.decision
        i = seats[d.player].choose(g, d)
        out.append((d.prompt, d.labels[i]))
        g.answer(i)
    return out


def test_guided_takes_the_best_rated_option(tmp_path):
    program = build(tmp_path, RACE + 'prefer p: 1 if it == "walk" else 0\n')
    got = answers(program, GuidedAgent)
    assert {label for prompt, label in got if prompt.startswith("Choose")} == {"walk"}
    # the rule without `for` rates the yes/no question too: both options 0, a coin toss
    assert {label for prompt, label in got if prompt.startswith("Jump")} == {"yes", "no"}


def test_a_rule_for_a_prompt_wins_over_the_general_one(tmp_path):
    program = build(tmp_path, RACE + 'prefer p: 1 if it == "walk" else 0\n'
                    'prefer p for "Jump": 1 if it == false else 0\n'
                    'prefer p for "Jump two": 1 if it == true else 0\n')
    got = answers(program, GuidedAgent)
    assert {label for prompt, label in got if prompt.startswith("Jump")} == {"yes"}  # the longest prompt rules
    assert {label for prompt, label in got if prompt.startswith("Choose")} == {"walk"}


def test_a_game_the_rule_does_not_cover_is_random_play(tmp_path):
    """No `prefer` rule, or none that matches: the same answers as `random` with the same seed."""
    plain = build(tmp_path / "a", RACE)
    other = build(tmp_path / "b", RACE + 'prefer p for "Nothing asks this": 1\n')
    for seed in range(4):
        expected = answers(plain, RandomAgent, seed)
        assert answers(plain, GuidedAgent, seed) == expected
        assert answers(other, GuidedAgent, seed) == expected


def test_the_batch_default_follows_the_rule_and_wins(tmp_path):
    """Walking and jumping every turn (3 steps) reaches 6 in two turns; a random runner makes
    about 1.3 steps a turn."""
    folder = ruleset(tmp_path, 'game "Race":\n    players 2\n' + RACE + 'prefer p: 1 if it == "walk" else 0\n'
                     'prefer p for "Jump": 1 if it == true else 0\n')
    report = simulate(str(folder), 10, 2, 1, ["guided", "random"])
    assert report["completed"] == 10 and report["seats"][0]["wins"] >= 9


def test_a_rating_that_is_not_a_number_names_the_option(tmp_path):
    program = build(tmp_path, RACE + 'prefer p: it\n')
    g = new_game(program, 2, 0)
    with pytest.raises(RuleError, match=r"preference of player 1 for rest is not a number"):
        GuidedAgent(0).choose(g, g.decision)


def test_rules_are_checked(tmp_path):
    head = 'game "Race":\n    players 2\n'
    twice = errors(tmp_path, head + RACE + 'prefer p for "Jump": 1\nprefer q for "Jump": 2\n')
    assert any("more than one `prefer` rule for \"Jump\"" in d.message for d in twice)
    unknown = errors(tmp_path, head + RACE + 'prefer p: 1 if it == wal else 0\n')
    assert any("wal" in d.message for d in unknown)


def test_the_default_seat_changes_no_report_of_a_ruleset_without_rules(tmp_path):
    """A ruleset without `prefer` (every shipped one has some, in its guidance.rules): guided seats
    play its batch on direct code, game for game as random seats do."""
    plain_race = str(ruleset(tmp_path, RACE))
    guided = simulate(plain_race, 6, 3, 5, ["guided"], per_game=True, card_stats=False)
    plain = simulate(plain_race, 6, 3, 5, ["random"], per_game=True, card_stats=False)
    assert guided["per_game"] == plain["per_game"] and guided["completed"] == 6
    assert [g["steps"] for g in guided["per_game"]] == [g["steps"] for g in plain["per_game"]]
