"""What the direct engine writes around a statement (issue 16), checked by what the rules say must
hold at every decision, in both forms of the generated code (`DirectGame`, `ResumableGame`).

`draw from PILE`: the card drawn is the pile's top, so the generated code takes it off the list's
end without looking up where it lies (direct.py `emit_move_top`); a card with cards under it
(placed on the pile's top card: `place ... on`) goes by `take_any`, which leaves the card it covered
in its place. The state-based rules read
the zones drawn from (the shared deck, each player's own stash): a draw that failed to note its
source as changed would leave them unsettled.

`_settle`: the rules are marked as settling while a body runs (`settle_function`), and a body's
trigger then settles nothing between its statements. A lone card moved off a row
(`Runtime.take_any`) notes its rows zone as changed. A loop's round begins settled, with a check
only where its body can end on a change (`loop_body`), and stops at its own game's step limit.
"""
from __future__ import annotations

import re

import pytest

from interpreter.api import load_program
from interpreter.engine.direct import compile_direct
from interpreter.engine.directgame import DirectGame
from interpreter.engine.factory import new_game
from interpreter.engine.game import Limits
from interpreter.play.agents import RandomAgent
from interpreter.play.session import agents_for, game_seed
from interpreter.runtime.errors import LimitExceeded
from rulekit import CHIPS, play_trace, ruleset

TOPS = """\
game "Draw tops":
    players 2..4

card type Chip:
    value: 1..3

zone deck: pile, shared, hidden
zone stash: pile, per player, public
zone table: set, shared, public
zone pool: pile, shared, public
stat refills = 0
player stat cashed = 0

setup:
    move all_cards() to deck
    shuffle deck

turn:
    if deck is empty or turn_number > 60:
        end game
    log ["top", count(deck), count(cards_under(top(deck)))]
    draw from deck to your stash as c
    log ["drew", count(deck), count(cards_under(c))]
    if count(stash of you) >= 2:
        if you may "Pass one on?":
            draw from stash of you to pool as d
    if not (table is empty or deck is empty):
        let t = top(deck)
        place last(table) on t

# reads each stash: runs after a draw from it
always:
    for each p in players:
        if count(stash of p) == 1 and (some c in stash of p has c.value == 3):
            cashed of p += 1
            move stash of p to table

# reads the deck: fires on the draw that empties it, before the next statement
as soon as deck is empty:
    refills += 1
    log ["refill"]

score p: cashed of p * 10 + count(stash of p) + refills
"""

@pytest.fixture(scope="module")
def program(tmp_path_factory):
    return load_program(ruleset(tmp_path_factory.mktemp("tops"), TOPS, CHIPS))


def test_a_draw_takes_the_top_card_without_looking_up_where_it_lies(program):
    """Both draws (a shared pile, a player's own) are written with the pile's own `pop`."""
    pops = [line.strip() for line in compile_direct(program).source.splitlines() if line.strip().endswith(".pop()")]
    assert any(re.fullmatch(r"_z\d+\.pop\(\)", p) for p in pops), pops  # the deck
    assert any(re.fullmatch(r"_z\d+\[_a0\]\.pop\(\)", p) for p in pops), pops  # your stash


def settled_at_every_decision(game, players: int, seed: int, values: list) -> None:
    """Play `game` with random seats; at each decision the state-based rules have settled: no stash
    of one card worth 3 (the `always` rule moves it), and every card in a zone's list lies there
    (`where`), every card under another lies under it."""
    seats = agents_for(["random"], players, seed)
    while not game.over:
        st = game.state
        for p in range(players):
            stash = st.zones[f"stash#{p}"]
            assert not (len(stash) == 1 and values[stash[0]] == 3), (p, stash)
        for key, cards in st.zones.items():
            assert all(st.where[c] == key for c in cards), key
        for top, below in st.under.items():
            assert all(st.where[c] == f"^{top}" for c in below), top
        d = game.decision
        game.answer(seats[d.player].choose(game, d))
    assert game.error is None, game.error


@pytest.mark.parametrize("players", [2, 3, 4])
def test_draws_note_both_zones_and_leave_a_covered_card_in_place(program, players):
    """The draw that empties the deck wakes its watcher before the next statement; a draw from a
    stash lets the `always` rule see it; a covering card drawn leaves the card under it on the deck."""
    dp = compile_direct(program)
    values = [c.fields["value"] for c in program.rs.cards]
    covered = emptied = 0
    for i in range(8):
        seed = game_seed(7, i)
        games = DirectGame(dp, players, seed), new_game(program, players, seed)
        for g in games:
            settled_at_every_decision(g, players, seed, values)
        a, b = games
        assert (a.result, a.log) == (b.result, b.log) and a.state.digest() == b.state.digest()
        for before, line in zip(a.log, a.log[1:]):
            if line.startswith("[drew,"):
                left, under = line[1:-1].split(", ")[1:]
                if left == "0":  # the draw emptied the deck: the watcher ran before the next statement
                    assert before == "[refill]"
                    emptied += 1
            if before.startswith("[top,") and before != "[top, 0, 0]":
                count, under = before[1:-1].split(", ")[1:]
                if under != "0":  # a card that covers another drawn: the one under it stays on the deck
                    assert line == f"[drew, {count}, 0]", (before, line)
                    covered += 1
    assert covered > 0 and emptied > 0  # both paths taken: a covering card drawn, the deck emptied


