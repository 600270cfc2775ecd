"""tools/mutate_rules.py: a rule line that can be broken without any of the ruleset's rule tests
failing is reported as a survivor, with its line; a mutant is met by the scenarios citing the
line's rules, then the ruleset's other scenarios, then its own pytest files, and the report says
which caught it. And the scenario runner reports score rules that fail mid-game as a scenario
failure, never a traceback (found by the mutation run). Tiny rulesets: the whole file runs in
seconds (docs/testing.md has the real runs)."""
from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import textwrap
from pathlib import Path

from interpreter.api import check_path
from interpreter.engine.direct import compile_direct
from interpreter.engine.game import Program
from interpreter.play.scenario import run_scenario
from rulekit import ruleset

TOOL = Path(__file__).resolve().parent.parent / "tools" / "mutate_rules.py"

RULES = """
game "Tally":
    players 2

card type Token:
    value: 1..3

zone pool: pile, shared, public
zone won: pile, per player, public
player stat pts: 0..99 = 0

setup:
    move all_cards() to pool

turn:
    you choose c from pool "Take which"
    move c to your won              # TT-001
    pts of you += c.value           # TT-002
    if pool is empty:
        end game

score p: pts of p
"""

CARDS = """
- {name: One, type: Token, value: 1}
- {name: Two, type: Token, value: 2}
- {name: Three, type: Token, value: 3}
"""


def _scenario(folder: Path, name: str, covers: list[str], expect: str) -> None:
    (folder / f"{name}.yaml").write_text(textwrap.dedent(f"""\
        name: {name}
        covers: {covers}
        ruleset: ..
        players: 2
        choices: [One]
        expect: {expect}
        """).replace("'", ""), encoding="utf-8")


def _tool():
    spec = importlib.util.spec_from_file_location("mutate_rules", TOOL)
    mod = importlib.util.module_from_spec(spec)
    sys.modules["mutate_rules"] = mod  # dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


def _lines(out: str, status: str) -> list[str]:
    return [line for line in out.splitlines() if line.split(" ", 1)[0] == status]


def test_a_rule_cited_but_not_asserted_survives(tmp_path, capsys):
    rules = ruleset(tmp_path, RULES, CARDS)
    scen = rules / "scenarios"
    scen.mkdir()
    _scenario(scen, "takes", ["TT-001", "TT-002"], "{count: {won of 1: 1}}")   # never checks pts
    args = [str(rules), "--scenarios", str(scen), "--prefix", "TT", "--cited-only", "--no-tests"]
    code = _tool().main(args)
    out = capsys.readouterr().out
    assert code == 1
    assert any("TT-001" in line for line in _lines(out, "KILLED"))
    survivors = _lines(out, "SURVIVED")
    assert survivors and all("TT-002" in line and "pts of you += c.value" in line for line in survivors)
    assert "game.rules:17" in survivors[0]                      # where the line is
    _scenario(scen, "takes", ["TT-001", "TT-002"], "{count: {won of 1: 1}, stats: {pts of 1: 1}}")
    assert _tool().main(args) == 0


def test_each_line_is_broken_in_several_ways_and_every_line_counts(tmp_path, capsys):
    rules = ruleset(tmp_path, RULES, CARDS)
    scen = rules / "scenarios"
    scen.mkdir()
    _scenario(scen, "takes", ["TT-001", "TT-002"], "{count: {won of 1: 1}, stats: {pts of 1: 1}}")
    _tool().main([str(rules), "--scenarios", str(scen), "--prefix", "TT", "--no-tests"])
    out = capsys.readouterr().out
    pts_line = [line for line in out.splitlines() if "game.rules:17 " in line]
    assert len(pts_line) == 2                                    # every valid one (up to `--per-line` 3)
    assert {line.split("TT-002", 1)[1].split("<-")[0].strip() for line in pts_line} == {"statement -> pass",
                                                                                       "`+=` -> `-=`"}
    # lines citing nothing are mutated too: the score line, which no scenario checks, survives
    assert any("score p: pts of p" in line for line in _lines(out, "SURVIVED"))
    assert "rule lines;" in out.splitlines()[-1] and "survived" in out.splitlines()[-1]


def test_a_mutant_caught_only_by_another_scenario_or_by_the_test_file_is_reported_so(tmp_path, capsys):
    home = tmp_path / "rulesets"
    home.mkdir()
    rules = ruleset(home, RULES, CARDS)
    scen = rules / "scenarios"
    scen.mkdir()
    _scenario(scen, "takes", ["TT-001", "TT-002"], "{count: {won of 1: 1}}")
    _scenario(scen, "other", ["TT-001"], "{stats: {pts of 1: 1}}")          # asserts TT-002, cites it not
    tool = _tool()
    args = [str(rules), "--scenarios", str(scen), "--prefix", "TT", "--cited-only", "--per-line", "1"]
    tool.main(args + ["--no-tests"])
    assert any("TT-002" in line for line in _lines(capsys.readouterr().out, "KILLED-OTHER"))
    (scen / "other.yaml").unlink()
    tests = tmp_path / "tests"
    tests.mkdir()
    # the game is played by a module's fixture, in the first test's set-up, and only the second
    # test asserts the points: the coverage analysis must still run it (a fixture serves the file)
    (tests / "test_tally.py").write_text(textwrap.dedent(f"""\
        from pathlib import Path
        import pytest
        from interpreter.api import load_program
        from interpreter.engine.factory import new_game

        @pytest.fixture(scope="module")
        def played():
            g = new_game(load_program(Path(__file__).resolve().parent.parent / "rulesets" / "{rules.name}"), 2, 0)
            g.answer(0)
            return g

        def test_a_plays(played):
            assert played.error is None

        def test_b_points(played):
            assert played.state.pstats[0]["pts"] > 0
        """), encoding="utf-8")
    assert tool.main(args + ["--tests", str(tests / "test_tally.py")]) == 0
    killed = [line for line in _lines(capsys.readouterr().out, "KILLED-TESTS") if "TT-002" in line]
    assert killed and "test_tally.py::test_b_points" in killed[0]


