"""`Z is empty` of a zone taken from a list of zones (`[deck, spare] where not (it is empty)`):
a shared zone's cards read by its name as key in the generated code's own test (language/tree.py,
`is empty`), not through `ZoneRef.key`."""
from __future__ import annotations

from interpreter.engine.direct import compile_direct
from rulekit import answer, game

RULES = """
    game "Z":
        players 2..2

    card type Tok:
        value: 1..9

    zone deck: pile, shared, hidden
    zone spare: pile, shared, hidden
    zone pool: set, shared, public
    zone won: set, per player, public

    function open_zones() = [deck, spare, pool] where not (it is empty)

    setup:
        move all_cards() to deck
        draw 1 from deck to pool

    turn:
        you choose z from open_zones() "Take from"
        draw from z to won of you
        if count(deck) == 0:
            end game

    score p: count(won of p)
"""
CARDS = """
    cards:
      - {name: T, type: Tok, value: 1, copies: 3}
"""


def test_a_zone_from_a_list_is_empty_by_its_own_key(tmp_path):
    g = game(tmp_path, RULES, CARDS)
    assert "_ZoneRef" in compile_direct(g.program).source  # (the shared zone's key read in place)
    d = g.decision
    assert d.player == 0 and d.labels == ["deck", "pool"]  # spare is empty
    answer(g, 0, "pool")  # then the deck alone is open: taken without a question, to its end
    assert g.over and g.error is None
    assert [len(g.state.zones[f"won#{p}"]) for p in (0, 1)] == [2, 1]
