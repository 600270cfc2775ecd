"""Cost of copying a game mid-decision (Game.clone) against rebuilding it by replaying its
answers from the start, at several points of a Toil and Troublez game.

    python benchmarks/clone_cost.py --players 4 --seed 3

Clone time should stay flat as the game goes on (it copies the state and the task stack, not the
history); replay time grows with the number of decisions made.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter.api import load_program  # noqa: E402
from interpreter.engine import Game  # noqa: E402


def replay(program, players, seed, choices):
    g = Game(program, players, seed, record_digests=False)
    for c in choices:
        g.answer(c)
    return g


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=200)
    args = ap.parse_args()
    program = load_program(ROOT / "rulesets" / "toil_and_troublez")
    g = Game(program, args.players, args.seed, record_digests=False)
    rng = random.Random(args.seed)
    print("decisions made | clone ms | replay ms | replay/clone")
    checkpoints = {10, 50, 100, 150, 200, 250}
    while not g.over:
        if len(g.choices) in checkpoints:
            t = time.perf_counter()
            for _ in range(args.repeat):
                c = g.clone()
            clone_ms = (time.perf_counter() - t) * 1000 / args.repeat
            t = time.perf_counter()
            for _ in range(5):
                r = replay(program, args.players, args.seed, g.choices)
            replay_ms = (time.perf_counter() - t) * 1000 / 5
            assert c.state.digest() == g.state.digest() == r.state.digest()
            print(f"{len(g.choices):14d} | {clone_ms:8.3f} | {replay_ms:9.2f} | {replay_ms / clone_ms:8.0f}x")
        g.answer(rng.randrange(len(g.decision.options)))


if __name__ == "__main__":
    main()
