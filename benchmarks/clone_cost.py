"""Cost of copying a game mid-decision (`clone`) against rebuilding it by replaying its answers
from the start, at several points of a Toil and Troublez game, on both engines: the task engine
(Game.clone) and the resumable direct code (ResumableGame.clone, resumablegame.py).

    python benchmarks/clone_cost.py --players 4 --seed 3

Clone time should stay flat as the game goes on (it copies the state and the task stack or the
frames, not the history); replay time grows with the number of decisions made.
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
from interpreter.engine.direct import compile_direct  # noqa: E402
from interpreter.engine.resumablegame import ResumableGame  # noqa: E402
from interpreter.engine.factory import new_game  # noqa: E402


def replay(program, players, seed, choices):
    g = new_game(program, players, seed)
    for c in choices:
        g.answer(c)
    return g


def _per_call_ms(fn, repeat: int) -> float:
    """Best of 5 rounds of `repeat` calls (a loaded machine's pauses are not the clone's)."""
    best = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(repeat):
            fn()
        best = min(best, (time.perf_counter() - t) * 1000 / repeat)
    return best


def clone_costs(players: int = 4, seed: int = 3, repeat: int = 200,
                checkpoints: tuple[int, ...] = (10, 50, 100, 150, 200, 250), replays: int = 5) -> list[dict]:
    """Clone times (ms) of both engines and the task engine's replay time at each checkpoint
    (decisions made) of one random game, played on both engines side by side."""
    program = load_program(ROOT / "rulesets" / "toil_and_troublez")
    g = new_game(program, players, seed)
    d = ResumableGame(compile_direct(program), players, seed)
    rng = random.Random(seed)
    out = []
    while not g.over:
        if len(g.choices) in checkpoints:
            clone_ms = _per_call_ms(g.clone, max(1, repeat // 5))
            direct_ms = _per_call_ms(d.clone, repeat)
            t = time.perf_counter()
            for _ in range(replays):
                r = replay(program, players, seed, g.choices)
            replay_ms = (time.perf_counter() - t) * 1000 / replays
            assert g.clone().state.digest() == g.state.digest() == r.state.digest() == d.clone().state.digest()
            out.append({"decisions": len(g.choices), "clone_ms": round(clone_ms, 3),
                        "direct_clone_ms": round(direct_ms, 3), "replay_ms": round(replay_ms, 2)})
        i = rng.randrange(len(g.decision.options))
        g.answer(i)
        d.answer(i)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=200)
    args = ap.parse_args()
    print("decisions made | task engine clone ms | direct (resumable) clone ms | replay ms")
    for row in clone_costs(args.players, args.seed, args.repeat):
        print(f"{row['decisions']:14d} | {row['clone_ms']:20.3f} | {row['direct_clone_ms']:27.3f} | "
              f"{row['replay_ms']:9.2f}")


if __name__ == "__main__":
    main()
