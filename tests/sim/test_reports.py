"""Simulation reports designers read: first-player advantage, decisions per turn, per-card figures."""
from interpreter.sim.simulate import simulate
from rulekit import ruleset

RULES = """
game "First wins":
    players 2..3
card type Token:
    kind: Gold | Lead
zone pile: pile, shared, hidden
zone hand: set, per player, public
setup:
    move all_cards() to pile
    set start_player to random(players)
turn:
    if turn_number == 1:
        move first(pile where it.kind == Gold) to your hand
    elif you may "Take lead?":
        move first(pile where it.kind == Lead) to your hand
    if turn_number == player_count:
        end game after this turn
score p: count(hand of p where it.kind == Gold)
"""
CARDS = """
- {name: Gold, type: Token, kind: Gold, copies: 1}
- {name: Lead, type: Token, kind: Lead, copies: 3}
"""


def test_first_player_advantage_decisions_per_turn_and_cards(tmp_path):
    """The first player always takes the Gold and wins; Lead holders never win; decisions per
    turn count the `may` asked on every turn but the first."""
    path = ruleset(tmp_path, RULES, CARDS)
    report = simulate(str(path), 30, 3, 4, ["random"])
    assert report["completed"] == 30 and not report["errors"]
    fp = report["first_player"]
    assert fp["win_rate"] == 1.0 and fp["fair_share"] == round(1 / 3, 4) and fp["win_rate_ci95"][0] > 0.8
    assert report["decisions_per_turn"]["mean"] == round(2 / 3, 3)  # 2 decisions in 3 turns
    cards = report["cards"]
    gold = cards["Gold"]
    assert (gold["games_held"], gold["holders"], gold["holder_win_rate"]) == (30, 30, 1.0)
    assert cards["Lead"]["holder_win_rate"] == 0.0 and cards["Lead"]["games_held"] > 0
