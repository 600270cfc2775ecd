"""`end game "reason"` (docs/boards.md, "Ending with a reason"): the reason is in the game's result
and the simulate report counts games per reason; a game ended without one reports none."""
from __future__ import annotations

from rulekit import errors, game, ruleset

from interpreter.sim.simulate import simulate

# Two players take turns; the first to GOAL points ends the game at once, and round CAP asks
# for the end after that round.
RULES = """
game "Reasons":
    players 2

player stat points: 0..99

turn:
    your points += 1
    if your points >= GOAL:
        end game "goal of " + "points"
    if round_number >= CAP:
        end game after this round "round cap"

score p: points of p
"""


def play(tmp_path, goal, cap):
    g = game(tmp_path, RULES.replace("GOAL", str(goal)).replace("CAP", cap))
    assert g.over and g.error is None, g.error
    return g


def test_reason_of_the_end_that_happened(tmp_path):
    g = play(tmp_path, 5, "3")
    assert g.result["reason"] == "round cap" and g.result["rounds"] == 3
    g = play(tmp_path, 2, "9")
    assert g.result["reason"] == "goal of points" and g.result["turns"] == 3  # round 2, first player
    assert g.state.to_json()["end_reason"] == "goal of points"


def test_immediate_end_replaces_a_pending_reason(tmp_path):
    g = play(tmp_path, 3, "2")  # round 2 asks for the end after it; round 3 never comes
    assert g.result["reason"] == "round cap" and g.result["rounds"] == 2
    g = play(tmp_path, 2, "2")  # round 2: the goal ends it at once, after the cap's request
    assert g.result["reason"] == "goal of points" and g.result["turns"] == 3


def test_no_reason_leaves_result_and_digest_alone(tmp_path):
    g = game(tmp_path, 'game "Plain":\n    players 2\nturn:\n    end game\n')
    assert g.over and g.error is None and "reason" not in g.result
    assert "end_reason" not in g.state.to_json()


def test_simulate_counts_reasons(tmp_path):
    folder = ruleset(tmp_path, RULES.replace("GOAL", "4").replace("CAP", "random([1, 2, 3, 4, 5, 6])"))
    report = simulate(str(folder), 30, 2, 0, ["random"])
    reasons = report["end_reasons"]
    assert sum(reasons.values()) == report["completed"] == 30
    assert set(reasons) == {"round cap", "goal of points"}  # the cap drawn each turn, or the goal in round 4
    plain = ruleset(tmp_path, 'game "Plain":\n    players 2\nturn:\n    end game\n')
    assert simulate(str(plain), 3, 2, 0, ["random"])["end_reasons"] == {}


def test_reason_expression_is_checked(tmp_path):
    errs = errors(tmp_path, 'game "Bad":\n    players 2\nturn:\n    end game "why " + nowhere\n')
    assert errs and "nowhere" in errs[0].message


def test_by_cap_marks_the_result_and_the_batch_counts_it(tmp_path):
    """`end game ... by cap` (docs/language.md, "Ending by a cap"): the result says `cap`, the state's
    digest records it, and a batch counts it game by game; an end without it is the rules' own,
    whatever its reason says."""
    capped = RULES.replace('"round cap"', '"round cap" by cap').replace('"goal of " + "points"', '"goal of points"')
    g = game(tmp_path, capped.replace("GOAL", "5").replace("CAP", "3"))
    assert g.result["reason"] == "round cap" and g.result["cap"] is True and g.state.to_json()["end_cap"] is True
    g = game(tmp_path, capped.replace("GOAL", "2").replace("CAP", "9"))
    assert g.result["reason"] == "goal of points" and "cap" not in g.result and "end_cap" not in g.state.to_json()
    assert "cap" not in play(tmp_path, 5, "3").result  # the same words without `by cap`: a natural end
    folder = ruleset(tmp_path, capped.replace("GOAL", "4").replace("CAP", "random([1, 2, 3, 4, 5, 6])"))
    report = simulate(str(folder), 20, 2, 0, ["random"], per_game=True)
    ends = report["endings"]
    assert ends["capped"] == report["end_reasons"]["round cap"] > 0
    assert ends["natural"] == report["end_reasons"]["goal of points"] > 0
    per_game = [(r["reason"], r.get("cap", False)) for r in report["per_game"]]
    assert ("round cap", True) in per_game
    assert all(cap == (reason == "round cap") for reason, cap in per_game)
