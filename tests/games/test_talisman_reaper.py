"""The Reaper (rulesets/talisman_reaper): what its scenarios cannot state, what each seat sees.
Its rules' citations: tests/games/test_talisman_figures_coverage.py; its generated code:
tests/games/test_talisman_mods_direct.py; its scenarios: tests/play/test_scenarios.py."""
from __future__ import annotations

from pathlib import Path

from rulekit import scenario_log

from interpreter.api import load_program
from interpreter.engine.factory import new_game
from interpreter.runtime.values import ZoneRef

ROOT = Path(__file__).resolve().parents[2]


def test_the_genies_spells_are_seen_by_no_one():
    """FAQ (TA-522): "Q3: Can the Prophetess look at the Genie's Spells? A: No." The Genie's Spells
    lie apart, face down (genie_and_guardians.rules: no one looks at them, the Prophetess neither):
    every seat sees how many he has left, not which; his holder learns one as it is offered to him.
    `hidden` made `public` on genie_and_guardians.rules:13 is a mutant no scenario can catch (a
    scenario cannot state what a seat sees)."""
    g = new_game(load_program(ROOT / "rulesets" / "talisman_reaper"), 3, 0, seats=[])
    deck = g.state.zones[ZoneRef("spell_deck", None).key]
    genie = g.state.zones[ZoneRef("genie_spells", None).key]
    genie.extend(deck[:3])                                    # as genie_draw() leaves them
    del deck[:3]
    for seat in (0, 1, 2, None):
        seen = g.view(seat)
        assert isinstance(seen["genie_spells"], int) and seen["genie_spells"] == 3, seat


def logged(monkeypatch, name: str) -> list[str]:
    """The game's log at the final check of the Reaper's scenario `name`, which must pass: what a
    scenario's `log:` cannot state, that a line was not logged."""
    return scenario_log(monkeypatch, ROOT / "tests" / "scenarios" / "talisman_reaper" / name)


def test_an_attack_roll_is_lowered_only_with_the_haunt_or_the_jester(monkeypatch):
    """TA-529 (assumed texts: the Haunt and the Jester, Followers, each -1 to his attack rolls):
    with both, `haunt_and_jester_lower_the_roll_by_two.yaml` logs the roll lowered by 2; without
    either, `warhorse_lost_with_a_life.yaml` fights the Wolf and no roll is lowered. Its final state
    cannot tell a roll lowered by 0 from one left alone (found by tools/mutate_rules.py: the
    penalty's `> 0` made `>= 0` on game.rules:244 only logged "attack roll lowered by 0")."""
    both = [line for line in logged(monkeypatch, "haunt_and_jester_lower_the_roll_by_two.yaml")
            if "attack roll lowered by" in line]
    assert len(both) == 1 and "lowered by, 2," in both[0], both
    lines = logged(monkeypatch, "warhorse_lost_with_a_life.yaml")
    assert [line for line in lines if "attack roll" in line], lines    # a fight was fought
    assert not [line for line in lines if "attack roll lowered" in line], lines


def test_the_prophesy_draws_nothing_from_empty_decks(monkeypatch):
    """TA-532: with the Prophesy in effect a "Draw 1 Card" space that holds a card still gives
    another, but with no Adventure Card left in the deck or the discard pile there is none:
    `prophesy_with_no_card_left.yaml` logs no Prophesy draw. Its final state cannot tell a draw from
    empty decks from none (found by tools/mutate_rules.py: the Prophesy's `deck_left(s) > 0` made
    `>= 0` on game.rules:200 only logged a draw of nothing)."""
    drew = logged(monkeypatch, "prophesy_draws_another.yaml")
    assert [line for line in drew if "draws another card: the Prophesy" in line], drew
    lines = logged(monkeypatch, "prophesy_with_no_card_left.yaml")
    assert not [line for line in lines if "the Prophesy" in line], lines
