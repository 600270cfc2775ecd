"""The `grimoire` command, run as users run it: `python -m interpreter ...` in a subprocess."""
from __future__ import annotations

import json
import re
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from interpreter.cli import main as cli_main
from interpreter.engine.factory import new_game


ROOT = Path(__file__).resolve().parent.parent
RULESET = ROOT / "rulesets" / "toil_and_troublez"
ENV = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
       "COLUMNS": "100"}
COMMANDS = ["validate", "simulate", "play", "scenario", "replay"]


def grimoire(*args: str, input: str | None = None, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "interpreter", *map(str, args)], cwd=cwd, env=ENV, input=input,
                          capture_output=True, text=True, timeout=300)


def grimoire_many(*calls: list) -> list[subprocess.CompletedProcess]:
    """Run several commands at once (each is a separate process)."""
    procs = [subprocess.Popen([sys.executable, "-m", "interpreter", *map(str, c)], cwd=ROOT, env=ENV, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE) for c in calls]
    out = []
    for c, p in zip(calls, procs):
        stdout, stderr = p.communicate(timeout=300)
        out.append(subprocess.CompletedProcess(c, p.returncode, stdout, stderr))
    return out


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def test_help_for_every_command():
    results = grimoire_many(["--help"], *[[c, "--help"] for c in COMMANDS])
    top = results[0]
    assert top.returncode == 0 and all(c in top.stdout for c in COMMANDS)
    for c, r in zip(COMMANDS, results[1:]):
        assert r.returncode == 0, (c, r.stderr)
        assert f"usage: grimoire {c}" in r.stdout and "--help" in r.stdout


def test_no_command_prints_help_and_fails():
    r = grimoire()
    assert r.returncode == 2 and "usage: grimoire" in r.stdout


def test_validate_exit_codes(tmp_path):
    clean = write(tmp_path / "clean.rules", """\
        game "Clean":
            players 2..4
        stat n: 0..9 = 0
        turn:
            n += 1
            end game
        """)
    warn = write(tmp_path / "warn.rules", """\
        game "Warn":
            players 2..4
        stat n: 0..9 = 0
        stat unused_stat: 0..9 = 0
        turn:
            n += 1
            end game
        """)
    broken = write(tmp_path / "broken.rules", """\
        game "Broken":
            players 2..4
        turn:
            mvoe x to y
            set nothing_here to 3
        """)
    warned, strict, bad, as_json = grimoire_many(
        ["validate", clean, warn], ["validate", warn, "--strict"], ["validate", broken],
        ["validate", broken, tmp_path / "nope", "--format", "json"])
    assert warned.returncode == 0, warned.stdout + warned.stderr  # warnings alone pass
    assert "unused_stat" in warned.stdout and "0 error(s), 1 warning(s)" in warned.stdout
    assert strict.returncode == 1
    assert bad.returncode == 1 and "broken.rules:4:" in bad.stdout and "Traceback" not in bad.stderr
    report = json.loads(as_json.stdout)
    assert as_json.returncode == 1 and report["ok"] is False
    assert any(d["severity"] == "error" and d["line"] == 4 and d["file"].endswith("broken.rules")
               for d in report["diagnostics"])
    assert any("nope" in d["message"] for d in report["diagnostics"])


def test_simulate_is_reproducible_and_worker_independent(tmp_path):
    a, b, c = tmp_path / "a.json", tmp_path / "b.json", tmp_path / "c.json"
    runs = grimoire_many(*[["simulate", RULESET, "-n", 30, "--players", 3, "--seed", 5, "--json", out, "--quiet"]
                           + (["--workers", 2] if out is c else []) for out in (a, b, c)])
    for r in runs:
        assert r.returncode == 0, r.stderr
        assert "30 games" in r.stdout and "errors 0" in r.stdout
    ra, rb, rc = (json.loads(p.read_text()) for p in (a, b, c))
    assert ra.pop("timing") and rb.pop("timing")
    assert ra == rb
    assert rc["timing"]["workers"] == 2
    assert rc["seats"] == ra["seats"] and rc["turns"] == ra["turns"] and rc["completed"] == 30


FLAKY = """\
    game "Flaky":
        players 2..4
    card type Tok:
        value: 0..9
    zone deck: pile, shared, hidden
    zone table: pile, shared, public
    setup:
        move all_cards() to deck
        shuffle deck
    turn:
        draw from deck to table as c
        log 10 / c.value
        end game
    """
FLAKY_CARDS = "".join(f"- {{name: V{v}, type: Tok, value: {v}}}\n" for v in range(5))


def test_simulate_reports_failing_games_and_goes_on(tmp_path):
    rs = tmp_path / "flaky"
    write(rs / "game.rules", FLAKY)
    write(rs / "cards" / "cards.yaml", FLAKY_CARDS)
    out = tmp_path / "r.json"
    r = grimoire("simulate", rs, "-n", 40, "--seed", 3, "--json", out, "--quiet")
    report = json.loads(out.read_text())
    errors = report["errors"]
    assert r.returncode == 1
    assert 0 < len(errors) < 40 and report["completed"] + len(errors) == 40
    for e in errors:
        assert isinstance(e["seed"], int) and "division by zero" in e["error"]
        assert "game.rules:12:" in e["error"]
    first = errors[0]
    assert f"(seed {first['seed']})" in r.stdout and "division by zero" in r.stdout
    # the reported seed reproduces the failure
    from interpreter.api import load_program
    g = new_game(load_program(rs), 2, first["seed"])
    assert g.error is not None and "division by zero" in str(g.error)


