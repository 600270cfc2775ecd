"""Generators lowered on their first call (interpreter/engine/resumablelazy.py): the same code as
the whole-module pass, only what a game calls is lowered, copies bind it as they need it, and a
module laid out otherwise is lowered whole."""
from __future__ import annotations

import copy
import random
import types

import pytest

from golden_games import ROOT
from interpreter.api import load_program
from interpreter.engine.direct import compile_direct
from interpreter.engine import resumable, resumablelazy
from interpreter.engine.directgame import DirectGame
from interpreter.engine.resumablegame import STEPS_KEY, ResumableGame, compile_resumable, lower_whole


@pytest.fixture(autouse=True)
def _lower_here(monkeypatch):
    """These tests are about the lowering itself: no lowering kept by an earlier process is used
    (test_lowered_kept.py tests that)."""
    monkeypatch.setattr(resumablelazy, "cache_dir", lambda: None)


def _dp(name: str):
    return compile_direct(load_program(ROOT / "rulesets" / name))


def _fresh(dp):
    """A copy of `dp` without its cached lowering."""
    out = copy.copy(dp)
    out.__dict__.pop("_resumable", None)
    return out


@pytest.mark.parametrize("ruleset", ["toil_and_troublez", "tutorial_fireflies"])
def test_each_generator_lowers_alone_to_the_code_of_the_whole_pass(ruleset):
    """Function by function, the step and factory code (bytecode, constants, names, line table)
    and the suspension tables equal those of the whole module lowered at once."""
    dp = _fresh(_dp(ruleset))
    low = compile_resumable(dp).lowering
    assert low is not None and len(low.spans) >= 4
    for i in range(len(low.spans)):
        low.compiled(i)
    whole = lower_whole(_fresh(dp))
    codes = {c.co_name: c for c in whole.build.__code__.co_consts if isinstance(c, types.CodeType)}
    for step, factory in low.code.values():
        assert step == codes[step.co_name] and factory == codes[factory.co_name]
    assert low.meta == whole.meta and len(low.meta) == len(low.spans)


def _play(g, seed: int) -> tuple:
    rng = random.Random(seed)
    while not g.over:
        g.answer(rng.randrange(len(g.decision.options)))
    return g.error, g.result, g.state.digest(), g.log


def test_a_game_lowers_what_it_calls_and_its_copies_bind_it_as_needed():
    """A new game has lowered only the generators it reached; a copy taken at the first decision,
    before most were called, plays on to the end the generator engine plays, binding the same
    compiled code (compiled once per program) to its own state."""
    dp = _fresh(_dp("toil_and_troublez"))
    g = ResumableGame(dp, 3, 5)
    low = g.rp.lowering
    assert 0 < len(low.code) < len(low.spans)
    assert set(g.fns[STEPS_KEY]) == {name for name, *_ in low.spans}
    twin = g.clone()
    assert twin.fns[STEPS_KEY] is not g.fns[STEPS_KEY]
    ref = DirectGame(dp, 3, 5)
    assert _play(twin, 9) == _play(ref, 9)
    compiled = dict(low.code)
    assert _play(g, 9) == _play(DirectGame(dp, 3, 5), 9)
    assert all(low.code[i] is c for i, c in compiled.items())  # not compiled again by the original
    ours = {n: s.step for n, s in g.fns[STEPS_KEY].items() if s.step is not None}
    theirs = {n: s.step for n, s in twin.fns[STEPS_KEY].items() if s.step is not None}
    assert ours and all(ours[n] is not theirs[n] and ours[n].__code__ is theirs[n].__code__
                        for n in ours.keys() & theirs.keys())


def test_a_module_laid_out_otherwise_is_lowered_whole():
    """A statement between the function definitions (it could keep a generator itself): the lazy
    form is not used, the whole module is lowered, and the game is the same."""
    dp = _fresh(_dp("tutorial_fireflies"))
    lines = dp.source.split("\n")
    gens = {c.co_name for c in dp.build.__code__.co_consts if isinstance(c, types.CodeType) and c.co_flags & 0x20}
    at = next(i for i, ln in enumerate(lines) if ln.startswith("    def ") and ln[8:ln.index("(")] in gens) + 1
    while lines[at].startswith("     "):  # after the first generator's definition, before the next one
        at += 1
    assert lines[at].startswith("    def ")
    lines.insert(at, "    _aside = None")
    dp.source = "\n".join(lines)
    rp = compile_resumable(dp)
    assert rp.lowering is None and type(rp.build(*_runtime_args(dp))[STEPS_KEY]) is list
    assert _play(ResumableGame(dp, 2, 3), 4)[1:3] == _play(DirectGame(dp, 2, 3), 4)[1:3]


def test_a_function_the_pass_refuses_stops_the_game_saying_so(monkeypatch):
    """Found only when a game first calls it, a construct the pass cannot lower ends that game with
    a rule error that says what to do, not a Python error."""
    def refuse(*args, **kwargs):
        raise resumable.NotLowerable("a decision inside a comprehension")
    monkeypatch.setattr(resumablelazy, "lower_function", refuse)
    g = ResumableGame(_fresh(_dp("toil_and_troublez")), 2, 1)
    assert g.over and "cannot go on in its copyable form (a decision inside a comprehension)" in g.error.message
    assert "agents that do not copy the game" in g.error.message and "Error" not in g.error.message


def _runtime_args(dp):
    g = DirectGame(dp, 2, 3)
    return g.R, dp.K
