"""`grimoire new NAME` writes a tiny ruleset that validates clean, plays to the end and passes its
own scenario; `grimoire --version` names the installed version."""
from __future__ import annotations

import importlib.metadata
import json

import pytest

from interpreter.cli import main


@pytest.fixture
def made(tmp_path, capsys):
    assert main(["new", "pebble_game", "--dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "created" in out
    return tmp_path / "rulesets" / "pebble_game"


def test_new_ruleset_validates_clean(made, capsys):
    assert (made / "game.rules").is_file() and (made.parent.parent / "cards" / "pebble_game" / "gems.yaml").is_file()
    assert main(["validate", "--strict", str(made)]) == 0
    assert "no problems found" in capsys.readouterr().out.lower()


def test_new_ruleset_plays_to_the_end(made, capsys):
    assert main(["simulate", str(made), "-n", "10", "--players", "3", "--quiet", "--json", "-"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["errors"] == [] and data["completed"] == 10
    assert data["endings"]["natural"] == 10  # every game ended by its own rules, none at a cap


def test_new_ruleset_passes_its_scenario(made, capsys):
    scenarios = sorted((made / "scenarios").glob("*.yaml"))
    assert len(scenarios) == 1
    assert main(["scenario", *map(str, scenarios)]) == 0
    assert "1 passed, 0 failed" in capsys.readouterr().out


def test_new_refuses_an_existing_ruleset_and_a_bad_name(made, tmp_path, capsys):
    assert main(["new", "pebble_game", "--dir", str(tmp_path)]) == 2
    assert "already exists" in capsys.readouterr().err
    assert main(["new", "../escape", "--dir", str(tmp_path)]) == 2
    assert "cannot name a ruleset" in capsys.readouterr().err
    assert not (tmp_path / "escape").exists()


def test_version(capsys):
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0
    assert capsys.readouterr().out.strip() == f"grimoire {importlib.metadata.version('grimoire')}"
