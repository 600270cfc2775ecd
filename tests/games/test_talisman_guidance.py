"""Talisman's option preferences (rulesets/talisman/guidance.rules, `prefer`) follow the rulebook's
plan: on through the Inner Region rather than back, through the Portal of Power only when ready
and free of a Warlock quest (TA-286), the Portal opened by the better stat; and the `guided`
bots that follow them finish games by the rules (the Crown of Command, everyone out)."""
from __future__ import annotations

from typing import Any
from pathlib import Path

import pytest

from interpreter.api import load_program
from interpreter.content.model import CardData
from interpreter.engine.game import Decision
from interpreter.play.agents import GuidedAgent
from interpreter.engine.factory import new_game
from interpreter.runtime.values import Seat
from rulekit import put_card

RULESET = Path(__file__).resolve().parents[2] / "rulesets" / "talisman"


def _space(g: Any, n: int):
    return next(c for c in g.cards if c.type == "BoardSpace" and c.fields["n"] == n)


def _offered(o: Any) -> Any:
    """An option as generated code offers it: a card by its id, a walk as a tuple."""
    if isinstance(o, CardData):
        return o.id
    return tuple(_offered(x) for x in o) if isinstance(o, list) else o


def _rates(g: Any, prompt: str, options: list) -> list[float]:
    """Seat 1's preference for each option of a decision with this prompt (a card offered by its
    id and labelled as the game labels it, as generated code offers it)."""
    options = [_offered(o) for o in options]
    return g.preferences(Decision(0, "choose", prompt, options, [g.label(o) for o in options], None))


def _standing(n: int, **stats) -> Any:
    g = new_game(load_program(RULESET), 4, 3)
    g.state.pstats[0]["at"] = _space(g, n)
    g.state.pstats[0].update(stats)
    return g


def test_on_through_the_inner_region_never_back():
    g = _standing(43)  # the Inner Region: try again (43) or turn back (42); onward is 44
    back, stay, onward = _rates(g, "Move to which space?", [_space(g, 42), _space(g, 43), _space(g, 44)])
    assert back < stay < onward
    assert _rates(g, "Move to which space?", [_space(g, 49)])[0] > onward  # the Crown above all
    g = _standing(48)  # the Valley of Fire: on to the Crown rather than stay
    stay, crown = _rates(g, "Move to which space?", [_space(g, 48), _space(g, 49)])
    assert stay < crown


def test_the_portal_only_when_ready_and_free_of_a_quest():
    g = _standing(32)
    walk_in, stay_out = [[_space(g, 33), _space(g, 41)]], [[_space(g, 31)]]
    not_ready = _rates(g, "Move where?", walk_in + stay_out)  # no Talisman yet
    assert not_ready[0] < not_ready[1]
    g.state.pstats[0]["strength_counters"] = 6
    st = g.state
    talisman = next(c.id for c in g.cards if c.type == "Adventure" and c.fields.get("talisman")
                    and st.where.get(c.id, "").startswith("talisman_deck"))
    st.zones[st.where[talisman]].remove(talisman)  # handed a Talisman from the Talisman deck
    st.zones["objects#0"].append(talisman)
    st.where[talisman] = "objects#0"
    ready = _rates(g, "Move where?", walk_in + stay_out)
    assert ready[0] > ready[1]
    quest = next(c.id for c in g.cards if c.type == "Quest")
    st.zones[st.where[quest]].remove(quest)  # a Warlock quest bars the Portal (TA-286)
    st.zones["quest#0"].append(quest)
    st.where[quest] = "quest#0"
    barred = _rates(g, "Move where?", walk_in + stay_out)
    assert barred[0] < barred[1]


def test_the_portal_is_opened_by_the_better_stat():
    g = _standing(33, strength_counters=4)
    by_strength, by_craft = _rates(g, "Open the Portal by Strength (no: by Craft)?", [True, False])
    assert by_strength > by_craft
    g.state.pstats[0].update(strength_counters=0, craft_counters=6)
    by_strength, by_craft = _rates(g, "Open the Portal by Strength (no: by Craft)?", [True, False])
    assert by_strength < by_craft


def test_guided_players_reach_the_crown():
    """Two guided players (the default seats of `grimoire simulate`), seed 2: a character reaches
    the Crown of Command and the Command Spell ends the game, long before the round cap."""
    g = new_game(load_program(RULESET), 2, 2)
    seats = [GuidedAgent(f"2/{i}") for i in range(2)]
    while not g.over:
        g.answer(seats[g.decision.player].choose(g, g.decision))
    assert g.error is None
    assert g.result["reason"] == "Crown of Command" and "cap" not in g.result
    assert g.result["rounds"] < 100 and g.state.stats["crown_reached"] == 1


def _give_talisman(g: Any) -> None:
    """Seat 1 is handed a Talisman from the Talisman deck."""
    st = g.state
    talisman = next(c.id for c in g.cards if c.type == "Adventure" and c.fields.get("talisman")
                    and st.where.get(c.id, "").startswith("talisman_deck"))
    put_card(g, talisman, "objects#0")


