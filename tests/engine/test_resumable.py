"""Resumable direct code (interpreter/engine/resumable.py, resumablegame.py): the direct engine's
generator functions lowered to frames of plain data, so that a game can be copied at any
decision and go on in the copy, playing exactly what the uninterrupted game plays."""
from __future__ import annotations

import ast
import json
import random
import sys
import textwrap

import pytest

from golden_games import AGENTS, GOLDEN, ROOT, _h
from interpreter.api import load_program
from interpreter.engine.direct import compile_direct
from interpreter.engine.directgame import DirectGame
from interpreter.engine.game import Limits
from interpreter.engine.resumable import DONE, copy_value, lower_generators
from interpreter.engine.resumablegame import ResumableGame, _Root, compile_resumable
from interpreter.play.session import agents_for, game_seed
from interpreter.runtime.errors import LimitExceeded
from interpreter.engine.factory import new_game
from interpreter.sim.simulate import simulate
from rulekit import build, line_of

DIRECT = ["toil_and_troublez", "tutorial_fireflies", "magical_treehouse", "enchanters",
          "enchanters_overlords", "stonehenge_wizards"]
TT = ROOT / "rulesets" / "toil_and_troublez"


def _dp(name: str):
    return compile_direct(load_program(ROOT / "rulesets" / name))


def _answers(game, seed: int) -> list[int]:
    """Play `game` to its end with seeded random answers; the answers."""
    rng, out = random.Random(seed), []
    while not game.over:
        out.append(rng.randrange(len(game.decision.options)))
        game.answer(out[-1])
    return out


def _end(g) -> tuple:
    return g.error, g.result, g.state.digest(), g.log, g.choices, g.held()


@pytest.mark.parametrize("ruleset,players", [("toil_and_troublez", 2), ("toil_and_troublez", 4),
                                             ("tutorial_fireflies", 2), ("tutorial_fireflies", 4),
                                             ("magical_treehouse", 3), ("enchanters", 2),
                                             ("enchanters_overlords", 4), ("stonehenge_wizards", 1),
                                             ("stonehenge_wizards", 3)])
def test_a_clone_at_every_decision_plays_on_to_the_same_end(ruleset, players):
    """Clone at each decision and go on in the clone only: the last clone ends exactly as the
    uninterrupted game (state digest, log, result, answers, hands) and as the generator code."""
    dp = _dp(ruleset)
    for i in range(2):
        seed = game_seed(5, i)
        whole = ResumableGame(dp, players, seed)
        answers = _answers(whole, i)
        gen = DirectGame(dp, players, seed)
        for a in answers:
            gen.answer(a)
        g = ResumableGame(dp, players, seed)
        for a in answers:
            g = g.clone()
            g.answer(a)
        assert whole.error is None and len(answers) > 20
        assert _end(g) == _end(whole) == _end(gen)


def test_a_clone_answered_otherwise_leaves_the_original_alone():
    """Clones answered differently and played out change nothing in the original, which then
    ends as if never copied; the copies really went another way."""
    dp = _dp("toil_and_troublez")
    seed = game_seed(9, 0)
    whole = ResumableGame(dp, 4, seed)
    answers = _answers(whole, 3)
    g = ResumableGame(dp, 4, seed)
    diverged = 0
    for k, a in enumerate(answers):
        d = g.decision
        if len(d.options) > 1 and k % 7 == 0:
            before = (g.state.digest(), list(g.log), list(g.choices), list(d.options), g.steps)
            other = g.clone()
            other.answer((a + 1) % len(d.options))
            while not other.over:
                other.answer(len(other.decision.options) - 1)
            assert (g.state.digest(), g.log, g.choices, d.options, g.steps) == before
            assert g.decision is d
            diverged += other.state.digest() != whole.state.digest()
        g.answer(a)
    assert _end(g) == _end(whole)
    assert diverged > 5


@pytest.mark.parametrize("ruleset,players", [("toil_and_troublez", n) for n in (2, 3, 4, 5, 6)] +
                         [("tutorial_fireflies", n) for n in (2, 3, 4)] +
                         [("magical_treehouse", 4), ("enchanters", 3), ("enchanters_overlords", 2)])
def test_same_games_as_the_task_engine(ruleset, players):
    """Every decision, the result, the log and the final state as the task engine plays them."""
    program = load_program(ROOT / "rulesets" / ruleset)
    dp = compile_direct(program)
    for agents in ("random", "first"):
        for i in range(2):
            seed = game_seed(11, i)
            a, b = new_game(program, players, seed), ResumableGame(dp, players, seed)
            for g in (a, b):
                seats = agents_for([agents], players, seed)
                while not g.over:
                    g.answer(seats[g.decision.player].choose(g, g.decision))
            assert a.error is None and b.error is None
            assert (a.result, a.log, a.choices, a.held(), a.state.digest()) == \
                (b.result, b.log, b.choices, b.held(), b.state.digest())


