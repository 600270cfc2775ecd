"""The scenario keys that let a test pin what the final state does not show (docs/scenarios.md):
`offered` (a decision the engine took without asking because it had one option), `values` (an
expression of the rule language), `shuffled`, and ordering decisions whose labels do not depend
on the directory the game was started from. Each test also shows a wrong expectation failing."""
from __future__ import annotations

import textwrap
from pathlib import Path

from interpreter.api import check_path, load_program
from interpreter.engine.game import Program
from interpreter.play.scenario import run_scenario
from interpreter.engine.factory import new_game
from rulekit import ruleset

RULES = """
game "Tally":
    players 2

card type Token:
    value: 1..3

zone pool: pile, shared, public
zone won: pile, per player, public
player stat pts: 0..99 = 0
stat shuffles: 0..9 = 0

setup:
    move all_cards() to pool
    shuffle pool

turn:
    you choose c from pool "Take which"
    move c to your won
    pts of you += c.value
    if count(pool) == 2:
        shuffle pool
    if pool is empty:
        end game

score p: pts of p
"""

CARDS = """
- {name: One, type: Token, value: 1}
- {name: Two, type: Token, value: 2}
- {name: Three, type: Token, value: 3}
"""


def _run(folder: Path, body: str) -> list[str]:
    """The failures of a scenario on the Tally game (empty: it passes)."""
    f = folder / "s.yaml"
    f.write_text("name: s\ncovers: [X-1]\nruleset: ..\nplayers: 2\n" + textwrap.dedent(body), encoding="utf-8")
    return run_scenario(f).failures


def _tally(tmp_path: Path) -> Path:
    rules = ruleset(tmp_path, RULES, CARDS)
    (rules / "scenarios").mkdir()
    return rules / "scenarios"


# ---- offered: a decision with one option, taken without asking ---------------------------------
def test_a_single_option_decision_can_be_asserted(tmp_path):
    scen = _tally(tmp_path)
    body = """\
        setup: {zones: {pool: [Two, Three]}}
        choices:
          - Two
          - expect: {offered: [{player: 2, prompt: "Take which", options: [%s]}]}
        """
    assert _run(scen, body % "Three") == []          # player 2 had one card left: taken unasked
    wrong = _run(scen, body % "Two")
    assert len(wrong) == 1 and "offered: no decision like" in wrong[0] and "['Three (3)']" in wrong[0]
    assert _run(scen, body.replace("player: 2", "player: 1") % "Three") != []


def test_offered_sees_answered_and_pending_decisions_since_the_last_checkpoint(tmp_path):
    scen = _tally(tmp_path)
    body = """\
        setup: {zones: {pool: [One, Two, Three]}}
        choices:
          - expect: {offered: [{player: 1, options: [One, Two, Three]}]}     # pending now
          - One
          - expect: {offered: [{player: 1, options: 3}, {player: 2, options: [Two, Three]}]}
          - expect: {offered: [%s]}
        """
    assert _run(scen, body % "{player: 2, options: 2}") == []
    # the checkpoint before it closed the window: player 1's decision is no longer there
    assert _run(scen, body % "{player: 1, options: 3}") != []


def test_the_observer_does_not_change_play(tmp_path):
    """Scenarios watch the game through `Game.observer`: the same seed gives the same game."""
    program = load_program(ruleset(tmp_path, RULES, CARDS))

    class Watch:
        seen: list = []

        def only_option(self, d):
            self.seen.append(d.labels)

        def shuffled(self, zone):
            self.seen.append(zone)

    runs = []
    for observer in (None, Watch()):
        g = new_game(program, 2, 5, observer=observer)
        while not g.over:
            g.answer(0)
        runs.append((g.result, g.state.digest(), g.choices))
    assert runs[0] == runs[1] and Watch.seen  # it did see something
    g = new_game(program, 2, 5, observer=Watch())
    assert g.clone().observer is None          # a search agent's what-ifs are not reported


# ---- shuffled ----------------------------------------------------------------------------------
def test_shuffled_lists_exactly_the_zones_shuffled_since_the_last_checkpoint(tmp_path):
    scen = _tally(tmp_path)
    body = """\
        setup: {zones: {pool: [One, Two, Three]}}
        choices:
          - expect: {shuffled: []}
          - One                      # two cards are left: the rules shuffle the pool
          - expect: {shuffled: [%s]}
          - Two
        expect: {shuffled: []}       # nothing since
        """
    assert _run(scen, body % "pool") == []
    assert _run(scen, body % "") == ["checkpoint (entry 3 of `choices`): shuffled: expected [], got ['pool'] "
                                     "(since the last checkpoint)"]
    assert _run(scen, body % "pool, pool") != []


