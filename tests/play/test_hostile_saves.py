"""Hostile saves and logs (issue 25): versions are compared, digests are required and chained so
no line can be edited unnoticed, malformed files are plain messages (never internal errors, never
a hang), a save or log names a ruleset far away only if the user names it too, and a resumed game
goes on exactly as the uninterrupted one (bot seats keep their random state)."""
from __future__ import annotations

import io
import json
import os
import sys
import time
from pathlib import Path

import pytest

from interpreter.play import session
from interpreter.play.agents import RandomAgent
from interpreter.api import load_program
from interpreter.cli import main
from interpreter.engine.factory import new_game

ROOT = Path(__file__).resolve().parents[2]
RULESET = ROOT / "rulesets" / "toil_and_troublez"


@pytest.fixture(scope="module")
def program():
    return load_program(RULESET)


def _log(program, path: Path, seed: int = 3) -> list[dict]:
    rec = session.play(program, 2, seed, [RandomAgent(f"{seed}/{p}") for p in range(2)], log=True,
                       ruleset_path=str(RULESET))
    session.write_log(path, rec.lines)
    return [json.loads(x) for x in path.read_text().splitlines()]


def _save(program, path: Path, answers: int = 5) -> dict:
    g = new_game(program, 2, 8)
    for _ in range(answers):
        g.answer(0)
    session.save_game(g, path, str(RULESET))
    return json.loads(path.read_text())


def _write(path: Path, lines: list[dict]) -> Path:
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    return path


def test_log_and_save_versions_are_compared(program, tmp_path):
    lines = _log(program, tmp_path / "g.jsonl")
    for version, word in ((1, "format 1, without chained digests"), (99, "newer Grimoire"), ("2", "not a number")):
        lines[0]["grimoire_log"] = version
        with pytest.raises(session.ReplayMismatch, match=word):
            session.replay(_write(tmp_path / "v.jsonl", lines))
    data = _save(program, tmp_path / "s.json")
    data["grimoire_save"] = session.LOG_VERSION + 1
    (tmp_path / "s.json").write_text(json.dumps(data))
    with pytest.raises(session.ReplayMismatch, match="newer Grimoire"):
        session.load_saved(tmp_path / "s.json")


def test_an_edited_prompt_is_caught_by_the_chain_naming_the_step(program, tmp_path):
    """A prompt is not re-checked on replay; the chained digest still names the edited line."""
    lines = _log(program, tmp_path / "g.jsonl")
    lines[4]["prompt"] = "Nothing to see here"
    with pytest.raises(session.ReplayMismatch, match=f"^step {lines[4]['step']}: the line was edited"):
        session.replay(_write(tmp_path / "e.jsonl", lines))
    lines = _log(program, tmp_path / "g.jsonl")
    del lines[3]["chain"]
    with pytest.raises(session.ReplayMismatch, match="no chained digest"):
        session.replay(_write(tmp_path / "e.jsonl", lines))


def test_log_digests_are_required(program, tmp_path):
    lines = _log(program, tmp_path / "g.jsonl")
    for line in lines:
        line.pop("digest", None)
    with pytest.raises(session.ReplayMismatch, match="^step 0: the line has no state digest"):
        session.replay(_write(tmp_path / "d.jsonl", lines))


def test_save_with_digests_deleted_or_edited_is_refused(program, tmp_path):
    data = _save(program, tmp_path / "s.json")
    assert len(data["digests"]) == 5 and data["chain"]
    gone = {k: v for k, v in data.items() if k != "digests"}
    (tmp_path / "a.json").write_text(json.dumps(gone))
    with pytest.raises(session.ReplayMismatch, match="needs its answers, the state digest"):
        session.load_saved(tmp_path / "a.json")
    emptied = dict(data, digests=[])
    (tmp_path / "b.json").write_text(json.dumps(emptied))
    with pytest.raises(session.ReplayMismatch, match="^step 0: the save has no state digest"):
        session.load_saved(tmp_path / "b.json")
    retitled = dict(data, agents=[{"kind": "random", "rng": None}] * 2)  # a field no replay re-checks
    (tmp_path / "c.json").write_text(json.dumps(retitled))
    with pytest.raises(session.ReplayMismatch, match="edited after it was written"):
        session.load_saved(tmp_path / "c.json")


MALFORMED = {
    "list": "[]",
    "not json": "{not json",
    "players a text": '{"grimoire_save": 2, "players": "x", "seed": 1, "choices": [], "digests": [], "digest": ""}',
    "choices a map": '{"grimoire_save": 2, "players": 2, "seed": 1, "choices": {}, "digests": [], "digest": ""}',
    "deep": "[" * 200_000 + "]" * 200_000,
    "huge number": '{"grimoire_save": ' + "9" * 50_000 + "}",
    "seats": '{"grimoire_save": 2, "players": 2, "seed": 1, "choices": [], "digests": [], "digest": "", "agents": [1]}',
}


