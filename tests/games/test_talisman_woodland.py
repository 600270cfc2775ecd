"""The Woodland (rulesets/talisman_woodland, TA-419..TA-454): a Region mod that compiles to direct
code, stacks with the other Regions in any order, is played to the end by bots, and has each of
its rules cited by a scenario of tests/scenarios/talisman_woodland/ or listed in its NOTES.md."""
from __future__ import annotations

import functools
from pathlib import Path

from rulekit import cited_rules, not_modelled_rules

from interpreter.api import check_path, load_program
from interpreter.engine.factory import new_game
from interpreter.runtime.values import ZoneRef
from interpreter.sim.simulate import simulate

ROOT = Path(__file__).resolve().parents[2]
BASE = f"{ROOT}/rulesets/talisman --with "
IN_SCOPE = {f"TA-{i:03d}" for i in range(419, 455)}
BASE_RULES_PITTED = {"TA-067"}   # base rules a Woodland scenario pits the Woodland's text against


def mods(*names: str) -> str:
    return ",".join(f"{ROOT}/rulesets/talisman_{n}" for n in names)


def cited() -> set[str]:
    return cited_rules(ROOT / "tests" / "scenarios" / "talisman_woodland")


def test_every_woodland_rule_is_cited_or_said_not_modelled():
    skipped = not_modelled_rules(ROOT / "rulesets" / "talisman_woodland" / "NOTES.md", "TA")
    missing = sorted(IN_SCOPE - cited() - set(skipped))
    assert missing == [], f"rules no scenario covers and no NOTES.md lists: {missing}"
    assert sorted(set(skipped) & cited()) == []


def test_citations_are_woodland_rules_or_the_base_rule_it_overrides():
    """A typo or another expansion's rule would inflate the count; the one base rule cited is the
    one the Woodland's dark fate overrides (TA-067: no reroll of another's die)."""
    assert sorted(cited() - IN_SCOPE) == sorted(BASE_RULES_PITTED)


def test_the_count_of_cited_rules():
    """The number the issue reports: all 36 Woodland rules are cited by scenarios."""
    assert len(cited() & IN_SCOPE) == 36


def test_the_woodland_stacks_with_the_other_regions_in_any_order():
    """`after` in its header fixes the order: any `--with` order is one game, with no conflict."""
    a, content = check_path(BASE + mods("regions", "highland", "dungeon", "woodland"))
    b, _ = check_path(BASE + mods("woodland", "dungeon", "highland", "regions"))
    assert [d for d in content.diagnostics if d.severity == "error"] == []
    assert [c.name for c in a.cards] == [c.name for c in b.cards]
    assert {"Meeting with Destiny", "Eyrie", "Treasure Chamber"} <= {c.name for c in a.cards}


def test_the_woodland_alone_validates_clean():
    """`grimoire validate rulesets/talisman_woodland`: its `extends` chain brings the base."""
    _, content = check_path(ROOT / "rulesets" / "talisman_woodland")
    assert [d for d in content.diagnostics if d.severity == "error"] == []


def test_bots_play_the_woodland_on_direct_code_to_the_end():
    """One game on the generated code, by the guided bots: their `prefer` rules are evaluated at
    every decision (the dark fate split too)."""
    report = simulate(BASE + mods("woodland"), 1, 3, 7, ["guided"], per_game=True, card_stats=False)
    assert report["errors"] == [] and report["completed"] == 1



@functools.lru_cache(maxsize=None)
def woodland() -> object:
    return load_program(BASE + mods("woodland"))


def set_up(seed: int):
    """A game of three with the Woodland, its setup done (each starting fate placed light side up)."""
    g = new_game(woodland(), 3, seed, seats=[])
    while g.decision is not None and g.decision.prompt.startswith("How many of your fate are dark"):
        g.answer(0)                                      # setup: each starting fate's side (TA-420)
    return g


def names(g, zone: str) -> list[str]:
    return [g.cards[i].name for i in g.state.zones[ZoneRef(zone, None).key]]


def test_the_path_and_destiny_decks_lie_face_down():
    """Only the three Paths beside the Entrance are faceup ("draw three Path cards and place them
    faceup next to the Woodland Entrance"), and a Destiny is drawn unseen: every seat sees how many
    cards are left in the Path deck and the Destiny deck, not which. `hidden` made `public` is a
    mutant no scenario can catch (a scenario cannot state what a seat sees)."""
    g = set_up(0)
    paths, destinies = len(names(g, "path_deck")), len(names(g, "destiny_deck"))
    assert (paths, destinies) == (3, 4)
    for seat in (0, 1, None):
        seen = g.view(seat)
        assert isinstance(seen["path_deck"], int) and seen["path_deck"] == paths, seat
        assert isinstance(seen["destiny_deck"], int) and seen["destiny_deck"] == destinies, seat
        assert len(seen["path_market"]) == 3, seat


def test_the_path_and_destiny_decks_are_shuffled_at_setup():
    """The three faceup Paths are drawn from a shuffled Path deck (TA-419), and Destinies from a
    shuffled Destiny deck: over five seeds neither the faceup Paths nor the Destiny deck's order is
    always the cards' file order. A scenario plays one seed, so it cannot tell a deck left unshuffled."""
    markets, orders = set(), set()
    for seed in range(5):
        g = set_up(seed)
        markets.add(frozenset(names(g, "path_market")))
        orders.add(tuple(names(g, "destiny_deck")))
        assert len(names(g, "path_market")) == 3 and len(names(g, "destiny_deck")) == 4
    assert len(markets) > 1 and len(orders) > 1
