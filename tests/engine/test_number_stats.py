"""Stats read as never none (engine/direct.py `number_stats`): a stat that every `set`, `+=` and
first value gives a number is compared in place, without `_ordered` (which is there for values
that may be none: none never compares); one that some write may leave none is not — nor is one
set from it — and a comparison with its none is false, not an error."""
from __future__ import annotations

from interpreter.engine.direct import compile_direct
from interpreter.play.scenario import run_scenario
from rulekit import build, finish


def test_a_stat_only_ever_set_to_numbers_is_compared_in_place(tmp_path):
    p = build(tmp_path, """
        stat x: 0..9 = 2
        stat y = 0
        turn:
            set x to min([x + 1, 9])
            y += 1
            if x > 2 and y >= 1:
                set y to 10
            end game
        """)
    dp = compile_direct(p)
    assert {"x", "y"} <= dp.info["number_stats"]
    assert "_ordered" not in dp.source
    for g in (finish(g) for g in _games(p)):
        assert g.error is None and g.state.stats["y"] == 10


def test_a_stat_a_set_may_leave_none_never_compares_and_nor_does_one_set_from_it(tmp_path):
    p = build(tmp_path, """
        stat x: 0..9 = 2
        stat z = 5
        stat y = 0
        turn:
            set x to none
            set z to x
            if x < 3:
                set y to 1
            if z < 3:
                set y to y + 10
            end game
        """)
    dp = compile_direct(p)
    assert "x" not in dp.info["number_stats"] and "z" not in dp.info["number_stats"]
    assert "y" in dp.info["number_stats"]
    for g in (finish(g) for g in _games(p)):
        assert g.error is None, g.error
        assert g.state.stats["y"] == 0  # none is neither below 3 nor anything else



def test_a_scenario_may_set_a_number_stat_only_to_a_number(tmp_path):
    """The generated code compares such a stat in place, so a scenario's `setup: stats:` that
    puts none or a text in it is refused by name, not left to fail inside a comparison."""
    build(tmp_path, """
        stat x: 0..9 = 2
        stat y = 0
        turn:
            if x > 2:
                set y to 1
            end game
        """)
    body = "name: s\nruleset: ..\nplayers: 2\nseed: 0\nsetup:\n  stats: {x: %s}\nexpect:\n  stats: {y: %s}\n"
    scen = tmp_path / "rs" / "scenarios"
    scen.mkdir()
    (scen / "ok.yaml").write_text(body % ("3", "1"), encoding="utf-8")
    (scen / "none.yaml").write_text(body % ("null", "0"), encoding="utf-8")
    ok = run_scenario(scen / "ok.yaml")
    assert ok.passed, ok.format()
    refused = run_scenario(scen / "none.yaml")
    assert not refused.passed and "`x` holds a number (the rules never give it anything else), not None" \
        in refused.format()


def _games(p):
    from interpreter.engine.factory import new_game
    yield new_game(p, 2, 0, seats=[])
    yield new_game(p, 2, 0)  # the copyable form
