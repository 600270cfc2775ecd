"""`extend` (docs/modding.md, Extending): mods add fields and enumeration values to a base's card
type, items to its list constant and terms to its function, so two mods adding to one declaration
combine (in either stack order) where two `replace`s would conflict; misuse is diagnosed at its
file:line:col with a hint."""
from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.api import check_path, load_program
from interpreter.engine.factory import new_game
from rulekit import named_ruleset

BASE = """
game "Base":
    players 2

card type Gem:
    color: Red | Blue
    value: 1..5
    size: 1..3 = 1

constant colors = [Red, Blue]
function worth(p) = sum(values(hand of p).value)

zone deck: pile, shared, hidden
zone hand: set, per player, public

setup:
    move all_cards() to deck

turn:
    draw from deck to your hand
    if deck is empty:
        end game

score p: worth(p)
"""
BASE_CARDS = "- {name: Ruby, type: Gem, color: Red, value: 3}\n- {name: Sapphire, type: Gem, color: Blue, value: 4}\n"

# a: a new colour, a new field, a wider value range, a list item, a term counting its field
MOD_A = """
game "A":
    extends "base"
    players 2

extend card type Gem:
    color += Green
    shine: 0..3 = 0
    value: 1..7

extend constant colors += [Green]
extend function worth(p) += sum(values(hand of p).shine)
"""
CARDS_A = "- {name: Emerald, type: Gem, color: Green, value: 7, shine: 2}\n"

# b: another colour and field, the value range widened the other way, a term reading the list
MOD_B = """
game "B":
    extends "base"
    players 2

extend card type Gem:
    color += Yellow | White
    glow: flag = false
    value: 0..6

extend constant colors += [Yellow, White]
extend function worth(p) += count(colors)
"""
CARDS_B = "- {name: Topaz, type: Gem, color: Yellow, value: 0, glow: true}\n"


def _stack(base: Path, mods) -> str:
    return f"{base} --with {','.join(str(m) for m in mods)}" if mods else str(base)


def _errors(base: Path, mods=()) -> list:
    _, content = check_path(_stack(base, mods))
    return [d for d in content.diagnostics if d.severity == "error"]


@pytest.fixture
def base(tmp_path) -> Path:
    return named_ruleset(tmp_path / "rulesets", "base", BASE, BASE_CARDS)


@pytest.fixture
def mods(tmp_path) -> tuple[Path, Path]:
    return (named_ruleset(tmp_path / "mods", "a", MOD_A, CARDS_A),
            named_ruleset(tmp_path / "mods", "b", MOD_B, CARDS_B))


def _total(path: str) -> int:
    g = new_game(load_program(path), 2, 1)  # plays itself: each turn draws a card
    assert g.over and g.error is None, g.error
    return sum(g.result["scores"])


def test_two_mods_extending_one_card_type_constant_and_function_combine_in_either_order(base, mods):
    a, b = mods
    assert _errors(base, [a, b]) == [] and _errors(base, [b, a]) == []
    for order, colours in (([a, b], ["Red", "Blue", "Green", "Yellow", "White"]),
                           ([b, a], ["Red", "Blue", "Yellow", "White", "Green"])):
        rs = load_program(_stack(base, order)).rs
        gem = {f.name: f for f in rs.card_types["Gem"].fields_}
        assert gem["color"].type.values == colours  # the base's values, then each mod's, in stack order
        assert {"shine", "glow", "size"} <= set(gem)
        assert (gem["value"].type.lo, gem["value"].type.hi) == (0, 7)  # the range holding 1..5, 1..7 and 0..6
        assert [i.id for i in rs.constants["colors"].value.items] == colours
        assert sorted(c.name for c in rs.cards) == ["Emerald", "Ruby", "Sapphire", "Topaz"]
    # worth = values (3 + 4 + 7 + 0) + shine (2) + count(colors) (5) for each of the 2 players
    assert _total(_stack(base, [a, b])) == _total(_stack(base, [b, a])) == 14 + 2 + 2 * 5


def test_each_extension_alone_adds_only_its_own_part(base, mods):
    a, b = mods
    assert _total(str(base)) == 7
    assert _total(_stack(base, [a])) == 7 + 7 + 2  # Emerald and its shine
    assert _total(_stack(base, [b])) == 7 + 0 + 2 * 4  # Topaz; colors has Red, Blue, Yellow, White


def test_a_mods_card_using_another_mods_value_needs_that_mod(base, mods, tmp_path):
    a, _ = mods
    c = named_ruleset(tmp_path / "mods", "c", 'game "C":\n    extends "base"\n    players 2\n',
                      "- {name: Pearl, type: Gem, color: Green, value: 1}\n")
    assert [e.code for e in _errors(base, [c])] == ["cards/field"]
    assert _errors(base, [a, c]) == []


def _bad(tmp_path, base, body: str, name: str = "bad") -> list:
    mod = named_ruleset(tmp_path / "bad", name, f'game "Bad":\n    extends "base"\n    players 2\n\n{body}')
    return _errors(base, [mod])


