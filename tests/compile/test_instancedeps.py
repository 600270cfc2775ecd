"""Per-player state-based rules re-run only for the players whose zones changed
(interpreter/compile/instancedeps.py), and bodies run at once instead of as tasks (interpreter/compile/tasks.py):
both must play exactly the games the plain task stack plays."""
from __future__ import annotations

import textwrap

import pytest

import interpreter.engine.game as engine_mod
from rulekit import answer, game

GEMS = "\n".join(f"- {{name: G{i}, type: Gem, color: {'Red' if i % 3 else 'Blue'}}}" for i in range(1, 19)) + "\n"

PER_PLAYER = """
    card type Gem:
        color: Red | Blue
    zone bag: pile, shared, hidden
    zone hand: set, per player, public
    zone done: set, per player, public
    zone spent: pile, shared, public
    setup:
        move all_cards() to bag
        shuffle bag
    always:
        for each p in players:
            let reds = hand of p where it.color == Red
            if count(reds) >= 2:
                move first(reds) to done of p
                move first(rest(reds)) to spent
    turn:
        draw from bag to hand of you
        if bag is empty:
            end game
"""


def _play(tmp_path, rules: str, players: int = 3):
    g = game(tmp_path, rules, GEMS, players=players, seed=5)
    assert g.over and g.error is None, g.error
    return g


def test_a_loop_over_players_reading_only_their_zones_gets_a_plan(tmp_path):
    g = _play(tmp_path, PER_PLAYER)
    (plan,) = g.program.always_players
    assert plan is not None and plan.zones == ("hand",)


def test_the_plan_plays_the_same_game_in_fewer_steps(tmp_path, monkeypatch):
    fast = _play(tmp_path, PER_PLAYER)
    monkeypatch.setattr(engine_mod, "player_plan", lambda *a: None)  # every player, every time
    slow = _play(tmp_path, PER_PLAYER)
    assert slow.program.always_players == [None]
    assert fast.state.zones == slow.state.zones and fast.log == slow.log
    assert sum(len(fast.state.zones[f"done#{p}"]) for p in range(3)) == 6  # 12 reds: 6 pairs
    assert fast.steps < slow.steps


@pytest.mark.parametrize("change", [
    ("if count(reds) >= 2:", "if count(reds) >= 2 and count(spent) < 9:"),  # reads a shared zone
    ("move first(reds) to done of p", "move first(reds) to done of next_player(p)"),  # writes another's
    ("move first(rest(reds)) to spent", "move first(rest(reds)) to bag"),  # a zone the turn reads? still shared
    ("let reds = hand of p where it.color == Red", "let reds = hand of p where it.color == Red\n"
                                                   "            let p = first(players)"),  # rebinds p
])
def test_other_loops_fall_back_to_every_player(tmp_path, change):
    rules = PER_PLAYER.replace(*change)
    g = game(tmp_path, rules, GEMS, players=3, seed=5)
    plan = g.program.always_players[0]
    if change[1].endswith("to bag"):  # a shared zone the loop does not read: allowed
        assert plan is not None
    else:
        assert plan is None


def test_a_player_whose_zone_changed_through_another_rule_is_rechecked(tmp_path, monkeypatch):
    """A second rule moving cards into one player's zone during the same pass makes the loop look
    at that player, as the full loop would."""
    rules = PER_PLAYER.replace("    turn:", """    stat gifts = 0
    always:
        if gifts == 0 and count(bag) <= 10:
            set gifts to 1
            move first(bag, 2) to hand of first(players)
    turn:""")
    fast = _play(tmp_path, rules)
    monkeypatch.setattr(engine_mod, "player_plan", lambda *a: None)
    slow = _play(tmp_path, rules)
    assert fast.state.zones == slow.state.zones and fast.state.stats == slow.state.stats


INLINE = """
    stat tally = 0
    turn:
        repeat:
            set tally to tally + 1
            if tally == 6:
                let x = tally / 0
            elif tally >= 3:
                log "three"
                if you may "Stop?":
                    log "stopped"
                    break
                log "went on"
        log "after"
        end game
"""


def test_an_if_body_run_at_once_still_asks_and_breaks(tmp_path):
    g = game(tmp_path, INLINE)
    answer(g, 0, "no")
    answer(g, 0, "yes")
    assert g.over and g.error is None
    assert g.log == ["three", "went on", "three", "stopped", "after"]


def test_an_error_inside_an_if_body_run_at_once_names_its_statement(tmp_path):
    g = game(tmp_path, INLINE)
    for _ in range(3):
        answer(g, 0, "no")
    assert g.error is not None and "division by zero" in g.error.message
    lines = [line.strip() for line in textwrap.dedent(INLINE).lstrip().splitlines()]
    assert g.error.loc.line == lines.index("let x = tally / 0") + 1


STATS = """
    card type Gem:
        color: Red | Blue
    zone bag: pile, shared, hidden
    zone hand: set, per player, public
    zone done: set, per player, public
    player stat coins: 0..99 = 0
    setup:
        move all_cards() to bag
        shuffle bag
    always:
        for each p in players:
            if coins of p >= 3 and not (hand of p is empty):
                move first(hand of p) to done of p
    turn:
        draw from bag to hand of you
        you gain count(hand of you) coins
        set coins of you to coins of you - 2
        if bag is empty:
            end game
"""


def test_player_stats_are_tracked_per_player_too(tmp_path, monkeypatch):
    """`coins of p` changes are noted per player (`coins#1`): the loop gets a plan and plays the
    game the full loop plays."""
    fast = _play(tmp_path, STATS)
    assert fast.program.always_players[0].zones == ("coins", "hand")
    monkeypatch.setattr(engine_mod, "player_plan", lambda *a: None)
    slow = _play(tmp_path, STATS)
    assert fast.state.zones == slow.state.zones and fast.state.pstats == slow.state.pstats
    assert any(fast.state.zones[f"done#{p}"] for p in range(3))
    assert fast.steps < slow.steps


# ---- a new turn re-checks only the rules that depend on whose turn it is (engine.PERIOD) ------

ACTIVE_HAND = """
    card type Gem:
        color: Red | Blue
    zone bag: pile, shared, hidden
    zone hand: set, per player, public
    zone spent: pile, shared, public
    stat seen = 0
    setup:
        move all_cards() to bag
        shuffle bag
        for each p in players:
            draw 6 from bag to hand of p
    always:
        # reads the active player's hand: a new turn is a new hand to look at
        if count(your hand where it.color == Blue) > 0:
            move first(your hand where it.color == Blue) to spent
            set seen to seen + 1
    turn:
        if turn_number > player_count:
            end game
"""


def test_a_rule_reading_the_active_players_zone_is_rechecked_at_each_new_turn(tmp_path):
    """`your hand` in a state-based rule is the active player's: when the turn passes, the rule
    must look at the new active player's hand although no card moved. Turns move no card here, so
    only that re-check can take the Blue gems out of the second and third players' hands."""
    g = game(tmp_path, ACTIVE_HAND, GEMS, players=3, seed=2)
    assert g.over and g.error is None, g.error
    held = [[g.cards[c].fields["color"] for c in g.state.zones[f"hand#{p}"]] for p in range(3)]
    assert all("Blue" not in h for h in held), held
    assert g.state.stats["seen"] == 6  # G3, G6 ... G18
