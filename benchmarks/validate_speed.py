"""CPU time of `grimoire validate rulesets/*` from a cold start, against a baseline commit, in one run.

    python benchmarks/validate_speed.py                 # baseline 36496f9, 7 rounds
    python benchmarks/validate_speed.py --baseline HEAD~3 -n 11
    python benchmarks/validate_speed.py --games         # only the seven games' folders of issue 16

Each round runs, for the baseline and for the working tree (alternating which goes first):
  1. the command itself, `python -m interpreter validate <every shipped ruleset>`, in a fresh
     process; its CPU time (user + sys of the child, `getrusage(RUSAGE_CHILDREN)`) is the headline;
  2. the same validation in another fresh process with timers around the stages, for the split:
     import, rule parsing (.rules files), YAML loading (card files), card validation (pydantic),
     effect parsing (`effect:` texts), checking, and the rest (building the ruleset, sorting, printing).
Nothing of ours is cached between processes: the API's in-process caches start empty each time.
Python's own .pyc files and Lark's grammar cache (the built parser tables, a file per grammar in a
temporary XDG_CACHE_HOME per version, warmed once before timing) are kept: they hold no content.
  3. the command once more with an empty XDG_CACHE_HOME, so Lark builds the parser tables from the
     grammar (a first run after installing, or after the grammar changed): "no grammar cache".
The baseline's `interpreter/` and `grammar/` are exported with `git archive`; both versions
validate the working tree's rulesets and cards. Medians over the rounds; the machine is shared, so
only the ratio of figures taken side by side means much.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Runs in the child, in the version's folder: time each stage by wrapping the functions that do it.
SPLIT = r"""
import json, sys, time
t0 = time.process_time()
import interpreter.cli
try:  # what `validate` imports: check_path moved to the analysis stage (no compiler); older trees have it in api
    import interpreter.analysis.validate as where
except ImportError:
    import interpreter.api as where
import interpreter.content.loader as loader, interpreter.content.model as model
t1 = time.process_time()
acc = {}
def wrap(mod, name, key):
    f = getattr(mod, name, None)
    if f is None:
        return
    def timed(*a, **k):
        s = time.process_time()
        try:
            return f(*a, **k)
        finally:
            acc[key] = acc.get(key, 0.0) + time.process_time() - s
    setattr(mod, name, timed)
wrap(loader, "_load_rules", "rules")
wrap(loader, "_load_cards_raw", "yaml")
wrap(loader, "_parse_card_effect", "effects")
wrap(model, "validate_cards", "cards")
wrap(where, "check", "check")
for p in sys.argv[1:]:
    where.check_path(p)
t2 = time.process_time()
acc["cards"] = acc.get("cards", 0.0) - acc.get("effects", 0.0)
acc["import"] = t1 - t0
acc["rest"] = (t2 - t1) - sum(v for k, v in acc.items() if k != "import")
print(json.dumps(acc))
"""
STAGES = ["import", "rules", "yaml", "cards", "effects", "check", "rest"]
# the folders of issue 16's target ("under 0.6 s of CPU"): the seven games, without their mods
GAMES = ("toil_and_troublez", "stonehenge_wizards", "magical_treehouse", "enchanters", "enchanters_overlords",
         "talisman", "tutorial_fireflies")


def _child_cpu(cmd: list[str], cwd: Path, env: dict) -> tuple[float, str]:
    """Run one fresh process; its user+sys CPU seconds and its stdout."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if out.returncode not in (0, 1):  # 1: the rulesets have errors, still a full validation
        raise SystemExit(f"{' '.join(cmd)} failed in {cwd}:\n{out.stderr[-2000:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), out.stdout


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", default="36496f9", help="commit to compare with (default 36496f9, before this work)")
    ap.add_argument("-n", type=int, default=7, help="rounds (default 7)")
    ap.add_argument("--json", help="also write the figures to this file")
    ap.add_argument("--games", action="store_true",
                    help=f"validate only the seven games' folders the issue's target names ({', '.join(GAMES)}), "
                         "not every folder under rulesets/ (the games and their mods)")
    args = ap.parse_args()
    rulesets = sorted(str(p) for p in (ROOT / "rulesets").iterdir() if p.is_dir() and (not args.games or p.name in GAMES))
    tmp = Path(tempfile.mkdtemp(prefix="validate-speed-"))
    try:
        base = tmp / "baseline"
        base.mkdir()
        archive = subprocess.run(["git", "archive", args.baseline, "interpreter", "grammar"], cwd=ROOT, check=True,
                                 capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(base)], input=archive, check=True)
        versions = {"baseline": base, "new": ROOT}
        envs = {}
        for name, where in versions.items():
            env = dict(os.environ, PYTHONPATH=str(where), XDG_CACHE_HOME=str(tmp / f"cache-{name}"))
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            envs[name] = env
            _child_cpu([sys.executable, "-m", "interpreter", "validate", *rulesets], where, env)  # .pyc, grammar
        totals: dict[str, list[float]] = {v: [] for v in versions}
        cold: dict[str, list[float]] = {v: [] for v in versions}
        splits: dict[str, list[dict]] = {v: [] for v in versions}
        for r in range(args.n):
            for name in (list(versions) if r % 2 == 0 else list(versions)[::-1]):
                where, env = versions[name], envs[name]
                cpu, _ = _child_cpu([sys.executable, "-m", "interpreter", "validate", *rulesets], where, env)
                totals[name].append(cpu)
                empty = tmp / f"empty-{name}-{r}"  # no grammar tables either: Lark builds them from the grammar
                cpu, _ = _child_cpu([sys.executable, "-m", "interpreter", "validate", *rulesets], where,
                                    dict(env, XDG_CACHE_HOME=str(empty)))
                cold[name].append(cpu)
                shutil.rmtree(empty, ignore_errors=True)
                _, out = _child_cpu([sys.executable, "-c", SPLIT, *rulesets], where, env)
                splits[name].append(json.loads(out.strip().splitlines()[-1]))
        med = {v: statistics.median(t) for v, t in totals.items()}
        split = {v: {s: statistics.median(d.get(s, 0.0) for d in splits[v]) for s in STAGES} for v in versions}
        print(f"grimoire validate rulesets/* ({len(rulesets)} rulesets), CPU seconds (user+sys), "
              f"median of {args.n} fresh processes each")
        med_cold = {v: statistics.median(t) for v, t in cold.items()}
        print(f"{'':20} {'total':>7}  " + " ".join(f"{s:>7}" for s in STAGES) + f"  {'no grammar cache':>16}")
        for v in versions:
            label = f"{v} ({args.baseline})" if v == "baseline" else v
            print(f"{label:20} {med[v]:7.3f}  " + " ".join(f"{split[v][s]:7.3f}" for s in STAGES)
                  + f"  {med_cold[v]:16.3f}")
        print(f"ratio baseline/new: {med['baseline'] / med['new']:.2f}x  "
              f"(per round: {', '.join(f'{b / n:.2f}' for b, n in zip(totals['baseline'], totals['new']))})")
        if args.json:
            Path(args.json).write_text(json.dumps({"baseline": args.baseline, "rounds": args.n, "total": totals,
                                                   "median": med, "split": split, "no_grammar_cache": cold,
                                                   "median_no_grammar_cache": med_cold}, indent=2))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
