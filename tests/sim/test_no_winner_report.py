"""Games that end `with no winner` (docs/language.md, "Ending with no winner") in simulate's
report: counted as `no_winner`, credited to no seat (not as a win shared by everyone), left out of
the winning score, and named in the text summary."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from rulekit import ruleset

from interpreter.sim.simulate import simulate

ROOT = Path(__file__).resolve().parents[2]

# A player reaching 3 points wins at once; the doom, drawn each turn, may end the round with no winner.
RULES = """
game "Doom":
    players 2

player stat points: 0..99

turn:
    your points += 1
    if your points >= 3:
        end game "goal"
    if round_number >= random([1, 2, 3, 4]):
        end game after this round "doom" with no winner

score p: points of p
"""


def test_simulate_counts_games_with_no_winner(tmp_path):
    report = simulate(str(ruleset(tmp_path, RULES)), 30, 2, 0, ["random"], per_game=True)
    doomed = sum(1 for r in report["per_game"] if r["reason"] == "doom")
    assert 0 < doomed < 30
    assert all(r["winners"] == [] for r in report["per_game"] if r["reason"] == "doom")
    assert report["no_winner"] == doomed and report["shared_wins"] == 0
    assert sum(s["wins"] for s in report["seats"]) == 30 - doomed  # a doomed game credits no seat
    assert report["winning_score"]["min"] == 3  # only the games someone won have a winning score
    assert report["fairness"]["seats"]["games"] == 30


def test_summary_names_the_games_nobody_won(tmp_path):
    folder = ruleset(tmp_path, RULES)
    out = subprocess.run([sys.executable, "-m", "interpreter", "simulate", str(folder), "-n", "30", "--seed", "0"],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    report = simulate(str(folder), 30, 2, 0, ["random"])
    assert f"shared wins 0, no winner {report['no_winner']}" in out.stdout
