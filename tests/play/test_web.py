"""`grimoire serve` in-process (Starlette's TestClient): each seat's responses hold only what that
seat may see, refusals are JSON errors that leave the game as it was, and the designer's time
travel, save/load, new seed, bot seats and log download work. The browser test is
test_web_browser.py."""
from __future__ import annotations

import json
import re
import socket
from pathlib import Path

import pytest
from hypothesis import example, HealthCheck, given, settings, strategies as st
from starlette.testclient import TestClient

from interpreter.api import load_program
from interpreter.cli import main as grimoire_main
from interpreter.play import session
from interpreter.play.table import Table, redact
from interpreter.play.web import make_app
from rulekit import ruleset

# two hands nobody else may see, a hidden deck, and a `vault` each where a card goes face down:
# the second decision of a turn names a card that stays hidden from the other seat
RULES = """
    game "Secrets":
        players 2

    card type Tok:
        value: 1..9

    zone deck: pile, shared, hidden
    zone hand: set, per player, owner
    zone vault: set, per player, owner
    zone table: pile, shared, public

    setup:
        move all_cards() to deck
        shuffle deck
        for each p in players:
            draw 3 from deck to hand of p

    turn:
        you choose c from your hand "Play which card?"
        move c to table
        log [you, "plays", c]
        if not (your hand is empty):
            you choose d from your hand "Hide which card?"
            move d to your vault
            log [you, "hides", d]
        if not (deck is empty):
            draw from deck to your hand
        if count(table) >= 4:
            end game

    score p: sum((your vault).value)
    """
NAMES = "Amber Basil Cedar Dahlia Elder Fennel Ginger Hazel Iris".split()
CARDS = "".join(f"- {{name: {n}, type: Tok, value: {i + 1}}}\n" for i, n in enumerate(NAMES))


@pytest.fixture
def table(tmp_path) -> Table:
    path = ruleset(tmp_path, RULES, CARDS)
    return Table(load_program(path), str(path), 2, 0, ["human", "human"], designer=True)


@pytest.fixture
def client(table) -> TestClient:
    return TestClient(make_app(table), raise_server_exceptions=False)


def unseen_by(table: Table, seat: int) -> set[str]:
    """Names of the cards `seat` may not see now: the deck, the other seat's hand and vault."""
    g = table.game
    other = 1 - seat
    ids = list(g.state.zones["deck"]) + list(g.state.zones[f"hand#{other}"]) + list(g.state.zones[f"vault#{other}"])
    return {g.cards[c].name for c in ids}


def held_by(table: Table, seat: int) -> set[str]:
    g = table.game
    return {g.cards[c].name for c in list(g.state.zones[f"hand#{seat}"]) + list(g.state.zones[f"vault#{seat}"])}


def words(text: str) -> set[str]:
    return set(re.findall(r"[A-Za-z]+", text))


def test_each_seat_sees_its_own_hand_and_never_the_other_seats_hidden_cards(table, client):
    tokens = [s.token for s in table.seats]
    checked = 0
    while not table.game.over:
        for seat in (0, 1):
            body = client.get(f"/api/{tokens[seat]}/state").text
            assert not words(body) & unseen_by(table, seat), f"player {seat + 1} was shown a hidden card"
            assert held_by(table, seat) <= words(body), "a seat sees its own hand and vault"
            checked += 1
        d = table.game.decision
        r = client.post(f"/api/{tokens[d.player]}/answer", json={"option": 1, "step": len(table.game.choices)})
        assert r.status_code == 200
        assert not words(r.text) & unseen_by(table, d.player)
    assert checked >= 8 and table.game.result is not None
    # the other seat read every move in the narration, with the hidden cards unnamed
    v = client.get(f"/api/{tokens[1]}/state").json()
    texts = [e["text"] for e in v["narration"]["entries"]]
    assert any("player 1: Hide which card? → a hidden card" in t for t in texts), texts
    assert any(t == "player 1, hides, a hidden card" for t in texts), texts
    assert v["result"]["winners"] and all(w in (1, 2) for w in v["result"]["winners"])  # players from 1


