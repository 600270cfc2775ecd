"""Enchanters' EastQuest expansion as a mod (rulesets/enchanters_eastquest): its rules are asserted
by the scenarios in tests/scenarios/enchanters_eastquest/; these tests check its decks as
components, that it stacks with the Overlords mods in any order, and that bots play it to the end,
the solo game against the Automa included (the stack with Odyssey and the Kingdom decks:
tests/games/test_enchanters_stack.py)."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from interpreter.api import check_path, load_program
from interpreter.engine.factory import new_game
from interpreter.sim.simulate import simulate

ROOT = Path(__file__).resolve().parents[2] / "rulesets"
BASE = ROOT / "enchanters"
EAST, ODYSSEY, OVERLORDS = ROOT / "enchanters_eastquest", ROOT / "enchanters_odyssey", ROOT / "enchanters_overlords"
WOUNDS = ROOT / "enchanters_wounds"
NEW = ["Geishas", "Monks", "Nagas", "Ninjas", "Pirates", "Samurai"]


def _stack(*mods: Path) -> str:
    return f"{BASE} --with {','.join(str(m) for m in mods)}"


def _cards(*mods: Path):
    return load_program(_stack(*mods)).rs.cards


def _kingdom(card) -> str:
    return str(card.fields.get("kingdom"))


def test_six_new_kingdoms_each_with_a_two_player_half():
    """Six new Kingdom decks, each with "2"-marked cards for the 2-player game (as every deck)."""
    cards = [c for c in _cards(EAST) if _kingdom(c) in NEW]
    assert set(Counter(_kingdom(c) for c in cards)) == set(NEW)
    halves = Counter(_kingdom(c) for c in cards if c.fields.get("two"))
    assert all(7 <= halves[k] for k in NEW), halves


def test_enough_quests_mythics_and_automa_cards():
    """Four Quests are laid out, one Mythic per player (up to 4); the Automa deck has 12 cards
    (the guide's count), covering every track spot."""
    cards = _cards(EAST)
    assert sum(1 for c in cards if c.type == "Quest") >= 4
    assert sum(1 for c in cards if _kingdom(c) == "Mythic") >= 4
    automa = [c for c in cards if c.type == "Automa"]
    assert len(automa) == 12 and {c.fields["spot"] for c in automa} == set(range(1, 7))


def test_eastquest_stacks_with_the_overlords_mods_in_any_order():
    """`after` in EastQuest's header loads the Overlords mods first whatever order `--with` names."""
    want = [c.label() for c in _cards(OVERLORDS, WOUNDS, EAST)]
    assert [c.label() for c in _cards(EAST, WOUNDS, OVERLORDS)] == want
    for mods in [(EAST,), (OVERLORDS, EAST), (OVERLORDS, WOUNDS, EAST)]:
        _, content = check_path(_stack(*mods))
        assert [d for d in content.diagnostics if d.severity == "error"] == []


@pytest.mark.parametrize("mods", [(EAST,), (OVERLORDS, EAST), (OVERLORDS, WOUNDS, EAST)],
                         ids=["eastquest", "overlords+eastquest", "overlords+wounds+eastquest"])
@pytest.mark.parametrize("players", [1, 2, 4])
def test_bots_play_eastquest_to_the_end(mods, players):
    """Random bots finish every game of each stack without a rule error, solo included."""
    report = simulate(_stack(*mods), 3, players, 5, ["random"], per_game=True, card_stats=False)
    assert report["errors"] == [] and report["completed"] == 3


def test_the_solo_game_has_the_automa_seat():
    """EN-300: alone, the player faces the Automa, a seat that takes no turns (player 2)."""
    report = simulate(_stack(EAST), 2, 1, 3, ["random"], per_game=True, card_stats=False)
    assert report["errors"] == [] and report["completed"] == 2
    assert all(len(g["scores"]) == 2 and g["scores"][1] == 99 for g in report["per_game"]), report["per_game"]


def test_what_lies_open_and_what_face_down():
    """EN-285, EN-291: the Quests are laid out face up, and a claimed Quest is kept "fully visible";
    the Quest deck they are drawn from is random, so face down. EN-296, EN-297: the Mythic cards
    drawn are shown to all, then shuffled together under the Adventure Deck: the Mythic deck and
    their pile are face down. EN-303, EN-304, EN-306: the Automa deck is drawn at random (face
    down); the top Automa card, whose ability every player may use, lies open, as the Market
    pile the players buy from. The track's cards lifted while the stationary Monsters keep their
    spots are out of sight only within a refill. Every seat (and a spectator) sees how many cards a
    face-down zone holds, not which. Found by tools/mutate_rules.py: each zone's visibility
    changed, passed every test."""
    g = new_game(load_program(_stack(EAST)), 2, 1)
    for answer in ["Standard", "Bandits", "Cultists", "Gnolls", "Goblins", "With the Automa"]:
        g.answer(g.decision.labels.index(answer))
    assert g.error is None and g.state.turn_number > 0
    for seat in (None, 0, 1):
        seen = g.view(seat)
        assert [seen[z] for z in ["quest_deck", "mythic_deck", "mythic_pile", "automa_deck", "lifted"]] == [4, 4, 0, 11, 0], seat
        for zone in ["quests", "claimed of player 1", "claimed of player 2", "mythic_shown", "automa_discard", "market"]:
            assert isinstance(seen[zone], list), (seat, zone)
        assert (len(seen["quests"]), len(seen["automa_discard"]), len(seen["market"])) == (4, 1, 1), seat
