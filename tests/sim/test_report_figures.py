"""A report's figures are the statistics they name, to the last bit: the standard deviation is
`statistics.pstdev`'s, the seat test `scipy.stats.chisquare`'s, and the per-card win rates the
shares of the winners' seat-games added in game order (reports.py and simulate.py compute them
by faster routes, which must not change a number)."""
import random
import statistics

from scipy import stats

from interpreter.sim.reports import _win_shares, card_stats, wilson
from interpreter.sim.simulate import _dist, _pstdev


def test_pstdev_is_statistics_pstdev_to_the_last_bit():
    rng = random.Random(3)
    samples = [[5] * 7, [0], [True, 2, 3], [1.5, 2, 2.25], [10**30, -10**30 + 7, 3]]
    for _ in range(2000):
        top = rng.choice([1, 6, 100, 10**6, 10**20])
        samples.append([rng.randint(-top // 3, top) for _ in range(rng.randint(1, 120))])
    for values in samples:
        assert repr(_pstdev(values)) == repr(statistics.pstdev(values)), values
    assert _dist([3, 1, 2])["stdev"] == round(statistics.pstdev([1, 2, 3]), 3)


def test_seat_test_is_scipys_chisquare_to_the_last_bit():
    from interpreter.sim.reports import _chisquare
    rng = random.Random(4)
    for _ in range(500):
        seats = rng.randint(2, 6)
        wins = [rng.randint(0, 40) + rng.choice([0, 0, 1 / 2, 1 / 3, 2 / 3]) for _ in range(seats)]
        total = sum(wins)
        if not total:
            continue
        want = stats.chisquare(wins, [total / seats] * seats)
        assert _chisquare(wins, total / seats) == (float(want.statistic), float(want.pvalue))


def _plain_card_stats(ok):
    """The per-card figures counted the plain way: seat by seat, game by game."""
    out = {}
    for what, who in (("held", "holders"), ("taken", "takers"), ("played", "players"), ("movers", "movers")):
        for r in ok:
            share = 1 / len(r["winners"]) if r["winners"] else 0.0
            seen = set()
            for seat, keys in enumerate(r.get(what, [])):
                for key in set(keys):
                    t = out.setdefault(key, {}).setdefault(what, [0, 0, 0.0])
                    t[0] += 1
                    t[2] += share if seat in r["winners"] else 0.0
                    if key not in seen:
                        t[1] += 1
                        seen.add(key)
    return out


def test_card_figures_add_shared_wins_in_game_order():
    """Wins shared by three (1/3 each, whose float sum depends on the order) and by two, seats with
    a card held twice, winners beyond the seats that hold cards: every card's seat-games, games and
    win rate are the plain count's."""
    rng = random.Random(5)
    names = [f"Card {i}" for i in range(12)]
    for shared in ((1, 2), (1, 2, 3)):
        ok = []
        for _ in range(60):
            winners = rng.sample(range(5), rng.choice(shared))
            ok.append({"winners": winners, "moved": sorted(rng.sample(names, 5)),
                       "held": [rng.choices(names, k=rng.randint(0, 5)) for _ in range(4)],  # copies alike
                       **{what: [sorted(rng.sample(names, rng.randint(0, 5))) for _ in range(4)]
                          for what in ("taken", "played", "movers")}})
        got, want = card_stats(ok), _plain_card_stats(ok)
        for what in ("held", "taken", "played", "movers"):  # the sums themselves, before rounding
            won = _win_shares(ok, [[set(keys) for keys in r[what]] for r in ok])
            assert {k: won.get(k, 0.0) for k in want} == {k: f.get(what, (0, 0, 0.0))[2] for k, f in want.items()}
        for key, figures in want.items():
            for what, (seat_games, games, wins) in figures.items():
                who = {"held": "holders", "taken": "takers", "played": "players", "movers": "movers"}[what]
                name = "moved_by" if what == "movers" else what
                assert (got[key][who], got[key][f"games_{name}"]) == (seat_games, games)
                assert got[key][f"{who[:-1]}_win_rate"] == round(wins / seat_games, 4)
                assert got[key][f"{who[:-1]}_win_rate_ci95"] == wilson(wins, seat_games)


def test_a_batchs_seat_lists_name_a_card_once_but_held_copies():
    """`card_stats` counts the taken, played and moved-by lists as they are (each names a card
    once) and makes a seat's held list distinct first: a seat may hold identical copies."""
    from golden_games import ROOT
    from interpreter.sim.simulate import simulate
    rows = simulate(str(ROOT / "rulesets" / "toil_and_troublez"), 12, 4, 2, ["random"], per_game=True)["per_game"]
    assert all(len(set(keys)) == len(keys) for r in rows for what in ("taken", "played", "movers")
               for keys in r[what])
    assert any(len(set(keys)) < len(keys) for r in rows for keys in r["held"])
    row = next(r for r in rows if any(len(set(keys)) < len(keys) for keys in r["held"]))
    row = dict(row, winners=[w - 1 for w in row["winners"]])  # (per-game rows number players from 1)
    assert card_stats([row]) == card_stats([dict(row, held=[sorted(set(keys)) for keys in row["held"]])])
