"""The statistics of a simulation report: how games ended, per-card figures with their sample sizes
and intervals, and tests of seat fairness and of the first player's advantage (scipy.stats).

Rows are the per-game rows of `simulate._play_one` (seats numbered from 0 there); what this module
returns is report data, with players numbered from 1.
"""
from __future__ import annotations

import math
from collections import Counter
from itertools import chain
from typing import Any

__all__ = ["SCHEMA_VERSION", "CAP_SHARE_WARNING", "endings", "card_stats", "fairness", "wilson",
           "public_rows"]

SCHEMA_VERSION = 2  # 2: players from 1 in per-game rows, `endings`, `fairness`, cards by identity with intervals
CAP_SHARE_WARNING = 0.05  # the summary warns when more than this share of games did not end by the rules

_LIMIT_ERRORS = ("did not end within", "does not seem to end")  # engine limits on turns and decisions


_Z95 = 1.959963984540054  # the normal quantile of a two-sided 95% interval


def wilson(wins: float, n: int, z: float = _Z95) -> list[float]:
    """The 95% Wilson score interval of a proportion (the same as scipy's
    `binomtest(k, n).proportion_ci(method="wilson")` for whole k; here k may be fractional, since
    a win shared by k players counts 1/k)."""
    if n == 0:
        return [0.0, 0.0]
    p = wins / n
    zz = z * z
    denom = 1 + zz / n
    centre = (p + zz / (2 * n)) / denom
    spread = p * (1 - p)
    half = z * math.sqrt((spread if spread > 0.0 else 0.0) / n + zz / (4 * n * n)) / denom
    low, high = centre - half, centre + half
    return [round(low if low > 0.0 else 0.0, 4), round(high if high < 1.0 else 1.0, 4)]


# ---- how games ended -------------------------------------------------------------------------
def endings(rows: list[dict]) -> dict:
    """Games that ended by the rules, games stopped by a cap the rules declare (`end game ... by
    cap`: the row's `cap`, never guessed from the reason's words), games stopped by an engine limit
    (turns, decisions), and other failures; per reason, how many games; and a warning when more
    than `CAP_SHARE_WARNING` of the games hit a cap or a limit (their results are a tally, not the
    game's)."""
    by_reason: dict[str, dict] = {}
    natural = capped = limit = failed = 0
    for r in rows:
        if r.get("error"):
            if any(t in r["error"] for t in _LIMIT_ERRORS):
                limit += 1
            else:
                failed += 1
            continue
        reason = r.get("reason") or ""
        cap = bool(r.get("cap"))
        capped += cap
        natural += not cap
        entry = by_reason.setdefault(f"{cap}:{reason}", {"reason": reason or None, "games": 0, "cap": cap})
        entry["games"] += 1
    total = natural + capped + limit
    share = round((capped + limit) / total, 4) if total else 0.0
    out = {"natural": natural, "capped": capped, "engine_limit": limit, "failed": failed,
           "capped_share": share,
           "reasons": sorted(by_reason.values(), key=lambda e: (-e["games"], e["reason"] or ""))}
    if total and (capped + limit) / total > CAP_SHARE_WARNING:
        out["warning"] = (f"{capped + limit} of {total} games ({share:.0%}) did not end by the rules "
                          f"({capped} at a declared cap, {limit} at an engine limit): their scores and "
                          "winners come from the cap, not from the game")
    return out


# ---- fairness: seats and the first player ------------------------------------------------------
def fairness(ok: list[dict], playing: int) -> dict:
    """Two tests a designer reads as "is this game fair?":

    * seats: a chi-square goodness-of-fit test of the wins per seat (shared wins split) against
      equal shares;
    * first player: an exact two-sided binomial test of the games the starting player won outright
      against 1/players (games with a shared win are left out of this test).

    p below 0.05 reads "unlikely to be chance at this sample size"; above, "no evidence either
    way", which with few games is not evidence of fairness."""
    from scipy import stats

    out: dict[str, Any] = {"alpha": 0.05}
    wins = [0.0] * playing
    for r in ok:
        for p in r["winners"]:
            if p < playing:
                wins[p] += 1 / len(r["winners"])
    total = sum(wins)
    if playing >= 2 and total > 0:
        statistic, p = _chisquare(wins, total / playing)
        out["seats"] = {"test": "chi-square goodness of fit, equal shares", "games": len(ok),
                        "wins": [round(w, 3) for w in wins], "statistic": round(statistic, 4),
                        "p_value": round(p, 4), "unfair": p < 0.05}
    outright = [r for r in ok if len(r["winners"]) == 1]
    if playing >= 2 and outright:
        k = sum(1 for r in outright if r["winners"][0] == r["first_player"])
        res = stats.binomtest(k, len(outright), 1 / playing)
        lo, hi = res.proportion_ci(confidence_level=0.95, method="wilson")
        out["first_player"] = {"test": "exact binomial, two-sided, against 1/players", "games": len(outright),
                               "wins": k, "win_rate": round(k / len(outright), 4),
                               "win_rate_ci95": [round(lo, 4), round(hi, 4)], "fair_share": round(1 / playing, 4),
                               "p_value": round(float(res.pvalue), 4), "unfair": float(res.pvalue) < 0.05}
    return out


