"""The direct engine (direct.py, directabilities.py) compiles actions, `whenever` triggers and card
parts, and plays the same games with them as the task engine: seeded games played to the end by
random agents give the same questions (who, what kind, the prompt, every option's label), the same
result, log and final state (its digest covers the zones, stats, action uses and the RNG)."""
from __future__ import annotations

import random

import pytest

from rulekit import BOARD_WORLD, board_cards, build, line_of, run
from interpreter.engine.factory import new_game
from interpreter.engine.direct import compile_direct
from interpreter.engine.directgame import DirectGame
from interpreter.play.session import agents_for, game_seed

RULES = """
card type Gem:
    power: 0..9

zone bag: pile, shared, hidden
zone market: set, shared, public
zone hand: pile, per player, public, covered keep lower
zone pouch: pile, per player, public
zone discard: pile, shared, public
player stat gold = 0
player stat buys = 0
event tick
event bought

setup:
    move all_cards() to bag
    shuffle bag
    repeat 3 times:
        draw from bag to market

action "Buy" if not (market is empty) and your buys < 2:
    you choose c from market "Buy which?"
    move c to hand of you
    your buys += 1
    fire bought on c

action "Refill" once per turn if not (bag is empty):
    draw from bag to market

turn:
    set your buys to 0
    fire tick
    you take actions from market "End the turn"
    if count(discard) >= 5 or (bag is empty and market is empty) or turn_number > 40:
        end game

score p: gold of p
tiebreak p: count(hand of p)
"""

CARDS = """
- name: Ruby
  type: Gem
  power: 3
  copies: 2
  effect: |
    action "Polish" once per turn if your gold < 40:
        your gold += this.power
    part lower:
        whenever tick:
            your gold += 1
- name: Emerald
  type: Gem
  power: 2
  copies: 2
  effect: |
    whenever bought (c) if c != this:
        if you may "Take 2 gold?":
            your gold += 2
    action "Sell":
        move this to discard
        your gold += 5
- name: Opal
  type: Gem
  power: 1
  copies: 2
  effect: |
    when bought:
        your gold += 1
    part lower:
        action "Trade" twice per turn if this.power > 0 and not (market is empty):
            you choose c from market "Trade for which?"
            move c to pouch of you
            move this to market
- name: Topaz
  type: Gem
  power: 4
  effect: |
    action "Grab" if count(pouch of you) < 2:
        move this to pouch of you
    whenever tick if count(hand of you) > 2:
        your gold += 3
"""


def _questions(game, seats) -> list:
    """Play to the end; every question as who is asked what, with the options' labels."""
    out = []
    while not game.over:
        d = game.decision
        out.append((d.player, d.kind, d.prompt, list(d.labels)))
        game.answer(seats[d.player].choose(game, d))
    return out


def _same_games(program, players: int, games: int = 6) -> int:
    """Play seeded games on both engines; they must agree on everything. Returns the questions asked."""
    dp = compile_direct(program)
    asked = 0
    for i in range(games):
        seed = game_seed(5, i)
        a = new_game(program, players, seed)
        b = DirectGame(dp, players, seed)
        qa = _questions(a, agents_for(["random"], players, seed))
        qb = _questions(b, agents_for(["random"], players, seed))
        assert a.error is None and b.error is None, (a.error, b.error)
        assert qa == qb
        assert a.result == b.result
        assert a.log == b.log
        assert a.state.digest() == b.state.digest()
        assert a.held() == b.held()
        asked += len(qa)
    return asked


@pytest.mark.parametrize("players", [2, 3, 4])
def test_actions_whenever_and_parts_play_the_same_games(tmp_path, players):
    program = build(tmp_path, RULES, CARDS)
    assert _same_games(program, players) > 20


def test_the_games_exercise_what_they_claim(tmp_path):
    """The questions above include actions of rules and of cards (offered from the market too),
    the order of several `whenever` effects and a `may` inside one."""
    program = build(tmp_path, RULES, CARDS)
    dp = compile_direct(program)
    kinds, labels = set(), set()
    for i in range(6):
        seed = game_seed(5, i)
        g = DirectGame(dp, 3, seed)
        for who, kind, prompt, opts in _questions(g, agents_for(["random"], 3, seed)):
            kinds.add(kind)
            labels.update(o.split(" (")[0] for o in opts)
    assert {"action", "order", "may", "choose"} <= kinds
    assert {"Buy", "Refill", "Polish", "Sell", "Trade", "Grab", "End the turn"} <= labels


def test_a_copy_asks_the_same_action_question(tmp_path):
    """An action decision's labels are made when first read, on a copy of the game too: the copy
    made before they were read names a card's action with its card, as the original does, and
    plays on as the original does."""
    program = build(tmp_path, RULES, CARDS)
    first = new_game(program, 3, 11)  # the copyable form: where is an action of a card offered?
    answers, rng = [], random.Random(11)
    while not (first.decision.kind == "action" and any(" (" in x for x in first.decision.labels)):
        answers.append(rng.randrange(len(first.decision.options)))
        first.answer(answers[-1])
    g = new_game(program, 3, 11)
    for i in answers:  # the same game, its labels never read
        g.answer(i)
    copy = g.clone()
    assert copy.decision.labels == first.decision.labels == g.decision.labels
    assert copy.decision.labels[-1] == "End the turn"
    i = next(i for i, x in enumerate(first.decision.labels) if " (" in x)
    for game in (g, copy):
        game.answer(i)
    assert copy.decision.labels == g.decision.labels and copy.state.digest() == g.state.digest()


