"""Pairs of cards in a stat, a watcher that fires and calls while settling, a variable that
changes kind, on the direct engine (directpairs.py, directrebind.py, direct.py `settle_body`).

The constructs Enchanters: Odyssey needed, each in one tiny ruleset checked against the task
engine (the oracle): the same questions with the same labels, the same log, result and final
state for random and first agents, and the resumable form copied at the watcher's question
plays on as the original.
"""
from __future__ import annotations

from collections import Counter

import pytest

from interpreter.engine.factory import new_game
from interpreter.api import load_program
from interpreter.engine.direct import Unsupported, compile_direct
from interpreter.engine.directgame import DirectGame
from interpreter.engine.resumablegame import ResumableGame
from interpreter.play.session import agents_for, game_seed
from rulekit import play_trace as _play, ruleset

PAIRS = """\
game "Pairs":
    players 2..3

card type Chip:
    value: 1..3

card type Omen:
    value: 1..3

zone deck: pile, shared, hidden
zone hand: set, per player, public
zone table: set, shared, public
zone ashes: pile, shared, public
zone gone: set, shared, hidden
stat links = []
player stat points = 0
event omen_seen

setup:
    move all_cards() to deck
    shuffle deck
    for each p in players:
        p chooses k from [1, 2, 3] "Pick a number"
        points of p += k
    for each p in players:
        draw 2 from deck to hand of p
        p chooses k from hand of p "Show which?"
        move k to table
    let depth = random(values(0..2))
    draw depth from deck to ashes

procedure link(c):
    let hosts = values(table) where it is Chip
    move c to gone
    if not (hosts is empty):
        set links to links + [[c, first(hosts)]]

when omen_seen:
    if active_player may "Heed the omen?":
        points of active_player += 1

as soon as some c in ashes has c is Omen:
    while some c in ashes has c is Omen:
        let e = first(values(ashes) where it is Omen)
        fire omen_seen on e
        link(e)
        if not (deck is empty):
            move top(deck) to ashes

turn:
    draw from deck to your hand as c
    if c is Omen:
        move c to ashes
    elif you may "Play it?":
        move c to table
    if not (table is empty):
        if you may "Take from the table?":
            you choose t from table "Take which?"
            move t to your hand
    for each pr in links:
        if not (pr[1] in table):
            log ["unlinked", pr[0], "from", pr[1]]
    set links to links where it[1] in table
    if deck is empty:
        end game after this turn

score p: points of p + count(hand of p) + count([pr[0] for each pr in links where it[1].value >= 2])
"""

CARDS = """\
cards:
  - {name: Low, type: Chip, value: 1, copies: 5}
  - {name: Mid, type: Chip, value: 2, copies: 5}
  - {name: High, type: Chip, value: 3, copies: 4}
  - {name: Crow, type: Omen, value: 1, copies: 4}
"""


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    return load_program(ruleset(tmp_path_factory.mktemp("pairs"), PAIRS, CARDS))


@pytest.mark.parametrize("agents", ["random", "first"])
def test_pairs_a_firing_watcher_and_a_rebound_variable_play_as_on_the_task_engine(program, agents):
    dp = compile_direct(program)
    assert dp.info["settle_stops"] and "_cobjss" in dp.source and "_cidss" in dp.source
    prompts: Counter = Counter()
    logs = 0
    for players in (2, 3):
        for i in range(5):
            seed = game_seed(5, i)
            a, b = new_game(program, players, seed), DirectGame(dp, players, seed)
            ta = _play(a, agents_for([agents], players, seed))
            tb = _play(b, agents_for([agents], players, seed), prompts)
            assert a.error is None and b.error is None, (a.error, b.error)
            assert ta == tb
            assert (a.result, a.log) == (b.result, b.log)
            assert a.state.digest() == b.state.digest()
            logs += sum("unlinked" in str(line) for line in b.log)
    # the constructs ran: the watcher's trigger asked, pairs were kept and dropped, both `k`s asked
    assert prompts["Heed the omen?"] > 0 and prompts["Pick a number"] > 0 and prompts["Show which?"] > 0
    assert logs > 0


