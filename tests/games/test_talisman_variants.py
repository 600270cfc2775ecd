"""Talisman's `rulebook_cards` variant: the cards authored to test rules the base game's deck
never exercises (combat_and_items.yaml: home Sidelined, Spells `aside`) are shuffled into the
decks at setup, so those rules are reachable in play (`--set rulebook_cards=1`). The default
game keeps them out of every deck, as the facts give the deck."""
from __future__ import annotations

from typing import Any
from pathlib import Path

import pytest

from interpreter.play.agents import RandomAgent
from interpreter.api import load_program
from interpreter.runtime.values import ZoneRef
from interpreter.play.variants import load_variant
from interpreter.engine.factory import new_game

ROOT = Path(__file__).resolve().parents[2]
RULESET = ROOT / "rulesets" / "talisman"
AUTHORED_ADVENTURES = {"Lucky Charm", "Silver Locket", "Cursed Mirror", "Cursed Idol", "Cave Troll",
                       "Succubus", "Eagle King", "Ambush"}
AUTHORED_SPELLS = {"Summon Stormcrow"}


def names(g: Any, zone: str, owner: int | None = None) -> list[str]:
    return [g.cards[i].name for i in g.state.zones[ZoneRef(zone, owner).key]]


def authored(program) -> list:
    return [c for c in program.rs.cards if c.fields.get("home") == "Sidelined" or c.fields.get("aside")]


def test_authored_cards_are_the_expected_ones():
    """The variant moves exactly the authored cards; if one is added, this list must say so."""
    program = load_program(RULESET)
    assert {c.name for c in authored(program)} == AUTHORED_ADVENTURES | AUTHORED_SPELLS


@pytest.mark.parametrize("players", [2, 6])
def test_default_game_keeps_them_out_of_the_decks(players):
    program = load_program(RULESET)
    g = new_game(program, players, 3, seats=[])
    deck, spells = set(names(g, "adventure_deck")), set(names(g, "spell_deck"))
    assert not deck & AUTHORED_ADVENTURES and not spells & AUTHORED_SPELLS
    assert len(names(g, "aside")) == len(authored(program))


@pytest.mark.parametrize("players", [2, 6])
def test_variant_shuffles_them_into_the_decks(players):
    program = load_variant(str(RULESET), (("rulebook_cards", 1),))
    g = new_game(program, players, 3, seats=[])
    assert names(g, "aside") == []
    deck = names(g, "adventure_deck")
    n_adventures = sum(1 for c in authored(program) if c.type == "Adventure")
    assert sum(n in AUTHORED_ADVENTURES for n in deck) == n_adventures
    held = names(g, "spell_deck") + [n for p in range(players) for n in names(g, "spells", p)]
    assert sum(n in AUTHORED_SPELLS for n in held) == len(authored(program)) - n_adventures
    # shuffled in, not put on top or bottom: the authored cards are not one block in the deck
    spots = [i for i, n in enumerate(deck) if n in AUTHORED_ADVENTURES]
    assert spots[-1] - spots[0] + 1 > len(spots)
    base = load_program(RULESET)
    assert len(deck) == len(names(new_game(base, players, 3, seats=[]), "adventure_deck")) + n_adventures


def test_variant_cards_are_drawn_and_discarded_like_the_others():
    """In random play with the variant an authored card is drawn, and once discarded it goes to
    the Adventure discard pile (to be drawn again), never back aside."""
    program = load_variant(str(RULESET), (("rulebook_cards", 1),))
    seen_in_discard = set()
    for seed in range(4):
        g = new_game(program, 2, seed, seats=[])
        agents = [RandomAgent((seed, p)) for p in range(2)]
        while not g.over:
            assert names(g, "aside") == []
            seen_in_discard |= set(names(g, "adventure_discard")) & AUTHORED_ADVENTURES
            d = g.decision
            g.answer(agents[d.player].choose(g, d))
        assert g.error is None, g.error
        if len(seen_in_discard) >= 2:
            break
    assert len(seen_in_discard) >= 2, seen_in_discard


def test_starting_spells_are_hidden_from_the_others():
    """TA-031 a character's starting Spells are drawn from the Spell deck and kept hidden: their
    holder sees the cards, every other player only how many there are (audit: the scenario
    setup_characters cannot state what players see; a mutant making the zone public survived)."""
    program = load_program(RULESET)
    g = new_game(program, 6, 0, seats=[])
    holder = next(p for p in range(6) if names(g, "spells", p))
    other = (holder + 1) % 6
    key = str(ZoneRef("spells", holder))
    held = names(g, "spells", holder)
    assert g.view(other)[key] == len(held)
    assert isinstance(g.view(holder)[key], list) and len(g.view(holder)[key]) == len(held)


