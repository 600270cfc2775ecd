"""Statements and functions that generated code once left to the task engine, now written as direct
code: recursive rule functions (directrecursion.py), `set STAT of players`, ... Each tiny ruleset
is played on the three forms of generated code (plain generators, the observed form and the
copyable form) and must give the same outcome on each."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterator

from interpreter.engine.direct import _Gen, compile_direct
from interpreter.engine.directgame import DirectGame
from interpreter.engine.factory import new_game
from interpreter.engine.game import Limits
from interpreter.engine.resumablegame import ResumableGame
from interpreter.language import tree
from interpreter.language.tree import Generates, LogStmt
from interpreter.play.session import QuietObserver
from rulekit import TOKS, build, finish


def forms(program, players: int = 2, seed: int = 0, limits: Limits | None = None) -> Iterator[Any]:
    """A fresh game of `program` on each form of generated code (never the task engine)."""
    yield DirectGame(compile_direct(program), players, seed, limits)
    observed = new_game(program, players, seed, seats=[], limits=limits, observer=QuietObserver())
    yield observed
    copyable = new_game(program, players, seed, limits=limits)
    assert isinstance(copyable, ResumableGame)
    yield copyable


def test_recursive_functions_give_their_values_on_every_form(tmp_path):
    p = build(tmp_path, """
        stat n = 0
        function fact(k) = 1 if k <= 1 else k * fact(k - 1)
        function fib(k) = k if k < 2 else fib(k - 1) + fib(k - 2)
        function even(k) = true if k == 0 else odd(k - 1)
        function odd(k) = false if k == 0 else even(k - 1)
        turn:
            set n to fact(5) + fib(10) + (1 if even(6) else 0) + (10 if odd(6) else 0)
            log n
            end game
        """)
    for g in forms(p):
        finish(g)
        assert g.error is None, g.error
        assert g.state.stats["n"] == 120 + 55 + 1


def test_endless_recursion_stops_at_the_depth_limit_on_every_form(tmp_path):
    p = build(tmp_path, """
        function down(k) = down(k + 1)
        stat n = 0
        turn:
            set n to down(0)
            end game
        """)
    for g in forms(p, limits=Limits(max_depth=20)):
        finish(g)
        assert "functions nest deeper than 20" in str(g.error)


def test_set_a_stat_of_players_sets_each_seat(tmp_path):
    p = build(tmp_path, """
        player stat gold: 0..5 = 1
        turn:
            set gold of players to turn_number + 6
            your gold -= 2
            end game
        """)
    for g in forms(p, players=3):
        finish(g)
        assert g.error is None, g.error
        assert [s["gold"] for s in g.state.pstats] == [3, 5, 5]  # clamped once, then one seat's own change


def test_a_zone_of_a_number_is_the_zone_of_the_seat_at_that_index(tmp_path):
    p = build(tmp_path, """
        card type Tok:
            value: 1..9
        zone deck: pile, shared, hidden
        zone hand: set, per player, owner
        setup:
            move all_cards() to deck
            draw 2 from deck to hand of 1
        turn:
            log count(hand of 1) * 10 + count(hand of 0)
            end game
        """, TOKS)
    for g in forms(p):
        finish(g)
        assert g.error is None, g.error
        assert len(g.state.zones["hand#1"]) == 2 and g.state.zones["hand#0"] == []  # as the task engine's `_zone_of`
        assert g.log == ["20"]


DRAWN = """
    card type Tok:
        value: 1..9
    zone deck: pile, shared, hidden
    zone hand: set, per player, owner
    stat seen = 0
    setup:
        move all_cards() to deck
    when drawn(c) if seen == 0:
        seen += 1
        log ["drew", c.value, seen]
    turn:
        draw 2 from deck to your hand as two
        log count(two)
        end game
    """


def test_drawing_several_cards_tests_every_trigger_before_any_runs(tmp_path):
    """As the task engine: the condition `seen == 0` holds for both cards when they are drawn,
    though the first card's trigger changes `seen` before the second one's runs."""
    p = build(tmp_path, DRAWN, TOKS)
    for g in forms(p):
        finish(g)
        assert g.error is None, g.error
        assert g.log == ["[drew, 6, 1]", "[drew, 5, 2]", "2"]


def test_move_as_names_the_card_or_the_cards_moved(tmp_path):
    p = build(tmp_path, """
        card type Tok:
            value: 1..9
        zone deck: pile, shared, hidden
        zone other: pile, shared, public
        setup:
            move all_cards() to deck
        turn:
            move top(deck) to other on top as t
            move deck to other at bottom as rest
            log [t.value, count(rest), count(deck), top(other).value, first(cards_in(other)).value]
            end game
        """, TOKS)
    for g in forms(p):
        finish(g)
        assert g.error is None, g.error
        assert g.log == ["[6, 5, 0, 6, 5]"]  # the rest go under one by one, bottom card first: the top one ends lowest


def test_place_in_a_zone_without_a_placement_rule_offers_every_position(tmp_path):
    p = build(tmp_path, """
        card type Tok:
            value: 1..9
        zone deck: pile, shared, hidden
        zone board: rows 2, shared, public
        zone grid: grid 2 x 2, shared, public
        zone pile: pile, shared, public
        setup:
            move all_cards() to deck
        turn:
            place top(deck) in board
            place top(deck) in board
            place top(deck) in grid
            place top(deck) in pile
            log [count(rows(board)), count(grid), count(pile)]
            place top(other_cards()) in pile
            end game
        function other_cards() = cards_in(pile) where it.value > 9
        """, TOKS)
    for g in forms(p):
        assert g.decision.labels == ["row 1, left end", "row 1, right end", "a new row"]
        g.answer(2)
        assert len(g.decision.options) == 4  # every empty space of the grid
        g.answer(3)
        assert g.log == ["[2, 1, 1]"]  # one position on a pile: asked nothing
        assert g.over and "no card to place" in str(g.error)  # a rule error, as the task engine, not a crash


def test_a_statement_writes_its_own_code(tmp_path, monkeypatch):
    """The generator has no code of its own for a statement: it calls the class's `emit`
    (language/tree.py), so what that writes is what every form of the game runs."""
    def emit(self, gen, d, scope, loops):
        v = gen.expr(self.expr, scope)
        gen.emit(d, f"R.log_text({v.src} + {v.src}, {gen.k(v.kind)})", self.loc)
    p = build(tmp_path, """
        stat n = 0
        turn:
            set n to 21
            log n
            end game
        """)
    monkeypatch.setattr(LogStmt, "emit", emit)
    for g in forms(p):
        finish(g)
        assert g.error is None, g.error
        assert g.log == ["42"]


def test_the_generator_offers_all_a_statement_may_use(tmp_path):
    """Every `gen.NAME` the constructs' code uses is named in the `Generates` protocol, and every
    member of the protocol is on the code generator once it has written a module."""
    used = set(re.findall(r"\bgen\.([A-Za-z_]+)", Path(tree.__file__).read_text()))
    members = set(Generates.__annotations__) | {n for n in vars(Generates) if not n.startswith("_")}
    assert {"emit", "block", "bind", "decision", "expr"} <= used
    assert sorted(used - members) == []
    gen = _Gen(build(tmp_path, """
        turn:
            end game
        """))
    gen.module()
    assert [m for m in sorted(members) if not hasattr(gen, m)] == []
