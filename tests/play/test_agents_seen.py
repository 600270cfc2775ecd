"""What a search's seat sees of a world (`agents._seen`, which decides whether a kept tree's node
can root the seat's next search) compared without copying it: `_sees_the_same(g, seat, sight,
seen)` answers `_seen(g, seat, sight) == seen` for any two states of a game (here states of
several rulesets' random games, their copies dealt again for the seat, and hand-made changes)."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter.api import load_program
from interpreter.engine.factory import new_game
from interpreter.play.agents import MCTSAgent, _MIXED, _seen, _sees_the_same, _sight, determinize

ROOT = Path(__file__).resolve().parents[2]


def _states(name: str, players: int, seed: int, steps: int) -> list:
    """Copies of a random game at each of its first `steps` decisions."""
    g = new_game(load_program(ROOT / "rulesets" / name), players, seed, seats=[MCTSAgent(0)] * players)
    rng = random.Random(seed)
    out = []
    for _ in range(steps):
        if g.over:
            break
        out.append(g.clone())
        g.answer(rng.randrange(len(g.decision.options)))
    return out


@pytest.mark.parametrize("name,players", [("stonehenge_wizards", 2), ("toil_and_troublez", 3),
                                          ("magical_treehouse", 3), ("enchanters_overlords", 2)])
def test_the_comparison_answers_as_comparing_the_copies(name, players):
    states = _states(name, players, 5, 40)
    rng = random.Random(1)
    same = differ = 0
    for seat in range(players):
        sight = _sight(states[0], seat)
        for a, b in zip(states, states[1:] + states[:1]):
            worlds = [b, a.clone()]  # another state, and the same one dealt again for the seat
            determinize(worlds[1], seat, rng)
            for w in worlds:
                want = _seen(a, seat, sight) == _seen(w, seat, sight)
                assert _sees_the_same(w, seat, sight, _seen(a, seat, sight)) is want
                same += want
                differ += not want
    assert same and differ


def test_each_part_of_what_the_seat_sees_counts():
    """A change to any one part the seat sees is told apart; one to a hidden zone is not."""
    g = _states("stonehenge_wizards", 2, 3, 12)[-1]
    seat = g.decision.player
    sight = _sight(g, seat)
    seen = _seen(g, seat, sight)
    assert _sees_the_same(g, seat, sight, seen)
    assert not _sees_the_same(g, seat, sight, None) and not _sees_the_same(g, seat, sight, _MIXED)
    st = g.state
    visible = next(k for k, rows, v in sight[0] if v and not rows and st.zones.get(k))
    hidden = next(k for k, rows, v in sight[0] if not v and not rows and len(st.zones.get(k) or ()) > 1)
    changes = [
        lambda: st.zones[visible].reverse() if len(st.zones[visible]) > 1 else st.zones[visible].pop(),
        lambda: st.zones[hidden].pop(),  # one card fewer: its number is seen
        lambda: st.pstats[seat].__setitem__(next(iter(st.pstats[seat])), 77),
        lambda: st.pstats[1 - seat].__setitem__(next(iter(st.pstats[1 - seat])), 77),
        lambda: setattr(st, "turn_number", st.turn_number + 1),
        lambda: st.uses.__setitem__("turn:x:0", 1),
    ]
    for change in changes:
        h = g.clone()
        st = h.state
        change()
        assert not _sees_the_same(h, seat, sight, seen)
        assert _seen(h, seat, sight) != seen
    h = g.clone()
    h.state.zones[hidden].reverse()  # the same cards in another order: not seen
    assert _sees_the_same(h, seat, sight, seen) and _seen(h, seat, sight) == seen
