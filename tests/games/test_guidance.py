"""The guidance of the shipped rulesets (each folder's guidance.rules: `value`, what the look-ahead
bots strive for; `prefer`, what the guided bots and MCTS playouts choose) parses, checks, and
rates positions and options as the game's goal does: a player ahead in what the rules reward is
valued higher, a better option rated higher. Talisman's has its own tests
(test_talisman_value.py, test_talisman_guidance.py)."""
from __future__ import annotations

from typing import Any
import random
from pathlib import Path

from interpreter.api import load_program
from interpreter.engine.direct import compile_direct
from interpreter.content.model import CardData
from interpreter.engine.game import Decision
from interpreter.engine.resumablegame import ResumableGame
from interpreter.engine.factory import new_game

RULESETS = Path(__file__).resolve().parents[2] / "rulesets"


def _game(name: str, players: int = 2, seed: int = 1) -> Any:
    return new_game(load_program(RULESETS / name), players, seed)


def _give(g: Any, card: int, zone: str) -> None:
    """Move a card straight into a flat zone (`zone` is its state key: "trove#0" for seat 1's)."""
    st = g.state
    old = st.where.get(card)
    if old is not None and card in st.zones.get(old, []):
        st.zones[old].remove(card)
    st.zones.setdefault(zone, []).append(card)
    st.where[card] = zone


def _cards(g: Any, type_: str, **fields) -> list[int]:
    """Ids of the cards of a type whose fields have these values."""
    return [c.id for c in g.cards if c.type == type_ and all(c.fields.get(k) == v for k, v in fields.items())]


def _rates(g: Any, prompt: str, options: list, seat: int = 0) -> list[float]:
    """Seat's preference for each option of a decision with this prompt (None: no rule); the test
    changed the state directly (`_give`), so the game reads it again first (`arranged`). A card
    option is offered by its id, as generated code offers it."""
    g.arranged()
    options = [o.id if isinstance(o, CardData) else o for o in options]
    return g.preferences(Decision(seat, "choose", prompt, options, None, None, g.label))


def test_fireflies_values_a_lantern_half_made():
    g = _game("tutorial_fireflies")
    assert g.values() == [0.0, 0.0]
    gold = _cards(g, "Firefly", color="Gold", glow=2)
    green, blue = _cards(g, "Firefly", color="Green", glow=2), _cards(g, "Firefly", color="Blue", glow=2)
    for c in gold[:2]:
        _give(g, c, "catch#0")          # two of one colour: a third makes a lantern
    _give(g, green[0], "catch#1")
    _give(g, blue[0], "catch#1")        # the same glow, two colours
    assert g.values() == [4 + 2, 4]
    g.state.pstats[1]["lanterns"] = 1   # a lantern is worth more than a pair: 5
    assert g.values()[1] > g.values()[0] and g.values()[1] == 5 + 4


def test_fireflies_pushes_its_luck_once():
    g = _game("tutorial_fireflies")
    fireflies = _cards(g, "Firefly")
    _give(g, fireflies[0], "jar")
    assert _rates(g, "Catch another firefly?", [True, False]) == [1, 0]
    _give(g, fireflies[1], "jar")
    assert _rates(g, "Catch another firefly?", [True, False]) == [0, 1]
    bright, dim = _cards(g, "Firefly", glow=3)[0], _cards(g, "Firefly", glow=1)[0]
    assert _rates(g, "Which firefly?", [g.cards[dim], g.cards[bright]]) == [1, 3]
    assert _rates(g, "Let the Moth guide a firefly into your catch?", [True, False]) == [1, 0]  # a free firefly


def test_toil_and_troublez_values_collections_and_the_way_to_them():
    g = _game("toil_and_troublez", 3)
    toads = _cards(g, "Talisman", kind="Toad")
    kinds = [_cards(g, "Talisman", kind=k)[0] for k in ("Flower", "Crystal", "Mushroom", "Raven")]
    _give(g, toads[0], "markers#0")     # a Collection marker: 10
    for c in kinds:
        _give(g, c, "trove#1")          # four kinds: 4 cards + 4 kinds + 1
    _give(g, toads[1], "trove#2")
    _give(g, toads[2], "trove#2")       # a pair: 2 cards + 1 kind + 2
    assert g.values() == [10, 9, 5]


