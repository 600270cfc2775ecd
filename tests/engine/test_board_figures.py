"""Figures no player owns and a time card (docs/boards.md, "Figures no player owns"): the figure is
a card lying on a space (`space_of`, `move ... to SPACE`), walked by a `turn_end` trigger when the
turn's mover earned it (here: he rolled a 1), along chosen edge kinds (`spaces_away`), and where it
stops it acts on what it finds (here: the coins there go to the mover). A game stat is the time
card: an event flips it, and the figure's rule reads it (two steps by Night). Tested with scripted
answers on the task engine, and on both engines for the same games."""
from __future__ import annotations

from interpreter.api import load_program
from interpreter.engine.factory import new_game
from rulekit import BOARD_WORLD, answer, board_cards, ruleset, same_games_in_both_forms

RULES = """
game "Figures":
    players 2..3

zone loot: set, per player
stat wolf_due: 0..1               # the mover earned a move of the figure this turn
stat night: 0..1                  # the time card: 0 Day, 1 Night
event dusk                        # flips the time card
""" + BOARD_WORLD + """
function wolf() = first(cards_named("Wolf"))

setup:
    move all_cards() where it is Land to lands
    move cards_named("Coin") to bag
    move wolf() to card_named("C1")
    move first(values(bag)) to card_named("A2")
    move first(values(bag)) to card_named("C3")

turn:
    you choose n from [1, 2, 3] "Roll?"
    if n == 1:
        set wolf_due to 1
    if n == 3:
        fire dusk

when dusk:
    set night to 1 - night

when turn_end if wolf_due == 1:
    set wolf_due to 0
    you choose s from spaces_away(space_of(wolf()), 1 + night, ["Out", "Mid", "bridge"]) "Move the wolf where?"
    move wolf() to s
    for each c in cards_at(s) where it.name == "Coin":
        move c to your loot
        log [you, "takes a coin on", s]

as soon as turn_number > 8:
    end game

score p: count(loot of p)
"""


def program(tmp_path):
    return load_program(ruleset(tmp_path, RULES, board_cards(2) + "- {name: Wolf, type: Token, area: Out}\n"))


def test_the_figure_moves_only_after_a_turn_that_earned_it_and_acts_where_it_stops(tmp_path):
    g = new_game(program(tmp_path), 2, 0)
    answer(g, 0, "2")                                   # no 1: the wolf stays, player 2's turn
    assert (g.decision.player, g.decision.prompt) == (1, "Roll?")
    answer(g, 1, "1")                                   # a 1: after the turn, he moves the wolf
    d = g.decision
    assert (d.player, d.prompt) == (1, "Move the wolf where?")
    assert sorted(d.labels) == ["A2 (Out)", "C2 (Mid)", "C4 (Mid)"]   # one step by Day, across the bridge too
    answer(g, 1, "A2 (Out)")
    assert g.log[-1] == "[player 2, takes a coin on, A2 (Out)]"
    assert (g.decision.player, g.decision.prompt) == (0, "Roll?")


def test_the_time_card_flips_on_its_event_and_the_figure_reads_it(tmp_path):
    g = new_game(program(tmp_path), 2, 0)
    answer(g, 0, "3")                                   # dusk: Night
    answer(g, 1, "1")
    d = g.decision
    assert (d.player, d.prompt) == (1, "Move the wolf where?")
    assert sorted(d.labels) == ["A1 (Out)", "A3 (Out)", "C3 (Mid)"]   # two steps by Night from C1
    answer(g, 1, "C3 (Mid)")
    assert g.log[-1] == "[player 2, takes a coin on, C3 (Mid)]"


def test_both_engines_play_the_same_games(tmp_path):
    same_games_in_both_forms(program(tmp_path))