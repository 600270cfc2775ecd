"""Enchanters' Odyssey (rulesets/enchanters_odyssey): what each seat sees of its zones, which no
scenario can state (a scenario answers for every seat). Fast: one game's setup, no bot game (the
bot games are in tests/games/test_kingdom_decks_odyssey.py), so the mutation tool can meet every
mutant of the zone lines with it."""
from __future__ import annotations

from pathlib import Path

from interpreter.api import load_program
from interpreter.engine.factory import new_game

ROOT = Path(__file__).resolve().parents[2] / "rulesets"
DECKS = ["banner_deck", "class_deck", "event_deck", "set_aside"]


def _setup_views():
    """The seats' views (each player's and a spectator's) while the first player keeps a Banner,
    and again at the first turn, of a 2-player game answering the first option of each question."""
    g = new_game(load_program(f"{ROOT}/enchanters --with {ROOT}/enchanters_odyssey"), 2, 0, seats=[])
    while g.decision is not None and g.decision.prompt != "Keep which Banner?":
        g.answer(0)
    choosing = [g.view(seat) for seat in (0, 1, None)]
    while g.decision is not None and g.decision.prompt != "Choose an action":
        g.answer(0)
    assert g.error is None, g.error
    return choosing, [g.view(seat) for seat in (0, 1, None)]


def test_the_odyssey_decks_lie_face_down_and_the_events_in_play_open():
    """EN-247: the Banners and Classes are dealt from decks no one sees into; the two offered are
    seen by the chooser only through the question (the `offered` zone shows its size to every
    seat). EN-251: the Event deck's cards are taken "without looking at them", and the cards lifted
    off the Adventure Deck to hide an Event are not looked at either. EN-253, EN-256: an Event being
    resolved and the Events lying under track cards are open to all. So `hidden` made `public` (or
    the reverse) on any of these zones changes a view."""
    choosing, first_turn = _setup_views()
    for seen in choosing + first_turn:
        for deck in DECKS:
            assert isinstance(seen[deck], int), (deck, seen[deck])
        for p in (1, 2):
            assert isinstance(seen[f"offered of player {p}"], int), seen[f"offered of player {p}"]
        assert seen["arriving"] == [] and seen["attached_events"] == []
    assert [choosing[0]["banner_deck"], choosing[0]["class_deck"]] == [6, 8]
    assert sum(choosing[0][f"offered of player {p}"] for p in (1, 2)) == 2
    assert [first_turn[0]["banner_deck"], first_turn[0]["class_deck"], first_turn[0]["event_deck"]] == [4, 4, 6]
