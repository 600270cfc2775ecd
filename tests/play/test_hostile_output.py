"""Output hygiene and scenario runs (issue 25): control characters in content-supplied text
(card names, prompts, end reasons, scenario names) reach a terminal escaped, never raw — no
cleared screen, no retitled window, no fake menu option; `grimoire scenario` reports each bad
scenario file and goes on with the rest."""
from __future__ import annotations

import io
import os
import sys
import textwrap
import time
from pathlib import Path

import pytest

from interpreter.cli import main

ROOT = Path(__file__).resolve().parents[2]
TOIL = ROOT / "rulesets" / "toil_and_troublez"

RULES = '''
game "Esc":
    players 2

card type Thing:
    value: 0..9 = 1

zone deck: pile, shared, public
zone hand: set, per player, public
player stat gold = 0

setup:
    move all_cards() to deck

turn:
    you choose c from deck "Take \x1b[31mwhich\x1b[0m?"
    move c to your hand
    if deck is empty:
        end game "\x1b]0;pwned\x07done"

score p: count(hand of p)
'''
CARDS = ('- {name: "Evil\\x1b[2J\\n  2) Fake option\\u202e", type: Thing, copies: 2}\n'
         '- {name: "Good", type: Thing, copies: 2}\n')
RAW = ("\x1b", "\x07", "\u202e")


@pytest.fixture
def hostile(tmp_path: Path) -> Path:
    folder = tmp_path / "esc"
    (folder / "cards").mkdir(parents=True)
    (folder / "game.rules").write_text(textwrap.dedent(RULES).lstrip(), encoding="utf-8")
    (folder / "cards" / "c.yaml").write_text(CARDS, encoding="utf-8")
    return folder


def _clean(text: str) -> None:
    assert not any(ch in text for ch in RAW), repr(text[:300])


def test_play_shows_content_text_escaped(hostile, monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 50))
    start = time.perf_counter()
    assert main(["play", str(hostile), "--seat", "1=human"]) == 0
    out = capsys.readouterr().out
    _clean(out)
    assert "Take \\x1b[31mwhich\\x1b[0m?" in out
    assert "1) Evil\\x1b[2J\\n  2) Fake option\\u202e" in out
    # the only menu lines are the real options: no line of output starts a fake "2)" option
    assert not any(line.startswith("  2) Fake") for line in out.splitlines())
    assert time.perf_counter() - start < 30


def test_simulate_summary_escapes_card_names_and_end_reasons(hostile, capsys):
    assert main(["simulate", str(hostile), "-n", "3", "--quiet"]) == 0
    out = capsys.readouterr().out
    _clean(out)
    assert "(reasons: \\x1b]0;pwned\\x07done 3)" in out
    assert "Evil\\x1b[2J\\n  2) Fake option\\u202e: in 3 of 3 games" in out


def test_diagnostics_and_errors_escape_content_text(tmp_path, capsys):
    folder = tmp_path / "bad"
    (folder / "cards").mkdir(parents=True)
    (folder / "game.rules").write_text(textwrap.dedent(RULES).lstrip(), encoding="utf-8")
    (folder / "cards" / "c.yaml").write_text('- {name: "X", type: "Th\\x1b[2Jing"}\n', encoding="utf-8")
    assert main(["validate", str(folder)]) == 1
    out = capsys.readouterr().out
    _clean(out)
    assert "unknown card type `Th\\x1b[2Jing`" in out


def test_scenario_output_is_escaped(hostile, tmp_path, capsys):
    sc = tmp_path / "esc.yaml"
    sc.write_text(f'name: "\\x1b[2Jevil"\nruleset: {hostile}\nplayers: 2\nexpect: {{over: true}}\n', encoding="utf-8")
    assert main(["scenario", str(sc)]) == 1
    out = capsys.readouterr().out
    _clean(out)
    assert "\\x1b[2Jevil" in out and "Take \\x1b[31mwhich" in out


HOSTILE_SCENARIOS = {
    "deep.yaml": "name: deep\nruleset: {r}\nplayers: 2\nchoices: " + "[" * 3000 + "]" * 3000 + "\n",
    "list.yaml": "- 1\n",
    "checkpoint.yaml": "name: bad checkpoint\nruleset: {r}\nplayers: 2\nchoices: [{{expect: 5}}]\n",
    "players.yaml": "name: many players\nruleset: {r}\nplayers: 1000000000000000000000000\n",
    "stats.yaml": 'name: odd stats\nruleset: {r}\nplayers: 2\nsetup: {{stats: {{"x of y": [1]}}, start_player: 99}}\n',
    "binary.yaml": b"name: \xff\xfe\n",
    "missing.yaml": None,
}


def test_scenario_run_reports_each_bad_file_and_goes_on(tmp_path, capsys):
    files = []
    for name, text in HOSTILE_SCENARIOS.items():
        f = tmp_path / name
        if isinstance(text, bytes):
            f.write_bytes(text)
        elif text is not None:
            f.write_text(text.format(r=TOIL), encoding="utf-8")
        files.append(f)
    os.mkfifo(tmp_path / "fifo.yaml")
    files.append(tmp_path / "fifo.yaml")
    good = tmp_path / "good.yaml"
    good.write_text(f"name: good one\nruleset: {TOIL}\nplayers: 2\nexpect: {{over: false}}\n", encoding="utf-8")
    files.insert(3, good)
    start = time.perf_counter()
    assert main(["scenario", *map(str, files)]) == 1
    assert time.perf_counter() - start < 60
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == f"1 passed, {len(files) - 1} failed"
    for f in files:
        if f != good:
            assert f"FAIL {f}" in out
    assert "nested more than 50 levels" in out and "FIFO" in out and "not UTF-8" in out
    assert "Traceback" not in out and "internal error" not in out
