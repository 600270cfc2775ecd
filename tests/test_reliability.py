"""Reliability across every ruleset in rulesets/ (issue 8): save at a decision and resume in another
process to the same end, logged games replay (also through `python -m interpreter replay`), edited
or foreign logs are refused naming the step, and batches survive failing and runaway games,
recording each with its seed and answers (and the error's file:line, seed and step)."""
from __future__ import annotations

from typing import Any
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from rulekit import played_rulesets
from interpreter.play import session
from interpreter.api import load_program
from interpreter.cli import _summary, main as grimoire_main
from interpreter.engine.game import Limits
from interpreter.runtime.errors import LimitExceeded, RuleError
from interpreter.play.session import ReplayMismatch, load_saved, save_game
from interpreter.sim.simulate import simulate
from interpreter.engine.factory import new_game

ROOT = Path(__file__).resolve().parent.parent
RULESETS = played_rulesets()
IDS = [p.name for p in RULESETS]
ENV = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}


def test_there_are_rulesets():
    assert len(RULESETS) >= 3, RULESETS


# ---- a deterministic agent: its answer depends only on (seed, decision number) ---------------

PICK = """
import random
def pick(seed, game):
    return random.Random(f"{seed}/{len(game.choices)}").randrange(len(game.decision.options))
"""
_ns: dict = {}
exec(PICK, _ns)  # the same text defines the agent in the resuming process
pick = _ns["pick"]


def players_of(program) -> int:
    """A player count above the minimum where allowed (more seats, more interaction)."""
    rs = program.rs
    return min(rs.min_players + 1, rs.max_players)


def play_to_end(program, players: int, seed: int, game: Any | None = None) -> Any:
    g = game or new_game(program, players, seed, record_digests=True)
    guard = 0
    while not g.over:
        g.answer(pick(seed, g))
        guard += 1
        assert guard < 20_000
    return g


# ---- save and resume -------------------------------------------------------------------------

