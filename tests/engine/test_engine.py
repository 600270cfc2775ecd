"""The runtime below the language: card movement (zones.py), the decision interface, views,
state digests, agents and batch simulation."""
from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from interpreter.play.agents import FirstAgent, RandomAgent, make_agent
from interpreter.api import load_program
from interpreter.runtime.state import GameState
from interpreter.runtime.values import Position
from interpreter.runtime.zones import cover, put, take_out
from interpreter.engine.factory import new_game

ROOT = Path(__file__).resolve().parents[2]
RULESET = ROOT / "rulesets" / "toil_and_troublez"
ROWS = frozenset({"board"})


def state_with(**zones) -> GameState:
    st = GameState(seed=0, players=2)
    for key, content in zones.items():
        st.zones[key] = content
        for item in content:
            for cid in (item if isinstance(item, list) else [item]):
                st.where[cid] = key
    return st


def assert_consistent(st: GameState) -> None:
    places = {}
    for key, z in st.zones.items():
        for item in z:
            for cid in (item if isinstance(item, list) else [item]):
                assert cid not in places
                places[cid] = key
    for top, below in st.under.items():
        assert below and top in places
        for cid in below:
            assert cid not in places
            places[cid] = f"^{top}"
    assert places == st.where


# ---- zones.py -----------------------------------------------------------------------------

def test_cover_in_a_row_and_surface_in_place():
    st = state_with(board=[[1, 2, 3]], pile=[9])
    take_out(st, 9, ROWS)
    cover(st, 9, 2, ROWS)  # 9 lies on 2, in 2's place
    assert st.zones["board"] == [[1, 9, 3]] and st.under == {9: [2]} and st.where[2] == "^9"
    assert_consistent(st)
    take_out(st, 9, ROWS)  # the top card leaves: 2 comes back where it was
    put(st, 9, "pile", False)
    assert st.zones["board"] == [[1, 2, 3]] and st.under == {}
    assert_consistent(st)


def test_stack_of_three_and_taking_from_the_middle():
    st = state_with(pile=[1, 2, 3], other=[])
    take_out(st, 2, ROWS)
    cover(st, 2, 1, ROWS)
    take_out(st, 3, ROWS)
    cover(st, 3, 2, ROWS)  # 3 on 2 on 1: under lists bottom first
    assert st.zones["pile"] == [3] and st.under == {3: [1, 2]}
    assert_consistent(st)
    take_out(st, 2, ROWS)  # from the middle: the stack above stays
    put(st, 2, "other", False)
    assert st.under == {3: [1]} and st.where[1] == "^3"
    assert_consistent(st)
    take_out(st, 3, ROWS)
    put(st, 3, "other", False, bottom=True)
    assert st.zones["pile"] == [1] and st.zones["other"] == [3, 2] and st.under == {}
    assert_consistent(st)


def test_covering_card_carries_nothing_and_rows_close_up():
    st = state_with(board=[[1], [2, 3]], pile=[4])
    take_out(st, 4, ROWS)
    cover(st, 4, 1, ROWS)
    take_out(st, 3, ROWS)
    put(st, 3, "pile", False)
    take_out(st, 2, ROWS)  # row 2 empties and disappears
    put(st, 2, "pile", False)
    assert st.zones["board"] == [[4]]
    take_out(st, 1, ROWS)  # the covered card leaves from under: the Cloak stays alone
    put(st, 1, "board", True, Position(None, "new"))
    assert st.zones["board"] == [[4], [1]] and st.under == {}
    assert_consistent(st)


# ---- the decision interface ---------------------------------------------------------------

def tiny(tmp_path: Path, rules: str, cards: str | None = None):
    d = tmp_path / "rs"
    d.mkdir(parents=True, exist_ok=True)
    (d / "game.rules").write_text('game "E":\n    players 2..4\n' + textwrap.dedent(rules))
    if cards:
        (d / "cards").mkdir(exist_ok=True)
        (d / "cards" / "c.yaml").write_text(textwrap.dedent(cards))
    return load_program(d)


def test_answer_checks_its_index(tmp_path):
    p = tiny(tmp_path, """
        turn:
            you choose x from [1, 2, 3] "x?"
            end game
        """)
    g = new_game(p, 2, 0)
    before = g.state.digest()
    for bad in (-1, 3):
        with pytest.raises(ValueError):
            g.answer(bad)
    assert g.state.digest() == before and g.decision is not None and g.choices == []
    g.answer(2)
    assert g.over and g.decision is None
    with pytest.raises(ValueError):
        g.answer(0)
    assert json.dumps(g.result)


