"""`prefer p for action "LABEL": EXPR` (docs/language.md, option preferences): a rule for the
options of an action decision, named by the labels the rules and cards declare, which every
`take actions` asks under the same prompt. The guided agent follows it on both engines; a label
no decision offers is an error at the label."""
from __future__ import annotations

import pytest

from interpreter.api import load_program
from interpreter.engine.factory import new_game
from interpreter.play.agents import GuidedAgent, RandomAgent
from interpreter.runtime.errors import RuleError
from rulekit import build, errors, named_ruleset, play_trace

# Each turn: actions until "Stop". Run and Walk move, Rest does nothing; a Lamp in the player's
# shelf offers "Polish", which adds its own shine. Every action is once a turn.
ACTS = """
player stat pos: 0..999
card type Lamp:
    shine: 1..9
zone box: pile, shared, public
zone shelf: set, per player, public
setup:
    move all_cards() to box
    for each p in players:
        move first(values(box), 2) to shelf of p
turn:
    you take actions "Stop"
    if turn_number >= 8:
        end game
action "Run" once per turn:
    pos of you += 2
action "Walk" once per turn:
    pos of you += 1
action "Rest" once per turn:
    pass
score p: pos of p
"""
LAMPS = """
- name: Lamp
  type: Lamp
  shine: 1
  copies: 2
  effect: |
    action "Polish" once per turn:
        pos of you += this.shine
- name: Lamp
  type: Lamp
  shine: 5
  copies: 2
  effect: |
    action "Polish" once per turn:
        pos of you += this.shine
"""
PREFS = """
prefer p for action "R": 1
prefer p for action "Run": 4
prefer p for action "Walk": 3 if it == "Walk" else 0
prefer p for action "Polish": this.shine - 3
prefer p for action "Stop": 2
"""


def _labels_per_turn(program, seed: int = 3) -> tuple[list[list[str]], list, list]:
    """The labels the first seat chose, turn by turn (a turn ends at "Stop"), with every decision's
    ratings and the game's choices, by guided seats."""
    seats = [GuidedAgent(f"{seed}/{i}") for i in range(2)]
    g = new_game(program, 2, seed, seats=seats)
    turns, current, rated = [], [], []
    while not g.over:
        d = g.decision
        rated.append(g.preferences(d))
        i = seats[d.player].choose(g, d)
        if d.player == 0:
            current.append(d.labels[i])
            if d.labels[i] == "Stop":
                turns.append(current)
                current = []
        g.answer(i)
    assert g.error is None
    return turns, rated, g.choices


def test_guided_takes_actions_in_the_order_the_rules_rate_them(tmp_path):
    """Run (4) before Walk (3) before "Stop" (2), the bright Lamp's Polish (5 - 3) before Stop
    too, the dim one's (1 - 3) and Rest (1, by the shorter rule "R") never: every turn the same
    sequence. Random or prompt-only play would mix them."""
    program = build(tmp_path, ACTS + PREFS, LAMPS)
    turns, rated, _ = _labels_per_turn(program)
    assert len(turns) == 4
    # the bright Lamp is seat 1's or not, by the deal: Polish is taken exactly when it is
    for t in turns:
        assert t[:2] == ["Run", "Walk"] and t[-1] == "Stop", t
        assert set(t[2:-1]) <= {"Polish (Lamp)"} and "Rest" not in t
    assert any(len(set(r)) > 2 for r in rated if r)


def test_polish_follows_the_cards_shine(tmp_path):
    """`this` is the card offering the action: with both Lamps on the shelf, only the bright
    one's Polish is rated above the turn's end."""
    cards = LAMPS.replace("copies: 2", "copies: 1")  # one of each: seat 1 gets both
    program = build(tmp_path, ACTS + PREFS, cards)
    g = new_game(program, 2, 1, )
    d = g.decision
    rated = list(zip(d.labels, g.preferences(d)))
    assert [v for k, v in rated if not k.startswith("Polish")] == [4, 3, 1, 2]  # Run, Walk, Rest, Stop
    assert sorted(v for k, v in rated if k.startswith("Polish")) == [-2, 2]


