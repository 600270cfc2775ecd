"""tools/expansion_batches.py: the expansion batch matrix prints one markdown row per stack × player
count with the games that failed, ended by the rules and ended at a declared cap — checked on tiny
stand-in rulesets (a base and two mods), so no Talisman stack is compiled here."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from rulekit import named_ruleset

TOOL = Path(__file__).resolve().parent.parent / "tools" / "expansion_batches.py"
ROOT = Path(__file__).resolve().parent.parent

BASE = """
game "Base":
    players 2..3
player stat gold = 0
turn:
    you gain 1 gold
    if gold of you >= 2:
        end game "rich"
score p: gold of p
"""
CAPPED = """
game "Capped":
    extends "talisman"
    players 2..3
replace turn:
    end game "turn cap" by cap
"""
BROKEN = """
game "Broken":
    extends "talisman"
    players 2..3
replace turn:
    you gain 1 / gold of you gold
"""


@pytest.fixture
def tool(tmp_path, monkeypatch):
    spec = importlib.util.spec_from_file_location("expansion_batches", TOOL)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    rulesets = tmp_path / "rulesets"
    named_ruleset(rulesets, "talisman", BASE)
    named_ruleset(rulesets, "capped", CAPPED)
    named_ruleset(rulesets, "broken", BROKEN)
    monkeypatch.setattr(mod, "ROOT", tmp_path)
    return mod


def test_rows_count_errors_natural_endings_and_caps(tool, capsys):
    assert tool.main(["--stack", "capped", "--stack", "broken", "-n", "3", "--players", "2,3"]) == 1
    out = capsys.readouterr().out
    rows = [line.split(" | ")[:6] for line in out.splitlines() if line.startswith("| capped") or line.startswith("| broken")]
    assert rows == [["| capped", "2", "3", "0", "0", "3"], ["| capped", "3", "3", "0", "0", "3"],
                    ["| broken", "2", "3", "3", "0", "0"], ["| broken", "3", "3", "3", "0", "0"]]
    assert "broken, 2 players: 3 of 3 games failed; first: game 0" in out
    assert "grimoire simulate rulesets/talisman --with rulesets/broken -n 3 --players 2 --seed 1" in out


def test_a_player_count_the_stack_refuses_is_a_failed_cell(tool, capsys):
    assert tool.main(["--stack", "capped", "-n", "2", "--players", "5"]) == 1
    assert "| capped | 5 | 2 | 2 | 0 | 0 |" in capsys.readouterr().out


def test_player_counts_and_named_sets(tool):
    assert tool.parse_players("2..6") == [2, 3, 4, 5, 6] and tool.parse_players("2,4,6") == [2, 4, 6]
    assert tool.stack_name(tool.ISSUE22) == "all 7 of issue 22" and tool.stack_name(["talisman_city"]) == "city"
    assert len(tool.SETS["issue22"]) == 8 and len(tool.SETS["issue23"]) == 10
    shipped = {m for stacks in tool.SETS.values() for s in stacks for m in s}
    assert len(shipped) == 23 and all((ROOT / "rulesets" / m).is_dir() for m in shipped)
    assert len(tool.SETS["issue21"]) == 7 and tool.BASES["issue21"] == "rulesets/enchanters"
    assert tool.stack_name(["enchanters_coop"]) == "coop"


def test_another_base_plays_its_own_mods(tool, capsys):
    """`--base` stacks the mods on that ruleset (issue 21's Enchanters mods are not Talisman's)."""
    named_ruleset(tool.ROOT / "rulesets", "other", BASE.replace('"Base"', '"Other"').replace('"rich"', '"richer"'))
    named_ruleset(tool.ROOT / "rulesets", "quick", 'game "Quick":\n    extends "other"\n    players 2..3\n')
    assert tool.main(["--base", "rulesets/other", "--stack", "quick", "-n", "2", "--players", "2"]) == 0
    out = capsys.readouterr().out
    assert "| quick | 2 | 2 | 0 | 2 | 0 | richer 2 |" in out  # the other base's ending, not Talisman's
    assert tool.command(["quick"], 2, 2, 1, "rulesets/other").startswith("grimoire simulate rulesets/other --with rulesets/quick")


def test_an_unknown_mod_is_refused_in_words(tool, capsys):
    with pytest.raises(SystemExit) as e:
        tool.main(["--stack", "nowhere"])
    assert e.value.code == 2 and "no mod rulesets/nowhere" in capsys.readouterr().err