def test_card_effects_are_rule_lines_and_limit_caps_the_run(tmp_path, capsys):
    cards = CARDS + textwrap.dedent("""\
        - name: Four
          type: Token
          value: 3
          effect: &four |
            when drawn:
                log "four"          # TT-003
        """)
    rules = ruleset(tmp_path, RULES, cards)
    tool = _tool()
    sites = tool.card_sites(rules / "cards", "TT")
    assert [(s.first + 1, s.ids) for s in sites] == [(8, []), (9, ["TT-003"])]
    scen = rules / "scenarios"
    scen.mkdir()
    _scenario(scen, "takes", ["TT-001"], "{count: {won of 1: 1}}")
    assert tool.main([str(rules), "--scenarios", str(scen), "--no-tests", "--limit", "4", "--seed", "3"]) != 2, \
        capsys.readouterr().err
    assert "4 mutants:" in capsys.readouterr().out.splitlines()[-1]


def test_failing_score_rules_fail_the_scenario_without_a_traceback(tmp_path):
    rules = ruleset(tmp_path, RULES.replace("score p: pts of p", "score p: {1: 2}[pts of p]"), CARDS)
    scen = rules / "scenarios"
    scen.mkdir()
    _scenario(scen, "mid", [], "{scores: [0, 0]}")
    result = run_scenario(scen / "mid.yaml")
    assert not result.passed and result.failures == ["scores: the score rules failed: KeyError: 0"]


def test_a_row_zone_is_compared_left_to_right(tmp_path):
    """Found by the mutation run: a `row` zone's expected contents were compared in any order, so
    a Turn Order Track left unsorted passed a scenario listing it sorted."""
    rules = ruleset(tmp_path, """
        game "Line":
            players 2

        card type Token:
            value: 1..3

        zone line: row, shared, public

        setup:
            move all_cards() where it.value == 2 to line
            move all_cards() where it.value == 1 to line

        turn:
            you choose c from line "Take which"
        """, CARDS)
    scen = rules / "scenarios"
    scen.mkdir()
    for name, order in (("ok", "[Two, One]"), ("swapped", "[One, Two]")):
        (scen / f"{name}.yaml").write_text(f"name: {name}\nruleset: ..\nplayers: 2\n"
                                           f"expect: {{zones: {{line: {order}}}}}\n", encoding="utf-8")
    assert run_scenario(scen / "ok.yaml").passed
    assert not run_scenario(scen / "swapped.yaml").passed


def test_a_variant_scenario_meets_the_mutant_not_the_real_rules(tmp_path, capsys):
    """A scenario with `set:` (a variant) must run on the mutant with the overrides applied:
    the scenario runner's cached `load_variant` reads the unmutated ruleset from disk, and every
    mutant of a variant's rule survived (found on Enchanters: Overlords' Hard Mode)."""
    rules = ruleset(tmp_path, RULES.replace("player stat pts: 0..99 = 0", "player stat pts: 0..99 = 0\n"
                                            "constant doubled = 0")
                    .replace("    pts of you += c.value           # TT-002\n",
                             "    pts of you += c.value           # TT-002\n"
                             "    if doubled > 0:\n"
                             "        pts of you += c.value       # TT-004\n"), CARDS)
    scen = rules / "scenarios"
    scen.mkdir()
    (scen / "doubled.yaml").write_text(textwrap.dedent("""\
        name: doubled
        covers: [TT-004]
        ruleset: ..
        players: 2
        set: {doubled: 1}
        choices: [Two]
        expect: {stats: {pts of 1: 4}}
        """), encoding="utf-8")
    assert run_scenario(scen / "doubled.yaml").passed
    _tool().main([str(rules), "--scenarios", str(scen), "--prefix", "TT", "--cited-only", "--no-tests"])
    out = capsys.readouterr().out
    doubled = [line for line in out.splitlines() if "TT-004" in line]
    assert len(doubled) >= 2 and all(line.startswith("KILLED ") for line in doubled), out


def test_lines_rechecks_only_the_named_rule_lines(tmp_path, capsys):
    """`--lines FILE:LINE` runs only those lines' mutants (re-checking a long run's survivors)."""
    rules = ruleset(tmp_path, RULES, CARDS)
    scen = rules / "scenarios"
    scen.mkdir()
    _scenario(scen, "takes", ["TT-001", "TT-002"], "{count: {won of 1: 1}}")
    _tool().main([str(rules), "--scenarios", str(scen), "--no-tests", "--lines", "game.rules:18",
                  "--lines", "game.rules:17"])
    out = capsys.readouterr().out
    where = {line.split()[1] for line in out.splitlines() if line.split(" ", 1)[0] in ("KILLED", "SURVIVED")}
    assert where == {"game.rules:17", "game.rules:18"}
    assert "2 of 2 rule lines" in out.splitlines()[-1]


BRANCHY = RULES.replace("    pts of you += c.value           # TT-002\n",
                        "    pts of you += c.value           # TT-002\n"
                        "    if c.value > 5:\n"
                        "        pts of you += 100           # no card is worth 6: never run\n")


def _verdicts(out: str) -> dict[tuple[str, str], bool]:
    """(line, mutation) -> caught, from the tool's report."""
    got = {}
    for line in out.splitlines():
        status = line.split(" ", 1)[0]
        if status in ("KILLED", "KILLED-OTHER", "KILLED-TESTS", "SURVIVED", "NOT-REACHED"):
            where, rest = line.split()[1], line.split(None, 3)[3]
            got[(where, rest.split("  ")[0])] = status.startswith("KILLED")
    return got


def test_a_mutant_meets_only_the_tests_that_reach_it_and_no_verdict_changes(tmp_path, capsys):
    """Coverage analysis: a mutant of a line no scenario executes is NOT-REACHED at once (none is
    run); every other verdict is the one met by running every scenario (`--all-tests`)."""
    rules = ruleset(tmp_path, BRANCHY, CARDS)
    scen = rules / "scenarios"
    scen.mkdir()
    _scenario(scen, "takes", ["TT-001", "TT-002"], "{count: {won of 1: 1}, stats: {pts of 1: 1}}")
    _scenario(scen, "just_moves", ["TT-001"], "{count: {won of 1: 1}}")
    tool = _tool()
    args = [str(rules), "--scenarios", str(scen), "--prefix", "TT", "--no-tests", "--every"]
    tool.main(args)
    selected = capsys.readouterr().out
    tool.main(args + ["--all-tests"])
    every = capsys.readouterr().out
    assert _verdicts(selected) == _verdicts(every) and len(_verdicts(every)) > 15
    unreached = _lines(selected, "NOT-REACHED")
    assert unreached and all("game.rules:19 " in line for line in unreached)   # only the `+= 100` line
    assert not _lines(every, "NOT-REACHED")
    assert any("game.rules:18 " in line for line in _lines(selected, "KILLED"))  # its `if` is run


