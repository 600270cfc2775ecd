"""Determinism, event logs and replays, and saving a game to resume it in another process."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.play import session
from interpreter.cli import main as grimoire_main
from interpreter.play.agents import RandomAgent
from interpreter.api import load_program
from interpreter.engine.factory import new_game

ROOT = Path(__file__).resolve().parents[2]
RULESET = ROOT / "rulesets" / "toil_and_troublez"
ENV = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}


@pytest.fixture(scope="module")
def program():
    return load_program(RULESET)


def grimoire(*args: str, cwd: Path = ROOT, input: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "interpreter", *args], cwd=cwd, env=ENV, input=input,
                          capture_output=True, text=True, timeout=120)


def agents(seed, players):
    return [RandomAgent(f"{seed}/{p}") for p in range(players)]


def test_same_seed_and_choices_same_game(program):
    runs = []
    for _ in range(2):
        g = new_game(program, 4, 77, record_digests=True)
        a = agents(77, 4)
        while not g.over:
            g.answer(a[g.decision.player].choose(g, g.decision))
        runs.append(g)
    a, b = runs
    assert a.error is None and a.digests and a.digests == b.digests
    assert a.choices == b.choices and a.result == b.result and a.log == b.log
    assert a.state.digest() == b.state.digest() and a.state.to_json() == b.state.to_json()
    # replaying only the answers gives the same game, state by state
    c = new_game(program, 4, 77, record_digests=True)
    for i in a.choices:
        c.answer(i)
    assert c.digests == a.digests and c.result == a.result
    # another seed, another game
    d = new_game(program, 4, 78, record_digests=True)
    assert d.digests[0] != a.digests[0]


def test_play_record_is_deterministic(program):
    r1 = session.play(program, 3, 5, agents(5, 3), log=True)
    r2 = session.play(program, 3, 5, agents(5, 3), log=True)
    assert r1.error is None and r1.lines == r2.lines and r1.result == r2.result
    assert r1.lines[0]["grimoire_log"] and r1.lines[-1]["end"]


def write_game_log(program, path: Path, seed: int = 11, players: int = 3) -> list[dict]:
    rec = session.play(program, players, seed, agents(seed, players), log=True, ruleset_path=str(RULESET))
    assert rec.error is None
    session.write_log(path, rec.lines)
    return rec.lines


def test_logged_game_replays(program, tmp_path):
    log = tmp_path / "game.jsonl"
    lines = write_game_log(program, log)
    g = session.replay(log)
    # the log numbers players from 1 (format 3); the Python API keeps seat indexes from 0
    assert session.numbered_result(g.result) == lines[-1]["result"]
    assert lines[-1]["result"]["winners"] == [w + 1 for w in g.result["winners"]]
    assert {x["player"] for x in lines[1:-1]} == {1, 2, 3}
    r = grimoire("replay", str(log))
    assert r.returncode == 0, r.stderr
    assert f"replayed {len(lines) - 2} decisions" in r.stdout


def edit(log: Path, out: Path, step: int, **changes) -> None:
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    for line in lines:
        if line.get("step") == step:
            line.update(changes)
    out.write_text("".join(json.dumps(x) + "\n" for x in lines))


def test_edited_choice_is_refused_naming_the_step(program, tmp_path):
    log = tmp_path / "game.jsonl"
    lines = write_game_log(program, log)
    # a step with at least two options: change its answer to another legal one
    step = next(x for x in lines[1:-1] if x["step"] >= 5 and x["prompt"] == "Draw another card?")
    bad = tmp_path / "bad.jsonl"
    edit(log, bad, step["step"], choice=1 - step["choice"])
    r = grimoire("replay", str(bad))
    assert r.returncode == 1
    assert f"step {step['step']}:" in r.stderr, r.stderr
    with pytest.raises(session.ReplayMismatch, match=f"step {step['step']}:"):
        session.replay(bad)


# the remaining replay checks call the CLI's entry point in this process (same code, faster)

def test_edited_digest_is_refused_naming_the_step(program, tmp_path, capsys):
    log = tmp_path / "game.jsonl"
    write_game_log(program, log)
    bad = tmp_path / "bad.jsonl"
    edit(log, bad, 7, digest="0123456789abcdef")
    assert grimoire_main(["replay", str(bad)]) == 1
    assert "step 7:" in capsys.readouterr().err


def test_edited_end_is_refused(program, tmp_path, capsys):
    log = tmp_path / "game.jsonl"
    write_game_log(program, log)
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    lines[-1]["result"]["scores"][0] += 1
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(json.dumps(x) + "\n" for x in lines))
    assert grimoire_main(["replay", str(bad)]) == 1
    assert "result differs" in capsys.readouterr().err


def test_truncated_or_foreign_log_is_refused(program, tmp_path, capsys):
    log = tmp_path / "game.jsonl"
    write_game_log(program, log)
    lines = log.read_text().splitlines()
    short = tmp_path / "short.jsonl"
    short.write_text("\n".join(lines[:10] + lines[-1:]) + "\n")
    assert grimoire_main(["replay", str(short)]) == 1
    assert "step 9: the log ends here" in capsys.readouterr().err
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(lines[:10]) + "\n")
    assert grimoire_main(["replay", str(cut)]) == 1
    assert "no end line" in capsys.readouterr().err
    junk = tmp_path / "junk.jsonl"
    junk.write_text("hello\n")
    assert grimoire_main(["replay", str(junk)]) == 1
    assert "junk.jsonl" in capsys.readouterr().err


def test_replay_finds_the_ruleset_beside_the_log(program, tmp_path):
    """A log names its ruleset as given; a relative path also resolves from the log's folder."""
    (tmp_path / "tt").symlink_to(RULESET, target_is_directory=True)
    log = tmp_path / "game.jsonl"
    rec = session.play(program, 2, 3, agents(3, 2), log=True, ruleset_path="tt")
    session.write_log(log, rec.lines)
    g = session.replay(log)  # the test runs in the repository, where `tt` does not exist
    assert g.result == rec.result
    assert grimoire_main(["replay", str(log), "--ruleset", str(RULESET)]) == 0