def test_extending_what_does_not_exist_is_dangling_with_a_did_you_mean(tmp_path, base):
    errs = _bad(tmp_path, base, "extend card type Gems:\n    shine: 0..3 = 0\n")
    assert [e.code for e in errs] == ["mod/dangling"]
    e = errs[0]
    assert (e.loc.file.endswith("bad/game.rules"), e.loc.line, e.loc.col) == (True, 5, 18)
    assert "Gem" in e.hint
    errs = _bad(tmp_path, base, "extend card type Gem:\n    colour += Green\n", "bad2")
    assert [e.code for e in errs] == ["mod/dangling"] and "color" in errs[0].hint and errs[0].loc.line == 6
    errs = _bad(tmp_path, base, "extend function wroth(p) += 1\n", "bad3")
    assert [e.code for e in errs] == ["mod/dangling"] and "worth" in errs[0].hint


def test_two_mods_adding_the_same_value_conflict_naming_both(tmp_path, base, mods):
    a, _ = mods
    also = named_ruleset(tmp_path / "more", "green", 'game "Green":\n    extends "base"\n    players 2\n\n'
                         "extend card type Gem:\n    color += Green\n\nextend constant colors += [Green]\n")
    errs = _errors(base, [a, also])
    assert sorted(e.code for e in errs) == ["mod/conflict", "mod/conflict"]
    for e in errs:
        assert e.loc.file.endswith("green/game.rules")
        assert "a/game.rules:" in e.message and "`a`" in e.message and "`green`" in e.message
    assert {e.loc.line for e in errs} == {6, 8}


def test_adding_what_the_base_has_or_narrowing_a_field_is_refused(tmp_path, base):
    errs = _bad(tmp_path, base, "extend card type Gem:\n    color += Blue | Green\n")
    assert [e.code for e in errs] == ["mod/extend"] and "`Blue` is already" in errs[0].message
    assert "base/game.rules:5:" in errs[0].message
    errs = _bad(tmp_path, base, "extend card type Gem:\n    value: 2..9\n", "b2")
    assert [e.code for e in errs] == ["mod/extend"] and "1..9" in errs[0].hint
    errs = _bad(tmp_path, base, "extend card type Gem:\n    size: 1..5 = 2\n", "b3")
    assert [e.code for e in errs] == ["mod/extend"] and "default" in errs[0].message
    errs = _bad(tmp_path, base, "extend card type Gem:\n    value += Big\n", "b4")
    assert [e.code for e in errs] == ["mod/extend"] and "wider range" in errs[0].hint
    errs = _bad(tmp_path, base, "extend card type Gem:\n    color: Red | Blue | Green\n", "b5")
    assert [e.code for e in errs] == ["mod/extend"] and "color += Red | Blue | Green" in errs[0].hint
    errs = _bad(tmp_path, base, "extend constant colors += [Red]\n", "b6")
    assert [e.code for e in errs] == ["mod/extend"] and "already an item" in errs[0].message


def test_extend_of_the_wrong_kind_parameters_or_its_own_ruleset(tmp_path, base):
    errs = _bad(tmp_path, base, "extend constant worth += 1\n")
    assert [e.code for e in errs] == ["mod/extend"] and "extend function worth" in errs[0].hint
    errs = _bad(tmp_path, base, "extend function worth(q) += 1\n", "b2")
    assert [e.code for e in errs] == ["mod/extend"] and "worth(p)" in errs[0].hint
    errs = _bad(tmp_path, base, "constant mine = [1]\nextend constant mine += [2]\n", "b3")
    assert [e.code for e in errs] == ["mod/extend"] and "its own ruleset" in errs[0].message


def test_extend_only_adds(tmp_path, base):
    errs = _bad(tmp_path, base, "extend constant colors -= [Red]\n")
    assert [e.code for e in errs] == ["syntax"] and errs[0].loc.line == 5 and "replace" in errs[0].hint


def test_a_field_widened_to_any_number_stays_any_number_whatever_else_widens_it(tmp_path, base, mods):
    a, _ = mods
    big = named_ruleset(tmp_path / "more", "big", 'game "Big":\n    extends "base"\n    players 2\n\n'
                        "extend card type Gem:\n    value: number\n")
    for order in ([a, big], [big, a]):
        assert _errors(base, order) == []
        gem = {f.name: f for f in load_program(_stack(base, order)).rs.card_types["Gem"].fields_}
        assert gem["value"].type.kind == "basic_type" and gem["value"].type.name == "number"


def test_extending_a_declaration_lost_to_a_syntax_error_reports_only_that_error(tmp_path):
    broken = named_ruleset(tmp_path / "rulesets", "base", BASE.replace("    value: 1..5\n", "    value: 1..\n"),
                           BASE_CARDS)
    mod = named_ruleset(tmp_path / "mods", "a", MOD_A)
    assert {e.code for e in _errors(broken, [mod])} == {"syntax"}
