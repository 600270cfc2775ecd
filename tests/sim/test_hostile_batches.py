"""Batches go on (issue 25): a game that fails, overruns its wall clock or ends with a score that
is not a number is reported with its seed (and a replay log), the rest are summarised; a worker
process killed by its PID is replaced and its games re-run from their seeds; `--failed-logs`
writes a log even for a deeply nested state; the same seed gives the same report whatever fails.
Each test states its time bound."""
from __future__ import annotations

import importlib.util
import json
import multiprocessing
import os
import signal
import sys
import textwrap
import time
from pathlib import Path

import pytest

from interpreter.sim.backends import run_chunks
from interpreter.cli import main
from interpreter.play.session import replay
from interpreter.sim.simulate import simulate

PICK = """
game "Scores":
    players 2

player stat gold = 0
stat pick = "ok"

turn:
    you choose v from ["ok", "bad"] "Which?"
    set pick to v
    {extra}
    end game

score p: {bad} if pick == "bad" else gold of p + 1
"""


def _ruleset(tmp: Path, bad: str = "1", extra: str = "pass", name: str = "scores") -> Path:
    folder = tmp / name
    folder.mkdir()
    (folder / "game.rules").write_text(textwrap.dedent(PICK).lstrip().format(bad=bad, extra=extra), encoding="utf-8")
    return folder


def _without_timing(report: dict) -> dict:
    return {k: v for k, v in report.items() if k != "timing"}


def _card_ruleset(tmp_path: Path, bad: str) -> Path:
    folder = _ruleset(tmp_path, bad)
    (folder / "game.rules").write_text((folder / "game.rules").read_text().replace(
        "player stat gold = 0", "player stat gold = 0\ncard type Thing:\n    value: 0..9 = 1\nzone deck: pile, shared, hidden\n"
        "setup:\n    move all_cards() to deck\n"), encoding="utf-8")
    (folder / "cards").mkdir()
    (folder / "cards" / "c.yaml").write_text("- {name: Coin, type: Thing}\n", encoding="utf-8")
    return folder


@pytest.mark.parametrize("bad", ["[1, 2]", "first(all_cards())"])
def test_a_score_that_can_be_no_number_is_refused_before_any_game(tmp_path, bad):
    """A score whose value may be a list or a card (a conditional of two kinds) is known before
    the batch: the code generator types it, and the batch does not start."""
    folder = _card_ruleset(tmp_path, bad) if "cards" in bad else _ruleset(tmp_path, bad)
    with pytest.raises(ValueError, match="Scores cannot be run: the code generator does not handle"):
        simulate(str(folder), 40, 2, 3, ["random"])


@pytest.mark.parametrize("bad, word", [
    ("none", "is none, not a number"),
    ("doubled", "is too large"),  # the addition bound (2^63) stops it
])
def test_bad_score_is_a_reported_game_and_the_rest_are_summarised(tmp_path, bad, word):
    if bad == "doubled":  # double a stat until arithmetic refuses
        folder = _ruleset(tmp_path, "gold of p", extra="if v == \"bad\":\n        set gold of 1 to 1\n"
                          "        repeat 4000 times:\n            set gold of 1 to gold of 1 + gold of 1")
    else:
        folder = _ruleset(tmp_path, bad)
    start = time.perf_counter()
    report = simulate(str(folder), 40, 2, 3, ["random"])
    assert time.perf_counter() - start < 60
    errors = report["errors"]
    assert 0 < len(errors) < 40 and report["completed"] == 40 - len(errors)
    for e in errors:
        assert word in e["error"] and f"seed {e['seed']}" in e["error"] and e["choices"] == [1]
    assert report["seats"][0]["score"]["max"] >= 1  # the good games are summarised
    again = simulate(str(folder), 40, 2, 3, ["random"])
    assert _without_timing(again) == _without_timing(report)


