"""tools/mutate_rules.py: a cited rule whose line can be broken without any citing scenario
failing is reported as a survivor; and the scenario runner reports score rules that fail mid-game
as a scenario failure, never a traceback (found by the mutation run)."""
from __future__ import annotations

import importlib.util
import sys
import textwrap
from pathlib import Path

from interpreter.play.scenario import run_scenario
from rulekit import ruleset

TOOL = Path(__file__).resolve().parent.parent / "tools" / "mutate_rules.py"

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
    move c to your won              # TT-001
    pts of you += c.value           # TT-002
    if pool is empty:
        end game

score p: pts of p
"""

CARDS = """
- {name: One, type: Token, value: 1}
- {name: Two, type: Token, value: 2}
- {name: Three, type: Token, value: 3}
"""


def _scenario(folder: Path, name: str, covers: list[str], expect: str) -> None:
    (folder / f"{name}.yaml").write_text(textwrap.dedent(f"""\
        name: {name}
        covers: {covers}
        ruleset: ..
        players: 2
        choices: [One]
        expect: {expect}
        """).replace("'", ""), encoding="utf-8")


def _tool():
    spec = importlib.util.spec_from_file_location("mutate_rules", TOOL)
    mod = importlib.util.module_from_spec(spec)
    sys.modules["mutate_rules"] = mod  # dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


def test_a_rule_cited_but_not_asserted_survives(tmp_path, capsys):
    rules = ruleset(tmp_path, RULES, CARDS)
    scen = rules / "scenarios"
    scen.mkdir()
    _scenario(scen, "takes", ["TT-001", "TT-002"], "{count: {won of 1: 1}}")   # never checks pts
    code = _tool().main([str(rules), str(scen), "TT"])
    out = capsys.readouterr().out
    assert code == 1
    assert any(line.startswith("KILLED") and "TT-001" in line for line in out.splitlines())
    assert any(line.startswith("SURVIVED") and "TT-002" in line for line in out.splitlines())
    _scenario(scen, "takes", ["TT-001", "TT-002"], "{count: {won of 1: 1}, stats: {pts of 1: 1}}")
    assert _tool().main([str(rules), str(scen), "TT"]) == 0


def test_failing_score_rules_fail_the_scenario_without_a_traceback(tmp_path):
    rules = ruleset(tmp_path, RULES.replace("score p: pts of p", "score p: {1: 2}[pts of p]"), CARDS)
    scen = rules / "scenarios"
    scen.mkdir()
    _scenario(scen, "mid", [], "{scores: [0, 0]}")
    result = run_scenario(scen / "mid.yaml")
    assert not result.passed and result.failures == ["scores: the score rules failed: KeyError: 0"]


def test_a_row_zone_is_compared_left_to_right(tmp_path):
    """Found by the mutation run: a `row` zone's expected contents were compared in any order, so
    a Turn Order Track left unsorted passed a scenario listing it sorted."""
    rules = ruleset(tmp_path, """
        game "Line":
            players 2

        card type Token:
            value: 1..3

        zone line: row, shared, public

        setup:
            move all_cards() where it.value == 2 to line
            move all_cards() where it.value == 1 to line

        turn:
            you choose c from line "Take which"
        """, CARDS)
    scen = rules / "scenarios"
    scen.mkdir()
    for name, order in (("ok", "[Two, One]"), ("swapped", "[One, Two]")):
        (scen / f"{name}.yaml").write_text(f"name: {name}\nruleset: ..\nplayers: 2\n"
                                           f"expect: {{zones: {{line: {order}}}}}\n", encoding="utf-8")
    assert run_scenario(scen / "ok.yaml").passed
    assert not run_scenario(scen / "swapped.yaml").passed
