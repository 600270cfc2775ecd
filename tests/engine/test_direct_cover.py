"""The direct engine plays the same games as the task engine for the constructs directcover.py and
`RuleFunctions` compile: rule functions, `round:`/`play:` phases with `play turn of`, dice,
`gain`/`lose` with `when short of`, simultaneous choices, grids.

Each test is a tiny ruleset using one construct, played by both engines over several seeds and
agents: the same decisions (who, kind, options' labels), result, log and final state digest.
"""
from __future__ import annotations

import pytest

from interpreter.api import load_program
from interpreter.engine.direct import compile_direct
from interpreter.engine.directgame import DirectGame
from interpreter.engine.factory import new_game
from interpreter.engine.game import Limits
from interpreter.play.session import agents_for, game_seed
from interpreter.runtime.errors import LimitExceeded
from rulekit import ruleset


def _play(game, seats):
    trace = []
    while not game.over:
        d = game.decision
        trace.append((d.player, d.kind, tuple(d.labels)))
        game.answer(seats[d.player].choose(game, d))
    return trace


def same_games(folder, players=(2, 3), games: int = 6) -> tuple[list, list]:
    """Play `games` seeds per player count and agent on both engines; assert they agree; return
    the last task engine game's trace and log (for the caller's own checks)."""
    program = load_program(folder)
    dp = compile_direct(program)
    decided = 0
    for n in players:
        for agents in ("random", "first"):
            for i in range(games):
                seed = game_seed(5, i)
                a, b = new_game(program, n, seed), DirectGame(dp, n, seed)
                ta = _play(a, agents_for([agents], n, seed))
                tb = _play(b, agents_for([agents], n, seed))
                assert a.error is None, a.error
                assert b.error is None, b.error
                assert ta == tb
                assert (a.result, a.log) == (b.result, b.log)
                assert a.state.digest() == b.state.digest()
                decided += len(ta)
    assert decided > 0
    return ta, a.log


CHIPS = """\
cards:
  - {name: Chip, type: Chip, value: 1, copies: 4}
  - {name: Big, type: Chip, value: 3, copies: 4}
"""

ROUNDS = """\
game "Rounds":
    players 2..4

card type Chip:
    value: 1..3

zone deck: pile, shared, hidden
zone hand: set, per player, public
zone table: row, shared, public
stat pot = 0

function big(c) = c.value >= 3
function worth(p) = sum((hand of p).value) + count(hand of p where big(it))
function best(p, z) = first(z where big(it)) if (some c in cards_in(z) has big(c)) else first(z)

setup:
    move all_cards() to deck
    shuffle deck

when round_start:
    log ["round", round_number]

when turn_start:
    pot += 1

round:
    for each p in turn_order():
        play turn of p
    if deck is empty or round_number == 5:
        end game after this round

turn:
    if deck is empty:
        end game
    draw from deck to your hand as c
    if you may "Show it?":
        move best(you, hand of you) to table
    log ["worth", worth(you)]

score p: worth(p)
"""


def test_a_round_phase_with_play_turn_and_rule_functions(tmp_path):
    """`round:` playing each turn with `play turn of`, round and turn triggers, `end game` and
    `end game after this round`, and rule functions (one calling another, a zone argument)."""
    trace, log = same_games(ruleset(tmp_path, ROUNDS, CHIPS))
    assert any(line.startswith("[round, 2") for line in log) and any("worth" in line for line in log)


PLAY = """\
game "Play":
    players 2..3

card type Chip:
    value: 1..3

zone deck: pile, shared, hidden
zone hand: set, per player, public

setup:
    move all_cards() to deck
    shuffle deck

play:
    repeat 3 times:
        play round
    play turn of players[0]

turn:
    draw from deck to your hand

score p: count(hand of p)
"""


def test_a_play_phase_with_play_round(tmp_path):
    program = load_program(ruleset(tmp_path, PLAY, CHIPS))
    dp = compile_direct(program)
    for n in (2, 3):
        a, b = new_game(program, n, 1), DirectGame(dp, n, 1)
        assert a.error is None and b.error is None
        assert a.result == b.result and a.result["turns"] == 3 * n + 1
        assert a.state.digest() == b.state.digest()


DICE = """\
game "Dice":
    players 2..3

die type D6: 1..6, 3 dice

zone cup: set, shared, public
player stat gold: 0..9 = 3

when short of gold by n:
    log ["short by", n]
    set gold of you to 9

when rolled(d):
    if d.face == 6:
        you gain 1 gold

setup:
    move all_cards() to cup

turn:
    roll cup
    you choose any again from cup "Re-roll"
    roll again
    let total = sum(cup.face)
    you lose total / 3 gold
    if turn_number >= 8:
        end game

score p: gold of p
"""


def test_dice_faces_and_short_of(tmp_path):
    """`roll` draws the same faces, `rolled` triggers read `.face`, `lose` beyond the stat's
    bound runs `when short of` with the missing amount."""
    trace, log = same_games(ruleset(tmp_path, DICE))
    assert any(line.startswith("[short by") for line in log)