def test_a_mutant_changes_the_generated_code_of_its_own_line_only(tmp_path, monkeypatch):
    """Dropping a statement renumbers every later temporary and constant of the generated module;
    the comparison still names only the lines whose code really changed (else every mutant would
    meet every test)."""
    _tool()
    rulecover = sys.modules["rulecover"]

    def groups(folder: Path, moved: list) -> dict:
        rs, _ = check_path(folder)
        dp = compile_direct(Program(rs))
        return rulecover.code_groups(dp.source, dp.lines, dp.K, moved)

    base = ruleset(tmp_path, RULES, CARDS).resolve()
    mutant = ruleset(tmp_path, RULES.replace("    move c to your won ", "    pass               "), CARDS).resolve()
    monkeypatch.chdir(tmp_path)  # the ruleset loaded by a relative path, the mutant copy by an absolute one:
    # the choice's rule location (a constant of line 15) is the same place
    changed = rulecover.changed_lines(groups(Path(base.name), []), groups(mutant, [(str(mutant), str(base))]))
    # the move's own code, and the settling that the next line did after it (nothing moved now)
    assert changed == {(str(base / "game.rules"), 16), (str(base / "game.rules"), 17)}


def test_a_run_in_parts_resumes_where_it_stopped_and_reruns_an_edited_line(tmp_path, capsys):
    """`--json` is written as the run goes and `--resume` runs only the lines missing from it, so a
    long run (hours for the big rulesets) can be stopped and go on later; a line edited in between
    is run again, as its old verdict may no longer hold."""
    import json
    rules = ruleset(tmp_path, RULES, CARDS)
    scen = rules / "scenarios"
    scen.mkdir()
    _scenario(scen, "takes", ["TT-001", "TT-002"], "{count: {won of 1: 1}, stats: {pts of 1: 1}}")
    base = [str(rules), "--scenarios", str(scen), "--no-tests", "--lines", "game.rules:16", "--lines",
            "game.rules:17", "--lines", "game.rules:21"]
    first, whole = tmp_path / "first.json", tmp_path / "whole.json"
    _tool().main(base + ["--limit", "1", "--seed", "3", "--json", str(first)])   # stopped after one mutant
    done = {o["where"] for o in json.loads(first.read_text(encoding="utf-8"))}
    assert len(done) == 1
    capsys.readouterr()
    _tool().main(base + ["--resume", str(first), "--json", str(whole)])
    out = capsys.readouterr().out
    ran = {line.split()[1] for line in out.splitlines() if line.split(" ", 1)[0] in ("KILLED", "SURVIVED")}
    assert ran == {"game.rules:16", "game.rules:17", "game.rules:21"} - done    # the done line is not run again
    assert "3 of 3 rule lines" in out.splitlines()[-1]                          # but it counts in the summary
    assert {o["where"] for o in json.loads(whole.read_text(encoding="utf-8"))} == {
        "game.rules:16", "game.rules:17", "game.rules:21"}
    # the rules change under a finished line: resuming runs that line again
    (rules / "game.rules").write_text((rules / "game.rules").read_text(encoding="utf-8").replace(
        "pts of you += c.value", "pts of you += c.value + 0"), encoding="utf-8")
    _tool().main(base + ["--resume", str(whole)])
    out = capsys.readouterr().out
    assert {line.split()[1] for line in out.splitlines() if line.split(" ", 1)[0] in ("KILLED", "SURVIVED")} == {
        "game.rules:17"}


def test_a_resumed_run_keeps_the_outcomes_of_lines_that_only_moved(tmp_path, capsys):
    """A line added above the finished lines moves each of them down by one: resuming keeps their
    outcomes at the new places instead of running them again (a fix high in a big ruleset's file
    once cost a Talisman run 140 outcomes); a line whose code changed is still run again."""
    import json
    rules = ruleset(tmp_path, RULES, CARDS)
    scen = rules / "scenarios"
    scen.mkdir()
    _scenario(scen, "takes", ["TT-001", "TT-002"], "{count: {won of 1: 1}, stats: {pts of 1: 1}}")
    whole, again = tmp_path / "whole.json", tmp_path / "again.json"
    lines = ["--lines", "game.rules:16", "--lines", "game.rules:17"]
    _tool().main([str(rules), "--scenarios", str(scen), "--no-tests", *lines, "--json", str(whole)])
    before = {(o["where"], o["mutation"]): o["status"] for o in json.loads(whole.read_text(encoding="utf-8"))}
    assert {w for w, _ in before} == {"game.rules:16", "game.rules:17"}
    path = rules / "game.rules"
    path.write_text("# a note above everything\n" + path.read_text(encoding="utf-8").replace(
        "pts of you += c.value", "pts of you += c.value + 0"), encoding="utf-8")
    capsys.readouterr()
    moved = ["--lines", "game.rules:17", "--lines", "game.rules:18"]
    _tool().main([str(rules), "--scenarios", str(scen), "--no-tests", *moved, "--resume", str(whole),
                  "--json", str(again)])
    out = capsys.readouterr().out
    ran = {line.split()[1] for line in out.splitlines() if line.split(" ", 1)[0] in ("KILLED", "SURVIVED")}
    assert ran == {"game.rules:18"}  # the edited line; the moved one (16 -> 17) kept its outcomes
    after = {(o["where"], o["mutation"]): o["status"] for o in json.loads(again.read_text(encoding="utf-8"))}
    assert {m: st for (w, m), st in after.items() if w == "game.rules:17"} == \
        {m: st for (w, m), st in before.items() if w == "game.rules:16"}


