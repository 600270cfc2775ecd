"""`end game ... with every player winning` (docs/language.md, "Ending with a team win"): a
co-operative game's shared victory. Every seat that takes turns wins whatever the scores and
tie-breakers (a dummy opponent does not), in both engines; `with no winner` is its team loss."""
from __future__ import annotations

from rulekit import game, ruleset

from interpreter.api import load_program
from interpreter.engine.direct import compile_direct
from interpreter.engine.directgame import DirectGame
from interpreter.language.parser import parse_rules
from interpreter.language.tree import EndStmt, walk
from interpreter.sim.simulate import simulate

# The team deals its foe 1 damage a turn (the start player also gains a point, so scores and tie-breakers
# differ); the foe, a dummy seat, falls at HP 0 (a team win) unless the doom round comes first.
RULES = """
game "Team":
    players 2

player stat points: 0..99
stat hp = HP

setup:
    add a dummy player as foe

turn:
    if turn_number % 2 == 1:
        your points += 1
    hp -= 1
    if hp <= 0:
        end game "foe slain" with every player winning
    if round_number >= DOOM:
        end game after this round "doom" with no winner

score p: points of p
tiebreak p: points of p
"""


def rules(hp: int, doom: int) -> str:
    return RULES.replace("HP", str(hp)).replace("DOOM", str(doom))


def test_every_player_wins_whatever_the_scores(tmp_path):
    g = game(tmp_path, rules(3, 9))
    assert g.over and g.error is None, g.error
    assert g.result["winners"] == [0, 1] and g.result["reason"] == "foe slain"  # not the dummy, seat 3
    assert g.result["scores"] == [2, 0, 0]  # player 1 leads: an ordinary end would name him alone
    assert g.state.to_json()["all_win"] is True


def test_the_team_loss_names_no_winner(tmp_path):
    g = game(tmp_path, rules(9, 2))
    assert g.result["winners"] == [] and g.result["reason"] == "doom"
    assert "all_win" not in g.state.to_json()  # the digests of other games stay as they were


def test_a_batch_reports_the_team_win(tmp_path):
    folder = ruleset(tmp_path, rules(3, 9))
    direct = DirectGame(compile_direct(load_program(str(folder))), 2, 0)  # no decision: it runs to the end
    assert direct.over and direct.result["winners"] == [0, 1]
    report = simulate(str(folder), 3, 2, 0, ["random"], per_game=True)
    assert [r["winners"] for r in report["per_game"]] == [[1, 2]] * 3  # numbered from 1
    assert report["no_winner"] == 0


def test_describe_and_syntax():
    tree = parse_rules('game "D":\n    players 2\nturn:\n    end game "won" with every player winning\n', "d.rules")
    stmt = next(n for n in walk(tree) if isinstance(n, EndStmt))
    assert stmt.all_win and not stmt.no_winner
    assert stmt.describe() == 'the game ends (\u201cwon\u201d) with every player winning'