def test_toil_and_troublez_prefers_talismans_and_a_small_forest():
    g = _game("toil_and_troublez")
    talisman, magician = _cards(g, "Talisman")[0], _cards(g, "Magician")[0]
    assert _rates(g, "Take which card?", [g.cards[magician], g.cards[talisman]]) == [0, 1]
    assert _rates(g, "Draw another card?", [True, False]) == [1, 0]  # an empty forest


def test_stonehenge_values_points_then_resources():
    g = _game("stonehenge_wizards")
    before = g.values()
    assert before[0] == before[1]
    g.state.pstats[0]["tome"] += 2      # half a VP each
    assert g.values()[0] == before[0] + 10
    g.state.pstats[1]["vp"] += 2        # a VP beats a resource
    assert g.values()[1] > g.values()[0]
    g.state.pstats[1]["skulls"] += 3
    assert g.values()[1] < g.values()[0]


def test_stonehenge_buys_the_best_card_and_acts_before_ending():
    g = _game("stonehenge_wizards")
    cheap = next(c for c in _cards(g, "Spell") if g.cards[c].fields["points"] == 1)
    rich = next(c for c in _cards(g, "Spell") if g.cards[c].fields["points"] >= 3)
    low, high = _rates(g, "Buy which card?", [g.cards[cheap], g.cards[rich]])
    assert low < high
    assert _rates(g, "Choose an action", ["an action", None]) == [1, 0]  # none: "End the turn"


def test_magical_treehouse_values_plans_and_levels():
    g = _game("magical_treehouse", 3)
    assert len(set(g.values())) == 1    # nothing built or planned yet
    for c in list(g.state.zones["hand#0"])[:2]:
        _give(g, c, "planning#0")
    values = g.values()
    assert values[0] == values[1] + 1 == values[2] + 1


def test_magical_treehouse_builds_up_before_moving_houses():
    g = _game("magical_treehouse", 3)
    ways = _rates(g, "Where does the card go?", ["a face-down treehouse", "Storage", "a new treehouse"])
    assert ways == sorted(ways) and len(set(ways)) == 3
    assert _rates(g, "Play which card?", ["Move a treehouse", g.cards[_cards(g, "Pipe")[0]]]) == [0, 1]
    first = _cards(g, "Treehouse", level=1)[0]
    high = _cards(g, "Treehouse", level=4)[0]   # nothing to raise in an empty Village
    assert _rates(g, "Your action", ["Drop out", g.cards[high], g.cards[first]]) == [0, 1, 2]


def test_enchanters_values_glory_and_strength():
    for name in ("enchanters", "enchanters_overlords"):  # Overlords inherits the guidance
        g = _game(name)
        base = g.values()
        assert base[0] == base[1]
        axe = next(c for c in _cards(g, "Item") if g.cards[c].fields["glory"] >= 1 and g.cards[c].fields["attack"] >= 1)
        f = g.cards[axe].fields
        _give(g, axe, "items#0")
        assert g.values()[0] == base[0] + 3 * f["glory"] + 2 * f["attack"] + f["defense"]
        g.state.pstats[1]["wounds"] = 2     # a wound costs a glory point
        assert g.values()[1] == base[1] - 6
        plain = next(c for c in _cards(g, "Item") if g.cards[c].fields["glory"] == 0 and g.cards[c].fields["attack"] == 0)
        assert _rates(g, "Journey to which card?", [g.cards[plain], g.cards[axe]])[0] < \
            _rates(g, "Journey to which card?", [g.cards[plain], g.cards[axe]])[1]
        brute = next(c for c in _cards(g, "Monster") if g.cards[c].fields["strength"] > sum(
            g.cards[c].fields[k] for k in ("glory", "attack", "defense")))
        f = g.cards[brute].fields
        blow = f["strength"] * (2 if f["double_damage"] else 1)  # no defense yet
        assert _rates(g, "Journey to which card?", [g.cards[plain], g.cards[brute]]) == \
            [0, f["glory"] + f["attack"] + f["defense"] - blow]  # its blow outweighs its gains