def test_recorded_golden_games_replay_identically():
    """Every recorded game of the rulesets that compile directly (tests/fixtures/golden_games.json)."""
    recorded = json.loads(GOLDEN.read_text())
    programs = {rs: _dp(rs) for rs in DIRECT}
    checked = 0
    for k, fp in recorded.items():
        rs, n, i, agents = k.split("/")
        if rs not in programs:
            continue
        seed = game_seed(7, int(i))
        g = ResumableGame(programs[rs], int(n), seed)
        g.play_out(agents_for(AGENTS[agents], int(n), seed))
        assert (g.result, len(g.choices), _h(g.choices), _h(g.held())) == \
            (fp["result"], fp["decisions"], fp["choices"], fp["held"]), k
        checked += 1
    assert checked >= 200


def test_search_agents_get_resumable_code():
    """`greedy` copies the game at each decision: it runs on resumable code, agents that never copy
    on generators; a batch with a greedy seat plays every game to its end."""
    program = load_program(TT)
    seats = agents_for(["greedy"], 4, 1)
    assert type(new_game(program, 4, 1, seats=seats)) is ResumableGame
    assert type(new_game(program, 4, 1, seats=agents_for(["random"], 4, 1))) is DirectGame
    b = simulate(str(TT), 2, 3, 5, ["greedy", "random", "random"], per_game=True)
    assert not b["errors"] and len(b["per_game"]) == 2 and b["cards"]


EVENTS = """\
    card type Gem:
        value: 1..5

    zone deck: pile, shared, hidden
    zone hand: set, per player, public
    player stat mana: 0..99

    setup:
        move all_cards() to deck
        shuffle deck

    when drawn(c) if c.value > 2:
        your mana += c.value

    when turn_end:
        if your mana >= 6:
            if you may "Spend?":
                your mana -= 6

    procedure take(p):
        draw from deck to hand of p as c
        if deck is empty:
            end game after this turn

    turn:
        take(you)
        if you may "Again?":
            take(you)

    score p: count(hand of p) + mana of p
"""
EVENT_CARDS = """\
    cards:
      - {name: Opal, type: Gem, value: 1, copies: 3}
      - {name: Ruby, type: Gem, value: 3, copies: 4, effect: "when drawn:\\n    your mana += 1\\n"}
      - {name: Pearl, type: Gem, value: 5, copies: 2, effect: "when drawn:\\n    if you may \\"Keep?\\":\\n        your mana += 1\\n"}
"""


def test_triggers_procedures_and_ordering_clone_anywhere(tmp_path):
    """Decisions inside card triggers, rule triggers with conditions, the active player ordering
    two triggers, procedures with loops, `end game after this turn`: clones at every decision
    end as the task engine's uninterrupted game."""
    program = build(tmp_path, EVENTS, EVENT_CARDS)
    dp = compile_direct(program)
    kinds = set()
    for i in range(6):
        seed = game_seed(2, i)
        ref = new_game(program, 3, seed)
        answers = _answers(ref, i)
        g = ResumableGame(dp, 3, seed)
        for a in answers:
            kinds.add(g.decision.kind)
            g = g.clone()
            g.answer(a)
        assert ref.error is None and g.error is None
        assert (g.result, g.log, g.state.digest()) == (ref.result, ref.log, ref.state.digest())
    assert {"order", "may"} <= kinds


def test_limits_and_errors_keep_their_meaning(tmp_path):
    """The decision limit names the rule that asks; endless recursion through procedures hits
    the depth limit; a broken rule names its line; on copies too."""
    base = textwrap.dedent("""\
        card type Chip:
            value: 1..3
        zone pile: pile, shared, hidden
        stat x = 0
        setup:
            move all_cards() to pile
        score p: x
    """)
    cards = "cards:\n  - {name: Chip, type: Chip, value: 1, copies: 3}\n"
    asking = build(tmp_path / "a", base + 'turn:\n    repeat:\n        if you may "Again?":\n'
                                       '            set x to x + 1\n', cards)
    g = ResumableGame(compile_direct(asking), 2, 1, Limits(max_decisions=5))
    g = g.clone()
    g.play_out(agents_for(["first"], 2, 1))
    assert isinstance(g.error, LimitExceeded) and "decisions" in g.error.message
    assert g.error.loc is not None and g.error.loc.line == line_of(asking, "if you may")
    deep = build(tmp_path / "b", base + "turn:\n    again(you)\nprocedure again(p):\n    again(p)\n", cards)
    g = ResumableGame(compile_direct(deep), 2, 1, Limits(max_depth=20))
    assert isinstance(g.error, LimitExceeded) and "deeper than 20" in g.error.message
    broken = build(tmp_path / "c", base + 'turn:\n    if you may "Go?":\n        set x to 5 / (x - x)\n', cards)
    g = ResumableGame(compile_direct(broken), 2, 1)
    g.clone().answer(0)
    g.answer(0)
    assert "division by zero" in g.error.message and g.error.loc.line == line_of(broken, "set x to 5")


