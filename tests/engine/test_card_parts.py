"""Card parts (`part NAME:` in an effect) and zones whose covered cards keep only one part
(`covered keep NAME`); `position(card)` for markets priced by distance.
See docs/language-stacks-and-markets.md."""
from __future__ import annotations

from rulekit import answer, errors, game

RULES = """
game "Parts":
    players 2

card type Gear:
    power: 0..9

zone supply: pile, shared, public
zone gear: pile, per player, public, covered keep lower
zone bag: pile, per player, public
player stat gold = 0
event tick

setup:
    move all_cards() where it.name != "Loose" to gear of first(players)
    move all_cards() where it.name == "Loose" to bag of first(players)

turn:
    fire tick
    you take actions "Stop"
    end game

score p: gold of p
"""

CARDS = """
- name: Bottom
  type: Gear
  power: 1
  effect: |
    action "upper of Bottom":
        you gain 100 gold
    part lower:
        action "lower of Bottom":
            you gain 1 gold
        whenever tick:
            you gain 1000 gold
- name: Top
  type: Gear
  power: 2
  effect: |
    action "upper of Top":
        you gain 10 gold
    part lower:
        action "lower of Top" twice per turn:
            you gain 5 gold
- name: Loose
  type: Gear
  power: 3
  effect: |
    action "upper of Loose":
        you gain 7 gold
"""


def test_top_card_whole_covered_cards_lower_part_only(tmp_path):
    g = game(tmp_path, RULES, CARDS)
    labels = g.decision.labels
    assert any(l.startswith("upper of Top") for l in labels)
    assert any(l.startswith("lower of Top") for l in labels)
    assert any(l.startswith("lower of Bottom") for l in labels)
    assert not any(l.startswith("upper of Bottom") for l in labels)  # covered: upper part inactive
    assert any(l.startswith("upper of Loose") for l in labels)     # a plain zone: everything active
    assert g.state.pstats[0]["gold"] == 1000  # the covered card's lower `whenever` still answers


def test_upper_part_comes_back_when_uncovered(tmp_path):
    rules = RULES.replace('    you take actions "Stop"', '    move top(your gear) to supply\n    you take actions "Stop"')
    g = game(tmp_path, rules, CARDS)
    labels = g.decision.labels
    assert any(l.startswith("upper of Bottom") for l in labels)


def test_use_limits_still_count(tmp_path):
    g = game(tmp_path, RULES, CARDS)
    answer(g, 0, "lower of Top")
    answer(g, 0, "lower of Top")
    assert not any(l.startswith("lower of Top") for l in g.decision.labels)
    assert g.state.pstats[0]["gold"] == 1010


def test_position_counts_cards_before(tmp_path):
    rules = RULES.replace('    you take actions "Stop"',
                          '    for each c in your gear:\n        you gain (position(c) + 1) * c.power gold')
    g = game(tmp_path, rules, CARDS)
    # Bottom (power 1) at position 0, Top (power 2) at position 1: 1 + 4, plus the tick's 1000
    assert g.over and g.state.pstats[0]["gold"] == 1005


def test_part_name_in_zone_needs_three_words(tmp_path):
    errs = errors(tmp_path, RULES.replace("covered keep lower", "covered keep"), CARDS)
    assert [e.code for e in errs] == ["zone/property"]


def test_zone_keeping_an_unknown_part_is_warned(tmp_path):
    from rulekit import ruleset
    from interpreter.api import check_path
    _, content = check_path(ruleset(tmp_path, RULES.replace("covered keep lower", "covered keep lowre"), CARDS))
    warns = [d for d in content.diagnostics if d.code == "zone/part"]
    assert len(warns) == 1 and warns[0].hint == "did you mean `lower`?" and warns[0].loc.line == 8
