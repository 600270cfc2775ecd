"""Batches of games for designers: win rates by seat, score and length distributions, errors.

Each game's seed comes from (master seed, game index), so results are the same whatever
the number of workers. Workers run *chunks* of games (a task per game costs more than it saves).
"""
from __future__ import annotations

import math
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Callable, Sequence

from .api import load_program
from .engine import Limits
from .session import agents_for, game_seed, play

__all__ = ["simulate", "summarize", "run_chunk"]


def run_chunk(ruleset: str, players: int, master_seed: int, indices: Sequence[int], agents: Sequence[str],
              max_steps: int | None = None, max_turns: int | None = None, max_depth: int | None = None,
              max_decisions: int | None = None) -> list[dict]:
    """Play games `indices` of a batch; picklable entry point for worker processes.
    A limit given as None (or 0) keeps its default (see `engine.Limits`)."""
    program = load_program(ruleset)
    limits = Limits()
    for name, value in (("max_steps", max_steps), ("max_turns", max_turns), ("max_depth", max_depth),
                        ("max_decisions", max_decisions)):
        if value:
            setattr(limits, name, value)
    out = []
    for i in indices:
        seed = game_seed(master_seed, i)
        rec = play(program, players, seed, agents_for(agents, players, seed), limits=limits)
        row = {"index": i, "seed": seed, "error": rec.error, "decisions": len(rec.choices), "steps": rec.steps}
        if rec.result:
            row.update(scores=rec.result["scores"], winners=rec.result["winners"], turns=rec.result["turns"],
                       rounds=rec.result["rounds"], first_player=rec.result["first_player"], held=rec.held)
        if rec.error:  # keep what is needed to replay the failing game
            row["choices"] = rec.choices
        out.append(row)
    return out


def simulate(ruleset: str, n: int, players: int, seed: int, agents: Sequence[str], workers: int = 1,
             progress: Callable[[int], None] | None = None, **limits) -> dict:
    """Play `n` games and return the report (see `summarize`)."""
    start = time.perf_counter()
    load_program(ruleset)  # fail early, in this process, on bad content
    chunk = max(1, min(200, n // (workers * 8) or 1))
    batches = [list(range(i, min(n, i + chunk))) for i in range(0, n, chunk)]
    rows: list[dict] = []
    if workers <= 1:
        for b in batches:
            rows += run_chunk(ruleset, players, seed, b, agents, **limits)
            if progress:
                progress(len(b))
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(run_chunk, ruleset, players, seed, b, agents, **limits) for b in batches]
            for f in futures:
                part = f.result()
                rows += part
                if progress:
                    progress(len(part))
    rows.sort(key=lambda r: r["index"])
    elapsed = time.perf_counter() - start
    report = summarize(rows, players)
    report.update(ruleset=ruleset, players=players, seed=seed, agents=list(agents), games=n)
    report["timing"] = {"seconds": round(elapsed, 3), "games_per_second": round(n / elapsed, 1) if elapsed else None,
                        "workers": workers}
    return report


def _dist(values: list[float]) -> dict:
    if not values:
        return {}
    values = sorted(values)
    q = lambda p: values[min(len(values) - 1, int(p * len(values)))]  # noqa: E731
    return {"mean": round(statistics.fmean(values), 3), "stdev": round(statistics.pstdev(values), 3),
            "min": values[0], "p10": q(0.1), "median": q(0.5), "p90": q(0.9), "max": values[-1]}


def _wilson(wins: float, n: int, z: float = 1.96) -> list[float]:
    if n == 0:
        return [0.0, 0.0]
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return [round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4)]


def summarize(rows: list[dict], players: int) -> dict:
    ok = [r for r in rows if not r["error"]]
    playing = players
    players = max([players] + [len(r["scores"]) for r in ok])  # dummy players have seats after the players
    wins = [0.0] * players
    outright = [0] * players
    shared = 0
    for r in ok:
        w = r["winners"]
        if len(w) > 1:
            shared += 1
        for p in w:
            wins[p] += 1 / len(w)
            if len(w) == 1:
                outright[p] += 1
    n = len(ok)
    seats = [{"seat": p + 1, "wins": round(wins[p], 3), "outright_wins": outright[p],
              "win_rate": round(wins[p] / n, 4) if n else 0.0, "win_rate_ci95": _wilson(wins[p], n),
              "score": _dist([r["scores"][p] for r in ok if p < len(r["scores"])]),
              **({"dummy": True} if p >= playing else {})} for p in range(players)]
    return {
        "completed": n,
        "errors": [{"index": r["index"], "seed": r["seed"], "error": r["error"], "choices": r.get("choices")}
                   for r in rows if r["error"]],
        "seats": seats,
        "shared_wins": shared,
        "score": _dist([s for r in ok for s in r["scores"][:playing]]),
        "winning_score": _dist([max(r["scores"]) for r in ok]),
        "turns": _dist([r["turns"] for r in ok]),
        "rounds": _dist([r["rounds"] for r in ok]),
        "decisions": _dist([r["decisions"] for r in rows]),
        "decisions_per_turn": _dist([round(r["decisions"] / r["turns"], 3) for r in ok if r["turns"]]),
        "first_player": _first_player(ok, playing),
        "cards": _card_stats(ok),
    }


def _first_player(ok: list[dict], playing: int) -> dict:
    """How the player who started the game fared, against a fair share of 1/players."""
    wins = sum(1 / len(r["winners"]) for r in ok if r["first_player"] in r["winners"])
    n = len(ok)
    return {"win_rate": round(wins / n, 4) if n else 0.0, "win_rate_ci95": _wilson(wins, n),
            "fair_share": round(1 / playing, 4)}


def _card_stats(ok: list[dict]) -> dict:
    """Per card name: in how many games some seat ended holding it, and how often a holder won."""
    held_games: dict[str, int] = {}
    holder_wins: dict[str, float] = {}
    holders: dict[str, int] = {}
    for r in ok:
        seen: set[str] = set()
        for seat, names in enumerate(r.get("held", [])):
            for name in set(names):
                holders[name] = holders.get(name, 0) + 1
                if seat in r["winners"]:
                    holder_wins[name] = holder_wins.get(name, 0) + 1 / len(r["winners"])
                seen.add(name)
        for name in seen:
            held_games[name] = held_games.get(name, 0) + 1
    return {name: {"games_held": held_games[name], "holders": holders[name],
                   "holder_win_rate": round(holder_wins.get(name, 0) / holders[name], 4)}
            for name in sorted(held_games)}
