"""The Harbinger expansion's setup over several seeds (what one scenario cannot show: the die rolled
for the Omen set is rolled again on 5 and 6). The rule IDs are those of
/work/shared/rules/talisman.md (TA-617..TA-619)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from interpreter.api import load_program
from interpreter.engine.factory import new_game

ROOT = Path(__file__).resolve().parents[2]
STACK = f"{ROOT / 'rulesets' / 'talisman'} --with {ROOT / 'rulesets' / 'talisman_harbinger'}"


@pytest.fixture(scope="module")
def games():
    program = load_program(STACK)
    return [new_game(program, 2, seed) for seed in range(12)]


def test_the_omen_set_is_one_of_four_and_the_die_is_rolled_again_on_five_and_six(games):
    """TA-618: one of the four stacks by a die, 1-4 left to right, 5 and 6 rolled again: over twelve
    seeds every set rolled is 1..4 and each of the four comes up (a die read as it falls would give
    5 or 6 about one time in three; a range of the set's stat cut short would never give 4). The
    log names the set rolled."""
    sets = [g.state.stats["omen_set"] for g in games]
    assert all(g.error is None for g in games)
    assert set(sets) == {1, 2, 3, 4}, sets
    for g, n in zip(games, sets):
        assert f"[the Omen set is, {n}]" in g.log, g.log[-6:]


def test_the_stack_is_the_prophecy_then_the_first_to_the_seventh_omen(games):
    """TA-619: the eight cards of the chosen set, faceup, the Prophecy on top and the 7th Omen at the
    bottom; the other three sets are out of the game. TA-617: the Harbinger starts on his sheet
    (no space)."""
    for g in games:
        stack = [g.cards[c] for c in g.state.zones["omen_stack"]]
        assert [c.fields["set_no"] for c in stack] == [g.state.stats["omen_set"]] * 8
        top_first = [c.fields["order"] for c in reversed(stack)]   # a pile's top is its last card
        assert top_first == list(range(8)), top_first
        assert g.state.stats["harbinger_at"] is None
        assert sum(1 for c in g.state.zones["box"] if g.cards[c].type == "Omen") == 24


def test_the_omens_lie_faceup_and_the_harbinger_and_terrain_decks_facedown(games):
    """TA-619, TA-628: the Omen stack is "a faceup stack" and a discarded Omen goes "faceup on top of
    the Omen discard pile": every seat sees which Omens they are. The Harbinger and Terrain decks are
    drawn from the top after a shuffle (TA-642: "shuffles the Terrain deck, draws the top card"):
    every seat sees how many cards are left, not which. `hidden` made `public`, or `public` made
    `hidden`, is a mutant no scenario can catch (a scenario cannot state what a seat sees)."""
    g = games[0]
    for seat in (0, 1, None):
        seen = g.view(seat)
        assert (seen["harbinger_deck"], seen["terrain_deck"]) == (11, 6), seat
        assert isinstance(seen["omen_stack"], list) and len(seen["omen_stack"]) == 8, seat
        assert seen["omen_discard"] == [], seat


def test_the_harbinger_and_terrain_decks_are_shuffled(games):
    """TA-642: the Terrain deck is shuffled and drawn from the top; the Harbinger deck likewise
    (TA-621): over twelve seeds each deck holds all its cards (11 Harbinger cards, 6 Terrain cards)
    in more than one order, and none of them is elsewhere."""
    for deck, n in (("harbinger_deck", 11), ("terrain_deck", 6)):
        orders = {tuple(g.cards[c].name for c in g.state.zones[deck]) for g in games}
        assert all(len(o) == n for o in orders), (deck, orders)
        assert len(orders) > 1, deck


def test_the_omen_set_is_a_fresh_roll(games):
    """TA-618: "roll a die" for the set: not the face a die was left on by an earlier roll (the base's
    Ending roll, logged "(rolled, N, )", the last roll before the expansion's setup): over twelve
    seeds some game's set differs from a 1-4 that roll left."""
    differ = 0
    for g in games:
        ending = [line for line in g.log if line.startswith("[the Ending is")]
        left = int(re.search(r"rolled, (\d+),", ending[-1]).group(1))
        differ += left <= 4 and left != g.state.stats["omen_set"]
    assert differ > 0
