"""A grid's look-ups made cheap (docs/performance.md, "Magical Treehouse, a third pass"): a move to a
grid finds the first empty space without listing them all, `space(g, x, y)` is one table look-up,
`cards_around`/`cards_beside` look their neighbours up by index, and a card a rule function works
out is named once on a line that also holds a comprehension. Each test fails on a wrong shortcut:
one that does not see a space freed, a neighbour's card moved or a card's order, or that names a
card in a comprehension's iterable (Python refuses) or on no line at all."""
from __future__ import annotations

import re

from rulekit import game, ruleset

from interpreter.api import load_program
from interpreter.engine.directexpr import named_in_iterable
from interpreter.engine.factory import compiled

# nine cards of distinct names, so that a log says which card lies where
TILES = "\n".join(f"- {{name: T{i}, type: Tile, colour: {'red' if i % 2 else 'blue'}}}" for i in range(1, 10)) + "\n"

RULES = """
game "Test":
    players 2
card type Tile:
    colour: red | blue
zone board: grid 3 x 3, shared, public
zone pool: pile, shared, public
zone side: pile, shared, public
setup:
    move all_cards() to pool
round:
    STEPS
    end game
score p: 0
"""


def _log(tmp_path, steps: str) -> list[str]:
    g = game(tmp_path, RULES.replace("STEPS", steps.strip().replace("\n", "\n    ")), TILES)
    assert g.over and g.error is None, g.error
    return [re.sub(r" \((red|blue)\)", "", line) for line in g.log]  # a card's label names its colour


def test_a_move_to_a_grid_fills_the_first_hole_then_the_next_empty_space(tmp_path):
    log = _log(tmp_path, """
move first(pool) to board
move first(pool) to board
move first(pool) to board
move first(pool) to board
move card_at(space(board, 2, 1)) to side
move card_at(space(board, 1, 1)) to side
log [count(empty_spaces(board)), first(empty_spaces(board)), last(empty_spaces(board))]
move first(pool) to board
log [card_at(space(board, 1, 1)), card_at(space(board, 2, 1)), first(empty_spaces(board))]
move first(pool) to board
move first(pool) to board
log [card_at(space(board, 2, 1)), card_at(space(board, 2, 2)), count(empty_spaces(board))]
""")
    # T1, T2, T3, T4 go on 1,1 2,1 3,1 1,2; T2 and T1 leave; T5 fills 1,1, then T6 2,1, T7 2,2
    assert log[0] == "[7, space 1,1 of board, space 3,3 of board]"
    assert log[1] == "[T5, none, space 2,1 of board]"
    assert log[2] == "[T6, T7, 4]"


def test_cards_around_and_beside_follow_the_cards_in_their_order(tmp_path):
    log = _log(tmp_path, """
move pool to board
let mid = space(board, 2, 2)
log cards_around(mid)
log cards_beside(mid)
log cards_beside(space(board, 1, 1))
move card_at(space(board, 1, 2)) to side
move card_at(space(board, 3, 3)) to side
log cards_around(mid)
log cards_around(card_at(mid))
log [count(cards_around(space(board, 3, 3))), count(cards_beside(space(board, 1, 2)))]
""")
    # the pile goes on the board in its order: T1 on 1,1 ... T9 on 3,3; around: from the top
    # left, row by row; beside: above, left, right, below; then T4 (1,2) and T9 (3,3) leave
    assert log[0] == "[T1, T2, T3, T4, T6, T7, T8, T9]"
    assert log[1] == "[T2, T4, T6, T8]"
    assert log[2] == "[T2, T4]"
    assert log[3] == "[T1, T2, T3, T6, T7, T8]"
    assert log[4] == log[3]
    assert log[5] == "[3, 3]"


def test_a_space_out_of_the_grid_is_refused_and_a_space_reads_as_its_place(tmp_path):
    log = _log(tmp_path, """
move first(pool) to board
move first(pool) to board
log [space(board, 3, 2).x, space(board, 3, 2).y, card_at(space(board, 2, 1)), space_of(card_at(space(board, 2, 1)))]
""")
    assert log[0] == "[3, 2, T2, space 2,1 of board]"
    g = game(tmp_path, RULES.replace("STEPS", "log space(board, 1, 4)"), TILES)
    assert g.over and "board has no space 1,4 (it is 3 x 3)" in str(g.error)


def test_named_in_iterable_says_what_python_refuses():
    lines = [
        "x = [a for a in (lambda: (_c1 := f()))()]",
        "x = [a for a in [(_c1 := b) for b in w]]",
        "x = [a for a in w for b in (_c1 := a)]",
        "x = [a for a in [lambda: [b for b in (_c1 := w)]]]",
        "x = [(_c1 := a) for a in w]",
        "x = [a for a in w if (_c1 := a)]",
        "x = (_c1 := f()) is None or any(a for a in w)",
        "x = any(a for a, b in w) or (_c1 := 3)",
        "x = [[(_c1 := b) for b in a] for a in w]",
    ]
    for line in lines:
        try:
            compile(line, "<test>", "exec")
            refused = False
        except SyntaxError:
            refused = True
        assert named_in_iterable(line) == refused, line
    assert not named_in_iterable("    for a in (_c1 := w):")  # a `for` statement's iterable may name


def test_a_card_a_rule_function_finds_is_named_once_beside_a_comprehension(tmp_path):
    rules = """
    game "Test":
        players 2
    card type Tile:
        colour: red | blue
    zone board: grid 3 x 3, shared, public
    zone pool: pile, shared, public
    function at(s) = card_at(space(board, s.x, s.y))
    placement in board as s:
        at(s).colour == red or (some c in cards_around(s) has c.colour == card.colour)
    setup:
        move all_cards() to pool
    round:
        place first(pool) in board
        end game
    score p: 0
    """
    src = compiled(load_program(ruleset(tmp_path, rules, TILES))).source
    line = next(x for x in src.splitlines() if "R.cards_around(" in x)
    assert ":= " in line and not named_in_iterable(line)
    # an empty board: no card at any space, none around it: nowhere to place
    g = game(tmp_path, rules, TILES)
    assert g.over and "cannot be placed" in str(g.error)
