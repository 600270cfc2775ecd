"""Toil and Troublez: the rules that are about components, setup and what players may see.

Rule IDs refer to the rule inventory (../shared/rules/toil_and_troublez.md). Everything about
play is tested by the scenarios in tests/scenarios/toil_and_troublez/ (see docs/scenarios.md);
these tests cover what a scenario cannot state: the deck's make-up, the state right after setup,
the random start player and the per-viewer visibility of zones and cloaked cards.
"""
from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from interpreter.play.agents import make_agent
from interpreter.api import load_program
from interpreter.runtime.zones import cover, take_out
from interpreter.engine.factory import new_game
from interpreter.engine.game import Decision

ROOT = Path(__file__).resolve().parents[2]
RULESET = ROOT / "rulesets" / "toil_and_troublez"
SCENARIOS = ROOT / "tests" / "scenarios" / "toil_and_troublez"
KINDS = ["Toad", "Flower", "Crystal", "Mushroom", "Raven"]
COLOURS = {"Sun", "Moon", "Star"}


@pytest.fixture(scope="module")
def program():
    return load_program(RULESET)


def _cards(program, type_):
    return [c for c in program.rs.cards if c.type == type_]


def test_sixty_talismans_of_five_kinds(program):
    """TT-001, TT-002: 60 Talisman cards, of the five kinds Toad, Flower, Crystal, Mushroom,
    Raven (12 of each, as the card files assume)."""
    talismans = _cards(program, "Talisman")
    assert len(talismans) == 60
    assert Counter(c.fields["kind"] for c in talismans) == {k: 12 for k in KINDS}


def test_talismans_carry_number_and_colour(program):
    """TT-003 (ambiguous): every Talisman has a number and a colour; this deck gives each kind its
    own number (Toad 1 … Raven 5) and four copies of each kind in each of the three colours."""
    talismans = _cards(program, "Talisman")
    for c in talismans:
        assert isinstance(c.fields["number"], int) and c.fields["color"] in COLOURS
    number_of = {k: {c.fields["number"] for c in talismans if c.fields["kind"] == k} for k in KINDS}
    assert number_of == {k: {i + 1} for i, k in enumerate(KINDS)}
    assert set(Counter((c.fields["kind"], c.fields["color"]) for c in talismans).values()) == {4}


def test_twenty_three_master_magicians_of_four_kinds(program):
    """TT-004, TT-005 (ambiguous split): 23 Master Magicians — Vanish, Summon, Poison, Cloak —
    assumed 6 Vanish, 6 Summon, 5 Poison, 6 Cloak; only Vanish, Summon and Poison carry an
    action when picked up (TT-063)."""
    magicians = _cards(program, "Magician")
    assert len(magicians) == 23
    assert Counter(c.fields["spell"] for c in magicians) == {"Vanish": 6, "Summon": 6, "Poison": 5, "Cloak": 6}
    for c in magicians:
        assert (c.effect is not None) == (c.fields["spell"] != "Cloak"), c


def test_three_colours(program):
    """TT-006: three background colours, one per symbol (Sun, Moon, Star); the colour rule
    compares this one field, so symbol and colour can never disagree."""
    assert {c.fields["color"] for c in program.rs.cards} == COLOURS


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_two_to_six_players(program, players):
    """TT-010 (ambiguous): the game is for 2 to 6 players: at each count a whole game is played
    to its end, every player takes turns and gets a score, and one of them wins."""
    game = new_game(program, players, seed=0)
    assert game.error is None and game.decision is not None, game.error
    assert game.decision.player == game.state.active  # the start player is asked first
    agents = [make_agent("random", f"0/{p}") for p in range(players)]
    asked = set()
    while not game.over:
        asked.add(game.decision.player)
        game.answer(agents[game.decision.player].choose(game, game.decision))
    assert game.error is None, game.error
    assert asked == set(range(players))
    result = game.result
    assert len(result["scores"]) == players and all(isinstance(s, int) for s in result["scores"])
    assert result["winners"] and set(result["winners"]) <= set(range(players))
    assert result["turns"] >= players


@pytest.mark.parametrize("players", [1, 7])
def test_other_player_counts_are_refused(program, players):
    """TT-010: 1 or 7 players cannot play."""
    with pytest.raises(ValueError, match="2 to 6"):
        new_game(program, players, seed=0)


