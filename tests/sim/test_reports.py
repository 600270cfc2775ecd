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


CAPPED = """
game "Capped":
    players 2..3
player stat points: 0..99
turn:
    if you may "Score?":
        your points += 1
    if your points >= 3:
        end game "three points"
    if round_number >= ROUNDS:
        end game after this round "round cap" by cap
score p: points of p
"""


def test_endings_separate_the_rules_from_caps_and_warn(tmp_path, capsys):
    """Games stopped by `end game ... by cap` are counted apart from the rules' endings, and the
    summary warns once more than 5% of games hit one; a generous cap gives no warning."""
    from interpreter.cli import main
    tight = simulate(str(ruleset(tmp_path, CAPPED.replace("ROUNDS", "3"))), 40, 2, 1, ["random"])
    e = tight["endings"]
    assert e["natural"] + e["capped"] == 40 and e["capped"] > 2 and e["natural"] > 0
    assert {x["reason"]: x["cap"] for x in e["reasons"]} == {"round cap": True, "three points": False}
    assert e["capped_share"] == round(e["capped"] / 40, 4) and "did not end by the rules" in e["warning"]
    loose = simulate(str(ruleset(tmp_path, CAPPED.replace("ROUNDS", "99"))), 20, 2, 1, ["random"])
    assert loose["endings"]["capped"] == 0 and "warning" not in loose["endings"]
    main(["simulate", str(ruleset(tmp_path, CAPPED.replace("ROUNDS", "3"))), "-n", "40", "--seed", "1", "--quiet"])
    out = capsys.readouterr().out
    assert f"{e['capped']} at a cap" in out and "WARNING:" in out and "round cap [cap]" in out


def test_a_cap_is_what_the_rules_declare_not_what_the_reason_says(tmp_path):
    """Without `by cap` an end is the rules' own, whatever its words ("round cap"); with `by cap` an
    end is a cap whatever its words ("three points"): reports never read the reason's text."""
    unmarked = CAPPED.replace("ROUNDS", "3").replace(' "round cap" by cap', ' "round cap"')
    e = simulate(str(ruleset(tmp_path, unmarked)), 40, 2, 1, ["random"])["endings"]
    assert e["capped"] == 0 and e["natural"] == 40 and "warning" not in e
    assert {x["reason"]: x["cap"] for x in e["reasons"]} == {"round cap": False, "three points": False}
    swapped = CAPPED.replace("ROUNDS", "3").replace(' "round cap" by cap', ' "round cap"') \
        .replace('end game "three points"', 'end game "three points" by cap')
    e2 = simulate(str(ruleset(tmp_path, swapped)), 40, 2, 1, ["random"])["endings"]
    assert e2["capped"] == e["reasons"][[x["reason"] for x in e["reasons"]].index("three points")]["games"]
    assert {x["reason"]: x["cap"] for x in e2["reasons"]} == {"round cap": False, "three points": True}


def test_engine_limits_count_as_caps(tmp_path):
    report = simulate(str(ruleset(tmp_path, CAPPED.replace("ROUNDS", "99").replace(">= 3", ">= 99"))), 5, 2, 1,
                      ["random"], max_turns=6)
    e = report["endings"]
    assert e["engine_limit"] == 5 and e["natural"] == 0 and e["capped_share"] == 1.0 and "warning" in e


def test_fairness_tests_and_numbering(tmp_path):
    """The first player always wins here: the binomial test and the seat test both say so, with a
    p-value; per-game rows number players from 1, like the rest of the report."""
    path = ruleset(tmp_path, RULES, CARDS)
    report = simulate(str(path), 30, 3, 4, ["random"], per_game=True)
    f = report["fairness"]
    assert f["first_player"]["wins"] == f["first_player"]["games"] == 30
    assert f["first_player"]["p_value"] < 1e-6 and f["first_player"]["unfair"]
    assert report["schema_version"] >= 2
    for g in report["per_game"]:
        assert g["winners"] == [g["first_player"]] and 1 <= g["first_player"] <= 3
    seats = f["seats"]
    assert sum(seats["wins"]) == 30 and 0 <= seats["p_value"] <= 1


def test_a_fair_coin_is_not_called_unfair(tmp_path):
    rules = """
    game "Coin":
        players 2
    player stat heads: 0..1
    turn:
        if turn_number == 1:
            set heads of random(players) to 1
        end game after this round
    score p: heads of p
    """
    f = simulate(str(ruleset(tmp_path, rules)), 200, 2, 3, ["random"])["fairness"]
    assert not f["seats"]["unfair"] and not f["first_player"]["unfair"]
    assert f["first_player"]["win_rate_ci95"][0] < 0.5 < f["first_player"]["win_rate_ci95"][1]


def test_wilson_interval_matches_scipy():
    from scipy.stats import binomtest

    from interpreter.sim.reports import wilson
    for k, n in ((0, 10), (3, 10), (17, 40), (40, 40), (123, 1000)):
        lo, hi = binomtest(k, n).proportion_ci(method="wilson")
        assert wilson(k, n) == [round(lo, 4), round(hi, 4)]


def test_summary_cards_show_sample_sizes_and_leave_out_nothing_played(tmp_path, capsys):
    """Nothing is ever played in this game (cards go from a shared pile to a public hand): the
    summary says so instead of printing "played 0"; every win rate comes with its seat-games."""
    from interpreter.cli import main
    main(["simulate", str(ruleset(tmp_path, RULES, CARDS)), "-n", "20", "--players", "3", "--quiet"])
    out = capsys.readouterr().out
    assert "nothing is 'played'" in out and "played 0" not in out
    gold = next(line for line in out.splitlines() if line.strip().startswith("Gold:"))
    assert "in 20 of 20 games; taken 20 (win 1.00, 95% 0.84-1.00)" in gold
