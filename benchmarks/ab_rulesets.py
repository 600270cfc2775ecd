"""Every reference ruleset at an old commit against the working tree, in one run.

    git worktree add /tmp/old 8ac881e        (or: mkdir /tmp/old && git archive 8ac881e | tar -x -C /tmp/old)
    python benchmarks/ab_rulesets.py /tmp/old
    python benchmarks/ab_rulesets.py /tmp/old --files old --only stonehenge_wizards --mcts

For each case (ruleset, players, games), `simulate` runs in a fresh process of each checkout,
alternating old / new (`--rounds`, default 2), with random agents, per-card statistics on
(simulate's default) and the same seeds; one warm-up game per process is not counted. Prints
games per CPU-second of each side (the better of the runs) and new/old. CPU time, not wall time:
the machine is shared.

Rule files (`--files`): `own` (default) runs each checkout on its own `rulesets/`, so each side
plays the games as its commit wrote them (today's files grew: more rules, `prefer` guidance);
`old` runs both on the old checkout's files, so both play the same rules (the fair engine
comparison, where the new interpreter still loads them).

`--mcts`: also the issue's search cases: every seat `--agents mcts` (the default budget), decisions
per CPU-second over the first `--mcts-decisions` decisions of a game (after a warm-up game that
lowers the copyable form's functions, see `run_mcts`).
"""
from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path
from typing import Callable, Sequence

ROOT = Path(__file__).resolve().parent.parent
# (ruleset, players, games): the rulesets at their smallest player count and at 4
CASES = [("talisman", 4, 6), ("enchanters", 2, 40), ("enchanters", 4, 30), ("enchanters_overlords", 2, 40),
         ("enchanters_overlords", 4, 30), ("magical_treehouse", 3, 40), ("magical_treehouse", 4, 30),
         ("stonehenge_wizards", 1, 60), ("stonehenge_wizards", 4, 30), ("toil_and_troublez", 4, 100)]
MCTS_CASES = [("toil_and_troublez", 4), ("stonehenge_wizards", 4)]  # the issue's `--agents mcts` targets


def _modules(root: Path) -> tuple[str, str]:
    """The simulate and session modules of a checkout (the stage layout, or the flat one of 8ac881e)."""
    if (root / "interpreter" / "sim").is_dir():
        return "interpreter.sim.simulate", "interpreter.play.session"
    return "interpreter.simulate", "interpreter.session"


def _python(root: Path, code: str) -> list[str]:
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=3600)
    if out.returncode:
        raise SystemExit(f"{root}: {out.stderr[-2000:]}")
    return out.stdout.split()


def run(root: Path, rules: Path, players: int, n: int) -> tuple[float, int, int]:
    """CPU seconds of `n` games of `rules` (after one warm-up game), games completed, errors."""
    sim, _ = _modules(root)
    code = (f"import time; from {sim} import simulate; "
            f"simulate({str(rules)!r}, 1, {players}, 99, ['random']); t = time.process_time(); "
            f"r = simulate({str(rules)!r}, {n}, {players}, 1, ['random']); "
            "print(time.process_time() - t, r['completed'], len(r['errors']))")
    cpu, done, errors = _python(root, code)
    return float(cpu), int(done), int(errors)


def run_mcts(root: Path, rules: Path, players: int, decisions: int) -> tuple[float, int]:
    """CPU seconds of the first `decisions` decisions of a game with `mcts` in every seat, and how
    many were made. A warm-up game of another seed, with the same seats but answered without
    searching, first lowers the copyable form's functions (each on its first call: a one-off cost
    per process, which would otherwise dominate a short run)."""
    sim, session = _modules(root)
    code = (f"import time; from {sim} import new_game, load_program, Limits; from {session} import agents_for\n"
            f"prog = load_program({str(rules)!r})\n"
            "def play(seed, k, search=True):\n"
            f"    seats = agents_for(['mcts'], {players}, seed)\n"
            f"    g = new_game(prog, {players}, seed, seats, Limits())\n"
            "    made = 0\n"
            "    while not g.over and made < k:\n"
            "        d = g.decision; g.answer(seats[d.player].choose(g, d) if search else made % len(d.options)); made += 1\n"
            "    return made\n"
            "play(99, 5000, False); t = time.process_time()\n"
            f"made = play(1, {decisions}); print(time.process_time() - t, made)")
    cpu, made = _python(root, code)
    return float(cpu), int(made)


