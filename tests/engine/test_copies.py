"""`copies EXPR` (directcopies.py): a card that counts as a live copy of another card. On a tiny
ruleset, a Mirror copies the top card of its owner's shelf: its fields, the triggers that answer
an event fired on it, its actions and its `whenever` triggers are those of that card, and follow
it the moment the shelf's top card changes; with an empty shelf the Mirror is itself again."""
from __future__ import annotations

import pytest

from rulekit import answer, build, errors
from interpreter.engine.factory import new_game

# what both tiny rulesets end with: a bell to ring, four turns of actions, gold as the score
TURNS = """
action "Ring":
    fire rang

turn:
    you take actions "End the turn"
    if turn_number >= 4:
        end game

score p: gold of p
"""

RULES = """
card type Gem:
    power: 0..9
    shine: 0..9 = 0

zone box: pile, shared, hidden
zone shelf: pile, per player, public
zone table: set, per player, public
player stat gold = 0
player stat seen = 0
event poked
event rang

setup:
    move all_cards() to box
    for each p in players:
        move first(values(box) where it.name == "Mirror") to table of p

action "Shelve Red" if some c in box has c.name == "Red":
    move first(values(box) where it.name == "Red") to your shelf
action "Shelve Blue" if some c in box has c.name == "Blue":
    move first(values(box) where it.name == "Blue") to your shelf
action "Empty the shelf" if not (your shelf is empty):
    move values(your shelf) to box
action "Look":
    set your seen to sum(values(your table).power) * 10 + sum(values(your table).shine)
action "Poke":
    for each c in your table:
        fire poked on c
""" + TURNS

CARDS = """
- name: Mirror
  type: Gem
  power: 1
  copies: 2
  effect: |
    copies top(shelf of you) if not (shelf of you is empty) else none
- name: Red
  type: Gem
  power: 3
  effect: |
    when poked:
        you gain 1 gold
    action "Red's gift" once per turn:
        you gain 100 gold
- name: Blue
  type: Gem
  power: 5
  shine: 2
  effect: |
    when poked:
        you gain 10 gold
    whenever rang:
        you gain 1000 gold
"""


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    return build(tmp_path_factory.mktemp("copies"), RULES, CARDS)


def _look(g) -> int:
    answer(g, 0, "Look")
    return g.state.pstats[0]["seen"]


def _gold(g) -> int:
    return g.state.pstats[0]["gold"]


@pytest.mark.parametrize("seats", [None, []], ids=["copyable", "generator"])
def test_a_copy_follows_its_source(program, seats) -> None:
    g = new_game(program, 2, 0, seats=seats)
    assert _look(g) == 10  # nothing on the shelf: the Mirror's own power 1
    answer(g, 0, "Shelve Red")
    assert _look(g) == 30  # Red's power
    assert "Red's gift (Mirror)" in g.decision.labels  # Red's action, on the Mirror
    answer(g, 0, "Poke")  # fired on the Mirror: Red's `when poked`
    assert _gold(g) == 1
    answer(g, 0, "Shelve Blue")  # Blue on top: the copy changes at once
    assert _look(g) == 52  # Blue's power and shine
    assert not any("(Mirror)" in x for x in g.decision.labels)  # Red's action is gone from the Mirror
    answer(g, 0, "Poke")
    assert _gold(g) == 11  # Blue's trigger now, not Red's
    answer(g, 0, "Ring")  # Blue itself is in play too: its `whenever` and the Mirror's copy of it
    assert g.decision.kind == "order" and g.decision.labels == ["Blue: cards.yaml:23", "Mirror: cards.yaml:23"]
    g.answer(0)
    assert _gold(g) == 2011
    answer(g, 0, "Empty the shelf")
    assert _look(g) == 10  # the copy has ended
    answer(g, 0, "Poke")
    assert _gold(g) == 2011


def test_a_copied_action_is_counted_apart(program) -> None:
    """Red's "once per turn" action on the Mirror has a use of its own."""
    g = new_game(program, 2, 0)
    answer(g, 0, "Shelve Red")
    answer(g, 0, "Red's gift (Mirror)")
    assert _gold(g) == 100
    labels = g.decision.labels
    assert "Red's gift (Red)" in labels and "Red's gift (Mirror)" not in labels


def test_copies_is_checked_and_described(tmp_path, program) -> None:
    bad = CARDS.replace("copies top(shelf of you)", "copies top(shelff of you)")
    errs = errors(tmp_path, 'game "T":\n    players 2..6\n' + RULES, bad)
    assert any("shelff" in d.message and d.loc.file.endswith("cards.yaml") for d in errs), errs
    mirror = next(c for c in program.rs.cards if c.name == "Mirror")
    assert mirror.effect.describe().startswith("While ") and "exact copy" in mirror.effect.describe()


# ---- parts: a copy's abilities are live by the copying card's place (EN-235's covered Book) ------

PARTS_RULES = """
card type Gem:
    power: 0..9

zone box: pile, shared, hidden
zone shelf: pile, per player, public
zone rack: pile, per player, public, covered keep lower
player stat gold = 0
event rang

setup:
    move all_cards() to box

action "Shelve Red" if some c in box has c.name == "Red":
    move first(values(box) where it.name == "Red") to your shelf
action "Rack Mirror" if some c in box has c.name == "Mirror":
    move first(values(box) where it.name == "Mirror") to your rack
action "Rack Stone" if some c in box has c.name == "Stone":
    move first(values(box) where it.name == "Stone") to your rack
""" + TURNS

PARTS_CARDS = """
- name: Mirror
  type: Gem
  power: 1
  effect: |
    copies top(shelf of you) if not (shelf of you is empty) else none
- {name: Stone, type: Gem, power: 2}
- name: Red
  type: Gem
  power: 3
  effect: |
    action "Upper gift" once per turn:
        you gain 1 gold
    whenever rang:
        you gain 100 gold
    part lower:
        action "Lower gift" once per turn:
            you gain 10 gold
        whenever rang:
            you gain 1000 gold
"""


@pytest.mark.parametrize("seats", [None, []], ids=["copyable", "generator"])
def test_copied_parts_follow_the_copying_cards_cover(tmp_path, seats) -> None:
    """The Mirror copies Red's upper and lower parts; covered in a `covered keep lower` zone it
    keeps only the lower one (Red's upper action and upper `whenever` go quiet on it), as a covered
    card's own abilities do — while Red itself, uncovered on the shelf, keeps both. The Mirror in
    the box is found by its own name ("Rack Mirror"), not by Red's, which it copies there too."""
    g = new_game(build(tmp_path, PARTS_RULES, PARTS_CARDS), 2, 0, seats=seats)
    answer(g, 0, "Shelve Red")
    answer(g, 0, "Rack Mirror")  # the Mirror on top of the rack: all of Red's abilities
    assert {"Upper gift (Mirror)", "Lower gift (Mirror)", "Upper gift (Red)", "Lower gift (Red)"} <= set(g.decision.labels)
    answer(g, 0, "Rack Stone")  # the Stone covers the Mirror: only Red's lower part is left on it
    labels = g.decision.labels
    assert "Lower gift (Mirror)" in labels and "Upper gift (Mirror)" not in labels
    assert {"Upper gift (Red)", "Lower gift (Red)"} <= set(labels)
    answer(g, 0, "Ring")  # Red: 100 + 1000; the covered Mirror: its lower `whenever` only, 1000
    while g.decision.kind == "order":
        g.answer(0)
    assert _gold(g) == 2100
