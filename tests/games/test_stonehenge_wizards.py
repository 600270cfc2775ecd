"""Stonehenge Wizards: components, setup by player count and whole games.

Rules that are about the box or the setup as a whole are checked here rather than in
scenarios (tests/scenarios/stonehenge_wizards/). Rule IDs refer to
../shared/rules/stonehenge_wizards.md.
"""
from __future__ import annotations

from typing import Any
from collections import Counter
from pathlib import Path

import pytest

from interpreter.play.agents import make_agent
from interpreter.api import load_program
from interpreter.engine.factory import new_game

RULESET = Path(__file__).resolve().parents[2] / "rulesets" / "stonehenge_wizards"


@pytest.fixture(scope="module")
def program():
    return load_program(RULESET)


def cards_of(program, kind):
    return [c for c in program.rs.cards if c.type == kind]


def set_up(program, players: int, seed: int = 1) -> Any:
    """A game just after setup: answer the setup questions (wizards, difficulty) with the first option."""
    g = new_game(program, players, seed)
    while g.decision is not None and g.state.round_number == 0:
        g.answer(0)
    assert g.error is None and g.decision is not None, g.error  # set up, and the first turn waits
    return g


def zone(g: Any, key: str):
    return [g.cards[i] for i in g.state.zones[key]]


def test_components(program):
    """SW-001 7 wizard sheets, SW-002 five tracks and a power, SW-003 a score track,
    SW-004 markers, SW-005 39 spells (19 I, 20 II), SW-006 39 challenges (19 I, 20 II),
    SW-007 8 Acolytes, SW-008 6 Sorcery dice, SW-048 their six faces, SW-009 1-4 players
    and SW-154 a fifth with extra markers."""
    rs = program.rs
    sheets = cards_of(program, "Wizard")
    assert len({c.name for c in sheets}) == 7  # SW-001
    assert sorted(Counter(c.name for c in sheets).values()) == [2] * 7  # sides A and B (SW-012)
    assert all({c.fields["side"] for c in sheets if c.name == n} == {"A", "B"} for n in {c.name for c in sheets})
    tracks = ["tome", "arcane", "gems", "mana", "skulls"]
    assert all(rs.stats[t].per_player for t in tracks)  # SW-002: a track for each resource...
    assert all(f"max_{t}" in [f.name for f in rs.card_types["Wizard"].fields_] for t in tracks)  # ...with its limit
    assert all(c.effect is not None or c.fields["spell_discount"] or c.fields["challenge_discount"]
               or c.fields["stores_arcane_after_buying"] for c in sheets)  # ...and a special power
    assert rs.stats["vp"].per_player  # SW-003: the score sheet
    # SW-004: a colour's 7 markers = 5 resource tracks + the score + one spare for 50/100
    assert len(tracks) + 1 + 1 == 7 and 4 * 7 == 28
    levels = Counter((c.type, c.fields.get("level")) for c in rs.cards)
    assert levels[("Spell", 1)] == 19 and levels[("Spell", 2)] == 20  # SW-005
    assert levels[("Challenge", 1)] == 19 and levels[("Challenge", 2)] == 20  # SW-006
    assert len(cards_of(program, "Acolyte")) == 8  # SW-007
    assert len(cards_of(program, "SorceryDie")) == 6  # SW-008
    assert rs.die_faces("SorceryDie") == ["Arcane", "Tome", "ArcaneTome", "Mana", "Gem", "Skull"]  # SW-048
    assert (rs.min_players, rs.max_players) == (1, 5)  # SW-009, SW-154


def test_every_card_has_its_own_effect(program):
    """SW-067 every card has a unique effect; SW-068 a challenge has an immediate or an
    end-of-game effect; SW-166 spells are shadow, enchantment or sorcery."""
    for kind in ("Spell", "Challenge"):
        cards = cards_of(program, kind)
        texts = [c.effect for c in cards]
        assert all(t is not None for t in texts)
        assert len({id(t) for t in texts}) == len(cards) == 39
    for c in cards_of(program, "Challenge"):
        events = {t.event for t in c.effect.triggers}
        assert events == ({"bought"} if c.fields["timing"] == "Immediate" else {"scoring"}), c.name
    assert {c.fields["school"] for c in cards_of(program, "Spell")} == {"Shadow", "Enchantment", "Sorcery"}


@pytest.mark.parametrize("players,dealt", [(2, 6), (3, 8), (4, 10), (5, 12)])
def test_decks_by_player_count(program, players, dealt):
    """SW-016 level II shuffled face down; SW-017 level I dealt by player count: SW-018 6 for
    two, SW-019 8 for three, SW-020 10 for four, SW-155 12 for five; SW-021 the rest go back
    in the box; SW-022 the dealt cards lie on the level II cards; SW-023 decks of 26/28/30
    (32 with five); SW-024 a display of 2 spells and 2 challenges; SW-025 7 Acolytes, face
    down; SW-026 the eighth goes back in the box."""
    g = set_up(program, players)
    display = zone(g, "display")
    assert Counter(c.type for c in display) == {"Spell": 2, "Challenge": 2}  # SW-024
    for deck, kind in (("spell_deck", "Spell"), ("challenge_deck", "Challenge")):
        cards = zone(g, deck)  # bottom first
        shown = [c for c in display if c.type == kind]
        assert len(cards) + len(shown) == dealt + 20  # SW-023
        levels = [c.fields["level"] for c in cards] + [1, 1]
        assert levels == [2] * 20 + [1] * dealt  # SW-022: all level I above all level II
        assert program.rs.zones[deck].visibility == "hidden"  # SW-016: face down
        boxed = [c for c in zone(g, "box") if c.type == kind]
        assert len(boxed) == 19 - dealt and all(c.fields["level"] == 1 for c in boxed)  # SW-017, SW-021
    assert len(zone(g, "acolyte_deck")) == 6 and len(zone(g, "acolyte")) == 1  # SW-025 (one is up)
    assert [c.type for c in zone(g, "box")].count("Acolyte") == 1  # SW-026