# an agent whose answers depend only on (seed, decision number): a resumed game in another
# process continues exactly as the uninterrupted one
AGENT = """
import random
class Stateless:
    def __init__(self, seed):
        self.seed = seed
    def choose(self, game, d):
        return random.Random(f"{self.seed}/{len(game.choices)}").randrange(len(d.options))
"""


def stateless_agent(seed):
    ns: dict = {}
    exec(AGENT, ns)
    return ns["Stateless"](seed)


def test_save_and_resume_in_another_process(program, tmp_path):
    players, seed = 4, 2024
    agent = stateless_agent(seed)
    full = new_game(program, players, seed)
    while not full.over:
        full.answer(agent.choose(full, full.decision))
    assert full.error is None
    stop = len(full.choices) // 2

    g = new_game(program, players, seed)
    while len(g.choices) < stop:
        g.answer(agent.choose(g, g.decision))
    save = tmp_path / "saved.json"
    session.save_game(g, save, str(RULESET))

    code = AGENT + f"""
import json
from interpreter.play import session
g, _ = session.load_saved({str(save)!r})
assert len(g.choices) == {stop}
agent = Stateless({seed})
while not g.over:
    g.answer(agent.choose(g, g.decision))
print(json.dumps({{"result": g.result, "error": str(g.error) if g.error else None, "digest": g.state.digest(),
                  "choices": g.choices}}))
"""
    r = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=ENV, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["error"] is None
    assert out["result"] == full.result
    assert out["choices"] == full.choices and out["digest"] == full.state.digest()


def test_saved_game_refuses_other_rules(program, tmp_path):
    g = new_game(program, 3, 1)
    for _ in range(6):
        g.answer(0)
    save = tmp_path / "saved.json"
    session.save_game(g, save, str(RULESET))
    data = json.loads(save.read_text())
    data["digest"] = "ffffffffffffffff"
    save.write_text(json.dumps(data))
    with pytest.raises(session.ReplayMismatch, match="differs"):
        session.load_saved(save)
