"""Language version 2, construct by construct, on tiny rule files (see docs/language-v2.md).

Each test writes a minimal ruleset to a temporary folder, so no game's content is involved.
"""
from __future__ import annotations

from typing import Any
import textwrap
from pathlib import Path

import pytest

from interpreter.api import check_path, load_program
from interpreter.language.diagnostics import ContentError
from interpreter.play.scenario import run_scenario
from interpreter.sim.simulate import simulate, summarize
from interpreter.engine.factory import new_game

from rulekit import ruleset


def game(tmp_path: Path, rules: str, cards: str | None = None, players: int = 2, seed: int = 0,
         rolls: list | None = None) -> Any:
    program = load_program(ruleset(tmp_path, rules, cards))

    def arrange(g: Any) -> None:
        g.forced_rolls = list(rolls or [])
    return new_game(program, players, seed, after_setup=arrange)


def answer(g: Any, *labels: str) -> None:
    """Answer pending decisions by label (prefix match), in order."""
    for text in labels:
        d = g.decision
        assert d is not None, f"no decision pending for {text!r} (error: {g.error})"
        hits = [i for i, label in enumerate(d.labels) if label == text] or \
            [i for i, label in enumerate(d.labels) if label.startswith(text)]
        assert hits, f"{text!r} is not among {d.labels} at {d.prompt!r}"
        g.answer(hits[0])


def diagnostics(tmp_path: Path, rules: str, cards: str | None = None) -> list:
    _, content = check_path(ruleset(tmp_path, rules, cards))
    return content.diagnostics


def codes(diags) -> set[str]:
    return {d.code for d in diags if d.severity == "error"}


HEADER = """
game "Test":
    players 1..4
player stat gold: 0..20 = 3
player stat marks: 0..20 = 0
player stat score = 0
zone pool: set, shared, public
zone mine: set, per player, public
"""


# ---- dice ------------------------------------------------------------------------------------
DICE = HEADER + """
die type Coin: heads | tails, 3 dice
setup:
    move all_cards() to pool
when rolled(d):
    if d.face == heads:
        your marks += 1
turn:
    roll pool
    you choose any again from pool "Again"
    roll again
    your score += count(pool where it.face == tails)
round:
    play turn of start_player
    end game
score p: score of p
"""


def test_die_type_with_count_makes_dice_and_roll_fires_rolled_per_die(tmp_path):
    g = game(tmp_path, DICE, rolls=["heads", "tails", "heads", "tails", "tails"])
    assert [c.type for c in g.cards] == ["Coin"] * 3
    assert g.state.pstats[0]["marks"] == 2  # one `rolled` per die showing heads
    answer(g, "yes", "no", "yes")  # re-roll dice 1 and 3 only
    assert g.over and g.error is None
    assert g.state.pstats[0]["marks"] == 2  # the re-rolls showed tails: nothing new marked
    assert g.result["scores"][0] == 3


def test_a_scripted_face_that_the_die_lacks_is_an_error(tmp_path):
    g = game(tmp_path, DICE, rolls=["edge"])
    assert g.over and "not a face of Coin" in str(g.error)


# ---- counted choices ---------------------------------------------------------------------------
CHOICES = HEADER + """
card type Gem:
    value: 1..9
setup:
    move all_cards() to pool
turn:
    you choose up to 2 picked from pool "Pick"
    move picked to your mine
    you choose 1 more from pool "One more"
    move more to your mine
round:
    play turn of start_player
    end game
score p: sum((mine of p).value)
"""
GEMS = """
- {name: Ruby, type: Gem, value: 5}
- {name: Opal, type: Gem, value: 2}
- {name: Jade, type: Gem, value: 1}
"""


def test_choose_up_to_may_stop_early_and_choose_exactly_n(tmp_path):
    g = game(tmp_path, CHOICES, GEMS)
    assert "stop choosing" in g.decision.labels
    answer(g, "Ruby", "stop choosing", "Jade")
    assert g.over and g.result["scores"][0] == 6


# ---- actions with use limits ----------------------------------------------------------------
ACTIONS = HEADER + """
card type Tool:
    power: 1..3
action "Dig" once per turn:
    you gain 1 gold
action "Spend" if your gold >= 2:
    you lose 2 gold
    your score += 1
setup:
    move all_cards() to pool
turn:
    you take actions from pool "Stop"
round:
    for each p in turn_order():
        play turn of p
    end game
score p: score of p
"""
TOOLS = """
- name: Lever
  type: Tool
  power: 2
  effect: |
    action "Pull" twice per game:
        your score += 10
"""


def test_actions_respect_limits_conditions_and_sources(tmp_path):
    g = game(tmp_path, ACTIONS, TOOLS)
    assert sorted(g.decision.labels) == ["Dig", "Pull (Lever)", "Spend", "Stop"]
    answer(g, "Dig", "Spend", "Pull (Lever)")
    assert sorted(g.decision.labels) == ["Pull (Lever)", "Spend", "Stop"]  # Dig: once per turn
    answer(g, "Spend", "Pull (Lever)")
    # no gold left to Spend, Pull used twice: only "Stop" is left, and a lone option is taken
    assert g.state.pstats[0]["gold"] == 0
    assert g.decision.player == 1 and "Dig" in g.decision.labels  # `once per turn` resets each turn
    assert "Pull (Lever)" not in g.decision.labels  # `twice per game` is used up for everyone
    answer(g, "Stop")
    assert g.result["scores"] == [22, 0]


