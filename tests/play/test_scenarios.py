"""Every scenario file under tests/scenarios runs as its own test (see docs/scenarios.md)."""
from pathlib import Path

import pytest

from interpreter.play.scenario import run_scenario

SCENARIOS = sorted((Path(__file__).resolve().parents[1] / "scenarios").rglob("*.yaml"))


@pytest.mark.parametrize("path", SCENARIOS, ids=[str(p.relative_to(Path(__file__).resolve().parents[1])) for p in SCENARIOS])
def test_scenario(path: Path) -> None:
    result = run_scenario(path)
    assert result.passed, result.format()
    assert result.covers, f"{path.name} names no rule it covers (`covers:`)"
