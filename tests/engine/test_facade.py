"""One game facade (engine/factory.py, engine/directfacade.py, engine/directobserved.py): every
user of a game — simulate, scenarios, sessions, replay, save and resume, the terminal, serve, the
guided agent — gets the generated code where the ruleset compiles, and sees there what the task
engine shows: the same views for every seat, labels, digests, observer events, preferences."""
from __future__ import annotations

import functools
import json
import random
from pathlib import Path

import pytest

from interpreter.api import load_program
from interpreter.engine.directgame import DirectGame
from interpreter.engine import factory
from interpreter.engine.factory import engine_of, new_game
from interpreter.engine.game import Game
from interpreter.engine.resumablegame import ResumableGame
from interpreter.play.agents import GuidedAgent, make_agent
from interpreter.play.scenario import run_scenario
from interpreter.cli import main
from interpreter.play import session
from interpreter.play.session import QuietObserver, load_saved, play, replay, save_game, write_log
from interpreter.play.table import Table
from rulekit import build

ROOT = Path(__file__).resolve().parent.parent.parent
DIRECT = ["toil_and_troublez", "tutorial_fireflies", "magical_treehouse", "enchanters",
          "enchanters_overlords", "stonehenge_wizards"]


def _program(name: str):
    return load_program(ROOT / "rulesets" / name)


class _Watcher:
    """An observer that writes down everything it is told, as plain data."""

    def __init__(self) -> None:
        self.events: list = []

    def only_option(self, d) -> None:
        self.events.append(("only", d.player, d.kind, d.prompt, list(d.labels)))

    def shuffled(self, zone) -> None:
        self.events.append(("shuffled", zone.key))

    def turn_started(self, game) -> None:
        self.events.append(("turn", game.state.turn_number, game.state.active))


@pytest.mark.parametrize("ruleset", DIRECT)
def test_every_seat_sees_the_same_on_both_engines(ruleset):
    """At every fifth decision of two seeded games, each seat's view (and the spectator's), the
    decision's labels and the state digest are the same on generated code as on the task engine;
    so are the log and the result at the end."""
    program = _program(ruleset)
    for players in sorted({program.rs.min_players, program.rs.max_players}):
        for seed in (3, 4):
            direct = new_game(program, players, seed, record_digests=True)
            tasks = new_game(program, players, seed, engine="tasks", record_digests=True)
            assert engine_of(direct) == "direct" and engine_of(tasks) == "tasks"
            rng, k, looked = random.Random(seed), 0, 0
            while not tasks.over:
                d, t = direct.decision, tasks.decision
                assert (d.player, d.kind, d.prompt, d.labels) == (t.player, t.kind, t.prompt, t.labels)
                assert direct.digests == tasks.digests
                if k % 5 == 0:
                    for seat in [*range(players), None]:
                        assert direct.view(seat) == tasks.view(seat), (k, seat)
                    looked += 1
                i = rng.randrange(len(t.options))
                direct.answer(i)
                tasks.answer(i)
                k += 1
            assert direct.over and direct.error is None and tasks.error is None
            assert looked >= 3
            assert (direct.result, direct.log, direct.view(None)) == (tasks.result, tasks.log, tasks.view(None))


def test_a_view_hides_what_the_seat_may_not_see():
    """Not a copy of any view: another seat's own hand is a count, one's own hand the cards."""
    program = _program("magical_treehouse")
    g = new_game(program, 3, 1)
    assert isinstance(g, DirectGame)
    while not g.state.zones["hand#0"]:
        g.answer(0)
    mine, other = g.view(0), g.view(1)
    assert isinstance(mine["hand of player 1"], list) and mine["hand of player 1"]
    assert other["hand of player 1"] == len(mine["hand of player 1"])
    assert all(isinstance(x, str) and x != "?" for x in mine["hand of player 1"])


