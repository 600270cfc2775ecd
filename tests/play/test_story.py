"""`grimoire play` tells the story (issue 20): the bots' turns narrated from the human seat's side
(hidden cards stay hidden), `log` lines shown, cards by field name, the stats a ruleset shows;
sessions: save on quit, resume from another folder with the human seat still human, the log
written on quit, `replay --step` showing the state where a tampered log parts from the rules;
players numbered from 1 in logs (format 3; format 2 logs still read)."""
from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pexpect
import pytest

from interpreter.api import load_program
from interpreter.play import session
from interpreter.play.agents import make_agent
from interpreter.play.narrate import EVERYONE, Chronicle, card_fields, card_line, moment, shown_stats, story
from interpreter.play.tui import Narrator, console
from interpreter.engine.factory import new_game
from rulekit import errors, named_ruleset

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
       "COLUMNS": "120", "TERM": "dumb"}

# Each player holds three gems nobody else sees and plays one a turn onto a public table; the
# rules log each play. Seat 1 holds Rubies, seat 2 Sapphires (dealt from the top, unshuffled).
STORY = """
    game "Story":
        players 2
        show [points]

    card type Gem:
        colour: Red | Blue
        worth: 1..3
        cut: flag = false

    zone bag: pile, shared, hidden
    zone hand: set, per player, owner
    zone table: pile, shared, public
    player stat points: 0..99
    player stat bookkeeping: 0..99

    setup:
        move all_cards() to bag
        for each p in players:
            move first(bag, 3) to hand of p

    turn:
        you choose c from your hand "Play which gem?"
        move c to table
        your points += c.worth
        your bookkeeping += 1
        log "a gem worth " + c.worth + " is played"
        if count(your hand) == 1:
            end game after this turn

    score p: points of p
    """
GEMS = """
    - {name: Ruby, type: Gem, colour: Red, worth: 3, copies: 3}
    - {name: Sapphire, type: Gem, colour: Blue, worth: 1, cut: true, copies: 3}
    """


def story_ruleset(root: Path, name: str = "story") -> Path:
    return named_ruleset(root, name, STORY, GEMS)


def grimoire(*args, cwd: Path, input: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "interpreter", *map(str, args)], cwd=cwd, env=ENV, input=input,
                          capture_output=True, text=True, timeout=300)


def test_play_in_a_terminal_tells_the_bots_turn_and_log_lines(tmp_path):
    """Driven through a pseudo-terminal as a person would: the bot's turn is told (its choice of a
    hidden card unnamed, the card it played, its points), the rules' `log` line is shown."""
    rules = story_ruleset(tmp_path)
    child = pexpect.spawn(sys.executable, ["-m", "interpreter", "play", str(rules), "--seat", "1=human",
                                           "--seat", "2=first"], cwd=str(ROOT), env=ENV, encoding="utf-8",
                          timeout=120, dimensions=(50, 120))
    child.expect_exact("choice (number; cards, stats, q to quit): ")
    first_screen = child.before
    assert "your hand:" in first_screen and "Ruby (Gem: colour Red, worth 3) ×3" in first_screen
    assert "hand of player 2: 3 cards, face down" in first_screen
    # the setup is told too: seat 1's own cards named, the bot's counted
    assert "· Ruby (Gem: colour Red, worth 3) ×3 → your hand" in first_screen
    assert "· 3 cards → hand of player 2" in first_screen
    assert "Sapphire" not in first_screen  # the bot's hand is hidden from seat 1
    assert "bookkeeping" not in first_screen and "points" in first_screen  # `show [points]`
    child.sendline("1")
    child.expect_exact("choice (number; cards, stats, q to quit): ")
    told = child.before
    # seat 1's own play, then the bot's turn told in order: its choice, the log line, the move, the stat
    assert "» a gem worth 3 is played" in told
    bot = told[told.index("── turn 2: player 2"):]
    assert "▸ player 2 (first) — Play which gem? → one of 3 options" in bot  # a hidden card is not named
    assert bot.index("» a gem worth 1 is played") < bot.index("· Sapphire (Gem: colour Blue, worth 1, cut yes): "
                                                              "hand of player 2 → table")
    assert "± player 2 points: 0 → 1" in bot
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_save_on_quit_and_resume_from_another_folder_keeps_the_human_seat(tmp_path):
    project, elsewhere = tmp_path / "project", tmp_path / "elsewhere"
    story_ruleset(project / "rulesets")
    elsewhere.mkdir()
    r = grimoire("play", "rulesets/story", "--seat", "1=human", "--seat", "2=first", "--save", "saves.json",
                 "--log", "first.jsonl", cwd=project, input="1\nq\n")
    assert r.returncode == 0, r.stderr
    saved = json.loads((project / "saves.json").read_text())
    assert saved["ruleset"] == str((project / "rulesets" / "story").resolve())  # absolute
    assert [a["kind"] for a in saved["agents"]] == ["human", "first"]
    # the log is written on quit too, and replays to the decision the game was left at
    r = grimoire("replay", project / "first.jsonl", cwd=elsewhere)
    assert r.returncode == 0, r.stderr
    assert "replayed 2 decisions" in r.stdout and "left at step 2 (player 1 to answer)" in r.stdout
    # resumed from another folder with no --seat: seat 1 is asked again (still human) and plays on
    r = grimoire("play", "--resume", project / "saves.json", "--log", "whole.jsonl", cwd=elsewhere, input="1\n")
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("you are player 1") == 1 and "▸ you — Play which gem?" in r.stdout
    assert "final scores: player 1: 6, player 2: 1" in r.stdout
    whole = [json.loads(x) for x in (elsewhere / "whole.jsonl").read_text().splitlines()]
    assert [x["player"] for x in whole[1:-1]] == [1, 2, 1]  # players numbered from 1
    assert whole[-1]["result"]["winners"] == [1]


