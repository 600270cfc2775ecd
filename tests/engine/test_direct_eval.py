"""Direct code evaluates the rule-language expressions it is asked about by itself (engine/
directeval.py): bots' `prefer` and `value` rules, constants, scenarios' `values:` and the values
named in a run-time error; each is checked against what the rules say it must be."""
from __future__ import annotations

import textwrap

import pytest

from interpreter.api import load_program
from interpreter.engine.directfacade import DirectFacade
from interpreter.engine.factory import new_game
from interpreter.engine.game import Limits
from interpreter.play.agents import GuidedAgent
from interpreter.play.scenario import run_scenario
from interpreter.runtime.errors import LimitExceeded, RuleError
from rulekit import SHIPPED, build, line_of

GEMS = """
card type Gem:
    v: 1..9
zone pool: set, shared, public
zone won: set, per player, public
zone spare: set, shared, public
player stat bonus: 0..99
constant best = max((pool).v)
constant top_gem = first(pool where it.v == 9)
setup:
    move all_cards() to pool
turn:
    if pool is empty:
        end game
    else:
        you chooses c from pool "Take which gem?"
        move c to won of you
        you chooses n from [1, 2, 3] "Pick a number"
        set bonus of you to bonus of you + n
        you chooses w from [pool, spare] "Look where?"
score p: sum((won of p).v) + bonus of p
value p: 10 * sum((won of p).v) + bonus of p
prefer p for "Take which gem?": it.v + count(won of p)
prefer p for "Pick a number": it
prefer p for "Look where?": count(it)
"""
CARDS = "".join(f"- {{name: G{v}, type: Gem, v: {v}}}\n" for v in (3, 9, 1, 7, 5))


def _program(tmp_path):
    return build(tmp_path, GEMS, CARDS)


def test_guided_games_follow_the_preferences_direct_code_computes(tmp_path):
    program = _program(tmp_path)
    vs = [c.fields["v"] for c in program.rs.cards]
    for seed in range(3):
        g = new_game(program, 2, seed)
        assert type(g).__name__ in ("DirectGame", "ResumableGame")
        seats = [GuidedAgent(f"{seed}/{i}") for i in range(2)]
        while not g.over:
            d = g.decision
            prefs = g.preferences(d)
            if d.prompt == "Take which gem?":  # the gem's v plus the gems the player holds
                held = len(g.state.zones[f"won#{int(d.player)}"])
                assert prefs == [float(vs[c] + held) for c in d.options]
            elif d.prompt == "Pick a number":  # numbers, not the cards with those ids
                assert prefs == [1.0, 2.0, 3.0]
            else:  # zones as options: counted as the zones they are
                assert prefs == [float(len(g.state.zones["pool"])), 0.0]
            g.answer(seats[d.player].choose(g, d))
        assert g.error is None
        won = [sorted((vs[c] for c in g.state.zones[f"won#{p}"]), reverse=True) for p in range(2)]
        assert won == [[9, 5, 1], [7, 3]]  # the best gem left, every time
        assert g.result["scores"] == [9 + 5 + 1 + 3 * 3, 7 + 3 + 2 * 3]  # and always the number 3


def test_values_and_constants_come_from_direct_code(tmp_path):
    program = _program(tmp_path)
    g = new_game(program, 2, 0)
    while not g.over and len(g.state.zones["won#1"]) < 2:
        g.answer(0)
    won = [sum(program.rs.cards[c].fields["v"] for c in g.state.zones[f"won#{p}"]) for p in range(2)]
    bonus = [g.state.pstats[p]["bonus"] for p in range(2)]
    want = [float(10 * won[p] + bonus[p]) for p in range(2)]
    assert g.values() == want
    assert DirectFacade.values(g) == want  # the rule compiled on its own gives what the module's does
    # constants were evaluated before setup, when the pool was empty
    assert g.constants_value("best") == 0 and g.constants_value("top_gem") is None
    assert g.constants_value("no_such_constant") is None
    copy = new_game(program, 2, 0)  # copyable (no seats given)
    before = DirectFacade.values(copy)
    twin = copy.clone()
    twin.answer(1)  # the twin takes G9
    assert DirectFacade.values(twin) == [90.0, 0.0] and DirectFacade.values(copy) == before == [0.0, 0.0]


def test_a_constant_holding_a_card_is_the_card(tmp_path):
    program = build(tmp_path, 'card type Gem:\n    v: 1..9\nconstant gem = first(all_cards() where it.v == 9)\n'
                    'turn:\n    end game\n', "- {name: G3, type: Gem, v: 3}\n- {name: G9, type: Gem, v: 9}\n")
    g = new_game(program, 2, 0)
    assert g.constants_value("gem").name == "G9"