def _chisquare(observed: list[float], expected: float) -> tuple[float, float]:
    """(statistic, p-value) of `scipy.stats.chisquare(observed, [expected] * len(observed))`, made
    of the same parts (the terms summed by numpy, the p-value `scipy.special.chdtrc`), to the last
    bit, without its checks of its arguments and their array types (0.15 ms a report: 40 times
    the parts' cost)."""
    import numpy as np
    from scipy.special import chdtrc

    obs = np.asarray(observed, dtype=np.float64)
    exp = np.full(len(observed), expected, dtype=np.float64)
    statistic = ((obs - exp) ** 2 / exp).sum()
    return float(statistic), float(chdtrc(np.float64(len(observed) - 1), statistic))


# ---- per-card figures -----------------------------------------------------------------------------
_FIGURES = (("held", "holders"), ("taken", "takers"), ("played", "players"), ("movers", "movers"))
# the figures whose seat lists name each card key once (`MoveTracker._names`: the keys whose flag is
# set, in order); a seat's `held` names a card as often as it holds an identical copy
_DISTINCT = frozenset(("taken", "played", "movers"))
# per figure, the names of its fields in a card's row (`card_stats`), in the row's order
_FIELDS = tuple((what, f"games_{'moved_by' if what == 'movers' else what}", who, f"{who[:-1]}_win_rate",
                 f"{who[:-1]}_win_rate_ci95") for what, who in _FIGURES)


def card_stats(ok: list[dict]) -> dict:
    """Per card identity (cardstats.card_keys): in how many of the games it moved at all, and for
    each figure (held, taken, played, moved by), how many games and seat-games did it, and the win
    rate of those seat-games with its 95% interval (a shared win counts 1/k). `seat_games` is the
    sample size of the win rate."""
    # counted by Counters (in C) over every seat-game's keys and every game's, chained, with no
    # Python loop per seat (a seat's `held` made distinct first: `_DISTINCT`); each card's row is a
    # copy of a row of zeros, filled per figure for the cards that have it; the win shares are
    # added as before (`_win_shares`), so the same floats
    games = len(ok)
    moved = Counter(chain.from_iterable([r.get("moved", ()) for r in ok]))
    figures = []
    for what, _ in _FIGURES:
        lists = [r.get(what) or () for r in ok]
        if what not in _DISTINCT:
            lists = [[*map(set, seats)] for seats in lists]
        seat_games = Counter(chain.from_iterable(chain.from_iterable(lists)))
        game_counts = Counter(chain.from_iterable(map(set, map(chain.from_iterable, lists))))
        figures.append((seat_games, game_counts, _win_shares(ok, lists)))
    blank: dict[str, Any] = {"games": games, "games_moved": 0}
    for _, games_name, who, rate, ci in _FIELDS:
        blank.update({games_name: 0, who: 0, rate: None, ci: None})
    keys = set(moved).union(*(seat_games for seat_games, _, _ in figures))
    out = {key: blank.copy() for key in sorted(keys)}
    for key, n in moved.items():
        out[key]["games_moved"] = n
    intervals: dict[tuple, tuple] = {}  # (wins, seat-games) -> interval: many cards share one
    for (_, games_name, who, rate, ci), (seat_games, game_counts, won) in zip(_FIELDS, figures):
        for key, seats in seat_games.items():
            row = out[key]
            wins = won.get(key, 0.0)
            row[games_name] = game_counts[key]
            row[who] = seats
            row[rate] = round(wins / seats, 4)
            got = intervals.get((wins, seats))
            if got is None:
                got = intervals[(wins, seats)] = tuple(wilson(wins, seats))
            row[ci] = [*got]
    return out


def _win_shares(ok: list[dict], lists: list) -> dict[str, float]:
    """Per card key, the win shares (1/k of a win shared by k) of the seat-games whose `lists`
    (per game, per seat: distinct keys) have it, added in game order: where every share is a power
    of two (a win no one shares, or shared by 2, 4...) the sums are exact whatever the order, and
    are counted by a Counter per share; otherwise added one by one, in game order, as floats."""
    by_share: dict[int, list] = {}
    for r, seats in zip(ok, lists):
        winners = r["winners"]
        if winners and seats:
            keys = by_share.setdefault(len(winners), [])
            keys += chain.from_iterable(seats[w] for w in winners if w < len(seats))
    if all(k & (k - 1) == 0 for k in by_share):
        won: dict[str, float] = {}
        for k, keys in by_share.items():
            share = 1 / k
            for key, n in Counter(keys).items():
                won[key] = won.get(key, 0) + n * share
        return won
    won = {}
    for r, seats in zip(ok, lists):
        winners = r["winners"]
        if winners and seats:
            share = 1 / len(winners)
            for w in winners:
                if w < len(seats):
                    for key in seats[w]:
                        won[key] = won.get(key, 0) + share
    return won


# ---- per-game rows as the report shows them -----------------------------------------------------
def public_rows(rows: list[dict]) -> list[dict]:
    """Per-game rows with players numbered from 1, as everywhere in the report (winners, first
    player; per-seat lists keep their order, seat 1 first)."""
    out = []
    for r in rows:
        r = dict(r)
        if r.get("winners") is not None:
            r["winners"] = [p + 1 for p in r["winners"]]
        if r.get("first_player") is not None:
            r["first_player"] = r["first_player"] + 1
        out.append(r)
    return out