# ---- gain and lose, with shortfall ---------------------------------------------------------------
SHORT = HEADER + """
when short of gold by n:
    your marks += n
turn:
    you lose 5 gold
    you gain 30 score
    you lose 1 marks
round:
    play turn of start_player
    end game
score p: score of p
"""


def test_a_loss_beyond_zero_runs_the_short_trigger_with_the_missing_amount(tmp_path):
    g = game(tmp_path, SHORT)
    assert g.over and g.error is None
    st = g.state.pstats[0]
    assert st["gold"] == 0 and st["marks"] == 1  # 2 short → 2 marks, then 1 lost
    assert st["score"] == 30  # an unbounded stat takes any gain


def test_short_trigger_needs_a_player_stat(tmp_path):
    diags = diagnostics(tmp_path, HEADER + """
when short of fame by n:
    your marks += n
turn:
    pass
""")
    assert "name/undefined" in codes(diags)


# ---- whenever triggers on cards in play -------------------------------------------------------------
WHENEVER = HEADER + """
card type Charm:
    power: 1..3
event rang
setup:
    move all_cards() to pool
turn:
    if your mine is empty:
        move first(pool) to your mine
    fire rang
round:
    for each p in turn_order():
        play turn of p
    end game
score p: gold of p
"""
BELL = """
- name: Bell
  type: Charm
  power: 1
  effect: |
    whenever rang:
        you gain 1 gold
"""


def test_whenever_answers_for_cards_in_a_players_zone_and_their_owner_acts(tmp_path):
    g = game(tmp_path, WHENEVER, BELL)
    # player 1 takes the Bell, then both turns ring: the Bell answers both times, for player 1
    assert g.over and g.error is None
    assert g.result["scores"] == [5, 3]


# ---- game_end ------------------------------------------------------------------------------------
def test_game_end_fires_before_scoring(tmp_path):
    g = game(tmp_path, HEADER + """
when game_end:
    for each p in players:
        p gains 7 score
turn:
    pass
round:
    play turn of start_player
    end game
score p: score of p
""")
    assert g.result["scores"] == [7, 7]


# ---- functions -------------------------------------------------------------------------------------
FUNCTIONS = HEADER + """
function double(x) = 2 * x
function richest() = first(players where gold of it == max(gold of players))
function fact(n) = 1 if n <= 1 else n * fact(n - 1)
function my_worth() = your gold + your marks
turn:
    your score += double(fact(4)) + my_worth()
    set gold of richest() to 0
round:
    play turn of start_player
    end game
score p: score of p
"""


def test_functions_give_values_see_you_and_may_recurse(tmp_path):
    g = game(tmp_path, FUNCTIONS)
    assert g.error is None
    assert g.result["scores"][0] == 48 + 3
    assert g.state.pstats[0]["gold"] == 0  # ties: the first richest


def test_function_diagnostics(tmp_path):
    diags = diagnostics(tmp_path, HEADER + """
function half(x) = x / 2
function unused() = 1
function count(x) = 1
turn:
    your score += half(1, 2)
    half(3)
    your score += nothing(1)
""")
    by_code = {(d.code, d.severity) for d in diags}
    assert ("call/arity", "error") in by_code  # half(1, 2)
    assert ("call/value", "error") in by_code  # a function alone on a line
    assert ("name/undefined", "error") in by_code  # nothing(1)
    assert ("name/duplicate", "error") in by_code  # `count` is built in
    assert ("unused/function", "warning") in by_code


def test_endless_function_recursion_stops_with_a_clear_error(tmp_path):
    g = game(tmp_path, HEADER + """
function loop(x) = loop(x + 1)
turn:
    your score += loop(0)
round:
    play turn of start_player
    end game
""")
    assert g.over and "functions nest deeper" in str(g.error)


# ---- dummy players ---------------------------------------------------------------------------------
DUMMY = HEADER + """
stat seen = 0
setup:
    if player_count == 1:
        add a dummy player as bot
        set score of bot to 50
turn:
    your score += 1
    set seen to count(turn_order())
    for each p in other_players():
        p chooses x from [1, 2, 3] "Pick for the other"
        p gains x gold
round:
    for each p in turn_order():
        play turn of p
    end game
score p: score of p
tiebreak p: 1 if p is dummy else 0
"""


def test_a_dummy_player_has_a_seat_but_takes_no_turns(tmp_path):
    g = game(tmp_path, DUMMY, players=1)
    assert g.state.players == 1 and g.state.dummies == 1 and len(g.seats) == 2
    assert g.state.pstats[1]["gold"] == 3  # player stats start as declared
    assert "mine#1" in g.state.zones  # and it has its per-player zones
    d = g.decision
    assert d.player == 0 and d.prompt == "Pick for the other"  # the active player decides for it
    answer(g, "2")
    assert g.over and g.error is None
    assert g.state.stats["seen"] == 1  # only the real player takes turns
    assert g.state.pstats[1]["gold"] == 5
    assert g.result["scores"] == [1, 50] and g.result["winners"] == [1]


