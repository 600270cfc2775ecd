"""Constructs build themselves (`build(loc, parts, src)` in language/tree.py): the shapes a
construct makes of its several surface forms, the positions of its tokens, and the contract the
parser relies on for a chain construct (`a + b`, `a or b`) of one part."""
from __future__ import annotations

import pytest

from interpreter.language.diagnostics import ContentError, Loc
from interpreter.language.parser import parse_rules
from interpreter.language.tree import CONSTRUCTS, Name, Node, walk


def _body(lines: str) -> list[Node]:
    (turn,) = parse_rules("turn:\n" + lines, "x.rules").decls
    return turn.body


def _all(nodes: list[Node], kind: str) -> list[Node]:
    return [n for top in nodes for n in walk(top) if n.kind == kind]


def test_one_repeat_class_tells_its_three_rules_apart():
    forever, times, loop = _body("    repeat:\n        break\n    repeat 3 times:\n        pass\n"
                                 "    while x < 3:\n        pass\n")
    assert (forever.times, forever.cond, forever.body[0].kind) == (None, None, "break")
    assert (times.times.value, times.cond) == (3, None)
    assert times.body[0].kind == "pass" and loop.times is None and loop.cond.kind == "compare"


def test_a_choice_count_names_its_mode():
    body = _body("    you choose any c from hand\n    you choose up to 3 c from hand\n"
                 "    you choose 2 c from hand\n    you choose (1 + 1) c from hand \"Pick\\tnow\"\n")
    any_, up_to, two, expr = (s.count for s in body)
    assert (any_.mode, any_.n) == ("any", None)
    assert (up_to.mode, up_to.n.value) == ("up_to", 3)
    assert (two.mode, two.n.value, two.n.loc.col) == ("exactly", 2, 16)  # the number token, as a literal
    assert (expr.mode, expr.n.kind) == ("exactly", "arith")
    assert body[3].prompt == "Pick\tnow" and body[0].prompt is None  # escapes decoded by the parse


def test_a_choice_count_keeps_the_digit_limit():
    with pytest.raises(ContentError) as e:
        _body("    you choose 1234567890123456789012 c from hand\n")
    (d,) = e.value.diagnostics
    assert (d.code, d.loc.line, d.loc.col) == ("limit/number", 2, 16)


def test_arithmetic_folds_left_to_right_with_each_operator_placed():
    (let,) = _body("    let a = 10 - 4 - 3 * 2\n")
    outer = let.expr
    assert (outer.op, outer.left.op, outer.right.op) == ("-", "-", "*")  # (10 - 4) - (3 * 2)
    assert outer.left.left.value == 10 and outer.loc.col == outer.left.loc.col == 13
    assert (outer.op_loc.col, outer.left.op_loc.col, outer.right.op_loc.col) == (20, 16, 24)


def test_a_lone_chain_part_is_itself():
    """`?sum: product (ADDOP product)* -> arith`: a number alone makes no arithmetic, and no `or`/`and`."""
    (let,) = _body("    let a = 7\n")
    assert let.expr.kind == "lit" and let.expr.value == 7
    chains = [c for c in CONSTRUCTS if c.chain]
    assert {c.kind for c in chains} == {"arith", "or", "and"}
    lone = Name(loc=Loc("x.rules", 1, 1), id="x")
    for cls in chains:  # the contract that lets the parser skip `build` for one part
        assert cls.build(Loc("x.rules", 1, 1), [lone], None) is lone


def test_your_and_of_name_their_owner():
    (let,) = _body("    let a = your gold + gold of p\n")
    yours, of = let.expr.left, let.expr.right
    assert (yours.name, yours.owner.id, yours.owner.loc) == ("gold", "you", yours.loc)
    assert (of.owner.id, of.name_loc.col, of.name_loc.end_col) == ("p", 25, 29)


def test_is_and_is_not_share_a_class():
    is_, is_not = (s.branches[0][0] for s in _body("    if c is Gem:\n        pass\n"
                                                     "    if c is not Gem:\n        pass\n"))
    assert (is_.negate, is_not.negate, is_.what, is_not.what_loc.col) == (False, True, "Gem", 17)


def test_an_if_gathers_its_branches_and_caps_them():
    (if_,) = _body("    if a:\n        pass\n    elif b:\n        pass\n    elif c:\n        pass\n"
                   "    else:\n        break\n")
    assert [c.id for c, _ in if_.branches] == ["a", "b", "c"] and if_.orelse[0].kind == "break"
    many = "    if a:\n        pass\n" + "    elif b:\n        pass\n" * 200
    with pytest.raises(ContentError) as e:
        _body(many)
    (d,) = e.value.diagnostics
    assert (d.code, d.loc.line, d.loc.col) == ("limit/branches", 2, 5) and "200 `elif`" in d.message


def test_named_statements_point_at_their_names():
    body = _body("    let n = 1\n    move c to hand as m\n    draw from deck to hand\n"
                 "    for each q in players:\n        q gains 2 gold\n    you take actions \"Fin\\\\ish\"\n")
    let, move, draw, for_, actions = body
    assert (let.name_loc.col, move.name, move.name_loc.col, draw.name, draw.name_loc) == (9, "m", 23, None, None)
    assert (for_.name_loc.line, for_.name_loc.col) == (5, 14)
    (gain,) = for_.body
    assert (gain.stat, gain.stat_loc.line, gain.stat_loc.col) == ("gold", 6, 19)
    assert actions.done == "Fin\\ish"
