"""Talisman, second pass (keeping and moving): the Spells given effects here — Destroy Magic,
Divination, Temporal Warp (assumed texts, see rulesets/talisman/NOTES.md) — checked as scenarios
kept out of the scenario folder because the rule IDs they touch are tested by another pass."""
from __future__ import annotations

import textwrap
from pathlib import Path

from rulekit import scenario_log

from interpreter.play.scenario import run_scenario

RULESET = Path(__file__).resolve().parents[2] / "rulesets" / "talisman"


def _run(tmp_path: Path, body: str) -> None:
    text = f"ruleset: {RULESET}\nplayers: 2\nseed: 3\ncovers: []\n" + textwrap.dedent(body)
    path = tmp_path / "case.yaml"
    path.write_text(text, encoding="utf-8")
    res = run_scenario(path)
    assert res.passed, res.failures


def test_destroy_magic_stops_spells(tmp_path: Path) -> None:
    """Player 1 casts Destroy Magic; in player 2's turn his Healing is not offered although he is
    wounded (the effect ends at the start of player 1's next turn: `lift_dispel`)."""
    _run(tmp_path, """
        name: Destroy Magic
        setup:
          start_player: 1
          zones:
            "hero of 1": [Thief]
            "hero of 2": [Wizard]
            "objects of 1": []
            "spells of 1": ["Destroy Magic"]
            "spells of 2": [Healing]
          stats: {"lives of 1": 4, "fate of 1": 0, "alignment of 1": Neutral, "missed of 1": 0,
                  "lives of 2": 2, "fate of 2": 0, "alignment of 2": Evil, "slowed of 1": 1,
                  "at of 1": {card: Castle}, "at of 2": {card: City}}
        rolls: [2, 1, 2]
        choices:
          - "Destroy Magic"
          - expect:
              log: ["destroys all magic until his next turn"]
          - "Portal of Power"
          - expect:
              decision: {player: 2, prompt: "Move where?"}
              zones: {"spells of 2": [Healing]}
        """)


def test_divination_may_discard_the_top_adventure_card(tmp_path: Path) -> None:
    """Divination shows the top Adventure Card, which the caster may discard."""
    _run(tmp_path, """
        name: Divination
        setup:
          start_player: 1
          zones:
            "hero of 1": [Thief]
            "objects of 1": []
            "spells of 1": [Divination]
            adventure_deck: [Dragon, Wolf]
            adventure_discard: []
          stats: {"lives of 1": 4, "fate of 1": 0, "alignment of 1": Neutral,
                  "at of 1": {card: Castle}, "at of 2": {card: City}}
        choices:
          - "Divination"
          - expect:
              log: ["sees"]
              decision: {player: 1, prompt: "Discard the top Adventure Card?"}
          - yes
          - expect:
              decision: {player: 1, prompt: "Move where?"}
        expect:
          zones: {adventure_deck: [Wolf], adventure_discard: [Dragon]}
        """)


def test_temporal_warp_gives_another_turn(tmp_path: Path) -> None:
    """Temporal Warp is cast at the end of the turn: the same player then moves again."""
    _run(tmp_path, """
        name: Temporal Warp
        setup:
          start_player: 1
          zones:
            "hero of 1": [Thief]
            "objects of 1": []
            "spells of 1": ["Temporal Warp"]
          stats: {"lives of 1": 4, "fate of 1": 0, "alignment of 1": Neutral, "slowed of 1": 1,
                  "at of 1": {card: Castle}, "at of 2": {card: City}}
        rolls: [1]
        choices:
          - "Portal of Power"
          - expect:
              decision: {player: 1, prompt: "Cast a Spell?"}
          - "Temporal Warp"
          - expect:
              log: ["takes another turn"]
              active: 1
              decision: {player: 1, prompt: "Move where?"}
        """)


def test_no_spell_is_left_uncast() -> None:
    """Every Spell card now has a window in which the rules offer it."""
    text = (RULESET.parent.parent / "cards" / "talisman" / "spells.yaml").read_text(encoding="utf-8")
    assert "window: Uncast" not in text


def test_a_character_killed_on_landing_after_a_move_is_killed_once(monkeypatch) -> None:
    """TA-129 with TA-116: the Imp moves a character of 1 life onto a Desert holding a Hex, which
    kills him on landing; his encounter of the Desert does not begin, so its thirst does not
    "kill" the dead character a second time (`m_hex_kills_on_arrival.yaml`; the log shows it: a
    second kill logs "none is killed")."""
    logged = scenario_log(monkeypatch, RULESET.parents[1] / "tests" / "scenarios" / "talisman" / "m_hex_kills_on_arrival.yaml")
    assert [line for line in logged if "is killed" in line and "Warrior" in line] and \
        sum("is killed" in line for line in logged) == 1, logged