def test_a_limited_action_is_offered_again_next_turn(tmp_path):
    """`once per turn`: its use is counted in the state and forgotten when the player's next turn
    begins, on both engines."""
    rules = """
action "Tap" once per turn:
    your gold += 1

player stat gold = 0

turn:
    you take actions "Pass"
    if turn_number >= 6:
        end game

score p: gold of p
"""
    program = build(tmp_path, rules)
    dp = compile_direct(program)
    a, b = new_game(program, 2, 1), DirectGame(dp, 2, 1)
    for g in (a, b):
        while not g.over:
            assert g.decision.labels == ["Tap", "Pass"]
            g.answer(0)  # tap: then only "Pass" is left, and nothing is asked
        assert g.result["scores"] == [3, 3]
    assert a.state.digest() == b.state.digest()


FORMS = """
card type Gem:
    power: 0..9

zone bag: pile, shared, hidden
zone row: pile, shared, public
zone hand: pile, per player, public
player stat gold = 0

procedure rotate(z):
    if count(z) >= 2:
        move first(z) to z

procedure pay(p, n, cs):
    gold of p += n + count(cs)
    log "paid " + n + " for " + count(cs)

setup:
    move all_cards() to bag
    shuffle bag

turn:
    let picked = []
    let names = []
    while count(row) < 3 and not (bag is empty):
        draw from bag to row
    while count(picked) < 2 and not (row is empty):
        you choose c from values(row) where it.power >= 0 "Pick"
        log [position(c)]
        move c to hand of you
        let picked = [c] + picked
        let names = names + [c.power]
    log names
    log [position(first(picked)), position(last(picked))]
    pay(you, sum(names), picked + values(hand of you))
    rotate(hand of you)
    rotate(hand of first(other_players()))
    rotate(row)
    log values(hand of you)
    if bag is empty or turn_number > 12:
        end game

score p: gold of p
"""


@pytest.mark.parametrize("players", [2, 3])
def test_lists_texts_while_and_procedure_arguments_play_the_same_games(tmp_path, players):
    """`while`, `+` of lists and texts, a list that starts empty and then holds cards, `values` of
    a zone, `position`, and procedure arguments that are numbers, card lists and zones."""
    cards = "\n".join(f"- name: G{i}\n  type: Gem\n  power: {i % 7}" for i in range(14))
    program = build(tmp_path, FORMS, cards)
    assert _same_games(program, players) > 10
    g = DirectGame(compile_direct(program), players, 3)
    while not g.over:
        g.answer(0)
    assert g.error is None and any(line.startswith("paid ") for line in g.log)


BOARD_CARDS = board_cards(3)

BOARD = BOARD_WORLD + """
player stat gold = 0

setup:
    move all_cards() where it is Land to lands
    move cards_named("Coin") to bag
    move first(values(bag)) to card_named("A1")

turn:
    you choose t from values(world) where it is Token "Move which coin?"
    let s = space_of(t)
    let opts = neighbours(s)
    if turn_number % 3 == 0:
        let opts = spaces_away(s, 2, "Out")
    elif turn_number % 3 == 1:
        let opts = neighbours(s, ["Mid", "gate", "Core", "bridge"])
    if count(opts) == 0:
        let opts = neighbours(s)
    if turn_number % 4 == 2:
        let ways = walks(s, 2)
        for each w in walks(s, 1, "Out"):
            set ways to ways + [w]
        you choose w from ways "Walk which way?"
        log [count(ways), count(w)]
        move t to last(w)
    else:
        you choose to from opts "Where to?"
        move t to to
    let to = space_of(t)
    log [t, to, region(to), steps_between(to, card_named("D3")), count(cards_at(to)), count(spaces(world))]
    if region(to) == "Core":
        your gold += 1
    if count(cards_at(to)) > 1:
        move t to bag
    if not (bag is empty):
        move first(values(bag)) to card_named("A4")
    if turn_number > 24:
        end game

score p: gold of p
"""


@pytest.mark.parametrize("players", [2, 3])
def test_boards_play_the_same_games(tmp_path, players):
    """A board of loops, a path, a two-way and a one-way link: coins moved onto spaces, taken off
    and put back; walks (chosen from, joined, walked), neighbours, spaces_away, steps_between, region,
    cards_at, spaces, space_of."""
    program = build(tmp_path, BOARD, BOARD_CARDS)
    assert _same_games(program, players) > 20
    g = DirectGame(compile_direct(program), players, 2)
    while not g.over:
        g.answer(len(g.decision.options) - 1)
    assert g.error is None, g.error
    assert len(g.log) == 31 and g.log[0].startswith("[Coin")