def test_wrong_player_count_is_refused(tmp_path):
    p = tiny(tmp_path, """
        turn:
            end game
        """)
    with pytest.raises(ValueError, match="2 to 4 players"):
        new_game(p, 5, 0)


def test_decision_to_json(tmp_path):
    p = tiny(tmp_path, """
        turn:
            if you may "Go?":
                end game
        """)
    d = new_game(p, 2, 0).decision
    j = d.to_json()
    assert j["player"] == d.player + 1 == 1 and j["kind"] == "may" and j["options"] == ["yes", "no"]
    assert "game.rules:5:" in j["rule"]


HIDDEN = """
    card type Tok:
        value: 1..9
    zone deck: pile, shared, hidden
    zone hand: set, per player, owner
    zone table: pile, shared, public
    stat last = 0
    setup:
        move all_cards() to deck
    turn:
        draw 2 from deck to your hand
        draw from deck to table as c
        set last to [c, first(your hand)]
        place top(deck) on c
        you choose x from [1, 2] "wait"
        end game
    """
HIDDEN_CARDS = "".join(f"- {{name: T{v}, type: Tok, value: {v}}}\n" for v in range(1, 7))


def test_view_shows_only_what_a_seat_may_see(tmp_path):
    p = tiny(tmp_path, HIDDEN, HIDDEN_CARDS)
    g = new_game(p, 2, 0)
    assert g.decision.prompt == "wait"
    mine, theirs, nobody = g.view(0), g.view(1), g.view(None)
    assert mine["deck"] == theirs["deck"] == 2  # hidden: a size only
    assert mine["hand of player 1"] == ["T6 (6)", "T5 (5)"] and theirs["hand of player 1"] == 2
    assert nobody["hand of player 1"] == 2
    assert mine["table"] == ["T3 (3) (on 1 hidden)"]  # the T4 under it stays hidden
    # stats may hold cards: a card the seat may not see shows as `?`
    assert mine["stats"]["last"] == ["?", "T6 (6)"] and theirs["stats"]["last"] == ["?", "?"]
    for v in (mine, theirs, nobody):
        assert json.dumps(v) and "T4" not in json.dumps(v) and "T1" not in json.dumps(v)


def test_digest_tracks_state_and_to_json_is_plain(tmp_path):
    p = tiny(tmp_path, HIDDEN, HIDDEN_CARDS)
    g = new_game(p, 2, 0)
    data = g.state.to_json()
    assert json.loads(json.dumps(data)) == data  # stats holding cards become plain data
    d1 = g.state.digest()
    clone = g.state.clone()
    assert clone.digest() == d1
    clone.zones["deck"].reverse()
    assert clone.digest() != d1 and g.state.digest() == d1


# ---- agents -------------------------------------------------------------------------------

def test_agents(tmp_path):
    p = tiny(tmp_path, """
        turn:
            you choose x from [1, 2, 3, 4, 5, 6, 7, 8] "x?"
            log x
            if turn_number == 20:
                end game
        """)

    def play(agent):
        g = new_game(p, 2, 0)
        while not g.over:
            g.answer(agent.choose(g, g.decision))
        return g.log

    assert play(RandomAgent(3)) == play(RandomAgent(3)) != play(RandomAgent(4))
    assert play(FirstAgent()) == ["1"] * 20
    assert isinstance(make_agent("random", 1), RandomAgent)
    with pytest.raises(ValueError, match="unknown agent"):
        make_agent("genius", 1)


# ---- simulation ---------------------------------------------------------------------------

def test_simulate_in_process_matches_across_workers_and_chunks():
    from interpreter.sim.simulate import simulate
    a = simulate(str(RULESET), 6, 2, 9, ["random"])
    b = simulate(str(RULESET), 6, 2, 9, ["random", "first"])
    c = simulate(str(RULESET), 6, 2, 9, ["random"], workers=1)
    for r in (a, b, c):
        r.pop("timing")
    assert a == c and a["completed"] == 6 and not a["errors"]
    assert a["seats"] != b["seats"]
    assert sum(s["wins"] for s in a["seats"]) == pytest.approx(6)


def test_game_seed_depends_on_master_and_index_only():
    from interpreter.play.session import game_seed
    assert game_seed(1, 5) == game_seed(1, 5) != game_seed(1, 6) != game_seed(2, 5)