@pytest.mark.parametrize("ruleset", DIRECT)
def test_an_observer_is_told_the_same_on_both_engines(ruleset):
    """Decisions taken without asking, shuffles and turn starts reach the observer in the same order
    with the same content, from the setup on, on the observed form of the generated code."""
    program = _program(ruleset)
    players = program.rs.min_players
    for seed, seats in ((1, []), (2, None)):  # generator code, then the copyable form
        a, b = _Watcher(), _Watcher()
        direct = new_game(program, players, seed, seats=seats, observer=a)
        tasks = new_game(program, players, seed, engine="tasks", observer=b)
        assert type(direct) is (DirectGame if seats == [] else ResumableGame)
        rng = random.Random(seed)
        while not tasks.over:
            i = rng.randrange(len(tasks.decision.options))
            direct.answer(i)
            tasks.answer(i)
            assert a.events == b.events
        assert any(e[0] == "turn" for e in a.events)
        assert direct.result == tasks.result


def test_the_observed_code_tells_what_the_plain_code_does_not():
    """Some ruleset takes single-option decisions and shuffles: the observer hears of them, and
    only games made with an observer pay for the telling (the plain form is another program)."""
    heard = {}
    for name in DIRECT:
        w = _Watcher()
        g = new_game(_program(name), _program(name).rs.min_players, 5, seats=[], observer=w)
        plain = new_game(_program(name), _program(name).rs.min_players, 5, seats=[])
        assert g.dp is not plain.dp and g.dp.lines is plain.dp.lines
        heard[name] = {e[0] for e in w.events}
    assert any("only" in kinds for kinds in heard.values())
    assert any("shuffled" in kinds for kinds in heard.values())


def test_the_factory_picks_the_engine():
    """auto: generator code for seats that never copy, the copyable form for searching seats and
    for sessions (seats not known), the task engine when asked or when the ruleset does not compile;
    direct: a clear refusal for a ruleset that does not compile."""
    tt = _program("toil_and_troublez")
    assert type(new_game(tt, 4, 1, seats=[make_agent("random", "x")])) is DirectGame
    assert type(new_game(tt, 4, 1, seats=[make_agent("mcts", "x")])) is ResumableGame
    assert type(new_game(tt, 4, 1)) is ResumableGame
    assert type(new_game(tt, 4, 1, engine="tasks")) is Game
    with pytest.raises(ValueError, match="unknown engine"):
        new_game(tt, 4, 1, engine="fast")


def test_a_ruleset_that_does_not_compile_runs_on_the_task_engine(tmp_path):
    program = build(tmp_path, """
        card type Thing:
            value: 0..9 = 1
        zone deck: pile, shared, hidden
        setup:
            move all_cards() to deck
        turn:
            end game
        score p: first(all_cards())
        """, "- {name: Coin, type: Thing, copies: 2}\n")
    assert type(new_game(program, 2, 0)) is Game
    with pytest.raises(ValueError, match="does not compile to direct code"):
        new_game(program, 2, 0, engine="direct")


@pytest.mark.parametrize("ruleset", ["magical_treehouse", "stonehenge_wizards"])
def test_a_log_replays_identically_across_engines(tmp_path, ruleset):
    """A game logged on the task engine replays on generated code step by step (same digests, same
    labels, same end), and one logged on generated code replays on the task engine."""
    program = _program(ruleset)
    n = program.rs.min_players
    for made, again in (("tasks", "direct"), ("direct", "tasks")):
        seats = [make_agent("random", f"9/{i}") for i in range(n)]
        rec = play(program, n, 9, seats, log=True, ruleset_path=str(ROOT / "rulesets" / ruleset), engine=made)
        path = tmp_path / f"{made}.jsonl"
        write_log(path, rec.lines)
        g = replay(path, engine=again)
        assert engine_of(g) == again
        assert g.over and g.choices == rec.choices and g.result == rec.result
        assert g.digests == [line["digest"] for line in rec.lines[1:-1]]