def test_the_seat_that_chose_reads_its_own_answer_whole(table, client):
    g = table.game
    client.post(f"/api/{table.seats[0].token}/answer", json={"option": 1, "step": 0})
    hidden_pick = g.decision.labels[0]  # "Hide which card?": the card stays in player 1's vault
    client.post(f"/api/{table.seats[0].token}/answer", json={"option": 1, "step": 1})
    mine = client.get(f"/api/{table.seats[0].token}/state").json()["narration"]["entries"]
    theirs = client.get(f"/api/{table.seats[1].token}/state").json()["narration"]["entries"]
    assert any(hidden_pick in e["text"] for e in mine)
    assert not any(hidden_pick.split(" ")[0] in e["text"] for e in theirs)


def test_a_seat_asking_for_another_seats_view_is_refused(table, client):
    t1, t2 = (s.token for s in table.seats)
    r = client.get(f"/api/{t1}/view/2")
    assert r.status_code == 403 and r.json() == {"error": "player 1 may not see player 2's view"}
    assert client.get(f"/api/{t1}/state?seat=2").status_code == 403
    assert client.get(f"/api/{t1}/view/1").json()["seat"] == 1
    for bad in ("0", "3", "x", "-1", "%C2%B2", "9" * 40):
        r = client.get(f"/api/{t1}/view/{bad}")
        assert r.status_code == 400 and "seats are numbered 1 to 2" in r.json()["error"]
    # the designer may look through any seat's eyes, and sees exactly that seat's view
    assert client.get(f"/api/{table.designer_token}/view/2").json() == client.get(f"/api/{t2}/state").json()


@pytest.mark.parametrize("body, status, says", [
    ({"option": 0, "step": 0}, 400, "from 1 to 3"),
    ({"option": 4, "step": 0}, 400, "from 1 to 3"),
    ({"option": "1", "step": 0}, 400, "whole number"),
    ({"option": 1.5, "step": 0}, 400, "whole number"),
    ({"option": True, "step": 0}, 400, "whole number"),
    ({"step": 0}, 400, "whole number"),
    ({"option": 1, "step": 5}, 409, "moved on"),
    ({"option": 1}, 409, "moved on"),
    ([1, 2], 400, "JSON object"),
])
def test_bad_answers_get_a_clear_error_and_change_nothing(table, client, body, status, says):
    before = table.game.state.digest(), len(table.game.choices), table.version
    r = client.post(f"/api/{table.seats[0].token}/answer", json=body)
    assert r.status_code == status and says in r.json()["error"]
    assert (table.game.state.digest(), len(table.game.choices), table.version) == before


def test_malformed_requests_unknown_tokens_and_turns_are_refused(table, client):
    t1, t2 = (s.token for s in table.seats)
    before = table.game.state.digest()
    cases = [
        (client.post(f"/api/{t1}/answer", content=b"{not json"), 400, "not valid JSON"),
        (client.post(f"/api/{t1}/answer", content=b"\xff\xfe"), 400, "not valid JSON"),
        (client.post(f"/api/{t2}/answer", json={"option": 1, "step": 0}), 409, "player 1 is choosing"),
        (client.get("/api/nobody/state"), 404, "unknown link"),
        (client.get("/api/%C3%A9t%C3%A9/state"), 404, "unknown link"),
        (client.get(f"/api/{t1}%00/state"), 404, "unknown link"),
        (client.get("/seat/nobody"), 404, "unknown link"),
        (client.post("/api/nobody/answer", json={"option": 1, "step": 0}), 404, "unknown link"),
        (client.get("/api/nobody/events"), 404, "unknown link"),
        (client.post(f"/api/{t1}/back"), 403, "designer"),
        (client.get(f"/api/{t1}/save"), 403, "designer"),
        (client.get(f"/api/{t1}/log"), 403, "designer"),
        (client.post(f"/api/{table.designer_token}/answer", json={"option": 1, "step": 0}), 403, "seat's link"),
        (client.post(f"/api/{table.designer_token}/seat", json={"player": 3, "kind": "bot"}), 400, "1 to 2"),
        (client.post(f"/api/{table.designer_token}/seat", json={"player": 1, "kind": "wizard"}), 400, "one of"),
        (client.post(f"/api/{table.designer_token}/new", json={"seed": "x"}), 400, "whole number"),
        (client.post(f"/api/{table.designer_token}/forward"), 409, "latest step"),
        (client.post(f"/api/{table.designer_token}/load", content=b"junk"), 400, "cannot load this save"),
        (client.get("/no/such/page"), 404, "no such page"),
        (client.delete(f"/api/{t1}/answer"), 405, ""),
    ]
    for r, status, says in cases:
        assert r.status_code == status, (r.request.url, r.text)
        assert r.headers["content-type"].startswith("application/json") and says in r.json()["error"]
        assert "Traceback" not in r.text and "/tmp" not in r.text
    assert table.game.state.digest() == before and table.game.choices == []


