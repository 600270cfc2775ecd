"""CPU seconds to make a copyable game (resumable direct code) of each shipped ruleset: compiling
the direct module, making its copyable form as a copyable game does (`compile_resumable`), the
first decision of a copyable game, and — where the checkout has it — lowering the whole module
at once (`lower_whole`). Each ruleset in a fresh process, so nothing is cached.

    python benchmarks/lowering_cost.py                    # this checkout
    python benchmarks/lowering_cost.py --old /tmp/old     # and another checkout, side by side

CPU time (`time.process_time`) of the measuring process, so other work on the machine adds
little; docs/compilation.md ("Resumable direct code") keeps the figures.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULESETS = ["tutorial_fireflies", "toil_and_troublez", "stonehenge_wizards", "magical_treehouse", "enchanters",
            "enchanters_overlords", "enchanters_wounds", "enchanters_kingdoms", "enchanters_odyssey", "talisman"]

CHILD = r"""
import copy, json, sys, time
from interpreter.api import load_program
from interpreter.engine.direct import Unsupported, compile_direct
from interpreter.engine import resumablegame as rg
out = {}
p = load_program(sys.argv[1])
t = time.process_time()
try:
    dp = compile_direct(p)
except Unsupported:
    print(json.dumps(None)); sys.exit()
out["kb"] = len(dp.source) // 1000
out["direct"] = time.process_time() - t
rg._flow()
fresh = copy.copy(dp)
t = time.process_time()
rg.compile_resumable(dp)
out["copyable"] = time.process_time() - t
t = time.process_time()
rg.ResumableGame(dp, p.rs.min_players, 1)
out["first_decision"] = time.process_time() - t
if hasattr(rg, "lower_whole"):
    fresh.__dict__.pop("_resumable", None)
    t = time.process_time()
    rg.lower_whole(fresh)
    out["whole"] = time.process_time() - t
print(json.dumps(out))
"""


def measure(checkout: Path, ruleset: str) -> dict | None:
    env = dict(os.environ, PYTHONPATH=str(checkout))
    done = subprocess.run([sys.executable, "-c", CHILD, str(ROOT / "rulesets" / ruleset)], env=env, cwd=checkout,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--old", type=Path, help="another checkout (e.g. a git worktree of an older commit)")
    ap.add_argument("rulesets", nargs="*", default=RULESETS, help="ruleset folder names (default: all shipped)")
    args = ap.parse_args()
    print("| ruleset | module KB | compile_direct s | " + ("old copyable form s | " if args.old else "")
          + "whole-module lowering s | copyable form s | first decision s |")
    print("|---|---|---|" + ("---|" if args.old else "") + "---|---|---|")
    for rs in args.rulesets:
        new = measure(ROOT, rs)
        if new is None:
            print(f"| {rs} | does not compile to direct code |")
            continue
        old = measure(args.old, rs) if args.old else None
        cells = [rs, str(new["kb"]), f"{new['direct']:.2f}"]
        if args.old:
            cells.append(f"{old['copyable']:.2f}" if old else "-")
        cells += [f"{new.get('whole', float('nan')):.2f}", f"{new['copyable']:.2f}", f"{new['first_decision']:.2f}"]
        print("| " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