RINGS = """\
game "Rings":
    players 2..3

card type Chip:
    value: 1..3

zone deck: pile, shared, hidden
zone pool: set, shared, public
stat rung = 0
stat odd = 0
event ring

setup:
    move all_cards() to deck
    shuffle deck

turn:
    draw from deck to pool
    if deck is empty:
        end game

as soon as count(pool) >= 3:
    fire ring

when ring:
    rung += 1
    log ["rung", rung]
    rung += 1

# reads `rung`: never between the trigger's two steps, which run while the rules settle
always:
    if rung == 1:
        odd += 1

score p: odd * 10 + rung
"""


def test_a_body_run_while_settling_does_not_settle_inside(tmp_path):
    """`_settle` marks the rules as settling (`R.settling`) while a watcher's body runs: the
    trigger it fires checks for nothing to settle between its statements (as `SettleTask` runs
    it); the `always` rule never sees the odd count in between."""
    program = load_program(ruleset(tmp_path, RINGS, CHIPS))
    dp = compile_direct(program)
    for players in (2, 3):
        seed = game_seed(7, players)
        a, b = new_game(program, players, seed), DirectGame(dp, players, seed)
        assert play_trace(a, agents_for(["random"], players, seed)) == \
            play_trace(b, agents_for(["random"], players, seed))
        assert a.error is None and b.error is None, (a.error, b.error)
        assert (a.result, a.log) == (b.result, b.log) and a.state.digest() == b.state.digest()
        assert b.state.stats["rung"] == 2 and b.state.stats["odd"] == 0


ROWS = """\
game "Rows out":
    players 2..3

card type Chip:
    value: 1..3

zone deck: pile, shared, hidden
zone lines: rows 3, shared, public
zone hand: set, per player, public
stat cleared = 0

placement in lines as row:
    count(row) <= 2

setup:
    move all_cards() to deck
    shuffle deck

turn:
    if deck is empty:
        end game
    draw from deck to your hand as c
    if c can be placed in lines:
        place c in lines
    if not (lines is empty):
        if you may "Take one?":
            you choose t from cards_in(lines) "Which?"
            move t to your hand
            log ["left", count(cards_in(lines))]

# reads the rows zone: fires on the move that takes its last card (`Runtime.take_any`), before
# the next statement
as soon as lines is empty:
    cleared += 1
    log ["cleared"]

score p: count(hand of p) + cleared
"""


def rows_kept(game, players: int, seed: int) -> list:
    """`play_trace` with random seats, checking at each decision that the rows zone holds no empty
    row, a row id for each row, and just the cards whose `where` it is."""
    seats, trace = agents_for(["random"], players, seed), []
    while not game.over:
        st = game.state
        rows = st.zones["lines"]
        assert all(rows) and len(st.row_ids.get("lines", rows)) == len(rows)
        assert sorted(c for row in rows for c in row) == sorted(c for c, at in st.where.items() if at == "lines")
        d = game.decision
        trace.append((d.player, d.kind, d.prompt, tuple(d.labels)))
        game.answer(seats[d.player].choose(game, d))
    return trace


def test_a_card_moved_off_a_row_notes_its_zone_as_changed(tmp_path):
    """A lone card leaves its row by `take_any` (the generated move's other case), an emptied row
    with it: the rows zone is noted as changed, so the watcher reading it runs right after the
    move that empties it."""
    program = load_program(ruleset(tmp_path, ROWS, CHIPS))
    dp = compile_direct(program)
    emptied = 0
    for players in (2, 3):
        for i in range(6):
            seed = game_seed(9, i)
            a, b = new_game(program, players, seed), DirectGame(dp, players, seed)
            assert play_trace(a, agents_for(["random"], players, seed)) == rows_kept(b, players, seed)
            assert a.error is None and b.error is None, (a.error, b.error)
            assert (a.result, a.log) == (b.result, b.log) and a.state.digest() == b.state.digest()
            for before, line in zip(b.log, b.log[1:]):
                if line == "[left, 0]":
                    assert before == "[cleared]"
                    emptied += 1
            assert b.state.stats["cleared"] == b.log.count("[left, 0]")  # only a take empties it
    assert emptied > 0


