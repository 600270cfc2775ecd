"""Each construct of the rule language on its own, in a tiny ruleset whose outcome a wrong
implementation would get wrong. Rulesets are written to tmp_path; most tests read the game's
`log` lines (the `log EXPR` statement) or its state after scripted choices."""
from __future__ import annotations

from typing import Any
import textwrap

import pytest

from interpreter.engine.game import Limits
from interpreter.runtime.errors import LimitExceeded, RuleError
from interpreter.engine.factory import new_game
from rulekit import build, finish, line_of, ok, run


# five numbered tokens, ids 0..4 with value 1..5 (a pile's top is its last card)
def indent(text: str) -> str:
    return textwrap.indent(text, " " * 8)


TOKENS = indent("""\
card type Tok:
    value: 1..9

""")
TOKEN_CARDS = "\n".join(f"- {{name: T{v}, type: Tok, value: {v}}}" for v in range(1, 6)) + "\n"


# ---- values and assignment ----------------------------------------------------------------

def test_let_set_aug_and_stat_bounds(tmp_path):
    p = build(tmp_path, """
        stat hp: 0..10 = 7
        stat high: 1..3 = 99
        stat free = 0
        turn:
            let x = 3
            set x to x + 2
            x += 10
            x -= 1
            log x
            hp += 5
            log hp
            hp -= 50
            log hp
            set hp to 4
            log hp
            free -= 20
            log free
            log high
            end game
        """)
    g = ok(run(p))
    assert g.over and g.log == ["14", "10", "0", "4", "-20", "3"]
    assert g.state.stats == {"hp": 4, "high": 3, "free": -20}


def test_a_stat_bounded_below_only(tmp_path):
    """`lo..` clamps below and never above: a player stat with no cap (a purse, wounds)."""
    p = build(tmp_path, """
        player stat gold: 0.. = 5
        stat pool: 2..
        turn:
            your gold += 100000
            log your gold
            your gold -= 200000
            log your gold
            pool -= 9
            log pool
            end game
        """)
    g = ok(run(p))
    assert g.over and g.log == ["100005", "0", "2"]


def test_stat_initial_value_without_bounds(tmp_path):
    p = build(tmp_path, """
        stat n = 5
        player stat m = 3
        turn:
            log [n, your m]
            end game
        """)
    assert ok(run(p)).log == ["[5, 3]"]


def test_per_player_stats(tmp_path):
    p = build(tmp_path, """
        player stat gold: 0..5 = 1
        player stat seen = 0
        turn:
            your gold += turn_number
            seen of next_player() += 10
            if turn_number == 3:
                set gold of players to 4
                your gold += 100
                end game after this turn
        """)
    g = ok(run(p, players=3))
    assert g.over and g.result["turns"] == 3
    assert [s["gold"] for s in g.state.pstats] == [4, 4, 5]  # clamped at 5, each seat its own
    assert [s["seen"] for s in g.state.pstats] == [10, 10, 10]


@pytest.mark.parametrize("players,value", [(2, 10), (3, 20), (4, 30)])
def test_constant_from_player_count_map(tmp_path, players, value):
    p = build(tmp_path, """
        constant bonus = {2: 10, 3: 20, 4: 30}[player_count]
        turn:
            log bonus + 1
            end game
        """)
    assert ok(run(p, players=players)).log == [str(value + 1)]


# ---- cards and zones ----------------------------------------------------------------------

ZONES = TOKENS + indent("""\
zone deck: pile, shared, public
zone other: pile, shared, public
zone hand: set, per player, owner
zone board: rows 2, shared, public
""")


def values(g: Any, key: str) -> list:
    z = g.state.zones[key]
    if z and isinstance(z[0], list):
        return [[g.cards[c].fields["value"] for c in row] for row in z]
    return [g.cards[c].fields["value"] for c in z]


def test_move_top_bottom_as_and_whole_zone(tmp_path):
    p = build(tmp_path, ZONES + """
        setup:
            move all_cards() to deck
        turn:
            move top(deck) to other as t
            log t.value
            move top(deck) to other at bottom
            move bottom(deck) to other on top
            log [c.value for each c in cards_in(other)]
            move deck to other as both
            log count(both)
            log count(deck)
            end game
        """, TOKEN_CARDS)
    g = ok(run(p))
    assert g.log == ["5", "[4, 5, 1]", "2", "0"]
    assert values(g, "other") == [4, 5, 1, 2, 3]
    assert values(g, "deck") == []