def test_a_runaway_preference_stops_with_the_limit_at_its_rule(tmp_path):
    extra = 'prefer p for "Pick": count([x for each x in 1..5000])\n'
    program = build(tmp_path, GEMS.replace("prefer p for \"Pick a number\": it\n", "") + extra, CARDS)
    g = new_game(program, 2, 0, limits=Limits(max_work=1000))
    g.answer(0)
    d = g.decision
    assert d.prompt == "Pick a number"
    with pytest.raises(LimitExceeded, match="more than 1000 items") as e:
        g.preferences(d)
    assert e.value.loc.line == line_of(program, 'prefer p for "Pick"')
    # each question is counted from nothing, and the game's own count is left as it was
    work = g.R.work
    with pytest.raises(LimitExceeded):
        g.preferences(d)
    assert g.R.work == work


def test_a_preference_that_is_no_number_names_the_option(tmp_path):
    program = build(tmp_path, GEMS.replace('it.v + count(won of p)', 'it'),
                    CARDS)
    g = new_game(program, 2, 0)
    with pytest.raises(RuleError, match=r"preference of player 1 for G3\b.* is not a number"):
        g.preferences(g.decision)


def test_a_scenario_checks_values_on_direct_code(tmp_path):
    program = _program(tmp_path)
    folder = tmp_path / "rs"
    scen = folder / "scenarios"
    scen.mkdir()
    body = """\
        name: values on direct code
        ruleset: ..
        players: 2
        seed: 0
        choices:
          - G9
          - "2"
          - expect:
              stats: {best: 0}
              values:
                "first(won of players[0])": "G9"
                "player 1: bonus of you + 10": 12
                "count(pool)": 4
                "won of 0": [G9]
                "pool where it.v > 4": [%s]
                "best": 0
                "count(won of 1) == 0": true
        """
    (scen / "ok.yaml").write_text(textwrap.dedent(body % "G7, G5"), encoding="utf-8")
    (scen / "wrong.yaml").write_text(textwrap.dedent(body % "G5"), encoding="utf-8")
    assert program.rs.cards
    ok = run_scenario(scen / "ok.yaml")
    assert ok.passed, ok.format()
    wrong = run_scenario(scen / "wrong.yaml")
    assert not wrong.passed and "value `pool where it.v > 4`: expected ['G5'], got ['G7:7', 'G5:5']" in wrong.format()


def test_a_failed_rule_names_its_parts_values_on_direct_code(tmp_path):
    program = build(tmp_path, "card type Gem:\n    v: 1..3\nzone deck: pile, shared, hidden\n"
                    "turn:\n    log 3 / count(deck)\n    end game\n", "- {name: Ruby, type: Gem, v: 1}\n")
    g = new_game(program, 2, 1)
    assert g.over and g.error.message == "division by zero in `3 / count(deck)`: `count(deck)` is 0"


def test_a_shipped_games_rules_rate_rows_cards_and_yes_no():
    """Toil and Troublez's guidance rates rows (`row_worth(it)`: Talismans in and under the row),
    cards and a yes/no question; every rating comes out a number and rows are told apart."""
    program = load_program(SHIPPED / "toil_and_troublez")
    rated = {}
    for seed in range(2):
        g = new_game(program, 2, seed)
        seats = [GuidedAgent(f"{seed}/{i}") for i in range(2)]
        while not g.over:
            d = g.decision
            prefs = g.preferences(d)
            if prefs is not None:
                rated.setdefault(d.prompt, set()).update(prefs)
                if d.prompt == "Take which row?":  # a row's worth counts its Talismans: never more than its cards
                    assert all(p <= len(row) + sum(len(g.state.under.get(c, ())) for c in row)
                               for p, row in zip(prefs, d.options))
            g.answer(seats[d.player].choose(g, d))
        assert g.error is None
    assert rated["Take which row?"] - {0.0} and rated["Draw another card?"] <= {0.0, 1.0}


def test_the_rule_for_a_prompt_is_the_longest_it_begins_with_however_many_prompts_were_asked(tmp_path):
    """`prefer_rule_for` remembers each prompt's rule (a search asks at every decision): the
    longest declared prompt the decision's begins with, else the rule without one — the same
    answer once its memory of prompts is full."""
    from interpreter.engine import directeval
    from interpreter.engine.factory import compiled
    extra = 'prefer p for "Pick": 0\nprefer p: 1\n'
    dp = compiled(build(tmp_path, GEMS + extra, CARDS))

    def rule(prompt):
        got = directeval.prefer_rule_for(dp, prompt)
        assert got is not None  # (the rule without a prompt rates what no other rule names)
        return got[0]

    for _ in range(2):  # found, then remembered
        assert rule("Pick a number") == "Pick a number"
        assert rule("Pick one") == "Pick"
        assert rule("Take which gem? (3 left)") == "Take which gem?"
        assert rule("Something else") is None  # the rule without a prompt
    for i in range(directeval._PROMPTS_KEPT + 10):  # prompts naming numbers: more than it keeps
        assert rule(f"Pick {i}") == "Pick"
        assert rule(f"Roll {i}") is None
    assert rule("Pick a number, again") == "Pick a number"