def test_a_resumed_run_with_lines_does_not_take_a_finished_twin_line_for_a_moved_one(tmp_path, capsys):
    """`--resume` with `--lines`: a finished line outside the lines to visit that holds the same
    code as one of them (here `if pool is empty:` in setup and in the turn) did not move; the line
    to visit is run, not given the twin's outcomes (a Talisman run split by `--lines` once took
    four lines' outcomes from their twins hundreds of lines above)."""
    import json
    twin = RULES.replace("    move all_cards() to pool\n",
                         "    move all_cards() to pool\n    if pool is empty:\n        end game\n")
    rules = ruleset(tmp_path, twin, CARDS)
    scen = rules / "scenarios"
    scen.mkdir()
    _scenario(scen, "takes", ["TT-001", "TT-002"], "{count: {won of 1: 1}, stats: {pts of 1: 1}}")
    code = (rules / "game.rules").read_text(encoding="utf-8").splitlines()
    first, second = [f"game.rules:{i + 1}" for i, line in enumerate(code) if line.strip() == "if pool is empty:"]
    whole, again = tmp_path / "whole.json", tmp_path / "again.json"
    _tool().main([str(rules), "--scenarios", str(scen), "--no-tests", "--lines", first, "--json", str(whole)])
    assert {o["where"] for o in json.loads(whole.read_text(encoding="utf-8"))} == {first}
    capsys.readouterr()
    _tool().main([str(rules), "--scenarios", str(scen), "--no-tests", "--lines", second, "--resume", str(whole),
                  "--json", str(again)])
    out = capsys.readouterr().out
    ran = {line.split()[1] for line in out.splitlines() if line.split(" ", 1)[0] in ("KILLED", "SURVIVED")}
    assert ran == {second}
    assert {o["where"] for o in json.loads(again.read_text(encoding="utf-8"))} == {second}


def _base_home(tmp_path: Path) -> Path:
    """A `rulesets/` folder holding `base` (RULES and CARDS), for mods to extend; returns the folder."""
    home = tmp_path / "rulesets"
    (home / "base" / "cards").mkdir(parents=True)
    (home / "base" / "game.rules").write_text(textwrap.dedent(RULES).lstrip(), encoding="utf-8")
    (home / "base" / "cards" / "cards.yaml").write_text(textwrap.dedent(CARDS).lstrip(), encoding="utf-8")
    return home


def test_a_mods_lines_are_met_by_the_scenarios_that_stack_it_with_with(tmp_path, capsys):
    """A mod's scenarios play it stacked on its base (`ruleset: base`, `with: [mod]`): the tool
    counts them as the mod's and runs them on the stack compiled from the mutant's copy, so a
    mutant of the mod's line is caught (before, a mod had no scenario at all, and a stack would
    have been loaded unmutated)."""
    home = _base_home(tmp_path)
    mod = home / "bonus"
    (mod / "scenarios").mkdir(parents=True)
    (mod / "game.rules").write_text(textwrap.dedent("""\
        game "Bonus":
            extends "base"
            players 2

        player stat luck: 0..9 = 4      # TT-003
        """), encoding="utf-8")
    (mod / "scenarios" / "lucky.yaml").write_text(textwrap.dedent("""\
        name: lucky
        covers: [TT-003]
        ruleset: ../../base
        with: [..]
        players: 2
        choices: [One]
        expect: {stats: {luck of 1: 4, pts of 1: 1}}
        """), encoding="utf-8")
    _tool().main([str(mod), "--prefix", "TT", "--no-tests", "--every", "--lines", "game.rules:5"])
    out = capsys.readouterr()
    assert "1 scenarios" in out.err
    killed = _lines(out.out, "KILLED")
    assert killed and all(line.endswith("<- lucky.yaml") for line in killed)
    assert not _lines(out.out, "SURVIVED") or all("bound" in line for line in _lines(out.out, "SURVIVED"))


def test_a_mods_scenarios_kept_in_another_folder_are_met_too(tmp_path, capsys):
    """A scenario that stacks a mod can live in another mod's folder (the Coop mod's scenarios stack
    the Kingdom decks): without `--scenarios`, the tool finds it there too, and it catches the mod's
    mutant. Before, only the mod's own folders were read: the mod had no scenario, its line none
    that reached it."""
    home = _base_home(tmp_path)
    mod = home / "bonus"
    mod.mkdir()
    (mod / "game.rules").write_text(textwrap.dedent("""\
        game "Bonus":
            extends "base"
            players 2

        player stat luck: 0..9 = 4      # TT-003
        """), encoding="utf-8")
    other = home / "other" / "scenarios"
    other.mkdir(parents=True)
    (other / "lucky.yaml").write_text(textwrap.dedent("""\
        name: lucky
        covers: [TT-003]
        ruleset: ../../base
        with: [../../bonus]
        players: 2
        choices: [One]
        expect: {stats: {luck of 1: 4, pts of 1: 1}}
        """), encoding="utf-8")
    (other / "plain.yaml").write_text(textwrap.dedent("""\
        name: plain, the base alone (it names no mod: not the mod's)
        covers: [TT-001]
        ruleset: ../../base
        players: 2
        choices: [One]
        expect: {stats: {pts of 1: 1}}
        """), encoding="utf-8")
    _tool().main([str(mod), "--prefix", "TT", "--no-tests", "--every", "--lines", "game.rules:5"])
    out = capsys.readouterr()
    assert "1 scenarios" in out.err
    killed = _lines(out.out, "KILLED")
    assert killed and all(line.endswith("<- lucky.yaml") for line in killed)


def test_under_mods_meets_a_base_line_with_its_mods_scenarios(tmp_path, capsys):
    """A base game's line can be asserted only by a mod's scenario (`ruleset: base`, `with: [mod]`,
    kept in the mod's folder). By default the base's mutant does not meet it (a survivor); with
    `--under-mods` the scenario runs on the mutated base under the real mod, and catches it."""
    home = _base_home(tmp_path)
    mod = home / "bonus"
    (mod / "scenarios").mkdir(parents=True)
    (mod / "game.rules").write_text(textwrap.dedent("""\
        game "Bonus":
            extends "base"
            players 2

        player stat luck: 0..9 = 4
        """), encoding="utf-8")
    (mod / "scenarios" / "lucky.yaml").write_text(textwrap.dedent("""\
        name: lucky
        covers: [TT-002]
        ruleset: ../../base
        with: [..]
        players: 2
        choices: [One]
        expect: {stats: {luck of 1: 4, pts of 1: 1}}
        """), encoding="utf-8")
    (home / "base" / "scenarios").mkdir()
    _scenario(home / "base" / "scenarios", "first", ["TT-001"], "{zones: {won of 1: [One]}}")
    args = [str(home / "base"), "--prefix", "TT", "--no-tests", "--every", "--lines", "game.rules:17"]
    _tool().main(args)
    out = capsys.readouterr()
    assert "1 scenarios" in out.err and _lines(out.out, "SURVIVED")
    _tool().main(args + ["--under-mods"])
    out = capsys.readouterr()
    assert "2 scenarios" in out.err
    killed = _lines(out.out, "KILLED")
    assert killed and all(line.endswith("<- lucky.yaml") for line in killed) and not _lines(out.out, "SURVIVED")


