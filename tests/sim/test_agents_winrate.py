"""benchmarks/agents_winrate.py sets apart games that no seat can win by the rules — an ending with
no winner, a stop at a declared cap (its winner is a tally) — so a ruleset like Talisman, where half
the games end with nobody left, is judged on the games someone won (docs/simulation.md, "MCTS and
guided bots against random agents")."""
from __future__ import annotations

import importlib.util
from pathlib import Path

from rulekit import ruleset

_SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "agents_winrate.py"
_spec = importlib.util.spec_from_file_location("agents_winrate", _SCRIPT)
winrate = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(winrate)

GAME = 'game "T":\n    players 2..4\n\nplayer stat pos: 0..9\nturn:\n    set pos of you to 1\n    ENDING\nscore p: pos of p\n'


def _play(tmp_path: Path, ending: str) -> tuple:
    """One game of a ruleset that ends on the first turn by `ending`, the guided seat first."""
    return winrate.play_one(str(ruleset(tmp_path, GAME.replace("ENDING", ending))), 2, 1, 0, 1, 1, False, "guided")


def test_a_win_by_the_rules_counts_as_decided(tmp_path):
    share, failed, _, _, decided, capped = _play(tmp_path, 'end game "done"')
    assert (share, failed, decided, capped) == (1.0, False, True, False)


def test_an_ending_with_no_winner_is_not_decided(tmp_path):
    share, failed, _, _, decided, capped = _play(tmp_path, 'end game "everyone out" with no winner')
    assert (share, failed, decided, capped) == (0.0, False, False, False)


def test_a_cap_win_is_a_tally_not_a_decided_game(tmp_path):
    """The seat leads the cap's tally (its score) and wins it, yet the game is not won by the rules."""
    share, failed, _, _, decided, capped = _play(tmp_path, 'end game "turn cap" by cap')
    assert (share, failed, decided, capped) == (1.0, False, False, True)