def test_runaway_game_stops_at_the_wall_clock_and_the_batch_goes_on(tmp_path):
    """A game that loops between decisions (under a huge step limit) is stopped after 1 s."""
    folder = _ruleset(tmp_path, extra="if v == \"bad\":\n        repeat:\n            you gain 1 gold")
    start = time.perf_counter()
    report = simulate(str(folder), 8, 2, 1, ["random"], max_seconds=1, max_steps=10 ** 9)
    elapsed = time.perf_counter() - start
    bad = report["errors"]
    assert bad and report["completed"] == 8 - len(bad)
    assert elapsed < 1.5 * len(bad) + 20
    assert all("longer than 1 s" in e["error"] and f"seed {e['seed']}" in e["error"] for e in bad)


def _kill_first_time(marker: str, victim: int, indices: list[int]) -> list[dict]:
    """A chunk runner that kills its own worker (as the OOM killer would) the first time it
    meets game `victim`."""
    if victim in indices and not os.path.exists(marker):
        Path(marker).write_text("killed")
        os.kill(os.getpid(), signal.SIGKILL)
    return [{"index": i, "value": i * i} for i in indices]


def _kill_always(victim: int, indices: list[int]) -> list[dict]:
    if victim in indices:
        os.kill(os.getpid(), signal.SIGKILL)
    return [{"index": i, "value": i * i} for i in indices]


def test_dead_worker_is_replaced_and_its_games_run_again(tmp_path):
    stats: dict = {}
    start = time.perf_counter()
    rows = run_chunks(_kill_first_time, (str(tmp_path / "marker"), 7), [[i, i + 1] for i in range(0, 20, 2)],
                      workers=2, stats=stats)
    assert time.perf_counter() - start < 60
    assert sorted(r["index"] for r in rows) == list(range(20)) and all(r["value"] == r["index"] ** 2 for r in rows)
    assert stats["worker_restarts"] >= 1


def test_game_that_always_kills_its_worker_is_reported_lost_and_the_rest_complete():
    start = time.perf_counter()
    rows = run_chunks(_kill_always, (5,), [[i, i + 1, i + 2] for i in range(0, 12, 3)], workers=2,
                      lost=lambda i, why: {"index": i, "error": why})
    assert time.perf_counter() - start < 120
    assert sorted(r["index"] for r in rows) == list(range(12))
    assert [r["index"] for r in rows if "error" in r] == [5]
    assert "died" in next(r for r in rows if "error" in r)["error"]


def test_worker_killed_by_pid_mid_batch_gives_the_same_report(tmp_path):
    """A real batch: one worker is SIGKILLed while games run; the report equals the undisturbed one."""
    folder = Path(__file__).resolve().parents[2] / "rulesets" / "toil_and_troublez"
    quiet = simulate(str(folder), 60, 3, 5, ["random"], workers=2)
    killed: list[int] = []

    def kill_one(_k: int) -> None:
        children = multiprocessing.active_children()
        if not killed and children:
            killed.append(children[0].pid)
            os.kill(children[0].pid, signal.SIGKILL)
    start = time.perf_counter()
    hit = simulate(str(folder), 60, 3, 5, ["random"], workers=2, progress=kill_one)
    assert time.perf_counter() - start < 240
    assert killed and hit["timing"].get("worker_restarts", 0) >= 1
    assert _without_timing(hit) == _without_timing(quiet)


def test_failed_logs_are_written_for_a_deeply_nested_state(tmp_path, capsys):
    """A state holding a list nested 700 deep used to break the log's digest (RecursionError); lists
    now nest at most 100 deep (runtime/memory.py), so the deepest state a game can hold is logged."""
    folder = _ruleset(tmp_path, extra="stat_placeholder")
    text = (folder / "game.rules").read_text().replace("stat pick = \"ok\"", "stat pick = \"ok\"\nstat nest = 0")
    text = text.replace("    stat_placeholder", "    repeat 99 times:\n        set nest to [nest]\n"
                        "    set gold of 1 to 1 / 0")
    (folder / "game.rules").write_text(text, encoding="utf-8")
    out = tmp_path / "logs"
    start = time.perf_counter()
    code = main(["simulate", str(folder), "-n", "2", "--quiet", "--failed-logs", str(out)])
    assert time.perf_counter() - start < 60
    assert code == 1
    logs = sorted(out.glob("*.jsonl"))
    assert len(logs) == 2
    end = json.loads(logs[0].read_text().splitlines()[-1])
    assert "division by zero" in end["error"] and end["digest"]
    g = replay(logs[0])
    assert g.error is not None and "division by zero" in str(g.error)