def test_save_and_resume_give_the_same_game_on_generated_code(tmp_path):
    """A game saved mid-way on generated code resumes (on either engine) at the same state, and
    goes on to the same end as the game never saved."""
    program = _program("enchanters")
    rpath = str(ROOT / "rulesets" / "enchanters")
    whole = new_game(program, 2, 12, record_digests=True)
    rng = random.Random(12)
    answers = []
    while not whole.over:
        answers.append(rng.randrange(len(whole.decision.options)))
        whole.answer(answers[-1])
    half = new_game(program, 2, 12)
    for a in answers[:len(answers) // 2]:
        half.answer(a)
    saved = tmp_path / "game.json"
    save_game(half, saved, rpath)
    assert json.loads(saved.read_text())["digests"] == whole.digests[:len(answers) // 2]
    for engine in ("direct", "tasks"):
        g, _ = load_saved(saved, engine=engine)
        assert engine_of(g) == engine
        assert g.state.digest() == half.state.digest()
        for a in answers[len(answers) // 2:]:
            g.answer(a)
        assert (g.result, g.log, g.state.digest()) == (whole.result, whole.log, whole.state.digest())


PREFER = """
player stat pos: 0..99
zone deck: pile, shared, hidden
zone hand: set, per player, public
card type Step:
    size: 1..3 = 1
setup:
    move all_cards() to deck
    shuffle deck
turn:
    you choose c from deck "Take which?"
    move c to your hand
    set pos of you to pos of you + c.size
    if count(deck) < 3:
        end game
prefer p for "Take which": it.size
score p: pos of p
"""
STEPS = "- {name: Small, type: Step, size: 1, copies: 4}\n- {name: Big, type: Step, size: 3, copies: 4}\n" \
        "- {name: Mid, type: Step, size: 2, copies: 4}\n"


def test_the_guided_agent_reads_preferences_from_generated_code(tmp_path):
    """`prefer` rates the options of a game on generated code as on the task engine (cards given
    to the rule as cards), so the guided agent plays the same game on both, and always takes the
    biggest step offered."""
    program = build(tmp_path, PREFER, STEPS)
    games = {}
    for engine in ("direct", "tasks"):
        seats = [GuidedAgent(f"7/{i}") for i in range(2)]
        g = new_game(program, 2, 7, seats=seats, engine=engine)
        assert engine_of(g) == engine
        rated = []
        while not g.over:
            d = g.decision
            prefs = g.preferences(d)
            i = seats[d.player].choose(g, d)
            assert prefs[i] == max(prefs)
            rated.append(prefs)
            g.answer(i)
        assert g.error is None
        games[engine] = (rated, g.choices, g.result)
    assert games["direct"] == games["tasks"]
    assert any(len(set(r)) > 1 for r in games["direct"][0])  # the rule told options apart


@pytest.mark.parametrize("name", ["moth_one_firefly.yaml", "setup.yaml", "critters_on_an_empty_jar.yaml"])
def test_scenarios_that_watch_pass_on_generated_code(tmp_path, name):
    """Scenarios that check what only an observer is told (`offered`, `shuffled`) pass on direct
    code, and a wrong expectation of that kind fails there."""
    path = ROOT / "rulesets" / "tutorial_fireflies" / "scenarios" / name
    res = run_scenario(path, engine="direct")
    assert res.passed, res.failures
    text = path.read_text(encoding="utf-8")
    wrong = text.replace("offered: [{player: 1", "offered: [{player: 2").replace("shuffled: [deck]", "shuffled: []")
    assert wrong != text
    changed = tmp_path / "scenarios" / name
    changed.parent.mkdir()
    changed.write_text(wrong.replace("ruleset: ..", f"ruleset: {ROOT / 'rulesets' / 'tutorial_fireflies'}"),
                       encoding="utf-8")
    res = run_scenario(changed, engine="direct")
    assert not res.passed and any("offered" in f or "shuffled" in f for f in res.failures)


def test_preferences_of_a_copy_read_the_copy(tmp_path):
    """A searching agent's copy rates options by its own state, not the original's."""
    program = build(tmp_path, PREFER, STEPS)
    g = new_game(program, 2, 7)
    assert isinstance(g, ResumableGame)
    copy = g.clone()
    assert copy.preferences(copy.decision) == g.preferences(g.decision)
    best = max(range(len(copy.decision.options)), key=lambda i: copy.preferences(copy.decision)[i])
    copy.answer(best)
    tasks = new_game(program, 2, 7, engine="tasks")
    tasks.answer(best)
    assert copy.preferences(copy.decision) == tasks.preferences(tasks.decision)
    assert len(copy.decision.options) == len(g.decision.options) - 1


def test_a_resumed_game_can_be_narrated_from_there(tmp_path):
    """`play --resume` and `replay --step` make the game with a quiet observer, so a narrator set
    later hears decisions taken without asking and shuffles on generated code as on the task engine."""
    program = _program("tutorial_fireflies")
    g = new_game(program, 2, 3)
    for _ in range(4):
        g.answer(0)
    saved = tmp_path / "game.json"
    save_game(g, saved, str(ROOT / "rulesets" / "tutorial_fireflies"))
    heard = {}
    for engine in ("direct", "tasks"):
        resumed, _ = load_saved(saved, engine=engine, observer=QuietObserver())
        w = resumed.observer = _Watcher()
        rng = random.Random(3)
        while not resumed.over:
            resumed.answer(rng.randrange(len(resumed.decision.options)))
        heard[engine] = w.events
    assert heard["direct"] == heard["tasks"] and any(e[0] == "only" for e in heard["direct"])


@pytest.mark.parametrize("ruleset,players", [("tutorial_fireflies", 3), ("toil_and_troublez", 4),
                                             ("magical_treehouse", 3)])
def test_the_terminal_tells_the_same_game_on_both_engines(tmp_path, capsys, monkeypatch, ruleset, players):
    """`grimoire play` (every seat a bot) prints the same story, line for line (cards moved in the
    same order), and writes the same event log on generated code as on the task engine; the log
    replays on either. (The CLI has no `--engine` any more: the factory is held to one engine.)"""
    folder = str(ROOT / "rulesets" / ruleset)
    out = {}
    for engine in ("direct", "tasks"):
        log = tmp_path / f"{engine}.jsonl"
        monkeypatch.setattr(factory, "new_game", functools.partial(new_game, engine=engine))
        assert main(["play", folder, "--players", str(players), "--seed", "5", "--log", str(log)]) == 0
        out[engine] = (capsys.readouterr().out.replace(str(log), "LOG"), log.read_text(encoding="utf-8"))
    assert out["direct"] == out["tasks"]
    assert "── turn 2" in out["direct"][0] and "the only option" in out["direct"][0]
    monkeypatch.setattr(session, "new_game", functools.partial(new_game, engine="tasks"))
    assert main(["replay", str(tmp_path / "direct.jsonl")]) == 0
    assert "same states" in capsys.readouterr().out


def test_the_browser_table_runs_on_generated_code():
    """`grimoire serve`'s table plays on the copyable generated code (a seat may become mcts), and
    each seat's page shows at every step what it shows on the task engine."""
    program = _program("tutorial_fireflies")
    path = str(ROOT / "rulesets" / "tutorial_fireflies")
    tables = [Table(program, path, 2, 4, ["human", "bot"]), Table(program, path, 2, 4, ["human", "bot"], engine="tasks")]
    assert [type(t.game) for t in tables] == [ResumableGame, Game]
    steps = 0
    while not tables[0].game.over:
        views = [t.seat_view(t.seats[0].token) for t in tables]
        assert views[0] == views[1]
        for t in tables:
            t.answer(t.seats[0].token, 1, len(t.game.choices))
        steps += 1
    assert tables[1].game.over and steps > 3
    assert tables[0].seat_view(tables[0].seats[0].token) == tables[1].seat_view(tables[1].seats[0].token)