def test_a_stat_of_pairs_keeps_the_cards_themselves(program):
    """As the task engine keeps them: lists of lists of cards (the digest names them)."""
    dp = compile_direct(program)
    for i in range(10):
        g = DirectGame(dp, 2, game_seed(6, i))
        seats = agents_for(["random"], 2, game_seed(6, i))
        while not g.over:
            links = g.state.stats["links"]
            if links:
                assert all(len(pr) == 2 and all(c is program.rs.cards[c.id] for c in pr) for pr in links)
                assert links[0][1].type == "Chip" and links[0][0].type == "Omen"
                return
            g.answer(seats[g.decision.player].choose(g, g.decision))
    pytest.fail("no game kept a pair")


def test_the_resumable_form_copies_a_game_at_the_watchers_question(program):
    dp = compile_direct(program)
    copied = 0
    for i in range(6):
        seed = game_seed(7, i)
        g = ResumableGame(dp, 3, seed)
        seats = agents_for(["first"], 3, seed)
        while not g.over:
            d = g.decision
            if d.prompt == "Heed the omen?":
                twin = g.clone()
                rest = _play(twin, agents_for(["first"], 3, seed))
                assert _play(g, seats) == rest
                assert (g.result, g.log, g.state.digest()) == (twin.result, twin.log, twin.state.digest())
                copied += 1
                break
            g.answer(seats[d.player].choose(g, d))
    assert copied > 0


def test_a_variable_whose_old_value_is_read_again_does_not_compile(tmp_path):
    """A variable may change kind only where its old value is never read again: here the number
    is logged after the loop that rebinds it to a card, so the ruleset stays on the task engine."""
    text = PAIRS.replace("    let depth = random(values(0..2))\n",
                         "    let depth = random(values(0..2))\n    log [k]\n")
    program = load_program(ruleset(tmp_path, text, CARDS))
    with pytest.raises(Unsupported, match="variable `k` changes kind"):
        compile_direct(program)


FLAGGED = """
card type Thing:
    cursed: flag = false
    size: 1..3
zone deck: pile, shared, hidden
zone mine: set, per player, public
zone others: set, per player, public

procedure meet(c):
    if c.size == 3:
        move c to others of you
    else:
        let take = c.cursed
        if not take:
            if you may "Take it?":
                set take to true
        if take:
            move c to mine of you
        else:
            move c to others of you

setup:
    move all_cards() to deck
turn:
    meet(top(deck))
    if deck is empty:
        end game
score p: count(mine of p)
"""
FLAGGED_CARDS = "".join(f"- {{name: T{i}, type: Thing, cursed: {str(i % 2 == 0).lower()}, size: {i % 3 + 1}}}\n"
                        for i in range(12))


def test_a_variable_set_in_a_nested_block_keeps_its_value_after_the_block(tmp_path):
    """`let take = c.cursed` (a card's flag), then `set take to true` two blocks deeper: the value
    set there is the one read after the blocks. (Generated code once gave the `set` a new local,
    judging only the rest of the innermost block, and failed with "`take` has no value here".)"""
    program = load_program(ruleset(tmp_path, FLAGGED, FLAGGED_CARDS))
    dp = compile_direct(program)
    for declined in (False, True):
        g = DirectGame(dp, 2, 3)
        asked = 0
        while not g.over:
            asked += 1
            g.answer(1 if declined else 0)  # "no" or "yes" to "Take it?"
        assert g.error is None, g.error
        cursed = sum(1 for c in program.rs.cards if c.fields["cursed"] and c.fields["size"] != 3)
        kept = sum(len(g.state.zones[f"mine#{p}"]) for p in (0, 1))
        assert asked > 0 and kept == (cursed if declined else 8)  # the 8 cards of size 1 or 2


def test_a_variable_rebound_on_one_branch_and_read_after_it_does_not_compile(tmp_path):
    """The old value reaches the read past the branch that rebinds it (when the player declines):
    one Python local per kind cannot hold both, so generated code refuses rather than fail later."""
    text = FLAGGED.replace('''        let take = c.cursed
        if not take:
            if you may "Take it?":
                set take to true
        if take:''', '''        let take = 1
        if c.cursed:
            if you may "Take it?":
                set take to c
        if take != 1:''')
    program = load_program(ruleset(tmp_path, text, FLAGGED_CARDS))
    with pytest.raises(Unsupported, match="variable `take` changes kind"):
        compile_direct(program)
