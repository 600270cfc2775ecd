"""Enchanters' Coop mode as a mod (rulesets/enchanters_coop, on the Overlords rules). The rules are
asserted by the scenarios in tests/scenarios/enchanters_coop/; these tests check the Wanted list as
components, that the mod stacks with the other expansions, and that a few games play to a natural
end (a team win or a team loss, never a cap)."""
from __future__ import annotations

from typing import Any
from pathlib import Path

import pytest

from interpreter.api import check_path, load_program
from interpreter.sim.simulate import simulate
from interpreter.engine.factory import new_game

ROOT = Path(__file__).resolve().parents[2] / "rulesets"
BASE, COOP, OVERLORDS = ROOT / "enchanters", ROOT / "enchanters_coop", ROOT / "enchanters_overlords"
COOP_ONLY = {"Ryma, the Titan She-Boar", "Whimper, the Underlord", "The Grey Council", "Cerberus"}
ENDINGS = {"the Overlord is slain", "the Wound Threshold is reached", "the Journey Deck is spent"}


def _stack(*mods: Path) -> str:
    return f"{BASE} --with {','.join(str(m) for m in mods)}"


def _wanted():
    return [c for c in load_program(_stack(COOP)).rs.cards if c.type == "WantedOverlord"]


def test_the_four_coop_overlords_are_the_toughest():
    """EN-391, EN-393: four Overlords are made for Coop mode only (Ryma, Whimper, the Grey Council,
    Cerberus) and meant as the very tough challenge: each strikes harder and stands more than any
    overlay Overlord (the authored values, cards/enchanters_coop/coop.yaml)."""
    wanted = _wanted()
    coop_only = [c for c in wanted if c.fields.get("coop_only")]
    overlays = [c for c in wanted if not c.fields.get("coop_only")]
    assert {c.name for c in coop_only} == COOP_ONLY
    weakest = min(c.fields["strength"] + c.fields["health"] for c in coop_only)
    assert all(c.fields["strength"] + c.fields["health"] < weakest for c in overlays)


def test_the_overlays_cover_the_overlords_on_the_wanted_list():
    """EN-394: overlay cards turn existing Overlords into easier Coop opponents: one overlay for each
    Overlord card of rulesets/enchanters_overlords that the Wanted list names (Lukah, Cho'mun), and
    none for the two it does not (Sathi, Brainellum)."""
    overlays = {c.name for c in _wanted() if not c.fields.get("coop_only")}
    assert overlays == {"Lukah, the Archangel (Coop overlay)", "Cho'mun, the Ogre General (Coop overlay)"}
    lords = {str(c.fields["lord"]) for c in load_program(str(OVERLORDS)).rs.cards if c.type == "Overlord"}
    assert {"Lukah", "Chomun"} <= lords


@pytest.mark.parametrize("mods", [
    (COOP,),
    (OVERLORDS, COOP),
    (OVERLORDS, ROOT / "enchanters_kingdoms", COOP),
    (OVERLORDS, ROOT / "enchanters_wounds", COOP),
    (OVERLORDS, ROOT / "enchanters_odyssey", COOP),
], ids=["coop", "overlords+coop", "kingdoms+coop", "wounds+coop", "odyssey+coop"])
def test_coop_stacks_with_the_expansions(mods):
    """Coop is a mod of the Overlords rules (loaded from beside it when the stack does not name it)
    that says it comes after the other expansions: each stack checks without an error."""
    _, content = check_path(_stack(*mods))
    errors = [d for d in content.diagnostics if d.severity == "error"]
    assert errors == [], [str(d) for d in errors]


def test_games_end_as_a_team():
    """A few games at 2 and 4 players end by the Coop rules — the Overlord slain (every player wins)
    or a loss (nobody wins) — never by an error or a cap; the Overlord's seat never wins, and its
    score in the report is 0 (it has no glory to count). Found by tools/mutate_rules.py: the
    seat's score made 1 passed every test."""
    for players in (2, 4):
        report = simulate(_stack(COOP), 3, players, 0, ["random"], per_game=True, card_stats=False)
        assert report["errors"] == [] and report["completed"] == 3
        for r in report["per_game"]:
            assert r["reason"] in ENDINGS and not r.get("cap")
            won = r["reason"] == "the Overlord is slain"
            assert r["winners"] == (list(range(1, players + 1)) if won else [])
            assert len(r["scores"]) == players + 1 and r["scores"][players] == 0


