"""Which procedure bodies to write out in place: the same games on code compiled with four
policies, in one process, interleaved (issue 16, "Calling procedures" in docs/performance.md).

    python benchmarks/inline_policy.py toil_and_troublez --players 4 -n 40 --reps 7
    python benchmarks/inline_policy.py talisman --players 4 -n 6 --reps 8

Policies (`ProcCalls.inlined`, engine/directcalls.py): *inline-all* writes every body out where it
is called (the generated code before procedure calls); *tiny-once* (the one in use) writes out a
body of at most `INLINE_NODES` syntax nodes called from one place; *once* any body called from
one place; *call-all* none. Random seats play `n` seeded games per round on each policy's module,
in a shuffled order each round; the best round's CPU time (`time.process_time`) per policy is
kept, so the figures compare code, not what else the shared machine ran. Prints each module's
size, the decisions made (the same on every policy: the games are the same) and games per
CPU-second against inline-all.
"""
from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter.api import load_program  # noqa: E402
from interpreter.engine import direct, directcalls  # noqa: E402
from interpreter.engine.directgame import DirectGame  # noqa: E402
from interpreter.language.tree import walk  # noqa: E402
from interpreter.play.session import agents_for, game_seed  # noqa: E402


def policy(nodes: int, everything: bool = False) -> Callable[[Any, str], bool]:
    """An `inlined(gen, name)`: a body of at most `nodes` nodes called from one place (or all)."""
    def inlined(gen: Any, name: str) -> bool:
        if everything:
            return True
        size = sum(1 for s in gen.rs.procedures[name].body for _ in walk(s))
        return directcalls.call_counts(gen.rs).get(name, 0) <= 1 and size <= nodes
    return inlined


POLICIES = {"inline-all": policy(0, everything=True), "tiny-once": policy(directcalls.INLINE_NODES),
            "once": policy(10 ** 9), "call-all": policy(-1)}


def play(dp: Any, players: int, n: int) -> int:
    """Play `n` seeded games with random seats; the decisions made."""
    made = 0
    for i in range(n):
        seed = game_seed(1, i)
        g = DirectGame(dp, players, seed)
        seats = agents_for(["random"], players, seed)
        while not g.over:
            d = g.decision
            g.answer(seats[d.player].choose(g, d))
        made += len(g.choices)
    return made


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("ruleset", help="a folder name under rulesets/")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("-n", type=int, default=6, help="games per round and policy")
    ap.add_argument("--reps", type=int, default=6, help="rounds (the best is kept)")
    args = ap.parse_args()
    program = load_program(ROOT / "rulesets" / args.ruleset)
    kept = directcalls.ProcCalls.inlined
    modules = {}
    try:
        for name, f in POLICIES.items():
            directcalls.ProcCalls.inlined = f  # type: ignore[method-assign]
            program._direct = None  # compile again (compile_direct keeps its module on the program)
            modules[name] = direct.compile_direct(program)
            print(f"{name}: {len(modules[name].source) // 1000} KB", flush=True)
    finally:
        directcalls.ProcCalls.inlined = kept  # type: ignore[method-assign]
    made = {name: play(dp, args.players, args.n) for name, dp in modules.items()}  # warm-up
    best = {name: float("inf") for name in modules}
    order = list(modules.items())
    for r in range(args.reps):
        random.Random(r).shuffle(order)
        for name, dp in order:
            gc.collect()
            t = time.process_time()
            play(dp, args.players, args.n)
            best[name] = min(best[name], time.process_time() - t)
    print("decisions per round:", made)
    for name, t in best.items():
        print(f"{args.ruleset} {name}: {args.n / t:.2f} games/CPU-s, {best['inline-all'] / t:.3f}x of inline-all")


if __name__ == "__main__":
    main()