SIMUL = """\
game "Simul":
    players 2..4

card type Chip:
    value: 1..3

zone deck: pile, shared, hidden
zone hand: set, per player, owner
zone shown: set, per player, public

setup:
    move all_cards() to deck
    shuffle deck
    for each p in players:
        draw 3 from deck to hand of p

turn:
    simultaneously each p in players chooses c from hand of p "Show a card"
    for each p in players:
        if c[p] != none:
            move c[p] to shown of p
    simultaneously each p in players chooses up to 2 more from hand of p "More?"
    for each p in players:
        move more[p] to shown of p
    if turn_number >= 4:
        end game

score p: sum((shown of p).value)
"""


def test_simultaneous_choices(tmp_path):
    same_games(ruleset(tmp_path, SIMUL, CHIPS))


def test_functions_count_towards_the_depth_limit(tmp_path):
    """A function called at the depth limit fails in both engines with the same message."""
    program = load_program(ruleset(tmp_path, ROUNDS, CHIPS))
    limits = Limits(max_depth=1)  # the turn_start trigger is depth 1: `worth` inside a turn is fine,
    a = new_game(program, 2, 3, limits=limits)  # but `best` calls `big` at depth 2
    b = DirectGame(compile_direct(program), 2, 3, limits)
    _play(a, agents_for(["first"], 2, 3))
    _play(b, agents_for(["first"], 2, 3))
    assert isinstance(a.error, LimitExceeded) and isinstance(b.error, LimitExceeded)
    assert a.error.message == b.error.message and "functions nest deeper than 1" in b.error.message


GRID = """\
game "Grid":
    players 2..3

card type Stone:
    color: Red | Blue

zone bag: pile, shared, hidden
zone board: grid 4 x 3, shared, public
zone hand: set, per player, public
stat teleport: 0..1 = 0

function at(x, y) = card_at(space(board, x, y))
function friends(s, c) = count(cards_around(s) where it.color == c.color)

placement in board as s:
    s.y == 1 or friends(s, card) > 0 or (teleport == 1 and at(s.x, 1) == none)

setup:
    move all_cards() to bag
    shuffle bag
    draw from bag to board

turn:
    draw from bag to your hand as c
    if c can be placed in board:
        place c in board
    elif not (board is empty):
        move first(board) to your hand
    set teleport to 1 - teleport
    if some b in board has space_of(b).x == 4 and space_of(b).y == 3:
        end game after this turn
    if bag is empty:
        end game

score p: count(hand of p) + count(board where it.color == Red)
"""

STONES = """\
cards:
  - {name: Ruby, type: Stone, color: Red, copies: 8}
  - {name: Sapphire, type: Stone, color: Blue, copies: 8}
"""


def test_grids(tmp_path):
    """A grid zone: `move` fills the first empty space, `place` asks among the spaces its
    placement rule admits (reading `s.x`, `s.y`, `card_at`, `space`, `cards_around`), `space_of`
    of the cards on it, and cards leaving it leave their spaces (the digest holds every space)."""
    trace, log = same_games(ruleset(tmp_path, GRID, STONES))
    assert any(kind == "place" and len(labels) > 1 for _, kind, labels in trace)


def test_an_error_in_a_rule_function_names_the_calling_rule(tmp_path):
    """A content error inside a function (inlined where it is called) names the same rule
    location in both engines: the statement whose expression called it."""
    text = ROUNDS.replace("function big(c) = c.value >= 3", "function big(c) = c.value / (pot - pot) >= 3")
    program = load_program(ruleset(tmp_path, text, CHIPS))
    a = new_game(program, 2, 1)
    b = DirectGame(compile_direct(program), 2, 1)
    _play(a, agents_for(["first"], 2, 1))
    _play(b, agents_for(["first"], 2, 1))
    assert a.error is not None and b.error is not None
    assert "division by zero" in b.error.message
    assert (a.error.loc.file, a.error.loc.line) == (b.error.loc.file, b.error.loc.line)


def test_no_rule_text_in_magical_treehouse_source():
    """Names, texts and enumerated values of a large ruleset stay in the constants table."""
    from golden_games import ROOT
    dp = compile_direct(load_program(ROOT / "rulesets" / "magical_treehouse"))
    for word in ("Treehouse", "village", "face_down", "carriage", "Take", "JuicyApple", "forest", "houses"):
        assert word not in dp.source
    assert "'" not in dp.source and '"' not in dp.source


DUMMY = """\
game "Solo":
    players 1..2

card type Chip:
    value: 1..3

zone deck: pile, shared, hidden
zone hand: set, per player, public
zone pile: pile, per player, public
player stat pts: 0..99 = 2

setup:
    move all_cards() to deck
    shuffle deck
    if player_count == 1:
        add a dummy player as bot
        draw 2 from deck to hand of bot
        set pts of bot to 5

turn:
    draw from deck to your hand
    for each p in players:
        if p is dummy:
            if not (hand of p is empty):
                p chooses c from hand of p "Which card does the dummy keep?"
                move c to pile of p
        else:
            your pts += count(hand of p)
    for each q in other_players():
        if not (deck is empty):
            draw from deck to hand of q
    if deck is empty or turn_number >= 6:
        end game

score p: pts of p + count(pile of p)
tiebreak p: 1 if p is dummy else 0
"""


