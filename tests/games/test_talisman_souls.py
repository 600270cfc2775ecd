"""The Realm of Souls (rulesets/talisman_souls): what its scenarios cannot state, what each seat
sees. Its rules' citations: tests/games/test_talisman_souls_coverage.py; its scenarios:
tests/play/test_scenarios.py (tests/scenarios/talisman_souls)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from interpreter.api import load_program
from interpreter.engine.factory import new_game
from interpreter.engine.game import Decision
from interpreter.runtime.values import ZoneRef

ROOT = Path(__file__).resolve().parents[2]


def test_the_veil_deck_lies_face_down_and_its_discard_pile_open():
    """Veil cards are met only when an instruction says so (TA-793), drawn from the top of the
    Veil deck: every seat sees how many wait there, not which; a Veil card met is discarded face up
    (as the Adventure discard pile). Found by tools/mutate_rules.py: `hidden` made `public` on
    game.rules:27 passed every scenario."""
    g = new_game(load_program(ROOT / "rulesets" / "talisman_souls"), 3, 0, seats=[])
    waiting = len(g.state.zones[ZoneRef("veil_deck", None).key])
    assert waiting > 0
    for seat in (0, 1, None):
        seen = g.view(seat)
        assert isinstance(seen["veil_deck"], int) and seen["veil_deck"] == waiting, seat
        assert isinstance(seen["veil_discard"], list), seat


# ---- what a Ghost strives for (game.rules' `ghost_aim`, `grave_pull` and `prefer`): guidance
def _souls_game(base: bool = False) -> Any:
    return new_game(load_program(ROOT / "rulesets" / ("talisman" if base else "talisman_souls")), 2, 3)


def _space(g: Any, n: int) -> Any:
    return next(c for c in g.cards if c.type == "BoardSpace" and c.fields["n"] == n)


def _rates(g: Any, ns: list[int], prompt: str = "Move where?") -> list[float]:
    """Seat 1's preference for walks ending on the spaces numbered ns (as generated code offers
    a walk: a tuple of card ids)."""
    options = [(_space(g, n).id,) for n in ns]
    return g.preferences(Decision(0, "choose", prompt, options, [g.label(o) for o in options], None))


def test_a_ghost_with_lives_makes_for_his_gravemarker_never_the_inner_region():
    """A Ghost with lives is resurrected on his Gravemarker (TA-786; by landing on it, assumed):
    the nearer a space to it, the better; the Inner Region, which he cannot enter (TA-790), last."""
    g = _souls_game()
    g.state.pstats[0].update(ghost=1, lives=1, grave=_space(g, 8), at=_space(g, 6))
    grave, next_to, farther, inner = _rates(g, [8, 7, 12, 41])
    assert grave > next_to > farther > inner
    assert farther > 0  # four steps off: still drawn towards it, above a space with no walk to it


def test_a_ghost_whose_gravemarker_is_on_the_portal_makes_for_it():
    """A character killed in the Inner Region leaves his Gravemarker on the Portal of Power
    (TA-785), on the Middle Region side: a Ghost with lives makes for it as for any other."""
    g = _souls_game()
    g.state.pstats[0].update(ghost=1, lives=1, grave=_space(g, 33), at=_space(g, 31))
    portal, near, far = _rates(g, [33, 32, 8])
    assert portal > near > far


def test_a_ghost_without_lives_roams():
    """With no life a Ghost gains nothing on his Gravemarker (TA-786 wants more than zero lives):
    every space he may enter is rated alike, the Inner Region below them."""
    g = _souls_game()
    g.state.pstats[0].update(ghost=1, lives=0, grave=_space(g, 8), at=_space(g, 6))
    grave, next_to, farther, inner = _rates(g, [8, 7, 12, 41])
    assert grave == next_to == farther == 0 and inner < 0


def test_a_living_character_plans_as_in_the_base_game():
    """The Realm of Souls changes the plan of Ghosts only: a living character rates every space as
    the base game's guidance does (here one step from the Desert: the nearer space of the Middle
    Region first)."""
    rated = []
    for base in (True, False):
        g = _souls_game(base)
        g.state.pstats[0].update(at=_space(g, 27))
        rated.append(_rates(g, [26, 28, 8, 41]))
    assert rated[0] == rated[1]
    assert len(set(rated[1])) == 4


def test_a_player_whose_character_was_killed_rates_every_space_alike():
    """A player whose character was killed this turn may still move a figure (a mod's Werewolf or
    Reaper) before his next turn deals him a new character: with no character he has no plan, so
    every space is rated 0 (left to chance), the Crown's too. Found by tools/mutate_rules.py:
    `count(hero of p) > 0` made `>= 0` in the Souls' `prefer` rated the Crown 1000."""
    g = _souls_game()
    hero = ZoneRef("hero", 0).key
    g.state.zones[hero] = []
    assert _rates(g, [8, 41, 49]) == [0, 0, 0]
