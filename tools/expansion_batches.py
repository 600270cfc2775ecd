"""The expansion batch matrix: `grimoire simulate` over a list of mod stacks × player counts.

    python tools/expansion_batches.py --set issue22 -n 100 --players 2..6
    nice -n 10 python tools/expansion_batches.py --set issue23 -n 20 --players 2,4,6 --json i23.json
    python tools/expansion_batches.py --stack talisman_city,talisman_dungeon -n 5 --players 3
    python tools/expansion_batches.py --set issue21 -n 200 --players 2..4     # Enchanters' mods
    python tools/expansion_batches.py --base rulesets/enchanters --stack enchanters_eastquest --players 1

Talisman's expansions are mods of rulesets/talisman (docs/modding.md), and each issue that adds some
asks that every expansion alone, and all of them together, play `-n 100 --players 2..6` with no
error and end by the rules; issue 21 asks the same of the Enchanters mods (of rulesets/enchanters:
`--set issue21`, or `--base` for any other base). This runs those batches one after the other in this process (each
stack is compiled once and played at every player count), and prints a markdown table, one row per
cell as it finishes (so a run in the background can be watched), then the first error of each
failing cell with its seed (replay one game: `grimoire simulate ... -n 1 --seed ...` does not give
the same game; use `--failed-logs` on the `grimoire simulate` command the row names).

A cell's columns: games, errors (failed games: rule errors, limits, time), natural endings (by the
rules), caps (`end game ... by cap`, the round cap), the end reasons, and the seconds it took.
Same seed, same games: the cells are the `grimoire simulate` batches with these options.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

from interpreter.content.stack import stack_path  # noqa: E402
from interpreter.language.diagnostics import ContentError  # noqa: E402
from interpreter.sim.simulate import simulate  # noqa: E402

BASE = "rulesets/talisman"
# issue 22: the expansions that add or replace board regions
ISSUE22 = ["talisman_city", "talisman_highland", "talisman_dungeon", "talisman_deeprealms",
           "talisman_woodland", "talisman_firelands", "talisman_cataclysm"]
# issue 23: the expansions that add figures, decks and endings
ISSUE23 = ["talisman_reaper", "talisman_dragon", "talisman_harbinger", "talisman_bloodmoon",
           "talisman_souls", "talisman_beasts", "talisman_clockwork", "talisman_frostmarch",
           "talisman_sacredpool"]
# the rules that need both the Cataclysm and the Harbinger (TA-647, TA-648) come with the two
BOTH = ["talisman_cataclysm_terrain"]

# issue 21: the Enchanters mods (of rulesets/enchanters), each alone, then base + the Overlords
# expansion (its rules, Wound deck and Kingdom decks) + Odyssey + EastQuest together
ISSUE21 = ["enchanters_overlords", "enchanters_wounds", "enchanters_kingdoms", "enchanters_odyssey",
           "enchanters_eastquest", "enchanters_coop"]
ENCHANTERS_ALL = ["enchanters_overlords", "enchanters_wounds", "enchanters_kingdoms", "enchanters_odyssey",
                  "enchanters_eastquest"]
BASES = {"issue21": "rulesets/enchanters"}

SETS: dict[str, list[list[str]]] = {
    "issue21": [[m] for m in ISSUE21] + [ENCHANTERS_ALL],
    "issue22": [[m] for m in ISSUE22] + [ISSUE22],
    "issue23": [[m] for m in ISSUE23] + [ISSUE23],
    "all16": [ISSUE22 + ISSUE23 + BOTH],
}


def parse_players(text: str) -> list[int]:
    """`2..6` or `2,4,6` (or one count)."""
    if ".." in text:
        lo, hi = text.split("..", 1)
        return list(range(int(lo), int(hi) + 1))
    return [int(p) for p in text.split(",") if p.strip()]


def stack_name(mods: list[str]) -> str:
    """How a stack is named in the table: the mods' names without `talisman_`, `all of issue N`
    for a whole set."""
    short = [m.removeprefix("talisman_").removeprefix("enchanters_") for m in mods]
    if mods == ISSUE22:
        return "all 7 of issue 22"
    if mods == ISSUE23:
        return "all 9 of issue 23"
    if mods == ISSUE22 + ISSUE23 + BOTH:
        return "all 16 (+ cataclysm_terrain)"
    if mods == ENCHANTERS_ALL:
        return "overlords+wounds+kingdoms+odyssey+eastquest"
    return "+".join(short)


def command(mods: list[str], n: int, players: int, seed: int, base: str = BASE) -> str:
    """The `grimoire simulate` command that plays the same cell."""
    with_ = ",".join(f"rulesets/{m}" for m in mods)
    return f"grimoire simulate {base} --with {with_} -n {n} --players {players} --seed {seed} --quiet --workers 1"


def run_cell(mods: list[str], n: int, players: int, seed: int, workers: int, max_seconds: float,
             base: str = BASE) -> dict:
    """One batch; the row of the table and the first error."""
    path = stack_path(str(ROOT / base), [str(ROOT / "rulesets" / m) for m in mods])
    start = time.perf_counter()
    try:
        report = simulate(path, n, players, seed, ["guided"], workers=workers, card_stats=False,
                          max_seconds=max_seconds)
    except (ContentError, ValueError, OSError) as why:  # the stack does not load, compile or take this player count
        return {"stack": stack_name(mods), "players": players, "games": n, "errors": n, "natural": 0,
                "capped": 0, "reasons": "", "seconds": round(time.perf_counter() - start),
                "first_error": str(why), "command": command(mods, n, players, seed, base)}
    ends = report["endings"]
    errors = report["errors"]
    reasons = ", ".join(f"{e['reason'] or 'none'} {e['games']}" for e in ends["reasons"])
    return {"stack": stack_name(mods), "players": players, "games": n, "errors": len(errors),
            "natural": ends["natural"], "capped": ends["capped"], "reasons": reasons,
            "seconds": round(report["timing"]["seconds"]),
            "first_error": f"game {errors[0]['index']}, seed {errors[0]['seed']}: {errors[0]['error']}" if errors else None,
            "command": command(mods, n, players, seed, base)}


HEADER = "| stack | players | games | errors | natural endings | caps | end reasons | s |\n|---|---|---|---|---|---|---|---|"


def table_row(r: dict) -> str:
    """One markdown row."""
    return (f"| {r['stack']} | {r['players']} | {r['games']} | {r['errors']} | {r['natural']} | {r['capped']} "
            f"| {r['reasons']} | {r['seconds']} |")


def main(argv: list[str] | None = None) -> int:
    """Run the cells; exit 1 when any game failed."""
    ap = argparse.ArgumentParser(
        prog="expansion_batches.py",
        description="Run `grimoire simulate` (guided bots) for each mod stack (Talisman's; Enchanters' with --base) × player count and "
                    "print a markdown table of errors, natural endings, caps and seconds, one row per cell "
                    "as it finishes, then each failing cell's first error.")
    ap.add_argument("--set", dest="sets", action="append", choices=sorted(SETS),
                    help="a named list of stacks (repeatable): issue22 (each of its 7 expansions alone, then "
                         "all 7), issue23 (each of its 9 alone, then all 9), all16 (the 16 together, with "
                         "talisman_cataclysm_terrain which joins the Cataclysm and the Harbinger), issue21 "
                         "(each Enchanters mod alone, then overlords+wounds+kingdoms+odyssey+eastquest; "
                         "its base is rulesets/enchanters)")
    ap.add_argument("--base", help=f"the ruleset the stacks are mods of (default {BASE}, or the set's own base)")
    ap.add_argument("--stack", action="append", default=[],
                    help="one stack: mod folder names under rulesets/, comma-separated (repeatable)")
    ap.add_argument("-n", "--games", type=int, default=100, help="games per cell (default 100)")
    ap.add_argument("--players", default="2..6", help="player counts: 2..6 (default) or 2,4,6")
    ap.add_argument("--seed", type=int, default=1, help="master seed of every cell (default 1)")
    ap.add_argument("--workers", type=int, default=1, help="worker processes per batch (default 1)")
    ap.add_argument("--max-seconds", type=float, default=300, help="wall-clock limit per game (default 300)")
    ap.add_argument("--json", metavar="OUT", help="also write the rows (with commands and first errors) as JSON")
    args = ap.parse_args(argv)
    stacks = [s for name in (args.sets or []) for s in SETS[name]]
    stacks += [[m.strip() for m in s.split(",") if m.strip()] for s in args.stack]
    if not stacks:
        ap.error("give --set or --stack")
    for mods in stacks:
        for m in mods:
            if not (ROOT / "rulesets" / m).is_dir():
                ap.error(f"no mod rulesets/{m}")
    base = args.base or next((BASES[n] for n in (args.sets or []) if n in BASES), BASE)
    rows: list[dict] = []
    print(f"{args.games} games a cell, seed {args.seed}, agents guided, {time.strftime('%Y-%m-%d')}", flush=True)
    print(HEADER, flush=True)
    for mods in stacks:
        for p in parse_players(args.players):
            row = run_cell(mods, args.games, p, args.seed, args.workers, args.max_seconds, base)
            rows.append(row)
            print(table_row(row), flush=True)
            if args.json:
                Path(args.json).write_text(json.dumps(rows, indent=1))
    failing = [r for r in rows if r["errors"]]
    for r in failing:
        print(f"\n{r['stack']}, {r['players']} players: {r['errors']} of {r['games']} games failed; first: "
              f"{r['first_error']}\n  {r['command']}")
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main())
