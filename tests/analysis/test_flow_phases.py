"""`play:` replaces the default flow and `round:` the default round: a `turn:` or `round:` that nothing
starts is a warning (`flow/phase`), and a flow that does start it is not."""
from __future__ import annotations

import pytest

from interpreter.api import check_path
from rulekit import HEADER, ruleset

TURN = "turn:\n    end game\n"


def _phase_warnings(tmp_path, rules: str) -> list[str]:
    _, content = check_path(ruleset(tmp_path, HEADER + rules))
    assert not [d for d in content.diagnostics if d.severity == "error"], content.diagnostics
    return [f"{d.loc.line}: {d.message}" for d in content.diagnostics if d.code == "flow/phase"]


@pytest.mark.parametrize("rules, expected", [
    ("play:\n    log \"hi\"\n    end game\n\n" + TURN, ["8: `turn:` never runs: `play:` replaces the default flow"]),
    ("round:\n    log \"hi\"\n\n" + TURN, ["7: `turn:` never runs: `round:` replaces the default round"]),
    # the round that would give the turns never runs: that is the one reported
    ("play:\n    log \"hi\"\n    end game\n\nround:\n    for each p in players:\n        play turn of p\n\n" + TURN,
     ["8: `round:` never runs: `play:` replaces the default flow and never says `play round`"]),
])
def test_a_phase_nothing_starts_is_reported(tmp_path, rules, expected):
    found = _phase_warnings(tmp_path, rules)
    assert len(found) == len(expected)
    for got, want in zip(found, expected):
        assert got.startswith(want), got


@pytest.mark.parametrize("rules", [
    TURN,                                                                                  # the default flow
    "play:\n    repeat:\n        play round\n\n" + TURN,                                   # rounds of turns
    "play:\n    for each p in players:\n        play turn of p\n    end game\n\n" + TURN,
    "round:\n    for each p in players:\n        take(p)\n\nprocedure take(p):\n    play turn of p\n\n" + TURN,
    "play:\n    repeat:\n        play round\n\nround:\n    for each p in players:\n        play turn of p\n\n" + TURN,
])
def test_a_flow_that_starts_its_phases_is_clean(tmp_path, rules):
    assert _phase_warnings(tmp_path, rules) == []
