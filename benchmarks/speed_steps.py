"""Interpreter-vs-reference ratio of several commits, measured in one run, for the record of
what each speed step gained (docs/performance.md, "Interpreter speed").

    python benchmarks/speed_steps.py -n 10 --reps 8 c5030c9 HEAD

Each commit is exported (`git archive`) to a temporary folder and measured in its own process
with the same games: the hand-coded reference and `simulate` (one worker, random agents, 4
players), both timed with CPU time (`time.process_time`) as well as wall time, because on a
shared, loaded machine CPU time is the steadier of the two. Prints one JSON line per commit.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

MEASURE = r'''
import json, sys, time
sys.path.insert(0, "benchmarks/reference"); sys.path.insert(0, ".")
import toil_and_troublez as reference
from interpreter.sim.simulate import simulate
n, players, reps = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
simulate("rulesets/toil_and_troublez", 1, players, 0, ["random"])  # load and compile once
best = {}
for _ in range(reps):  # alternate short runs of both; keep each one's fastest (least disturbed) run
    for name, run in (("reference", lambda: [reference.Game(players, i, f"0/{i}").play() for i in range(n)]),
                      ("interpreter", lambda: simulate("rulesets/toil_and_troublez", n, players, 0, ["random"]))):
        c, w = time.process_time(), time.perf_counter()
        run()
        c, w = time.process_time() - c, time.perf_counter() - w
        old = best.get(name, (1e9, 1e9))
        best[name] = (min(old[0], c), min(old[1], w))
print(json.dumps({"cpu_ratio": round(best["interpreter"][0] / best["reference"][0], 2),
                  "wall_ratio": round(best["interpreter"][1] / best["reference"][1], 2),
                  "interpreter_games_per_cpu_s": round(n / best["interpreter"][0], 1),
                  "reference_games_per_cpu_s": round(n / best["reference"][0], 1)}))
'''


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("commits", nargs="+")
    ap.add_argument("-n", type=int, default=10)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--reps", type=int, default=8)
    args = ap.parse_args()
    for commit in args.commits:
        with tempfile.TemporaryDirectory() as tmp:
            archive = subprocess.run(["git", "archive", commit], cwd=ROOT, check=True, capture_output=True).stdout
            subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
            ref = Path(tmp) / "benchmarks" / "reference"
            if not ref.exists():  # older commits: measure with this checkout's reference
                subprocess.run(["cp", "-r", str(ROOT / "benchmarks" / "reference"), str(ref)], check=True)
            out = subprocess.run([sys.executable, "-c", MEASURE, str(args.n), str(args.players), str(args.reps)],
                                 cwd=tmp, check=True, capture_output=True, text=True).stdout
            print(json.dumps({"commit": commit, **json.loads(out)}), flush=True)


if __name__ == "__main__":
    main()
