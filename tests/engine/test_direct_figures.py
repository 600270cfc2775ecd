"""Constructs the Talisman mods with roaming figures needed on generated code (direct.py,
directexpr.py, directtuples.py, directcover.py): a game stat holding one card (a figure's space),
set to none between, read by a trigger's condition compiled before any `set` shows what it holds;
walks kept in local variables as card pairs `[[none, start]]` and as records
`[[none, start, false]]`, grown with `next + [step]` after `step in next`; a range up to a die's
face; and `x in LIST` where the item's and the list's kinds differ (a number, a card or a player
among players or cards), answered as the task engine's `x_in` answers.

Each in a tiny ruleset run on generated code, with its outcome
asserted, then played by both engines over a few seeds for the same games."""
from __future__ import annotations

from interpreter.api import load_program
from interpreter.content.model import CardData
from interpreter.engine.factory import new_game
from interpreter.play.session import agents_for, game_seed
from rulekit import ruleset, same_games_in_both_forms

FIGURE = """\
game "Figure":
    players 2..3

card type Spot:
    n: 1..6

die type D6: 1..6, 1 dice

zone track: pile, shared, public
zone tray: set
player stat caught: 0..99
stat figure = none                  # the spot the figure stands on: one card, or none between
stat mover = none                   # the player who moved it last
stat reach = []                     # where a walk can end
stat rounds: 0..99

event landing
event moved

when landing(s) if figure == s:     # compiled before the body below shows that the stat holds a card
    set caught of you to caught of you + 1
    log ["caught on", s]

when moved(s):
    put(s, you)

procedure put(s, p):
    set figure to s
    set mover to p

function spot(k) = first(track where it.n == k)
function beside(a, b) = b.n == a.n + 1 or b.n == a.n - 1

# Walks of exactly n steps along the spots, never straight back, kept as [came from, stands on, stopped]
procedure walk_records(start, n):
    let ways = [[none, start, false]]
    for each k in 1..n:
        let next = []
        for each w in ways:
            if w[2]:
                set next to next + [w]
            else:
                for each nb in track where beside(w[1], it) and it != w[0]:
                    let step = [w[1], nb, nb.n == 6]
                    if not (step in next):
                        set next to next + [step]
        set ways to next
    set reach to []
    for each w in ways:
        if not (w[1] in reach):
            set reach to reach + [w[1]]

# The same walks kept as card pairs [came from, stands on]
procedure walk_pairs(start, n):
    let ways = [[none, start]]
    for each k in 1..n:
        let next = []
        for each pr in ways:
            for each nb in track where beside(pr[1], it) and it != pr[0]:
                if not ([pr[1], nb] in next):
                    set next to next + [[pr[1], nb]]
        set ways to next
    let ends = []
    for each pr in ways:
        if not (pr[1] in ends):
            set ends to ends + [pr[1]]
    set reach to ends

setup:
    move all_cards() where it is Spot to track
    move all_cards() where it is D6 to tray
    walk_records(spot(3), 2)
    log ["records from 3:", reach]
    walk_records(spot(4), 3)
    log ["records from 4:", reach]
    walk_pairs(spot(3), 2)
    log ["pairs from 3:", reach]
    log ["6 among the players:", count(track) in turn_order(), "a spot among them:", spot(1) in turn_order()]
    shuffle track

turn:
    set rounds to rounds + 1
    if rounds > 9:
        end game
    if figure != none and mover != none and not (mover in turn_order()):
        log "the mover left"
    let d = first(tray)
    roll d
    walk_pairs(figure if figure != none else spot(1), d.face)     # a range up to a die's face
    if count(reach) > 0:                                          # (a walk too long for the line)
        you choose s from reach "Move the figure where?"
        fire moved on s by you
    you choose t from track "Land where?"
    fire landing on t by you
    if rounds % 4 == 0:
        set figure to none          # off the board for a while

score p: caught of p
"""
SPOTS = "".join(f"- {{name: S{i}, type: Spot, n: {i}}}\n" for i in range(1, 7))

KINDS = """\
game "Kinds":
    players 2

card type Spot:
    n: 1..6

zone track: pile, shared, public
stat done: 0..1

setup:
    move all_cards() to track

turn:
    if done == 1:
        end game
    set done to 1
    log ["number among players:", count(track) in turn_order()]
    log ["card among players:", first(track) in turn_order()]
    log ["player among cards:", you in track]
    log ["number among cards:", 3 in track]
    log ["first seat among cards:", first(turn_order()) in track]
    log ["text among players:", "S1" in turn_order()]
"""


def test_walks_kept_as_card_pairs_and_as_records_end_where_the_rules_say(tmp_path):
    g = new_game(load_program(ruleset(tmp_path, FIGURE, SPOTS)), 2, 0)
    # from spot 3, two steps never straight back: 3-2-1 and 3-4-5; from 4, three steps, a walk
    # that enters spot 6 stops there: 4-3-2-1 and 4-5-6
    assert g.log[:3] == ["[records from 3:, [S1 (1), S5 (5)]]", "[records from 4:, [S1 (1), S6 (6)]]",
                         "[pairs from 3:, [S1 (1), S5 (5)]]"]


def test_a_game_stat_holds_one_card_or_none_and_a_trigger_condition_reads_it(tmp_path):
    program = load_program(ruleset(tmp_path, FIGURE, SPOTS))
    held, caught = set(), 0
    for i in range(4):
        seed = game_seed(5, i)
        seats = agents_for(["random"], 2, seed)
        g = new_game(program, 2, seed, seats=seats)
        while not g.over:
            held.add(type(g.state.stats["figure"]))
            g.answer(seats[g.decision.player].choose(g, g.decision))
        assert g.error is None, g.error
        caught += sum(g.result["scores"])
        assert sum("caught on" in line for line in g.log) == sum(g.result["scores"])
    assert held == {CardData, type(None)}  # the card itself, as the task engine keeps it; none between
    assert caught > 0  # the trigger's condition `figure == s` held sometimes
    same_games_in_both_forms(program, players=(2, 3), games=3)


def test_in_a_list_of_another_kind_is_false(tmp_path):
    program = load_program(ruleset(tmp_path, KINDS, SPOTS))
    g = new_game(program, 2, 0)
    assert g.over and g.error is None
    # card ids and seats are numbers on direct code: none of these may compare them as numbers
    assert g.log == ["[number among players:, no]", "[card among players:, no]", "[player among cards:, no]",
                     "[number among cards:, no]", "[first seat among cards:, no]", "[text among players:, no]"]
    same_games_in_both_forms(program, players=(2,), games=1)