def test_move_from_rows_and_rows_close_up(tmp_path):
    p = build(tmp_path, ZONES + """
        setup:
            move all_cards() to deck
        turn:
            place first(deck where it.value == 1) in board
            place first(deck where it.value == 2) in board
            place first(deck where it.value == 3) in board
            log count(rows(board))
            move first(rows(board)) to other
            log count(rows(board))
            log cards_in(board).value
            move board to your hand
            log count(board)
            end game
        """, TOKEN_CARDS)
    # card 1: only a new row; card 2: row 1 left/right or a new row -> new row (index 2);
    # card 3: rows are full (2) -> row 1 right end (option 1)
    g = new_game(p, 2, 0)
    assert g.decision.labels == ["row 1, left end", "row 1, right end", "a new row"]
    g.answer(2)
    assert g.decision.labels == ["row 1, left end", "row 1, right end", "row 2, left end", "row 2, right end"]
    g.answer(1)
    ok(g)
    assert g.log == ["2", "1", "[2]", "0"]
    assert values(g, "other") == [1, 3]
    assert values(g, "hand#0") == [2]
    assert g.state.zones["board"] == []


def test_move_into_a_row_while_an_earlier_row_empties(tmp_path):
    p = build(tmp_path, ZONES + """
        setup:
            move all_cards() to deck
        turn:
            let one = first(deck where it.value == 1)
            place one in board
            place first(deck where it.value == 2) in board
            let first_row = first(rows(board))
            let second = last(rows(board))
            move one to second
            move first(deck where it.value == 3) to second at bottom
            log cards_in(board).value
            log [count(rows(board)), count(cards_in(first_row)), second in rows(board)]
            log cards_in(second).value
            log first(rows(board)) == second
            end game
        """, TOKEN_CARDS)
    g = new_game(p, 2, 0)
    g.answer(2)  # the 2 into a new row
    ok(g)
    # row 1 emptied and closed up; the cards went into the row that was chosen, not a new one,
    # and a reference to the emptied row names no row any more
    assert values(g, "board") == [[3, 2, 1]]
    assert g.log == ["[3, 2, 1]", "[1, 0, yes]", "[3, 2, 1]", "yes"]


def test_draw_count_and_empty_source(tmp_path):
    p = build(tmp_path, ZONES + """
        event got
        setup:
            move all_cards() to deck
        when drawn(c):
            log ["drew", c.value]
        turn:
            draw 2 from deck to your hand as two
            log [c.value for each c in two]
            draw from deck to your hand as one
            log one.value
            draw 10 from deck to your hand as many
            log count(many)
            draw from deck to your hand as nothing
            log nothing is none
            draw 3 from deck to your hand as still_nothing
            log count(still_nothing)
            log count(your hand)
            end game
        """, TOKEN_CARDS)
    g = ok(run(p))
    assert g.log == ["[drew, 5]", "[drew, 4]", "[5, 4]", "[drew, 3]", "3", "[drew, 2]", "[drew, 1]",
                     "2", "yes", "0", "5"]


PLACEMENT = ZONES + indent("""\
placement in board as row:
    ascending(row.value)
""")


def test_place_in_rows_with_placement_rule(tmp_path):
    p = build(tmp_path, PLACEMENT + """
        setup:
            move all_cards() to deck
        turn:
            place first(deck where it.value == 3) in board
            place first(deck where it.value == 1) in board
            place first(deck where it.value == 5) in board
            place first(deck where it.value == 4) in board
            let three = first(deck where it.value == 3)
            log three can be placed in board
            log first(deck where it.value == 2) can be placed in board
            place three in board
        """, TOKEN_CARDS + "- {name: T3b, type: Tok, value: 3}\n")
    g = new_game(p, 2, 0)
    # the 3 went into the only position (a new row) without asking; the 1 may go left of it or
    # into a new row, not right of it
    d = g.decision
    assert (d.kind, d.player) == ("place", 0)
    assert d.labels == ["row 1, left end", "a new row"]
    g.answer(1)
    # the 5: right ends only, and no third row (rows 2)
    assert g.decision.labels == ["row 1, right end", "row 2, right end"]
    g.answer(0)
    # the 4 fits only right of the 1 (taken without asking); the second 3 fits nowhere
    assert values(g, "board") == [[3, 5], [1, 4]]
    assert g.over and g.log == ["no", "yes"]
    assert isinstance(g.error, RuleError) and "cannot be placed" in g.error.message
    assert g.error.loc.line == line_of(p, "place three in board")


