"""Generated code (interpreter/engine/direct.py, directgame.py) runs every shipped ruleset: which
forms a game gets, what no rule text may reach, and the limits and errors of its code. The same
games as before the task engine was retired are checked by the golden games (golden_games.py).
"""
from __future__ import annotations

import textwrap

import pytest

import interpreter.engine.factory as factory

from golden_games import ROOT
from rulekit import played_rulesets, ruleset
from interpreter.api import load_program
from interpreter.engine.direct import Unsupported, compile_direct
from interpreter.engine.directgame import DirectGame
from interpreter.engine.resumablegame import ResumableGame
from interpreter.engine.game import Limits
from interpreter.runtime.errors import LimitExceeded
from interpreter.play.session import agents_for, game_seed
from interpreter.engine.factory import new_game

TT = ROOT / "rulesets" / "toil_and_troublez"


def _play(game, seats):
    trace = []
    while not game.over:
        d = game.decision
        trace.append((d.player, d.kind, len(d.options)))
        game.answer(seats[d.player].choose(game, d))
    return trace


def test_every_shipped_ruleset_compiles():
    """Every game and mod the play-each-ruleset tests play compiles to generated code (the mods of
    Talisman compile in their own tests, tests/games/test_talisman_mods_direct.py)."""
    for folder in played_rulesets():
        compile_direct(load_program(folder))


def test_agents_that_copy_the_game_get_copyable_code():
    """Generator code for agents that never copy the game; its resumable form (which can be
    cloned, test_resumable.py) for those that do."""
    program = load_program(TT)
    assert type(new_game(program, 4, 1, seats=agents_for(["random"], 4, 1))) is DirectGame
    assert type(new_game(program, 4, 1, seats=agents_for(["greedy"], 4, 1))) is ResumableGame


def test_prefer_and_value_on_direct_code():
    """A ruleset's `prefer` and `value` rules on direct code (directfacade.py): guided seats play
    Talisman as on the task engine; the resumable form gives the same `values` at the same
    point, and a copy taken there plays on as the original does."""
    program = load_program(ROOT / "rulesets" / "talisman")
    dp = compile_direct(program)
    seed = game_seed(11, 1)
    a, b = new_game(program, 3, seed), DirectGame(dp, 3, seed)
    assert _play(a, agents_for(["guided"], 3, seed)) == _play(b, agents_for(["guided"], 3, seed))
    assert (a.result, a.log, a.state.digest()) == (b.result, b.log, b.state.digest())
    t, r = new_game(program, 3, seed), ResumableGame(dp, 3, seed)
    seats = agents_for(["random"], 3, seed)
    for _ in range(60):
        i = seats[r.decision.player].choose(r, r.decision)
        t.answer(i)
        r.answer(i)
    assert r.values() == t.values() and len(set(r.values())) > 1
    assert r.preferences(r.decision) == t.preferences(t.decision)
    twin = r.clone()
    assert _play(twin, agents_for(["first"], 3, seed)) == _play(r, agents_for(["first"], 3, seed))
    assert (twin.result, twin.state.digest()) == (r.result, r.state.digest())
    assert type(new_game(program, 3, 1, seats=agents_for(["greedy"], 3, 1))) is ResumableGame  # lowered above
    assert type(new_game(program, 3, 1, seats=agents_for(["guided"], 3, 1))) is DirectGame


def test_a_copyable_game_runs_on_direct_code_whatever_the_size_of_its_module():
    """No size limit sends a copyable game to the task engine any more (each generator is lowered
    on its first call, resumablelazy.py): Talisman, the largest module, gets the copyable form."""
    program = load_program(ROOT / "rulesets" / "talisman")
    assert len(compile_direct(program).source) > 400_000  # the largest (procedures called: directcalls.py)
    g = new_game(program, 2, 1, seats=agents_for(["greedy"], 2, 1))
    assert type(g) is ResumableGame and g.decision is not None