def test_pages_and_static_files_are_served_and_name_no_token(table, client):
    page = client.get(f"/seat/{table.seats[0].token}")
    assert page.status_code == 200 and "<script" in page.text and table.seats[1].token not in page.text
    assert client.get(f"/designer/{table.designer_token}").status_code == 200
    assert "textContent" in client.get("/static/app.js").text
    home = client.get("/")
    assert "Secrets" in home.text and not any(s.token in home.text for s in table.seats)


def test_events_stream_the_tables_version(table, client):
    with client.stream("GET", f"/api/{table.seats[0].token}/events") as r:
        assert r.headers["content-type"].startswith("text/event-stream")
        assert next(r.iter_lines()) == f"data: {table.version}"


def test_designer_steps_back_and_forward_by_replaying_the_answers(table, client):
    d, t1 = table.designer_token, table.seats[0].token
    start = table.game.state.digest()
    client.post(f"/api/{t1}/answer", json={"option": 2, "step": 0})
    after_one = table.game.state.digest()
    full = client.get(f"/api/{d}/state").json()
    assert full["designer"]["at"] == 1 and all(z["visible"] for z in full["zones"])  # the designer sees all
    back = client.post(f"/api/{d}/back").json()
    assert back["designer"] == {**back["designer"], "at": 0, "history": 1, "digest": start} and back["paused"]
    assert client.post(f"/api/{d}/back").status_code == 409
    assert client.post(f"/api/{d}/forward").json()["designer"]["digest"] == after_one
    client.post(f"/api/{d}/back")
    client.post(f"/api/{t1}/answer", json={"option": 1, "step": 0})  # another answer: a new timeline
    assert table.history == [0] and table.game.state.digest() != after_one


def test_designer_saves_loads_reseeds_seats_a_bot_and_downloads_a_replayable_log(table, client, tmp_path):
    d, t1 = table.designer_token, table.seats[0].token
    client.post(f"/api/{t1}/answer", json={"option": 1, "step": 0})
    saved = client.get(f"/api/{d}/save")
    assert saved.status_code == 200 and json.loads(saved.text)["choices"] == [0]
    at_save = table.game.state.digest()
    client.post(f"/api/{d}/new", json={"seed": 7})
    assert table.seed == 7 and table.game.choices == []
    loaded = client.post(f"/api/{d}/load", content=saved.content).json()
    assert loaded["designer"]["digest"] == at_save and loaded["designer"]["seed"] == 0
    # both seats to bots: they play the game out
    client.post(f"/api/{d}/seat", json={"player": 1, "kind": "bot"})
    v = client.post(f"/api/{d}/seat", json={"player": 2, "kind": "first"}).json()
    assert v["over"] and [s["kind"] for s in v["seats"]] == ["bot", "first"]
    # the save names kinds `grimoire play --resume` knows (a `bot` seat is the random bot)
    kinds = [a["kind"] for a in json.loads(client.get(f"/api/{d}/save").text)["agents"]]
    assert kinds == ["random", "first"]
    log = tmp_path / "game.jsonl"
    log.write_text(client.get(f"/api/{d}/log").text, encoding="utf-8")
    g = session.replay(log)
    assert g.state.digest() == table.game.state.digest()


