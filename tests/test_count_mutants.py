"""tools/count_mutants.py counts the mutants a run of tools/mutate_rules.py would try on the lines
named, so a full run's count can be brought up to date after an edit: a deleted line's mutants go,
a line whose mutations the checker refuses counts none."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from rulekit import ruleset

TOOLS = Path(__file__).resolve().parent.parent / "tools"

RULES = """
game "Tally":
    players 2

card type Token:
    value: 1..3

zone pool: pile, shared, public
zone won: pile, per player, public
player stat pts: 0..99 = 0

setup:
    move all_cards() to pool

turn:
    you choose c from pool "Take which"
    move c to your won
    pts of you += c.value
    if pool is empty:
        end game

score p: pts of p
"""

CARDS = """
- {name: One, type: Token, value: 1}
- {name: Two, type: Token, value: 2}
"""


def _counter():
    sys.path.insert(0, str(TOOLS))
    spec = importlib.util.spec_from_file_location("count_mutants", TOOLS / "count_mutants.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_counts_each_lines_first_three_valid_mutations(tmp_path):
    rules = ruleset(tmp_path, RULES, CARDS)
    found = _counter().count(rules, {"game.rules:16", "game.rules:17", "game.rules:18"})
    assert found["game.rules:16"] == ["statement -> pass"]                   # move c to your won
    assert found["game.rules:17"] == ["statement -> pass", "`+=` -> `-=`"]   # pts of you += c.value
    assert found["game.rules:18"] == ["negate `if` condition", "`is empty` -> `is not empty`",
                                      "block body -> pass"]                  # if pool is empty:
    assert set(found) == {"game.rules:16", "game.rules:17", "game.rules:18"}


def test_a_line_no_mutation_of_which_the_checker_accepts_counts_none(tmp_path):
    rules = ruleset(tmp_path, RULES, CARDS)
    found = _counter().count(rules, {"game.rules:15"})      # you choose c from pool "Take which"
    assert found == {"game.rules:15": []}


def test_at_most_per_line_mutants_a_line(tmp_path):
    rules = ruleset(tmp_path, RULES, CARDS)
    assert _counter().count(rules, {"game.rules:18"}, per_line=2)["game.rules:18"] == [
        "negate `if` condition", "`is empty` -> `is not empty`"]
