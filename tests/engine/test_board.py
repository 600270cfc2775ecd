"""Board graphs (docs/boards.md): spaces are cards joined by `ring`, `path` and `link`; walks of
exactly n steps never step straight back; one-way links; regions; cards lying on spaces."""
from __future__ import annotations

from rulekit import BOARD_WORLD, answer, board_cards, errors, game

# Two loops joined by a two-way bridge (b2 -- c1), a one-way gate (c3 -> d1) into a line d1-d2-d3.
CARDS = board_cards(2)

HEAD = """
game "Board test":
    players 2

player stat at = none
""" + BOARD_WORLD + """
setup:
    move all_cards() where it is Land to lands
    move all_cards() where it is Token to bag
"""


def run(tmp_path, body: str, players: int = 2):
    g = game(tmp_path, HEAD + "\nturn:\n" + body + "    end game\n", CARDS, players)
    assert g.error is None, g.error
    return g


def names(x):
    return [[c.name for c in w] if isinstance(w, list) else w.name for w in x]


def test_ring_walks_go_both_ways_without_reversing(tmp_path):
    g = run(tmp_path, """
    let a4 = card_named("A4")
    log [w.name for each w in walks(a4, 2, "Out")]
    log spaces_away(a4, 3, ["Out"])
    log neighbours(a4)
""")
    # the listed direction comes first; no walk goes A4 -> A5 -> A4
    assert g.log == ["[[A5, A6], [A3, A2]]", "[A1 (Out)]",
                     "[A5 (Out), A3 (Out)]"]


def test_walk_crosses_a_link_and_may_turn_either_way_after_it(tmp_path):
    g = run(tmp_path, """
    log [w.name for each w in walks(card_named("A1"), 3)]
""")
    # from A1 clockwise to A2, then on to A3 or across the bridge to C1, then either way around C
    assert g.log == ["[[A2, A3, A4], [A2, C1, C2], [A2, C1, C4], [A6, A5, A4]]"]


def test_edge_kinds_restrict_walks(tmp_path):
    g = run(tmp_path, """
    log [w.name for each w in walks(card_named("A1"), 3, ["Out"])]
    log [w.name for each w in walks(card_named("C2"), 2, ["Mid", "gate"])]
""")
    assert g.log == ["[[A2, A3, A4], [A6, A5, A4]]", "[[C3, C4], [C3, D1], [C1, C4]]"]


def test_one_way_link_is_not_walked_back(tmp_path):
    g = run(tmp_path, """
    log neighbours(card_named("D1")).name
    log neighbours(card_named("C3")).name
    log [steps_between(card_named("A1"), card_named("D3")), steps_between(card_named("D3"), card_named("A1"))]
""")
    assert g.log == ["[D2]", "[C4, C2, D1]", "[7, none]"]


def test_region_and_spaces_of_a_board(tmp_path):
    g = run(tmp_path, """
    log [region(card_named("C2")), region(card_named("D3")), count(spaces(world))]
    log first(spaces(world), 3).name
""")
    assert g.log == ["[Mid, Core, 13]", "[A1, A2, A3]"]


def test_cards_lie_on_spaces_and_leave_them(tmp_path):
    g = run(tmp_path, """
    let s = card_named("C2")
    move bag to s
    log [count(cards_at(s)), count(world), space_of(top(world)).name, cards_at(card_named("C1"))]
    move first(cards_at(s)) to bag
    log [count(cards_at(s)), count(bag), space_of(top(bag))]
""")
    assert g.log == ["[2, 2, C2, []]", "[1, 1, none]"]


def test_pieces_are_stats_holding_a_space_and_players_choose_a_walk(tmp_path):
    g = game(tmp_path, HEAD + """
turn:
    set your at to card_named("A1")
    you choose w from walks(your at, 2) "Move where?"
    set your at to last(w)
    log [you, your at]
    end game
""", CARDS)
    d = g.decision
    assert d.labels == ["[A2 (Out), A3 (Out)]", "[A2 (Out), C1 (Mid)]", "[A6 (Out), A5 (Out)]"]
    answer(g, 0, "[A2 (Out), C1 (Mid)]")
    assert g.log == ["[player 1, C1 (Mid)]"]


def test_bad_board_items_are_diagnosed(tmp_path):
    errs = errors(tmp_path, HEAD.replace('ring all_cards() where it is Land and it.area == Out as Out',
                                         'ring 3 as Out').replace("card_named(\"A2\")", "card_nmed(\"A2\")") + "turn:\n    end game\n", CARDS)
    codes = sorted(e.code for e in errs)
    assert codes == ["name/undefined", "type/board"], [str(e) for e in errs]


def test_a_space_in_two_boards_is_a_rule_error(tmp_path):
    rules = HEAD + """
board other:
    path [card_named("A1"), card_named("A2")]

turn:
    log count(spaces(other))
    end game
"""
    g = game(tmp_path, rules, CARDS)
    assert g.error is not None and "already a space of `world`" in str(g.error)


def test_always_rule_calling_a_function_sees_what_it_reads(tmp_path):
    """Settling looks through functions: a rule that reads a stat only via a function re-runs
    when that stat changes (and only a real change counts)."""
    g = game(tmp_path, """
game "Settle":
    players 2

player stat gems: 0..9
player stat alarms: 0..9

function rich(p) = gems of p >= 3

always:
    for each p in players:
        if rich(p) and alarms of p == 0:
            set alarms of p to 1

turn:
    your gems += 2
    log [your gems, your alarms]
    your gems += 1
    log [your gems, your alarms]
    end game
""")
    assert g.error is None, g.error
    assert g.log == ["[2, 0]", "[3, 1]"]
