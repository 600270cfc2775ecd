"""The Coop mode's guidance (rulesets/enchanters_coop/guidance.rules): what a guided bot weighs.
Guidance never changes what may happen, only which allowed option a bot picks, so no scenario can
tell a broken rate from the right one; these tests read the rates (`Game.preferences`) and the
position's worth (`Game.values`) directly. Found by tools/mutate_rules.py: every number and sign of
the Coop guidance but the Challenge's, the Rest's and ending the turn passed every test. (The
Challenge's rates: tests/games/test_enchanters_coop.py.)"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from interpreter.api import load_program
from interpreter.content.model import CardData
from interpreter.engine.factory import new_game
from interpreter.engine.game import Decision

ROOT = Path(__file__).resolve().parents[2] / "rulesets"
STACK = f"{ROOT / 'enchanters'} --with {ROOT / 'enchanters_coop'}"
CHOICES = ["Standard", "Bandits", "Cultists", "Gnolls", "Goblins"]
PROGRAM = None


def _program() -> Any:
    global PROGRAM
    if PROGRAM is None:
        PROGRAM = load_program(STACK)
    return PROGRAM


def _answer(g: Any, label: str) -> None:
    d = g.decision
    g.answer(next(i for i, text in enumerate(d.labels) if text.startswith(label)))


def _card(g: Any, name: str) -> int:
    """The id of a card of this name (in the box or the Adventure Deck)."""
    return next(c.id for c in g.cards if c.name == name and g.state.where.get(c.id) in ("box", "adventure"))


def _give(g: Any, name: str, zone: str) -> int:
    """Move a card of this name onto a flat zone ("items#0": seat 1's Items)."""
    st, c = g.state, _card(g, name)
    st.zones[st.where[c]].remove(c)
    st.zones[zone].append(c)
    st.where[c] = zone
    return c


def _game(*piles: tuple[str, str]) -> Any:
    """A 2-player game against Cho'mun's overlay, the cards given to the first player's piles
    before the Overlord is chosen, so that the first action is offered with them in place."""
    g = new_game(_program(), 2, 3)
    seat = g.decision.player  # the first player answers the variant question
    for label in CHOICES:
        _answer(g, label)
    for name, pile in piles:
        _give(g, name, f"{pile}#{seat}")
    g.arranged()
    _answer(g, "Cho'mun")
    assert g.error is None and g.decision.kind == "action" and g.decision.player == seat
    return g


def _action_rates(g: Any) -> dict[str, float]:
    d = g.decision
    return {label.split(" (")[0]: r for label, r in zip(d.labels, g.preferences(d))}


def _rates(g: Any, kind: str, prompt: str, options: list) -> list[float]:
    g.arranged()
    options = [o.id if isinstance(o, CardData) else o for o in options]
    return g.preferences(Decision(g.decision.player, kind, prompt, options, None, None, g.label))


def test_the_position_is_worth_the_teams_progress_to_the_guild_and_its_loss_to_the_overlord():
    """`value`: the team's progress is 3 a lost Overlord HP, less 2 a wound of the group, plus the
    rage; each player adds his lasting attack and defense, the Overlord's seat counts the progress
    against it. At 90 HP, rage 2 and 3 wounds: 27 - 6 + 2 = 23; the first player, with a Greataxe
    (attack 2) beside his Fist and of Enchanting, adds 3 + 1."""
    g = _game(("Greataxe", "items"))
    seat = g.decision.player
    g.state.stats["overlord_hp"] = 90
    g.state.stats["rage"] = 2
    g.state.pstats[1 - seat]["wounds"] = 3
    values = g.values()
    assert values[seat] == 23 + 3 + 1 and values[1 - seat] == 23 + 1 + 1 and values[2] == -23


def test_the_guild_action_is_rated_by_a_top_card_of_glory_alone():
    """The Guild action (4, above a Journey's 3) when a top card brings glory but neither attack
    nor defense (a Thug, 1 glory), which win fights; a Greataxe (1 glory, attack 2) is kept: the
    action is offered, rated 0. The other actions: a Journey 3, a Rest for crystals 2, to heal 1
    (no wound), ending the turn 1."""
    rates = _action_rates(_game(("Thug", "monsters")))
    assert rates == {"Journey": 3, "Rest: take 3 crystals": 2, "Rest: heal 1 wound": 1,
                     "Guild: remove a top card to wound the Overlord": 4, "Challenge: pay 2 crystals": 0,
                     "End the turn": 1}, rates
    rates = _action_rates(_game(("Greataxe", "items")))
    assert rates["Guild: remove a top card to wound the Overlord"] == 0, rates


def test_a_wounded_player_rests_to_heal_near_the_threshold():
    """The Rest to heal rates 3 (above the Rest for crystals) when the group's wounds are within 8
    of its threshold (40) and the player has a wound, else 1 (below it)."""
    g = _game()
    seat = g.decision.player
    wounds = g.state.pstats

    def heal() -> float:
        return _action_rates(g)["Rest: heal 1 wound"]

    wounds[seat]["wounds"] = 32
    assert heal() == 3
    wounds[seat]["wounds"] = 31
    assert heal() == 1
    wounds[seat]["wounds"], wounds[1 - seat]["wounds"] = 0, 32
    assert heal() == 1
    wounds[seat]["wounds"], wounds[1 - seat]["wounds"] = 1, 31
    assert heal() == 3


def test_the_journey_and_the_guild_action_pick_by_glory_strength_and_blows():
    """A Journey goes to the card worth most: glory, attack and defense, less 2 for each wound
    its blow would deal (Greataxe 1 + 2 = 3; Thug 1, strength 1 against defense 1: no blow;
    Cutpurse 2, strength 2: a blow, 2 - 2 = 0). The Guild action removes the card of most glory
    over its attack and defense (Thug 1, Fur Cloak 1 - 1 = 0, Greataxe 1 - 2 = -1)."""
    g = _game()
    axe, thug, cutpurse, cloak = (g.cards[_card(g, n)] for n in ("Greataxe", "Thug", "Cutpurse", "Fur Cloak"))
    assert _rates(g, "choose", "Journey to which card?", [axe, thug, cutpurse]) == [3, 1, 0]
    assert _rates(g, "choose", "Remove which card to wound the Overlord?", [axe, cloak, thug]) == [-1, 0, 1]


def test_a_shield_is_spent_on_the_overlord_card_and_bots_face_an_overlay():
    """A Shield held is discarded to cancel the Overlord card (yes 1, no 0); the Wanted Overlord a
    bot picks is an overlay (1), not one of the four Coop Overlords (0), the very tough ones
    (EN-393, EN-394)."""
    g = _game()
    assert _rates(g, "may", "Discard your Shield to cancel the Overlord card?", [True, False]) == [1, 0]
    wanted = [c for c in g.cards if c.type == "WantedOverlord"]
    rates = _rates(g, "choose", "Choose an Overlord from the Wanted List", wanted)
    assert rates == [0 if c.fields.get("coop_only") else 1 for c in wanted] and 0 in rates and 1 in rates


def test_a_challenge_is_won_at_an_attack_equal_to_the_overlords_health():
    """A fight is won when the attack reaches the Overlord's health (EN-121: as a Monster's), so
    the Challenge rates 6 at an attack of exactly Cho'mun's health 4 (Fist 1, +3 bonus), as long
    as his first strike (2 less defense 1) leaves the group below its threshold."""
    g = _game()
    g.state.pstats[g.decision.player]["bonus_attack"] = 3
    assert _action_rates(g)["Challenge: pay 2 crystals"] == 6