def test_failed_log_of_a_bad_score_game_is_written_and_replays(tmp_path):
    folder = _ruleset(tmp_path, "none")
    out = tmp_path / "logs"
    assert main(["simulate", str(folder), "-n", "6", "--quiet", "--failed-logs", str(out)]) == 1
    logs = sorted(out.glob("*.jsonl"))
    assert logs
    end = json.loads(logs[0].read_text().splitlines()[-1])
    assert "is none, not a number" in end["error"]
    assert replay(logs[0]).over


@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="ray is not installed")
def test_ray_backend_reports_a_game_that_always_kills_its_worker():
    import ray.cloudpickle
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])  # Ray workers cannot import tests/
    start = time.perf_counter()
    rows = run_chunks(_kill_always, (5,), [[i, i + 1, i + 2] for i in range(0, 12, 3)], workers=2, backend="ray",
                      lost=lambda i, why: {"index": i, "error": why})
    assert time.perf_counter() - start < 240
    assert sorted(r["index"] for r in rows) == list(range(12))
    assert [r["index"] for r in rows if "error" in r] == [5]


def test_a_stat_doubled_without_end_is_stopped_reported_logged_and_replayed(tmp_path, capsys):
    """A stat doubled 20,000 times once made a 6,000-digit score (more than Python writes as text)
    that broke the report, the state digest, `--failed-logs`, `play --log` and the result line; now
    the addition bound stops it at 2^63 with a rule error, and every output still works."""
    folder = _ruleset(tmp_path, "gold of p", extra="if v == \"bad\":\n        set gold of 1 to 1\n"
                      "        repeat 20000 times:\n            set gold of 1 to gold of 1 + gold of 1")
    out = tmp_path / "logs"
    start = time.perf_counter()
    assert main(["simulate", str(folder), "-n", "4", "--seed", "2", "--quiet",
                 "--failed-logs", str(out)]) == 1
    text = capsys.readouterr().out
    assert "is too large" in text and "game.rules:13" in text
    logs = sorted(out.glob("*.jsonl"))
    assert logs and replay(logs[0]).over
    log = tmp_path / "play.jsonl"
    for seed in range(10):  # a game where the first player picks "bad"
        main(["play", str(folder), "--seed", str(seed), "--log", str(log)])
        shown = capsys.readouterr().out
        if "is too large" in shown:
            break
    else:
        pytest.fail("no seed picked the bad option")
    assert main(["replay", str(log)]) == 0
    assert time.perf_counter() - start < 120


def test_the_wall_clock_holds_off_the_main_thread_too(tmp_path):
    """Where no timer signal can be used (a batch run from a thread), the bound is checked at
    every decision: a game that keeps asking forever still stops near its limit."""
    import threading
    folder = tmp_path / "endless"
    folder.mkdir()
    (folder / "game.rules").write_text('game "Endless":\n    players 2\n\nplayer stat gold = 0\n\nturn:\n'
                                       '    you choose v from ["a", "b"] "Which?"\n\nscore p: gold of p\n',
                                       encoding="utf-8")
    out: dict = {}
    for engine in ("direct",):
        t = threading.Thread(target=lambda e=engine: out.__setitem__(e, simulate(
            str(folder), 2, 2, 1, ["random"], max_seconds=1, max_turns=10 ** 9, max_decisions=10 ** 9,
            max_steps=10 ** 9)))
        start = time.perf_counter()
        t.start()
        t.join(30)
        assert not t.is_alive() and time.perf_counter() - start < 10
        assert all("longer than 1 s" in e["error"] for e in out[engine]["errors"]) and len(out[engine]["errors"]) == 2