def compare(old_root: Path, files: str = "own", only: Sequence[str] | None = None,
            players: Sequence[int] | None = None, rounds: int = 2, scale: float = 1.0, mcts: bool = False,
            games: bool = True, mcts_decisions: int = 40, show: Callable[[str], None] = print) -> dict:
    """The cases (`CASES`, and with `mcts` the `MCTS_CASES`) of the old checkout at `old_root`
    against this working tree, as rows of data; each row is also shown as a table row."""
    old_root = old_root.resolve()

    def rules(root: Path, ruleset: str) -> Path:
        return (old_root if files == "old" else root) / "rulesets" / ruleset

    def wanted(ruleset: str, count: int) -> bool:
        return (only is None or ruleset in only) and (players is None or count in players)

    out: dict = {"old": str(old_root), "files": files, "games": [], "mcts": []}
    show(f"rule files: {'each side its own' if files == 'own' else f'both {old_root}/rulesets'}")
    if games:
        show("| ruleset | players | games | old games/CPU-s | new games/CPU-s | new/old |")
        show("|---|---|---|---|---|---|")
        for ruleset, count, n in CASES:
            if not wanted(ruleset, count):
                continue
            n = max(1, round(n * scale))
            runs: dict[str, list] = {"old": [], "new": []}
            for _ in range(rounds):
                for side, root in (("old", old_root), ("new", ROOT)):
                    runs[side].append(run(root, rules(root, ruleset), count, n))
            old, new = (min(r[0] for r in runs[s]) for s in ("old", "new"))
            bad = sum(r[2] for s in runs for r in runs[s])
            out["games"].append({"ruleset": ruleset, "players": count, "games": n, "old_games_per_cpu_s": round(n / old, 2),
                                 "new_games_per_cpu_s": round(n / new, 2), "ratio": round(old / new, 2), "failed": bad})
            note = f" ({bad} games failed)" if bad else ""
            show(f"| {ruleset} | {count} | {n} | {n / old:.2f} | {n / new:.2f} | {old / new:.2f}×{note} |")
    if mcts:
        show("")
        show("| mcts, every seat | players | decisions | old decisions/CPU-s | new decisions/CPU-s | new/old |")
        show("|---|---|---|---|---|---|")
        for ruleset, count in MCTS_CASES:
            if not wanted(ruleset, count):
                continue
            best: dict[str, float] = {"old": 0.0, "new": 0.0}
            made = 0
            for _ in range(rounds):
                for side, root in (("old", old_root), ("new", ROOT)):
                    cpu, made = run_mcts(root, rules(root, ruleset), count, mcts_decisions)
                    best[side] = max(best[side], made / cpu)
            out["mcts"].append({"ruleset": ruleset, "players": count, "decisions": made,
                                "old_decisions_per_cpu_s": round(best["old"], 1),
                                "new_decisions_per_cpu_s": round(best["new"], 1),
                                "ratio": round(best["new"] / best["old"], 2)})
            show(f"| {ruleset} | {count} | {made} | {best['old']:.1f} | {best['new']:.1f} | "
                 f"{best['new'] / best['old']:.2f}× |")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old", type=Path, help="a checkout of the old commit (e.g. a git worktree)")
    ap.add_argument("--files", choices=("own", "old"), default="own",
                    help="own: each side its own rulesets/ (default); old: both the old checkout's")
    ap.add_argument("--only", nargs="*", default=None, help="only these rulesets")
    ap.add_argument("--players", type=int, nargs="*", default=None, help="only these player counts")
    ap.add_argument("--rounds", type=int, default=2, help="old/new runs per case, alternating (default 2)")
    ap.add_argument("--scale", type=float, default=1.0, help="games per case times this (default 1)")
    ap.add_argument("--mcts", action="store_true", help="also mcts decisions per CPU-second (the issue's cases)")
    ap.add_argument("--mcts-only", action="store_true", help="only the mcts cases")
    ap.add_argument("--mcts-decisions", type=int, default=40, help="decisions timed per mcts game (default 40)")
    args = ap.parse_args()
    compare(args.old, args.files, args.only, args.players, args.rounds, args.scale, args.mcts or args.mcts_only,
            not args.mcts_only, args.mcts_decisions, show=lambda line: print(line, flush=True))


if __name__ == "__main__":
    main()
