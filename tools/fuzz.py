"""Fuzz the loader and checker: mutated rule and card files must only ever give diagnostics.

    python tools/fuzz.py --seconds 300 --seed 1            # mutate every ruleset's files
    python tools/fuzz.py --seconds 60 --report docs/fuzzing.md

Mutations (seeded, reproducible): delete/duplicate/swap lines, change indentation, cut the file,
insert random tokens from the grammar's vocabulary, replace names with near-misses, flip YAML
scalars between types, nest deeply, and splice lines of one file into another. Each mutant is
written to a temporary ruleset folder and run through `interpreter.api.check_path`, then, when it
checks clean, compiled and played for one seeded game. Anything other than diagnostics or a
RuleError is a crash: it is saved under tools/fuzz-crashes/ with the exception.
"""
from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter.api import check_path  # noqa: E402
from interpreter.language.diagnostics import ContentError  # noqa: E402
from interpreter.engine.game import Limits, Program  # noqa: E402
from interpreter.engine.factory import new_game  # noqa: E402

TOKENS = ["if", "else", "for each", "in", "where", "move", "to", "draw", "from", "place", "on", "when", ":",
          "(", ")", "[", "]", "{", "}", ",", "..", "==", "!=", "+=", "of", "your", "you", "it", "not", "and",
          "or", "every", "has", "repeat", "while", "break", "end game", "fire", "choose", "may", '"text"',
          "0", "-1", "99999999999999999999", "\t", "    ", "\n", "#", "'", "\\", "é", "\x00", "🃏"]
YAML_BITS = ["!!python/object:os.system", "&a [*a]", "*undefined", "{", "- - -", ": :", "yes", "null",
             "1e9", "-0", "'x'", "[1, 2", "copies: 100000", "type: Nope", "effect: |\n    when x:\n  bad"]


def mutate(text: str, rng: random.Random, is_yaml: bool) -> str:
    lines = text.splitlines()
    for _ in range(rng.randint(1, 4)):
        if not lines:
            lines = [""]
        op = rng.randrange(9)
        i = rng.randrange(len(lines))
        if op == 0:
            del lines[i]
        elif op == 1:
            lines.insert(i, lines[rng.randrange(len(lines))])
        elif op == 2:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif op == 3:
            lines[i] = " " * rng.choice([1, 2, 3, 5, 8]) + lines[i]
        elif op == 4:
            lines = lines[:i]
        elif op == 5:
            line = lines[i]
            k = rng.randrange(len(line) + 1)
            bit = rng.choice(YAML_BITS if is_yaml else TOKENS)
            lines[i] = line[:k] + bit + line[k:]
        elif op == 6:
            words = lines[i].split()
            if words:
                w = rng.randrange(len(words))
                word = words[w]
                if len(word) > 2:
                    k = rng.randrange(len(word))
                    words[w] = word[:k] + word[k + 1:]
                lines[i] = " ".join(words)
        elif op == 7:
            depth = rng.choice([30, 200, 2000])
            lines.insert(i, ("[" * depth + "]" * depth) if not is_yaml else ("- " * depth + "x"))
        else:
            line = lines[i]
            if line:
                k = rng.randrange(len(line))
                lines[i] = line[:k] + chr(rng.randrange(32, 127)) + line[k + 1:]
    return "\n".join(lines) + ("\n" if rng.random() < 0.9 else "")


def one(ruleset: Path, cards: Path | None, rng: random.Random, work: Path) -> str | None:
    """Mutate one file of a ruleset, check it; return a crash description or None."""
    target = work / "fuzzed"
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(ruleset, target)
    if cards is not None and cards.is_dir():
        shutil.copytree(cards, target / "cards")
    files = sorted(p for p in target.rglob("*") if p.suffix in (".rules", ".yaml", ".yml"))
    f = rng.choice(files)
    f.write_text(mutate(f.read_text(encoding="utf-8"), rng, f.suffix != ".rules"), encoding="utf-8")
    try:
        rs, content = check_path(target)
        if rs is not None and content.ok:
            game = new_game(Program(rs), rs.min_players, rng.randrange(1000), limits=Limits(max_steps=200_000, max_turns=500))
            play_rng = random.Random(rng.random())
            while not game.over:
                game.answer(play_rng.randrange(len(game.decision.options)))
    except ContentError:
        pass
    except Exception:
        return f"{f.relative_to(work)}\n{traceback.format_exc()}\n--- mutated file ---\n{f.read_text(encoding='utf-8')}"
    return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--report", help="append a summary line to this markdown file")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    rulesets = sorted(p for p in (ROOT / "rulesets").iterdir() if p.is_dir())
    crashes_dir = ROOT / "tools" / "fuzz-crashes"
    tried = crashes = 0
    start = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        while time.time() - start < args.seconds:
            rs = rng.choice(rulesets)
            crash = one(rs, ROOT / "cards" / rs.name, rng, work)
            tried += 1
            if crash:
                crashes += 1
                crashes_dir.mkdir(exist_ok=True)
                (crashes_dir / f"crash-{args.seed}-{tried}.txt").write_text(crash, encoding="utf-8")
                print(f"crash #{crashes} (mutant {tried}): {crash.splitlines()[-1][:120]}", file=sys.stderr)
    elapsed = time.time() - start
    line = (f"| {time.strftime('%Y-%m-%d')} | `python tools/fuzz.py --seconds {args.seconds:g} --seed {args.seed}` "
            f"| {tried} | {crashes} | {tried / elapsed:.1f}/s |")
    print(f"{tried} mutants in {elapsed:.0f} s, {crashes} crashes")
    if args.report:
        with open(args.report, "a", encoding="utf-8") as f:
            f.write(line + "\n")
    return 1 if crashes else 0


if __name__ == "__main__":
    raise SystemExit(main())