def test_dummy_players(tmp_path):
    """`add a dummy player`: a seat with zones and stats, in `players` and `other_players()`,
    never taking a turn; its decisions are the active player's; it is scored."""
    trace, _ = same_games(ruleset(tmp_path, DUMMY, CHIPS), players=(1, 2))
    program = load_program(ruleset(tmp_path, DUMMY, CHIPS))
    g = DirectGame(compile_direct(program), 1, 3)
    _play(g, agents_for(["random"], 1, 3))
    assert g.error is None and len(g.result["scores"]) == 2


DECKS = """\
game "Decks":
    players 2..3

card type Chip:
    value: 1..3

zone left: pile, shared, hidden
zone right: pile, shared, hidden
zone hand: set, per player, public
player stat pts: 0..99 = 0

function open_decks() = [left, right] where not (it is empty)

setup:
    move all_cards() where it.value == 1 to left
    move all_cards() where it.value == 3 to right

turn:
    if open_decks() is empty:
        end game
    you choose deck from open_decks() "Draw from which deck?"
    draw from deck to your hand
    set your pts to count(your hand)
    if max(pts of players) >= 3 and min(pts of players) >= 2:
        end game after this round

score p: pts of p
"""


def test_zones_as_values_and_stats_of_players(tmp_path):
    """A list of zones (options labelled as the task engine labels zones), a chosen zone to draw
    from, `is empty` of a zone value, and a player stat of every player."""
    trace, _ = same_games(ruleset(tmp_path, DECKS, CHIPS))
    assert any(labels == ("left", "right") for _, _, labels in trace)


COND = """\
game "Cond":
    players 2..2

card type Chip:
    value: 1..3

zone deck: pile, shared, hidden
zone hand: set, per player, public
stat flag = 0
stat hits = 0
stat rounds_seen = 0

setup:
    move all_cards() to deck

always:
    set flag to turn_number % 2

when turn_start if flag == 1:
    hits += 1

when round_start if flag == 0:
    rounds_seen += 1
{round}
turn:
    draw from deck to your hand
    if turn_number >= 5:
        end game

score p: hits * 10 + rounds_seen
"""


@pytest.mark.parametrize("flow", ["", "round:\n    for each p in turn_order():\n        play turn of p\n"])
def test_start_conditions_are_tested_before_the_new_period_settles(tmp_path, flow):
    """`when turn_start if ...` and `when round_start if ...` test their condition when the event
    fires, before the state-based rules re-checked for the new turn run (the task engine pushes
    the fire, then the settling): with and without a `round:` phase."""
    program = load_program(ruleset(tmp_path, COND.format(round=flow), CHIPS))
    a, b = new_game(program, 2, 1), DirectGame(compile_direct(program), 2, 1)
    assert a.error is None and b.error is None
    assert a.result == b.result and a.result["scores"][0] == 23  # turns 2 and 4; rounds 1, 2 and 3
    assert a.state.digest() == b.state.digest()


CHOOSE = """\
game "Choose":
    players 2..3

card type Chip:
    value: 1..3

zone deck: pile, shared, hidden
zone hand: set, per player, public
zone kept: set, per player, public

setup:
    move all_cards() to deck
    shuffle deck

turn:
    draw 3 from deck to your hand as got
    if count(your hand) >= 2:
        you choose 2 pair from your hand "Keep two"
        move pair to your kept
    you choose up to 1 extra from your hand "Keep one more?"
    move extra to your kept
    log ["drew", count(got)]
    if count(deck) < 3:
        end game

score p: sum((kept of p).value)
"""


def test_choose_n_and_up_to_and_draw_n(tmp_path):
    trace, log = same_games(ruleset(tmp_path, CHOOSE, CHIPS))
    assert any("stop choosing" in labels for _, _, labels in trace) and "[drew, 3]" in log


EMPTY_DEFAULT = """\
game "Empty default":
    players 2..3
card type Chip:
    value: 1..3
zone pile: pile, shared, hidden
zone hand: pile, per player, public
function stops() = []                # a base's default that a mod would fill with cards
setup:
    move all_cards() to pile
    shuffle pile
turn:
    let c = first(pile)
    if c in stops():
        log "stopped"
    elif you may "Take it?":
        move c to your hand
    else:
        move c to pile at bottom
    if count(your hand) >= 3:
        end game
"""


def test_a_card_in_a_rule_function_that_returns_an_empty_list(tmp_path):
    """`c in f()` where `f() = []`: false, on both engines (direct code knew the list held values,
    not cards, and left the whole ruleset to the task engine)."""
    trace, log = same_games(ruleset(tmp_path, EMPTY_DEFAULT, CHIPS), games=2)
    assert "stopped" not in " ".join(log)