def test_an_error_in_an_action_or_whenever_trigger_names_its_rule(tmp_path):
    """A rule failing inside an action's body, a `whenever` trigger's condition or a board function
    stops the game with the same message and `file:line:col` on both engines."""
    head = ("card type Thing:\n    n: 0..1 = 0\nzone mine: pile, per player, public\nzone box: pile\n"
            "player stat gold = 0\nevent tick\nboard trail:\n    path all_cards() where it.n == 1\n"
            "setup:\n    move all_cards() to mine of first(players)\n")
    bodies = {
        "action": ('action "Break":\n    your gold += 1 / (your gold - your gold)\n'
                   'turn:\n    you take actions "Stop"\n    end game\n', "game.rules", "1 / (your"),
        "whenever": ("turn:\n    fire tick\n    end game\n", "cards.yaml", "whenever tick if"),
        "board": ("turn:\n    log neighbours(first(values(mine of first(players))))\n    end game\n",
                  "game.rules", "log neighbours"),
    }
    cards = """
- name: Pebble
  type: Thing
  effect: |
    whenever tick if 1 / count(box) > 0:
        log "never"
"""
    for what, (rules, file, marker) in bodies.items():
        program = build(tmp_path / what, head + rules, cards)
        a, b = new_game(program, 2, 1), DirectGame(compile_direct(program), 2, 1)
        for g in (a, b):
            while not g.over:
                g.answer(0)
        assert a.error is not None and b.error is not None, what
        # the task engine adds the failing part's values in rule terms (engine/blame.py); the
        # direct engine's variables are Python locals, so it gives the first part of the message
        assert a.error.message.startswith(b.error.message), what
        assert str(a.error.loc) == str(b.error.loc), what
        if file == "game.rules":
            assert b.error.loc.line == line_of(program, marker), what
        else:
            assert b.error.loc.file.endswith(file), what


def test_a_variable_set_on_one_path_only_is_a_rule_error_at_its_line(tmp_path):
    """Found by tools/direct_mutants.py on the board ruleset above: a variable read where no `let`
    gave it a value is a rule error naming the variable, not a Python error."""
    program = build(tmp_path, """
player stat gold = 0

turn:
    if turn_number > 1:
        let spare = 3
    your gold += spare
    end game
""")
    a, b = new_game(program, 2, 1), DirectGame(compile_direct(program), 2, 1)
    # the copyable form (`a`) keeps the variable in a frame slot, which stays unset too
    assert a.error.message == b.error.message == "`spare` has no value here"
    assert a.error.loc.line == b.error.loc.line == line_of(program, "your gold += spare")


DUMMY = """
card type Chip:
    v: 0..9

zone pool: pile
zone mine: pile, per player, public
zone spare: pile, per player, public
player stat gold = 3

always:
    for each p in players:
        if count(mine of p) > 2:
            move first(mine of p) to spare of p

setup:
    move all_cards() to pool
    shuffle pool

turn:
    if turn_number == 3:
        add a dummy player as bot
        bot chooses c from values(pool) "The dummy takes which chip?"
        move c to mine of bot
        gold of bot += 10
    for each p in other_players():
        if p is dummy and not (pool is empty):
            draw from pool to mine of p
    you choose c from values(pool) "Take which chip?"
    move c to mine of you
    log [count(players), count(other_players()), count(players where it is dummy)]
    if count(pool) < 3:
        end game

score p: sum(values(mine of p).v) + gold of p + count(spare of p)
"""


@pytest.mark.parametrize("players", [2, 3])
def test_a_dummy_player_plays_the_same_games(tmp_path, players):
    """`add a dummy player`: its zones and stats, `players` and `other_players()` holding it, its
    decisions taken by the active player, `is dummy`, its score in the result, a per-player
    `always` rule that runs for it too."""
    cards = "\n".join(f"- name: C{i}\n  type: Chip\n  v: {i % 10}" for i in range(16))
    program = build(tmp_path, DUMMY, cards)
    assert _same_games(program, players) > 10
    g = DirectGame(compile_direct(program), players, 4)
    while not g.over:
        g.answer(0)
    assert g.error is None, g.error
    assert len(g.result["scores"]) == players + 1 and g.result["scores"][-1] >= 13
    assert len(g.state.zones[f"mine#{players}"]) == 2 and g.state.zones[f"spare#{players}"]
    assert compile_direct(program).info["always"][0][3] is not None  # the rule runs per seat


def test_a_trigger_condition_that_fails_names_the_trigger(tmp_path):
    """A `when` condition that cannot be worked out (a content bug) stops the game with the
    condition's words at the trigger's own line (`condition_error`, which `fired` and
    `whenever_pending` share)."""
    p = build(tmp_path, """
        stat x = 0
        turn:
            end game
        when turn_start if sum(["a", 1]) > 0:
            set x to 1
        """)
    g = run(p)
    assert g.error.message == "in this trigger's condition: cannot add a number and a text"
    assert g.error.loc.line == line_of(p, "when turn_start")
