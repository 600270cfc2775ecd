"""`grimoire explain`: the rules, a card or a named rule in plain English, from the constructs' own
`describe()` (issue "Cards people can read and print": English from rules)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.analysis.explain import UnknownSubject, explain
from interpreter.api import check_path
from rulekit import ruleset

RULES = """
game "Gems":
    players 2

card type Gem:
    color: Red | Blue
    worth: 1..3

zone bag: pile, shared, hidden
zone hand: set, per player, owner
event picked

setup:
    move all_cards() to bag

turn:
    draw 1 from bag to your hand
    if bag is empty:
        end game

procedure tidy(p):
    move hand of p where it.worth == 1 to bag

score p: sum((hand of p).worth)
"""

CARDS = """
- name: Ruby
  type: Gem
  color: Red
  worth: 3
  effect: |
    when picked:
        for each p in other_players():
            tidy(p)
- {name: Pebble, type: Gem, color: Blue, worth: 1, copies: 3}
"""


@pytest.fixture
def rules(tmp_path: Path):
    folder = ruleset(tmp_path, RULES, CARDS)
    rs, content = check_path(folder)
    assert rs is not None and content.ok, [d.format() for d in content.diagnostics]
    return folder, rs


def test_a_card_reads_as_its_fields_and_its_effect(rules):
    _, rs = rules
    assert explain(rs, "Ruby") == ("Ruby (Gem; color Red; worth 3)\n"
                                   "When picked: for each p in other players(): tidy(p).")


def test_copies_that_read_the_same_are_shown_once(rules):
    _, rs = rules
    assert explain(rs, "Pebble") == "Pebble (Gem; color Blue; worth 1)"


def test_a_named_rule_reads_as_a_sentence(rules):
    _, rs = rules
    assert explain(rs, "tidy") == "To tidy (given p): move the hand of p where the worth of it is 1 to bag."
    assert explain(rs, "hand") == "The hand is a zone: set, per player, owner."


def test_the_whole_ruleset_reads_declaration_by_declaration(rules):
    _, rs = rules
    text = explain(rs)
    assert text.splitlines()[0] == "The game 'Gems': players 2."
    assert "On a turn: draw a card from bag to your hand; if bag is empty: the game ends." in text
    assert "A player's score (p) is sum(the worth of the hand of p)." in text


def test_an_unknown_subject_suggests_a_name(rules):
    _, rs = rules
    with pytest.raises(UnknownSubject, match="did you mean `Ruby`"):
        explain(rs, "Rubby")


def test_cli(rules):
    folder, _ = rules
    run = lambda *a: subprocess.run([sys.executable, "-m", "interpreter", "explain", str(folder), *a],  # noqa: E731
                                    capture_output=True, text=True, timeout=120)
    ok = run("Ruby")
    assert ok.returncode == 0 and ok.stdout.startswith("Ruby (Gem; color Red; worth 3)\nWhen picked:")
    bad = run("Rubby")
    assert bad.returncode == 2 and "did you mean `Ruby`" in bad.stderr and "Traceback" not in bad.stderr
