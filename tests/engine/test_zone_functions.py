"""A rule function that gives a player's zone, called with an argument that is not a plain name
(`pass_to(players[0])`): the generated code binds the argument as a `lambda`'s parameter
(directexpr.RuleFunctions._inlined), and the zone's key — what a move notes as changed and records
as the card's place — must be bound the same way as the zone's list. Fails on a key that names the
parameter outside its lambda (the rules "cannot work this out" at run time), on cards put in the
wrong player's zone, and on a change the `always` rule does not see."""
from __future__ import annotations

from rulekit import CHIPS, game

RULES = """
game "Pass on":
    players 3
card type Chip:
    value: 1..3
stat clockwise: 0..1 = 1
stat seen: 0..20 = 0
zone pool: pile, shared, public
zone hand: pile, per player, public
zone carriage: pile, per player, public
function pass_to(p) = carriage of p if clockwise == 1 else carriage of previous_player(p)
setup:
    move all_cards() to pool
    for each p in players:
        draw 4 from pool to hand of p
round:
    move hand of players[0] to pass_to(players[0])
    set clockwise to 0
    move first(hand of players[1]) to pass_to(next_player(players[0]))
    log [count(carriage of players[0]), count(pass_to(players[1])), count(hand of players[1]), seen]
    end game
always:
    set seen to count(carriage of players[0])
score p: 0
"""


def test_a_zone_function_called_on_an_expression_moves_to_the_right_zone(tmp_path):
    g = game(tmp_path, RULES, CHIPS, players=3)
    assert g.error is None, g.error
    # player 1's four cards to their own carriage (clockwise); then, counterclockwise, one card of
    # player 2's to the carriage of the player before player 2: player 1's again; the always rule
    # saw both moves
    assert g.log == ["[5, 5, 3, 5]"]
    carriage = g.state.zones["carriage#0"]
    assert len(carriage) == 5 and all(g.state.where[c] == "carriage#0" for c in carriage)


def test_a_zone_function_called_on_a_random_argument_still_counts(tmp_path):
    """An argument drawn at random is evaluated once: its zone's cards are counted as before."""
    rules = RULES.replace("count(pass_to(players[1]))", "count(pass_to(random(players)))")
    g = game(tmp_path, rules, CHIPS, players=3)
    assert g.error is None, g.error
    assert g.log[0].startswith("[5, ") and g.log[0].endswith(", 3, 5]")