def test_a_ruleset_it_cannot_compile_is_refused_in_words(tmp_path, monkeypatch):
    """A construct the code generator does not handle yet stops the game before it starts, with
    what it is, in words (no Python name)."""
    program = _tiny(tmp_path, "move first(pile) to your hand\nif pile is empty:\n    end game after this turn\n")

    def refuse(program):
        raise Unsupported("a form made up for this test")
    monkeypatch.setattr(factory, "compile_direct", refuse)
    with pytest.raises(ValueError, match="cannot be run: the code generator does not handle a form made up for this test yet"):
        new_game(program, 2, 1, seats=agents_for(["random"], 2, 1))


def test_no_rule_text_in_the_generated_source():
    """Rule names and texts stay in the constants table: the source is this compiler's own."""
    dp = compile_direct(load_program(TT))
    for word in ("took_row", "taker", "talismans", "Cloak", "Talisman", "forest", "Draw another"):
        assert word not in dp.source
    assert "'" not in dp.source and '"' not in dp.source


def _ruleset(tmp_path, body: str):
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "game.rules").write_text(body)
    return load_program(tmp_path)


GAME = """\
game "Tiny":
    players 2..2

card type Chip:
    value: 1..3

zone pile: pile, shared, hidden
zone hand: set, per player, public

stat x = 0

setup:
    move all_cards() to pile
    shuffle pile

turn:
{turn}
score p: count(hand of p)
"""


def _tiny(tmp_path, turn: str, more: str = "", copies: int = 6):
    """A two-player game of `copies` chips whose turn is `turn`, with `more` rules after it."""
    (tmp_path / "cards").mkdir(parents=True)
    (tmp_path / "cards" / "cards.yaml").write_text(f"cards:\n  - {{name: Chip, type: Chip, value: 1, copies: {copies}}}\n")
    text = GAME.format(turn=textwrap.indent(textwrap.dedent(turn), " " * 4))
    return _ruleset(tmp_path, text + "\n" + textwrap.dedent(more))


def _line(folder, text: str) -> int:
    lines = (folder / "game.rules").read_text().splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line)


def test_a_broken_rule_names_its_line(tmp_path):
    """A content error stops the game with the rule's location, as the task engine reports it."""
    program = _tiny(tmp_path, "set x to 5 / (x - x)\n")
    g = DirectGame(compile_direct(program), 2, 1)
    assert g.over and g.error is not None
    t = new_game(program, 2, 1)
    assert "division by zero" in g.error.message
    assert (g.error.loc.file, g.error.loc.line) == (t.error.loc.file, t.error.loc.line)
    assert g.error.loc.line == _line(tmp_path, "set x to 5 / (x - x)")


def test_a_runaway_loop_hits_the_step_limit(tmp_path):
    program = _tiny(tmp_path, "repeat:\n    set x to x + 1\n")
    g = DirectGame(compile_direct(program), 2, 1, Limits(max_steps=500))
    assert isinstance(g.error, LimitExceeded) and "steps" in g.error.message


def test_endless_recursion_hits_the_depth_limit(tmp_path):
    program = _tiny(tmp_path, "again(you)\n", "procedure again(p):\n    again(p)\n")
    g = DirectGame(compile_direct(program), 2, 1, Limits(max_depth=20))
    assert isinstance(g.error, LimitExceeded) and "deeper than 20" in g.error.message


def test_the_decision_limit_stops_a_game_and_names_the_rule(tmp_path):
    program = _tiny(tmp_path, 'repeat:\n    if you may "Again?":\n        set x to x + 1\n')
    g = DirectGame(compile_direct(program), 2, 1, Limits(max_decisions=5))
    g.play_out(agents_for(["first"], 2, 1))
    assert isinstance(g.error, LimitExceeded) and "decisions" in g.error.message
    assert g.error.loc is not None and g.error.loc.line == _line(tmp_path, "if you may")
    assert len(g.choices) == 5


