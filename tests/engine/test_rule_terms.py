"""A rule that fails while the game runs is reported in the words of the rules: which part of the
rule failed, which value each part held, and where a none came from ("`position(w)` is none because
`w` is none"), at the rule's file:line:col; never Python's message or a class name."""
from __future__ import annotations

from typing import Any
import re

import pytest

from interpreter.api import load_program
from interpreter.engine.direct import compile_direct
from interpreter.engine.directgame import DirectGame
from interpreter.runtime.errors import explain
from interpreter.engine.factory import new_game
from rulekit import HEADER, ruleset

ZONES = "card type Gem:\n    v: 1..3\nzone deck: pile, shared, hidden\nzone bag: pile, shared, hidden\nplayer stat pts: 0..99\n"
NONE = None  # a none the failures below meet at run time
CARDS = "- {name: Ruby, type: Gem, v: 1}\n"
PYTHON = re.compile(r"NoneType|CardData|Seat|ZoneRef|TypeError|KeyError|IndexError|AttributeError|\bint\b|\bstr\b"
                    r"|object|subscriptable|iterable|indices|operand|\bNone\b")

# turn body (its last line fails; the turn starts on line 10) → the message, exactly
CASES = {
    "let w = first(deck)\n    log position(w) + 1":
        "cannot add none and a number in `position(w) + 1`: `position(w)` is none because `w` is none",
    "let xs = [1, 2]\n    let w = first(deck)\n    log xs[w]":
        "a position in a list must be a number, not none in `xs[w]`: `xs` is a list of 2 items, `w` is none",
    "let w = first(deck)\n    log w.v + 1":
        "cannot add none and a number in `w.v + 1`: `w.v` is none because `w` is none",
    "set your pts to your pts + first(deck)":
        "cannot add a number and none in `your pts + first(deck)`: `your pts` is 0, `first(deck)` is none",
    "log 3 / count(deck)":
        "division by zero in `3 / count(deck)`: `count(deck)` is 0",
    "let w = first(deck)\n    log w * 2":
        "only numbers can be multiplied, not none and 2",
    "let n = 3\n    log n.v":
        "a number has no field `v`",
}


def _failed(tmp_path, turn: str) -> tuple[Any, object]:
    rules = HEADER + ZONES + "turn:\n    " + turn + "\n    end game\n"
    folder = ruleset(tmp_path, rules, CARDS)
    g = new_game(load_program(folder), 2, 1)
    assert g.over and g.error is not None, "the rule should have failed"
    return g, folder


@pytest.mark.parametrize("turn", list(CASES), ids=range(len(CASES)))
def test_runtime_error_in_rule_terms(tmp_path, turn):
    line, message = 10 + turn.count("\n"), CASES[turn]
    g, folder = _failed(tmp_path, turn)
    assert g.error.message == message
    col = 9 if "multiplied" in message else 5  # the statement, or the expression that knew it failed
    assert (g.error.loc.line, g.error.loc.col) == (line, col)
    assert str(g.error).startswith(f"{folder / 'game.rules'}:{line}:{col}: ")
    assert not PYTHON.search(g.error.message), g.error.message


def test_the_direct_engine_says_the_same(tmp_path):
    turn = "let w = first(deck)\n    log w.v + 1"
    g, folder = _failed(tmp_path, turn)
    d = DirectGame(compile_direct(load_program(folder)), 2, 1)
    assert d.over and d.error is not None and (d.error.loc.line, d.error.loc.col) == (g.error.loc.line, 5)
    assert not PYTHON.search(d.error.message), d.error.message
    assert d.error.message.startswith("cannot add none and a number")


@pytest.mark.parametrize("failure, words", [
    (lambda: [1][NONE], "a position in a list must be a number, not none"),
    (lambda: NONE + 1, "cannot add none and a number"),
    (lambda: 1 < NONE, "cannot compare a number with none (`<`)"),
    (lambda: iter(None), "none is not a list of items"),
    (lambda: len(None), "none cannot be counted"),
    (lambda: "a" + 1, "cannot add a number to a text"),
    (lambda: {(): 1}[[1]], "a list cannot be a key of a map or an item of a set"),
    (lambda: [][3], "there is no item at that position"),
    (lambda: NONE.v, "none has no field `v`"),
])
def test_python_failures_in_rule_words(failure, words):
    with pytest.raises(Exception) as e:
        failure()
    assert explain(e.value) == words and not PYTHON.search(explain(e.value))