def test_can_be_placed_keeps_variables(tmp_path):
    p = build(tmp_path, PLACEMENT + """
        setup:
            move all_cards() to deck
        turn:
            let card = 42
            let row = 7
            log top(deck) can be placed in board
            log card
            log row
            end game
        """, TOKEN_CARDS)
    assert ok(run(p)).log == ["yes", "42", "7"]


def test_cover_hides_fields_and_surfaces(tmp_path):
    p = build(tmp_path, PLACEMENT + """
        setup:
            move all_cards() to deck
        turn:
            let a = first(deck where it.value == 1)
            let b = first(deck where it.value == 4)
            let c = first(deck where it.value == 5)
            place a in board
            place c in board
            place b on a
            log a.value
            log a is covered
            log cards_in(board).value
            log cards_under(b).value
            move b to other
            log a.value
            log a is covered
            log cards_in(board).value
            end game
        """, TOKEN_CARDS)
    g = new_game(p, 2, 0)
    assert g.decision.labels == ["row 1, right end", "a new row"]
    g.answer(0)  # the 5 right of the 1
    ok(g)
    # covered: the 1 reads as none and the 4 lies where the 1 was; then the 1 surfaces in place
    assert g.log == ["none", "yes", "[4, 5]", "[none]", "1", "no", "[1, 5]"]
    assert g.state.under == {}
    assert values(g, "board") == [[1, 5]]


def test_cover_stack_and_where(tmp_path):
    p = build(tmp_path, ZONES + """
        setup:
            move all_cards() to deck
        turn:
            let a = first(deck where it.value == 1)
            let b = first(deck where it.value == 2)
            let c = first(deck where it.value == 3)
            move a to other
            place b on a
            place c on b
            log cards_under(c) == [b, a]
            move a to deck
            log cards_under(c) == [b]
            move c to deck
            log cards_in(other) == [b]
            log b.value
            end game
        """, TOKEN_CARDS)
    g = ok(run(p))
    assert g.log == ["yes", "yes", "yes", "2"]
    assert g.state.where[1] == "other" and g.state.under == {}


def test_shuffle_is_deterministic_by_seed(tmp_path):
    cards = "\n".join(f"- {{name: C{i}, type: Tok, value: {1 + i % 9}}}" for i in range(30)) + "\n"
    p = build(tmp_path, TOKENS + """
        zone deck: pile, shared, hidden
        setup:
            move all_cards() to deck
            shuffle deck
        turn:
            end game
        """, cards)
    orders = {seed: new_game(p, 2, seed).state.zones["deck"] for seed in (1, 2, "x")}
    assert orders[1] == new_game(p, 2, 1).state.zones["deck"]
    assert orders["x"] == new_game(p, 2, "x").state.zones["deck"]
    assert orders[1] != orders[2] and sorted(orders[1]) == list(range(30))


# ---- events and triggers ------------------------------------------------------------------

EFFECT_CARDS = TOKEN_CARDS + """\
- name: Bomb
  type: Tok
  value: 7
  effect: |
    when zap:
        log ["bomb", this.value]
        your hits += 1
"""


def test_fire_triggers_and_card_effects(tmp_path):
    p = build(tmp_path, ZONES + """
        event boom
        event zap
        player stat hits = 0
        setup:
            move all_cards() to deck
        when boom(c):
            log ["boom", c.value]
            hits of you += 10
        turn:
            fire boom on top(deck)
            fire zap on bottom(deck)
            fire zap on first(deck where it.value == 7) by next_player()
            log [h.hits for each h in players]
            end game
        """, EFFECT_CARDS)
    g = ok(run(p))
    assert g.log == ["[boom, 7]", "[bomb, 7]", "[10, 1]"]  # the effect ran for its `by` player


