"""The setup's prefix, played once per ruleset and player count (engine/setupmemo.py): which
statements it holds, and that a game laying its cards out from the first game's record is the
game that runs those statements itself."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from golden_games import ROOT
from interpreter.api import load_program
from interpreter.engine import setupmemo
from interpreter.engine.direct import compile_direct
from interpreter.engine.factory import new_game
from interpreter.play.agents import RandomAgent
from rulekit import ruleset

_RULES = """
game "Prefix":
    players 1..4
card type Gem:
    value: 1..9
card type Rock:
    value: 1..9
zone deck: pile, shared, hidden
zone spares: set, shared, public
zone box: pile, shared, hidden
zone hand: set, per player, hidden
player stat score: 0..99 = 0
setup:
{body}
turn:
    end game
"""
_CARDS = """
- {name: G1, type: Gem, value: 1}
- {name: R2, type: Rock, value: 2}
- {name: G3, type: Gem, value: 3}
"""


def _length(tmp_path, body: str) -> int:
    rs = load_program(ruleset(tmp_path, _RULES.format(body=body), _CARDS)).rs
    return setupmemo.prefix_length(rs.phases["setup"].body, rs, {"name", "value"})


@pytest.mark.parametrize("body,n", [
    ("    move all_cards() where it is Gem and it.value > 1 to deck\n    shuffle deck", 1),
    ("    move all_cards() where it is Rock to box\n"
     "    if player_count == 1:\n        move box where it.value == 2 to spares\n"
     "    move deck to box at bottom\n    shuffle deck", 3),
    ("    move all_cards() where it is Gem to deck\n    move all_cards() where not (it in deck) to box", 2),
    # a stat, a seat's zone, a random draw, the seats: not the same in every game (or not laid out)
    ("    move all_cards() where it.value > score of first(players) to deck", 0),
    ("    move all_cards() to hand of first(players)", 0),
    ("    move all_cards() where it is Gem to deck\n    move random(all_cards()) to box", 1),
    ("    if count(players) > 2:\n        move all_cards() to deck", 0),
    ("    set score of first(players) to 2\n    move all_cards() to deck", 0),
])
def test_the_prefix_is_the_first_statements_alike_in_every_game(tmp_path, body, n):
    assert _length(tmp_path, body) == n


def _played(program, players: int, seed: int, reuse=None):
    seats = [RandomAgent(seed * 10 + i) for i in range(players)]
    g = new_game(program, players, seed, seats=seats, reuse=reuse, log_moves=True)
    g.play_out(seats)
    return g


@pytest.mark.parametrize("name,players", [("stonehenge_wizards", 1), ("stonehenge_wizards", 3),
                                          ("toil_and_troublez", 4)])
def test_a_game_laid_out_from_the_record_plays_as_one_that_runs_its_prefix(name, players, monkeypatch):
    path = str(ROOT / "rulesets" / name)
    told: list[bool] = []
    restored = setupmemo.restored
    monkeypatch.setattr(setupmemo, "restored", lambda R: told.append(restored(R)) or told[-1])
    program = load_program(path)
    _played(program, players, 1).R.tables.pop("setup_prefix_logged", None)  # (another test may have
    told.clear()  # played this ruleset at this player count first: its record is forgotten here)
    first = _played(program, players, 1)
    assert told == [False]  # the first game runs the statements and records where they put the cards
    tables = first.R.tables
    for seed in (2, 3):
        again = _played(program, players, seed, reuse=first)
        del tables["setup_prefix_logged"]  # (the next game finds no record: it runs them itself)
        alone = _played(program, players, seed)
        assert told[-2:] == [True, False] and "setup_prefix_logged" in tables
        assert (again.state.digest(), again.log, again.choices, again.result, again.steps) == \
            (alone.state.digest(), alone.log, alone.choices, alone.result, alone.steps)
        assert list(again.state.where.items()) == list(alone.state.where.items())
        first = again


def test_the_record_is_taken_only_from_an_empty_table():
    """A game whose table is not empty when its setup begins (or whose change bits differ) runs
    its prefix itself and keeps no record from it."""
    st = SimpleNamespace(where={}, under={}, zones={"deck": [], "box": [3]})
    R = SimpleNamespace(state=st, tables={}, touched=0, plain_keys=frozenset({"deck", "box"}))
    assert setupmemo.restored(R) is False and R.setup_prefix is None
    setupmemo.recorded(R)
    assert R.tables == {}
    st.zones["box"] = []
    assert setupmemo.restored(R) is False
    st.zones["deck"].extend([1, 2])
    st.where.update({1: "deck", 2: "deck"})
    R.touched = 6
    setupmemo.recorded(R)
    assert R.tables["setup_prefix"] == (0, [("deck", [1, 2])], [(1, "deck"), (2, "deck")], None, 6)
    fresh = SimpleNamespace(where={}, under={}, zones={"deck": [], "box": []})
    R2 = SimpleNamespace(state=fresh, tables=R.tables, touched=0, plain_keys=R.plain_keys)
    assert setupmemo.restored(R2) is True
    assert fresh.zones == {"deck": [1, 2], "box": []} and fresh.where == {1: "deck", 2: "deck"} and R2.touched == 6
    other = SimpleNamespace(where={}, under={}, zones={"deck": [], "box": []})
    R3 = SimpleNamespace(state=other, tables=R.tables, touched=1, plain_keys=R.plain_keys)
    assert setupmemo.restored(R3) is False and other.zones["deck"] == []


def test_no_prefix_where_its_code_would_do_more_than_move_cards():
    program = load_program(str(ROOT / "rulesets" / "magical_treehouse"))  # its setup begins with a grid
    assert "prefix_restored" not in compile_direct(program).source
    program = load_program(str(ROOT / "rulesets" / "toil_and_troublez"))
    assert "prefix_restored" in compile_direct(program).source


def test_no_prefix_where_its_code_counts_work(tmp_path):
    """A `where` inside another's condition is charged to the work limit (`_charged(R, ...)`): a
    game laid out from the record would count less work, so the setup is written as before."""
    body = "    move all_cards() where it is Rock to box\n" \
           "    move all_cards() where it in (box where it.value == 2) to deck"
    program = load_program(ruleset(tmp_path, _RULES.format(body=body), _CARDS))
    assert setupmemo.prefix_length(program.rs.phases["setup"].body, program.rs, {"name", "value"}) == 2
    src = compile_direct(program).source
    assert "_charged(R" in src and "prefix_restored" not in src
    g = new_game(program, 2, 0)
    assert g.error is None and [program.rs.cards[c].name for c in g.state.zones["deck"]] == ["R2"]
