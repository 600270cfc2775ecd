"""The benchmark suite in one run: everything docs/performance.md reports about speed.

    python benchmarks/suite.py                 # default settings (a few minutes on 2 cores)
    python benchmarks/suite.py --quick         # short settings (about a minute)
    python benchmarks/suite.py --json out.json

Prints, measured in this one process:
1. parse + check (+ compile) time of every ruleset in rulesets/ (first load, then a warm repeat);
2. games/second of every ruleset with random agents, one worker (what `grimoire simulate` does,
   per-card statistics included);
3. the interpreter-vs-reference ratio for Toil and Troublez (benchmarks/compare_reference.py:
   both run back to back on the same seeds, random agents, one worker);
4. the cost of cloning a game (copyable generated code) against replaying it (benchmarks/clone_cost.py);
5. `mcts` decisions per CPU-second, and generator vs copyable generated code on random-agent
   batches (benchmarks/search_speed.py). (Figures against the deleted task engine: docs/performance.md.)
6. with `--old DIR` (a checkout of an old commit, e.g. 8ac881e, the issue "One engine"'s
   baseline): every ruleset of the issue at its smallest player count and at 4, and `--agents mcts`
   decisions per second, against that commit (benchmarks/ab_rulesets.py: a fresh process per side
   and case, CPU time), both sides on the old commit's rule files (`--old-files own`: each its own).

    git worktree add /tmp/old 8ac881e && python benchmarks/suite.py --old /tmp/old
"""
from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from ab_rulesets import compare as against_old  # noqa: E402
from clone_cost import clone_costs  # noqa: E402
from compare_reference import compare  # noqa: E402
from search_speed import batch_speed, search_speed  # noqa: E402
from interpreter.api import check_path, load_program  # noqa: E402
from interpreter.engine.game import Program  # noqa: E402
from interpreter.sim.simulate import simulate  # noqa: E402


def rulesets() -> list[Path]:
    return sorted(p for p in (ROOT / "rulesets").iterdir() if p.is_dir() and any(p.glob("*.rules")))


def load_times(path: Path, repeat: int = 3) -> dict:
    """Milliseconds to parse and check (load + build + check) and to compile, first and warm."""
    def once() -> tuple[float, float]:
        t = time.perf_counter()
        rs, content = check_path(path)
        checked = time.perf_counter()
        assert rs is not None and content.ok, f"{path.name} does not validate"
        Program(rs)
        return (checked - t) * 1000, (time.perf_counter() - checked) * 1000
    first = once()
    warm = min((once() for _ in range(repeat)), key=sum)
    return {"parse_check_ms_first": round(first[0], 1), "parse_check_ms": round(warm[0], 1),
            "compile_ms": round(warm[1], 1)}


def throughput(path: Path, games: int, seed: int) -> list[dict]:
    """Games/second with random agents, one worker, at the minimum and (if different) 4 players."""
    rs = load_program(path).rs
    counts = sorted({rs.min_players, min(max(rs.min_players, 4), rs.max_players)})
    out = []
    for players in counts:
        simulate(str(path), 1, players, seed, ["random"])  # warm: the program is compiled once per process
        rep = simulate(str(path), games, players, seed, ["random"])
        out.append({"players": players, "games": games, "errors": len(rep["errors"]),
                    "games_per_second": rep["timing"]["games_per_second"],
                    "decisions_per_game": rep["decisions"].get("mean")})
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="short settings: 20 games per ruleset, 40 for the ratio")
    ap.add_argument("--games", type=int, default=None, help="games per ruleset and player count (default 100)")
    ap.add_argument("--ratio-games", type=int, default=None, help="games of each side in the ratio (default 200)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", metavar="OUT", help="also write the figures as JSON")
    ap.add_argument("--old", type=Path, metavar="DIR", help="also compare with the checkout of an old commit in DIR "
                    "(part 6: the issue's ratios against 8ac881e)")
    ap.add_argument("--old-files", choices=("old", "own"), default="old",
                    help="part 6's rule files: the old checkout's for both sides (default) or each side its own")
    args = ap.parse_args()
    games = args.games or (20 if args.quick else 100)
    ratio_games = args.ratio_games or (40 if args.quick else 200)
    started = time.perf_counter()
    out: dict = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "python": platform.python_version(),
                 "settings": {"games": games, "ratio_games": ratio_games, "seed": args.seed}}

    print("1. parse + check time (ms; first load, then best warm repeat) and compile time")
    out["load"] = {}
    for path in rulesets():
        row = out["load"][path.name] = load_times(path)
        print(f"   {path.name:24s} first {row['parse_check_ms_first']:8.1f}  warm {row['parse_check_ms']:8.1f}  "
              f"compile {row['compile_ms']:6.1f}")

    print(f"2. random-agent games per second, one worker, {games} games each")
    out["throughput"] = {}
    for path in rulesets():
        rows = out["throughput"][path.name] = throughput(path, games, args.seed)
        for r in rows:
            print(f"   {path.name:24s} {r['players']} players: {r['games_per_second']:7.1f} games/s "
                  f"({r['decisions_per_game']} decisions per game, {r['errors']} errors)")

    print(f"3. Toil and Troublez, 4 players, {ratio_games} games each: interpreter vs hand-coded reference")
    ratio = out["reference_ratio"] = compare(ratio_games, 4, args.seed)
    print(f"   reference {ratio['reference_games_per_s']} games/s, interpreter {ratio['interpreter_games_per_s']} "
          f"games/s: interpreter slower by {ratio['slowdown']}x")

    print("4. cloning a 4-player Toil and Troublez game (ms) vs replaying it from the start")
    clones = out["clone"] = clone_costs(4, 3, repeat=50 if args.quick else 200, checkpoints=(10, 100, 200),
                                        replays=2 if args.quick else 5)
    for c in clones:
        print(f"   after {c['decisions']:3d} decisions: clone {c['direct_clone_ms']:.3f} ms (copyable generated code), "
              f"replay {c['replay_ms']:.1f} ms")
    decisions = 20 if args.quick else 60
    print(f"5. mcts on every seat, 4-player Toil and Troublez, first {decisions} decisions (per CPU-second)")
    search = out["search"] = search_speed("toil_and_troublez", "mcts", decisions, 4, args.seed)
    search.update(batch_speed("toil_and_troublez", 20 if args.quick else 60, 4, args.seed))
    print(f"   {search['decisions_per_s']} decisions/s on copyable generated code; "
          f"random batches: generator code {search['generator_games_per_cpu_s']}, "
          f"resumable {search['resumable_games_per_cpu_s']} games/s")
    if args.old:
        print(f"6. against {args.old}: games and mcts decisions per CPU-second, new/old")
        out["against_old"] = against_old(args.old, args.old_files, scale=0.5 if args.quick else 1.0,
                                         rounds=1 if args.quick else 2, mcts=True,
                                         mcts_decisions=20 if args.quick else 40, show=lambda line: print("   " + line))
    out["seconds"] = round(time.perf_counter() - started, 1)
    print(f"suite took {out['seconds']} s")
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