@pytest.mark.parametrize("use", ["set x to y + 1", "let y = y + 1\n        set x to y"])
def test_a_variable_set_on_some_paths_has_no_value_in_both_forms(tmp_path, use):
    """A variable set on one branch only and read after a decision on the other: the generators
    fail with "`y` has no value here" (Python's UnboundLocalError); the copyable form keeps the
    variable in a frame slot across the decision, which must not give it a value (it gave none,
    and the error was "cannot add none and a number"). Set on the path taken, both play on."""
    rules = textwrap.dedent("""\
        stat x = 0
        turn:
            if player_count > 2:
                let y = 1
            if you may "Go on?":
                USE
            end game
        score p: x
    """).replace("USE", use)
    program = build(tmp_path, rules)
    dp = compile_direct(program)
    failed = []
    for players in (2, 3):
        for game in (DirectGame(dp, players, 1), ResumableGame(dp, players, 1), ResumableGame(dp, players, 1).clone()):
            game.answer(0)
            failed.append(game.error and (game.error.message, game.error.loc.line))
    line = line_of(program, use.split("\n")[0])
    assert failed == [("`y` has no value here", line)] * 3 + [None] * 3


# ---- the lowering pass on its own: Python generators in, the same behaviour out ---------------
TOYS = '''
def toy_expressions(xs, k):
    out = []
    a = xs[0] if len(xs) == 1 else xs[(yield ("pick", xs))]
    out.append(a)
    if (yield ("may", 2)) == 0 and k:
        out.append("yes")
    b = k and (yield ("and", 1)) or (yield ("or", 3))
    out.append(b)
    c = [a, (yield ("list", 2)), len(out)]
    out.append(c)
    return_value = yield from toy_sub(out)
    out.append(return_value)
    yield ("done", out)

def toy_sub(out):
    for i in range(2):
        out.append(("sub", i, (yield ("sub", 2))))

def toy_loops(xs):
    seen = []
    for x in xs:
        if x == 3:
            continue
        if x == 7:
            break
        xs.append(x * 10) if x < 2 else None
        seen.append((x, (yield ("loop", 2))))
    n = 0
    while n < 3:
        n += 1
        if n == 2:
            continue
        seen.append((yield ("while", 2)))
    yield ("done", seen)

def toy_exceptions(log):
    depth = [0]
    try:
        depth[0] += 1
        try:
            yield ("in", 2)
            yield from toy_raiser(log)
            log.append("not reached")
        finally:
            depth[0] -= 1
            log.append("finally")
    except KeyError as e:
        log.append(("caught", str(e), depth[0]))
        got = yield ("after", 2)
        log.append(got)
    else:
        log.append("no error")
    for i in range(3):
        try:
            if i == 1:
                yield ("try-loop", 2)
                break
        finally:
            log.append(("left", i))
    yield ("done", log)

def toy_raiser(log):
    log.append("raising")
    x = yield ("raise?", 2)
    if x == 0:
        raise KeyError("boom")
    log.append("no raise")
'''


def _toys() -> tuple[dict, dict]:
    """The toy generators as written, and lowered (factories)."""
    tree = ast.parse(textwrap.dedent(TOYS))
    plain: dict = {}
    exec(compile(tree, "<toys>", "exec"), plain)  # noqa: S102 - the test's own code
    body, steps, _ = lower_generators(tree.body)
    assert len(steps) == 5
    module = ast.fix_missing_locations(ast.Module(body=body, type_ignores=[]))
    lowered: dict = {"_Q_DONE": DONE, "_Q_snap": lambda xs: xs if type(xs) in (list, tuple) else list(xs)}
    exec(compile(module, "<toys>", "exec"), lowered)  # noqa: S102
    return plain, lowered


