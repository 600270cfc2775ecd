"""A mod that plays on another board (docs/boards.md, "Replacing a board"): it edits the base's
space cards — `remove:` the spaces the new board has not, `replace:` those it keeps with new
fields, plain entries for its own — and the base's `board` declaration joins what the cards give.
A base that takes its ring in card order is kept in order by a `replace constant` sorting the
spaces by their number, so the mod's added spaces take their places wherever its cards come.
On generated code (`new_game`, engine "direct"); rulesets/talisman_cataclysm is the full use."""
from __future__ import annotations

from interpreter.api import load_program
from interpreter.engine.factory import new_game
from rulekit import finish, named_ruleset

BASE = """
game "Ring":
    players 2

card type Land:
    n: 1..9
    gold: 0..9 = 0

constant lands = all_cards() where it is Land
zone land: set
player stat at = none

board world:
    ring first(lands, 6) as Out            # in card order, as the base's file lists them

setup:
    move lands to land
    for each p in players:
        set at of p to card_named("Gate")

turn:
    log neighbours(card_named("Gate")).name
    log spaces_away(card_named("Gate"), 2).name
    log [card_named("Gate").gold, count(spaces(world)), count(cards_named("Marsh"))]
    end game
"""
BASE_CARDS = """
- {name: Gate, type: Land, n: 1}
- {name: Marsh, type: Land, n: 2}
- {name: Hill, type: Land, n: 3}
- {name: Marsh, type: Land, n: 4}
- {name: Wood, type: Land, n: 5}
- {name: Ford, type: Land, n: 6}
"""
MOD = """
game "Ring: the new board":
    extends "base"
    players 2

replace constant lands = sort_by(all_cards() where it is Land, (all_cards() where it is Land).n)
"""
MOD_CARDS = """
- remove: Marsh                       # both copies
- {replace: Gate, n: 1, gold: 3}      # kept, with a new field value
- {name: Crater, type: Land, n: 2}
- {name: Ruin, type: Land, n: 4}
"""


def log_of(stack: str) -> list[str]:
    g = finish(new_game(load_program(stack), 2, 0))
    assert g.error is None, g.error
    return g.log[:3]


def test_the_base_board_alone(tmp_path):
    base = named_ruleset(tmp_path, "base", BASE, BASE_CARDS)
    assert log_of(str(base)) == ["[Marsh, Ford]", "[Hill, Wood]", "[0, 6, 2]"]


def test_the_mods_spaces_take_the_removed_ones_places_on_the_base_ring(tmp_path):
    """Crater and Ruin come last in the card list, yet sit at 2 and 4 on the ring; the Gate is the
    mod's (gold 3) at its old place; no Marsh is left."""
    base = named_ruleset(tmp_path, "base", BASE, BASE_CARDS)
    mod = named_ruleset(tmp_path, "newboard", MOD, MOD_CARDS)
    assert log_of(f"{base} --with {mod}") == ["[Crater, Ford]", "[Hill, Wood]", "[3, 6, 0]"]


def test_without_the_order_the_ring_follows_the_card_list(tmp_path):
    """Why the mod sorts: left in card order, the added spaces would come after the base's, and
    the ring would join the Hill to the Wood."""
    base = named_ruleset(tmp_path, "base", BASE, BASE_CARDS)
    mod = named_ruleset(tmp_path, "newboard", MOD.split("replace constant")[0], MOD_CARDS)
    assert log_of(f"{base} --with {mod}") == ["[Hill, Ruin]", "[Wood, Crater]", "[3, 6, 0]"]
