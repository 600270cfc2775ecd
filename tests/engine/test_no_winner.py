"""`end game ... with no winner` (docs/language.md, "Ending with no winner"): an end where every
player loses whatever the scores, as a rulebook's "the game is over and all characters lose". The
result lists no winner in both engines and an ordinary end still names the best score (simulate's
counts: tests/sim/test_no_winner_report.py)."""
from __future__ import annotations

from rulekit import game, ruleset

from interpreter.api import load_program
from interpreter.engine.direct import compile_direct
from interpreter.engine.directgame import DirectGame
from interpreter.language.parser import parse_rules
from interpreter.language.tree import EndStmt, walk
from interpreter.sim.simulate import simulate

# Each turn the player gains a point; a player reaching GOAL wins at once; at round CAP everyone
# loses (the "doom track" of many co-operative and survival games).
RULES = """
game "Doom":
    players 2

player stat points: 0..99

turn:
    your points += 1
    if your points >= GOAL:
        end game "goal"
    if round_number >= CAP:
        end game after this round "doom" with no winner

score p: points of p
"""


def rules(goal: int | str, cap: int | str) -> str:
    return RULES.replace("GOAL", str(goal)).replace("CAP", str(cap))


def test_no_winner_whatever_the_scores(tmp_path):
    g = game(tmp_path, rules(9, 2))
    assert g.over and g.error is None, g.error
    assert g.result["winners"] == [] and g.result["reason"] == "doom"
    assert g.result["scores"] == [2, 2]  # the scores are kept; they just win nothing
    assert g.state.to_json()["no_winner"] is True


def test_an_ordinary_end_still_has_winners(tmp_path):
    g = game(tmp_path, rules(2, 9))
    assert g.result["winners"] == [0] and g.result["reason"] == "goal"
    assert "no_winner" not in g.state.to_json()  # the digests of other games stay as they were


def test_the_last_end_game_decides(tmp_path):
    """Round 2: the doom asks for the end after the round, then the goal, reached in the same
    turn, ends the game at once with a winner: the last `end game` run decides, as for the reason
    and `by cap`."""
    doom_first = RULES.replace(
        '    if your points >= GOAL:\n        end game "goal"\n'
        '    if round_number >= CAP:\n        end game after this round "doom" with no winner\n',
        '    if round_number >= 2:\n        end game after this round "doom" with no winner\n'
        '    if your points >= 2:\n        end game "goal"\n')
    assert 'end game "goal"' in doom_first
    g = game(tmp_path, doom_first)
    assert g.result["reason"] == "goal" and g.result["winners"] == [0] and g.result["turns"] == 3


def test_a_batch_reports_no_winner(tmp_path):
    folder = ruleset(tmp_path, rules(2, 1))  # round 1: nobody has 2 points; the doom ends the game
    direct = DirectGame(compile_direct(load_program(str(folder))), 2, 0)  # no decision: it runs to the end
    assert direct.over and direct.result["winners"] == [] and direct.result["scores"] == [1, 1]
    report = simulate(str(folder), 4, 2, 0, ["random"], per_game=True)
    assert [r["winners"] for r in report["per_game"]] == [[]] * 4


def test_describe_and_syntax():
    tree = parse_rules('game "D":\n    players 2\nturn:\n    end game "doom" with no winner by cap\n', "d.rules")
    stmt = next(n for n in walk(tree) if isinstance(n, EndStmt))
    assert stmt.no_winner and stmt.cap
    assert stmt.describe() == 'the game ends (\u201cdoom\u201d) with no winner, stopped by a cap rather than by the rules'
