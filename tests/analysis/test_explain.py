"""`grimoire explain`: the rules, a card or a named rule in plain English, from the constructs' own
`describe()` (issue "Cards people can read and print": English from rules)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.analysis.explain import UnknownSubject, explain
from interpreter.api import check_path
from rulekit import ruleset

RULES = """
game "Gems":
    players 2

card type Gem:
    color: Red | Blue
    worth: 1..3

zone bag: pile, shared, hidden
zone hand: set, per player, owner
event picked

setup:
    move all_cards() to bag

turn:
    draw 1 from bag to your hand
    if bag is empty:
        end game

procedure tidy(p):
    move hand of p where it.worth == 1 to bag

score p: sum((hand of p).worth)
"""

CARDS = """
- name: Ruby
  type: Gem
  color: Red
  worth: 3
  effect: |
    when picked:
        for each p in other_players():
            tidy(p)
- {name: Pebble, type: Gem, color: Blue, worth: 1, copies: 3}
"""


@pytest.fixture
def rules(tmp_path: Path):
    folder = ruleset(tmp_path, RULES, CARDS)
    rs, content = check_path(folder)
    assert rs is not None and content.ok, [d.format() for d in content.diagnostics]
    return folder, rs


def test_a_card_reads_as_its_fields_and_its_effect(rules):
    _, rs = rules
    assert explain(rs, "Ruby") == ("Ruby (Gem; color Red; worth 3)\n"
                                   "When picked: for each p in other players: tidy p.")


def test_copies_that_read_the_same_are_shown_once(rules):
    _, rs = rules
    assert explain(rs, "Pebble") == "Pebble (Gem; color Blue; worth 1)"


def test_a_named_rule_reads_as_a_sentence(rules):
    _, rs = rules
    assert explain(rs, "tidy") == "To tidy (given p): move the hand of p where the worth of it is 1 to bag."
    assert explain(rs, "hand") == "The hand is a zone: set, per player, owner."


def test_the_whole_ruleset_reads_declaration_by_declaration(rules):
    _, rs = rules
    text = explain(rs)
    assert text.splitlines()[0] == "The game 'Gems': players 2."
    assert "On a turn: draw a card from bag to your hand; if bag is empty: the game ends." in text
    assert "A player's score (p) is sum of the worth of the hand of p." in text


def test_an_unknown_subject_suggests_a_name(rules):
    _, rs = rules
    with pytest.raises(UnknownSubject, match="did you mean `Ruby`"):
        explain(rs, "Rubby")


def test_cli(rules):
    folder, _ = rules
    run = lambda *a: subprocess.run([sys.executable, "-m", "interpreter", "explain", str(folder), *a],  # noqa: E731
                                    capture_output=True, text=True, timeout=120)
    ok = run("Ruby")
    assert ok.returncode == 0 and ok.stdout.startswith("Ruby (Gem; color Red; worth 3)\nWhen picked:")
    bad = run("Rubby")
    assert bad.returncode == 2 and "did you mean `Ruby`" in bad.stderr and "Traceback" not in bad.stderr


# ---- the shipped games ---------------------------------------------------------------------------
ROOT = Path(__file__).resolve().parents[2]
GAMES = sorted(p for p in (ROOT / "rulesets").iterdir() if (p / "game.rules").exists())

# What a statement does, and the words its English must contain (a rough but real check that card
# text leaves no action out).
ACTION_WORDS = {"move": "move", "draw": "draw", "shuffle": "shuffle", "gain": "gain", "lose": "lose",
                "choose": "choose", "fire": "happens", "set": "set", "place": "place", "cover": "lay",
                "roll": "roll", "end_game": "the game ends", "log": "tell everyone", "take_actions": "actions"}


@pytest.mark.parametrize("game", GAMES, ids=lambda p: p.name)
def test_every_card_and_rule_explains_itself_mentioning_each_action(game: Path):
    from interpreter.language.tree import walk
    rs, content = check_path(game)
    assert rs is not None and content.ok
    whole = explain(rs)
    assert len(whole.splitlines()) >= len([d for m in rs.content.modules for d in m.decls]) > 5
    for card in {c.name: c for c in rs.cards if c.effect is not None}.values():
        for trigger in card.effect.triggers:
            text = trigger.describe()
            assert text.strip(), card.name
            for n in walk(trigger):
                word = ACTION_WORDS.get(n.kind)
                assert word is None or word in text, f"{card.name}: `{n.kind}` not told in {text!r}"


# A dozen cards across the games, as a player reads them (golden texts: a change of the English
# shows here first).
GOLDEN = {
    ("toil_and_troublez", "Summon"): "When picked up: let loot be the trove of other players; if loot is not "
                                     "empty: you choose c from loot; move c to your trove.",
    ("toil_and_troublez", "Poison"): "When picked up: if your trove is not empty: you choose c from your trove; "
                                     "move c to discard.",
    ("toil_and_troublez", "Vanish"): "When picked up: you choose k from values of the kind of Talisman; for each "
                                     "p in other players: let held be the trove of p where the kind of it is k; "
                                     "if held is not empty: p chooses c from held; move c to discard.",
    ("tutorial_fireflies", "Frog"): "When drawn: if jar is not empty: move last of jar to discard.",
    ("tutorial_fireflies", "Moth"): "When drawn: if jar is not empty: if you agree to \u201cLet the Moth guide a "
                                    "firefly into your catch?\u201d: you choose f from jar; move f to your catch.",
    ("talisman", "Angel"): "When encountered: if your alignment is Good: gain lives you, 1; otherwise if your "
                           "alignment is Evil: lose life you.",
    ("talisman", "Blizzard"): "When encountered: blizzard.",
    ("enchanters", "Axe"): "When taken: for each p in others: wound p, attack of you divided by 2.",
    ("enchanters", "Bolas"): "When taken: if others is not empty: you choose p from others; discard monster p.",
    ("stonehenge_wizards", "Arcane Surge"): "Action \u201cSpend 1 tome: gain 2 arcane\u201d (once per turn), if "
                                            "your tome is at least 1: you lose 1 tome; you gain 2 arcane.",
    ("stonehenge_wizards", "Banishment"): "When bought: for each p in other players: if p is dummy: solo discard "
                                          "p; p loses 4 vp; otherwise if the spells of p is not empty: p chooses "
                                          "c from the spells of p; move c to discard; p loses the points of c vp.",
    ("enchanters_overlords", "Brainellum"): "Action \u201cChallenge: pay 1 crystal\u201d, if can challenge and "
                                            "your crystals is at least 1: you lose 1 crystals; challenge this "
                                            "card.\nWhen invaded: if top of graveyard is an Item: you lose 2 "
                                            "crystals.",
}


@pytest.mark.parametrize("game, card", sorted(GOLDEN), ids=lambda x: str(x))
def test_golden_card_texts(game: str, card: str):
    rs, _ = check_path(ROOT / "rulesets" / game)
    first = next(c for c in rs.cards if c.name == card)
    assert first.effect.describe() == GOLDEN[(game, card)]