def test_dummy_wins_ties_through_a_tiebreak(tmp_path):
    g = game(tmp_path, DUMMY.replace("set score of bot to 50", "set score of bot to 1"), players=1)
    answer(g, "1")
    assert g.result["scores"] == [1, 1] and g.result["winners"] == [1]


def test_without_dummies_nothing_changes(tmp_path):
    g = game(tmp_path, DUMMY, players=2)
    assert g.state.dummies == 0
    answer(g, "1", "1")
    assert g.result["winners"] == [0, 1]


def test_is_dummy_is_known_to_the_checker(tmp_path):
    assert not codes(diagnostics(tmp_path, DUMMY))


def test_simulation_reports_a_dummy_seat(tmp_path):
    path = ruleset(tmp_path, DUMMY)
    report = simulate(str(path), 5, 1, 0, ["random"])
    assert not report["errors"]
    assert [s.get("dummy", False) for s in report["seats"]] == [False, True]
    assert report["seats"][1]["win_rate"] == 1.0
    assert summarize([], 2)["seats"][0]["wins"] == 0


# ---- card names, flag defaults ---------------------------------------------------------------------
NAMES = HEADER + """
card type Token:
    shiny: flag = false
setup:
    move all_cards() to pool
turn:
    your score += count(pool where it.name == "Button")
    your gold += count(pool where it.shiny)
round:
    play turn of start_player
    end game
score p: score of p
"""
TOKENS = """
- {name: Button, type: Token, copies: 2}
- {name: Button, type: Token, shiny: true}
- {name: Pebble, type: Token}
"""


def test_cards_have_a_name_and_flags_default_to_a_boolean(tmp_path):
    g = game(tmp_path, NAMES, TOKENS)
    assert g.error is None
    assert [c.fields["shiny"] for c in g.cards] == [False, False, True, False]
    assert g.result["scores"][0] == 3
    assert g.state.pstats[0]["gold"] == 4


# ---- scenarios: scripted rolls and answers in a row --------------------------------------------------------
def test_scenario_rolls_and_choice_lists(tmp_path):
    path = ruleset(tmp_path, DICE)
    sc = tmp_path / "dice.yaml"
    sc.write_text(textwrap.dedent(f"""
        name: scripted coins
        covers: [LANG-2]
        ruleset: {path}
        players: 1
        rolls: [heads, heads, heads, tails, tails, tails]
        choices: [[yes, yes, yes]]
        expect:
          stats: {{"marks of 1": 3, "score of 1": 3}}
          over: true
    """), encoding="utf-8")
    res = run_scenario(sc)
    assert res.passed, res.format()


def test_bad_content_is_a_diagnostic_not_a_crash(tmp_path):
    with pytest.raises(ContentError):
        load_program(ruleset(tmp_path, HEADER + "\nturn:\n    add a dummy player as gold\n"))


# ---- trigger conditions ----------------------------------------------------------------------------
CONDITIONS = HEADER + """
card type Charm:
    power: 1..3
event rang
setup:
    move all_cards() to pool
when rang if your gold >= 5:
    your score += 100
turn:
    if your mine is empty:
        move first(pool) to your mine
    fire rang
round:
    for each p in turn_order():
        play turn of p
    end game
score p: score of p
"""
BELLS = """
- name: Bell
  type: Charm
  power: 1
  copies: 2
  effect: |
    whenever rang if you == active_player:
        you gain 2 gold
"""


def test_a_false_trigger_condition_does_not_answer_so_nothing_needs_ordering(tmp_path):
    g = game(tmp_path, CONDITIONS, BELLS)
    # each player takes a Bell (two copies share one effect); only the ringer's own Bell answers,
    # and the rule trigger does not answer while gold is below 5: no ordering decision
    assert g.over and g.error is None
    assert g.decisions_made == 0
    assert [s["gold"] for s in g.state.pstats] == [5, 5]
    assert g.result["scores"] == [0, 0]


def test_when_several_triggers_answer_the_active_player_orders_them(tmp_path):
    g = game(tmp_path, CONDITIONS.replace("your gold >= 5", "your gold >= 3"), BELLS)
    d = g.decision
    assert d.kind == "order" and d.player == 0 and len(d.options) == 2
    assert any(label.startswith("Bell: ") for label in d.labels)
    answer(g, "Bell: ")           # the Bell first: 5 gold, then the rule sees 5
    answer(g, "Bell: ")
    assert g.over and g.error is None and g.result["scores"] == [100, 100]


def test_a_trigger_condition_is_checked_like_any_expression(tmp_path):
    diags = diagnostics(tmp_path, HEADER + """
event rang
when rang if your goldd > 1:
    pass
turn:
    fire rang
""")
    assert "name/undefined" in codes(diags)
