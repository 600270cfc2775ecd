"""The golden transcripts (tests/transcripts.py): each one replays exactly, and a difference is
reported as the first line that differs, with its step and a few lines around it — not as a hash.
After a deliberate rule change: `python tests/transcripts.py --write RULESET`."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import transcripts as T
from golden_games import ROOT, key, recorded, same_game

FILES = sorted(T.FOLDER.glob("*.txt"))


def test_every_ruleset_and_player_count_has_one_transcript():
    expected = {T.path_of(rs, n).name for rs, n in T.games()}
    assert len(expected) >= 20  # seven rulesets, 1 to 6 players
    assert {p.name for p in FILES} == expected, "python tests/transcripts.py --add (or delete the stale ones)"


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_transcript_replays(path: Path):
    ruleset, players = T.parse_name(path)
    now, fingerprint = T.record(ruleset, players)
    diff = T.first_difference(path.read_text(encoding="utf-8"), now, str(path.relative_to(ROOT)))
    if diff:
        pytest.fail(f"{diff}\nAfter a deliberate rule change: python tests/transcripts.py --write {ruleset}",
                    pytrace=False)
    # the transcript is the golden game of that seed, played to the same end
    golden = recorded((ruleset, players, T.INDEX, T.AGENT))
    assert same_game(golden, fingerprint), (key(ruleset, players, T.INDEX, T.AGENT), golden, fingerprint)


def test_transcript_shows_decisions_options_answers_and_result():
    """The small ruleset's transcript in full: every decision numbered, its options, the answer."""
    text, fp = T.record("tutorial_fireflies", 2)
    steps = re.findall(r"^step (\d+) · player (\d) · (\w+) · (.+)$", text, re.M)
    assert [int(s[0]) for s in steps] == list(range(1, fp["decisions"] + 1))
    assert {s[1] for s in steps} == {"1", "2"} and "may" in {s[2] for s in steps}
    assert text.count("  answer: ") == fp["decisions"] == fp["result"]["decisions"]
    assert text.count("\n  > ") == fp["decisions"]  # one option marked chosen per decision
    assert "log: The fireflies escape!" in text
    scores = ", ".join(map(str, fp["result"]["scores"]))
    assert f"\nresult\n  scores: {scores}\n" in text


def test_long_games_are_cut_and_say_so():
    text = T.path_of("talisman", 2).read_text(encoding="utf-8")
    assert f"Shown: the first {T.MAX_DECISIONS} decisions" in text.splitlines()[2]
    assert f"\nstep {T.MAX_DECISIONS} · " in text and f"\nstep {T.MAX_DECISIONS + 1} · " not in text
    more = re.search(r"^\.\.\. (\d+) more decisions not shown \((\d+) in all\)$", text, re.M)
    assert more and int(more.group(1)) + T.MAX_DECISIONS == int(more.group(2))
    assert f"\n  decisions: {more.group(2)}\n" in text  # the result counts the whole game
    assert "\nresult\n" in text


def test_first_difference_names_the_line_and_step_with_context():
    old = "\n".join(["# head", "", "step 1 · player 1 · may · Go?", "  > 1. yes", "    2. no", "  answer: 1",
                     "", "step 2 · player 2 · may · Go?", "    1. yes", "  > 2. no", "  answer: 2", ""])
    new = old.replace("    1. yes\n  > 2. no\n  answer: 2", "  > 1. yes\n    2. no\n  answer: 1")
    msg = T.first_difference(old, new, "x.txt")
    assert msg.splitlines()[0] == "x.txt:9: the game first differs at line 9 (step 2)"
    assert "  recorded:     1. yes" in msg and "  now:        > 1. yes" in msg
    assert "-  answer: 2" in msg and "+  answer: 1" in msg
    assert " step 2 · player 2 · may · Go?" in msg  # context before the change
    assert T.first_difference(old, old, "x.txt") is None
    short = T.first_difference(old, old + "extra\n", "x.txt")
    assert "(end of file)" in short


@pytest.mark.parametrize("label", ["/home/someone/grimoire/rulesets/enchanters/game.rules:312:1",
                                   "rulesets/enchanters/game.rules:312:1",
                                   "../../rulesets/enchanters/game.rules:312:1"])
def test_rule_files_in_labels_are_relative_to_the_repository(label: str):
    notes = T._Notes()
    assert T._clean(f"after {label}, then", notes) == "after rulesets/enchanters/game.rules:312:1, then"
    assert notes.paths


def test_no_transcript_holds_a_machine_path():
    for path in FILES:
        text = path.read_text(encoding="utf-8")
        assert str(ROOT) not in text and not re.search(r"(^|\s)/\S+\.rules", text), path.name
