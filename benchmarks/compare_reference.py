"""Interpreter vs hand-coded reference on Toil and Troublez, measured in one run.

    python benchmarks/compare_reference.py -n 300 --players 4

Prints games/s of both (one process each, random agents) and their ratio, plus mean score,
turns and decisions per game of both so that a rules mismatch shows up as a gap.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks" / "reference"))

from interpreter.simulate import simulate  # noqa: E402
import toil_and_troublez as reference  # noqa: E402


def compare(n: int, players: int = 4, seed: int = 0) -> dict:
    """Play `n` seeded random games with the reference, then with the interpreter (one worker, the
    ruleset loaded and compiled beforehand, per-card tracking off: the engine's own speed)."""
    t = time.perf_counter()
    ref = [reference.Game(players, seed * 1_000_003 + i, f"{seed}/{i}").play() for i in range(n)]
    ref_s = time.perf_counter() - t

    ruleset = str(ROOT / "rulesets" / "toil_and_troublez")
    simulate(ruleset, 1, players, seed, ["random"], card_stats=False)  # warm: load+compile
    t = time.perf_counter()
    rep = simulate(ruleset, n, players, seed, ["random"], card_stats=False)
    int_s = time.perf_counter() - t
    return {
        "games": n, "players": players,
        "reference_games_per_s": round(n / ref_s, 1),
        "interpreter_games_per_s": round(n / int_s, 1),
        "slowdown": round(int_s / ref_s, 2),
        "reference": {"mean_score": round(statistics.fmean(s for r in ref for s in r["scores"]), 2),
                      "mean_turns": round(statistics.fmean(r["turns"] for r in ref), 2),
                      "mean_decisions": round(statistics.fmean(r["decisions"] for r in ref), 2)},
        "interpreter": {"mean_score": rep["score"]["mean"], "mean_turns": rep["turns"]["mean"],
                        "mean_decisions": rep["decisions"]["mean"]},
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=300)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    print(json.dumps(compare(args.n, args.players, args.seed), indent=2))


if __name__ == "__main__":
    main()