@pytest.mark.parametrize("name", list(MALFORMED))
def test_malformed_saves_and_logs_are_messages_not_internal_errors(tmp_path, capsys, name):
    f = tmp_path / "bad.json"
    f.write_text(MALFORMED[name], encoding="utf-8")
    start = time.perf_counter()
    with pytest.raises(session.ReplayMismatch):
        session.load_saved(f, str(RULESET))
    with pytest.raises(session.ReplayMismatch):
        session.replay(f, str(RULESET))
    assert main(["play", "--resume", str(f)]) == 1
    assert main(["replay", str(f)]) == 1
    err = capsys.readouterr().err
    assert "internal error" not in err and "Traceback" not in err
    assert time.perf_counter() - start < 30


def test_fifo_folder_and_binary_files_as_saves_or_logs(tmp_path, capsys):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    binary = tmp_path / "bin.json"
    binary.write_bytes(b'{"grimoire_save": 2, "x": "\xff"}')
    start = time.perf_counter()
    for f, word in ((fifo, "FIFO"), (tmp_path, "folder"), (binary, "not UTF-8")):
        with pytest.raises(session.ReplayMismatch, match=word):
            session.load_saved(f)
        with pytest.raises(session.ReplayMismatch, match=word):
            session.replay(f)
    assert time.perf_counter() - start < 10


def test_a_save_naming_a_ruleset_elsewhere_needs_the_user_to_name_it(program, tmp_path, capsys, monkeypatch):
    elsewhere = tmp_path / "elsewhere" / "deep" / "down"
    elsewhere.mkdir(parents=True)
    data = _save(program, elsewhere / "s.json")
    monkeypatch.chdir(tmp_path / "elsewhere")
    # the save names the repository's ruleset: neither here, nor beside the save
    assert main(["play", "--resume", str(elsewhere / "s.json")]) == 1
    assert "--ruleset" in capsys.readouterr().err
    # named by the user, it is used
    code = main(["play", str(RULESET), "--resume", str(elsewhere / "s.json")])
    assert code == 0, capsys.readouterr().err
    assert data["ruleset"] == str(RULESET)


def _answers(n: int) -> io.StringIO:
    return io.StringIO("1\n" * n)


def test_resumed_game_goes_on_exactly_as_the_uninterrupted_one(tmp_path, monkeypatch, capsys):
    """Seat 1 is a human answering `1` every time; seat 2 a random bot. Quit after 4 answers,
    save, resume: the bot must go on with the random stream it had, so the whole game (answers,
    states, result) equals the game played in one go."""
    whole, saved, rest = tmp_path / "whole.jsonl", tmp_path / "save.json", tmp_path / "rest.jsonl"
    monkeypatch.setattr(sys, "stdin", _answers(500))
    assert main(["play", str(RULESET), "--players", "2", "--seed", "11", "--seat", "1=human", "--log", str(whole)]) == 0
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 4 + "q\n"))
    assert main(["play", str(RULESET), "--players", "2", "--seed", "11", "--seat", "1=human", "--save", str(saved)]) == 0
    assert json.loads(saved.read_text())["agents"][1]["kind"] == "random"
    monkeypatch.setattr(sys, "stdin", _answers(500))
    assert main(["play", str(RULESET), "--resume", str(saved), "--seat", "1=human", "--log", str(rest)]) == 0
    capsys.readouterr()
    a = [json.loads(x) for x in whole.read_text().splitlines()]
    b = [json.loads(x) for x in rest.read_text().splitlines()]
    assert len(json.loads(saved.read_text())["choices"]) > 4  # bot answers came between the human's
    assert [(x.get("choice"), x.get("digest")) for x in a] == [(x.get("choice"), x.get("digest")) for x in b]
    assert a[-1]["result"] == b[-1]["result"]


def test_play_of_a_game_scored_with_a_card_is_refused_in_words(tmp_path, capsys):
    """`play --log` once died encoding a result with a card as a score; the code generator types
    the score, so such a game is refused before it starts, in words, and no log is begun."""
    folder = tmp_path / "cardscore"
    (folder / "cards").mkdir(parents=True)
    (folder / "game.rules").write_text(
        'game "Card score":\n    players 2\n\ncard type Thing:\n    value: 0..9 = 1\n\n'
        'zone deck: pile, shared, hidden\nzone hand: set, per player, public\n\nsetup:\n'
        '    move all_cards() to deck\n\nturn:\n    you choose c from deck "Take which?"\n'
        '    move c to your hand\n    if deck is empty:\n        end game\n\n'
        'score p: first(all_cards())\n', encoding="utf-8")
    (folder / "cards" / "c.yaml").write_text("- {name: Coin, type: Thing, copies: 4}\n", encoding="utf-8")
    log = tmp_path / "g.jsonl"
    assert main(["play", str(folder), "--log", str(log)]) == 2
    err = capsys.readouterr().err
    assert "Card score cannot be run: the code generator does not handle a score that is a card" in err
    assert "Traceback" not in err and not (log.exists() and log.read_text().strip())