def test_settle_rules_fire_as_in_the_task_engine(tmp_path):
    """An `as soon as` watcher ends the game after the turn that empties the pile; the same
    number of turns and the same state in both engines."""
    program = _tiny(tmp_path, "draw from pile to your hand as c\n", """\
        as soon as pile is empty:
            end game after this turn
        """, copies=7)
    a, b = new_game(program, 2, 5), DirectGame(compile_direct(program), 2, 5)
    assert a.over and b.over
    assert a.result == b.result and b.result["turns"] == 7
    assert a.state.digest() == b.state.digest()


EVENTS = """\
game "Events":
    players 2..3

card type Gem:
    value: 1..5

zone deck: pile, shared, hidden
zone table: row, shared, public
zone hand: set, per player, public
player stat mana: 0..99

setup:
    move all_cards() to deck
    shuffle deck

placement in table as row:
    count(row) <= 3

when round_start:
    log ["round", round_number, "begins"]

when drawn(c) if c.value > 2:
    your mana += c.value

when placed(c):
    if c.value == 5:
        move c to your hand

when turn_end:
    if your mana >= 6:
        your mana -= 6
        move first(table) to your hand

turn:
    draw from deck to your hand as c
    if c is Gem and c can be placed in table:
        if you may "Put it on the table?":
            place c in table
    if deck is empty:
        end game after this turn

score p: count(hand of p) + mana of p
"""

EVENT_CARDS = """\
cards:
  - {name: Opal, type: Gem, value: 1, copies: 3}
  - {name: Ruby, type: Gem, value: 3, copies: 3, effect: "when drawn:\\n    log [\\"a ruby for\\", you]\\n"}
  - {name: Diamond, type: Gem, value: 5, copies: 2, effect: "when drawn:\\n    your mana += 1\\n"}
"""


@pytest.mark.parametrize("players", [2, 3])
def test_rule_triggers_conditions_and_their_order(tmp_path, players):
    """The general `fire`: a card's own trigger and a rule trigger with a condition answering one
    `drawn` (the active player orders them), subject-less `round_start`/`turn_end` triggers,
    `placed`, a row zone's placement rule, `+=`/`-=` on a player stat and `log` of a list: the
    same decisions, log and state in both engines."""
    (tmp_path / "cards").mkdir()
    (tmp_path / "cards" / "cards.yaml").write_text(EVENT_CARDS)
    program = _ruleset(tmp_path, EVENTS)
    dp = compile_direct(program)
    orders = 0
    for agents in ("random", "first"):
        for i in range(5):
            seed = game_seed(3, i)
            a, b = new_game(program, players, seed), DirectGame(dp, players, seed)
            ta = _play(a, agents_for([agents], players, seed))
            tb = _play(b, agents_for([agents], players, seed))
            assert a.error is None and b.error is None
            assert (ta, a.result, a.log) == (tb, b.result, b.log)
            assert a.state.digest() == b.state.digest()
            orders += sum(kind == "order" for _, kind, _ in ta)
    assert orders > 0 and any("a ruby for" in line for line in a.log + b.log)


def test_loops_and_expressions_are_bounded(tmp_path):
    """Untrusted rules: every loop round counts a step, and the items expressions visit count
    against the work limit, at every level of nesting (three `some` deep: the items of the inner
    levels are charged)."""
    nested = _tiny(tmp_path / "a", "for each a in all_cards():\n    for each b in all_cards():\n"
                                   "        for each c in all_cards():\n            set x to x + 1\n")
    g = DirectGame(compile_direct(nested), 2, 1, Limits(max_steps=150))
    assert isinstance(g.error, LimitExceeded) and "steps" in g.error.message
    busy = _tiny(tmp_path / "b", "repeat:\n    let n = count(all_cards() where it.value == 1)\n")
    g = DirectGame(compile_direct(busy), 2, 1, Limits(max_work=1000))
    assert isinstance(g.error, LimitExceeded) and "visited more than 1000 items" in g.error.message
    deep = _tiny(tmp_path / "c", "if some a in all_cards() has (some b in all_cards() has "
                                 "(some c in all_cards() has a == c)):\n    set x to 1\n")
    g = DirectGame(compile_direct(deep), 2, 1, Limits(max_work=1000))
    assert isinstance(g.error, LimitExceeded) and "visited more than 1000 items" in g.error.message


