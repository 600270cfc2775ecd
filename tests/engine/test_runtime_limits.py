"""Runtime limits that bound time and memory (issue 25): numbers that keep growing, builtins over
long lists inside loops, rule functions that call themselves twice, and a log written without end
each stop the game with a rule error naming the limit, within a time the test states — before,
each ran for minutes or filled memory while the step limit was still far away."""
from __future__ import annotations

import time

from rulekit import build, line_of, run

from interpreter.engine.game import Limits
from interpreter.runtime.errors import LimitExceeded, RuleError


def _stops(program, seconds: float, limits: Limits | None = None):
    start = time.perf_counter()
    g = run(program, limits=limits)
    took = time.perf_counter() - start
    assert g.over and g.error is not None, "the game should stop on an error"
    assert took < seconds, f"took {took:.1f} s"
    return g.error


def test_a_number_that_doubles_each_step_stops_at_the_arithmetic_bound(tmp_path):
    p = build(tmp_path, """
        stat n = 1
        turn:
            repeat 100000 times:
                n += n
            end game
        """)
    err = _stops(p, 10)
    assert isinstance(err, RuleError) and "too large" in err.message and "+" in err.message
    assert err.loc is not None and err.loc.line == line_of(p, "n += n")


def test_subtraction_is_bounded_as_addition_is(tmp_path):
    p = build(tmp_path, """
        stat n = 1
        turn:
            repeat 100000 times:
                set n to n - (0 - n)
            end game
        """)
    err = _stops(p, 10)
    assert "too large" in err.message and "-" in err.message


def _summing(tmp_path, times: int, also: str = "") -> Exception:
    """The error of a turn that sums a 100,000-item list `times` times (each time also doing
    `also`, a statement), under a work limit of 5,000,000 items."""
    p = build(tmp_path, f"""
        stat n = 0
        turn:
            let big = [x for each x in 1..100000]
            repeat {times} times:
                set n to sum(big)
                {also}
            end game
        """)
    return _stops(p, 20, Limits(max_work=5_000_000))


def test_a_builtin_over_a_long_list_inside_a_loop_is_charged_by_its_items(tmp_path):
    err = _summing(tmp_path, 1000000)
    assert isinstance(err, LimitExceeded) and "5000000 items" in err.message


def test_membership_in_a_long_list_is_charged_too(tmp_path):
    p = build(tmp_path, """
        stat n = 0
        turn:
            let big = [x for each x in 1..100000]
            repeat 1000000 times:
                if 0 in big:
                    set n to 1
            end game
        """)
    err = _stops(p, 20, Limits(max_work=5_000_000))
    assert isinstance(err, LimitExceeded)


def test_an_empty_range_gives_no_work_back(tmp_path):
    """`1..HI` with HI below 1 is empty and costs nothing: a rule cannot earn back work with one
    (it once counted HI - LO + 1 items, a negative number, and so undid the charge of a sum)."""
    err = _summing(tmp_path, 200, "set n to count(1..(0 - 200000))")
    assert isinstance(err, LimitExceeded) and "5000000 items" in err.message


def test_a_function_that_calls_itself_twice_is_charged_per_call(tmp_path):
    p = build(tmp_path, """
        function f(k) = 0 if k == 0 else f(k - 1) + f(k - 1)
        stat n = 0
        turn:
            set n to f(40)
            end game
        """)
    err = _stops(p, 30, Limits(max_work=200_000))
    assert isinstance(err, LimitExceeded) and "200000" in err.message


def test_a_log_written_without_end_stops_at_its_character_bound(tmp_path):
    p = build(tmp_path, """
        turn:
            repeat 1000000 times:
                log "a line of the story, again and again"
            end game
        """)
    err = _stops(p, 20, Limits(max_log_chars=100_000, max_steps=10_000_000))
    assert isinstance(err, LimitExceeded) and "log" in err.message and "100000" in err.message


def test_ordinary_arithmetic_and_logs_are_untouched(tmp_path):
    p = build(tmp_path, """
        stat n = 1
        turn:
            repeat 62 times:
                n += n
            set n to n - 1
            log n
            end game
        """)
    g = run(p)
    assert g.error is None and g.log[-1] == str(2 ** 62 - 1)


def test_direct_code_bounds_addition_and_subtraction_with_the_same_words(tmp_path):
    """The generated code of the direct engine stops a doubling number where the task engine does,
    with the same message at the same rule."""
    from interpreter.engine.direct import compile_direct
    from interpreter.engine.directgame import DirectGame
    for line in ("n += n", "set n to n + n", "set n to n - (0 - n)", "n -= 0 - n"):
        p = build(tmp_path / line.replace(" ", "_").replace("(", "").replace(")", ""), f"""
            stat n = 1
            turn:
                repeat 100000 times:
                    {line}
                end game
            """)
        a = run(p)
        start = time.perf_counter()
        b = DirectGame(compile_direct(p), 2, 0)
        assert time.perf_counter() - start < 10
        assert b.over and isinstance(b.error, RuleError) and "too large" in b.error.message, line
        assert a.error.message.startswith(b.error.message) and a.error.loc.line == b.error.loc.line, line