def test_the_first_window_starts_after_the_scenarios_setup(tmp_path):
    """The rules' setup shuffled the pool; a scenario `setup` replaced what that shuffle made,
    so it is not counted; without a `setup` it is."""
    scen = _tally(tmp_path)
    assert _run(scen, "choices: [{expect: {shuffled: [pool]}}]\n") == []
    assert _run(scen, "setup: {zones: {pool: [One, Two, Three]}}\nchoices: [{expect: {shuffled: []}}]\n") == []
    assert _run(scen, "choices: [{expect: {shuffled: []}}]\n") != []


def test_shuffled_fails_when_the_rules_do_not_shuffle(tmp_path):
    rules = ruleset(tmp_path, RULES.replace("        shuffle pool\n", "        pass\n"), CARDS)
    (rules / "scenarios").mkdir()
    body = """\
        setup: {zones: {pool: [One, Two, Three]}}
        choices: [One]
        expect: {shuffled: [pool]}
        """
    assert _run(rules / "scenarios", body) == ["shuffled: expected ['pool'], got [] (since the last checkpoint)"]


# ---- values: expressions of the rule language ---------------------------------------------------
def test_values_evaluate_rule_expressions_on_the_state_at_that_point(tmp_path):
    scen = _tally(tmp_path)
    body = """\
        setup: {zones: {pool: [One, Two, Three]}}
        choices:
          - Three
          - expect:
              values:
                "pts of players[0]": 3
                "player 1: your pts + 10": 13
                "your pts": 0                    # `you` is the active player (2)
                "active_player": "player 2"
                "pool": [%s]                     # a pile, top first
                "count(pool) == 2": true
                "first(won of players[0])": "Three"
        """
    assert _run(scen, body % "Two, One") == []          # (as the seeded shuffle left it)
    wrong = _run(scen, body % "One, Two")
    assert wrong == ["checkpoint (entry 2 of `choices`): value `pool`: expected ['One', 'Two'], "
                     "got ['Two:2', 'One:1']"]


def test_a_wrong_value_and_bad_expressions_are_clear_failures(tmp_path):
    scen = _tally(tmp_path)
    failures = _run(scen, """\
        expect:
          values: {"your pts": 1, "your nothing": 0, "pts of": 0, "player 7: your pts": 0, "1 / 0": 0}
        """)
    assert failures[0] == "value `your pts`: expected 1, got 0"
    assert failures[1].startswith("value `your nothing`: the rules cannot evaluate it:") and "nothing" in failures[1]
    assert failures[2].startswith("value `pts of`: not an expression of the rule language")
    assert failures[3] == "value `player 7: your pts`: there is no player 7"
    assert failures[4] == "value `1 / 0`: the rules cannot evaluate it: division by zero"
    assert not any("Traceback" in f or "Error:" in f for f in failures)


# ---- ordering decisions: labels that name the rule's file and line, not its path ----------------
ORDER_RULES = """
game "Echo":
    players 2

card type Token:
    value: 1..3

zone pool: pile, shared, public
stat trail: 0..999 = 0
event rang

setup:
    move all_cards() to pool

turn:
    fire rang by you
    end game

when rang:
    set trail to trail * 10 + 1

when rang:
    set trail to trail * 10 + 2

score p: trail
"""


def test_ordering_decisions_have_labels_that_do_not_depend_on_the_directory(tmp_path, monkeypatch):
    rules = ruleset(tmp_path, ORDER_RULES, CARDS)
    program = load_program(rules)
    labels = new_game(program, 2, 0).decision.labels
    assert labels == ["game.rules:18", "game.rules:21"]
    assert str(rules) in str(program.rs.triggers[0].loc)   # its rules' file is known by its full path
    monkeypatch.chdir(rules)                      # started from elsewhere: the same labels
    rs, _ = check_path(rules)                     # (loaded again, not from the cache)
    assert rs.triggers[0].loc.file == "game.rules"
    assert new_game(Program(rs), 2, 0).decision.labels == labels
    (rules / "scenarios").mkdir()
    body = """\
        choices:
          - expect: {decision: {kind: order, options: ["game.rules:21", "game.rules:18"]}}
          - "game.rules:21"
        expect: {stats: {trail: %s}}
        """
    assert _run(rules / "scenarios", body % 21) == []
    assert _run(rules / "scenarios", body % 12) == ["stat trail: expected 12, got 21"]