def test_two_triggers_become_an_order_decision_for_the_active_player(tmp_path):
    p = build(tmp_path, ZONES + """
        event boom
        setup:
            move all_cards() to deck
            set start_player to 1
        when boom:
            log "first"
        when boom:
            log "second"
        turn:
            fire boom by next_player()
            end game
        """, TOKEN_CARDS)
    g = new_game(p, 3, 0)
    d = g.decision
    assert d.kind == "order" and d.player == 1 and len(d.options) == 2
    assert all("game.rules" in label for label in d.labels)
    g.answer(1)
    assert ok(g).log == ["second", "first"]
    g = new_game(p, 3, 0)
    g.answer(0)
    assert ok(g).log == ["first", "second"]


def test_card_effect_and_rule_trigger_on_one_event(tmp_path):
    p = build(tmp_path, ZONES + """
        event zap
        player stat hits = 0
        setup:
            move all_cards() to deck
        when zap(c):
            log "rule"
        turn:
            fire zap on first(deck where it.value == 7)
            end game
        """, EFFECT_CARDS)
    g = new_game(p, 2, 0)
    assert g.decision.kind == "order"
    assert "cards.yaml" in g.decision.labels[0] and "game.rules" in g.decision.labels[1]
    g.answer(1)
    assert ok(g).log == ["rule", "[bomb, 7]"]


# ---- state-based rules --------------------------------------------------------------------

def test_always_rechecked_after_each_change(tmp_path):
    p = build(tmp_path, """
        stat n = 0
        stat hits = 0
        always:
            if n >= 3:
                set n to 0
                hits += 1
        turn:
            n += 1
            log n
            n += 2
            log n
            log hits
            n += 5
            log n
            log hits
            end game
        """)
    assert ok(run(p)).log == ["1", "0", "1", "0", "2"]


def test_always_rechecked_between_turns(tmp_path):
    p = build(tmp_path, """
        player stat mark = 0
        stat bumps = 0
        always:
            if turn_number > 0 and your mark == 0:
                set your mark to turn_number
        when turn_end:
            bumps += 1
        always:
            if bumps >= 2:
                set bumps to 0
        turn:
            log bumps
            if turn_number == 3:
                end game
        """)
    g = ok(run(p, players=3))
    # each player's mark is set when their turn starts, though the turn changes nothing
    assert [s["mark"] for s in g.state.pstats] == [1, 2, 3]
    assert g.log == ["0", "1", "0"]


def test_always_setting_the_same_value_settles(tmp_path):
    p = build(tmp_path, """
        stat flag = 0
        stat n = 0
        always:
            set flag to 1 if n > 2 else 0
        turn:
            n += 1
            log flag
            if n == 4:
                end game
        """)
    g = ok(run(p))
    assert g.log == ["0", "0", "1", "1"]


def test_as_soon_as_fires_once_per_change(tmp_path):
    p = build(tmp_path, """
        stat n = 0
        stat fired = 0
        as soon as n >= 2:
            fired += 1
            log [n]
        turn:
            n += 1
            n += 1
            n += 1
            set n to 0
            set n to 5
            log fired
            end game
        """)
    assert ok(run(p)).log == ["[2]", "[5]", "2"]


def test_as_soon_as_checked_when_a_turn_starts(tmp_path):
    p = build(tmp_path, """
        as soon as turn_number == 4:
            log "four"
            end game
        turn:
            log turn_number
        """)
    g = ok(run(p))
    assert g.log == ["1", "2", "3", "four"] and g.result["turns"] == 4


# ---- flow ---------------------------------------------------------------------------------

def test_end_game_now(tmp_path):
    p = build(tmp_path, """
        turn:
            log "a"
            end game
            log "b"
        """)
    g = ok(run(p, players=3))
    assert g.over and g.log == ["a"] and g.result["turns"] == 1


def test_end_game_after_this_turn(tmp_path):
    p = build(tmp_path, """
        when turn_end:
            log "end of turn"
        turn:
            end game after this turn
            log "rest of turn"
        """)
    g = ok(run(p, players=3))
    assert g.log == ["rest of turn", "end of turn"] and g.result["turns"] == 1


def test_end_game_after_this_round(tmp_path):
    p = build(tmp_path, """
        turn:
            log you
            if turn_number == 5:
                end game after this round
        """)
    g = ok(run(p, players=3))
    assert g.result["turns"] == 6 and g.result["rounds"] == 2
    g = ok(run(build(tmp_path / "b", """
        turn:
            if turn_number == 2:
                end game after this round
            if turn_number == 3:
                end game after this turn
        """), players=4))
    assert g.result["turns"] == 3  # after this turn wins over after this round


