"""Interpreter vs hand-coded reference on Toil and Troublez, measured in one run.

    python benchmarks/compare_reference.py -n 2000 --players 4

Both play `n` random-agent games in one process, one worker, taking turns in chunks of
`--chunk` games (reference chunk, interpreter chunk, reference chunk...), so that a machine whose
speed drifts (a shared virtual machine) slows both alike. Each side's time is the sum of its
chunks, by CPU time (`time.process_time`) and by wall time; the ratio is interpreter time over
reference time. The interpreter side is `simulate` itself (what `grimoire simulate` runs),
per-card statistics off: the engine's own speed. Prints mean score, turns and decisions per
game of both, so a rules mismatch shows up as a gap (benchmarks/equivalence.py tests that
properly, over 20,000 games).
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

from interpreter.sim.simulate import simulate  # noqa: E402
import toil_and_troublez as reference  # noqa: E402


def compare(n: int, players: int = 4, seed: int = 0, chunk: int = 50, card_stats: bool = False) -> dict:
    """Play `n` seeded random games with each, in alternating chunks; see the module docstring."""
    ruleset = str(ROOT / "rulesets" / "toil_and_troublez")
    simulate(ruleset, 5, players, seed, ["random"], card_stats=card_stats)  # load and compile
    ref_rows: list[dict] = []
    scores, turns, decisions = [], [], []
    cpu = {"reference": 0.0, "interpreter": 0.0}
    wall = {"reference": 0.0, "interpreter": 0.0}
    chunk_ratios = []
    for k, start in enumerate(range(0, n, chunk)):
        size = min(chunk, n - start)
        c, w = time.process_time(), time.perf_counter()
        ref_rows += [reference.Game(players, seed * 1_000_003 + i, f"{seed}/{i}").play()
                     for i in range(start, start + size)]
        rc, rw = time.process_time() - c, time.perf_counter() - w
        c, w = time.process_time(), time.perf_counter()
        rep = simulate(ruleset, size, players, seed * 1_000_003 + k, ["random"], card_stats=card_stats,
                       per_game=True)
        ic, iw = time.process_time() - c, time.perf_counter() - w
        cpu["reference"] += rc
        cpu["interpreter"] += ic
        wall["reference"] += rw
        wall["interpreter"] += iw
        chunk_ratios.append(ic / rc)
        ok = [r for r in rep["per_game"] if not r["error"]]
        scores += [s for r in ok for s in r["scores"]]
        turns += [r["turns"] for r in ok]
        decisions += [r["decisions"] for r in ok]
    return {
        "games": n, "players": players, "chunk": chunk, "card_stats": card_stats,
        "reference_games_per_cpu_s": round(n / cpu["reference"], 1),
        "interpreter_games_per_cpu_s": round(n / cpu["interpreter"], 1),
        "slowdown": round(cpu["interpreter"] / cpu["reference"], 2),
        "slowdown_wall": round(wall["interpreter"] / wall["reference"], 2),
        "slowdown_median_chunk": round(statistics.median(chunk_ratios), 2),
        "reference_games_per_s": round(n / wall["reference"], 1),
        "interpreter_games_per_s": round(n / wall["interpreter"], 1),
        "reference": {"mean_score": round(statistics.fmean(s for r in ref_rows for s in r["scores"]), 2),
                      "mean_turns": round(statistics.fmean(r["turns"] for r in ref_rows), 2),
                      "mean_decisions": round(statistics.fmean(r["decisions"] for r in ref_rows), 2)},
        "interpreter": {"mean_score": round(statistics.fmean(scores), 2), "mean_turns": round(statistics.fmean(turns), 2),
                        "mean_decisions": round(statistics.fmean(decisions), 2)},
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=1000, help="games of each side (default 1000)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--chunk", type=int, default=50, help="games per turn of each side (default 50)")
    ap.add_argument("--card-stats", action="store_true", help="with per-card statistics (as simulate's default)")
    args = ap.parse_args()
    print(json.dumps(compare(args.n, args.players, args.seed, args.chunk, args.card_stats), indent=2))


if __name__ == "__main__":
    main()
