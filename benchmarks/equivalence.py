"""Do the interpreter and the hand-coded reference play the same game? Compare, over many seeded
random games of each, the mean final score, mean game length, mean decisions and each seat's
win rate; every difference must lie within statistical error (|z| < 4 by default).

    python benchmarks/equivalence.py -n 20000 --players 4 --workers 2

The two use different random streams, so single games differ; only the distributions must agree.
"""
from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks" / "reference"))

from interpreter.sim.simulate import run_chunk, simulate  # noqa: E402,F401
import toil_and_troublez as reference  # noqa: E402


def _z(a: list[float], b: list[float]) -> float:
    se = math.sqrt(statistics.pvariance(a) / len(a) + statistics.pvariance(b) / len(b))
    return (statistics.fmean(a) - statistics.fmean(b)) / se if se else 0.0


def _chunk(job: tuple) -> list[dict]:
    """One chunk of interpreter games (a worker process's share), as `grimoire simulate` plays them."""
    path, players, seed, indices = job
    return run_chunk(path, players, seed, ["random"], card_stats=False, indices=indices)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=20000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--max-z", type=float, default=4.0)
    args = ap.parse_args()

    ref = [reference.Game(args.players, args.seed * 1_000_003 + i, f"{args.seed}/{i}").play() for i in range(args.n)]
    from concurrent.futures import ProcessPoolExecutor
    chunks = [list(range(i, min(args.n, i + 250))) for i in range(0, args.n, 250)]
    path = str(ROOT / "rulesets" / "toil_and_troublez")
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        rows = [r for part in pool.map(_chunk, [(path, args.players, args.seed + 1, c) for c in chunks])
                for r in part]
    bad = [r for r in rows if r["error"]]
    ok = [r for r in rows if not r["error"]]
    measures = {
        "mean score": ([s for g in ref for s in g["scores"]], [s for r in ok for s in r["scores"]]),
        "mean turns": ([g["turns"] for g in ref], [r["turns"] for r in ok]),
        "mean decisions": ([g["decisions"] for g in ref], [r["decisions"] for r in ok]),
    }
    for seat in range(args.players):
        measures[f"seat {seat + 1} win rate"] = (
            [sum(1 / len(g["winners"]) for w in g["winners"] if w == seat) for g in ref],
            [sum(1 / len(r["winners"]) for w in r["winners"] if w == seat) for r in ok])
    report, passed = {}, not bad
    for name, (a, b) in measures.items():
        z = _z(a, b)
        report[name] = {"reference": round(statistics.fmean(a), 4), "interpreter": round(statistics.fmean(b), 4),
                        "z": round(z, 2)}
        passed &= abs(z) < args.max_z
    print(json.dumps({"games": args.n, "players": args.players, "interpreter_errors": len(bad),
                      "measures": report, "pass": passed}, indent=2))
    return 0 if passed else 1


if __name__ == "__main__":
    raise SystemExit(main())
