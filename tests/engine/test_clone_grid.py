"""A copy of a game (`clone`, for search agents) keeps its own memory of which card lies on which
grid space: what the copy plays must not leak into the game it was copied from."""
from __future__ import annotations

import random

from interpreter.engine.factory import new_game
from interpreter.play.agents import determinize
from interpreter.runtime.values import Space
from rulekit import build

RULES = """
card type Tok:
    value: 1..9
zone bag: set
zone board: grid 2 x 1, shared, public
setup:
    move all_cards() to bag
turn:
    log card_at(space(board, 1, 1))
    you choose c from bag "Place which?"
    move c to board
    log card_at(space(board, 1, 1))
    end game
"""
CARDS = "".join(f"- {{name: T{v}, type: Tok, value: {v}}}\n" for v in (1, 2))


def test_a_copy_answered_otherwise_does_not_change_what_the_original_reads_on_a_grid(tmp_path):
    g = new_game(build(tmp_path, RULES, CARDS), 2, 0, seats=None)  # the copyable form
    assert g.log == ["none"] and g.decision.labels == ["T1 (1)", "T2 (2)"]
    copy = g.clone()
    copy.answer(0)  # the copy places T1: it reads the space once more, as the original will
    g.answer(1)
    assert copy.log == ["none", "T1 (1)"]
    assert g.log == ["none", "T2 (2)"]


HIDDEN = """
card type Tok:
    value: 1..9
zone board: grid 2 x 1, shared, hidden
setup:
    move all_cards() to board
turn:
    log card_at(space(board, 1, 1))
    you choose n from [1, 2] "Go on?"
    log card_at(space(board, 1, 1))
    end game
"""


def test_a_determinised_copy_reads_its_hidden_grid_anew(tmp_path):
    g = new_game(build(tmp_path, HIDDEN, CARDS), 2, 0, seats=None)
    first = g.log[0]
    for seed in range(20):  # a deal that exchanges the two hidden cards
        copy = g.clone()
        copy.R.card_at(Space("board", 0, 0))  # the copy has looked at the grid before the deal
        determinize(copy, 0, random.Random(seed))
        on_first = next(c for c in copy.state.zones["board"] if copy.state.spaces[c] == 0)
        if copy.cards[on_first].label() != first:
            break
    else:
        raise AssertionError("no deal exchanged the cards")
    copy.answer(0)
    assert copy.log[-1] == copy.cards[on_first].label() != first  # not what was remembered before the deal
    g.answer(0)
    assert g.log == [first, first]