def test_enchanters_values_what_lasts_and_rates_a_blow_through_defense():
    """An artifact's broken attack and defense count against it (a Trap: -2 - 1); a monster's blow
    is what its strength passes the hero's defense by (none where the defense holds it)."""
    g = _game("enchanters")
    base = g.values()
    trap = next(c for c in _cards(g, "Item") if g.cards[c].name == "Trap")  # broken attack 1, defense 1
    _give(g, trap, "items#0")
    assert g.values()[0] == base[0] - 2 * 1 - 1
    shield = next(c for c in _cards(g, "Item") if g.cards[c].name == "Scale Shield")
    _give(g, shield, "items#1")         # defense 2, its broken attack 1
    assert g.values()[1] == base[1] + 3 * 1 + 2 * (0 - 1) + 2

    def rate(m: int) -> float:
        return _rates(g, "Journey to which card?", [g.cards[m]], seat=1)[0]

    monsters = [c for c in _cards(g, "Monster") if not g.cards[c].fields["double_damage"]]
    strong = next(c for c in monsters if g.cards[c].fields["strength"] >= 4)
    weak = next(c for c in monsters if g.cards[c].fields["strength"] <= 2)
    for m, blow in ((strong, g.cards[strong].fields["strength"] - 2), (weak, 0)):
        f = g.cards[m].fields
        assert rate(m) == f["glory"] + f["attack"] + f["defense"] - blow


def test_stonehenge_values_a_card_s_points_as_ten_of_a_resource():
    """Points on a wizard's spells and challenges count as VP, ten tenths each."""
    g = _game("stonehenge_wizards")
    before = g.values()
    spell = next(c for c in _cards(g, "Spell") if g.cards[c].fields["points"] >= 2)
    challenge = next(c for c in _cards(g, "Challenge") if g.cards[c].fields["points"] >= 1)
    _give(g, spell, "spells#0")
    _give(g, challenge, "challenges#1")
    assert g.values() == [before[0] + 10 * g.cards[spell].fields["points"],
                          before[1] + 10 * g.cards[challenge].fields["points"]]
    g.state.pstats[1]["vp"] += 2
    assert g.values()[1] == before[1] + 10 * g.cards[challenge].fields["points"] + 20


def test_copyable_direct_code_values_positions_as_the_task_engine_does():
    """Search agents copy the game, so they run on resumable direct code when the ruleset compiles
    that way: its `values()` (the `value` rule compiled to Python) gives the task engine's numbers
    along the first 60 decisions of a game."""
    for name, players in [("toil_and_troublez", 3), ("enchanters_overlords", 2)]:  # a base's rule, a mod's
        program = load_program(RULESETS / name)
        a, b = new_game(program, players, 5), ResumableGame(compile_direct(program), players, 5)
        rng, seen = random.Random(1), set()
        while not a.over and len(a.choices) < 60:
            if len(a.choices) % 5 == 0:
                assert a.values() == b.values(), name
                seen.add(tuple(a.values()))
            i = rng.randrange(len(a.decision.options))
            a.answer(i)
            b.answer(i)
        assert len(seen) > 1, name  # the values moved as the game went on


def _first_action_decision(name: str) -> Any:
    """A 2-player game of `name` at its first "Choose an action" (setup answered by first options)."""
    g = _game(name)
    while g.decision.prompt != "Choose an action":
        g.answer(0)
    return g