def test_default_flow_clockwise_from_start_player(tmp_path):
    p = build(tmp_path, """
        setup:
            set start_player to 2
        turn:
            log you
            if turn_number == 6:
                end game after this turn
        """)
    g = ok(run(p, players=4))
    assert g.log == ["player 3", "player 4", "player 1", "player 2", "player 3", "player 4"]
    assert g.result["rounds"] == 2


def test_round_phase_and_play_phase(tmp_path):
    p = build(tmp_path, """
        when round_start:
            log "round " + "start"
        round:
            for each p in turn_order():
                if p != start_player:
                    play turn of p
            set start_player to next_player(start_player)
        turn:
            log you
        play:
            repeat 2 times:
                play round
            log "done"
        """)
    g = ok(run(p, players=3))
    assert g.log == ["round start", "player 2", "player 3", "round start", "player 3", "player 1", "done"]
    assert g.result["rounds"] == 2 and g.result["turns"] == 4


# ---- loops, expressions -------------------------------------------------------------------

def test_loops_break_continue(tmp_path):
    p = build(tmp_path, """
        turn:
            let s = 0
            for each i in 1..10:
                if i % 2 == 0:
                    continue
                if i > 7:
                    break
                s += i
            log s
            let k = 0
            repeat 4 times:
                k += 1
            log k
            let w = 0
            while w < 5:
                w += 2
            log w
            let r = 0
            let inner = 0
            repeat:
                r += 1
                for each j in [1, 2, 3]:
                    if j == 2:
                        break
                    inner += 1
                if r < 3:
                    continue
                break
            log [r, inner]
            repeat 0 times:
                log "never"
            end game
        """)
    assert ok(run(p)).log == ["16", "4", "6", "[3, 3]"]


def test_where_quantifiers_comprehensions_if_else(tmp_path):
    p = build(tmp_path, """
        turn:
            let xs = [1, 2, 3, 4]
            let x = 99
            log xs where it > 2
            log every x in xs has x > 0
            log some x in xs has x > 3
            log no x in xs has x > 4
            log every x in xs has x > 1
            log some x in xs has x > 4
            log no x in xs has x == 3
            log every a, b in adjacent(xs) has a < b
            log every a, b in adjacent([1, 3, 2]) has a < b
            log every x in [] has x > 100
            log [x * 2 for each x in xs where it % 2 == 0]
            log ("big" if count(xs) > 3 else "small")
            log ("big" if count(xs) > 4 else "small")
            log x
            end game
        """)
    assert ok(run(p)).log == ["[3, 4]", "yes", "yes", "yes", "no", "no", "no", "yes", "no",
                             "yes", "[4, 8]", "big", "small", "99"]


def test_where_on_cards_reads_fields(tmp_path):
    p = build(tmp_path, ZONES + """
        setup:
            move all_cards() to deck
        turn:
            log count(deck where it.value > 2)
            log (deck where it.value % 2 == 1).value
            log sum(deck.value)
            end game
        """, TOKEN_CARDS)
    assert ok(run(p)).log == ["3", "[1, 3, 5]", "15"]


# ---- decisions ----------------------------------------------------------------------------

def test_may_and_chooses(tmp_path):
    p = build(tmp_path, """
        turn:
            if next_player() may "Accept?":
                log "accepted"
            else:
                log "refused"
            you choose a from [7] "only one"
            log a
            you choose b from [1, 2, 3] "pick"
            log b
            end game
        """)
    g = new_game(p, 3, 0)
    d = g.decision
    assert (d.kind, d.player, d.prompt, d.labels) == ("may", 1, "Accept?", ["yes", "no"])
    g.answer(1)
    d = g.decision  # the single option was taken without asking
    assert (d.kind, d.player, d.prompt, d.labels) == ("choose", 0, "pick", ["1", "2", "3"])
    g.answer(2)
    assert ok(g).log == ["refused", "7", "3"] and g.choices == [1, 2]


def test_choose_from_nothing_is_a_rule_error(tmp_path):
    p = build(tmp_path, """
        turn:
            you choose a from [] "none"
        """)
    g = run(p)
    assert g.over and isinstance(g.error, RuleError)
    assert g.error.loc.line == line_of(p, "you choose a")


