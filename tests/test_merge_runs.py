"""tools/merge_runs.py: a mutation run's outcomes, numbered as the rule files stood when it began,
merged into a ruleset's record at today's numbering (issue 24: Talisman's run is done in parts
while fixes move its lines)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

TOOLS = Path(__file__).resolve().parent.parent / "tools"
sys.path.insert(0, str(TOOLS))
import merge_runs  # noqa: E402


def _o(where: str, line: str, status: str = "killed", mutation: str = "m") -> dict:
    return {"where": where, "ids": [], "mutation": mutation, "scenarios": ["a.yaml"], "status": status, "line": line}


def test_an_outcome_follows_its_line_and_a_changed_line_is_dropped():
    old = {"game.rules": ["a = 1", "b = 2", "c = 3  # TA-001", "d = 4"]}
    new = {"game.rules": ["a = 1", "c = 3  # TA-001", "x = 9", "d = 5"]}
    kept, dropped = merge_runs.renumber(
        [_o("game.rules:2", "b = 2"), _o("game.rules:3", "c = 3"), _o("game.rules:4", "d = 4"),
         _o("cards.yaml:7", "gain 1")], old, new)
    assert [o["where"] for o in kept] == ["game.rules:2", "cards.yaml:7"]  # c moved up; card effects as they are
    assert dropped == 2  # b deleted, d edited: run again by the next --resume


def test_a_later_run_replaces_the_lines_it_visited_and_the_record_keeps_the_rest():
    record = [_o("g.rules:10", "x", "survived"), _o("g.rules:10", "x", "killed", "m2"), _o("g.rules:2", "y", "survived")]
    first = [_o("g.rules:10", "x", "survived")]
    second = [_o("g.rules:10", "x", "killed"), _o("g.rules:11", "z")]
    out = merge_runs.merge(record, [first, second])
    assert [(o["where"], o["status"]) for o in out] == [("g.rules:2", "survived"), ("g.rules:10", "killed"),
                                                         ("g.rules:11", "killed")]
    assert all(o["scenarios"] == [] for o in out)


def test_a_run_made_at_an_older_commit_lands_on_todays_lines(tmp_path):
    rules = tmp_path / "rulesets" / "tally"
    rules.mkdir(parents=True)
    (rules / "game.rules").write_text("one\ntwo\nthree\n")

    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", str(tmp_path), *args], check=True, capture_output=True, text=True).stdout
    git("init", "-q")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "v1", "--allow-empty")
    git("add", ".")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "v1")
    old = git("rev-parse", "HEAD").strip()
    (rules / "game.rules").write_text("zero\none\ntwo\nthree\n")  # a line inserted above: all move down
    record = tmp_path / "record.json"
    record.write_text(json.dumps([_o("game.rules:1", "one", "survived")]))
    run = tmp_path / "run.json"
    run.write_text(json.dumps([_o("game.rules:1", "one"), _o("game.rules:3", "three", "survived")]))
    assert merge_runs.main([str(record), f"{run}@{old}", "--ruleset", str(rules), "--record-at", old]) == 0
    out = json.loads(record.read_text())
    assert [(o["where"], o["status"]) for o in out] == [("game.rules:2", "killed"), ("game.rules:4", "survived")]


def test_an_outcome_numbered_at_another_commit_goes_where_its_code_stands_once():
    """A record whose parts were numbered at different commits: an outcome whose old place holds
    other code goes to the one line holding its code now; code on two lines is run again."""
    old = {"g.rules": ["x = 0", "a = 1", "b = 2"]}
    once = {"g.rules": ["a = 1", "b = 2"]}
    twice = {"g.rules": ["a = 1", "a = 1", "b = 2"]}
    stale = [_o("g.rules:1", "a = 1")]  # written when `a = 1` was the first line
    assert [o["where"] for o in merge_runs.renumber(stale, old, once)[0]] == ["g.rules:1"]
    assert merge_runs.renumber(stale, old, twice) == ([], 1)


def test_a_card_effects_outcome_follows_its_line_as_a_rule_lines_does(tmp_path):
    """A run names a card effect's line by its card file (`deck.yaml:N`); a card added above it at
    a later commit moves it down, and an edited effect line is dropped (the record once kept card
    outcomes at the numbers they were run at, however the file had moved since)."""
    rules = tmp_path / "rulesets" / "tally"
    cards = tmp_path / "cards" / "tally"
    rules.mkdir(parents=True)
    cards.mkdir(parents=True)
    (rules / "game.rules").write_text("one\n")
    (cards / "deck.yaml").write_text("- name: A\n  effect: |\n    gain 1\n    lose 2\n")

    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", str(tmp_path), *args], check=True, capture_output=True, text=True).stdout
    git("init", "-q")
    git("add", ".")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "v1")
    old = git("rev-parse", "HEAD").strip()
    (cards / "deck.yaml").write_text("- name: B\n  effect: |\n    pass\n- name: A\n  effect: |\n    gain 1\n    lose 3\n")
    record = tmp_path / "record.json"
    record.write_text(json.dumps([_o("deck.yaml:3", "gain 1", "survived"), _o("deck.yaml:4", "lose 2", "survived")]))
    run = tmp_path / "run.json"
    run.write_text(json.dumps([_o("deck.yaml:6", "gain 1")]))  # run at today's files
    assert merge_runs.main([str(record), f"{run}@HEAD", "--ruleset", str(rules), "--record-at", old]) == 0
    out = json.loads(record.read_text())
    assert [(o["where"], o["status"]) for o in out] == [("deck.yaml:6", "killed")]


def test_a_deleted_lines_outcome_is_dropped_not_moved_onto_a_line_with_the_same_code():
    """A line deleted since its run (`set ended of p to 1` in the Realm of Souls' kill hook) whose
    code stands on one other line now (the Portal's `set ended of p to 1`): its outcome is dropped,
    not given to that line, which no run met (the old fallback moved it there)."""
    old = {"g.rules": ["a = 1", "end = 1", "b = 2", "end = 1"]}
    new = {"g.rules": ["a = 1", "b = 2", "end = 1"]}
    kept, dropped = merge_runs.renumber([_o("g.rules:2", "end = 1", "survived")], old, new)
    assert (kept, dropped) == ([], 1)
    kept, _ = merge_runs.renumber([_o("g.rules:4", "end = 1")], old, new)  # the kept line follows
    assert [o["where"] for o in kept] == ["g.rules:3"]


def test_a_comment_edited_on_a_line_keeps_its_outcomes():
    old = {"g.rules": ["a = 1", "end = 1   # old words", "b = 2"]}
    new = {"g.rules": ["a = 1", "end = 1   # new words", "b = 2"]}
    kept, dropped = merge_runs.renumber([_o("g.rules:2", "end = 1")], old, new)
    assert ([o["where"] for o in kept], dropped) == (["g.rules:2"], 0)