def test_enchanters_journeys_before_resting_and_heals_when_wounded():
    """`prefer ... for action`: a journey (5) before a Rest (2; a healing one 1 unwounded, 3
    wounded), a paid minor action 0, ending the turn before the major action last (-1)."""
    g = _first_action_decision("enchanters")
    rates = dict(zip(g.decision.labels, g.preferences(g.decision)))
    heal = next(k for k in rates if k.startswith("Rest: heal"))
    crystals = next(k for k in rates if k.startswith("Rest: take"))
    paid = next(k for k in rates if k.startswith("Pay"))
    assert (rates["Journey"], rates[crystals], rates[heal], rates[paid], rates["End the turn"]) == (5, 2, 1, 0, -1)
    g.state.pstats[0]["wounds"] = 1
    assert dict(zip(g.decision.labels, g.preferences(g.decision)))[heal] == 3


def test_enchanters_passes_the_window_before_a_card_resolves():
    """The window of actions before a journey's card resolves (EN-400): "Go on" (1) above a paid
    minor action (0). Reached by a seeded game's random answers."""
    g, rng = _game("enchanters"), random.Random(3)
    while "Go on" not in g.decision.labels:
        g.answer(rng.randrange(len(g.decision.options)))
    rates = dict(zip(g.decision.labels, g.preferences(g.decision)))
    assert rates.pop("Go on") == 1 and set(rates.values()) == {0}


def test_overlords_challenges_only_when_the_attack_defeats_the_overlord():
    """The Overlord card's Challenge: -10 while the hero's attack is below its health; once the
    attack reaches it, 10 less the wounds of its first strike. The base's rules stay (a mod's rule
    replaces only its base's rule for the same option)."""
    g = _first_action_decision("enchanters_overlords")
    d = g.decision
    [i] = [i for i, k in enumerate(d.labels) if k.startswith("Challenge")]
    lord = d.options[i][4]
    assert g.preferences(d)[i] == -10 and g.preferences(d)[d.labels.index("Journey")] == 5
    g.state.pstats[0]["bonus_attack"] = lord.fields["health"]            # attack enough to win
    won = g.preferences(d)[i]
    assert 10 - lord.fields["strength"] <= won <= 10                     # its strike, less the defense
    g.state.pstats[0]["bonus_defense"] = 1                                # a wound fewer
    assert g.preferences(d)[i] == won + 1



def test_magical_treehouse_places_a_familiar_when_it_may():
    """MT-170..MT-172: a Familiar in the Magic Forest gathers an Ingredient (Potions, Objectives),
    so a bot places one whenever the rules let it: "yes" is rated above "no"."""
    g = _game("magical_treehouse", 3)
    yes, no = _rates(g, "Place a Familiar in the Magic Forest?", [True, False])
    assert yes > no


def test_overlords_challenge_won_at_exactly_its_health_and_unharmed_behind_its_strength():
    """EN-121: an attack equal to the Overlord's health defeats it, so that Challenge is rated as
    won; a defense of at least its strength takes no wound of its first strike (EN-417, EN-112):
    rated 10, the most. The hero's starting cards are taken away, so his attack and defense are
    his bonuses."""
    g = _first_action_decision("enchanters_overlords")
    for zone in ("items#0", "enchantments#0"):
        for c in list(g.state.zones.get(zone, [])):
            _give(g, c, "box")
    g.arranged()
    d = g.decision
    [i] = [i for i, k in enumerate(d.labels) if k.startswith("Challenge")]
    lord = d.options[i][4]
    health, strength = lord.fields["health"], lord.fields["strength"]
    assert strength > 0
    g.state.pstats[0]["bonus_attack"] = health - 1
    assert g.preferences(d)[i] == -10                                     # one short: lost
    g.state.pstats[0]["bonus_attack"] = health
    assert g.preferences(d)[i] == 10 - strength                           # won, the whole strike taken
    g.state.pstats[0]["bonus_defense"] = strength
    assert g.preferences(d)[i] == 10
    g.state.pstats[0]["bonus_defense"] = strength + 3
    assert g.preferences(d)[i] == 10
