"""A board annexed to another (docs/boards.md, "Annexes"): a second `board` whose `link` reaches a
space of a board declared before it. The linked space stays on its own board; walks, regions,
neighbours and cards on spaces span both — the corner regions of an expansion are annexes."""
from __future__ import annotations

from interpreter.api import load_program
from interpreter.engine.direct import compile_direct
from interpreter.engine.directgame import DirectGame
from interpreter.play.session import agents_for, game_seed
from interpreter.engine.factory import new_game
from rulekit import BOARD_WORLD, board_cards, game, play_trace, ruleset

# E1-E2-E3: an annex line whose first space is joined to A4 of the ring `Out`.
ANNEX = BOARD_WORLD + """
card type Nook:
    area: Out | Mid | Core

zone nooks: set

board annex:
    path all_cards() where it is Nook as Ext
    link card_named("A4") to card_named("E1") as gate
"""
CARDS = board_cards(1) + "".join(f"- {{name: E{i}, type: Nook, area: Out}}\n" for i in (1, 2, 3))

HEAD = """
game "Annex":
    players 2

player stat at = none
""" + ANNEX + """
setup:
    move all_cards() where it is Land to lands
    move all_cards() where it is Nook to nooks
    move all_cards() where it is Token to bag
"""


def run(tmp_path, body: str):
    g = game(tmp_path, HEAD + "\nturn:\n" + body + "    end game\n", CARDS)
    assert g.error is None, g.error
    return g


def test_walks_enter_the_annex_and_come_back_out_either_way(tmp_path):
    g = run(tmp_path, """
    log [w.name for each w in walks(card_named("A3"), 3, ["Out", "gate", "Ext"])]
    log [w.name for each w in walks(card_named("E2"), 3, ["Out", "gate", "Ext"])]
""")
    # in: A3 -> A4 -> E1 -> E2; out against the line: E2 -> E1 -> A4, then either way round the ring
    # (E3 is a dead end: no walk of 3 goes that way)
    assert g.log == ["[[A4, A5, A6], [A4, E1, E2], [A2, A1, A6]]", "[[E1, A4, A5], [E1, A4, A3]]"]


def test_a_linked_space_stays_on_its_board_and_regions_span_both(tmp_path):
    g = run(tmp_path, """
    log [region(card_named("E2")), region(card_named("A4")), count(spaces(annex)), count(spaces(world))]
    log neighbours(card_named("A4")).name
    log [steps_between(card_named("A1"), card_named("E3"), ["Out", "gate", "Ext"])]
    move bag to card_named("E3")
    log [count(cards_at(card_named("E3"))), count(annex), count(world)]
""")
    assert g.log == ["[Ext, Out, 3, 13]", "[A5, A3, E1]", "[6]", "[1, 1, 0]"]


def test_both_engines_play_the_same_annex_game(tmp_path):
    rules = HEAD + """
turn:
    you choose w from walks(your at, 2, ["Out", "gate", "Ext"]) "Move where?"
    set your at to last(w)
    log [you, your at, region(your at)]
    if turn_number == 8:
        end game

after setup:
    for each p in players:
        set at of p to card_named("A4")
"""
    program = load_program(ruleset(tmp_path, rules, CARDS))
    direct = compile_direct(program)
    for i in range(3):
        seed = game_seed(3, i)
        a, b = new_game(program, 2, seed), DirectGame(direct, 2, seed)
        ta = play_trace(a, agents_for(["random"], 2, seed))
        tb = play_trace(b, agents_for(["random"], 2, seed))
        assert a.error is None and b.error is None, (a.error, b.error)
        assert ta == tb and a.log == b.log
        assert any(line.endswith(", Ext]") for line in a.log), a.log
