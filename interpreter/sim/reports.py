"""The statistics of a simulation report: how games ended, per-card figures with their sample sizes
and intervals, and tests of seat fairness and of the first player's advantage (scipy.stats).

Rows are the per-game rows of `simulate._play_one` (seats numbered from 0 there); what this module
returns is report data, with players numbered from 1.
"""
from __future__ import annotations

import math
from collections import Counter
from typing import Any

__all__ = ["SCHEMA_VERSION", "CAP_SHARE_WARNING", "endings", "card_stats", "fairness", "wilson",
           "public_rows"]

SCHEMA_VERSION = 2  # 2: players from 1 in per-game rows, `endings`, `fairness`, cards by identity with intervals
CAP_SHARE_WARNING = 0.05  # the summary warns when more than this share of games did not end by the rules

_LIMIT_ERRORS = ("did not end within", "does not seem to end")  # engine limits on turns and decisions


def wilson(wins: float, n: int, z: float = 1.959963984540054) -> list[float]:
    """The 95% Wilson score interval of a proportion (the same as scipy's
    `binomtest(k, n).proportion_ci(method="wilson")` for whole k; here k may be fractional, since
    a win shared by k players counts 1/k)."""
    if n == 0:
        return [0.0, 0.0]
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(p * (1 - p), 0.0) / n + z * z / (4 * n * n)) / denom
    return [round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4)]


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
        res = stats.chisquare(wins, [total / playing] * playing)
        p = float(res.pvalue)
        out["seats"] = {"test": "chi-square goodness of fit, equal shares", "games": len(ok),
                        "wins": [round(w, 3) for w in wins], "statistic": round(float(res.statistic), 4),
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


# ---- per-card figures -----------------------------------------------------------------------------
_FIGURES = (("held", "holders"), ("taken", "takers"), ("played", "players"), ("movers", "movers"))


def card_stats(ok: list[dict]) -> dict:
    """Per card identity (cardstats.card_keys): in how many of the games it moved at all, and for
    each figure (held, taken, played, moved by), how many games and seat-games did it, and the win
    rate of those seat-games with its 95% interval (a shared win counts 1/k). `seat_games` is the
    sample size of the win rate."""
    # counted with one Counter (in C) per figure over all the seats' keys gathered in a list, not an
    # update per seat and game (each a Python call); a win share is added per key in game and seat
    # order as before, so the sums are the same floats
    tally: dict[str, dict[str, float]] = {}
    for key, n in Counter(key for r in ok for key in r.get("moved", ())).items():
        tally[key] = {"games_moved": n}
    for what, _ in _FIGURES:
        per_seat: list[str] = []
        per_game: list[str] = []
        won: dict[str, float] = {}
        for r in ok:
            winners = r["winners"]
            share = 1 / len(winners) if winners else 0.0
            seen: set[str] = set()
            for seat, keys in enumerate(r.get(what, [])):
                keys = set(keys)
                per_seat += keys
                seen |= keys
                if seat in winners:
                    for key in keys:
                        won[key] = won.get(key, 0) + share
            per_game += seen
        seat_games, games = Counter(per_seat), Counter(per_game)
        for key, n in seat_games.items():
            t = tally.setdefault(key, {})
            t[what] = n
            t["games_" + what] = games[key]
            if key in won:
                t[what + "_wins"] = won[key]
    out: dict[str, dict] = {}
    for key in sorted(tally):
        t = tally[key]
        row: dict[str, Any] = {"games": len(ok), "games_moved": int(t.get("games_moved", 0))}
        for what, who in _FIGURES:
            seats = int(t.get(what, 0))
            wins = t.get(what + "_wins", 0.0)
            name = "moved_by" if what == "movers" else what
            row[f"games_{name}"] = int(t.get("games_" + what, 0))
            row[f"{who}"] = seats
            row[f"{who[:-1]}_win_rate"] = round(wins / seats, 4) if seats else None
            row[f"{who[:-1]}_win_rate_ci95"] = wilson(wins, seats) if seats else None
        out[key] = row
    return out


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
