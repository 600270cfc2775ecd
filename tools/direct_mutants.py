"""Do the direct engine and the task engine agree on rules nobody wrote? Cross-check them on mutants.

    python tools/direct_mutants.py rulesets/toil_and_troublez TT --games 3
    python tools/direct_mutants.py rulesets/tutorial_fireflies "" --games 3

Every rule line of the ruleset gets every plausible mutation that `tools/mutate_rules.py` knows
(a statement dropped, a condition negated, an operator or number flipped, a block emptied; with
PREFIX, only the lines citing rule IDs of that prefix; with "", every code line). Each mutant
that validates and that direct.py compiles plays `--games` seeded games at every player count
with both engines, random and first-option agents; every decision, the result, the log, the
error (or its absence) and the final state's digest must be the same; the resumable form of the
direct code (resumablegame.py) plays each game a third time, going on in a fresh clone at every
decision, and must play it the same too. Mutants stress shapes of
rules the reference games do not have: an emptied loop, a reversed comparison, a missing move.
Exit status 1 if any mutant plays differently. (Not part of the test run: a few minutes.)
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from mutate_rules import Site, compile_mutant, find_sites, mutations, split_comment, work_copy  # noqa: E402
from interpreter.engine.direct import Unsupported, compile_direct  # noqa: E402
from interpreter.engine.directgame import DirectGame  # noqa: E402
from interpreter.engine.game import Game, Limits  # noqa: E402
from interpreter.engine.resumablegame import ResumableGame  # noqa: E402
from interpreter.play.session import agents_for, game_seed  # noqa: E402

LIMITS = Limits(max_steps=200_000, max_turns=400, max_decisions=5_000)


def every_line(rules_dir: Path) -> list[Site]:
    """Every code line of the .rules files, as a site (for rulesets without rule IDs)."""
    out = []
    for f in sorted(rules_dir.glob("*.rules")):
        for i, line in enumerate(f.read_text(encoding="utf-8").splitlines()):
            code, _ = split_comment(line)
            if code.strip() and not code.rstrip().endswith("\\"):
                out.append(Site(f, i, i, []))
    return out


def play(make, seats, clone_each: bool = False) -> tuple:
    g = make()
    trace = []
    while not g.over:
        d = g.decision
        trace.append((d.player, d.kind, len(d.options)))
        i = seats[d.player].choose(g, d)
        if clone_each:  # go on in a copy only: it must play on as the original would have
            g = g.clone()
        g.answer(i)
    return (trace, g.result, list(g.log), None if g.error is None else g.error.message, g.state.digest())


def same_games(program, games: int) -> list[str]:
    """The games (players/seed/agents) the two engines play differently."""
    dp = compile_direct(program)
    rs = program.rs
    out = []
    for players in range(rs.min_players, min(rs.max_players, 4) + 1):
        for i in range(games):
            for kind in ("random", "first"):
                seed = game_seed(5, i)
                a = play(lambda: Game(program, players, seed, LIMITS, record_digests=False),
                         agents_for([kind], players, seed))
                b = play(lambda: DirectGame(dp, players, seed, LIMITS), agents_for([kind], players, seed))
                c = play(lambda: ResumableGame(dp, players, seed, LIMITS), agents_for([kind], players, seed), True)
                if a != c and a == b:
                    out.append(f"{players}p seed {i} {kind}: the resumable form (cloned at every decision) differs")
                if a != b:
                    out.append(f"{players}p seed {i} {kind}: " + ("errors differ: " + f"{a[3]!r} / {b[3]!r}"
                                                                   if a[3] != b[3] else "play differs"))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ruleset", type=Path)
    ap.add_argument("prefix", help='rule-ID prefix of the lines to mutate (e.g. TT), or "" for every line')
    ap.add_argument("--games", type=int, default=3, help="seeds per player count and agent (default 3)")
    args = ap.parse_args(argv)
    rules_dir = args.ruleset.resolve()
    sites = find_sites(rules_dir, args.prefix) if args.prefix else every_line(rules_dir)
    start = time.time()
    counts = {"same": 0, "different": 0, "not compiled": 0, "invalid": 0}
    with tempfile.TemporaryDirectory() as tmp:
        work = work_copy(rules_dir, Path(tmp))
        n = 0
        for site in sites:
            original = site.file.read_text(encoding="utf-8")
            lines = original.splitlines()
            target = work / site.file.name
            for desc, repl in mutations(lines, site):
                n += 1
                target.write_text("\n".join(lines[:site.first] + repl + lines[site.first + len(repl):]) + "\n",
                                  encoding="utf-8")
                program = compile_mutant(work)
                if program is None:
                    counts["invalid"] += 1
                    continue
                try:
                    bad = same_games(program, args.games)
                except Unsupported:
                    counts["not compiled"] += 1
                    continue
                counts["different" if bad else "same"] += 1
                if bad:
                    print(f"DIFFERENT {site.file.name}:{site.first + 1} {desc}: {'; '.join(bad[:3])}")
            target.write_text(original, encoding="utf-8")
    print(f"{n} mutants of {len(sites)} lines: {counts['same']} played the same in both engines, "
          f"{counts['different']} differently; {counts['not compiled']} not compiled to direct code, "
          f"{counts['invalid']} invalid ({time.time() - start:.0f}s)")
    return 1 if counts["different"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
