"""Seeded games of every ruleset, recorded as small fingerprints (scores, turns, decisions,
steps, digests of the choices, the log and the final state), so that speed work can prove it
changed nothing: same seed and choices must give bit-identical games (the step count, which
measures the work done, may only go down).

    python tests/golden_games.py --write     # record tests/fixtures/golden_games.json
    python tests/golden_games.py --add       # record only games not yet there (a new ruleset)
    python tests/golden_games.py --write RS  # re-record one ruleset after a deliberate rule change
    python tests/golden_games.py             # compare every recorded game (slower than the test)
    ... --workers N                          # play the games in N processes (default: one per core)

`--write` and `--add` also re-record the readable transcripts of tests/transcripts.py (one game
per ruleset and player count), so that one command keeps both in step.
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulekit import played_rulesets  # noqa: E402
from interpreter.api import load_program  # noqa: E402
from interpreter.play.session import GameRecord, agents_for, game_seed, play  # noqa: E402

GOLDEN = ROOT / "tests" / "fixtures" / "golden_games.json"
SEEDS = 30  # games per ruleset and player count in the golden file
MASTER = 7  # the master seed: game i plays with game_seed(MASTER, i)
AGENTS = {"random": ["random"], "first": ["first"]}


def _h(v) -> str:
    return hashlib.sha256(json.dumps(v, sort_keys=True, default=str).encode()).hexdigest()[:16]


def fingerprint(ruleset: str, players: int, index: int, agents: str = "random") -> dict:
    """One game's outcome, as data that any change of behaviour would alter."""
    program = load_program(ROOT / "rulesets" / ruleset)
    seed = game_seed(MASTER, index)
    return summary(play(program, players, seed, agents_for(AGENTS[agents], players, seed)))


def summary(rec: GameRecord) -> dict:
    """The fingerprint of a played game (tests/transcripts.py checks its games against these)."""
    return {"result": rec.result, "error": rec.error, "steps": rec.steps, "decisions": len(rec.choices),
            "choices": _h(rec.choices), "held": _h(rec.held)}


def cases(seeds: int = SEEDS):
    """(ruleset, players, index, agents) of every recorded game."""
    for rs in [p.name for p in played_rulesets()]:
        prog = load_program(ROOT / "rulesets" / rs)
        for n in range(prog.rs.min_players, prog.rs.max_players + 1):
            for i in range(seeds):
                yield rs, n, i, "random" if i % 5 else "first"


def key(rs: str, n: int, i: int, agents: str) -> str:
    return f"{rs}/{n}/{i}/{agents}"



def same_game(old: dict | None, new: dict) -> bool:
    """The same game: every field equal, except that the step count (work done, not play) may be
    lower — skipping state-based rule runs that change nothing (instancedeps.py) saves steps."""
    if old is None:
        return False
    return ({k: v for k, v in old.items() if k != "steps"} == {k: v for k, v in new.items() if k != "steps"}
            and new["steps"] <= old["steps"])


def recorded(case) -> dict:
    """The recorded fingerprint of one case."""
    return json.loads(GOLDEN.read_text())[key(*case)]


def _fingerprint_case(case) -> dict:
    return fingerprint(*case)


def main() -> int:
    args = sys.argv[1:]
    write, add = "--write" in args, "--add" in args
    workers = int(args[args.index("--workers") + 1]) if "--workers" in args else (os.cpu_count() or 1)
    only = {a for a in args if not a.startswith("--") and not a.isdigit()}
    old = json.loads(GOLDEN.read_text()) if GOLDEN.exists() else {}
    out, bad, fewer = dict(old), 0, 0
    todo = [c for c in cases() if (not only or c[0] in only) and not (add and key(*c) in old)
            and (write or add or key(*c) in old)]  # unrecorded rulesets are compared only after `--add`
    with ProcessPoolExecutor(max(1, workers)) as pool:
        prints = list(pool.map(_fingerprint_case, todo, chunksize=4))
    for c, fp in zip(todo, prints):
        out[key(*c)] = fp
        if not (write or add) and not same_game(old.get(key(*c)), fp):
            bad += 1
            print("DIFFERS:", key(*c), old.get(key(*c)), fp)
        elif not (write or add) and old[key(*c)]["steps"] != fp["steps"]:
            fewer += 1
    if write or add:
        GOLDEN.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")
        print(f"{len(out)} games recorded in {GOLDEN}")
        import transcripts  # the readable transcripts of the same games follow the hashes (lazy: it imports this)
        print(f"{transcripts.write(only or None, add=add)} transcripts written in {transcripts.FOLDER}")
    else:
        print(f"{len(out) - bad} of {len(out)} games identical ({fewer} of them in fewer steps)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