def _drive_generator(gen, answers):
    out, sent = [], None
    try:
        while True:
            d = gen.send(sent)
            out.append(d)
            sent = answers[len(out) - 1] if len(out) <= len(answers) else 0
    except StopIteration:
        out.append("end")
    except KeyError as e:
        out.append(("escaped", str(e)))
    return out


def _drive_frames(frame, answers, clone_each: bool):
    out, sent = [], None
    while True:
        try:
            d = frame[0](frame, sent)
        except KeyError as e:
            out.append(("escaped", str(e)))
            return out
        if d is DONE:
            out.append("end")
            return out
        out.append(copy_value(d, {}))
        if clone_each:
            frame = copy_value(frame, {})  # go on in a copy only
        sent = answers[len(out) - 1] if len(out) <= len(answers) else 0


def _drive_innermost(frame, answers, clone_each: bool, calls: list | None = None):
    """As `_drive_frames`, through the games' driver (`_Root`), which resumes the innermost frame;
    `calls`: for each answer, the step functions it ran."""
    out, sent = [], None
    root = _Root([frame])

    def note(f, event, arg):
        if event == "call" and f.f_code.co_name.endswith("_Q_step"):
            calls[-1].append(f.f_code.co_name)
    while True:
        if calls is not None:
            calls.append([])
            sys.setprofile(note)
        try:
            d = root.send(sent)
        except StopIteration:
            out.append("end")
            return out
        except KeyError as e:
            out.append(("escaped", str(e)))
            return out
        finally:
            sys.setprofile(None)
        out.append(copy_value(d, {}))
        if clone_each:  # go on in a copy only, its chain the copies of the original's
            memo: dict = {}
            copy_value(root.stack[0], memo)
            root = _Root([memo[id(f)] for f in root.stack])
        sent = answers[len(out) - 1] if len(out) <= len(answers) else 0


@pytest.mark.parametrize("name,args", [("toy_expressions", lambda: ([5, 6, 7], 1)),
                                       ("toy_expressions", lambda: ([5], 0)),
                                       ("toy_loops", lambda: ([1, 3, 4, 7, 9],)),
                                       ("toy_loops", lambda: ([1, 2],)),
                                       ("toy_exceptions", lambda: ([],))])
def test_lowered_generators_behave_as_python_generators(name, args):
    """Decisions inside conditional expressions, `and`/`or`, list displays and comparisons;
    `yield from`; `for` over a list that grows meanwhile; `break`/`continue`; exceptions raised
    in a called generator caught around it after its `finally` ran; `finally` on `break`: the
    same decisions and the same effects for every answer sequence, with or without copying the
    frames at each decision."""
    plain, lowered = _toys()
    for answers in ([0] * 12, [1] * 12, [1, 0, 1, 0, 1, 0, 1, 0, 1, 0], [2, 1, 0, 0, 1, 1, 0, 1, 0, 0]):
        a = _drive_generator(plain[name](*args()), answers)
        for clone_each in (False, True):
            b = _drive_frames(lowered[name](*args()), answers, clone_each)
            assert b == a, (answers, clone_each)
            c = _drive_innermost(lowered[name](*args()), answers, clone_each)
            assert c == a, (answers, clone_each)
    assert lowered[name](*args())[1] == 0  # a factory: a fresh frame, nothing run yet


def test_an_answer_resumes_the_innermost_frame_only():
    """The games' driver sends an answer to the frame that asked: answering the first of a
    called generator's two questions runs its step alone, not its caller's; the caller's step
    runs again when the called one finishes (and a raise in the called one reaches the caller's
    `except`, as the test above checks)."""
    _, lowered = _toys()
    calls: list = []
    out = _drive_innermost(lowered["toy_expressions"]([5, 6, 7], 1), [0] * 12, False, calls)
    subs = [i for i, d in enumerate(out) if d[0] == "sub"]
    assert len(subs) == 2 and subs[1] == subs[0] + 1
    assert calls[subs[1]] == ["toy_sub_Q_step"]  # the answer to the first `sub` question
    assert calls[subs[1] + 1] == ["toy_sub_Q_step", "toy_expressions_Q_step"]  # sub finished: the caller goes on


def test_the_lowered_module_keeps_rule_text_out():
    """The lowering adds only its own names and numbers: still no rule text in the source."""
    rp = compile_resumable(_dp("toil_and_troublez"))
    assert "'" not in rp.source.replace("'_Q_steps'", "") and '"' not in rp.source
    for word in ("took_row", "forest", "Draw another"):
        assert word not in rp.source
