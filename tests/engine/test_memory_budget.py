"""The memory budget (issue 25, runtime/memory.py): a game counts the list items and text
characters it builds, and a value counts the items of the lists inside it, so a hostile rule that
keeps building stops with a rule error at its own line — within a time and a peak memory the
tests state — on both engines, while real games build a small fraction of the budget."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from rulekit import build, line_of, run

from interpreter.engine.game import Limits
from interpreter.runtime.errors import LimitExceeded, RuleError, explain
from interpreter.runtime.memory import nested_size

ROOT = Path(__file__).resolve().parent.parent.parent

# A procedure that keeps 300 lists of 500,001 numbers alive at once: 150 million items, over a GB
# of memory without the budget, which stops it at about the 40th (20 million items built).
HOARD = "stat n = 0\nprocedure hoard():\n    let big = [x for each x in 1..500000]\n" + "".join(
    f"    let a{k} = big + [{k}]\n" for k in range(300)) + "    set n to 1\nturn:\n    hoard()\n    end game\n"

_CHILD = textwrap.dedent("""
    import json, resource, sys, time
    sys.path[:0] = [sys.argv[1]]
    from interpreter.api import load_program
    from interpreter.engine.factory import new_game
    def peak_mb():
        # this process's own peak (VmHWM starts anew at exec; ru_maxrss keeps the peak of the
        # process it was forked from, a test run grown large)
        try:
            with open("/proc/self/status") as f:
                return next(int(l.split()[1]) for l in f if l.startswith("VmHWM:")) / 1024
        except OSError:
            return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    program = load_program(sys.argv[2])
    start = time.perf_counter()
    if sys.argv[3] == "direct":
        from interpreter.engine.direct import compile_direct
        from interpreter.engine.directgame import DirectGame
        g = DirectGame(compile_direct(program), 2, 0)
    else:
        g = new_game(program, 2, 0)  # as every caller makes a game
    print(json.dumps({"seconds": time.perf_counter() - start, "error": g.error and g.error.message,
                      "line": g.error and g.error.loc and g.error.loc.line,
                      "file": g.error and g.error.loc and str(g.error.loc).split(":")[0],
                      "peak_mb": peak_mb()}))
""")


def _in_child(folder: Path, engine: str) -> dict:
    """Play the game in a fresh process, so its peak memory is its own."""
    out = subprocess.run([sys.executable, "-c", _CHILD, str(ROOT), str(folder), engine], capture_output=True,
                         text=True, timeout=120, check=True)
    return json.loads(out.stdout.splitlines()[-1])


def test_a_rule_that_keeps_building_lists_stops_at_the_memory_budget_naming_its_line(tmp_path):
    p = build(tmp_path, HOARD)
    got = _in_child(tmp_path / "rs", "task")
    assert "memory budget" in got["error"] and "20000000" in got["error"]
    assert got["file"].endswith("game.rules")
    assert line_of(p, "let a0 ") < got["line"] < line_of(p, "let a299 ")  # stopped part-way, at a `let`
    assert got["seconds"] < 20, got
    assert got["peak_mb"] < 600, got  # 20 million items of 8 bytes and the interpreter; unbounded: over 1 GB


def test_the_direct_engine_stops_at_the_same_line_with_the_same_words(tmp_path):
    build(tmp_path, HOARD)
    task, direct = _in_child(tmp_path / "rs", "task"), _in_child(tmp_path / "rs", "direct")
    assert direct["error"] == task["error"] and direct["line"] == task["line"], (task, direct)
    assert direct["peak_mb"] < 600, direct


def test_a_smaller_budget_stops_sooner(tmp_path):
    p = build(tmp_path, HOARD)
    g = run(p, limits=Limits(max_memory=2_000_000))
    assert isinstance(g.error, LimitExceeded) and "2000000" in g.error.message
    assert g.error.loc.line == line_of(p, "let a2 ")  # 500,001 items for `big`, 500,002 for each `aK`


def test_a_list_that_holds_itself_twice_stops_before_it_is_written_out(tmp_path):
    """`[s, s]` forty times is 80 items of memory but 2**40 once logged or digested: it is refused
    when it passes a million items counted with their nested ones, at the rule that built it."""
    p = build(tmp_path, """
        stat s = [1]
        turn:
            repeat 40 times:
                set s to [s, s]
            log s
            end game
        """)
    start = time.perf_counter()
    g = run(p)
    assert time.perf_counter() - start < 10
    assert isinstance(g.error, RuleError) and "counting the items of the lists inside it" in g.error.message
    assert g.error.loc.line == line_of(p, "set s to [s, s]")


def test_a_list_joined_with_itself_as_an_item_stops_long_before_it_fills_memory(tmp_path):
    """`s + [s]` keeps every earlier list alive inside the next (memory quadratic in the steps):
    before, 2 GB were gone after 23,000 steps."""
    p = build(tmp_path, """
        stat s = []
        turn:
            repeat 200000 times:
                set s to s + [s]
            end game
        """)
    start = time.perf_counter()
    g = run(p)
    assert time.perf_counter() - start < 20
    assert "counting the items of the lists inside it" in g.error.message
    assert g.error.loc.line == line_of(p, "s + [s]")


def test_a_list_nested_in_a_new_list_each_step_stops_at_the_depth_bound(tmp_path):
    """`[s, 1]` again and again: before, Python's recursion limit stopped it after about 10 s at a
    step that depended on the interpreter's stack; now it stops at depth 100, at once."""
    p = build(tmp_path, """
        stat s = []
        turn:
            repeat 2000000 times:
                set s to [s, 1]
            end game
        """)
    start = time.perf_counter()
    g = run(p)
    assert time.perf_counter() - start < 5
    assert g.error.message == "lists nested more than 100 deep" and g.error.loc.line == line_of(p, "[s, 1]")


