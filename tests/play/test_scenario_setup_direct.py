"""A scenario's `setup:` arranges the game itself, through its runtime.

Each scenario's
`expect:` then checks that the state is what its setup said: zones (piles top first, rows,
grid spaces), stats (a player's, a card held in a stat, the game's own), cards on board spaces,
and the start player; a setup placed wrongly, or a check that reads the wrong thing, fails.
"""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from interpreter.play import scenario
from interpreter.play.scenario import run_scenario
from rulekit import BOARD_WORLD, board_cards, ruleset

RULESETS = Path(__file__).resolve().parents[2] / "rulesets"


@pytest.fixture
def seen(monkeypatch: pytest.MonkeyPatch) -> list:
    """The games the scenarios checked are collected."""
    games: list = []
    check = scenario._check

    def spy(game, *args, **kwargs):  # the game each final `expect:` looks at
        games.append(game)
        return check(game, *args, **kwargs)

    monkeypatch.setattr(scenario, "_check", spy)
    return games


def _run(tmp_path: Path, shipped: str, body: str) -> scenario.ScenarioResult:
    """Run the scenario `body` (YAML) on the shipped ruleset `shipped`."""
    f = tmp_path / "s.yaml"
    f.write_text(f"name: t\nruleset: {RULESETS / shipped}\n" + textwrap.dedent(body), encoding="utf-8")
    return run_scenario(f)


TOIL = """
    players: 3
    seed: 1
    setup:
      start_player: 2
      zones:
        forest: [["Flower:Moon", "Toad:Sun"], ["Crystal:Star"]]
        draw_pile: ["Raven:Moon", "Toad:Moon"]
        discard: ["Flower:Sun"]
        "trove of 3": ["Crystal:Moon"]
      stats: {depletions: 2}
    expect:                                 # player 2 has drawn the pile's top card
      zones:
        forest: [["Flower:Moon", "Toad:Sun"], ["Crystal:Star"]]
        drawn: ["Raven:Moon"]
        draw_pile: ["Toad:Moon"]
        discard: ["Flower:Sun"]
        "trove of 3": ["Crystal:Moon"]
      count: {"trove of 1": 0}
      decision: {player: 2, prompt: "Where does Raven"}
"""


def test_rows_piles_and_a_stat_are_arranged_on_direct_code(tmp_path: Path, seen: list) -> None:
    res = _run(tmp_path, "toil_and_troublez", TOIL)
    assert res.passed, res.format()
    game = seen[-1]
    assert game.state.stats["depletions"] == 2
    assert game.state.start_player == 1
    # what a seat sees is made from that state (views.py): hidden zones by their size only
    view = game.view(0)
    assert view["forest"] == [["Flower (Flower, 2, Moon)", "Toad (Toad, 1, Sun)"], ["Crystal (Crystal, 3, Star)"]]
    assert view["drawn"] == ["Raven (Raven, 5, Moon)"] and view["draw_pile"] == 1
    assert view["trove of player 3"] == ["Crystal (Crystal, 3, Moon)"] and view["markers of player 1"] == 0
    assert view["stats"] == {"depletions": 2}


def test_a_wrong_arrangement_fails(tmp_path: Path, seen: list) -> None:
    swapped = TOIL.replace('draw_pile: ["Raven:Moon", "Toad:Moon"]', 'draw_pile: ["Toad:Moon", "Raven:Moon"]')
    assert swapped != TOIL
    res = _run(tmp_path, "toil_and_troublez", swapped)
    assert not res.passed
    assert "zone drawn: expected ['Raven:Moon'], got ['Toad:1:Moon']" in res.failures, res.failures