def test_decision_options_are_a_snapshot(tmp_path):
    p = build(tmp_path, ZONES + """
        setup:
            move all_cards() to deck
        turn:
            you choose c from deck "which?"
            move c to other
            log c.value
            end game
        """, TOKEN_CARDS)
    g = new_game(p, 2, 0)
    opts = g.decision.options
    g.answer(4)
    assert ok(g).log == ["5"] and len(opts) == 5


# ---- scoring ------------------------------------------------------------------------------

SCORING = """
    player stat pts = 0
    player stat tb = 0
    score p: pts of p
    tiebreak p: tb of p
    turn:
        set pts of players to 5
        set pts of next_player() to 7
        set pts of next_player(next_player()) to 7
        set tb of players to 1
        {extra}
        end game
"""


def test_score_and_tiebreak(tmp_path):
    p = build(tmp_path, SCORING.replace("{extra}", "set tb of next_player() to 2"))
    g = ok(run(p, players=3))
    assert g.result["scores"] == [5, 7, 7] and g.result["winners"] == [1]


def test_shared_victory(tmp_path):
    p = build(tmp_path, SCORING.replace("{extra}", "pass"))
    g = ok(run(p, players=3))
    assert g.result["scores"] == [5, 7, 7] and g.result["winners"] == [1, 2]


# ---- limits: runaway rules stop with an error naming the rule -----------------------------

def assert_stopped_at(g: Any, program, *texts: str, limit: bool = True):
    assert g.over and g.decision is None
    assert isinstance(g.error, LimitExceeded if limit else RuleError), g.error
    assert g.error.loc is not None, g.error
    assert g.error.loc.file.endswith("game.rules")
    if texts:
        assert g.error.loc.line in {line_of(program, t) for t in texts}, (g.error, texts)
    assert str(g.error.loc) in str(g.error)


def test_limit_infinite_repeat(tmp_path):
    p = build(tmp_path, """
        stat n = 0
        turn:
            repeat:
                let z = 1
        """)
    g = run(p, limits=Limits(max_steps=20_000))
    assert_stopped_at(g, p, "repeat:", "let z = 1")
    assert "steps" in g.error.message


def test_limit_infinite_while_with_state_changes(tmp_path):
    p = build(tmp_path, """
        stat n = 0
        turn:
            while n >= 0:
                n += 1
        """)
    g = run(p, limits=Limits(max_steps=20_000))
    assert_stopped_at(g, p, "while n >= 0", "n += 1")


def test_limit_infinite_trigger_chain(tmp_path):
    p = build(tmp_path, """
        event ping
        when ping:
            fire ping
        turn:
            fire ping
        """)
    g = run(p)
    assert_stopped_at(g, p, "when ping:")
    assert "trigger" in g.error.message


def test_limit_endless_recursion(tmp_path):
    p = build(tmp_path, """
        procedure f(n):
            g(n + 1)
        procedure g(n):
            f(n + 1)
        turn:
            f(0)
        """)
    g = run(p)
    assert_stopped_at(g, p, "procedure f(n):", "procedure g(n):")


def test_limit_python_recursion_is_a_rule_error(tmp_path):
    # a depth limit too high for Python's own stack must still end as a rule error, not a crash
    p = build(tmp_path, """
        procedure f(n):
            if n >= 0:
                if n >= 0:
                    if n >= 0:
                        f(n + 1)
        turn:
            f(0)
        """)
    g = run(p, limits=Limits(max_depth=100_000))
    assert g.over and isinstance(g.error, LimitExceeded) and g.error.loc is not None
    assert g.error.loc.file.endswith("game.rules")


def test_limit_always_never_settles(tmp_path):
    p = build(tmp_path, """
        stat n = 0
        always:
            if n == 0:
                set n to 1
        always:
            if n == 1:
                set n to 0
        turn:
            pass
        """)
    g = run(p)
    assert_stopped_at(g, p)  # names one of the two rules
    assert g.error.loc.line in (line_of(p, "if n == 0") - 1, line_of(p, "if n == 1") - 1)
    assert "state-based" in g.error.message


def test_limit_always_counting_forever(tmp_path):
    p = build(tmp_path, """
        stat n = 0
        turn:
            pass
        always:
            n += 1
        """)
    g = run(p)
    assert_stopped_at(g, p, "always:")


