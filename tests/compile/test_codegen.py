"""The speed paths (codegen.py, fastpaths.py, syncblocks.py, the placement answer cache) on
their own: generated code never contains rule text, closures and generated code agree, bodies run
at once while settling behave as the task path (steps, break/continue, error locations)."""
from __future__ import annotations

import pytest

from golden_games import fingerprint, recorded, same_game
from interpreter.compile import codegen
from interpreter.compile.compiler import Compiler
from interpreter.api import _load_program_cached
from rulekit import build, line_of, run


def test_generated_source_holds_no_rule_text(tmp_path):
    """Texts, names and fields from the rules reach generated code only as `K[i]` indices."""
    p = build(tmp_path, """
        card type Tok:
            value: 1..9
            colour: Red | Blue
        zone pile: pile, shared, public
        setup:
            move all_cards() to pile
        turn:
            let weird = "\\"); import os; os.system(\\"echo hi"
            log count(pile where it.colour == Red and it.value > 2) + 0
            log weird + count(pile where it.value > 1)
            end game
        """, cards="- {name: A, type: Tok, value: 3, colour: Red}\n- {name: B, type: Tok, value: 1, colour: Blue}\n")
    g = run(p)
    assert g.error is None and g.log == ["1", '"); import os; os.system("echo hi1']
    sources = "\n".join(codegen._CODE_CACHE)
    for text in ("import", "os.system", "colour", "Red", "value", "pile", "weird"):
        assert text not in sources


def test_source_check_refuses_foreign_tokens():
    with pytest.raises(ValueError):
        codegen._check_source("def f(g, e):\n    return __import__\n")
    with pytest.raises(ValueError):
        codegen._check_source("def f(g, e):\n    return 'text'\n")
    with pytest.raises(ValueError):
        codegen._check_source("def f(g, e):\n    return 1.5\n")
    codegen._check_source("def f(g, e):\n    return K[0](g, e, _i1[2])\n")


@pytest.mark.parametrize("case", [("toil_and_troublez", 4, 1, "random"), ("stonehenge_wizards", 3, 2, "random"),
                                  ("tutorial_fireflies", 2, 0, "first")])
def test_closures_alone_play_the_recorded_games(case, monkeypatch):
    """With generation off (closures and their fast paths only) the recorded games come out the same."""
    monkeypatch.setattr(Compiler, "generate", False)
    _load_program_cached.cache_clear()
    try:
        assert same_game(recorded(case), fingerprint(*case))
    finally:
        _load_program_cached.cache_clear()


SETTLING_LOOP = """
    stat total = 0
    stat seen = 0
    stat marks = 0
    always:
        if seen < 1:
            set seen to 1
            for each a in [1, 2, 3, 4]:
                if a == 2:
                    continue
                for each b in [10, 20, 30]:
                    if b == 30:
                        break
                    set total to total + a * b
                set marks to marks + 1
    turn:
        log total
        log marks
        end game
"""


def test_loops_run_at_once_while_settling_as_tasks_would(tmp_path, monkeypatch):
    p = build(tmp_path, SETTLING_LOOP)
    g = run(p)
    assert g.error is None
    assert g.log == [str((1 + 3 + 4) * 30), "3"]
    fast_steps = g.steps
    # the same rules with the bodies run by tasks count the same steps
    import interpreter.compile.compiler as compiler_mod
    monkeypatch.setattr(compiler_mod, "is_sync", lambda stmts: False)
    _load_program_cached.cache_clear()
    p2 = build(tmp_path / "slow", SETTLING_LOOP)
    g2 = run(p2)
    _load_program_cached.cache_clear()
    assert g2.log == g.log and g2.steps == fast_steps


def test_error_inside_a_loop_run_at_once_names_the_inner_statement(tmp_path):
    p = build(tmp_path, """
        stat seen = 0
        always:
            for each a in [1, 2]:
                if seen == 0:
                    set seen to 1
                    let x = a / 0
        turn:
            end game
        """)
    g = run(p)
    assert g.error is not None and "division by zero" in g.error.message
    assert g.error.loc.line == line_of(p, "let x = a / 0")


def test_placement_answer_is_not_reused_after_a_change(tmp_path):
    """The same question about the same card after the zone changed gets a new answer."""
    p = build(tmp_path, """
        card type Tok:
            value: 1..9
        zone pile: pile, shared, public
        zone heap: pile, shared, public
        placement in heap as h:
            count(h) <= 2
        setup:
            move all_cards() to pile
        turn:
            let c = top(pile)
            log c can be placed in heap
            move bottom(pile) to heap
            log c can be placed in heap
            move bottom(pile) to heap
            log c can be placed in heap
            end game
        """, cards="\n".join(f"- {{name: T{v}, type: Tok, value: {v}}}" for v in range(1, 5)) + "\n")
    g = run(p)
    assert g.error is None, g.error
    assert g.log == ["yes", "yes", "no"]


def test_nodes_of_another_shape_are_left_to_their_closures(tmp_path):
    """A construct that later gains a field is not generated by code written for its old shape."""
    from dataclasses import dataclass

    from interpreter.compile.codegen import generate, known_shape
    from interpreter.language.tree import Compare, ListLit, Lit, Name, Node, WhereExpr

    @dataclass(eq=False, repr=False, kw_only=True, slots=True)
    class GrownWhere(WhereExpr):  # the construct as it might look after gaining an option
        sorted_by: Node | None = None

    p = build(tmp_path, """
        turn:
            log count([1, 2, 3] where it > 1)
            end game
        """)
    cond = Compare(loc=None, op=">", left=Name(loc=None, id="it"), right=Lit(loc=None, value=1))
    items = ListLit(loc=None, items=[Lit(loc=None, value=v) for v in (1, 2, 3)])
    plain = WhereExpr(loc=None, items=items, cond=cond)
    grown = GrownWhere(loc=None, items=items, cond=cond, sorted_by=None)
    assert known_shape(plain) and not known_shape(grown)
    c = Compiler(p.rs)
    assert generate(c, plain) is not None
    assert generate(c, grown) is None  # left to `x_where`, whatever it makes of the new field
