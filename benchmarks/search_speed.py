"""Decisions per CPU-second of search agents (`--agents mcts`, `greedy`) on resumable generated
code (ResumableGame.clone); compare commits with benchmarks/ab_commits.py.

    python benchmarks/search_speed.py --agent mcts --decisions 60 --players 4 --seed 1

Every seat the same agent, for the same number of decisions from the same seed. It also reports what the resumable form costs a batch that never copies the game: random-agent
games per CPU-second on generator code (DirectGame) and on resumable code (ResumableGame), best
of 4 alternating rounds.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter.api import load_program  # noqa: E402
from interpreter.engine.direct import compile_direct  # noqa: E402
from interpreter.engine.directgame import DirectGame  # noqa: E402
from interpreter.engine.resumablegame import ResumableGame  # noqa: E402
from interpreter.engine.game import Limits  # noqa: E402
from interpreter.play.session import agents_for  # noqa: E402
from interpreter.sim.simulate import new_game  # noqa: E402


def search_speed(ruleset: str = "toil_and_troublez", agent: str = "mcts", decisions: int = 60, players: int = 4,
                 seed: int = 1) -> dict:
    """Decisions/s of `agent` over the first `decisions` decisions of one game."""
    program = load_program(ROOT / "rulesets" / ruleset)
    out: dict = {"ruleset": ruleset, "agent": agent, "players": players, "decisions": decisions}
    seats = agents_for([agent], players, seed)
    g = new_game(program, players, seed, seats, Limits())
    made = []
    t = time.process_time()  # CPU time: other work on a shared machine does not count
    while not g.over and len(made) < decisions:
        d = g.decision
        made.append(seats[d.player].choose(g, d))
        g.answer(made[-1])
    seconds = time.process_time() - t
    out["engine"] = type(g).__name__
    out["decisions_per_s"] = round(len(made) / seconds, 2)
    return out


def batch_speed(ruleset: str = "toil_and_troublez", games: int = 60, players: int = 4, seed: int = 1) -> dict:
    """Random-agent games per CPU-second on generator code and on resumable code (best of 4
    alternating rounds of `games` games each)."""
    dp = compile_direct(load_program(ROOT / "rulesets" / ruleset))
    best = {DirectGame: 0.0, ResumableGame: 0.0}
    for _ in range(4):
        for kind in best:
            t = time.process_time()
            for i in range(games):
                s = seed * 100_003 + i
                kind(dp, players, s).play_out(agents_for(["random"], players, s))
            best[kind] = max(best[kind], games / (time.process_time() - t))
    return {"generator_games_per_cpu_s": round(best[DirectGame], 1),
            "resumable_games_per_cpu_s": round(best[ResumableGame], 1),
            "generator_over_resumable": round(best[DirectGame] / best[ResumableGame], 2)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ruleset", default="toil_and_troublez", help="a folder name under rulesets/")
    ap.add_argument("--agent", default="mcts", help="the agent every seat plays (mcts, greedy)")
    ap.add_argument("--decisions", type=int, default=60, help="decisions to play on each engine")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    r = search_speed(args.ruleset, args.agent, args.decisions, args.players, args.seed)
    print(f"{r['agent']} on {r['ruleset']}, {r['players']} players, first {r['decisions']} decisions:")
    print(f"  {r['engine']}: {r['decisions_per_s']} decisions/s")
    b = batch_speed(args.ruleset, 60, args.players, args.seed)
    print(f"random-agent batch, {args.players} players: generator code {b['generator_games_per_cpu_s']} games/CPU-s, "
          f"resumable code {b['resumable_games_per_cpu_s']} ({b['generator_over_resumable']}x)")


if __name__ == "__main__":
    main()