def test_sharing_costs_the_distinct_lists_not_the_copies():
    """The walk that counts nested items visits each distinct list once: `[s, s]` 30 deep is
    2**31 items (refused) found by visiting 31 lists."""
    s: list = [1]
    for _ in range(30):
        s = [s, s]
    size, depth, cost = nested_size(s, limit=2 ** 40)
    assert (size, depth, cost) == (3 * 2 ** 30 - 2, 31, 30 * 22 + 21)
    assert nested_size(s)[0] > 1_000_000  # with the real bound the walk stops on the way up


def test_a_comprehension_repeating_a_list_is_counted_with_its_nested_items(tmp_path):
    p = build(tmp_path, """
        stat s = []
        turn:
            let big = [x for each x in 1..2000]
            set s to [big for each x in 1..1000]
            end game
        """)
    g = run(p)
    assert "counting the items of the lists inside it" in g.error.message
    assert g.error.loc.line == line_of(p, "set s to [big")


def test_nested_lists_within_the_bound_still_work(tmp_path):
    p = build(tmp_path, """
        stat s = [1]
        turn:
            repeat 10 times:
                set s to [s, s]
            let pairs = [[x, x + 1] for each x in 1..3] + [[9]]
            log [count(pairs), count(s)]
            end game
        """)
    g = run(p)
    assert g.error is None and g.log[-1] == "[4, 2]"
    assert 0 < g.built < 200  # each list built counted by its items


def test_running_out_of_the_process_memory_is_named_in_rule_words():
    """What a MemoryError becomes when the OS limit (not the game's budget) is reached first."""
    assert explain(MemoryError()) == "the game ran out of memory"


def test_lists_of_known_shape_are_charged_as_any_list():
    """`built_lists` (a literal or comprehension of card lists, rows or pairs of rows, whose shape
    the code generator knows) charges the memory budget and the work limit exactly as
    `nested_size` finds for any list: each item once per appearance, each distinct list's items
    once and 20 for each — also when one row appears in two pairs or a list twice."""
    import random

    from interpreter.runtime.memory import built_lists

    class Runtime:
        built = work = 0
        limits = Limits()

    rng = random.Random(1)
    shared = [list(range(rng.randrange(4))) for _ in range(4)]
    for _ in range(500):
        depth = rng.choice((2, 3))
        fresh = lambda: list(range(rng.randrange(5)))  # noqa: E731
        if depth == 2:
            out = [rng.choice(shared) if rng.random() < 0.3 else fresh() for _ in range(rng.randrange(1, 6))]
        else:
            out = [[rng.choice(shared), fresh()] for _ in range(rng.randrange(1, 6))]
            if len(out) > 1 and rng.random() < 0.3:
                out[1] = out[0]
        size, found_depth, cost = nested_size(out)
        g = Runtime()
        assert built_lists(g, out, depth) is out and found_depth <= depth
        assert (g.built, g.work) == (len(out), cost), out
    too_long = [list(range(600_000)), list(range(600_000))]
    try:
        built_lists(Runtime(), too_long, 2)
    except RuleError as e:
        assert "more than 1000000 items, counting the items of the lists inside it" in e.message
    else:
        raise AssertionError("a list of two lists of 600,000 items is over the bound")


def test_a_literal_of_single_values_is_charged_item_by_item(tmp_path):
    """`[n, n, n]` (numbers only) is charged without a look for lists inside it
    (`memory.built_flat`), but charged all the same: 3 items a time, so a budget of 3,000 is passed
    within the loop, at that line, while a budget of 3,100 lets the game end."""
    rules = """
        stat n = 0
        stat s = [0]
        turn:
            repeat 1001 times:
                set s to [n, n, n]
            set n to 1
            end game
        """
    p = build(tmp_path, rules)
    g = run(p, limits=Limits(max_memory=3_000))
    assert isinstance(g.error, LimitExceeded) and "3000" in g.error.message
    assert g.error.loc.line == line_of(p, "set s to [n, n, n]")
    assert run(p, limits=Limits(max_memory=3_100)).error is None


def test_pairs_of_rows_are_counted_as_the_walk_counts_them():
    """A list of pairs of flat rows (a row shared by two pairs) is sized without the general walk
    (`memory._three_deep`), with the walk's answer: every item counted each time it appears, each
    distinct list's cost once (b's 3 items + 20 once, though it lies in both pairs)."""
    a, b, c = [1, 2], [3, 4, 5], [6, 7, 8, 9]
    size, depth, cost = nested_size([[a, b], [b, c]])
    assert (size, depth) == (2 + (2 + 2 + 3) + (2 + 3 + 4), 3)
    assert cost == (2 + 20) + 2 * (2 + 20) + (2 + 20) + (3 + 20) + (4 + 20)
    assert nested_size([[a, [b]], c])[:2] == (2 + (2 + 2 + (1 + 3)) + 4, 4)  # deeper: the walk itself
