"""A/B of the interpreter at a commit against the working tree, in one process.

    python benchmarks/ab_commits.py HEAD~1 --reps 60 -n 10

The commit's `interpreter/` and `grammar/` are exported (`git archive`) as a package named
`interpreterA`, so both versions load side by side; then `simulate` (Toil and Troublez, 4 players,
random agents, per-card statistics off) runs in paired batches of `n` games, A then B, each
batch on fresh seeds, timed by CPU time (`--card-stats`: with per-card statistics, simulate's default). Prints the median and quartiles of the per-batch ratios
B/A (below 1: the working tree is faster). Pairs taken close together see the same machine speed,
which on a shared virtual machine drifts by ±25% within seconds. Calibration: `HEAD` against an
unchanged tree measured 0.95-0.97 here, so a difference under about 5% is not a finding.

Both sides play the working tree's rule files, so a rule file written to do less work shows no
change; `--own-rules`: side A plays the ruleset as the commit wrote it (its folder and its cards'
exported with the interpreter), so the ratio covers the rule files too.

`--mcts K`: instead, every seat `--agents mcts` (its default budget), each pair the first K decisions
of one game (seed = the pair's number) on each side, after a warm-up on both sides that lowers the
copyable form's functions; the ratio is of CPU time per pair (below 1: the working tree searches faster).
"""
from __future__ import annotations

import argparse
import importlib
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("commit")
    ap.add_argument("--reps", type=int, default=60, help="paired batches (default 60)")
    ap.add_argument("-n", type=int, default=10, help="games per batch (default 10)")
    ap.add_argument("--ruleset", default="rulesets/toil_and_troublez")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--card-stats", action="store_true", help="with per-card statistics (simulate's default)")
    ap.add_argument("--own-rules", action="store_true",
                    help="side A plays the commit's own files of --ruleset (default: both play the working tree's)")
    ap.add_argument("--mcts", type=int, default=0, metavar="K",
                    help="time K decisions of a game with mcts in every seat per batch instead of -n games")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp())
    try:
        rules = [str(Path(args.ruleset).resolve().relative_to(ROOT))] if args.own_rules else []
        if rules:  # and its cards (cards/NAME, read relative to the rules' folder)
            cards = f"cards/{Path(rules[0]).name}"
            if subprocess.run(["git", "ls-tree", "-d", "--name-only", args.commit, cards], cwd=ROOT,
                              check=True, capture_output=True, text=True).stdout.strip():
                rules.append(cards)
        archive = subprocess.run(["git", "archive", args.commit, "interpreter", "grammar", *rules], cwd=ROOT,
                                 check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(tmp)], input=archive, check=True)
        (tmp / "interpreter").rename(tmp / "interpreterA")
        sys.path[:0] = [str(tmp), str(ROOT)]
        os.chdir(ROOT)
        try:
            import interpreterA.sim.simulate as a  # noqa: E402  (the stage layout)
        except ImportError:
            import interpreterA.simulate as a  # noqa: E402
        import interpreter.sim.simulate as b  # noqa: E402
        rules_of = {a: str(tmp / rules[0]) if rules else args.ruleset, b: args.ruleset}  # what each side plays
        if args.mcts:
            _search_pairs(a, b, args, rules_of)
            return
        for m in (a, b):  # load, compile and warm both
            m.simulate(rules_of[m], 20, args.players, 0, ["random"], card_stats=False)
        ratios = []
        for r in range(args.reps):
            times = {}
            for m in ((a, b) if r % 2 == 0 else (b, a)):  # alternate which runs first: no order bias
                c = time.process_time()
                m.simulate(rules_of[m], args.n, args.players, r + 1, ["random"], card_stats=args.card_stats)
                times[m] = time.process_time() - c
            ratios.append(times[b] / times[a])
        q = statistics.quantiles(ratios, n=4)
        print(f"B/A (working tree / {args.commit}): median {statistics.median(ratios):.3f}, "
              f"quartiles {q[0]:.3f}-{q[2]:.3f}, {args.reps} batches of {args.n} games, "
              f"card statistics {'on' if args.card_stats else 'off'}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _search_pairs(a, b, args, rules_of: dict) -> None:
    """`--mcts`: CPU time of the first `args.mcts` decisions of one game per side and pair, every
    seat `mcts`, the sides alternating which goes first."""
    def session(m):  # the stage layout's play/session.py, or the flat one's session.py
        top = m.__name__.split(".")[0]
        try:
            return importlib.import_module(top + ".play.session")
        except ImportError:
            return importlib.import_module(top + ".session")

    sessions = {m: session(m) for m in (a, b)}
    programs = {m: m.load_program(rules_of[m]) for m in (a, b)}

    def play(m, seed: int, k: int, search: bool = True) -> None:
        seats = sessions[m].agents_for(["mcts"], args.players, seed)
        g = m.new_game(programs[m], args.players, seed, seats, m.Limits())
        made = 0
        while not g.over and made < k:
            d = g.decision
            g.answer(seats[d.player].choose(g, d) if search else made % len(d.options))
            made += 1

    for m in (a, b):  # the copyable form's functions are lowered on first call: do it before timing
        play(m, 99, 5000, search=False)
        play(m, 98, 30)
    ratios = []
    for r in range(args.reps):
        times = {}
        for m in ((a, b) if r % 2 == 0 else (b, a)):
            c = time.process_time()
            play(m, r + 1, args.mcts)
            times[m] = time.process_time() - c
        ratios.append(times[b] / times[a])
    q = statistics.quantiles(ratios, n=4)
    print(f"B/A (working tree / {args.commit}), mcts in every seat: median {statistics.median(ratios):.3f}, "
          f"quartiles {q[0]:.3f}-{q[2]:.3f}, {args.reps} pairs of {args.mcts} decisions (CPU time)")


if __name__ == "__main__":
    main()
