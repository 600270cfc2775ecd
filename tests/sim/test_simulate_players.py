"""A player count the game does not allow is refused before any game is played, in the game's own
words (it was 200 games each failing with `internal error: ValueError`)."""
from __future__ import annotations

from pathlib import Path

import pytest

import interpreter.engine.factory as factory
from interpreter.cli import main
from interpreter.engine.directexpr import Unsupported
from interpreter.sim.simulate import simulate

FIREFLIES = str(Path(__file__).resolve().parents[2] / "rulesets" / "tutorial_fireflies")  # 2 to 4 players


@pytest.mark.parametrize("players", [1, 5])
def test_simulate_refuses_a_player_count_outside_the_game(players, capsys):
    with pytest.raises(ValueError, match=f"is for 2 to 4 players, not {players}"):
        simulate(FIREFLIES, 3, players, 0, ["random"])
    assert main(["simulate", FIREFLIES, "-n", "3", "--players", str(players), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert f"is for 2 to 4 players, not {players}" in err and "internal error" not in err


def test_an_allowed_count_still_plays():
    report = simulate(FIREFLIES, 3, 4, 0, ["random"])
    assert not report["errors"] and report["players"] == 4


def test_a_ruleset_the_code_generator_refuses_is_one_error_before_any_game(monkeypatch, capsys):
    """Not one `internal error` per game: the batch does not start, and the refusal says what."""
    def refuse(program):
        raise Unsupported("a form made up for this test")
    monkeypatch.setattr(factory, "compile_direct", refuse)
    assert main(["simulate", FIREFLIES, "-n", "3", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "cannot be run: the code generator does not handle a form made up for this test yet" in err
    assert "internal error" not in err