def _run_with_an_edit(tmp_path, old: str, new: str, lines: list[str]) -> dict[str, str]:
    """Run the tool on `lines` of RULES while, at its first mutant, someone replaces `old` by `new`
    in the real rule file; each line's code as the run reported it."""
    import json
    rules = ruleset(tmp_path, RULES, CARDS)
    scen = rules / "scenarios"
    scen.mkdir()
    _scenario(scen, "takes", ["TT-001", "TT-002"], "{count: {won of 1: 1}, stats: {pts of 1: 1}}")
    tool = _tool()
    real_run = tool.run_mutant

    def edit_then_run(*args, **kw):
        path = rules / "game.rules"
        path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
        return real_run(*args, **kw)
    tool.run_mutant = edit_then_run
    out = tmp_path / "out.json"
    tool.main([str(rules), "--scenarios", str(scen), "--no-tests", *(a for n in lines for a in ("--lines", n)),
               "--json", str(out)])
    return {o["where"]: o["line"] for o in json.loads(out.read_text(encoding="utf-8"))}


def test_an_edit_to_the_real_rules_during_a_run_stays_out_of_it(tmp_path, capsys):
    """A run mutates its copy of the rules as they were when it began: a fix written into the
    real file while it runs (a Talisman run once took a Raft fix in half-way) changes neither the
    lines it reports nor their mutants."""
    lines = _run_with_an_edit(tmp_path, "pts of you += c.value", "pts of you += c.value * 1",
                              ["game.rules:16", "game.rules:17"])
    assert lines["game.rules:17"] == "pts of you += c.value"
    assert "c.value * 1" not in capsys.readouterr().out


def test_an_edit_that_shortens_the_real_rules_during_a_run_stays_out_of_it(tmp_path):
    """The same when the edit moves lines (a line deleted above them, as a fix of a mod did while its
    run went on): the lines still to run are read as the run found them. The static proof, built
    here for the card field's line :5, read each line from the real file: the run reported the
    wrong code or stopped with an IndexError at the file's last line."""
    lines = _run_with_an_edit(tmp_path, "    players 2\n\n", "    players 2\n",  # a blank line above every rule
                              ["game.rules:5", "game.rules:17", "game.rules:21"])
    assert lines == {"game.rules:5": "value: 1..3", "game.rules:17": "pts of you += c.value",
                     "game.rules:21": "score p: pts of p"}


# ---- a card field's range top, proved equivalent without running ---------------------------------
# RULES with a second field, `bonus` (line 6), counted in the score
RANGED = RULES.replace("    value: 1..3\n", "    value: 1..3\n    bonus: 0..5 = 0\n").replace(
    "pts of you += c.value           # TT-002", "pts of you += c.value + c.bonus # TT-002")

RANGED_CARDS = """
- {name: One, type: Token, value: 1, bonus: 1}
- {name: Two, type: Token, value: 2}
- {name: Three, type: Token, value: 3}
"""


def _ranged(tmp_path: Path, rules: str = RANGED, cards: str = RANGED_CARDS, expect: str = "{stats: {pts of 1: 2}}",
            extra: str = "") -> tuple[Path, Path]:
    rules_dir = ruleset(tmp_path, rules, cards)
    scen = rules_dir / "scenarios"
    scen.mkdir()
    (scen / "takes.yaml").write_text(textwrap.dedent(f"""\
        name: takes
        covers: [TT-001, TT-002]
        ruleset: ..
        players: 2
        choices: [One]
        expect: {expect}
        """) + extra, encoding="utf-8")
    return rules_dir, scen


def _bound_line(out: str) -> list[str]:
    """The report's lines about the `bonus: 0..5` range top (line 6 of RANGED)."""
    return [line for line in out.splitlines() if "game.rules:6 " in line and "bound ..5 -> ..4" in line]


def test_a_card_fields_range_top_no_card_reaches_is_proved_equivalent_and_not_run(tmp_path, capsys):
    """`bonus: 0..5` -> `0..4`: the highest bonus printed is 1 and nothing reads the range, so the
    mutant cannot change an outcome: EQUIVALENT (with why), not run, not a survivor; the same
    mutant run (`--no-proofs`) does survive — the proof only spares running it."""
    rules, scen = _ranged(tmp_path)
    args = [str(rules), "--scenarios", str(scen), "--no-tests", "--lines", "game.rules:6"]
    tool = _tool()
    assert tool.main(args) == 1  # the default `= 0` made 1 is no equivalent: no scenario takes Two
    out = capsys.readouterr().out
    proved = [line for line in _bound_line(out) if line.startswith("EQUIVALENT ")]
    assert proved and "no card of the ruleset has Token.bonus above 4 (highest: 1, card One)" in proved[0]
    summary = out.splitlines()
    last = next(i for i, line in enumerate(summary) if "rule lines;" in line)
    assert "1 mutants:" in summary[last] and "1 survived" in summary[last]  # the default's mutant only
    assert "1 more mutants proved equivalent, not run" in summary[last]
    assert "game.rules:6" in summary[last + 1] and "bound ..5 -> ..4" in summary[last + 1]
    assert tool.main(args + ["--no-proofs"]) == 1
    run = capsys.readouterr().out
    assert [line.split()[0] for line in _bound_line(run)] == ["SURVIVED"]
    assert "2 mutants:" in [line for line in run.splitlines() if "rule lines;" in line][0]