def test_play_human_quit_save_resume_and_replay(tmp_path):
    save, log = tmp_path / "save.json", tmp_path / "game.jsonl"
    r = grimoire("play", RULESET, "--players", 2, "--seed", 4, "--seat", "1=human", "--save", save,
                 input="1\n1\nnot a number\n2\n1\nq\n")
    assert r.returncode == 0, r.stderr
    assert "you are player 1" in r.stdout and "please type a number" in r.stdout
    # a hidden pile shows its size only
    assert re.search(r"draw pile: \d+ cards, face down", r.stdout)
    assert save.exists() and "saved to" in r.stdout
    saved = json.loads(save.read_text())
    assert len(saved["choices"]) >= 4
    # resume with the human seat again, then quit at once (end of input works as `q`)
    r = grimoire("play", "--resume", save, "--seat", "1=human", "--save", save, input="")
    assert r.returncode == 0, r.stderr
    assert json.loads(save.read_text())["choices"] == saved["choices"]
    # resume with a bot in the human's seat to the end, logging the whole game, and replay that log
    r = grimoire("play", "--resume", save, "--seat", "1=random", "--log", log)
    assert r.returncode == 0, r.stderr
    assert "final scores" in r.stdout and "winner" in r.stdout
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    assert [x["choice"] for x in lines[1:1 + len(saved["choices"])]] == saved["choices"]
    r = grimoire("replay", log)
    assert r.returncode == 0, r.stderr


def test_play_rejects_bad_seat():
    r = grimoire("play", RULESET, "--players", 2, "--seat", "5=human")
    assert r.returncode == 2 and "seat" in r.stderr and "Traceback" not in r.stderr


SCENARIO_RULES = """\
    game "S":
        players 2..4
    stat n: 0..10 = 0
    turn:
        if you may "Add?":
            n += 3
        end game
    """


def test_scenario_exit_codes(tmp_path):
    write(tmp_path / "s.rules", SCENARIO_RULES)
    good = write(tmp_path / "good.yaml", """\
        name: adding three
        covers: [S-1]
        ruleset: s.rules
        players: 2
        choices: [yes]
        expect:
          stats: {n: 3}
          over: true
        """)
    bad = write(tmp_path / "bad.yaml", """\
        name: adding four
        covers: [S-1]
        ruleset: s.rules
        players: 2
        choices: [yes]
        expect:
          stats: {n: 4}
        """)
    r_good, r_bad, r_both = grimoire_many(["scenario", good], ["scenario", bad], ["scenario", good, bad])
    assert r_good.returncode == 0 and "1 passed, 0 failed" in r_good.stdout
    assert r_bad.returncode == 1
    assert "FAIL" in r_bad.stdout and "expected 4, got 3" in r_bad.stdout
    assert r_both.returncode == 1 and "1 passed, 1 failed" in r_both.stdout


def test_validate_reads_standard_input_and_counts_must_be_positive():
    """`validate -` checks a rule file piped in (an editor's buffer), naming it <stdin>; a batch of
    no games or a negative count is refused by argparse with a clear message, not run."""
    bad = 'game "Piped":\n    players 2\n\nturn:\n    movee x\n'
    r = grimoire("validate", "-", input=bad)
    assert r.returncode == 1
    assert r.stdout.startswith("<stdin>:5:5: error:") and "did you mean `move`?" in r.stdout
    assert "grimoire-stdin" not in r.stdout + r.stderr
    good = (ROOT / "rulesets" / "tutorial_fireflies" / "game.rules").read_text(encoding="utf-8")
    r = grimoire("validate", "-", "--format", "json", input=good)
    assert r.returncode == 0 and json.loads(r.stdout)["ok"] is True
    for n in ("0", "-3"):
        r = grimoire("simulate", RULESET, "-n", n)
        assert r.returncode == 2 and f"must be at least 1, not {n}" in r.stderr and "Traceback" not in r.stderr


def test_diagnostics_are_coloured_on_a_terminal_and_plain_when_piped(tmp_path):
    """On a terminal the severity, location, caret and hint are coloured; piped (and with NO_COLOR)
    the text is plain, so tools and files get no escape codes."""
    pexpect = __import__("pytest").importorskip("pexpect")
    bad = write(tmp_path / "bad" / "game.rules", 'game "Bad":\n    players 2\n\nturn:\n    movee x\n')
    child = pexpect.spawn(sys.executable, ["-m", "interpreter", "validate", str(bad)], cwd=str(ROOT),
                          env={**ENV, "TERM": "xterm-256color", "NO_COLOR": ""}, encoding="utf-8", timeout=60)
    out = child.read()
    child.close()
    assert "\x1b[" in out and "error" in out and "movee" in out
    piped = grimoire("validate", bad)
    assert piped.returncode == 1 and "\x1b[" not in piped.stdout and ": error: " in piped.stdout
    child = pexpect.spawn(sys.executable, ["-m", "interpreter", "validate", str(bad)], cwd=str(ROOT),
                          env={**ENV, "TERM": "xterm-256color", "NO_COLOR": "1"}, encoding="utf-8", timeout=60)
    out = child.read()
    child.close()
    assert "\x1b[" not in out and ": error: " in out


@pytest.mark.parametrize("command", [[], ["simulate"], ["play"], ["scenario"], ["replay"], ["serve"], ["sweep"]])
def test_no_command_offers_an_engine_option(command, capsys):
    """The engine is picked in one place (engine/factory.new_game), never by the user: no help
    mentions `--engine`, and a command given it refuses it as an unknown option (exit 2)."""
    with pytest.raises(SystemExit) as shown:
        cli_main([*command, "--help"])
    assert shown.value.code == 0
    assert "--engine" not in capsys.readouterr().out
    if command:
        with pytest.raises(SystemExit) as refused:
            cli_main([*command, str(RULESET), "--engine", "tasks"])
        assert refused.value.code == 2 and "unrecognized arguments: --engine tasks" in capsys.readouterr().err
