"""`previous_player`, `unique_most` and `linked`, and per-player `rows` zones, on tiny rule files.

See docs/language-tableau-and-interrupts.md. No game's content is involved.
"""
from __future__ import annotations

from rulekit import errors, game

GEMS = """
- {name: Ruby, type: Gem, value: 5}
- {name: Opal, type: Gem, value: 2}
- {name: Jade, type: Gem, value: 1}
"""


def _log(tmp_path, body: str, players: int = 3, cards: str = GEMS) -> list[str]:
    rules = f"""
game "Test":
    players 2..4
card type Gem:
    value: 1..9
zone box: pile
zone row_zone: rows, per player, public
zone pad: set, per player, public
placement in row_zone as r:
    count(r) == 1
setup:
    move all_cards() to box
turn:
{body}
    end game
"""
    g = game(tmp_path, rules, cards, players=players)
    assert g.over and g.error is None, g.error
    return g.log


def test_previous_player_is_the_right_hand_neighbour_and_undoes_next_player(tmp_path):
    log = _log(tmp_path, """
    log [previous_player(), previous_player(players[0]), previous_player(players[2]), next_player(previous_player())]
    move first(box) to pad of previous_player()
    log [count(pad of players[2]), count(pad of previous_player(players[0])), count(pad of previous_player(players[1]))]
""", players=3)
    assert log == ["[player 3, player 3, player 2, player 1]", "[1, 1, 0]"]


def test_previous_player_with_four_players(tmp_path):
    log = _log(tmp_path, "    log [previous_player(p) for each p in players]", players=4)
    assert log == ["[player 4, player 1, player 2, player 3]"]


def test_unique_most_needs_a_strictly_largest_value(tmp_path):
    log = _log(tmp_path, """
    log unique_most(players, [1, 7, 3])
    log unique_most(players, [7, 7, 3])
    log unique_most(players, [none, 0, none])
    log unique_most(box, box.value)
    log unique_most([], [])
""")
    assert log == ["player 2", "none", "player 2", "Ruby (5)", "none"]


def test_unique_most_with_lists_of_different_lengths_is_a_rule_error(tmp_path):
    rules = """
game "Test":
    players 2
turn:
    log unique_most(players, [1])
"""
    g = game(tmp_path, rules)
    assert g.over and "2 items but 1 values" in str(g.error) and "game.rules:4" in str(g.error)


def test_linked_gives_the_connected_group_in_either_direction(tmp_path):
    log = _log(tmp_path, """
    let pairs = [[1, 2], [3, 2], [4, 5], [6, 6]]
    log [linked(1, pairs), linked(3, pairs), linked(5, pairs), linked(6, pairs), linked(9, pairs), linked(1, [])]
""")
    assert log == ["[[1, 2, 3], [3, 2, 1], [5, 4], [6], [9], [1]]"]


def test_linked_rejects_links_that_are_not_pairs(tmp_path):
    rules = """
game "Test":
    players 2
turn:
    log linked(1, [[1, 2, 3]])
"""
    g = game(tmp_path, rules)
    assert g.over and "pair" in str(g.error)


def test_linked_over_rows_of_a_per_player_rows_zone(tmp_path):
    """Rows are values: consecutive rows joined by a pair form one group; moving a card out of a
    per-player rows zone works (it used to fail on the zone's key)."""
    log = _log(tmp_path, """
    for each c in box:
        place c in row_zone of you
    let rs = rows(row_zone of you)
    log count(linked(rs[0], [[rs[0], rs[1]]]))
    move first(cards_in(rs[2])) to rs[0]
    log [count(r) for each r in rows(row_zone of you)]
    move cards_in(rows(row_zone of you)[0]) to pad of you
    log [count(rows(row_zone of you)), count(pad of you)]
""")
    assert log == ["2", "[2, 1]", "[1, 2]"]


def test_the_checker_knows_the_new_functions(tmp_path):
    rules = """
game "Test":
    players 2
zone pad: set, per player
turn:
    log [count(pad of previous_player()), unique_most(players), linkd(1, [])]
"""
    found = errors(tmp_path, rules)
    messages = " ".join(d.message for d in found)
    assert "unique_most" in messages and "linkd" in messages
    assert "previous_player" not in messages


def test_sort_by_orders_items_by_their_values_stably(tmp_path):
    """Turn order from revealed numbers: lowest first, ties keep the given (seat) order."""
    log = _log(tmp_path, """
    log sort_by(players, [65, 1, 65])
    log sort_by(box, box.value)
    log sort_by(["b", "a", "c"], ["y", "x", "y"])
    log sort_by([1, 2, 3], [none, 5, 4])
    log sort_by([], [])
""")
    assert log == ["[player 2, player 1, player 3]", "[Jade (1), Opal (2), Ruby (5)]", "[a, b, c]",
                   "[3, 2, 1]", "[]"]


def test_sort_by_refuses_mixed_values_and_unequal_lengths(tmp_path):
    for call, text in (('sort_by(players, [1, "a"])', "all numbers or all texts"),
                       ("sort_by(players, [1])", "2 items but 1 values")):
        g = game(tmp_path, f"""
game "Test":
    players 2
turn:
    log {call}
""")
        assert g.over and text in str(g.error)
