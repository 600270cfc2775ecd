"""`grimoire new expansion NAME --extends BASE` writes a mod beside its base that validates clean,
plays to the end (its hook runs every turn of the base game) and passes its own scenario; `new game`
is the long form of `new NAME`."""
from __future__ import annotations

import json

import pytest

from interpreter.api import check_path
from interpreter.cli import main


@pytest.fixture
def made(tmp_path, capsys):
    assert main(["new", "game", "pebble_game", "--dir", str(tmp_path)]) == 0
    assert main(["new", "expansion", "shiny", "--extends", "pebble_game", "--dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "shiny/game.rules" in out and "shiny/scenarios/starts.yaml" in out
    return tmp_path / "rulesets" / "shiny"


def test_expansion_validates_clean_and_extends_its_base(made, capsys):
    assert main(["validate", "--strict", str(made)]) == 0
    assert "no problems found" in capsys.readouterr().out
    rs, content = check_path(made)
    assert [layer.rsplit("/", 1)[-1] for layer in content.layers] == ["pebble_game", "shiny"]
    assert "shiny_count" in rs.stats and "turn" in rs.phases  # its stat, the base's turn


def test_expansion_simulates_and_passes_its_scenario(made, capsys):
    assert main(["simulate", str(made), "-n", "6", "--players", "2", "--quiet", "--json", "-"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["errors"] == [] and data["endings"]["natural"] == 6
    assert main(["scenario", str(made / "scenarios" / "starts.yaml")]) == 0
    assert "1 passed, 0 failed" in capsys.readouterr().out


def test_expansion_scenario_fails_when_the_hook_is_gone(made, capsys):
    """The scenario proves the hook: without it, the count stays 0 and the scenario says so."""
    rules = made / "game.rules"
    rules.write_text(rules.read_text().replace("shiny_count += 1", "pass"), encoding="utf-8")
    assert main(["scenario", str(made / "scenarios" / "starts.yaml")]) == 1
    assert "shiny_count > 0" in capsys.readouterr().out


def test_expansion_refusals(made, tmp_path, capsys):
    assert main(["new", "expansion", "other", "--extends", "nosuch", "--dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "no base ruleset `nosuch`" in err and "pebble_game" in err  # the rulesets that are there
    assert main(["new", "expansion", "shiny", "--extends", "pebble_game", "--dir", str(tmp_path)]) == 2
    assert "already exists" in capsys.readouterr().err
    assert main(["new", "expansion", "other", "--dir", str(tmp_path)]) == 2
    assert "--extends BASE" in capsys.readouterr().err
    assert not (tmp_path / "rulesets" / "other").exists()
