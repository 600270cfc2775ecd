"""A batch's game taking over the generated functions of the game before it (`new_game(reuse=)`,
`DirectGame._functions`, direct.py's `bind_again`): it plays the game a game with functions of its
own plays, answer for answer, and the finished game it took them from is not asked again."""
from __future__ import annotations

import pytest

from golden_games import ROOT
from interpreter.api import load_program
from interpreter.engine.factory import new_game
from interpreter.play.agents import RandomAgent


def _played(program, players: int, seed: int, reuse=None):
    seats = [RandomAgent(seed * 10 + i) for i in range(players)]
    g = new_game(program, players, seed, seats=seats, reuse=reuse, log_moves=True)
    g.play_out(seats)
    return g


def _outcome(g) -> tuple:
    return g.error, g.result, g.state.digest(), g.log, g.choices, g.steps


@pytest.mark.parametrize("name,players", [
    ("stonehenge_wizards", 1),  # adds a dummy player: the zone tables its functions bound grow
    ("stonehenge_wizards", 4),
    ("toil_and_troublez", 3),
    ("magical_treehouse", 3),   # grids, rows, placement rules
])
def test_a_game_on_reused_functions_is_the_same_game(name, players):
    program = load_program(ROOT / "rulesets" / name)
    builds = []
    last = _played(program, players, 1)
    dp = last.dp
    assert dp.bind_again is not None
    build = dp.build
    dp.build = lambda R, K: builds.append(1) or build(R, K)
    try:
        for seed in range(2, 7):
            fresh = _played(program, players, seed)
            again = _played(program, players, seed, reuse=last)
            assert _outcome(again) == _outcome(fresh)
            assert again.fns is not fresh.fns and "fns" not in last.__dict__  # taken over, not made
            last = again
    finally:
        dp.build = build
    assert len(builds) == 5  # the fresh games only


def test_only_a_game_that_ended_cleanly_gives_its_functions():
    program = load_program(ROOT / "rulesets" / "toil_and_troublez")
    seats = [RandomAgent(i) for i in range(2)]
    pending = new_game(program, 2, 1, seats=seats)  # stopped at its first decision: frames suspended
    g = new_game(program, 2, 2, seats=seats, reuse=pending)
    assert g.fns is not pending.fns and "fns" in pending.__dict__
    g.play_out(seats)
    h = new_game(program, 2, 3, seats=seats, reuse=g)
    assert h.fns is not None and "fns" not in g.__dict__


def test_a_game_taken_over_is_freed_without_the_collector():
    """The finished game whose functions the next game takes is emptied, so its runtime and state
    (which refer to each other) go at once: no cyclic garbage per game of a batch."""
    import gc
    import weakref
    program = load_program(ROOT / "rulesets" / "toil_and_troublez")
    first = _played(program, 4, 1)
    gone = weakref.ref(first)  # its runtime refers to it
    paused = gc.isenabled()
    gc.disable()
    try:
        second = _played(program, 4, 2, reuse=first)
        del first
        assert gone() is None
        assert second.over and second.error is None
    finally:
        if paused:
            gc.enable()


@pytest.mark.parametrize("name,players", [("stonehenge_wizards", 1), ("toil_and_troublez", 4),
                                          ("magical_treehouse", 3)])
def test_the_kept_paths_find_the_cells_a_walk_finds(name, players):
    """The second game of a batch finds the cells of the first game's functions by the paths the
    first walk of the program kept (`_cells_of`); a path that leads to other code is not trusted:
    the functions are walked again."""
    from interpreter.engine.directgame import _cells_of
    program = load_program(ROOT / "rulesets" / name)
    first = _played(program, players, 1)
    dp, names = first.dp, first.dp.bind_again[1]
    dp.__dict__.pop("cell_paths", None)
    mine = _cells_of(first.fns, names, dp)
    assert dp.cell_paths and mine == _cells_of(first.fns, names) and any(c is not None for c in mine)
    other = _played(program, players, 2)
    walked = _cells_of(other.fns, names)  # (no program given: a walk)
    followed = _cells_of(other.fns, names, dp)
    assert len(followed) == len(names) and all(a is b for a, b in zip(followed, walked))
    assert not any(a is b for a, b in zip(followed, mine) if a is not None)
    (_, code, picks), (other_path, _, _) = dp.cell_paths[0], dp.cell_paths[-1]
    dp.cell_paths[0] = (other_path, code, picks)  # leads to another function now
    assert all(a is b for a, b in zip(_cells_of(other.fns, names, dp), walked))


def test_the_seat_tables_kept_per_ruleset_are_not_grown_by_a_dummy_player():
    """`player_keys` and `plan_bits_of` read lists made once per ruleset and seat count; a game
    that adds a dummy player (the dice game alone) grows its own copies, never those."""
    program = load_program(ROOT / "rulesets" / "stonehenge_wizards")
    first = _played(program, 1, 1)
    again = _played(program, 1, 2, reuse=first)
    assert again.state.dummies == 1
    tables = again.R.tables
    assert tables["seat_keys"] and tables["plan_bits"]
    assert all(len(keys) == n for (_, n), keys in tables["seat_keys"].items())
    assert all(len(bits) == n for (_, n), bits in tables["plan_bits"].items())
    assert _outcome(_played(program, 1, 2)) == _outcome(again)


def _dummy_seat(g) -> tuple:
    R, st = g.R, g.state
    return (st.dummies, dict(R.bits), dict(R.key_name), R.rows_keys, dict(R.tbit), st.pstats[-1],
            sorted(k for k in st.zones if k.endswith("#1")), len(R.seats))


def test_a_dummy_player_added_from_the_kept_tables_is_added_as_at_first():
    """`add_dummy` takes the new seat's tables from those kept for it (`_dummy_tables`): the same
    as a game that makes them, every zone and stat of the seat with a bit of its own."""
    program = load_program(ROOT / "rulesets" / "stonehenge_wizards")
    first = _played(program, 1, 1)
    kept = first.R.tables["dummies"]
    again = _played(program, 1, 1)
    assert again.R.bits is first.R.bits  # the kept tables, shared
    kept.clear()
    made = _played(program, 1, 1)
    assert made.R.bits is not first.R.bits
    assert _dummy_seat(again) == _dummy_seat(made) == _dummy_seat(first)
    R, rs = again.R, program.rs
    assert len(set(R.bits.values())) == len(R.bits)
    for name, z in rs.zones.items():
        if z.per_player:
            key = f"{name}#1"
            assert again.state.zones[key] is not made.state.zones[key]
            assert R.tbit[key] == R.bits[name] | R.bits[key] and R.key_name[key] == name
    for name, sd in rs.stats.items():
        if sd.per_player:
            assert f"{name}#1" in R.bits and name in again.state.pstats[1]