def test_limit_game_never_ends(tmp_path):
    p = build(tmp_path, """
        turn:
            pass
        """)
    g = run(p, limits=Limits(max_turns=50))
    assert_stopped_at(g, p, "turn:")
    assert "50 turns" in g.error.message


def test_limit_rounds_without_turns(tmp_path):
    p = build(tmp_path, """
        round:
            pass
        turn:
            pass
        """)
    g = run(p, limits=Limits(max_turns=50))
    assert_stopped_at(g, p, "round:")
    assert "50 rounds" in g.error.message


def test_limit_endless_decisions_without_turns(tmp_path):
    p = build(tmp_path, """
        turn:
            pass
        play:
            repeat:
                if you may "again?":
                    pass
        """)
    g = run(p, limits=Limits(max_decisions=300))
    finish(g)
    assert_stopped_at(g, p, 'if you may "again?"')
    assert g.decisions_made == 300


def test_errors_outside_statements_name_their_rule(tmp_path):
    p = build(tmp_path, """
        constant k = {2: 1}[player_count]
        turn:
            end game
        """)
    g = new_game(p, 3, 0)
    assert_stopped_at(g, p, "constant k", limit=False)

    p = build(tmp_path / "b", """
        stat zero = 0
        as soon as 10 / zero > 1:
            pass
        turn:
            zero += 0
            end game
        """)
    g = new_game(p, 2, 0)
    assert_stopped_at(g, p, "as soon as", limit=False)
    assert "division by zero" in g.error.message

    p = build(tmp_path / "c", """
        score p: 1 / 0
        turn:
            end game
        """)
    g = new_game(p, 2, 0)
    assert_stopped_at(g, p, "score p", limit=False)


def test_error_in_card_effect_names_the_card_file(tmp_path):
    cards = TOKEN_CARDS + """\
- name: Bad
  type: Tok
  value: 7
  effect: |
    when zap:
        log 1
        log 1 / 0
"""
    p = build(tmp_path, ZONES + """
        event zap
        setup:
            move all_cards() to deck
        turn:
            fire zap on top(deck)
        """, cards)
    g = new_game(p, 2, 0)
    assert isinstance(g.error, RuleError) and g.log == ["1"]
    assert g.error.loc.file.endswith("cards.yaml") and g.error.loc.line == 12


def test_stats_may_hold_cards_and_lists(tmp_path):
    p = build(tmp_path, ZONES + """
        stat held = 0
        setup:
            move all_cards() to deck
        turn:
            set held to top(deck)
            you choose x from [1, 2] "x"
            set held to [top(deck), {1: top(deck)}]
            you choose y from [1, 2] "y"
            end game
        """, TOKEN_CARDS)
    g = new_game(p, 2, 0, record_digests=True)
    assert g.error is None and g.decision is not None
    g.answer(0)
    g.answer(0)
    assert ok(g).over and len(g.digests) == 2


def test_limit_work_inside_expressions(tmp_path):
    # expressions run no statements: the items they visit are counted instead
    p = build(tmp_path, """
        turn:
            let big = [count([x for each x in 1..1000 where it > y]) for each y in 1..1000]
            end game
        """)
    g = run(p, limits=Limits(max_work=100_000))
    assert isinstance(g.error, LimitExceeded) and g.error.loc.line == line_of(p, "let big")
    assert "expressions visited more than 100000 items" in g.error.message
    assert ok(run(p)).over  # a million items is fine by default


def test_untrusted_sizes_are_bounded(tmp_path):
    p = build(tmp_path, """
        turn:
            let xs = 1..100000000000
            end game
        """)
    g = run(p)
    assert isinstance(g.error, RuleError) and g.error.loc.line == line_of(p, "let xs")
    p = build(tmp_path / "b", """
        turn:
            let x = 2
            repeat 100 times:
                set x to x * x
            end game
        """)
    g = run(p)
    assert isinstance(g.error, RuleError) and g.error.loc.line == line_of(p, "x * x")
    p = build(tmp_path / "c", """
        turn:
            let x = [1]
            repeat 100 times:
                set x to x + x
            end game
        """)
    g = run(p)
    assert isinstance(g.error, RuleError) and g.error.loc.line == line_of(p, "x + x")