def test_a_moved_project_resumes_and_a_missing_ruleset_is_named(tmp_path):
    project = tmp_path / "project"
    story_ruleset(project / "rulesets")
    r = grimoire("play", "rulesets/story", "--seat", "1=human", "--save", "s.json", cwd=project, input="q\n")
    assert r.returncode == 0, r.stderr
    moved = tmp_path / "moved"
    shutil.move(project, moved)  # the absolute path is gone; the path relative to the save still holds
    r = grimoire("play", "--resume", moved / "s.json", cwd=tmp_path, input="q\n")
    assert r.returncode == 0, r.stderr
    assert "you are player 1" in r.stdout
    shutil.rmtree(moved / "rulesets")
    r = grimoire("play", "--resume", moved / "s.json", cwd=tmp_path, input="q\n")
    assert r.returncode == 1
    assert "is not there any more" in r.stderr and "--resume" in r.stderr and "Traceback" not in r.stderr


def test_replay_step_shows_the_state_where_a_tampered_log_parts(tmp_path):
    rules = story_ruleset(tmp_path)
    log = tmp_path / "g.jsonl"
    r = grimoire("play", rules, "--seat", "1=first", "--seat", "2=first", "--log", log, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    for line in lines:
        if line.get("step") == 2:
            line["choice"] = 1  # the log now says seat 1 played its second gem at step 2
    log.write_text("".join(json.dumps(x) + "\n" for x in lines))
    r = grimoire("replay", log, "--step", cwd=tmp_path, input="\n" * 10)
    assert r.returncode == 1
    out = r.stdout
    assert "step 0: player 1 — Play which gem? → Ruby (Gem: colour Red, worth 3)" in out
    assert "step 1: player 2 — Play which gem? → Sapphire" in out  # a replay shows every card
    assert "MISMATCH: step 2: the line was edited after the log was written" in out
    state = out[out.index("the game as replayed up to there:"):]
    assert "every card shown" in state and "hand of player 2:" in state and "Sapphire" in state
    assert "player 1 is asked: Play which gem?" in state and "choice 1) Ruby (Gem: colour Red, worth 3)" in state
    assert "step 2:" in r.stderr


def test_format_2_logs_numbered_from_0_still_replay(tmp_path):
    program = load_program(story_ruleset(tmp_path))
    rec = session.play(program, 2, 0, [make_agent("first", "x"), make_agent("first", "y")], log=True,
                       ruleset_path=str(tmp_path / "story"))
    old = [dict(x) for x in rec.lines]
    old[0]["grimoire_log"] = 2
    for x in old[1:-1]:
        x["player"] -= 1
    old[-1]["result"] = rec.result  # winners and first player from 0
    session.write_log(tmp_path / "old.jsonl", old)
    assert session.replay(tmp_path / "old.jsonl").result == rec.result
    old[1]["player"] = 1  # in format 2, that is the second player: refused, named from 1
    session.write_log(tmp_path / "bad.jsonl", old)
    with pytest.raises(session.ReplayMismatch, match="the log answers player 2 .* asks player 1"):
        session.replay(tmp_path / "bad.jsonl")


def test_story_names_cards_by_field_and_keeps_hidden_cards_hidden(tmp_path):
    program = load_program(story_ruleset(tmp_path))
    g = new_game(program, 2, 0)
    sapphire = next(c for c in program.rs.cards if c.name == "Sapphire")
    ruby = next(c for c in program.rs.cards if c.name == "Ruby")
    assert card_fields(program.rs, ruby) == [("colour", "Red"), ("worth", 3)]  # `cut` at its default is left out
    assert card_line(program.rs, sapphire) == "Sapphire (Gem: colour Blue, worth 1, cut yes)"
    before = moment(g, 0)
    g.answer(0)  # seat 1 plays; then seat 2 is asked
    g2 = moment(g, 0)
    g.answer(2)
    seen = story(g, g2, 0)
    assert ("move", "Sapphire (Gem: colour Blue, worth 1, cut yes): hand of player 2 → table") in seen
    assert ("stat", "player 2 points: 0 → 1") in seen and not any("bookkeeping" in t for _, t in seen)
    assert ("turn", "turn 3: player 1") in seen
    everything = story(g, before, EVERYONE)
    assert any("your hand" not in t and "hand of player 1 → table" in t for _, t in everything)
    # a spectator sees the same public moves, never a card in a hand
    spectator = story(g, before, None)
    assert not any("Ruby" in t and "hand of player 1:" in t for _, t in spectator)


def test_shown_stats_default_to_what_the_score_reads_and_show_is_checked(tmp_path):
    rules = textwrap.dedent(STORY).replace("        show [points]\n", "")
    program = load_program(named_ruleset(tmp_path, "noshow", rules, GEMS))
    assert shown_stats(program.rs) == ["points"]  # the score reads points; bookkeeping is the rules' own
    bad = textwrap.dedent(STORY).replace("show [points]", "show [pionts]")
    diags = errors(tmp_path, bad, GEMS)
    assert any(d.code == "game/show" and "did you mean `points`" in (d.hint or "") for d in diags)


def test_decision_json_numbers_players_from_1(tmp_path):
    g = new_game(load_program(story_ruleset(tmp_path)), 2, 0)
    g.answer(0)
    assert g.decision.player == 1 and g.decision.to_json()["player"] == 2


def test_a_chronicle_tells_each_turn_apart_from_the_setup_on(tmp_path):
    """The printing-free story other screens use: given to the game as observer, it tells the
    setup, then each turn after its header, in order."""
    program = load_program(story_ruleset(tmp_path))
    chronicle = Chronicle(0)
    g = new_game(program, 2, 0, observer=chronicle)
    chronicle.attach(g)
    setup = chronicle.take()
    assert ("move", "3 cards → hand of player 2") in setup and setup[-1] == ("turn", "turn 1: player 1")
    chronicle.decided(g.decision, 0, "")
    g.answer(0)  # seat 1 plays; seat 2 is asked in turn 2
    told = chronicle.take()
    kinds = [k for k, _ in told]
    assert told[0] == ("choice", "you — Play which gem? → Ruby (Gem: colour Red, worth 3)")
    assert kinds.index("log") < kinds.index("move") < kinds.index("turn") == len(told) - 1
    assert told[-1] == ("turn", "turn 2: player 2") and chronicle.take() == []


def test_content_text_in_the_story_is_escaped_and_never_markup(tmp_path):
    """A card named with rich markup and a terminal escape prints as written, escaped."""
    gems = GEMS.replace("name: Sapphire", 'name: "[red]Sap[/red]\\x1b[2J"')
    program = load_program(named_ruleset(tmp_path, "evil", STORY, gems))
    buf = io.StringIO()
    narrator = Narrator(0, console(buf))
    g = new_game(program, 2, 0, observer=narrator)
    narrator.attach(g)
    g.answer(0)
    g.answer(0)
    narrator.flush()
    out = buf.getvalue()
    assert "[red]Sap[/red]\\x1b[2J (Gem: colour Blue, worth 1, cut yes): hand of player 2 → table" in out
    assert "\x1b" not in out
