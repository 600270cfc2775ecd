"""The direct engine plays the same games as the task engine for lists of records mixing cards and
plain values kept in a stat (directtuples.py): `set posts to posts + [[c, s]]`, read back with
`posts where it[1] == s`, `pr[0]`, quantifiers and comprehensions, emptied with `set posts to []`
— the Samurai's stationary cards of Enchanters: EastQuest keep [card, spot] pairs this way.

A tiny ruleset played by both engines over several seeds and agents: the same decisions, result,
log and final state digest (the stat keeps the cards themselves on both engines)."""
from __future__ import annotations

from interpreter.engine.factory import new_game
from interpreter.api import load_program
from interpreter.engine.direct import compile_direct
from interpreter.engine.directgame import DirectGame
from interpreter.play.session import agents_for, game_seed
from rulekit import play_trace, ruleset

POSTS = """\
game "Posts":
    players 2..3

card type Chip:
    value: 1..5

zone deck: pile, shared, hidden
zone row: pile, shared, public
zone hand: set, per player, public
stat posts = []                     # [card, spot] pairs: a card posted on a spot

setup:
    move all_cards() to deck
    shuffle deck

turn:
    if deck is empty:
        end game
    draw from deck to row as c
    you choose s from [1, 2, 3] "Post it where?"
    if some pr in posts has pr[1] == s:             # read before any `+` shows what the stat holds
        move first([pr[0] for each pr in (posts where it[1] == s)]) to your hand
        set posts to posts where it[1] != s
    set posts to posts + [[c, s]]
    log ["posted", c, "on", s, "posts:", count(posts)]
    if sum([pr[1] for each pr in posts]) >= 6:
        set posts to []

score p: sum(values(hand of p).value)
"""
CHIPS = "".join(f"- {{name: C{v}, type: Chip, value: {v}, copies: 2}}\n" for v in range(1, 6))


def test_records_of_a_card_and_a_number_kept_in_a_stat_play_alike_on_both_engines(tmp_path):
    program = load_program(ruleset(tmp_path, POSTS, CHIPS))
    dp = compile_direct(program)
    assert "_tobjs(" in dp.source and "_tids(" in dp.source  # the stat is read and written as records
    taken = 0
    for n in (2, 3):
        for agents in ("random", "first"):
            for i in range(4):
                seed = game_seed(5, i)
                a, b = new_game(program, n, seed), DirectGame(dp, n, seed)
                ta = play_trace(a, agents_for([agents], n, seed))
                tb = play_trace(b, agents_for([agents], n, seed))
                assert a.error is None and b.error is None, (a.error, b.error)
                assert ta == tb
                assert (a.result, a.log) == (b.result, b.log)
                assert a.state.digest() == b.state.digest()
                taken += sum(a.result["scores"])
    assert taken > 0  # some posted card was bumped into a hand: the records were read back
