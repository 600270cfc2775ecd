"""The Ancient Beasts (rulesets/talisman_beasts): what its scenarios cannot state, what each seat
sees. Its rules' citations: tests/games/test_talisman_beasts_coverage.py; its generated code:
tests/games/test_talisman_mods_direct.py; its scenarios: tests/play/test_scenarios.py."""
from __future__ import annotations

from pathlib import Path

from rulekit import scenario_log

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



def logged(monkeypatch, name: str) -> list[str]:
    """The game's log at the final check of the Beasts' scenario `name`, which must pass: what a
    scenario's `log:` cannot state, that a line was not logged."""
    return scenario_log(monkeypatch, ROOT / "tests" / "scenarios" / "talisman_beasts" / name)


def test_a_beast_without_round_end_movement_is_not_moved_at_the_round_end(monkeypatch):
    """TA-800: only "a Beast [that] has any instructions for movement" moves at the end of a round;
    a Rooted Beast has none, and a Scent Beast's move waits for a death (TA-802). Neither is taken
    for a step, so neither logs "has nothing to move towards", which is said of a Beast whose goal
    is not on the board (TA-801). `rooted_and_scent_beasts_stay_at_round_end.yaml` plays two round
    ends with both in play; its final state cannot tell the step from none (found by
    tools/mutate_rules.py: the round-end filter's `and` made `or` passed every scenario)."""
    lines = logged(monkeypatch, "rooted_and_scent_beasts_stay_at_round_end.yaml")
    assert not [line for line in lines if "nothing to move towards" in line], lines


def test_a_toll_is_paid_only_with_gold_to_a_beast_that_asks_one(monkeypatch):
    """TA-804: the Storm Roc's toll (assumed: 1 gold) is paid once in
    `toll_takes_the_last_gold_and_a_hide_restores_fate.yaml`: by the Thief with 1 gold; not when
    he has none, nor by the Troll to the Ash Wolf, whose card asks none. Its final state cannot
    tell a toll of 0 gold paid from none (found by tools/mutate_rules.py: `it.toll > 0` and
    `your gold > 0` made `>= 0` only logged a payment of nothing)."""
    lines = logged(monkeypatch, "toll_takes_the_last_gold_and_a_hide_restores_fate.yaml")
    paid = [line for line in lines if "pays the Ancient Beast" in line]
    assert len(paid) == 1 and "Storm Roc" in paid[0], paid