def _prove(tmp_path: Path, rules_text: str = RANGED, cards: str = RANGED_CARDS, keep_cards: bool = False,
           no_names: bool = False, tests: tuple[Path, ...] = ()) -> str | None:
    """The proof on its own for `bonus: 0..5` -> `0..4`, laid out as the tool does: the real
    folder, and a copy the mutant is written into (compiled unmutated first). `keep_cards`: the
    mutant keeps the real folder's cards even where the lowered range would refuse one (the loader
    drops such a card: this reaches the proof's own check); `no_names`: as if the rules named no
    card type as a value (to reach the last guard, the generated modules compared)."""
    import dataclasses
    import shutil
    tool = _tool()
    rules, _ = _ranged(tmp_path, rules_text, cards)
    work = tmp_path / f"copy_{rules.name}"
    shutil.copytree(rules, work)
    base = Program(check_path(rules)[0])
    proof = tool.RangeTopProof(base, work, [], list(tests))
    if no_names:
        proof.as_value = set()
    text = (work / "game.rules").read_text(encoding="utf-8")
    (work / "game.rules").write_text(text.replace("bonus: 0..5", "bonus: 0..4"), encoding="utf-8")
    (work / "cards" / "cards.yaml").write_text(textwrap.dedent(RANGED_CARDS).lstrip(), encoding="utf-8")
    rs = check_path(work)[0]
    mutant = Program(dataclasses.replace(rs, cards=base.rs.cards) if keep_cards else rs)
    return proof.prove(tool.Site(rules / "game.rules", 5, 5, []), "bound ..5 -> ..4", mutant)


def test_a_range_top_that_a_card_reaches_is_not_proved(tmp_path, capsys):
    """A card printing the top (bonus 5): the lowered range refuses that card, so the checker
    rejects the mutant, as before (no valid mutant is made of it, nothing is proved); and the
    proof itself refuses a card above the new top, whatever the loader did."""
    rules, scen = _ranged(tmp_path, cards=RANGED_CARDS.replace("value: 3}", "value: 3, bonus: 5}"))
    _tool().main([str(rules), "--scenarios", str(scen), "--no-tests", "--lines", "game.rules:6"])
    out = capsys.readouterr().out
    assert not _bound_line(out) and not _lines(out, "EQUIVALENT")
    assert _prove(tmp_path, keep_cards=True) is not None  # the cards of RANGED_CARDS: at most 1
    assert _prove(tmp_path, cards=RANGED_CARDS.replace("value: 3}", "value: 3, bonus: 5}"), keep_cards=True) is None


def test_a_rule_reading_the_declared_range_refuses_the_proof(tmp_path, capsys):
    """`Token.bonus` is the list of values the field may take (0..5): a rule reading it sees the
    lowered top, so the mutant is run — and a scenario catches it."""
    rules, scen = _ranged(tmp_path, RANGED.replace("# TT-002\n", "# TT-002\n    pts of you += max(Token.bonus)\n"),
                          expect="{stats: {pts of 1: 7}}")
    _tool().main([str(rules), "--scenarios", str(scen), "--no-tests", "--lines", "game.rules:6"])
    out = capsys.readouterr().out
    assert [line.split()[0] for line in _bound_line(out)] == ["KILLED"]


def test_the_generated_module_differing_refuses_the_proof(tmp_path):
    """The last guard: even were the rules' use of a card type as a value missed, the mutant's
    generated module (where `Token.bonus`'s values are a constant) differs from the original's."""
    assert _prove(tmp_path, no_names=True) == \
        "no card of the ruleset has Token.bonus above 4 (highest: 1, card One); nothing reads the range"
    assert _prove(tmp_path, RANGED.replace("# TT-002\n", "# TT-002\n    pts of you += max(Token.bonus)\n"),
                  no_names=True) is None


def test_a_scenario_reading_the_range_or_writing_the_field_refuses_the_proof(tmp_path, capsys):
    """A scenario's `values:` expression naming the card type (`max(Token.bonus)` reads the range),
    or its `set:` writing the field of a card of that type (a variant): the mutant is run."""
    for reads in (True, False):
        if reads:
            rules, scen = _ranged(tmp_path, expect='{stats: {pts of 1: 2}, values: {"max(Token.bonus)": 5}}')
        else:
            rules, scen = _ranged(tmp_path, expect="{stats: {pts of 1: 4}}")
            text = (scen / "takes.yaml").read_text(encoding="utf-8")
            (scen / "takes.yaml").write_text(text.replace("players: 2\n", "players: 2\nset: {One.bonus: 3}\n"),
                                             encoding="utf-8")
        assert run_scenario(scen / "takes.yaml").passed
        _tool().main([str(rules), "--scenarios", str(scen), "--no-tests", "--lines", "game.rules:6"])
        out = capsys.readouterr().out
        # read: the scenario sees the lowered top; written: the variant never looks at the range
        assert [line.split()[0] for line in _bound_line(out)] == (["KILLED"] if reads else ["SURVIVED"]), out


def test_a_test_file_reading_a_declared_range_or_writing_the_field_high_refuses_the_proof(tmp_path):
    """A pytest file of the run that reads a declared range (`.type.hi` would see the lowered top),
    writes the field at the old top or above (a card of its own, which the lowered range would
    refuse), or evaluates a rule expression naming the type (a function of the rules given
    `Token` may read `t.bonus`): the mutant is run. A test file doing none of it leaves the proof
    standing."""
    tests = tmp_path / "tests"
    tests.mkdir()
    files = {
        "test_plain.py": "def test_plays():\n    assert True\n",
        "test_reads.py": "def test_bonus_tops(rs):\n    bonus = rs.card_types['Token'].fields_[1]\n"
                         "    assert bonus.type.hi == 5\n",
        "test_writes.py": "CARD = '- {name: Big, type: Token, value: 1, bonus: 5}'\n",
        "test_evaluates.py": "def test_top(game):\n    assert game.expression_value(parse('top(Token)'), {}) == 5\n",
    }
    for name, text in files.items():
        (tests / name).write_text(text, encoding="utf-8")
    assert _prove(tmp_path, tests=(tests / "test_plain.py",)) is not None
    assert _prove(tmp_path, tests=(tests / "test_reads.py",)) is None
    assert _prove(tmp_path, tests=(tests / "test_writes.py",)) is None
    assert _prove(tmp_path, tests=(tests / "test_evaluates.py",)) is None


def test_a_player_stats_range_is_never_proved(tmp_path, capsys):
    """`player stat pts: 0..99` clamps at run time: its lowered top is run, never proved."""
    rules, scen = _ranged(tmp_path)
    _tool().main([str(rules), "--scenarios", str(scen), "--no-tests", "--lines", "game.rules:10"])
    out = capsys.readouterr().out
    assert any("bound ..99 -> ..98" in line for line in _lines(out, "SURVIVED")) and not _lines(out, "EQUIVALENT")


