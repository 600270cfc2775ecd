"""Talisman: components and setup checked over several seeds and player counts (rules a single
scenario states poorly). The rule IDs are those of /work/shared/rules/talisman.md."""
from __future__ import annotations

from typing import Any
from collections import Counter
from pathlib import Path

import pytest

from interpreter.api import load_program
from interpreter.engine.views import board_graph
from interpreter.engine.factory import new_game

ROOT = Path(__file__).resolve().parents[2]
TALISMAN = ROOT / "rulesets" / "talisman"


@pytest.fixture(scope="module")
def program():
    return load_program(TALISMAN)


def _names(g: Any, zone: str) -> list[str]:
    return [g.cards[c].name for c in g.state.zones[zone]]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_two_to_six_players(program, players):
    """TA-004: a game has at most six players (the ruleset plays from two); TA-016: at each count
    every player is dealt one character card, and the start player is asked to act (nothing in
    setup failed)."""
    g = new_game(program, players, 0, seats=[])
    assert g.error is None and not g.over, g.error
    assert [len(g.state.zones[f"hero#{p}"]) for p in range(players)] == [1] * players
    assert len({g.state.zones[f"hero#{p}"][0] for p in range(players)}) == players  # different characters
    assert g.decision is not None and g.decision.player == g.state.active


@pytest.mark.parametrize("players", [1, 7])
def test_other_player_counts_are_refused(program, players):
    """TA-004: a game has at most six players (and at least two)."""
    with pytest.raises(ValueError, match="2 to 6 players"):
        new_game(program, players, 0, seats=[])


def test_board_has_three_regions(program):
    """TA-005: the board's three Regions — Outer (24 spaces), Middle (16) and Inner (9)."""
    g = new_game(program, 2, 0, seats=[])
    regions = Counter(board_graph(g).region.values())
    assert regions == {"outer": 24, "middle": 16, "inner": 9}


@pytest.mark.parametrize("seat", [0, 1, None])
def test_the_board_lies_open_on_the_table(program, seat):
    """TA-005: the board and its 49 spaces lie on the table, open to every seat (zone `land`,
    public): each seat's view lists every space, the City first and the Crown of Command last
    (found by tools/mutate_rules.py: dropping setup's `move all_cards() where it is BoardSpace to
    land` left the spaces outside every zone, where no seat sees them, and passed every test)."""
    g = new_game(program, 2, 0, seats=[])
    seen = [c.split(" (")[0] for c in g.view(seat)["land"]]
    assert len(seen) == 49 and seen[0] == "City" and seen[-1] == "Crown of Command"


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_decks_at_setup(program, seed):
    """TA-006, TA-022, TA-023, TA-024: the Adventure deck holds the creatures, Events and items
    (every Adventure card not in a character's hands), shuffled; the Spell deck is shuffled; the
    Purchase and Talisman cards are set beside the board, apart from the Adventure deck."""
    g = new_game(program, 2, seed, seats=[])
    deck = [g.cards[c] for c in g.state.zones["adventure_deck"]]
    kinds = Counter(c.fields["kind"] for c in deck)
    assert len(deck) == 104 and kinds["Enemy"] > 0 and kinds["EventCard"] == 13
    assert all(c.fields["home"] == "Adventures" for c in deck)
    assert _names(g, "talisman_deck") and all(n == "Talisman" for n in _names(g, "talisman_deck"))
    assert {"Helmet", "Sword", "Raft"} <= set(_names(g, "purchase_deck"))
    other = new_game(program, 2, seed + 10, seats=[])
    assert _names(g, "adventure_deck") != _names(other, "adventure_deck")   # shuffled
    assert _names(g, "spell_deck") != _names(other, "spell_deck")


@pytest.mark.parametrize("players", [2, 3, 6])
def test_first_player_is_the_highest_roller(program, players):
    """TA-034: every player rolls a die; the highest roll goes first, and only the players tied
    for highest roll again."""
    for seed in range(8):
        g = new_game(program, players, seed, seats=[])
        rolls = [line.strip("[]").split(", ") for line in g.log if "for the first turn" in line]
        rollers, i = [f"player {n}" for n in range(1, players + 1)], 0
        while len(rollers) > 1:
            round_ = rolls[i:i + len(rollers)]
            assert [r[0] for r in round_] == rollers
            best = max(int(r[2]) for r in round_)
            rollers, i = [r[0] for r in round_ if int(r[2]) == best], i + len(rollers)
        assert i == len(rolls)
        assert f"player {g.state.active + 1}" == rollers[0]


def test_starting_objects_come_from_the_purchase_deck():
    """TA-032 "Any player whose character starts the game with any Objects, as detailed in the
    character's special abilities, now takes the designated Object Cards from the Purchase deck."
    No base character starts with an Object (the Hero field `kit` is empty), so the rule is shown
    with a variant giving every character a Sword: each takes one from the Purchase deck while
    one is left (it holds two), and a character given none keeps empty hands."""
    from interpreter.play.variants import load_variant
    heroes = {c.name for c in load_program(TALISMAN).rs.cards if c.type == "Hero"}
    armed = load_variant(str(TALISMAN), tuple((f"{h}.kit", "Sword") for h in sorted(heroes)))
    for players in (2, 3):
        g = new_game(armed, players, 4, seats=[])
        held = [[g.cards[c].name for c in g.state.zones[f"objects#{p}"]] for p in range(players)]
        assert sorted(map(tuple, held)) == sorted([("Sword",)] * 2 + [()] * (players - 2))
        assert "Sword" not in _names(g, "purchase_deck")
    plain = new_game(load_program(TALISMAN), 3, 4, seats=[])
    assert all(plain.state.zones[f"objects#{p}"] == [] for p in range(3))
    assert _names(plain, "purchase_deck").count("Sword") == 2


def test_the_round_cap_ends_the_game_after_round_150(program):
    """The round cap (game.rules `max_rounds`: a safety cap for simulations, not a rule of the
    rulebook; docs/simulation.md measures how rarely guided bots reach it) ends a game that is
    still going once its 150th round is over: round 150 is played, round 151 is not (found by
    tools/mutate_rules.py: `max_rounds = 150` made 149 passed every test). The game is put at
    the end of round 149, then played on by random seats. The log says so, and each character
    scores Strength + Craft + lives (game.rules `score`: the cap's winner; none is on the Crown)."""
    from interpreter.play.agents import RandomAgent
    from interpreter.play.scenario import _check_values  # a scenario's `values:`
    g = new_game(program, 2, 1, seats=[])
    seats = [RandomAgent(f"cap/{i}") for i in range(2)]
    assert g.state.round_number == 1 and not g.over
    g.state.round_number = 149
    while not g.over and g.state.round_number == 149:
        g.answer(seats[g.decision.player].choose(g, g.decision))
    assert not g.over and g.state.round_number == 150  # round 150 is played
    while not g.over:
        g.answer(seats[g.decision.player].choose(g, g.decision))
    assert g.error is None and g.result["reason"] == "turn cap", g.result
    assert g.state.round_number == 151
    assert any("turn cap reached" in str(line) for line in g.log)
    assert _check_values(g, {f"player {i + 1}: strength(you) + craft(you) + lives of you "
                                f"if out of you == 0 and count(hero of you) > 0 else 0": score
                             for i, score in enumerate(g.result["scores"])}) == []
    assert sum(g.result["scores"]) > 0