def test_level_two_order_depends_on_the_shuffle(program):
    """SW-016: the level II cards are shuffled."""
    orders = {tuple(c.name for c in zone(set_up(program, 2, seed), "spell_deck")[:20]) for seed in range(4)}
    assert len(orders) > 1


def test_level_one_cards_dealt_depend_on_the_shuffle(program):
    """SW-017: the Level I spells are shuffled before the deal, so which of them are dealt changes
    with the seed (found by tools/mutate_rules.py: `shuffle level_one` aimed at the spell deck passed)."""
    dealt = {frozenset(c.name for c in zone(set_up(program, 2, seed), "spell_deck")[20:]) for seed in range(4)}
    assert len(dealt) > 1


def test_first_start_player_is_random(program):
    """SW-027: "the last person who fed a pet" starts: here a random player."""
    assert {set_up(program, 4, seed).state.start_player for seed in range(12)} == {0, 1, 2, 3}


def test_solo_setup(program):
    """SW-106 cards with the icon are removed; SW-107 7 level I cards on each level II pile;
    SW-108 the other level I cards are not used; SW-109 7 Acolytes; SW-110 the first display."""
    g = set_up(program, 1)
    in_play = [g.cards[i] for key in ("spell_deck", "challenge_deck", "display") for i in g.state.zones[key]]
    assert not any(c.fields["multiplayer_only"] for c in in_play)  # SW-106
    assert any(c.fields["multiplayer_only"] for c in program.rs.cards if c.type in ("Spell", "Challenge"))
    for deck, kind in (("spell_deck", "Spell"), ("challenge_deck", "Challenge")):
        cards = zone(g, deck) + [c for c in zone(g, "display") if c.type == kind]
        level_two = [c for c in cards_of(program, kind) if c.fields["level"] == 2 and not c.fields["multiplayer_only"]]
        assert Counter(c.fields["level"] for c in cards) == {1: 7, 2: len(level_two)}  # SW-107
        assert [c.fields["level"] for c in zone(g, deck)][-5:] == [1] * 5  # 7 on top, 2 of them shown
        assert all(c in zone(g, "box") for c in cards_of(program, kind) if c not in cards)  # SW-108
    assert len(zone(g, "acolyte_deck")) + len(zone(g, "acolyte")) == 7  # SW-109
    assert Counter(c.type for c in zone(g, "display")) == {"Spell": 2, "Challenge": 2}  # SW-110


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_whole_games_last_seven_rounds(program, players):
    """SW-090 the game ends after the 7th round, when no Acolyte is left; SW-029 one turn
    each per round; SW-143 the solo game too; SW-117 the opposing wizard takes no turns;
    SW-126 a solo round is the player's one turn; SW-154 five players can play."""
    for seed in range(3):
        g = new_game(program, players, seed)
        agents = [make_agent("random", f"{seed}/{p}") for p in range(players)]
        while not g.over:
            g.answer(agents[g.decision.player].choose(g, g.decision))
        assert g.error is None, g.error
        assert g.result["rounds"] == 7 and g.result["turns"] == 7 * players
        assert not g.state.zones["acolyte_deck"]
        assert len(g.result["scores"]) == players + (1 if players == 1 else 0)


def test_what_lies_open_and_what_face_down(program):
    """What each seat sees: the display (SW-024), the turned-up Acolyte (SW-028), the dice passed
    from player to player (SW-039), the discard pile, the wizard sheets (and those not taken) and
    the spells in front of their owners (SW-074) lie open; the decks, the Acolyte deck and the
    box are face down (a seat sees only how many); a player's challenges lie face down (SW-069),
    seen by their owner alone. Found by tools/mutate_rules.py: `discard`, `wizard_box` and `dice`
    made hidden passed every test."""
    g = set_up(program, 2)
    for seat in (0, 1, None):  # g.view takes a seat index (player 1 is seat 0), None: an onlooker
        seen = g.view(seat)
        for key in ("display", "acolyte", "dice", "discard", "wizard_box", "sheet of player 1",
                    "sheet of player 2", "spells of player 1", "spells of player 2"):
            assert isinstance(seen[key], list), (seat, key)
        for key in ("spell_deck", "challenge_deck", "acolyte_deck", "box", "level_one"):
            assert isinstance(seen[key], int), (seat, key)
    assert len(g.view(0)["dice"]) == 6 and g.view(1)["sheet of player 1"]  # the cards, by name
    for owner, other in ((0, 1), (1, 0)):
        key = f"challenges of player {owner + 1}"
        assert isinstance(g.view(owner)[key], list) and isinstance(g.view(other)[key], int), key
