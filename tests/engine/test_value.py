"""`value p: EXPR` alone: parsed, checked, explained, evaluated per seat — and inert in play.

The construct is content for bots (docs/language.md, "what a player should value"): it must give
each seat a number on demand and must never change how a game plays."""
from __future__ import annotations

from interpreter.api import load_program
from interpreter.engine.direct import compile_direct
from interpreter.engine.resumablegame import ResumableGame
from interpreter.language.parser import parse_rules
from interpreter.language.tree import ValueDecl
from interpreter.play.agents import RandomAgent
from interpreter.runtime.errors import RuleError
from interpreter.engine.factory import new_game
from rulekit import answer, build, errors

RACE = """
player stat pos: 0..99
turn:
    you chooses x from ["rest", "walk"]
    if x == "walk":
        set pos of you to pos of you + 1
    if pos of you >= 3 or turn_number >= 20:
        end game
score p: 1 if pos of p >= 3 else 0
"""


def test_parsed_into_its_class_with_english():
    mod = parse_rules('value p: 2 * count(hand of p) + 1\n', "x.rules")
    (decl,) = [d for d in mod.decls if isinstance(d, ValueDecl)]
    assert decl.binder == "p"
    assert decl.describe() == "Bots value a game for a player (p) by 2 times count of the hand of p plus 1, higher being better."


def test_values_per_seat_and_none_without_the_rule(tmp_path):
    g = new_game(build(tmp_path, RACE + "value p: 10 * pos of p + 1\n"), 2, 0)
    assert g.values() == [1.0, 1.0]
    answer(g, 0, "walk")
    assert g.values() == [11.0, 1.0]
    plain = new_game(build(tmp_path / "b", RACE), 2, 0)
    assert plain.values() is None


def test_checked_like_a_score(tmp_path):
    diags = errors(tmp_path, RACE + "value p: speed of p\n")
    assert any("speed" in d.message for d in diags), [d.message for d in diags]
    twice = errors(tmp_path, RACE + "value p: pos of p\nvalue p: 0\n")
    assert [d.message for d in twice] == ["more than one `value` rule"]


def test_a_value_that_is_not_a_number_is_a_rule_error(tmp_path):
    g = new_game(build(tmp_path, RACE + 'value p: "far"\n'), 2, 0)
    try:
        g.values()
    except RuleError as e:
        assert "the value of player 1" in str(e) and "must give a number" in str(e)
        assert e.loc is not None and e.loc.line > 0
    else:
        raise AssertionError("a text value was accepted")


def test_the_rule_never_changes_a_game(tmp_path):
    def run(program):
        g = new_game(program, 3, 11)
        agents = [RandomAgent(f"s{i}") for i in range(3)]
        while not g.over:
            g.answer(agents[g.decision.player].choose(g, g.decision))
        return list(g.choices), g.result["scores"], g.result["winners"]

    with_value = run(build(tmp_path / "a", RACE + "value p: pos of p\n"))
    without = run(build(tmp_path / "b", RACE))
    assert with_value == without


def test_a_mods_value_takes_the_place_of_its_bases(tmp_path):
    base = tmp_path / "base"
    base.mkdir()
    (base / "game.rules").write_text('game "B":\n    players 2\n' + RACE + "value p: pos of p\n", encoding="utf-8")
    mod = tmp_path / "mod"
    mod.mkdir()
    (mod / "game.rules").write_text('game "M":\n    players 2\n    extends "base"\nvalue p: 7 - pos of p\n',
                                    encoding="utf-8")
    assert new_game(load_program(base), 2, 0).values() == [0.0, 0.0]
    assert new_game(load_program(mod), 2, 0).values() == [7.0, 7.0]


def test_direct_code_values_as_the_task_engine(tmp_path):
    """Search agents copy games as resumable direct code where the ruleset compiles so: the rule is
    compiled there too, with the same numbers and the same error for a value that is no number."""
    program = build(tmp_path, RACE + "value p: 10 * pos of p + 1\n")
    g, r = new_game(program, 2, 0), ResumableGame(compile_direct(program), 2, 0)
    assert r.values() == g.values() == [1.0, 1.0]
    for game in (g, r):
        game.answer(game.decision.labels.index("walk"))
    assert r.values() == g.values() == [11.0, 1.0]
    assert r.clone().values() == [11.0, 1.0]
    bad = build(tmp_path / "b", RACE + 'value p: "far"\n')
    try:
        ResumableGame(compile_direct(bad), 2, 0).values()
    except RuleError as e:
        assert "the value of player 1 is not a number" in str(e) and e.loc is not None
    else:
        raise AssertionError("a text value was accepted")
