"""Talisman's `value` (what the bots strive for) ranks positions as the rulebook's goal does: the
Crown of Command above everything, the Inner Region above the Middle above the Outer, nearer the
way in better, a character out of the game worth nothing."""
from __future__ import annotations

from typing import Any
from pathlib import Path

from interpreter.api import load_program
from interpreter.engine.factory import new_game
from rulekit import put_card

RULESET = Path(__file__).resolve().parents[2] / "rulesets" / "talisman"


def _value_at(game: Any, n: int) -> float:
    """Seat 1's value with its character standing on board space `n` (all else unchanged)."""
    g = game.clone()
    g.state.pstats[0]["at"] = next(c for c in g.cards if c.type == "BoardSpace" and c.fields["n"] == n)
    return g.values()[0]


def test_the_value_follows_the_way_to_the_crown():
    game = new_game(load_program(RULESET), 4, 3)
    assert game.values() is not None and len(game.values()) == 4
    far, sentinel = _value_at(game, 5), _value_at(game, 17)          # Outer Region
    middle, portal = _value_at(game, 25), _value_at(game, 33)        # Middle Region
    plain, valley, crown = _value_at(game, 41), _value_at(game, 48), _value_at(game, 49)
    assert far < sentinel < middle < portal < plain < valley < crown
    assert crown >= 1000
    out = game.clone()
    out.state.pstats[0]["out"] = 1
    assert out.values()[0] == 0


def _value_with(game: Any, n: int, lives: int) -> float:
    """Seat 1's value on board space `n` with `lives` lives (all else unchanged)."""
    g = game.clone()
    g.state.pstats[0]["at"] = next(c for c in g.cards if c.type == "BoardSpace" and c.fields["n"] == n)
    g.state.pstats[0]["lives"] = lives
    return g.values()[0]


def test_staying_alive_comes_before_going_deeper():
    game = new_game(load_program(RULESET), 4, 3)
    # a healthy character at the Sentinel is better off than one on his last life beyond it
    assert _value_with(game, 17, 4) > _value_with(game, 25, 1)
    # the last lives count most: from 2 lives to 1 costs more than from 5 to 4
    assert _value_with(game, 5, 2) - _value_with(game, 5, 1) > _value_with(game, 5, 5) - _value_with(game, 5, 4)
    # how far in he is counts in full from 3 lives only; the Crown whatever his lives
    assert _value_with(game, 41, 3) - _value_with(game, 41, 1) > _value_with(game, 5, 3) - _value_with(game, 5, 1)
    assert _value_with(game, 49, 1) >= 1000


def test_each_step_of_either_way_through_the_inner_region_counts_more():
    game = new_game(load_program(RULESET), 4, 3)
    # the two ways from the Plain of Peril to the Valley of Fire (game.rules' map): a search must
    # see every step along either as a step nearer the Crown, the Valley last of all
    for way in ([41, 42, 43, 44, 48], [41, 45, 46, 47, 48]):
        values = [_value_at(game, n) for n in way]
        assert values == sorted(values) and len(set(values)) == len(values), way
    valley = _value_at(game, 48)
    assert all(_value_at(game, n) < valley for n in range(41, 48))


def test_how_far_in_counts_in_full_from_three_lives_and_no_more_above():
    game = new_game(load_program(RULESET), 4, 3)
    # on space 5 he is 12 steps from the Sentinel: his progress counts nothing, only his lives do
    outer = {k: _value_with(game, 5, k) for k in (2, 3, 4)}
    inner = {k: _value_with(game, 41, k) for k in (2, 3, 4)}
    # the third life brings the Inner Region's progress in full (a third of it per life below) ...
    assert inner[3] - inner[2] > outer[3] - outer[2]
    # ... and a fourth life adds only what a life is worth anywhere
    assert inner[4] - inner[3] == outer[4] - outer[3]


def test_a_talisman_adds_to_the_value():
    game = new_game(load_program(RULESET), 4, 3)
    before = _value_at(game, 25)
    g = game.clone()
    g.state.pstats[0]["at"] = next(c for c in g.cards if c.type == "BoardSpace" and c.fields["n"] == 25)
    st = g.state
    talisman = next(c.id for c in g.cards if c.type == "Adventure" and c.fields.get("talisman")
                    and st.where.get(c.id, "").startswith("talisman_deck"))
    st.zones[st.where[talisman]].remove(talisman)  # handed a Talisman (the Valley of Fire needs one)
    st.zones["objects#0"].append(talisman)
    st.where[talisman] = "objects#0"
    assert g.values()[0] > before


def _value_of(game: Any, n: int, **stats: Any) -> float:
    """Seat 1's value on board space `n` with these player stats changed (all else unchanged)."""
    g = game.clone()
    g.state.pstats[0]["at"] = next(c for c in g.cards if c.type == "BoardSpace" and c.fields["n"] == n)
    g.state.pstats[0].update(stats)
    return g.values()[0]


def test_the_weights_are_those_docs_simulation_md_gives():
    """docs/simulation.md gives the weights the guided bots were tuned and measured with (the Crown
    1000, the Inner Region 100 + 20 a space, the rings 2 points a step nearer the way in, 15 for a
    Talisman, 2 per point of Strength and Craft, the way in counted in full from 3 lives and a third
    of it per life below): a weight changed without the measurement must fail here, not only a
    change of the order the tests above pin."""
    game = new_game(load_program(RULESET), 4, 3)
    # space 5 is 12 steps from the Sentinel's bridge (17): the rings count nothing there
    base = _value_of(game, 5, lives=3)
    assert _value_of(game, 6, lives=3) - base == 2             # 11 steps: one step nearer, 2 points
    assert _value_of(game, 16, lives=3) - base == 22           # one step from the bridge
    assert _value_of(game, 49, lives=3) - base == 1000         # the Crown
    assert _value_of(game, 41, lives=3) - base == 120          # the Plain of Peril: 100 + 20
    one = _value_of(game, 5, lives=1)
    assert _value_of(game, 41, lives=1) - one == 40            # a third of it on his last life
    assert _value_of(game, 5, lives=3, strength_counters=1) - base == 2
    assert _value_of(game, 5, lives=3, craft_counters=1) - base == 2
    g = game.clone()
    g.state.pstats[0]["at"] = next(c for c in g.cards if c.type == "BoardSpace" and c.fields["n"] == 5)
    g.state.pstats[0]["lives"] = 3
    st = g.state
    talisman = next(c.id for c in g.cards if c.type == "Adventure" and c.fields.get("talisman")
                    and st.where.get(c.id, "").startswith("talisman_deck"))
    put_card(g, talisman, "objects#0")
    assert g.values()[0] - base == 15                          # a Talisman
