"""`move CARDS to DEST` where no move can change DEST (it reads stats, seats and zones by name: Magical
Treehouse's `pass_to(p)`): the generated code works DEST out once, before the first card, not at
each of its uses for each card (direct.py `fixed_dest`, `emit_move_many`). A destination that reads
the cards being moved is worked out for each card, as before. Fails on a destination worked out
once where it reads the moving cards, on cards sent to the wrong player's zone, and on a move whose
destination is not noted as changed (the `always` rule would not see it)."""
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
function spill(p) = carriage of p if count(hand of p) > 2 else carriage of next_player(p)
setup:
    move all_cards() to pool
    for each p in players:
        draw 4 from pool to hand of p
round:
    let a = players[0]
    let b = players[1]
    let c = players[2]
    let first_hand = values(hand of a)
    move hand of a to pass_to(a)
    set clockwise to 0
    move hand of b to pass_to(b)
    log [count(carriage of a), count(carriage of b), seen, values(carriage of a)[0] == first_hand[0]]
    move hand of c to spill(c)
    move hand of c to pass_to(c)
    log [count(carriage of a), count(carriage of b), count(carriage of c), seen]
    end game
always:
    set seen to count(carriage of players[0])  # (read by seat: `a` is the round's)
score p: 0
"""


def test_a_fixed_destination_once_and_one_that_reads_the_moving_cards_for_each_card(tmp_path):
    g = game(tmp_path, RULES, CHIPS, players=3)
    assert g.over and g.error is None, g.error
    # clockwise: player 1's hand to its own carriage; then counterclockwise: player 2's to player 1's
    # (its previous player), in order, and the `always` rule saw player 1's carriage change
    assert g.log[0] == "[8, 0, 8, yes]"
    # player 3's hand, 4 cards: each card's destination worked out once it has left the hand (as
    # before): 3 left, its own carriage; then 2, 1, 0, player 1's (its next player); nothing is left
    # to pass on (a destination worked out once: all 4 to its own carriage)
    assert g.log[1] == "[11, 0, 1, 11]"


WHOLE = """
game "Whole zones":
    players 2
card type Chip:
    value: 1..3
zone pool: pile, shared, public
zone a: pile, shared, public
zone b: pile, shared, public
zone c: set, per player, public
stat seen: 0..20 = 0
setup:
    move all_cards() to pool
round:
    draw 3 from pool to a
    draw 2 from pool to b
    let before = values(b) + values(a)
    move a to b
    log [count(a), count(b), values(b) == before, seen]
    move first(b) to c of players[0]
    move last(b) to c of players[1]
    log [count(b), count(c of players[0]), count(c of players[1]), first(c of players[0]) == before[0]]
    draw 2 from pool to a
    place first(a) on last(a)
    move a to b
    log [count(a), count(b), count(cards_under(last(b)))]
    move last(b) to c of players[1]
    log [count(b), count(c of players[1]), count(cards_under(last(c of players[1])))]
    move a to b
    end game
always:
    set seen to count(b)
score p: 0
"""


def test_a_whole_zone_moved_at_once_keeps_its_order_its_places_and_a_covered_card(tmp_path):
    """`move ZONE to ZONE` of plain zones goes at once (`emit_move_all`, `_moved_all`): the cards
    in their order after the destination's, each card's place known to the next move (which finds
    it through `where`), the change seen by an `always` rule; a zone with a card covering another
    goes card by card, as before; an empty zone moves nothing."""
    g = game(tmp_path, WHOLE, CHIPS)
    assert g.over and g.error is None, g.error
    assert g.log[0] == "[0, 5, yes, 5]"
    assert g.log[1] == "[3, 1, 1, yes]"
    assert g.log[2] == "[1, 4, 0]"  # (as card by card did before: the zone's list)
    assert g.log[3] == "[3, 2, 0]"


DRAWS = """
game "Draws":
    players 2
card type Chip:
    value: 1..3
zone pool: pile, shared, public
zone a: pile, shared, public
zone b: pile, shared, public
zone c: set, per player, public
stat seen: 0..20 = 0
setup:
    move all_cards() to pool
round:
    let p1 = players[0]
    let p2 = players[1]
    move last(pool) to a
    move last(pool) to a
    move last(pool) to a
    move last(pool) to a
    let before = values(a)
    draw 3 from a to b as got
    log [count(a), count(b), seen, values(b)[0] == before[3], values(b)[2] == before[1], got == values(b)]
    draw 2 from b to c of p2
    log [count(b), count(c of p2), first(c of p2) == before[1], first(b) == before[3]]
    move first(b) to a
    log [count(a), count(b), last(a) == before[3]]
    draw 2 from a to a
    log [values(a)[0] == before[3], values(a)[1] == before[0], count(a)]
    draw 5 from a to b
    log [count(a), count(b), seen]
    draw 2 from a to b
    place last(pool) on last(b)
    draw 1 from b to c of p1
    log [count(b), count(c of p1), count(cards_under(first(c of p1)))]
    end game
always:
    set seen to count(b)
score p: 0
"""


def test_draw_n_takes_the_top_cards_at_once_in_their_order(tmp_path):
    """`draw N from PILE to ZONE` of plain zones goes at once (`emit_move_all` with the top cards):
    the topmost first, each card's place known to the next move, the change seen by an `always`
    rule, a draw of more cards than the pile holds taking them all, a draw to the same pile turning
    its top over; a top card covering another goes card by card, as before."""
    g = game(tmp_path, DRAWS, CHIPS)
    assert g.over and g.error is None, g.error
    assert g.log == ["[1, 3, 3, yes, yes, yes]", "[1, 2, yes, yes]", "[2, 0, yes]", "[yes, yes, 2]",
                     "[0, 2, 2]", "[2, 1, 0]"]  # (the last as card by card did before)
