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


# The Talisman mods that came last to generated code (issue 16): a scenario of each one's own
# construct, on "direct" (which refuses to fall back to the task engine as `auto` would); cheap
# here, where the parametrized runs above compile the same programs in this process.
DIRECT = ["talisman_reaper/reaper_takes_the_ferry.yaml", "talisman_bloodmoon/werewolf_stops_at_night.yaml",
          "talisman_harbinger/harbinger_chart.yaml", "talisman_souls/ghost_on_death.yaml",
          "talisman_dragon/tower_defeat_sends_back.yaml", "talisman_dragon/dragon_king_slain_at_the_crown.yaml"]


@pytest.mark.parametrize("name", DIRECT)
def test_scenario_on_direct_code(name: str) -> None:
    result = run_scenario(Path(__file__).resolve().parents[1] / "scenarios" / name, engine="direct")
    assert result.passed, result.format()