def test_a_zone_swap_takes_whole_names_only():
    """A zone's name inside another name (`the_hand`) is no zone: swapping it made a rename mutant
    that no test can catch (a false survivor)."""
    operator_mutations = _tool().operator_mutations
    zones = ("hand", "deck", "discard")
    assert not [m for m, _ in operator_mutations("    log the_hand\n", False, zones) if m.startswith("zone")]
    assert not [m for m, _ in operator_mutations("    log decks_left\n", False, zones) if m.startswith("zone")]
    swaps = [(m, code) for m, code in operator_mutations("    move c to the_deck_of(p) or discard\n", False, zones)
             if m.startswith("zone")]
    assert swaps == [("zone `discard` -> `hand`", "    move c to the_deck_of(p) or hand\n")]


# ---- a card field's default, proved equivalent where every card prints the field -------------------
EVERY_BONUS = RANGED_CARDS.replace("value: 2}", "value: 2, bonus: 0}").replace("value: 3}", "value: 3, bonus: 2}")


def _default_line(out: str) -> list[str]:
    """The report's lines about `bonus: 0..5 = 0`'s default made 1 (line 6 of RANGED)."""
    return [line for line in out.splitlines() if "game.rules:6 " in line and "number 0 -> 1" in line]


def test_a_card_fields_default_every_card_overrides_is_proved_equivalent(tmp_path, capsys):
    """Every Token prints its bonus, so `= 0` made `= 1` changes no loaded card: EQUIVALENT, not
    run. With a card that leaves the bonus out (RANGED_CARDS: Two and Three) the default is that
    card's value, and the same mutant is run — and survives here, as no scenario takes Two."""
    rules, scen = _ranged(tmp_path, cards=EVERY_BONUS)
    args = [str(rules), "--scenarios", str(scen), "--no-tests", "--lines", "game.rules:6"]
    _tool().main(args)
    out = capsys.readouterr().out
    proved = [line for line in _default_line(out) if line.startswith("EQUIVALENT ")]
    assert proved and "every card of type Token (3) prints bonus: the default is never used" in proved[0]
    (tmp_path / "b").mkdir()
    rules2, scen2 = _ranged(tmp_path / "b")
    _tool().main([str(rules2), "--scenarios", str(scen2), "--no-tests", "--lines", "game.rules:6"])
    assert [line.split()[0] for line in _default_line(capsys.readouterr().out)] == ["SURVIVED"]


def test_a_test_file_showing_cards_fields_refuses_the_default_proof(tmp_path, capsys):
    """The play screen leaves out a field at its default (`card_line`): a test that shows cards
    could see the default change, so the mutant is run."""
    rules, scen = _ranged(tmp_path, cards=EVERY_BONUS)
    tests = tmp_path / "test_screen.py"
    tests.write_text("from interpreter.play.narrate import card_line\n\ndef test_x():\n    pass\n", encoding="utf-8")
    _tool().main([str(rules), "--scenarios", str(scen), "--tests", str(tests), "--lines", "game.rules:6"])
    assert [line.split()[0] for line in _default_line(capsys.readouterr().out)] != ["EQUIVALENT"]


def test_a_scenario_is_parsed_once_per_content_and_each_caller_gets_its_own(tmp_path, monkeypatch):
    """Every mutant meets the same scenario files: their YAML is parsed once (it was more than half
    of a scenario's run), keyed by the file's bytes, so an edited file is parsed again; each caller
    gets a deep copy, so what one run does to its scenario never reaches the next."""
    tool = _tool()
    parsed = []
    real = tool._LOAD_SCENARIO
    monkeypatch.setattr(tool, "_LOAD_SCENARIO", lambda p: parsed.append(p) or real(p))
    rules = ruleset(tmp_path, RULES, CARDS)
    scen = rules / "scenarios"
    scen.mkdir()
    _scenario(scen, "takes", ["TT-001"], "{count: {won of 1: 1}}")
    first = tool.load_scenario_once(scen / "takes.yaml")
    first.choices.append("Two")
    first.setup.zones["pool"] = ["One"]
    again = tool.load_scenario_once(scen / "takes.yaml")
    assert len(parsed) == 1 and again.choices == ["One"] and again.setup.zones == {}
    assert again.setup.model_fields_set == set() and again.model_fields_set == first.model_fields_set
    _scenario(scen, "takes", ["TT-001"], "{count: {won of 1: 0}}")   # edited: read again
    assert tool.load_scenario_once(scen / "takes.yaml").expect.count == {"won of 1": 0} and len(parsed) == 2


def test_the_tests_run_in_a_forked_child_give_the_new_interpreters_verdicts(tmp_path):
    """A mutant's pytest files run in a child forked from the tool (the interpreter already
    imported) unless `--test-subprocess`: the same verdicts and the same failing tests named. The
    tool runs as a script here (a pytest-xdist worker has threads, where the tool does not fork);
    the test file notes whether it ran inside the tool's process (the tool's `rulecover` imported)."""
    home = tmp_path / "rulesets"
    home.mkdir()
    rules = ruleset(home, RULES, CARDS)
    scen = rules / "scenarios"
    scen.mkdir()
    _scenario(scen, "takes", ["TT-001"], "{count: {won of 1: 1}}")          # never checks the points
    tests = tmp_path / "tests"
    tests.mkdir()
    marker = tmp_path / "forked.txt"
    (tests / "test_tally.py").write_text(textwrap.dedent(f"""\
        import sys
        from pathlib import Path
        from interpreter.api import load_program
        from interpreter.engine.factory import new_game

        def test_points():
            Path({str(marker)!r}).write_text(str("rulecover" in sys.modules))
            g = new_game(load_program(Path(__file__).resolve().parent.parent / "rulesets" / "{rules.name}"), 2, 0)
            g.answer(0)
            assert g.state.pstats[0]["pts"] > 0
        """), encoding="utf-8")
    runs = {}
    for how in ("forked", "subprocess"):
        out = tmp_path / f"{how}.json"
        cmd = [sys.executable, str(TOOL), str(rules), "--scenarios", str(scen), "--prefix", "TT", "--tests",
               str(tests / "test_tally.py"), "--lines", "game.rules:17", "--lines", "game.rules:21", "--json", str(out)]
        r = subprocess.run(cmd + (["--test-subprocess"] if how == "subprocess" else []), capture_output=True,
                           text=True, timeout=600)
        assert r.returncode in (0, 1), r.stderr[-2000:]
        runs[how] = [(o["where"], o["mutation"], o["status"], o["killed_by"]) for o in json.loads(out.read_text())]
        assert marker.read_text() == str(how == "forked")
    assert runs["forked"] == runs["subprocess"]
    by_tests = [o for o in runs["forked"] if o[2] == "killed-tests"]   # the points' line, which only the test checks
    assert len(by_tests) == 2 and all(o[0] == "game.rules:17" and o[3] == ["tests/test_tally.py::test_points"]
                                      for o in by_tests), runs["forked"]
    assert any(o[0] == "game.rules:21" and o[2] == "survived" for o in runs["forked"])   # the score line: passes


