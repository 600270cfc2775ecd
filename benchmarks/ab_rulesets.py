"""Every reference ruleset at an old commit against the working tree, in one run.

    git worktree add /tmp/old 8ac881e
    python benchmarks/ab_rulesets.py /tmp/old
    python benchmarks/ab_rulesets.py /tmp/old talisman toil_and_troublez   # those cases only

For each case (ruleset, players, games), `simulate` runs in a fresh process of each checkout,
alternating old / new twice, with random agents, per-card statistics on (simulate's default) and
the same seeds; one warm-up game per process is not counted. Prints games per CPU-second of each
side (the better of the two runs) and new/old. CPU time, not wall time: the machine is shared.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASES = [("talisman", 4, 6), ("enchanters", 4, 30), ("enchanters_overlords", 4, 30), ("magical_treehouse", 4, 30),
         ("stonehenge_wizards", 1, 60), ("stonehenge_wizards", 4, 30), ("toil_and_troublez", 4, 100)]


def run(root: Path, ruleset: str, players: int, n: int) -> tuple[float, int, int]:
    """CPU seconds of `n` games (after one warm-up game), games completed, errors."""
    mod = "interpreter.sim.simulate" if (root / "interpreter" / "sim").is_dir() else "interpreter.simulate"
    code = (f"import time; from {mod} import simulate; "
            f"simulate('rulesets/{ruleset}', 1, {players}, 99, ['random']); t = time.process_time(); "
            f"r = simulate('rulesets/{ruleset}', {n}, {players}, 1, ['random']); "
            "print(time.process_time() - t, r['completed'], len(r['errors']))")
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=1800)
    if out.returncode:
        raise SystemExit(f"{root}: {out.stderr[-2000:]}")
    cpu, done, errors = out.stdout.split()
    return float(cpu), int(done), int(errors)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old", type=Path, help="a checkout of the old commit (e.g. a git worktree)")
    ap.add_argument("rulesets", nargs="*", help="only the cases of these rulesets (default: every case)")
    args = ap.parse_args()
    print("| ruleset | players | games | old games/CPU-s | new games/CPU-s | new/old |")
    print("|---|---|---|---|---|---|")
    for ruleset, players, n in CASES:
        if args.rulesets and ruleset not in args.rulesets:
            continue
        runs: dict[str, list] = {"old": [], "new": []}
        for _ in range(2):
            for side, root in (("old", args.old), ("new", ROOT)):
                runs[side].append(run(root, ruleset, players, n))
        old, new = (min(r[0] for r in runs[s]) for s in ("old", "new"))
        print(f"| {ruleset} | {players} | {n} | {n / old:.2f} | {n / new:.2f} | {old / new:.2f}× |", flush=True)


if __name__ == "__main__":
    main()