def _crosses(g: Any) -> bool:
    """Seat 1, on an Outer space with a Raft, would rather cross the Storm River than not."""
    yes, no = _rates(g, "Cross the Storm River on your Raft?", [True, False])
    return yes > no


def test_ready_for_the_middle_region_at_strength_6_and_3_lives():
    """The bar to leave the Outer Region (`ready_middle`): a battle Strength of 6 or more and 3
    lives or more; every 15 rounds lower both by one. Seat 1 is the Elf (Strength 3, 4 lives, no
    Weapon) on the Fields; Strength counters bring him to the bar or one short."""
    g = _standing(8, strength_counters=3, lives=3)  # battle Strength 6, 3 lives: ready
    assert _crosses(g)
    g.state.pstats[0].update(strength_counters=2)  # 5: not yet
    assert not _crosses(g)
    g.state.pstats[0].update(strength_counters=3, lives=2)  # 6 but 2 lives: not yet
    assert not _crosses(g)
    g.state.pstats[0].update(strength_counters=2, lives=3)
    g.state.round_number = 14  # 5, in round 14: not yet
    assert not _crosses(g)
    g.state.round_number = 15  # 5 + 1 in round 15: bold enough
    assert _crosses(g)
    g.state.pstats[0].update(strength_counters=1, lives=2)  # 4 + 1 and 2 + 1 in round 15: not yet
    assert not _crosses(g)


def _enters(g: Any) -> bool:
    """Seat 1, at the Castle (32), would rather walk through the Portal of Power (33) onto the
    Plain of Peril (41) than stay in the Middle Region (31)."""
    walk_in, stay_out = _rates(g, "Move where?", [[_space(g, 33), _space(g, 41)], [_space(g, 31)]])
    return walk_in > stay_out


def test_ready_for_the_inner_region_with_a_talisman_at_7_and_2_lives():
    """The bar for the Portal of Power (`ready_inner`): a Talisman, Strength or Craft 7 or more and
    2 lives or more; every 15 rounds lower both by one. Seat 1 is the Elf (Strength 3, Craft 4,
    4 lives)."""
    g = _standing(32, craft_counters=3)  # Craft 7, no Talisman: not ready
    assert not _enters(g)
    _give_talisman(g)
    assert _enters(g)  # Craft 7 with a Talisman: ready
    g.state.pstats[0].update(craft_counters=2)  # Craft 6: not yet
    assert not _enters(g)
    g.state.pstats[0].update(craft_counters=0, strength_counters=4)  # Strength 7: ready
    assert _enters(g)
    g.state.pstats[0].update(lives=1)  # 1 life: not yet
    assert not _enters(g)
    g.state.pstats[0].update(lives=2, strength_counters=3)  # Strength 6, round 14: not yet
    g.state.round_number = 14
    assert not _enters(g)
    g.state.round_number = 15  # 6 + 1 in round 15: bold enough
    assert _enters(g)
    g.state.pstats[0].update(lives=0)  # 0 + 1 lives in round 15: not yet
    assert not _enters(g)


@pytest.mark.parametrize("prompt, answer", [
    ("Take the Talisman?", True), ("Take it?", True), ("Take the gold lying here?", True),
    ("Trade your Strength trophies?", True), ("Trade your Craft trophies?", True),
    ("Ditch an Object or Follower on your space?", False),
    ("Ditch an Object or Follower here before drawing?", False),
    ("Pay the healer 1 gold to heal 1 life?", True), ("Pay the doctor 1 gold more to heal 1 life?", True),
    ("Have the court heal up to 2 lives free?", True), ("Drink the Elixir (heal 2 lives)?", True)])
def test_the_plans_answer_to_a_yes_or_no_question(prompt, answer):
    """Where the plan has an answer, a guided bot prefers it: take what is offered, heal, trade
    trophies, never ditch."""
    yes, no = _rates(_standing(8), prompt, [True, False])
    assert (yes > no) if answer else (yes < no)


def test_a_warlock_quest_only_without_a_talisman():
    """A quest is accepted for its reward, a Talisman: not by a character who holds one."""
    g = _standing(25)
    yes, no = _rates(g, "Accept a Warlock quest?", [True, False])
    assert yes > no
    talisman, reward = _rates(g, "Take which reward?", ["a Talisman", "a Quest Reward"])
    assert talisman > reward
    _give_talisman(g)
    yes, no = _rates(g, "Accept a Warlock quest?", [True, False])
    assert yes < no
    talisman, reward = _rates(g, "Take which reward?", ["a Talisman", "a Quest Reward"])
    assert not talisman > reward


def test_the_quest_to_visit_a_place_first_then_a_tribute():
    """Of the Warlock's quests a place to visit is chosen first, then a tribute, then a kill."""
    g = _standing(25)
    quests = {str(c.fields["goal"]): c for c in g.cards if c.type == "Quest"}
    visit, tribute, slay = _rates(g, "Which quest?", [quests["Visit"], quests["Tribute"], quests["Slay"]])
    assert visit > tribute > slay


