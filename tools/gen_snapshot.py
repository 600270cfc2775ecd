"""Snapshot the code generator's output, to prove a refactoring of it changes nothing.

`write DIR` dumps, for every ruleset folder under rulesets/ (alone), the Talisman mod stacks the
tests play (tests/games/test_talisman_stacks.py) and, with `--fixtures`, every loadable ruleset
under tests/, the generated module of each form: the direct source (engine/direct.py) with the
rule location of each generated line and the constants table, its observed form
(engine/directobserved.py) and its copyable form lowered whole (engine/resumablegame.py). A
ruleset that cannot be loaded or compiled is dumped as its error message, so that stays the same
too. `compare DIR` dumps again and reports every target whose dump differs (exit status 1), with
the first differing lines; run `write` before a change and `compare` after it.

    python tools/gen_snapshot.py write /tmp/before --fixtures
    python tools/gen_snapshot.py compare /tmp/before --fixtures
"""
from __future__ import annotations

import argparse
import difflib
import os
import sys
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parents[1]
if __name__ == "__main__" and os.environ.get("PYTHONHASHSEED") != "0":  # sets of names print in one order
    os.environ["PYTHONHASHSEED"] = "0"
    os.execv(sys.executable, [sys.executable, *sys.argv])
sys.path.insert(0, str(ROOT))

from interpreter.api import load_program  # noqa: E402
from interpreter.engine.direct import compile_direct  # noqa: E402
from interpreter.engine.directobserved import compile_observed  # noqa: E402
from interpreter.engine.resumablegame import lower_whole  # noqa: E402

# the mods whose hooks meet, in their one order (tests/games/test_talisman_stacks.py ORDERED)
_ORDERED = ["talisman_bloodmoon", "talisman_reaper", "talisman_souls", "talisman_harbinger", "talisman_regions",
            "talisman_highland", "talisman_dungeon", "talisman_city", "talisman_woodland", "talisman_dragon"]


def targets(fixtures: bool) -> Iterator[tuple[str, str]]:
    """(dump name, path or stack) of everything to snapshot, in a fixed order."""
    folders = sorted(p for p in (ROOT / "rulesets").iterdir() if (p / "game.rules").is_file())
    for p in folders:
        yield p.name, str(p)
    mods = [p.name for p in folders if p.name.startswith("talisman_")]
    base = ROOT / "rulesets" / "talisman"
    for name, stack in (("stack_all", mods[::-1]), ("stack_ordered", _ORDERED)):
        yield name, f"{base} --with " + ",".join(str(ROOT / "rulesets" / m) for m in stack)
    if fixtures:
        for rules in sorted((ROOT / "tests").rglob("game.rules")):
            folder = rules.parent
            yield "tests__" + "__".join(folder.relative_to(ROOT / "tests").parts), str(folder)


def _const(v: Any) -> str:
    """A constant of the table as text that does not depend on object ids."""
    if isinstance(v, (int, str, bool, float, type(None), tuple, frozenset)):
        return repr(v)
    loc = getattr(v, "loc", None)
    return f"<{type(v).__name__} {loc}>" if loc is not None else f"<{type(v).__name__} {v!r}>"[:300]


def dump(path: str, resumable: bool) -> str:
    """Everything the code generator wrote for `path`, as text."""
    try:
        dp = compile_direct(load_program(path))
    except Exception as why:  # a ruleset that does not load or compile: its error is its snapshot
        return f"ERROR {type(why).__name__}: {why}\n"
    out = ["# direct source", dp.source, "# line locations"]
    out += [f"{i + 1}: {loc}" for i, loc in enumerate(dp.lines)]
    out += ["# constants"] + [f"_k{i} = {_const(v)}" for i, v in enumerate(dp.K)]
    out += ["# info", repr(sorted((k, repr(v)) for k, v in dp.info.items()))]
    try:
        out += ["# observed source", compile_observed(dp).source]
    except Exception as why:
        out += [f"# observed: ERROR {type(why).__name__}: {why}"]
    if resumable:
        try:
            out += ["# resumable source", lower_whole(dp).source]
        except Exception as why:
            out += [f"# resumable: ERROR {type(why).__name__}: {why}"]
    return "\n".join(out) + "\n"


def _first_difference(old: str, new: str) -> str:
    """The lines around the first difference, long lines cut around where they differ."""
    a, b = old.splitlines(), new.splitlines()
    i = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    out = [f"first difference at line {i + 1} ({len(a)} lines before, {len(b)} after)"]
    x, y = (a[i] if i < len(a) else "<none>"), (b[i] if i < len(b) else "<none>")
    j = next((j for j, (p, q) in enumerate(zip(x, y)) if p != q), min(len(x), len(y)))
    lo = max(0, j - 150)
    out += [f"- {x[lo:j + 150]}", f"+ {y[lo:j + 150]}"]
    diff = difflib.unified_diff(a[i:i + 30], b[i:i + 30], "before", "after", lineterm="", n=2)
    out += [line[:300] for line in list(diff)[2:30]]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("action", choices=["write", "compare"], help="write a snapshot, or compare with one")
    ap.add_argument("dir", type=Path, help="the snapshot's folder (one .txt per ruleset or stack)")
    ap.add_argument("--fixtures", action="store_true", help="also every ruleset folder under tests/")
    ap.add_argument("--no-resumable", action="store_true", help="leave out the copyable form (faster)")
    ap.add_argument("--only", default="", help="only the targets whose name contains this text")
    args = ap.parse_args(argv)
    if args.action == "write":
        args.dir.mkdir(parents=True, exist_ok=True)
    differ = 0
    seen = 0
    for name, path in targets(args.fixtures):
        if args.only not in name:
            continue
        f = args.dir / f"{name}.txt"
        if args.action == "compare" and not f.is_file():
            print(f"NOT IN THE SNAPSHOT: {name}")
            continue
        seen += 1
        text = dump(path, not args.no_resumable)
        if args.action == "write":
            f.write_text(text)
            continue
        old = f.read_text()
        if args.no_resumable:  # a snapshot written with the copyable form: compare the rest
            old = old.split("\n# resumable source\n")[0].split("\n# resumable: ERROR")[0].rstrip("\n")
            text = text.rstrip("\n")
        if old != text:
            differ += 1
            print(f"DIFFERS: {name}")
            print(_first_difference(old, text))
    if args.action == "compare":
        print(f"{seen - differ} of {seen} identical")
    else:
        print(f"{seen} written to {args.dir}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