def test_redact_names_whole_labels_and_bare_names_only():
    assert redact("player 2: Keep which? → Iris (9)", {"Iris (9)"}) == "player 2: Keep which? → a hidden card"
    assert redact("Irises and Iris", {"Iris"}) == "Irises and a hidden card"
    assert redact("nothing hidden", set()) == "nothing hidden"


def test_serve_refuses_bad_seats_before_listening(tmp_path, capsys):
    path = ruleset(tmp_path, RULES, CARDS)
    assert grimoire_main(["serve", str(path), "--seat", "3=bot"]) == 2
    assert "seat from 1 to 2" in capsys.readouterr().err
    assert grimoire_main(["serve", str(path), "--seat", "1=wizard"]) == 2
    assert "KIND is one of human, bot" in capsys.readouterr().err
    assert grimoire_main(["serve", str(path), "--port", "0"]) == 2
    assert "a port is a number from 1 to 65535" in capsys.readouterr().err
    with socket.create_server(("127.0.0.1", 0)) as busy:  # a port in use: said plainly, nothing served
        port = busy.getsockname()[1]
        assert grimoire_main(["serve", str(path), "--port", str(port)]) == 2
    assert f"cannot listen on 127.0.0.1 port {port}" in capsys.readouterr().err


BOARD_RULES = """
    game "Layouts":
        players 2

    card type Land:
        area: Out | Core
    card type Token:
        area: Out | Core

    zone lands: set
    zone bag: pile
    zone tiles: grid 3 x 2, shared, public

    board world:
        ring all_cards() where it is Land and it.area == Out as Out
        path all_cards() where it is Land and it.area == Core as Core
        link card_named("A2") to card_named("D1") one way as gate

    setup:
        move all_cards() where it is Land to lands
        move all_cards() where it is Token to bag

    turn:
        move first(bag) to card_named("A3")
        move first(bag) to tiles
        you choose x from [1, 2] "wait"
        end game
    """
BOARD_CARDS = """
- {name: A1, type: Land, area: Out}
- {name: A2, type: Land, area: Out}
- {name: A3, type: Land, area: Out}
- {name: D1, type: Land, area: Core}
- {name: D2, type: Land, area: Core}
- {name: Coin, type: Token, area: Out, copies: 2}
"""


def test_boards_are_sent_as_graphs_and_grids_by_their_spaces(tmp_path):
    path = ruleset(tmp_path, BOARD_RULES, BOARD_CARDS)
    table = Table(load_program(path), str(path), 2, 0, ["human", "human"])
    zones = {z["name"]: z for z in TestClient(make_app(table)).get(f"/api/{table.seats[0].token}/state").json()["zones"]}
    board = zones["world"]["board"]
    ids = {n["label"]: n["id"] for n in board["nodes"]}
    assert [n["label"] for n in board["nodes"]] == ["A1", "A2", "A3", "D1", "D2"]  # declaration order
    edges = {(e["from"], e["to"], e["kind"]) for e in board["edges"]}
    assert (ids["A3"], ids["A1"], "Out") in edges and (ids["A1"], ids["A3"], "Out") in edges  # the ring closes
    assert (ids["A2"], ids["D1"], "gate") in edges and (ids["D1"], ids["A2"], "gate") not in edges  # one way
    assert [c["name"] for n in board["nodes"] if n["label"] == "A3" for c in n["cards"]] == ["Coin"]
    assert {n["region"] for n in board["nodes"]} == {"Out", "Core"}
    grid = zones["tiles"]["grid"]
    assert (grid["width"], grid["height"]) == (3, 2)
    assert [(c["x"], c["y"], c["card"]["name"]) for c in grid["cells"]] == [(1, 1, "Coin")]


