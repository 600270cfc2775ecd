"""The scenario key `set:` plays a variant, as `grimoire simulate --set NAME=VALUE` does: a rule
that exists only as a variant switch (a constant, or Card.field) can be pinned by a scenario."""
from __future__ import annotations

from pathlib import Path

from interpreter.play.scenario import run_scenario

ROOT = Path(__file__).resolve().parents[2]

SCENARIO = """name: a constant set by the scenario
covers: [X-001]
ruleset: {ruleset}
players: 2
seed: 1
{set_line}
choices: [Standard, Bandits, Cultists, Gnolls, Goblins]
expect:
  count: {{track: {track}}}
"""


def _run(tmp_path: Path, set_line: str, track: int):
    f = tmp_path / "s.yaml"
    f.write_text(SCENARIO.format(ruleset=ROOT / "rulesets" / "enchanters", set_line=set_line, track=track),
                 encoding="utf-8")
    return run_scenario(f)


def test_without_set_the_ruleset_is_played_as_written(tmp_path):
    assert _run(tmp_path, "", 6).passed
    assert not _run(tmp_path, "", 4).passed


def test_set_overrides_a_constant(tmp_path):
    res = _run(tmp_path, "set: {track_size: 4}", 4)
    assert res.passed, res.format()


def test_set_of_an_unknown_name_is_a_clear_failure(tmp_path):
    res = _run(tmp_path, "set: {track_sise: 4}", 6)
    assert not res.passed
    assert res.failures[0].startswith("set: `track_sise` is neither a constant"), res.failures
    assert "track_size" in res.failures[0]  # the message lists the constants there are
