"""Win rate of the MCTS agent (or another: --agent) against random agents, its seat rotated.

    python benchmarks/agents_winrate.py rulesets/toil_and_troublez --players 4 -n 40 --workers 2
    python benchmarks/agents_winrate.py rulesets/toil_and_troublez --players 4 -n 40 --agent guided

Each game seats one `mcts` agent (seat = game index mod players) and `random` agents elsewhere;
`--agent guided` (or `greedy`) seats that agent instead, with its default settings.
A win shared by k players counts 1/k. Prints the win rate with a 95% Wilson interval next to the
fair share (1/players), a one-sided binomial test that it beats the fair share (shared wins
rounded), and the mean decision time of the MCTS agent. Where some games end with no winner (a
ruleset's `end game ... with no winner`) or at a cap the rules declare (`end game ... by cap`,
whose winners are a tally, not the game's), no seat can reach the fair share of all games, so the
same figures follow for the games someone won by the rules: there each seat's fair share is
1/players again.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter.play.agents import MCTS_DEFAULT_BUDGET, MCTSAgent, RandomAgent, make_agent  # noqa: E402
from interpreter.api import load_program  # noqa: E402
from interpreter.sim.reports import wilson  # noqa: E402
from interpreter.engine.factory import new_game  # noqa: E402


def play_one(path: str, players: int, seed: int, seat: int, iterations: int, max_playout: int,
             flat: bool, agent: str = "mcts", prior: float = 0.0,
             max_work: int | None = None) -> tuple[float, bool, float, int, bool]:
    """One game, the agent at `seat`: (its win share, failed?, seconds it thought, decisions it made,
    did anyone win by the rules?, did it stop at a cap the rules declare?)."""
    program = load_program(path)
    agents = [RandomAgent(f"{seed}/{s}") for s in range(players)]
    agents[seat] = MCTSAgent(f"{seed}/{seat}", iterations=iterations, max_playout=max_playout, tree=not flat,
                             prior=prior, max_playout_work=max_work) \
        if agent == "mcts" else make_agent(agent, f"{seed}/{seat}")
    g = new_game(program, players, seed)
    thought, decisions = 0.0, 0
    while not g.over:
        d = g.decision
        t = time.perf_counter()
        choice = agents[d.player].choose(g, d)
        if d.player == seat:
            thought += time.perf_counter() - t
            decisions += 1
        g.answer(choice)
    if g.error is not None:
        return 0.0, True, thought, decisions, False, False
    winners, capped = g.result["winners"], bool(g.result.get("cap"))
    return (1 / len(winners) if seat in winners else 0.0), False, thought, decisions, bool(winners) and not capped, capped


def _logged(log: str | None, job: tuple, result: tuple) -> tuple:
    """Append one game's result to `log` (JSON lines) as soon as it is known; return it unchanged."""
    if log:
        path, players, seed, seat = job[:4]
        with open(log, "a") as f:
            f.write(json.dumps({"ruleset": Path(path).name, "players": players, "seed": seed, "seat": seat + 1,
                                "share": result[0], "failed": result[1], "seconds": round(result[2], 3),
                                "decisions": result[3], "decided": result[4], "capped": result[5]}) + "\n")
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rulesets", nargs="+")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("-n", type=int, default=30, help="games per ruleset")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--iterations", type=int, default=MCTS_DEFAULT_BUDGET["iterations"],
                    help="MCTS playouts per decision (default: that of `--agents mcts`)")
    ap.add_argument("--max-playout", type=int, default=MCTS_DEFAULT_BUDGET["max_playout"],
                    help="decisions per playout before it is cut (default: that of `--agents mcts`)")
    ap.add_argument("--max-playout-work", type=int, default=MCTS_DEFAULT_BUDGET.get("max_playout_work"),
                    help="rule work (items visited) per playout before it is cut (default: that of `--agents mcts`)")
    ap.add_argument("--prior", type=float, default=MCTS_DEFAULT_BUDGET.get("prior", 0.0),
                    help="weight of the `prefer` rules' favourite in the tree search (default: that of `--agents mcts`)")
    ap.add_argument("--flat", action="store_true", help="flat Monte Carlo (UCB1 over the root options only)")
    ap.add_argument("--workers", type=int, default=1, help="games played in parallel processes (same results)")
    ap.add_argument("--log", metavar="FILE",
                    help="append one JSON line per finished game (ruleset, players, seed, seat, share, failed, "
                         "seconds thought, decisions), so a long batch cut short still leaves its games")
    ap.add_argument("--agent", default="mcts", choices=["mcts", "guided", "greedy"],
                    help="the agent measured against random ones (default mcts; the budget options are mcts's)")
    args = ap.parse_args()
    for path in args.rulesets:
        start = time.perf_counter()
        jobs = [(path, args.players, args.seed * 100_003 + i, i % args.players, args.iterations, args.max_playout,
                 args.flat, args.agent, args.prior, args.max_playout_work) for i in range(args.n)]
        if args.workers > 1:
            with ProcessPoolExecutor(args.workers) as pool:
                results = [_logged(args.log, job, r) for job, r in zip(jobs, pool.map(play_one, *zip(*jobs)))]
        else:
            results = [_logged(args.log, job, play_one(*job)) for job in jobs]
        wins = sum(r[0] for r in results)
        errors = sum(r[1] for r in results)
        mcts_time = sum(r[2] for r in results)
        mcts_decisions = sum(r[3] for r in results)
        played = args.n - errors
        lo, hi = wilson(wins, played)
        rate = wins / played if played else 0.0
        from scipy.stats import binomtest
        p = binomtest(round(wins), played, 1 / args.players, alternative="greater").pvalue if played else 1.0
        print(f"{Path(path).name} {args.players}p: {args.agent} win rate {rate:.3f} [95% CI {lo:.3f}-{hi:.3f}] "
              f"vs fair share {1 / args.players:.3f} (one-sided binomial p {p:.3g}); {played} games ({errors} errors), "
              + (f"{'flat' if args.flat else 'tree'}, {args.iterations} playouts/decision, cap {args.max_playout}, "
                 f"prior {args.prior:g}, work cap {args.max_playout_work}, "
                 if args.agent == "mcts" else "")
              + f"{1000 * mcts_time / max(mcts_decisions, 1):.0f} ms/decision, "
              f"{time.perf_counter() - start:.0f} s", flush=True)
        decided = sum(r[4] for r in results)
        if decided < played:  # no winner, or a cap's tally: the fair share of all games is out of reach
            capped = sum(r[5] for r in results)
            won = sum(r[0] for r in results if r[4])
            lo, hi = wilson(won, decided)
            p = binomtest(round(won), decided, 1 / args.players, alternative="greater").pvalue if decided else 1.0
            print(f"  {played - decided} of {played} games had no winner by the rules ({capped} stopped at a cap, "
                  f"{played - decided - capped} with no winner); of the {decided} someone won by the rules, "
                  f"{args.agent} won {won / max(decided, 1):.3f} [95% CI {lo:.3f}-{hi:.3f}] "
                  f"vs fair share {1 / args.players:.3f} (one-sided binomial p {p:.3g})", flush=True)


if __name__ == "__main__":
    main()