def test_psychic_combat_only_when_craft_is_the_greater():
    """The Elf (Strength 3, Craft 4) would rather fight by Craft; with a Strength counter the two
    are even, and he fights by battle."""
    g = _standing(8)
    yes, no = _rates(g, "Fight by psychic combat (no: by battle)?", [True, False])
    assert yes > no
    g.state.pstats[0].update(strength_counters=1)
    yes, no = _rates(g, "Fight by psychic combat (no: by battle)?", [True, False])
    assert yes < no


def test_no_answer_where_the_plan_has_none():
    """On the Fields, not yet ready for the Middle Region, the plan rates every Outer space alike
    (0): whether to encounter the space or the character standing there is left to chance, and
    so is any question of cards."""
    g = _standing(8)
    space, rival = _rates(g, "Encounter the space or a character?", [_space(g, 8), Seat(1)])
    assert space == rival
    cards = [c for c in g.cards if c.type == "Adventure"][:3]
    assert len(set(_rates(g, "Take which Object?", cards))) == 1


def test_a_quest_to_kill_looks_for_an_enemy():
    """With a Warlock quest to slay an Enemy, a guided bot heads for a space where an Enemy
    stands, rather than one with another card or none."""
    g = _standing(8)
    st = g.state
    quest = next(c for c in g.cards if c.type == "Quest" and str(c.fields["goal"]) == "Slay")
    st.zones[st.where[quest.id]].remove(quest.id)
    st.zones["quest#0"].append(quest.id)
    st.where[quest.id] = "quest#0"
    enemy = next(c for c in g.cards if c.type == "Adventure" and str(c.fields.get("kind")) == "Enemy")
    other = next(c for c in g.cards if c.type == "Adventure" and str(c.fields.get("kind")) == "ObjectCard")
    g.R.move_onto([enemy.id], _space(g, 9).id)
    g.R.move_onto([other.id], _space(g, 7).id)
    to_enemy, to_other, to_none = _rates(g, "Move where?", [[_space(g, 9)], [_space(g, 7)], [_space(g, 10)]])
    assert to_enemy > to_other == to_none


def test_ready_for_the_middle_region_he_makes_for_the_sentinel():
    """Ready for the Middle Region, a guided bot in the Outer Region heads for the Sentinel's
    space (17), whose bridge crosses the Storm River, and rather into the Middle Region at once."""
    g = _standing(14, strength_counters=3, lives=3)
    before, sentinel, middle = _rates(g, "Move where?", [[_space(g, 16)], [_space(g, 17)], [_space(g, 30)]])
    assert before < sentinel < middle


def test_in_the_middle_region_he_makes_for_the_portal_when_ready_else_the_warlock():
    """In the Middle Region a guided bot ready for the Inner Region heads for the Portal of Power
    (33), the nearer space first, and stays in the Middle Region; not ready and without a
    Talisman he heads for the Warlock's Cave (25), whose quests pay one."""
    g = _standing(30, craft_counters=3)  # Craft 7
    _give_talisman(g)
    nearer, farther, outer = _rates(g, "Move where?", [[_space(g, 31)], [_space(g, 29)], [_space(g, 8)]])
    assert nearer > farther > outer
    g = _standing(27)  # not ready, no Talisman
    nearer, farther, outer = _rates(g, "Move where?", [[_space(g, 26)], [_space(g, 28)], [_space(g, 8)]])
    assert nearer > farther > outer


def test_a_player_whose_character_fell_rates_every_space_alike():
    """A player whose character was killed this turn may still be asked to move a figure (the
    Reaper mod's "Move the Grim Reaper to which space?"): with no character there is no plan, and
    every space is rated alike (0) rather than by a character's stats he no longer has."""
    g = _standing(30, craft_counters=3)  # Craft 7 with a Talisman: a living character aims
    _give_talisman(g)
    spaces = [_space(g, 31), _space(g, 29), _space(g, 8)]
    assert len(set(_rates(g, "Move the Grim Reaper to which space?", spaces))) == 3
    st = g.state
    hero = st.zones["hero#0"].pop()  # killed (TA-057: his card goes to the fallen)
    st.zones["fallen"].append(hero)
    st.where[hero] = "fallen"
    assert _rates(g, "Move the Grim Reaper to which space?", spaces) == [0, 0, 0]


def test_the_portal_is_opened_by_strength_when_the_two_are_even():
    """Strength and Craft even (the Elf, Craft 4, with a Strength counter): either roll is as
    likely to open the Portal, and the plan settles it: by Strength (its `>=`). Answering by Craft
    would play as well but differently (the golden games record this answer)."""
    g = _standing(33, strength_counters=1)
    by_strength, by_craft = _rates(g, "Open the Portal by Strength (no: by Craft)?", [True, False])
    assert by_strength > by_craft


def test_the_order_of_two_effects_on_one_event_is_left_to_chance():
    """The engine's "Which `landing` effect first?" offers numbers, one per effect: there is no
    space to aim at, and the plan's rule for every decision without a rule of its own rates a
    number 0 (`last(it)` of a number is the number, no BoardSpace), so the order is left to chance."""
    g = _standing(8)
    d = Decision(0, "order", "Which `landing` effect first?", [0, 1], ["the space's landing", "a Hex's landing"], None)
    assert g.preferences(d) == [0, 0]