MAGICAL = """
    players: 3
    seed: 1
    setup:
      zones:
        forest: ["Owl familiar at 2,2", "Owl familiar", "Owl familiar at 9,6"]
        "village of 1": [["Yellow 1", "Yellow 2"], ["Pipe", "Red 1"]]
      stats: {"dropped of 2": 3}
    choices: ["Day side"]
    expect:
      zones:
        "village of 1": [["Yellow 1", "Yellow 2"], ["Pipe", "Red 1"]]
      count: {forest: 3}
      stats: {"dropped of 2": 3}
"""


def test_grid_spaces_are_arranged_on_direct_code(tmp_path: Path, seen: list) -> None:
    res = _run(tmp_path, "magical_treehouse", MAGICAL)
    assert res.passed, res.format()
    game = seen[-1]
    st = game.state
    # `at X,Y` from 1 is space (Y-1)*9 + X-1 of the 9 x 6 grid; without `at`, the first empty one
    assert sorted(st.spaces[c] for c in st.zones["forest"]) == [0, 10, 53]


@pytest.mark.parametrize("place, message", [("at 10,1", "forest has no space 10,1 (it is 9 x 6)"),
                                            ("at 2,2", "space 2,2 is taken")])
def test_a_grid_space_that_cannot_be_had_is_the_setup_s_fault(tmp_path: Path, seen: list, place: str,
                                                             message: str) -> None:
    res = _run(tmp_path, "magical_treehouse", MAGICAL.replace('"Owl familiar at 9,6"', f'"Owl familiar {place}"'))
    assert not res.passed
    assert any(message in f for f in res.failures), res.failures


# a tiny board (rulekit.BOARD_WORLD): coins lie on its spaces, a player stat holds a space
BOARD_RULES = """
game "Board setup":
    players 2

player stat at = none
stat laps = 0
""" + BOARD_WORLD + """
setup:
    move all_cards() where it is Land to lands
    move all_cards() where it is Token to bag
    for each p in players:
        set at of p to card_named("D3")       # the scenario puts the players elsewhere

turn:
    you choose c from cards_at(your at) "Take which coin?"
    move c to bag
    end game
"""

BOARD = """
    players: 2
    setup:
      start_player: 2
      on_spaces: {C2: [Coin, Coin], A1: [Coin]}
      stats: {"at of 1": {card: A1}, "at of 2": {card: C2}, laps: 3}
    expect:
      on_spaces: {C2: [Coin, Coin], A1: [Coin]}
      count: {bag: 1, world: 3}
      stats: {"at of 1": A1, "at of 2": C2}
      decision: {player: 2, prompt: "Take which coin?", options: 2}
"""


def _board(tmp_path: Path, body: str) -> scenario.ScenarioResult:
    folder = ruleset(tmp_path, BOARD_RULES, board_cards(4))
    f = tmp_path / "s.yaml"
    f.write_text(f"name: t\nruleset: {folder}\n" + textwrap.dedent(body), encoding="utf-8")
    return run_scenario(f)


def test_cards_on_board_spaces_and_stats_holding_spaces_on_direct_code(tmp_path: Path, seen: list) -> None:
    res = _board(tmp_path, BOARD)
    assert res.passed, res.format()
    game = seen[-1]
    st, cards = game.state, game.cards
    assert sorted(cards[st.spaces[c]].name for c in st.zones["world"]) == ["A1", "C2", "C2"]
    assert st.stats["laps"] == 3 and game.view(None)["stats"]["laps"] == 3


def test_a_card_on_the_wrong_space_fails(tmp_path: Path, seen: list) -> None:
    res = _board(tmp_path, BOARD.replace("{C2: [Coin, Coin], A1: [Coin]}", "{C2: [Coin], A1: [Coin, Coin]}", 1))
    assert not res.passed
    assert "space A1: expected ['Coin'], got ['Coin:Out', 'Coin:Out']" in res.failures, res.failures
    res = _board(tmp_path, BOARD.replace("A1: [Coin]}", "Nowhere: [Coin]}", 1))
    assert not res.passed and any("no board space `Nowhere`" in f for f in res.failures), res.failures