def _after_setup(program, players, seed):
    """The state right after the rules' setup, before the first turn."""
    seen = {}

    def snap(g):
        st = g.state
        seen["zones"] = {k: (sum(len(r) for r in v) if k == "forest" else len(v)) for k, v in st.zones.items()}
        seen["pile"] = list(st.zones["draw_pile"])
        seen["start"] = st.start_player
    game = new_game(program, players, seed=seed, after_setup=snap)
    assert game.error is None and game.decision is not None and seen, game.error
    return game, seen


@pytest.mark.parametrize("players", [2, 4, 6])
def test_setup_one_shuffled_draw_pile_nothing_dealt(program, players):
    """TT-011, TT-013, TT-014: all 83 cards are shuffled into one draw pile; the discard pile,
    the Enchanted Forest, every Trove and every marker pile start empty (nothing is dealt)."""
    _, seen = _after_setup(program, players, seed=3)
    zones = seen["zones"]
    assert zones["draw_pile"] == 83
    assert zones["discard"] == 0 and zones["forest"] == 0
    for p in range(players):
        assert zones[f"trove#{p}"] == 0 and zones[f"markers#{p}"] == 0
    # shuffled: not in card-file order, and different with another seed
    assert seen["pile"] != sorted(seen["pile"])
    assert seen["pile"] != _after_setup(program, players, seed=4)[1]["pile"]


def test_draw_pile_is_face_down(program):
    """TT-012: the draw pile lies face down: no player (nor a spectator) sees its cards, only
    how many there are."""
    game = new_game(program, 3, seed=1)
    assert game.error is None and game.decision is not None, game.error
    pile = len(game.state.zones["draw_pile"])
    assert 70 < pile < 83  # the start player has drawn a card or few (TT-011: 83 in all)
    for seat in (0, 1, 2, None):
        assert game.view(seat)["draw_pile"] == pile  # a count, never the cards


def test_discard_pile_and_drawn_card_are_face_up(program):
    """The rulebook hides only the draw pile ("Place it face down") and what lies under a Cloak:
    a card just drawn is placed face up into the Forest, and cards are discarded from the
    Forest, face up. Every player and a spectator see both (the ruleset's reading)."""
    game = new_game(program, 3, seed=1)
    assert game.state.zones["drawn"] or game.state.zones["forest"]  # the first card is out
    for seat in (0, 1, 2, None):
        view = game.view(seat)
        assert isinstance(view["discard"], list) and isinstance(view["drawn"], list)


def test_start_player_is_any_player(program):
    """TT-015: "the person who last ate mushrooms" starts — any player may; modelled as a
    random start player. Over many seeds every seat starts some game, and the first turn is
    the start player's."""
    starts = set()
    for seed in range(40):
        game, seen = _after_setup(program, 4, seed)
        starts.add(seen["start"])
        # turns go clockwise from the start player (a Cloak drawn first into an empty Forest
        # ends the first turn at once, so the game may already be at a later turn)
        assert game.state.active == (seen["start"] + game.state.turn_number - 1) % 4
    assert starts == {0, 1, 2, 3}


def _game_with(program, forest_rows, trove0=(), markers0=(), cloak_on=None):
    """A 2-player game whose state is arranged by card names (first free copy of each)."""
    used: set[int] = set()

    def card(name, **fields):
        for c in program.rs.cards:
            if c.id not in used and c.name == name and all(c.fields.get(k) == v for k, v in fields.items()):
                used.add(c.id)
                return c.id
        raise LookupError(name)

    def arrange(g):
        st, rz = g.state, g.program.rows_zones
        ids = {}
        for row in forest_rows:
            st.zones["forest"].append([])
            for name, color in row:
                cid = card(name, color=color)
                take_out(st, cid, rz)
                st.zones["forest"][-1].append(cid)
                st.where[cid] = "forest"
                ids[(name, color)] = cid
        for zone, cards in (("trove#0", trove0), ("markers#0", markers0)):
            for name, color in cards:
                cid = card(name, color=color)
                take_out(st, cid, rz)
                st.zones[zone].append(cid)
                st.where[cid] = zone
        if cloak_on is not None:
            cid = card("Cloak", color="Sun")
            take_out(st, cid, rz)
            cover(st, cid, ids[cloak_on], rz)
        st.start_player = 0
    return new_game(program, 2, seed=1, after_setup=arrange)


def test_trove_face_up_markers_face_down(program):
    """TT-054, TT-059: a Trove's Talismans lie face up (everyone sees them); Collection markers
    lie face down (nobody sees what they are, only how many)."""
    game = _game_with(program, [[("Raven", "Moon")]], trove0=[("Toad", "Sun"), ("Flower", "Moon")],
                      markers0=[("Crystal", "Star")])
    for seat in (0, 1, None):
        view = game.view(seat)
        assert sorted(view["trove of player 1"]) == ["Flower (Flower, 2, Moon)", "Toad (Toad, 1, Sun)"]
        assert view["markers of player 1"] == 1


