"""`all_cards() where it is T ...` (and `it is T or it is U`, as a part of an `and`) walks only
the cards of those types (`Runtime.ids_of`, directexpr.py `types_tested`): the same cards, in the
cards' order, as the walk over every card; dice by their die type; the rest of the condition is
still tested on each. The three forms of the code compile."""
from __future__ import annotations

from interpreter.api import load_program
from interpreter.engine.direct import compile_direct
from interpreter.engine.directobserved import compile_observed
from interpreter.engine.factory import new_game
from interpreter.engine.resumablegame import compile_resumable
from rulekit import ruleset

# the types interleaved, so that a walk by type in any other order than the cards' shows
CARDS = """
- {name: A1, type: Ant, value: 1}
- {name: B1, type: Bee, value: 5}
- {name: C1, type: Cat, value: 3}
- {name: A2, type: Ant, value: 4}
- {name: B2, type: Bee, value: 2}
- {name: C2, type: Cat, value: 6}
- {name: A3, type: Ant, value: 7}
"""

RULES = """
game "Types":
    players 2
card type Ant:
    value: 1..9
card type Bee:
    value: 1..9
card type Cat:
    value: 1..9
die type Cube: Low | High, 2 dice
zone box: pile
zone cups: set
zone rest: pile
setup:
    move all_cards() where (it is Ant or it is Cat) and it.value > 1 to box
    move all_cards() where it is Cube to cups
    move all_cards() where it is Bee to rest
    log [c.name for each c in box]
    log count(cups)
    log [c.name for each c in rest]
    log count(all_cards() where it is Ant and it.value < 5)
    log count(all_cards() where it is Ant or it.value == 5)
turn:
    end game
"""


def test_cards_of_the_tested_types_in_the_cards_order(tmp_path):
    program = load_program(ruleset(tmp_path, RULES, CARDS))
    dp = compile_direct(program)
    assert dp.source.count("R.ids_of(") == 4  # the last `where` may hold for any type: every card
    compile_observed(dp)
    compile_resumable(dp)
    g = new_game(program, 2, 0)
    assert g.over and g.error is None, g.error
    assert g.log == ["[C1, A2, C2, A3]", "2", "[B1, B2]", "2", "4"]


def test_the_walks_type_tests_are_not_made_again(tmp_path):
    """A card of a typed walk is known to be of one of the types walked: the condition's own
    `it is T` is not tested per card (`V.types`), an `it is T or it is U` naming every type walked
    is known true, and a walk with nothing else to test is a copy of the list of those cards."""
    rules = RULES.split("setup:")[0] + """setup:
    move all_cards() where it is Bee to rest
    move all_cards() where (it is Ant or it is Cat) and it.value > 1 to box
    log count(all_cards() where it is Ant and it.value < 5)
turn:
    end game
"""
    program = load_program(ruleset(tmp_path, rules, CARDS))
    src = compile_direct(program).source
    assert "_TY[" not in src and src.count("R.ids_of(") == 3
    assert "list(R.ids_of(" in src
    g = new_game(program, 2, 0)
    assert g.error is None and g.log == ["2"]
    assert [program.rs.cards[c].name for c in g.state.zones["box"]] == ["C1", "A2", "C2", "A3"]
    assert [program.rs.cards[c].name for c in g.state.zones["rest"]] == ["B1", "B2"]
