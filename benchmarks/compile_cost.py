"""CPU seconds to compile a big ruleset to generated code, stage by stage, in the three forms a
game may need (issue 16): loading it, `compile_direct` (the plain module; of it, the token check
`_check_direct_source` and Python's `compile()` are timed again on their own), `compile_observed`
(the form scenarios and sessions run), `compile_resumable` of that form (the copyable one), and
the first decision of a copyable game on it — what every scenario process of a Talisman mod pays
once. Each ruleset in a fresh process, so nothing is cached.

    python benchmarks/compile_cost.py                          # this checkout
    python benchmarks/compile_cost.py --old 116bb27            # and that commit, side by side
    python benchmarks/compile_cost.py talisman talisman_reaper # these rulesets only

`--old COMMIT` checks the commit out in a temporary git worktree (removed afterwards) and
measures it the same way. CPU time (`time.process_time`) of the measuring process, so other
work on the machine adds little; docs/performance.md ("Compiling a big ruleset") keeps figures.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULESETS = ["talisman", "talisman_reaper", "talisman_deeprealms"]
STAGES = ["load", "compile_direct", "token_check", "python_compile", "compile_observed", "compile_resumable",
          "first_decision"]

CHILD = r"""
import json, sys, time
from interpreter.api import load_program
from interpreter.engine import direct
from interpreter.engine.directgame import GEN_FILE
from interpreter.engine.directobserved import compile_observed
from interpreter.engine import resumablegame as rg
out = {}
def timed(name, f):
    t = time.process_time()
    got = f()
    out[name] = time.process_time() - t
    return got
p = timed("load", lambda: load_program(sys.argv[1]))
dp = timed("compile_direct", lambda: direct.compile_direct(p))
out["kb"] = len(dp.source) // 1000
timed("token_check", lambda: direct._check_direct_source(dp.source))
timed("python_compile", lambda: compile(dp.source, GEN_FILE, "exec"))
ob = timed("compile_observed", lambda: compile_observed(dp))
timed("compile_resumable", lambda: rg.compile_resumable(ob))
timed("first_decision", lambda: rg.ResumableGame(ob, p.rs.min_players, 1))
print(json.dumps(out))
"""


def measure(checkout: Path, ruleset: str) -> dict:
    """The stage times of `ruleset` compiled by the code of `checkout`, in a fresh process."""
    env = dict(os.environ, PYTHONPATH=str(checkout))
    done = subprocess.run([sys.executable, "-c", CHILD, str(ROOT / "rulesets" / ruleset)], env=env, cwd=checkout,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def table(rows: list[tuple[str, str, dict]]) -> str:
    """A markdown table: one row per (ruleset, checkout), a column per stage and the sum of the
    stages a scenario process pays (the two timed again inside compile_direct left out)."""
    head = "| ruleset | code | module KB | " + " | ".join(s + " s" for s in STAGES) + " | total s |"
    lines = [head, "|" + "---|" * (len(STAGES) + 4)]
    for rs, code, m in rows:
        total = sum(m[s] for s in STAGES if s not in ("token_check", "python_compile"))
        lines.append(f"| {rs} | {code} | {m['kb']} | " + " | ".join(f"{m[s]:.2f}" for s in STAGES)
                     + f" | {total:.2f} |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--old", metavar="COMMIT", help="also measure this commit (checked out in a temporary worktree)")
    ap.add_argument("rulesets", nargs="*", default=RULESETS, help=f"ruleset folder names (default: {' '.join(RULESETS)})")
    args = ap.parse_args()
    rows: list[tuple[str, str, dict]] = []
    with tempfile.TemporaryDirectory() as tmp:
        old = Path(tmp) / "old"
        if args.old:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(old), args.old], check=True)
        try:
            for rs in args.rulesets:
                if args.old:
                    rows.append((rs, args.old, measure(old, rs)))
                rows.append((rs, "this checkout", measure(ROOT, rs)))
                print(f"{rs}: done", file=sys.stderr, flush=True)
        finally:
            if args.old:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(old)], check=True)
    print(table(rows))
    if args.old:
        for rs in args.rulesets:
            before, after = (next(m for r, c, m in rows if r == rs and (c == "this checkout") == now)
                             for now in (False, True))
            tot = [sum(m[s] for s in STAGES if s not in ("token_check", "python_compile")) for m in (before, after)]
            print(f"{rs}: {tot[0]:.1f} s -> {tot[1]:.1f} s ({tot[0] / tot[1]:.1f}x)")


if __name__ == "__main__":
    main()