def test_nobody_sees_under_a_cloak(program):
    """TT-076: once a Cloak covers a Talisman, no player may look at it — every view shows the
    Cloak and that something lies under it, never which Talisman."""
    game = _game_with(program, [[("Crystal", "Sun"), ("Raven", "Moon")]], cloak_on=("Raven", "Moon"))
    for seat in (0, 1, None):
        row = game.view(seat)["forest"][0]
        assert row[0].startswith("Crystal")
        assert row[1].startswith("Cloak") and "hidden" in row[1] and "Raven" not in row[1]


def test_every_rule_is_covered():
    """Every rule of the inventory named in the game's `source` line (TT-001..TT-092) is cited by
    a scenario's `covers:` list or by a docstring in this file (see docs/scenarios.md)."""
    source = (RULESET / "game.rules").read_text(encoding="utf-8")
    first, last = map(int, re.search(r"TT-(\d+)\.\.TT-(\d+)", source).groups())
    cited: set[str] = set()
    for f in SCENARIOS.glob("*.yaml"):
        cited.update(YAML(typ="safe").load(f.read_text(encoding="utf-8")).get("covers", []))
    for test in [v for k, v in globals().items() if k.startswith("test_") and k != "test_every_rule_is_covered"]:
        cited.update(re.findall(r"TT-\d{3}", test.__doc__ or ""))
    missing = [f"TT-{i:03d}" for i in range(first, last + 1) if f"TT-{i:03d}" not in cited]
    assert not missing, f"rules no scenario or test covers: {missing}"
    unknown = sorted(r for r in cited if not first <= int(r[3:]) <= last)
    assert not unknown, f"covers: unknown rule IDs {unknown}"


# ---- the bots' guidance (guidance.rules): not a rule, but the mutation tool runs this file on
# its mutants (tests/games/test_guidance.py holds the shipped rulesets' other guidance tests)

def _rates(game, seat, prompt, options):
    """Seat's preference for each option of a decision with this prompt (a row is offered as the
    list of its cards' ids, as the generated code offers it)."""
    return game.preferences(Decision(seat, "choose", prompt, options, None, None, game.label))


def test_guidance_values_markers_cards_kinds_and_the_largest_set(program):
    """`value`: 10 a Collection marker, 1 a Trove card, 1 a kind held, 1 each card of the largest
    set of one kind (only the Trove's Talismans count for the kinds and the set; a seat with
    nothing is worth 0)."""
    game = _game_with(program, [[("Raven", "Moon")]],
                      trove0=[("Toad", "Sun"), ("Toad", "Moon"), ("Flower", "Star"), ("Crystal", "Sun")],
                      markers0=[("Crystal", "Star")])
    assert game.values() == [10 + 4 + 3 + 2, 0]


def test_guidance_takes_the_row_with_most_talismans_and_fewest_poisons(program):
    """"Take which row?": a row is worth its Talismans, those under its Cloaks too, less its
    Poisons (other Magicians count nothing)."""
    game = _game_with(program, [[("Toad", "Sun"), ("Flower", "Moon")], [("Poison", "Sun"), ("Crystal", "Star")],
                                [("Summon", "Star")]], cloak_on=("Flower", "Moon"))
    rows = [list(r) for r in game.state.zones["forest"]]
    assert len(rows[0]) == 2            # the Cloak lies on the Flower, in its place
    assert _rates(game, 0, "Take which row?", rows) == [2, 0, 0]
    # "Take which card?" (step 4): a Talisman (1) before a Magician (0)
    assert _rates(game, 0, "Take which card?", [rows[2][0], rows[1][1]]) == [0, 1]


def test_guidance_draws_again_only_while_the_forest_holds_fewer_than_four_cards(program):
    """"Draw another card?": yes with three cards in the Forest, no with four."""
    three = _game_with(program, [[("Toad", "Sun"), ("Flower", "Moon")], [("Crystal", "Star")]])
    assert _rates(three, 0, "Draw another card?", [True, False]) == [1, 0]
    four = _game_with(program, [[("Toad", "Sun"), ("Flower", "Moon")], [("Crystal", "Star"), ("Raven", "Sun")]])
    assert _rates(four, 0, "Draw another card?", [True, False]) == [0, 1]