def _answer(g: Any, label: str) -> None:
    """Answer the pending decision with the option whose label begins with `label`."""
    d = g.decision
    g.answer(next(i for i, text in enumerate(d.labels) if text.startswith(label)))


def test_the_guidance_challenges_only_a_won_fight():
    """The Coop guidance (guidance.rules, `prefer ... for action`) rates the actions by their
    labels, its rules replacing the base's of the same label: a Challenge first when the player's
    attack beats the Overlord's health, below ending the turn when it does not (the Overlords
    guidance's -10 is replaced); the Rest for crystals above ending the turn, so a guided turn
    never stalls."""
    g = new_game(load_program(_stack(COOP)), 2, 3)
    for label in ["Standard", "Bandits", "Cultists", "Gnolls", "Goblins", "Cho'mun"]:
        _answer(g, label)
    d = g.decision
    assert d.kind == "action"
    seat = d.player

    def rates() -> dict[str, float]:
        return {label.split(" (")[0]: r for label, r in zip(d.labels, g.preferences(d))}

    weak = rates()
    assert weak["Challenge: pay 2 crystals"] == 0 < weak["End the turn"] < weak["Rest: take 3 crystals"]
    g.state.pstats[seat]["bonus_attack"] = 20
    strong = rates()
    assert strong["Challenge: pay 2 crystals"] == max(strong.values()) > weak["Challenge: pay 2 crystals"]
    other = 1 - seat  # a won Challenge whose first strike would bring the group to its threshold loses the game (EN-357)
    g.state.pstats[other]["wounds"] = g.state.stats["threshold"] - 1
    assert rates()["Challenge: pay 2 crystals"] == 0


def test_the_overlord_deck_is_face_down_and_its_cards_read_aloud():
    """EN-340, EN-349, EN-350: each round draws a card from the Overlord Deck, so the deck is face
    down: every seat (and a spectator) sees how many cards it holds (the 10 basic cards against
    Cho'mun, one drawn), not which. The card drawn is "read aloud": it lies open while it is
    applied, and (Reading: as the base game's graveyard) the cards played lie open in their
    discard. Found by tools/mutate_rules.py: the deck made public, the drawn card or the discard
    hidden, passed every test."""
    g = new_game(load_program(_stack(COOP)), 2, 1)
    for label in ["Standard", "Bandits", "Cultists", "Gnolls", "Goblins", "Cho'mun"]:
        _answer(g, label)
    assert g.error is None and g.decision.kind == "action"
    for seat in (None, 0, 1):
        seen = g.view(seat)
        assert seen["ai_deck"] == 9, seat
        assert isinstance(seen["ai_drawn"], list), seat
        assert isinstance(seen["ai_discard"], list) and len(seen["ai_discard"]) == 1, seat


def _setup(players: int, variant: str, seed: int) -> Any:
    """A Coop game after setup: the base's variant chosen, the first Kingdom decks and the first
    Overlord of the Wanted list taken; the first turn waits."""
    g = new_game(load_program(_stack(COOP)), players, seed)
    while g.state.turn_number == 0 and g.decision is not None:
        d = g.decision
        g.answer(d.labels.index(variant) if d.prompt.startswith("Play which variant") else 0)
    assert g.error is None and g.decision is not None, g.error
    return g


def _cards(g: Any, zone: str) -> list:
    return [g.cards[c] for c in g.state.zones[zone]]


