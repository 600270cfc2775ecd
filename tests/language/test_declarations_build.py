"""The declarations build themselves (`build` on each class in language/tree.py): a class built by
several grammar rules tells its forms apart by the rule reduced, one rule may build two classes
(a field's type), and a construct's own syntax diagnostics (`extend` only adds) point where the
offending token is written."""
from __future__ import annotations

import pytest

from interpreter.language.diagnostics import ContentError
from interpreter.language.parser import parse_effect, parse_rules
from interpreter.language.tree import (BasicType, BoardItem, EnumType, ExtendDecl, HookDecl, PreferDecl, RangeType,
                                       Trigger, ZoneProp)


def _decls(text: str) -> list:
    return parse_rules(text, "t.rules").decls


@pytest.mark.parametrize("text, col", [
    ("extend constant PRIZES -= [1]\n", 24),
    ("extend function worth(c) -= 1\n", 26),
    ("extend card type Gem:\n    colour -= Red | Blue\n", 12),
])
def test_extend_that_takes_away_is_refused_at_its_operator(text: str, col: int) -> None:
    with pytest.raises(ContentError) as e:
        parse_rules(text, "mod.rules")
    (d,) = e.value.diagnostics
    assert (d.code, d.message) == ("syntax", "`extend` adds with `+=`; it cannot take away")
    assert (d.loc.line, d.loc.col, d.loc.end_col) == (text.count("\n"), col, col + 2)
    assert "replace" in d.hint


def test_extend_forms_say_what_they_add_to() -> None:
    const, func, card = _decls("extend constant PRIZES += [1]\nextend function worth(c) += 2\n"
                               "extend card type Gem:\n    colour += Red\n    size: 1..3\n")
    assert all(isinstance(d, ExtendDecl) for d in (const, func, card))
    assert (const.what, const.name, const.params, const.fields_) == ("constant", "PRIZES", None, [])
    assert (func.what, func.name, func.params, func.value.value) == ("function", "worth", ["c"], 2)
    assert card.what == "card type" and card.value is None
    assert [(f.kind, f.name) for f in card.fields_] == [("enum_extension", "colour"), ("field", "size")]
    assert card.fields_[0].values == ["Red"]


def test_one_rule_builds_either_field_type() -> None:
    (card,) = _decls("card type Gem:\n    n: number\n    c: Red | Blue\n    one: Red\n    r: 2..9\n")
    types = [f.type for f in card.fields_]
    assert [type(t) for t in types] == [BasicType, EnumType, EnumType, RangeType]
    assert types[0].name == "number" and types[1].values == ["Red", "Blue"] and types[2].values == ["Red"]
    assert (types[3].lo, types[3].hi) == (2, 9)


def test_forms_of_one_construct_built_by_several_rules() -> None:
    zone, board, *rest = _decls(
        "zone table: grid 3 x 4, shared\n"
        "board map:\n    ring [1, 2]\n    path [3] as road\n    link 1 to 3 one way as bridge\n"
        "prefer p for action \"Ra\\\"id\": 1\nprefer p for \"Pick\": 2\n"
        "before turn:\n    pass\nafter procedure tidy(a):\n    pass\n")
    grid, shared = zone.props
    assert isinstance(grid, ZoneProp) and (grid.words, grid.width, grid.height) == ("grid", 3, 4)
    assert (shared.words, shared.number, shared.width) == ("shared", None, None)
    ring, path, link = board.items
    assert all(isinstance(i, BoardItem) for i in board.items)
    assert [(i.shape, i.edge, i.one_way) for i in board.items] == [
        ("closed", None, False), ("open", "road", False), ("link", "bridge", True)]
    assert link.to is not None and ring.to is None
    action, prompt, phase, proc = rest
    assert isinstance(action, PreferDecl) and (action.action, action.prompt) == ('Ra"id', None)
    assert (action.action_loc.col, action.action_loc.end_col) == (21, 29)  # the label, quotes included
    assert (prompt.action, prompt.prompt, prompt.action_loc) == (None, "Pick", None)
    assert isinstance(phase, HookDecl) and (phase.when, phase.name, phase.phase, phase.params) == ("before", "turn", True, None)
    assert (proc.when, proc.name, proc.phase, proc.params) == ("after", "tidy", False, ["a"])


def test_when_and_whenever_build_one_trigger_class() -> None:
    effect = parse_effect("when drawn(p) if 1:\n    pass\nwhenever moved:\n    pass\n", "c.yaml", block=True)
    when, whenever = effect.triggers
    assert all(isinstance(t, Trigger) for t in effect.triggers)
    assert (when.event, when.binder, when.whenever, when.event_loc.col) == ("drawn", "p", False, 6)
    assert (whenever.event, whenever.binder, whenever.whenever, whenever.event_loc) == ("moved", None, True, None)


def test_a_long_number_in_a_declaration_is_reported_at_its_token() -> None:
    with pytest.raises(ContentError) as e:
        parse_rules("stat gold: 0..1234567890123456789012\n", "t.rules")
    (d,) = e.value.diagnostics
    assert d.code == "limit/number" and (d.loc.col, d.loc.end_col) == (15, 37)