def test_a_placement_rule_that_reads_more_than_the_row(tmp_path):
    """A placement rule reading a constant is not remembered across games: evaluated each time,
    with the same positions as in the task engine (Toil and Troublez with such a rule added)."""
    import shutil
    work = tmp_path / "tt"
    shutil.copytree(TT, work)
    shutil.copytree(ROOT / "cards" / "toil_and_troublez", work / "cards")
    rules = (work / "game.rules").read_text()
    rules = rules.replace("    distinct((row where it is Talisman).kind)\n",
                          "    distinct((row where it is Talisman).kind)\n    count(row) <= reshuffles + 4\n")
    (work / "game.rules").write_text(rules)
    program = load_program(work)
    dp = compile_direct(program)
    assert "_MEMO_LIMIT" not in dp.source
    for i in range(3):
        seed = game_seed(4, i)
        a, b = new_game(program, 4, seed), DirectGame(dp, 4, seed)
        assert _play(a, agents_for(["random"], 4, seed)) == _play(b, agents_for(["random"], 4, seed))
        assert a.result == b.result and a.state.digest() == b.state.digest()



def test_lists_a_statement_evaluates_first_keep_their_meaning(tmp_path):
    """Lists and quantifiers a statement evaluates before anything else are written as loops before
    it (`Expressions.expr_first`): `let xs = xs where ...` filters the old list; a quantifier at a
    head gives its answer; a list behind an `and` is made only when the left side holds (its
    condition would divide by zero)."""
    program = _tiny(tmp_path, """\
        let xs = all_cards()
        let xs = xs where it.value == 1
        set x to count(xs)
        if every c in xs has c.value == 1:
            set x to x + 10
        if x == 0 and count(xs where it.value == 1 / (x - x)) > 0:
            set x to 100
        end game
        """)
    assert "all(" not in compile_direct(program).source  # (the `every` is a loop)
    g = DirectGame(compile_direct(program), 2, 1)
    assert g.over and g.error is None and g.state.stats["x"] == 16


def test_a_pure_placement_rule_is_remembered_per_kind_of_card(tmp_path):
    """A placement rule that reads only the cards is remembered per kind of card (copies alike in
    every printed part are one kind): a copy is refused beside its twin, while the card itself,
    already in a row, may go to that row's end (it is left out of the row, not set beside itself).
    Both rows hold one card of the same kind: the memory tells the two cases apart."""
    program = load_program(ruleset(tmp_path, textwrap.dedent("""\
        game "Rows":
            players 2..2

        card type Chip:
            value: 1..3

        zone pile: pile, shared, public
        zone table: rows 3, shared, public

        placement in table as row:
            distinct((row where it is Chip).value)

        setup:
            move all_cards() to pile

        turn:
            let chips = pile where it.value == 1
            let a = first(chips)
            place a in table
            place last(chips) in table
            place a in table
            end game

        score p: 0
        """), "cards:\n  - {name: Chip, type: Chip, value: 1, copies: 2}\n  - {name: Big, type: Chip, value: 2, copies: 1}\n"))
    dp = compile_direct(program)
    assert "_ka = _kind(_a0)" in dp.source  # (remembered per kind)
    g = DirectGame(dp, 2, 1)
    assert g.error is None and [len(row) for row in g.state.zones["table"]] == [1, 1]
    assert g.decision is not None and g.decision.kind == "place"
    assert [(p.row, p.side) for p in g.decision.options] == [(0, "left"), (None, "new")]
