"""Grid zones (`zone NAME: grid W x H`), spaces and adjacency, on tiny rule files.

See docs/language-v2.md, "Version 3". No game's content is involved.
"""
from __future__ import annotations

from rulekit import answer, errors, game

PIECES = """
- {name: Red, type: Piece, colour: red, copies: 3}
- {name: Blue, type: Piece, colour: blue, copies: 3}
"""

GRID = """
game "Test":
    players 2..4
card type Piece:
    colour: red | blue
player stat colour = none
zone board: grid 3 x 3, shared, public
zone supply: set, per player, public
placement in board as s:
    count(board) == 0 or (some c in cards_around(s) has c.colour == card.colour)
setup:
    set colour of players[0] to red
    set colour of players[1] to blue
    move all_cards() where it.colour == red to supply of players[0]
    move all_cards() where it.colour == blue to supply of players[1]
turn:
    place first(your supply) in board
round:
    play turn of players[0]
    play turn of players[1]
    end game
score p: count(board where it.colour == colour of p)
"""


def test_first_piece_anywhere_then_only_next_to_own_piece_corners_included(tmp_path):
    g = game(tmp_path, GRID, PIECES)
    d = g.decision
    assert len(d.labels) == 9 and d.labels[0] == "space 1,1" and d.labels[-1] == "space 3,3"
    answer(g, 0, "space 1,1")
    # blue has no piece on the board: nowhere is legal for it
    assert g.over and "cannot be placed" in str(g.error)


def test_corner_adjacency_counts_and_the_helpers(tmp_path):
    rules = GRID.replace("""    play turn of players[0]
    play turn of players[1]
""", """    play turn of players[0]
    play turn of players[0]
    let here = space(board, 1, 1)
    log [card_at(here), count(spaces_beside(here)), count(spaces_around(here))]
    log [count(spaces_around(space(board, 2, 2))), count(empty_spaces(board)), count(spaces(board))]
    log [space_of(first(board)), count(cards_beside(space(board, 2, 1))), count(cards_around(space(board, 2, 2)))]
    log [(space_of(last(board))).x, (space_of(last(board))).y]
""")
    g = game(tmp_path, rules, PIECES)
    answer(g, 0, "space 1,1")
    d = g.decision
    # next to the piece on 1,1, corners included: 2,1 · 1,2 · 2,2
    assert d.labels == ["space 2,1", "space 1,2", "space 2,2"]
    answer(g, 0, "space 2,2")
    assert g.over and g.error is None, g.error
    assert g.log[0].startswith("[Red") and g.log[0].endswith(", 2, 3]")
    assert g.log[1] == "[8, 7, 9]"
    assert g.log[2] == "[space 1,1 of board, 2, 1]"
    assert g.log[3] == "[2, 2]"


def test_move_fills_the_first_empty_space_and_leaving_frees_it(tmp_path):
    rules = GRID.replace("""    play turn of players[0]
    play turn of players[1]
""", """    move first(supply of players[1]) to board
    move first(supply of players[0]) to board
    log [card_at(space(board, 1, 1)), card_at(space(board, 2, 1))]
    move first(board) to supply of players[1]
    log [card_at(space(board, 1, 1)), count(empty_spaces(board))]
""")
    g = game(tmp_path, rules, PIECES)
    assert g.over and g.error is None, g.error
    assert g.log[0].startswith("[Blue") and "Red" in g.log[0]
    assert g.log[1] == "[none, 8]"


def test_a_full_grid_and_bad_grid_declarations(tmp_path):
    rules = GRID.replace("grid 3 x 3", "grid 1 x 2").replace("""    play turn of players[0]
    play turn of players[1]
""", """    move supply of players[0] to board
""")
    g = game(tmp_path, rules, PIECES)
    assert g.over and "no empty space" in str(g.error)
    assert any(d.code == "zone/property" for d in errors(tmp_path, GRID.replace("grid 3 x 3", "grid 0 x 3"), PIECES))
    assert errors(tmp_path, GRID, PIECES) == []


def test_a_clone_keeps_grid_spaces_apart(tmp_path):
    rules = GRID.replace("    play turn of players[1]\n", "    play turn of players[0]\n")
    g = game(tmp_path, rules, PIECES)
    answer(g, 0, "space 2,2")
    copy = g.clone()
    answer(g, 0, "space 1,1")
    answer(copy, 0, "space 3,3")
    assert g.state.spaces != copy.state.spaces
    assert g.state.digest() != copy.state.digest()
