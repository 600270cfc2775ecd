"""What a change of a player's stat notes for settling (`Runtime.change_stat`, `set_pstat`,
`touch_stat`): its name's bit and its instance's (`gold#2`), for every seat, a dummy player's
too, read from the table kept per ruleset by seat (`stat_bits`) and filled on first use."""
from __future__ import annotations

from golden_games import ROOT
from interpreter.api import load_program
from interpreter.engine.factory import new_game
from interpreter.runtime.values import Seat


def _seat_stats(players: int):
    program = load_program(ROOT / "rulesets" / "stonehenge_wizards")
    g = new_game(program, players, 1)
    while players == 1 and not g.state.dummies:  # (the setup adds the dummy after the wizards' choice)
        g.answer(0)
    names = [name for name, sd in program.rs.stats.items() if sd.per_player]
    return g, g.R, names


def test_a_stat_change_notes_its_name_and_its_seats_instance():
    for players in (1, 3):  # (one player: a dummy player sits at the table too)
        g, R, names = _seat_stats(players)
        seats = players + g.state.dummies
        assert seats == (2 if players == 1 else 3)
        for ask in range(2):  # the table filled, then read
            for k in range(seats):
                for name in names:
                    want = R.bits[name] | R.bits[f"{name}#{k}"]
                    for seat in (k, Seat(k)):
                        R.touched = 0
                        R.touch_stat(name, seat)
                        assert R.touched == want, (name, k)
                        if isinstance(g.state.pstats[k][name], int):
                            R.touched = 0
                            R.set_pstat(seat, name, g.state.pstats[k][name] + 1)
                            assert R.touched == want, (name, k)
                            R.touched = 0
                            R.change_stat(seat, name, -1)
                            assert R.touched == want or g.state.pstats[k][name] is None, (name, k)
        assert len(R.stat_bits) == seats