def test_card_faces_are_drawn_for_cards_the_seat_sees_and_only_those(table, client):
    # a ruleset with a layout.yaml: the printed face of a visible card; a card in the hidden deck is refused
    path = Path(__file__).resolve().parents[2] / "rulesets" / "tutorial_fireflies"
    fireflies = Table(load_program(path), str(path), 2, 0, ["human", "human"])
    c = TestClient(make_app(fireflies))
    token = fireflies.seats[1].token
    v = c.get(f"/api/{token}/state").json()
    shown = next(card for z in v["zones"] if z["visible"] for card in z.get("cards") or [])
    face = c.get(f"/api/{token}/face/{shown['id']}")
    assert v["faces"] and face.status_code == 200 and face.headers["content-type"].startswith("image/svg+xml")
    assert "<svg" in face.text and shown["name"] in face.text
    hidden = fireflies.game.state.zones["deck"][0]
    r = c.get(f"/api/{token}/face/{hidden}")
    assert r.status_code == 403 and r.json() == {"error": "player 2 may not see that card"}
    assert c.get(f"/api/{token}/face/9999").status_code == 404
    # a ruleset without a layout says so
    secret = next(cid for cid in table.game.state.zones["hand#0"])
    r = client.get(f"/api/{table.seats[0].token}/face/{secret}")
    assert r.status_code == 404 and "no layout.yaml" in r.json()["error"]
    assert client.get(f"/api/{table.seats[1].token}/face/{secret}").status_code == 403


def test_bots_moves_are_narrated_and_wait_while_the_designer_rewinds(tmp_path):
    path = ruleset(tmp_path, RULES, CARDS)
    table = Table(load_program(path), str(path), 2, 0, ["human", "bot"], designer=True)
    c = TestClient(make_app(table))
    me, d = table.seats[0].token, table.designer_token
    c.post(f"/api/{me}/answer", json={"option": 1, "step": 0})
    v = c.post(f"/api/{me}/answer", json={"option": 1, "step": 1}).json()
    # the bot (player 2) took its turn at once; player 1 reads it, its hidden choice unnamed
    assert v["decision"]["player"] == 1 and v["step"] == 4
    texts = [e["text"] for e in v["narration"]["entries"][v["narration"]["new_from"]:]]
    assert any(t.startswith("player 2: Play which card? → ") for t in texts)
    assert "player 2: Hide which card? → a hidden card" in texts
    # stepping back to the bot's decision: it waits until the designer resumes
    c.post(f"/api/{d}/back")
    paused = c.get(f"/api/{me}/state").json()
    assert paused["paused"] and paused["waiting_for"] == 2 and paused["step"] == 3
    resumed = c.post(f"/api/{d}/resume").json()
    assert not resumed["paused"] and resumed["step"] == 4 and resumed["decision"]["player"] == 1


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
                    max_leaves=8)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@example(body={"option": None, "seed": 0}, route="new", who="designer")  # a success: no `error` key
@given(body=st.one_of(st.dictionaries(st.sampled_from(["option", "step", "seed", "player", "kind"]), JSON, max_size=4),
                      JSON, st.binary(max_size=40)),
       route=st.sampled_from(["answer", "new", "seat", "back", "load"]), who=st.sampled_from([0, 1, "designer"]))
def test_whatever_is_posted_the_answer_is_json_and_never_an_internal_error(table, client, body, route, who):
    token = table.designer_token if who == "designer" else table.seats[who].token
    content = body if isinstance(body, bytes) else json.dumps(body).encode()
    r = client.post(f"/api/{token}/{route}", content=content)
    assert r.status_code < 500 and r.headers["content-type"].startswith("application/json")
    assert ("error" in r.json()) == (r.status_code >= 400)