def test_race_ending_is_opt_in():
    """Issue 24: the assumed Ending "Race to the Crown" (the first to reach the Crown wins) decided
    about a quarter of games though the rulebook names no base Ending but the Command Spell
    (TA-001). By default it stays in the box; `--set race_ending=1` deals it like the others."""
    base = load_program(RULESET)
    variant = load_variant(str(RULESET), (("race_ending", 1),))
    dealt = 0
    for seed in range(24):
        assert "Race to the Crown" in names(new_game(base, 2, seed, seats=[]), "box")
        g = new_game(variant, 2, seed, seats=[])
        if "Race to the Crown" not in names(g, "box"):
            dealt += 1
    assert 0 < dealt < 24


def test_the_ending_not_drawn_stays_facedown_in_the_ending_deck():
    """TA-020, TA-021: "remove the unused Hidden or Revealed Ending cards from the Ending deck and
    shuffle the deck. Draw one Ending card and place it on the Crown of Command space. Facedown if
    Hidden". With `race_ending` a Hidden roll leaves two Hidden cards; the one not drawn stays in
    the Ending deck for the whole game, and every seat sees only that the deck holds one card: were
    it open, the Hidden Ending on the Crown would be known by elimination (found by
    tools/mutate_rules.py: `hidden` made `public` on setup_and_turn.rules:8 passed every test)."""
    variant = load_variant(str(RULESET), (("race_ending", 1),))
    g = new_game(variant, 2, 3, seats=[])  # seed 3: a Hidden roll (m_ending_deck_shuffled_rest_kept.yaml)
    assert names(g, "ending_deck") == ["Command Spell"]
    for seat in (0, 1, None):
        assert g.view(seat)["ending_deck"] == 1, seat


@pytest.mark.parametrize("players,dealt", [(2, 3), (4, 3), (6, 2)])
def test_deal_three_characters_pick_one(players, dealt):
    """TA-017 the optional setup (`--set deal_three=1`): each player is dealt three character cards
    (two each at five or six players: 14 cards go round), picks one, and the others go back among
    the unused characters for later. By default each player draws one at random, unasked."""
    base = new_game(load_program(RULESET), players, 5, seats=[])
    assert "character will you play" not in (base.decision.prompt if base.decision else "")
    g = new_game(load_variant(str(RULESET), (("deal_three", 1),)), players, 5, seats=[])
    rejected = []
    for p in range(players):
        d = g.decision
        assert d.player == p and d.prompt == "Which character will you play?"
        assert len(d.options) == dealt
        offered = names(g, "dealt", p)
        g.answer(len(d.options) - 1)
        (hero,) = names(g, "hero", p)
        assert hero in offered
        rejected += [n for n in offered if n != hero]
        assert names(g, "dealt", p) == []
    pool = names(g, "heroes")
    assert len(pool) == 14 - players and set(rejected) <= set(pool)


def test_dealt_characters_are_seen_by_their_player_only():
    """TA-016, TA-017: "One player takes the character cards, shuffles them, and deals one,
    facedown, to each player"; with the alternative rule each is dealt three to choose from, so
    while he picks, he sees his three and every other seat only how many (found by
    tools/mutate_rules.py: the visibility of `dealt`, variants.rules:28, changed, passed every
    test)."""
    g = new_game(load_variant(str(RULESET), (("deal_three", 1),)), 3, 5, seats=[])
    key = str(ZoneRef("dealt", 0))
    mine = names(g, "dealt", 0)
    assert len(mine) == 3 and g.decision.player == 0
    seen = g.view(0)[key]
    assert isinstance(seen, list) and sorted(c.split(" (")[0] for c in seen) == sorted(mine)
    for seat in (1, 2, None):
        assert g.view(seat)[key] == 3, seat


def test_the_decks_lie_face_down_and_the_discards_and_possessions_open():
    """TA-016, TA-022 and TA-023: the character cards not dealt, the Adventure deck and the Spell
    deck lie facedown, and so does the deck of Quest Reward cards, whose top card a character draws
    (TA-288: "he either draws the top Quest Reward card or takes a Talisman"; TA-290: the card drawn
    is put faceup), so every seat sees only how many cards they hold (found by
    tools/mutate_rules.py: `hidden` made `public` on game.rules:96, :98, :100 and :110 passed every
    test); the discard piles and what a character owns (his character card, Objects, Followers,
    trophies) lie open: every seat sees the cards. (TA-024's Talisman and Purchase cards are open
    here: every Talisman card is alike, and a Purchase card is bought by name.)"""
    program = load_program(RULESET)
    g = new_game(program, 3, 0, seats=[])
    for seat in (0, 1, None):
        seen = g.view(seat)
        for zone in ("heroes", "adventure_deck", "spell_deck", "boon_deck"):
            assert isinstance(seen[zone], int) and seen[zone] == len(names(g, zone)) > 0, (seat, zone)
        for zone in ("adventure_discard", "spell_discard", "hero of player 1", "objects of player 1",
                     "followers of player 1", "trophies of player 1"):
            assert isinstance(seen[zone], list), (seat, zone)
    assert [c for c in g.view(1)["hero of player 1"]]  # player 1's character, seen by player 2 by name
