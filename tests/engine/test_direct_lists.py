"""Generated code (engine/direct*.py) plays lists of lists: nested lists of plain values (in a
stat, in a comprehension), lists of card lists from a comprehension, `linked` over plain values,
`sort_by` keys with none among numbers, and a player stat set through a seat number. Each tiny
ruleset is played on generated code, and its three forms compile."""
from __future__ import annotations

from interpreter.api import load_program
from interpreter.engine.direct import compile_direct
from interpreter.engine.directobserved import compile_observed
from interpreter.engine.factory import new_game
from interpreter.engine.resumablegame import compile_resumable
from rulekit import ruleset

GEMS = """
- {name: Ruby, type: Gem, value: 5}
- {name: Opal, type: Gem, value: 2}
- {name: Jade, type: Gem, value: 1}
"""


def _played(tmp_path, body: str, head: str = "") -> tuple:
    rules = f"""
game "Lists":
    players 2
card type Gem:
    value: 1..9
zone box: pile
zone grid: rows, per player, public
placement in grid as r:
    count(r) == 1
player stat gold = 0
{head}
setup:
    move all_cards() to box
turn:
{body}
    end game
"""
    program = load_program(ruleset(tmp_path, rules, GEMS))
    dp = compile_direct(program)
    compile_observed(dp)  # the observed and the copyable forms follow from the same source
    compile_resumable(dp)
    g = new_game(program, 2, 0)
    assert g.over and g.error is None, g.error
    return g, dp


def test_nested_lists_of_values_in_stats_and_comprehensions(tmp_path):
    g, _ = _played(tmp_path, """
    repeat 2 times:
        set s to [s, s]
        set t to t + [t]
    log s
    log t
    let pairs = [[x, x + 1] for each x in 1..3] + [[9]]
    log [count(pairs), pairs[1], count(s)]
    log [w.name for each w in [values(box), values(box)]]
""", head="stat s = [1]\nstat t = []")
    assert g.log == ["[[[1], [1]], [[1], [1]]]", "[[], [[]]]", "[4, [2, 3], 2]",
                     "[[Ruby, Opal, Jade], [Ruby, Opal, Jade]]"]


def test_a_comprehension_of_card_lists_keeps_each_list_and_logs_cards(tmp_path):
    g, _ = _played(tmp_path, """
    for each c in box:
        place c in grid of you
    let held = [cards_in(r) for each r in rows(grid of you)]
    move cards_in(first(rows(grid of you))) to box
    log held
    log [cards_in(r) for each r in rows(grid of you)]
""")
    # the lists are snapshots: the later move changes no list kept in `held`
    assert g.log == ["[[Ruby (5)], [Opal (2)], [Jade (1)]]", "[[Opal (2)], [Jade (1)]]"]


def test_linked_over_plain_values_and_sort_by_with_none_keys(tmp_path):
    g, _ = _played(tmp_path, """
    let links = [[1, 2], [3, 2], [4, 5], [6, 6]]
    log [linked(1, links), linked(5, links), linked(6, links), linked(9, links)]
    log sort_by([1, 2, 3], [none, 5, 4])
    log unique_most(players, [none, 0])
""")
    assert g.log == ["[[1, 2, 3], [5, 4], [6], [9]]", "[3, 2, 1]", "player 2"]


def test_linked_refuses_a_link_that_is_not_a_pair_on_generated_code(tmp_path):
    program = load_program(ruleset(tmp_path, 'game "L":\n    players 2\nturn:\n    log linked(1, [[1, 2, 3]])\n'))
    g = new_game(program, 2, 0)
    assert g.over and "each link must be a pair" in str(g.error) and "game.rules:4" in str(g.error)


def test_a_player_stat_set_through_a_seat_number(tmp_path):
    g, _ = _played(tmp_path, """
    set gold of 1 to 7
    log [gold of players[0], gold of players[1]]
""")
    assert g.log == ["[0, 7]"]
