"""Scenario setups may give a stat a list of cards (`[{card: A}, {card: B}]`), as they give a stat
one card (`{card: A}`): rules that keep a player-keyed set of cards in a list stat can be set up."""
from __future__ import annotations

import rulekit
from interpreter.play.scenario import run_scenario

RULES = """
game "Marks":
    players 2

card type Thing:
    v: number = 0

zone deck: set
zone mine: set, per player
player stat marked = []

setup:
    move all_cards() to deck

turn:
    for each c in deck:
        if c in your marked:
            move c to your mine
    end game
"""

CARDS = """
cards:
  - {name: Alpha, type: Thing}
  - {name: Beta, type: Thing}
  - {name: Gamma, type: Thing}
"""


def test_list_of_cards_in_a_stat(tmp_path):
    folder = rulekit.ruleset(tmp_path, RULES, CARDS)
    path = tmp_path / "marks.yaml"
    path.write_text(f"""
name: a list stat of cards is set up card by card
covers: [X-001]
ruleset: {folder}
players: 2
setup:
  start_player: 1
  stats: {{"marked of 1": [{{card: Alpha}}, {{card: Gamma}}]}}
expect:
  zones: {{"mine of 1": [Alpha, Gamma], deck: [Beta]}}
  over: true
""", encoding="utf-8")
    res = run_scenario(path)
    assert res.passed, res.format()
