"""Talisman's Dragon mod, what the seats see: the dragon token pool and the Dragon deck lie
facedown (every seat sees only how many cards they hold); the Draconic Lords' cards, the scales on
them and a character's claimed scales lie open. Found by tools/mutate_rules.py: `hidden` made
`public` on the Dragon deck passed every scenario (a scenario reads the state, not a seat's view).
No rule IDs in these docstrings: tests/games/test_talisman.py reads the docstrings of
test_talisman*.py files as base-game citations."""
from __future__ import annotations

from pathlib import Path

from typing import Any

from interpreter.api import load_program
from interpreter.content.stack import stack_path
from interpreter.engine.factory import new_game
from interpreter.engine.game import Decision
from interpreter.runtime.values import ZoneRef

ROOT = Path(__file__).resolve().parents[2]


def _dragon_game() -> Any:
    stack = stack_path(str(ROOT / "rulesets" / "talisman"), [str(ROOT / "rulesets" / "talisman_dragon")])
    return new_game(load_program(stack), 2, 0, seats=[])


def test_the_pool_and_the_dragon_deck_lie_face_down_the_lords_and_scales_open():
    g = _dragon_game()
    for seat in (0, 1, None):
        seen = g.view(seat)
        for zone in ("dragon_pool", "dragon_deck"):
            assert isinstance(seen[zone], int) and seen[zone] > 0, (seat, zone)
        for zone in ("lords", "lord_scales", "dragon_gone", "scales of player 1"):
            assert isinstance(seen[zone], list), (seat, zone)


TOWER = ["Tower Gate", "Lower Stairway", "Upper Stairway", "Dragon's Roost"]


def _tower_rates(g: Any) -> list[float]:
    """Seat 1's preference for moving to each space of the Dragon Tower, bottom to top."""
    ids = [next(c.id for c in g.cards if c.type == "BoardSpace" and c.name == name) for name in TOWER]
    return g.preferences(Decision(0, "choose", "Move to which space?", ids, [g.label(i) for i in ids], None))


def test_guided_bots_go_up_the_tower_only_with_a_talisman():
    """A bot offered a move into the Dragon Tower rates its spaces the higher the nearer the Crown
    while he holds a Talisman (he climbs on), and below any other space without one (he cannot reach
    the Crown that way). Found by tools/mutate_rules.py: `500 + 10 * inner_step` made `500 - ...`
    in the Tower's `prefer` rule passed every scenario (a scenario scripts its choices)."""
    g = _dragon_game()
    assert all(r < 0 for r in _tower_rates(g))
    talisman = next(c.id for c in g.cards if c.name == "Talisman")
    g.state.zones[ZoneRef("objects", 0).key].append(talisman)
    rates = _tower_rates(g)
    assert rates == sorted(rates) and len(set(rates)) == 4 and rates[0] > 0


def _king_rates(g: Any, hero: str, king: str) -> list[float]:
    """Seat 1's preference for yes (by Craft) and no (by Strength) when he attacks the Dragon King,
    his character and the King's card set as named."""
    ids = {c.name: c.id for c in g.cards if c.type in ("Hero", "DraconicLord") or c.name in (hero, king)}
    g.state.zones[ZoneRef("hero", 0).key] = [ids[hero]]
    g.state.zones[ZoneRef("objects", 0).key] = []
    g.state.zones[ZoneRef("followers", 0).key] = []
    g.state.zones[ZoneRef("dragon_king", None).key] = [ids[king]]
    return g.preferences(Decision(0, "may", "Attack the Dragon King by Craft (no: by Strength)?",
                                  [True, False], ["yes", "no"], None))


def test_guided_bots_attack_the_dragon_king_where_they_lag_him_least():
    """A bot attacking the Dragon King fights by Craft only where his Craft lags the King's by less
    than his Strength lags the King's Strength; a tie goes to Strength. The Troll (Strength 6, Craft
    1) against Varthrax (10, 6) or Cadorus (6, 10) fights by Strength; the Prophetess (2, 4) against
    Varthrax by Craft; the Thief (3, 3) against Grilipus (8, 8), a tie, by Strength. Found by
    tools/mutate_rules.py: the King's `prefer` rule (king.rules) was met by no scenario (a scenario
    scripts its choices)."""
    by_craft = lambda rates: rates[0] > rates[1]  # noqa: E731
    assert not by_craft(_king_rates(_dragon_game(), "Troll", "Varthrax"))
    assert not by_craft(_king_rates(_dragon_game(), "Troll", "Cadorus"))
    assert by_craft(_king_rates(_dragon_game(), "Prophetess", "Varthrax"))
    assert not by_craft(_king_rates(_dragon_game(), "Thief", "Grilipus"))
