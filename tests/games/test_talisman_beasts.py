"""The Ancient Beasts (rulesets/talisman_beasts): what its scenarios cannot state, what each seat
sees. Its rules' citations: tests/games/test_talisman_beasts_coverage.py; its generated code:
tests/games/test_talisman_mods_direct.py; its scenarios: tests/play/test_scenarios.py."""
from __future__ import annotations

from pathlib import Path

from interpreter.api import load_program
from interpreter.engine.factory import new_game
from interpreter.runtime.values import ZoneRef

ROOT = Path(__file__).resolve().parents[2]


def test_the_beast_deck_lies_face_down_and_the_beasts_in_play_open():
    """A Beast is put into play from the top of the Ancient Beast deck (rulebook: "draw from the
    top of the Ancient Beast deck"), so every seat sees only how many Beasts wait there; the
    Beasts in play stand on the board for all to see (found by tools/mutate_rules.py: `hidden`
    made `public` on game.rules:47 passed every test)."""
    g = new_game(load_program(ROOT / "rulesets" / "talisman_beasts"), 3, 0, seats=[])
    waiting = len(g.state.zones[ZoneRef("beast_deck", None).key])
    assert waiting > 0
    for seat in (0, 1, None):
        seen = g.view(seat)
        assert isinstance(seen["beast_deck"], int) and seen["beast_deck"] == waiting, seat
        assert isinstance(seen["beast_board"], list) and len(seen["beast_board"]) == 1, seat



def test_a_beast_without_round_end_movement_is_not_moved_at_the_round_end(monkeypatch):
    """TA-800: only "a Beast [that] has any instructions for movement" moves at the end of a round;
    a Rooted Beast has none, and a Scent Beast's move waits for a death (TA-802). Neither is taken
    for a step, so neither logs "has nothing to move towards", which is said of a Beast whose goal
    is not on the board (TA-801). `rooted_and_scent_beasts_stay_at_round_end.yaml` plays two round
    ends with both in play; its final state cannot tell the step from none (found by
    tools/mutate_rules.py: the round-end filter's `and` made `or` passed every scenario)."""
    import interpreter.play.scenario as scenario

    logged: list[str] = []
    check = scenario._check

    def keep_log(game, ex, res, observer=None):  # the game's log at the scenario's final check
        logged[:] = [str(line) for line in game.log]
        return check(game, ex, res, observer)

    monkeypatch.setattr(scenario, "_check", keep_log)
    res = scenario.run_scenario(ROOT / "tests" / "scenarios" / "talisman_beasts"
                                / "rooted_and_scent_beasts_stay_at_round_end.yaml")
    assert res.passed, res.failures
    assert logged and not [line for line in logged if "nothing to move towards" in line], logged
