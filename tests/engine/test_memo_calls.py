"""A rule function call repeated in one expression is evaluated once (directexpr.memo_calls):
the same values as evaluating it at each use, from the state of that expression's moment, never
evaluated where the expression does not reach it, and its work charged once."""
from __future__ import annotations

from interpreter.api import load_program
from interpreter.engine.direct import compile_direct
from interpreter.engine.directgame import DirectGame
from interpreter.play.session import agents_for
from rulekit import ruleset

CHIPS = """\
cards:
  - {name: Chip, type: Chip, value: 1, copies: 6}
  - {name: Big, type: Chip, value: 3, copies: 6}
"""

RULES = """\
game "Memo":
    players 2

card type Chip:
    value: 1..3

zone deck: pile, shared, hidden
zone hand: set, per player, public
stat pot = 0

function held(p) = count(hand of p)
function heavy() = count(deck where it.value >= 1)
function bad(p) = 1 / (held(p) - held(p))

setup:
    move all_cards() to deck
    shuffle deck

turn:
    draw from deck to your hand
    log ["held", held(you) + held(you), count(players where held(it) <= held(you))]
    log ["lazy", (bad(you) + bad(you)) if pot < 0 else 7]
    log ["heavy", EXPR]
    if deck is empty:
        end game

score p: held(p)
"""


def _game(tmp_path, expr: str, name: str) -> DirectGame:
    folder = tmp_path / name
    folder.mkdir()
    g = DirectGame(compile_direct(load_program(ruleset(folder, RULES.replace("EXPR", expr), CHIPS))), 2, 4)
    seats = agents_for(["random"], 2, 4)
    while not g.over:  # (no decisions: the deck's 12 cards, one a turn)
        g.answer(seats[g.decision.player].choose(g, g.decision))
    assert g.error is None, g.error
    return g


def test_a_repeated_call_has_the_value_of_its_moment_and_is_not_evaluated_where_not_reached(tmp_path):
    """`held(you)` twice in one expression, and in a `where` per player, read the hand as it is
    when the expression runs (it grows by a card each turn); `bad(you)`, which divides by zero,
    sits in the branch never taken and is not evaluated."""
    g = _game(tmp_path, "heavy()", "a")
    lines = [line.strip("[]").split(", ") for line in g.log]
    held = [line for line in lines if line[0] == "held"]
    assert len(held) == 12
    assert [line for line in lines if line[0] == "lazy"] == [["lazy", "7"]] * 12
    # a player's n-th turn holds n cards, the seats alternating: 2, 2, 4, 4, 6, 6... for `held(you)`
    # twice; the player who has just drawn holds at least as many as each player (both count)
    assert [int(twice) for _, twice, _ in held] == [2 * (i // 2 + 1) for i in range(len(held))]
    assert [int(n) for _, _, n in held] == [2] * len(held)


def test_a_repeated_call_in_a_where_is_charged_once(tmp_path):
    """`heavy()`, a `where` over the deck, called three times in one condition inside a `where`
    over the players, costs the work of one call: the same game, the same work as calling it once."""
    once = _game(tmp_path, "count(players where heavy() > 0)", "once")
    thrice = _game(tmp_path, "count(players where heavy() > 0 and heavy() >= 1 and heavy() < 99)", "thrice")
    assert once.choices == thrice.choices and once.log == thrice.log
    assert once.R.work == thrice.R.work > 0
