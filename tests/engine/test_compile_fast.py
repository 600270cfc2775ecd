"""The cheaper compile paths make the same code as the ones they replaced (issue 16: compiling a
big ruleset was tens of seconds): the observed form's rewrite visiting only the statements that
can hold a rewrite gives the same source, byte for byte, as visiting every node of the module;
and games on the observed form made that way are the games of the plain form."""
from __future__ import annotations

import copy
from pathlib import Path

import pytest

from interpreter.api import load_program
from interpreter.engine.direct import compile_direct
from interpreter.engine.directobserved import _rewrite, _rewrite_whole, compile_observed
from interpreter.engine import resumablelazy
from interpreter.engine.directgame import DirectGame
from interpreter.engine.resumablegame import ResumableGame
from interpreter.play.session import agents_for
from rulekit import play_trace

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("ruleset", ["toil_and_troublez", "stonehenge_wizards"])
def test_observed_rewrite_is_the_whole_module_rewrite(ruleset):
    src = compile_direct(load_program(ROOT / "rulesets" / ruleset)).source
    fast = _rewrite(src)
    assert fast == _rewrite_whole(src)
    assert fast != src


def test_the_three_rewrites_are_made():
    """stonehenge_wizards has all three: a decision with one option, a shuffle, an action."""
    src = compile_direct(load_program(ROOT / "rulesets" / "stonehenge_wizards")).source
    fast = _rewrite(src)
    assert fast.count("_shuffled(R, ") == src.count("_rng.shuffle(") > 0
    assert "_only_option(R, " in fast and "); break" in fast


def test_observed_form_plays_the_plain_forms_games():
    program = load_program(ROOT / "rulesets" / "toil_and_troublez")
    dp = compile_direct(program)
    observed = compile_observed(dp)
    assert observed.source == _rewrite_whole(dp.source)
    for seed in (1, 2):
        games = [DirectGame(form, 3, seed) for form in (dp, observed)]
        traces = [play_trace(g, agents_for(["random"], 3, seed)) for g in games]
        assert traces[0] == traces[1] and len(traces[0]) > 10
        assert games[0].result == games[1].result and games[0].log == games[1].log
        assert games[0].state.digest() == games[1].state.digest()


def test_lazy_form_reads_its_generators_off_the_text_and_checks_them(monkeypatch):
    """The copyable form compiles its module once, from the text (resumablelazy._guess); the
    compiled module confirms the guess — and a wrong guess falls back to the plain form's code,
    with the same layout."""
    dp = compile_direct(load_program(ROOT / "rulesets" / "toil_and_troublez"))
    lines = dp.source.split("\n")
    gens, at = resumablelazy._layout(lines, dp.build.__code__)
    assert resumablelazy._guess(lines) == ([g[:3] for g in gens], at) and len(gens) > 3
    assert resumablelazy.lazy_program(copy.copy(dp), {}, "_Q_steps").spans == gens
    monkeypatch.setattr(resumablelazy, "_guess", lambda lines: ([g[:3] for g in gens[:-1]], at))
    assert resumablelazy.lazy_program(copy.copy(dp), {}, "_Q_steps").spans == gens


def test_copyable_observed_form_never_compiles_its_own_build():
    dp = compile_direct(load_program(ROOT / "rulesets" / "tutorial_fireflies"))
    observed = compile_observed(dp)
    game = ResumableGame(observed, 2, 1)
    assert "_build" not in observed.__dict__
    twin = game.clone()
    assert (twin.decision.prompt, twin.decision.labels) == (game.decision.prompt, game.decision.labels)
    assert observed.build is not dp.build and "_build" in observed.__dict__  # compiled when asked


def _learnt(program_dir, monkeypatch, reuse: bool) -> tuple:
    """What the learning pass learns of `program_dir`'s stats, and how many rule function calls it
    wrote out; `reuse=False`: no call's value is reused (every key differs)."""
    from interpreter.engine import direct, directexpr
    with monkeypatch.context() as m:
        if not reuse:
            m.setattr(directexpr, "_fields", lambda x: object())
        written = []
        inlined = directexpr.RuleFunctions._inlined
        m.setattr(directexpr.RuleFunctions, "_inlined", lambda self, *a: written.append(1) or inlined(self, *a))
        return direct._learn_stats(load_program(program_dir)), len(written)


def test_the_learning_pass_reuses_a_call_only_while_the_stats_kinds_stand(tmp_path, monkeypatch):
    """`h()` is compiled before and after `held` is learnt to hold a card: the second call must be
    compiled again (reused, `other` would never be learnt to hold a card)."""
    from rulekit import HEADER, ruleset
    rules = HEADER + "card type Gem:\n    v: 1..3\nzone deck: pile, shared, hidden\nstat held = 0\nstat other = 0\n" \
        "function h() = held\nsetup:\n    move all_cards() to deck\nturn:\n    set other to h()\n" \
        "    set held to top(deck)\n    set other to h()\n    end game\n"
    folder = ruleset(tmp_path, rules, "- {name: Ruby, type: Gem, v: 1}\n")
    assert _learnt(folder, monkeypatch, reuse=True)[0] == (frozenset(), {"held": "card", "other": "card"})


def test_the_learning_pass_learns_the_same_reusing_calls(monkeypatch):
    """Talisman's learning pass (most of its rule function calls written out again in the same
    context) learns the same kinds with the calls reused as without, writing far fewer out."""
    reused, fewer = _learnt(ROOT / "rulesets" / "talisman", monkeypatch, reuse=True)
    fresh, every = _learnt(ROOT / "rulesets" / "talisman", monkeypatch, reuse=False)
    assert reused == fresh and fresh[1]
    assert fewer * 2 < every