LOOPS = """\
game "Loops":
    players 2..3

card type Chip:
    value: 1..3

zone deck: pile, shared, hidden
zone pool: pile, shared, public
stat seen = 0

setup:
    move all_cards() to deck
    shuffle deck

turn:
    if turn_number > 6:
        end game
    repeat 2 times:
        log ["times", seen, count(pool)]
        draw from deck to pool
    log ["after times", seen, count(pool)]
    for each x in [1, 2]:
        log ["each", seen, count(pool)]
        draw from deck to pool
    log ["after each", seen, count(pool)]
    repeat:
        draw from deck to pool
        log ["repeat", seen, count(pool)]
        if count(pool) % 3 == 0:
            break
    log ["after repeat", seen, count(pool)]
    move pool to deck
    shuffle deck

# reads the pool: `seen` is its count whenever a statement begins
always:
    if seen != count(pool):
        set seen to count(pool)
"""


def test_a_loop_round_begins_settled_and_only_checks_where_it_must(tmp_path):
    """A round of a loop whose body ends on a change begins with a settle check; one whose body
    ends settled (on a `break`'s own check) does not (`loop_body`): every statement still begins
    on a settled state, before, in and after each loop."""
    program = load_program(ruleset(tmp_path, LOOPS, CHIPS))
    dp = compile_direct(program)
    lines = dp.source.splitlines()
    at = next(i for i, line in enumerate(lines) if line.strip() == "while True:")
    assert [line.strip() for line in lines[at + 1:at + 5]] == \
        ["R.steps += 1", "if R.steps > R.max_steps:", "R.runaway()", "_t" + lines[at + 4].strip()[2:]]
    assert "= _z0[-1] if _z0 else None" in lines[at + 4]  # the draw first: no settle check before it
    for players in (2, 3):
        g = DirectGame(dp, players, game_seed(3, players))
        play_trace(g, agents_for(["random"], players, 1))
        assert g.error is None, g.error
        assert len(g.log) > 20
        for line in g.log:
            seen, count = line[1:-1].split(", ")[-2:]
            assert seen == count, line


COUNTS = """\
game "Counts":
    players 2

card type Chip:
    value: 1..3

stat x = 0

turn:
    repeat 300 times:
        set x to x + 1
    end game "counted"
"""


def test_a_loop_stops_at_its_own_games_step_limit_on_reused_functions(tmp_path):
    """The step limit a loop's round is checked against is its own game's, also for a game that
    takes over a finished game's functions (`bind_again`): a game with a lower limit stops where a
    game with functions of its own does."""
    program = load_program(ruleset(tmp_path, COUNTS, CHIPS))
    seats = [RandomAgent(i) for i in range(2)]
    done = new_game(program, 2, 1, seats=seats)
    done.play_out(seats)
    assert done.error is None and done.state.stats["x"] == 300
    low = Limits(max_steps=200)
    own = new_game(program, 2, 1, seats=seats, limits=low)
    taken = new_game(program, 2, 1, seats=seats, limits=low, reuse=done)
    assert taken.fns is not own.fns and "fns" not in done.__dict__  # the finished game's functions
    for g in (own, taken):
        assert isinstance(g.error, LimitExceeded) and "more than 200 steps" in g.error.message
        assert g.state.stats["x"] == own.state.stats["x"] < 300


ASKS = """\
game "Asks":
    players 2..3

card type Chip:
    value: 1..3

stat kept = 0

procedure ask(n):
    if you may "Keep?":
        kept += n

setup:
    ask(1)

turn:
    ask(2)
    if you may "Again?":
        kept += 10
    if turn_number > 4:
        end game
"""


def test_the_turns_player_asks_as_a_seat_and_a_procedure_from_the_setup_asks_the_active_one(tmp_path):
    """The turn's `you` is the seat whose turn it is (`asker` passes it as it is); a procedure's
    `you` is its caller's, none in the setup: its question goes to the active player."""
    program = load_program(ruleset(tmp_path, ASKS, CHIPS))
    dp = compile_direct(program)
    assert "_Decision(_a0, " in dp.source and "_Decision((_a0 if _a0 is not None else _st.active), " in dp.source
    for players in (2, 3):
        g = DirectGame(dp, players, game_seed(5, players))
        asked = []
        while not g.over:
            d = g.decision
            asked.append((d.player, g.state.active, g.state.turn_number))
            g.answer(0)
        assert g.error is None, g.error
        assert len(asked) == 11 and all(p == active for p, active, _ in asked)
        assert g.state.stats["kept"] == 1 + 12 * 5