def test_a_forked_test_run_past_its_time_is_a_failure_and_leaves_no_child(tmp_path):
    """As the new interpreter's: a mutant that makes the tests run away is noticed (the files
    named, "over N s"), and the child is ended."""
    dest = tmp_path / "tests"
    dest.mkdir()
    (dest / "test_slow.py").write_text("import time\n\ndef test_slow():\n    time.sleep(60)\n", encoding="utf-8")
    script = textwrap.dedent(f"""\
        import importlib.util, os, sys, time
        from pathlib import Path
        spec = importlib.util.spec_from_file_location("mutate_rules", {str(TOOL)!r})
        tool = importlib.util.module_from_spec(spec)
        sys.modules["mutate_rules"] = tool
        spec.loader.exec_module(tool)
        assert tool.can_fork()
        began = time.time()
        got = tool.tests_fail_forked(Path({str(dest)!r}), [Path({str(dest / "test_slow.py")!r})], 2, None)
        print(got, round(time.time() - began))
        try:
            os.waitpid(-1, os.WNOHANG)
            print("a child is left")
        except ChildProcessError:
            print("no child left")
        """)
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    lines = r.stdout.splitlines()
    assert lines and lines[0].startswith("['test_slow.py (over 2 s)']"), r.stdout + r.stderr
    assert int(lines[0].split()[-1]) < 30 and lines[1] == "no child left"


# ---- tools/count_mutants.py: a line's mutants counted without running tests ---------------------
# (so a full run's count can be brought up to date after an edit: a deleted line's mutants go, a
# line whose mutations the checker refuses counts none)
def _counter():
    sys.path.insert(0, str(TOOL.parent))
    spec = importlib.util.spec_from_file_location("count_mutants", TOOL.parent / "count_mutants.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_counts_each_lines_first_three_valid_mutations(tmp_path):
    rules = ruleset(tmp_path, RULES, CARDS)
    found = _counter().count(rules, {"game.rules:16", "game.rules:17", "game.rules:18"})
    assert found["game.rules:16"] == ["statement -> pass"]                   # move c to your won
    assert found["game.rules:17"] == ["statement -> pass", "`+=` -> `-=`"]   # pts of you += c.value
    assert found["game.rules:18"] == ["negate `if` condition", "`is empty` -> `is not empty`",
                                      "block body -> pass"]                  # if pool is empty:
    assert set(found) == {"game.rules:16", "game.rules:17", "game.rules:18"}


def test_a_line_no_mutation_of_which_the_checker_accepts_counts_none(tmp_path):
    rules = ruleset(tmp_path, RULES, CARDS)
    found = _counter().count(rules, {"game.rules:15"})      # you choose c from pool "Take which"
    assert found == {"game.rules:15": []}


def test_at_most_per_line_mutants_a_line(tmp_path):
    rules = ruleset(tmp_path, RULES, CARDS)
    assert _counter().count(rules, {"game.rules:18"}, per_line=2)["game.rules:18"] == [
        "negate `if` condition", "`is empty` -> `is not empty`"]


def test_a_test_file_that_reads_another_mods_scenario_folder_finds_it_beside_the_copy(tmp_path):
    """test_talisman_cataclysm.py, met by the Cataclysm Terrain mod, counts the citations of
    tests/scenarios/talisman_cataclysm: copying only the mod's own folder failed it before any
    mutation (`fail before any mutation`, exit 2)."""
    tool = _tool()
    root = TOOL.parent.parent
    work = tmp_path / "rulesets" / "talisman_cataclysm_terrain"
    dest = tool.copy_tests([root / "tests" / "games" / "test_talisman_cataclysm.py"],
                           root / "rulesets" / "talisman_cataclysm_terrain", work)
    assert (dest / "games" / "test_talisman_cataclysm.py").is_file()
    copied = sorted(p.name for p in (dest / "scenarios" / "talisman_cataclysm").glob("*.yaml"))
    assert copied == sorted(p.name for p in (root / "tests" / "scenarios" / "talisman_cataclysm").glob("*.yaml"))


def test_a_mod_with_its_own_cards_folder_gets_its_bases_cards_in_the_copy(tmp_path):
    """rulesets/talisman_firelands keeps its cards in its own folder; its base's are cards/talisman.
    The copy lacked cards/ (only a ruleset's own card folder decided), so every stack failed to load
    in the copy: the test files failed before any mutation, and a scenario would have caught every
    mutant for a reason that was not the mutant."""
    tool = _tool()
    root = TOOL.parent.parent
    work = tool.work_copy(root / "rulesets" / "talisman_firelands", tmp_path)
    assert (work / "cards" / "firelands.yaml").is_file()
    assert (tmp_path / "cards" / "talisman" / "adventures.yaml").is_file()


def test_a_mutant_that_leaves_the_code_as_it_was_is_none(tmp_path):
    """`pass` made `pass`, and a body that is `pass` emptied to `pass`, are the same program: no
    mutant, so a hook procedure with nothing to do is not counted as two survivors."""
    rules = ruleset(tmp_path, RULES.replace("score p:", "procedure hook():\n    pass            # for mods\n\nscore p:"),
                    CARDS)
    found = _counter().count(rules, {"game.rules:21", "game.rules:22", "game.rules:16"})
    assert found["game.rules:21"] == [] and found["game.rules:22"] == []   # procedure hook(): / pass
    assert found["game.rules:16"] == ["statement -> pass"]                   # move c to your won