def test_the_coop_setup_plays_the_base_variants():
    """EN-346 ("Prepare the Adventure Deck and Journey Track the same way as you would in a regular
    game"): the Coop setup, which replaces the base's to take 2 half decks per player (EN-337), keeps
    the base's variants. Fast invasion: 5 cards per player go back into the box. Superfast
    invasion: the search brings 2 Items and Enchantments per player, not 3 (seed 4's deck has
    Monsters under the first 4). Dragons in the depths: every Dragon lies in the deck's lower half,
    shuffled among other cards, over all that half (one above its lower third). Found by
    tools/mutate_rules.py: the variant never set, Dragons in the depths read as Superfast, or their
    half made a third, passed every test."""
    std, fast = _setup(2, "Standard", 5), _setup(2, "Fast invasion", 5)
    used = [len(_cards(g, "track") + _cards(g, "adventure")) for g in (std, fast)]
    assert used[1] == used[0] - 10 and fast.state.zones["graveyard"] == []
    top_first = _cards(std, "track") + list(reversed(_cards(std, "adventure")))
    assert all(c.type in ("Item", "Enchantment") for c in top_first[:6])
    g = _setup(2, "Superfast invasion", 4)
    top_first = _cards(g, "track") + list(reversed(_cards(g, "adventure")))
    assert all(c.type in ("Item", "Enchantment") for c in top_first[:4])
    assert [c.type for c in top_first[4:6]] == ["Monster", "Monster"]
    highest = []
    for seed in (1, 2, 3):
        deck = _cards(_setup(2, "Dragons in the depths", seed), "adventure")  # bottom first
        dragons = [i for i, c in enumerate(deck) if c.type == "Dragon"]
        assert len(dragons) >= 2 and max(dragons) < (len(deck) + 6) / 2 + 1, (seed, dragons, len(deck))
        assert max(dragons) - min(dragons) >= len(dragons), (seed, dragons)
        highest.append(max(dragons) / len(deck))
    assert max(highest) > 0.36, highest  # the whole lower half, not a lower third


def test_the_coop_first_player_is_picked_at_random():
    """EN-346 (the regular game's setup: the first player is picked, Reading: at random): over
    several seeds each of three seats answers the variant question and takes the first turn.
    Found by tools/mutate_rules.py: the Coop setup's pick dropped (player 1 always first) passed."""
    program = load_program(_stack(COOP))
    firsts = set()
    for seed in range(6):
        g = new_game(program, 3, seed)
        asked = g.decision.player
        while g.state.turn_number == 0:
            g.answer(0)
        assert g.decision.player == asked
        firsts.add(asked)
    assert firsts == {0, 1, 2}


def test_the_coop_adventure_deck_is_shuffled():
    """EN-346 (the regular game's setup shuffles the Adventure Deck): with the same Kingdom decks
    chosen, different seeds lay different cards on the track. Found by tools/mutate_rules.py: the
    Coop setup's shuffle dropped (the deck in the card files' order) passed every test."""
    tracks = {tuple(c.name for c in _cards(_setup(2, "Standard", seed), "track")) for seed in (1, 2, 3)}
    assert len(tracks) == 3, tracks


def test_the_overlord_deck_is_shuffled():
    """EN-340, EN-349 ("draw a card from the Overlord Deck"): the deck is shuffled at setup, so
    different seeds draw its cards in different orders. Found by tools/mutate_rules.py: the
    setup's shuffle dropped (the deck in the card files' order) passed every test."""
    orders = set()
    for seed in (1, 2, 3):
        g = _setup(2, "Standard", seed)
        orders.add(tuple(c.name for c in _cards(g, "ai_discard") + _cards(g, "ai_deck")))
    assert len(orders) == 3, orders


def test_a_spent_overlord_deck_is_made_again_and_shuffled():
    """Reading (the rulebook does not say what follows the Overlord Deck's last card): the deck is
    made again from its discards, shuffled, as the game's other decks are. Every card of the deck
    is put in its discard, in one order for every seed; the next round draws from the deck made
    again, whose order differs by seed. Found by tools/mutate_rules.py: the shuffle dropped passed
    every test."""
    orders = set()
    for seed in (1, 2, 3):
        g = _setup(2, "Standard", seed)
        st = g.state
        spent = sorted(st.zones["ai_deck"] + st.zones["ai_discard"], key=lambda c: g.cards[c].name)
        st.zones["ai_deck"].clear()
        st.zones["ai_discard"][:] = spent
        for c in spent:
            st.where[c] = "ai_discard"
        g.arranged()
        while st.zones["ai_deck"] == [] and not g.over:
            d = g.decision
            rest = [i for i, text in enumerate(d.labels) if text.startswith("Rest: take")] if d.kind == "action" else []
            g.answer(rest[0] if rest else 0)
        assert g.error is None and len(_cards(g, "ai_deck")) == len(spent) - 1, g.error
        orders.add(tuple(c.name for c in _cards(g, "ai_discard")[:1] + _cards(g, "ai_deck")))
    assert len(orders) == 3, orders