def test_save_at_a_decision_and_resume_in_another_process_every_ruleset(tmp_path):
    """Each ruleset saved at its first, a middle and its last decision; one other process resumes
    every save and plays on with the same agent: same answers, same digests, same end."""
    jobs = []
    for k, path in enumerate(RULESETS):
        program = load_program(path)
        players, seed = players_of(program), 900 + k
        full = play_to_end(program, players, seed)
        assert full.error is None, (path.name, full.error)
        n = len(full.choices)
        assert n >= 3, path.name
        for stop in sorted({0, n // 2, n - 1}):
            g = new_game(program, players, seed, record_digests=True)
            while len(g.choices) < stop:
                g.answer(pick(seed, g))
            assert not g.over and g.decision is not None
            save = tmp_path / f"{path.name}-{stop}.json"
            session.save_game(g, save, str(path))
            jobs.append({"save": str(save), "seed": seed, "stop": stop, "name": path.name,
                         "expect": {"result": full.result, "digest": full.state.digest(),
                                    "choices": full.choices, "digests": full.digests}})
    code = PICK + """
import json, sys
from interpreter.play import session
out = []
for job in json.loads(sys.stdin.read()):
    g, _ = session.load_saved(job["save"])
    assert len(g.choices) == job["stop"], (job, len(g.choices))
    while not g.over:
        g.answer(pick(job["seed"], g))
    out.append({"result": g.result, "error": str(g.error) if g.error else None, "digest": g.state.digest(),
                "choices": g.choices, "digests": g.digests})
print(json.dumps(out))
"""
    r = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=ENV, capture_output=True, text=True,
                       input=json.dumps(jobs), timeout=120)
    assert r.returncode == 0, r.stderr
    resumed = json.loads(r.stdout)
    assert len(resumed) == len(jobs)
    for job, got in zip(jobs, resumed):
        assert got["error"] is None, (job["name"], job["stop"], got["error"])
        want = job["expect"]
        assert got["choices"] == want["choices"], (job["name"], job["stop"])
        assert got["digests"] == want["digests"], (job["name"], job["stop"])
        assert got["result"] == want["result"] and got["digest"] == want["digest"], (job["name"], job["stop"])


@pytest.mark.parametrize("path", RULESETS, ids=IDS)
def test_saved_game_of_another_ruleset_is_refused(path, tmp_path):
    """A save resumed against another ruleset (or edited answers) is refused, not mis-resumed."""
    program = load_program(path)
    players, seed = players_of(program), 31
    g = new_game(program, players, seed, record_digests=True)
    for _ in range(6):
        if g.over:
            break
        g.answer(pick(seed, g))
    save = tmp_path / "save.json"
    session.save_game(g, save, str(path))
    other = next(p for p in RULESETS if p != path)
    with pytest.raises(session.ReplayMismatch):
        session.load_saved(save, str(other))
    data = json.loads(save.read_text())
    data["choices"].append(10_000)
    save.write_text(json.dumps(data))
    with pytest.raises(session.ReplayMismatch, match=f"step {len(data['choices']) - 1}:"):
        session.load_saved(save)


# ---- logs and replays ------------------------------------------------------------------------

def write_log(path: Path, out: Path, seed: int = 17) -> list[dict]:
    program = load_program(path)
    players = players_of(program)
    g = new_game(program, players, seed, record_digests=True)
    agents = [type("A", (), {"choose": staticmethod(lambda game, d: pick(seed, game))})()
              for _ in range(players)]
    rec = session.play(program, players, seed, agents, log=True, ruleset_path=str(path), game=g)
    assert rec.error is None, rec.error
    session.write_log(out, rec.lines)
    return rec.lines


# `grimoire replay` in its own process for a few rulesets: the smallest, an `extends` ruleset and
# a mod (the command's path through the loader differs for them); every ruleset replays in-process
CLI_REPLAYS = {"tutorial_fireflies", "enchanters_overlords", "enchanters_wounds"}


def test_logged_games_replay_every_ruleset_and_through_the_cli(tmp_path):
    logs = []
    for path in RULESETS:
        log = tmp_path / f"{path.name}.jsonl"
        lines = write_log(path, log)
        assert session.numbered_result(session.replay(log).result) == lines[-1]["result"]  # logs count from 1
        if path.name in CLI_REPLAYS:
            logs.append((log, lines))
    assert len(logs) == len(CLI_REPLAYS)
    procs = [subprocess.Popen([sys.executable, "-m", "interpreter", "replay", str(log)], cwd=ROOT, env=ENV,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for log, _ in logs]
    for p, (log, lines) in zip(procs, logs):
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, (log.name, err)
        assert f"replayed {len(lines) - 2} decisions" in out, out


def edited(log: Path, out: Path, step: int, **changes) -> Path:
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    for line in lines:
        if line.get("step") == step:
            line.update(changes)
    out.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return out


@pytest.mark.parametrize("path", RULESETS, ids=IDS)
def test_edited_log_is_refused_naming_the_step(path, tmp_path, capsys):
    log = tmp_path / "game.jsonl"
    lines = write_log(path, log)
    steps = lines[1:-1]
    program = load_program(path)
    # another legal answer at a decision whose options read differently: the first such decision
    # from a third of the way in, else the first one (one pass over the game)
    g = new_game(program, lines[0]["players"], lines[0]["seed"], record_digests=True)
    found = []
    for i, x in enumerate(steps):
        assert x["step"] == i
        labels = g.decision.labels
        alt = next((j for j, lab in enumerate(labels) if lab != labels[x["choice"]]), None)
        if alt is not None:
            found.append((x, alt))
            if i >= len(steps) // 3:
                break
        g.answer(x["choice"])
    if not found:
        pytest.fail("no decision with two different options")
    line, other = next(((x, alt) for x, alt in found if x["step"] >= len(steps) // 3), found[0])
    k = line["step"]
    bad = edited(log, tmp_path / "choice.jsonl", k, choice=other)
    with pytest.raises(session.ReplayMismatch, match=f"^step {k}:"):
        session.replay(bad)
    assert grimoire_main(["replay", str(bad)]) == 1
    assert f"step {k}:" in capsys.readouterr().err
    # an answer out of range, a changed digest
    k2 = steps[len(steps) // 2]["step"]
    with pytest.raises(session.ReplayMismatch, match=f"^step {k2}:"):
        session.replay(edited(log, tmp_path / "range.jsonl", k2, choice=999))
    with pytest.raises(session.ReplayMismatch, match=f"^step {k2}:"):
        session.replay(edited(log, tmp_path / "digest.jsonl", k2, digest="0" * 16))
    # a different seed in the header: the very first state differs
    head = [json.loads(x) for x in log.read_text().splitlines()]
    head[0]["seed"] += 1
    reseeded = tmp_path / "seed.jsonl"
    reseeded.write_text("".join(json.dumps(x) + "\n" for x in head))
    with pytest.raises(session.ReplayMismatch, match="^step 0:"):
        session.replay(reseeded)


@pytest.mark.parametrize("path", RULESETS, ids=IDS)
def test_log_of_another_ruleset_is_refused(path, tmp_path, capsys):
    log = tmp_path / "game.jsonl"
    write_log(path, log)
    other = next(p for p in RULESETS if p != path)
    code = grimoire_main(["replay", str(log), "--ruleset", str(other)])
    err = capsys.readouterr().err
    assert code == 1, err
    assert err.startswith("replay: step 0:"), err  # the first state already differs
    assert "Traceback" not in err and "internal error" not in err


# ---- batches: failing and runaway games are recorded, the rest complete ----------------------

def write_ruleset(d: Path, rules: str, values=range(5)) -> Path:
    d.mkdir(parents=True, exist_ok=True)
    (d / "game.rules").write_text(textwrap.dedent(rules), encoding="utf-8")
    (d / "cards").mkdir(exist_ok=True)
    (d / "cards" / "cards.yaml").write_text(
        "".join(f"- {{name: V{v}, type: Tok, value: {v}}}\n" for v in values), encoding="utf-8")
    return d


def line_of(d: Path, text: str) -> int:
    return next(i for i, line in enumerate((d / "game.rules").read_text().splitlines(), 1) if text in line)


# a decision each turn, then a card; a zero fails on division after 1-3 answered decisions
FAILING = """\
    game "Failing":
        players 2..2
    card type Tok:
        value: 0..9
    zone deck: pile, shared, hidden
    zone table: pile, shared, public
    setup:
        move all_cards() to deck
        shuffle deck
    turn:
        if you may "Look?":
            pass
        draw from deck to table as c
        log 10 / c.value
        if count(table) >= 3:
            end game
    """


def test_rule_error_at_run_time_names_rule_seed_and_step_in_the_batch(tmp_path):
    rs = write_ruleset(tmp_path / "failing", FAILING)
    line = line_of(rs, "log 10 / c.value")
    report = simulate(str(rs), 30, 2, 7, ["random"])
    errors = report["errors"]
    assert 0 < len(errors) < 30 and report["completed"] + len(errors) == 30
    program = load_program(rs)
    for e in errors:
        assert f"game.rules:{line}:" in e["error"], e["error"]
        assert "division by zero" in e["error"]
        assert f"(seed {e['seed']}, step {len(e['choices'])})" in e["error"], e
        assert 1 <= len(e["choices"]) <= 3
        # the recorded seed and answers reproduce the failure at the same place
        g = new_game(program, 2, e["seed"], record_digests=True)
        for c in e["choices"]:
            assert not g.over
            g.answer(c)
        assert g.over and isinstance(g.error, RuleError) and g.error.loc.line == line
    report["timing"] = {"games_per_second": 1}
    text = _summary(report)
    assert f"(seed {errors[0]['seed']})" in text and f"game.rules:{line}:" in text


# for some seeds the rules run forever: an endless loop (value 0) or endless recursion (value 1)
RUNAWAY = """\
    game "Runaway":
        players 2..2
    card type Tok:
        value: 0..9
    zone deck: pile, shared, hidden
    zone table: pile, shared, public
    stat n = 0
    procedure down(k):
        down(k + 1)
    setup:
        move all_cards() to deck
        shuffle deck
    turn:
        if you may "Draw?":
            pass
        draw from deck to table as c
        if c.value == 0:
            repeat:
                n += 1
        if c.value == 1:
            down(0)
        if count(table) >= 2:
            end game
    """


def test_batch_with_runaway_games_records_them_and_completes_the_others(tmp_path):
    rs = write_ruleset(tmp_path / "runaway", RUNAWAY, values=range(8))
    report = simulate(str(rs), 24, 2, 1, ["random"], max_steps=20_000)
    errors = report["errors"]
    assert errors and report["completed"] > 0 and report["completed"] + len(errors) == 24
    loop, recursion = line_of(rs, "repeat:"), line_of(rs, "down(k + 1)")
    kinds = set()
    program = load_program(rs)
    for e in errors:
        assert isinstance(e["seed"], int) and e["choices"], e
        msg = e["error"]
        if "steps" in msg:
            kinds.add("steps")
            assert f"game.rules:{line_of(rs, 'n += 1')}:" in msg or f"game.rules:{loop}:" in msg, msg
        else:
            kinds.add("depth")
            assert "deeper than 64" in msg and (f"game.rules:{recursion}:" in msg
                                                or f"game.rules:{line_of(rs, 'procedure down')}:" in msg), msg
        assert f"(seed {e['seed']}, step {len(e['choices'])})" in msg
        g = new_game(program, 2, e["seed"], limits=Limits(max_steps=20_000), record_digests=True)
        for c in e["choices"]:
            g.answer(c)
        assert g.over and isinstance(g.error, LimitExceeded)
    assert kinds == {"steps", "depth"}, errors


def test_simulate_limit_flags_depth_and_decisions(tmp_path):
    rs = write_ruleset(tmp_path / "runaway", RUNAWAY, values=range(8))
    out = tmp_path / "r.json"
    args = ["simulate", str(rs), "-n", "16", "--seed", "1", "--max-steps", "20000", "--json", str(out), "--quiet"]
    assert grimoire_main(args + ["--max-depth", "9"]) == 1
    report = json.loads(out.read_text())
    depth = [e for e in report["errors"] if "deeper than" in e["error"]]
    assert depth and all("deeper than 9 " in e["error"] for e in depth), report["errors"]
    # without the flag: the default depth; same games fail
    assert grimoire_main(args) == 1
    default = json.loads(out.read_text())
    assert [e["seed"] for e in default["errors"]] == [e["seed"] for e in report["errors"]]
    assert all("deeper than 64 " in e["error"] for e in default["errors"] if "deeper" in e["error"])
    # every game answers at least one decision: a limit of one stops them all after it
    assert grimoire_main(args + ["--max-decisions", "1"]) == 1
    few = json.loads(out.read_text())
    assert few["completed"] == 0 or all(e["choices"] for e in few["errors"])
    assert any("more than 1 decisions" in e["error"] for e in few["errors"]), few["errors"]


@pytest.mark.parametrize("flag", ["--max-steps", "--max-turns", "--max-depth", "--max-decisions"])
def test_simulate_limit_flags_refuse_non_positive_values(flag, tmp_path, capsys):
    with pytest.raises(SystemExit) as e:
        grimoire_main(["simulate", str(RULESETS[0]), "-n", "1", flag, "0", "--quiet"])
    assert e.value.code == 2
    assert f"argument {flag}: must be at least 1" in capsys.readouterr().err


def test_failed_games_get_replayable_logs(tmp_path):
    """A batch writes an event log for each failed game (`--failed-logs`); `grimoire replay` walks it
    step by step to the same error, named with its file, line, seed and step."""
    rules = tmp_path / "fails.rules"
    rules.write_text('game "Fails":\n    players 2..2\nstat n = 0\nturn:\n'
                     '    if you may "Divide by zero?":\n        set n to 1 / 0\n'
                     '    end game after this turn\nscore p: n\n', encoding="utf-8")
    logs = tmp_path / "logs"
    run = subprocess.run([sys.executable, "-m", "interpreter", "simulate", str(rules), "-n", "6", "--players", "2",
                          "--seed", "2", "--quiet", "--failed-logs", str(logs)], capture_output=True, text=True)
    assert run.returncode == 1, run.stderr
    files = sorted(logs.glob("*.jsonl"))
    assert files and len(files) == run.stdout.count("replay log of game")
    for f in files:
        rep = subprocess.run([sys.executable, "-m", "interpreter", "replay", str(f)], capture_output=True, text=True)
        assert rep.returncode == 0, rep.stderr
        assert "the same error" in rep.stdout and "fails.rules:6:" in rep.stdout and "seed" in rep.stdout


def test_save_names_the_first_step_whose_state_differs(tmp_path):
    """A save keeps the state digest before each answer: a tampered or outdated one is refused
    naming the first step that differs."""
    import random as _random
    program = load_program(RULESETS[0])
    g = new_game(program, program.rs.min_players, 5, record_digests=True)
    rng = _random.Random(5)
    for _ in range(4):
        g.answer(rng.randrange(len(g.decision.options)))
    path = tmp_path / "save.json"
    save_game(g, path, str(RULESETS[0]))
    data = json.loads(path.read_text())
    assert len(data["digests"]) == 4
    data["digests"][2] = "0" * 16
    path.write_text(json.dumps(data))
    with pytest.raises(ReplayMismatch, match="step 2"):
        load_saved(path)
