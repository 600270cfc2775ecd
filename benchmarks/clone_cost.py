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
from interpreter.engine.game import Game  # noqa: E402


def replay(program, players, seed, choices):
    g = Game(program, players, seed, record_digests=False)
    for c in choices:
        g.answer(c)
    return g


def clone_costs(players: int = 4, seed: int = 3, repeat: int = 200,
                checkpoints: tuple[int, ...] = (10, 50, 100, 150, 200, 250), replays: int = 5) -> list[dict]:
    """Clone and replay times (ms) at each checkpoint (decisions made) of one random game."""
    program = load_program(ROOT / "rulesets" / "toil_and_troublez")
    g = Game(program, players, seed, record_digests=False)
    rng = random.Random(seed)
    out = []
    while not g.over:
        if len(g.choices) in checkpoints:
            t = time.perf_counter()
            for _ in range(repeat):
                c = g.clone()
            clone_ms = (time.perf_counter() - t) * 1000 / repeat
            t = time.perf_counter()
            for _ in range(replays):
                r = replay(program, players, seed, g.choices)
            replay_ms = (time.perf_counter() - t) * 1000 / replays
            assert c.state.digest() == g.state.digest() == r.state.digest()
            out.append({"decisions": len(g.choices), "clone_ms": round(clone_ms, 3), "replay_ms": round(replay_ms, 2)})
        g.answer(rng.randrange(len(g.decision.options)))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=200)
    args = ap.parse_args()
    print("decisions made | clone ms | replay ms | replay/clone")
    for row in clone_costs(args.players, args.seed, args.repeat):
        print(f"{row['decisions']:14d} | {row['clone_ms']:8.3f} | {row['replay_ms']:9.2f} | "
              f"{row['replay_ms'] / row['clone_ms']:8.0f}x")


if __name__ == "__main__":
    main()