def test_options_no_rule_names_rate_zero_or_by_the_prompt_rule(tmp_path):
    """Beside a rule for actions, an option it does not name rates 0, or by the decision's prompt
    rule where there is one (`it` then the option as before); with no rule for any of the
    options, the decision is rated as it was (here: not at all, so guided plays as random)."""
    only_run = build(tmp_path / "a", ACTS + 'prefer p for action "Run": 1\n', LAMPS)
    g = new_game(only_run, 2, 1)
    assert dict(zip(g.decision.labels, g.preferences(g.decision))) == \
        {"Run": 1, "Walk": 0, "Rest": 0, "Polish (Lamp)": 0, "Stop": 0}
    with_prompt = build(tmp_path / "b", ACTS + 'prefer p for action "Run": 1\n'
                        'prefer p for "Choose an action": 0 if it == none else 5\n', LAMPS)
    g = new_game(with_prompt, 2, 1, )
    assert dict(zip(g.decision.labels, g.preferences(g.decision))) == \
        {"Run": 1, "Walk": 5, "Rest": 5, "Polish (Lamp)": 5, "Stop": 0}
    unnamed = build(tmp_path / "c", ACTS + 'prefer p for action "Stop": 1\n', LAMPS)
    g = new_game(unnamed, 2, 1)
    rated = g.preferences(g.decision)
    assert rated[-1] == 1 and set(rated[:-1]) == {0}  # only the ending option, by its text
    other = build(tmp_path / "d", ACTS + 'action "Jump" if turn_number > 99:\n    pass\n'
                  'prefer p for action "Jump": 1\n')  # never offered
    guided, rand = new_game(other, 2, 5), new_game(other, 2, 5)
    assert guided.preferences(guided.decision) is None
    assert play_trace(guided, [GuidedAgent("5/0"), GuidedAgent("5/1")]) == \
        play_trace(rand, [RandomAgent("5/0"), RandomAgent("5/1")])


def test_a_label_no_decision_offers_is_an_error_at_the_label(tmp_path):
    bad = errors(tmp_path, 'game "T":\n    players 2\n' + ACTS + 'prefer p for action "Rnu": 1\n', LAMPS)
    [d] = [d for d in bad if d.code == "prefer/action"]
    assert '"Rnu' in d.message and d.hint == 'did you mean "Run"?'
    assert (d.loc.line, d.loc.col) == (ACTS.count("\n") + 3, 21)  # the label, below the 2-line header
    fine = errors(tmp_path, 'game "T":\n    players 2\n' + ACTS + PREFS, LAMPS)
    assert not [d for d in fine if d.severity == "error"]  # labels of cards and the ending text count
    twice = errors(tmp_path, 'game "T":\n    players 2\n' + ACTS + 'prefer p for action "Run": 1\n'
                   'prefer q for action "Run": 2\n', LAMPS)
    assert any('more than one `prefer` rule for action "Run"' in d.message for d in twice)


def test_a_rating_that_is_not_a_number_names_the_action(tmp_path):
    program = build(tmp_path, ACTS + 'prefer p for action "Walk": it\n', LAMPS)
    g = new_game(program, 2, 0)
    with pytest.raises(RuleError, match=r"preference of player 1 for Walk is not a number"):
        GuidedAgent(0).choose(g, g.decision)


def test_a_mod_rates_its_own_actions_and_keeps_the_bases_rules(tmp_path):
    """A mod's rule replaces its base's for the same label only: the base's other rules stay."""
    named_ruleset(tmp_path, "base", 'game "Base":\n    players 2\n' + ACTS + PREFS, LAMPS)
    mod = named_ruleset(tmp_path, "mod", 'game "Mod":\n    extends "base"\n'
                        'action "Jump" once per turn:\n    pos of you += 9\n'
                        'prefer p for action "Jump": 9\nprefer p for action "Walk": 0\n')
    g = new_game(load_program(mod), 2, 1)
    prefs = dict(zip(g.decision.labels, g.preferences(g.decision)))
    assert prefs["Jump"] == 9 and prefs["Walk"] == 0 and prefs["Run"] == 4 and prefs["Stop"] == 2
