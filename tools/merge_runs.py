"""Merge mutation runs into a ruleset's record of outcomes (`tools/runs/NAME.json`).

A long run of tools/mutate_rules.py is done in parts, often while scenarios and rule fixes land
beside it: each part's `--json` numbers its lines as the rule files stood when it began, and a fix
that adds or deletes a line moves every line below it. This renumbers each file of outcomes from
the rule files at the commit it was made against to the rule files as they are now (lines matched
by `difflib` on each file's text), drops the outcomes of lines whose code changed since (the next
`--resume` runs them again), and lets each run's outcomes replace the record's for the lines it
visited (later runs win). Outcomes are kept slim (no scenario lists), as the record keeps them:

    python tools/merge_runs.py tools/runs/talisman.json --ruleset rulesets/talisman \\
        --record-at 204d3d2 /work/runs/part_a.json@204d3d2 /work/runs/recheck.json@HEAD
"""
from __future__ import annotations

import argparse
import difflib
import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mutate_rules import find_cards_dir, split_comment  # noqa: E402  (a `#` inside a string is no comment)


def line_map(old: list[str], new: list[str]) -> dict[int, int]:
    """1-based old line → 1-based new line, for the lines `difflib` finds unchanged in their code (a
    comment edited on a line does not move or drop its outcomes)."""
    out = {}
    matcher = difflib.SequenceMatcher(None, [split_comment(t)[0].rstrip() for t in old],
                                      [split_comment(t)[0].rstrip() for t in new], autojunk=False)
    for block in matcher.get_matching_blocks():
        for i in range(block.size):
            out[block.a + i + 1] = block.b + i + 1
    return out


def renumber(outcomes: list[dict], old_texts: dict[str, list[str]], new_texts: dict[str, list[str]]) -> tuple[list[dict], int]:
    """`outcomes` at the new numbering, and how many were dropped (their line's code changed, or
    their rule file is gone). Outcomes of files not in either text are kept as they are. An
    outcome whose line `difflib` does not place (a record whose parts were numbered at other
    commits) goes where its code stands on exactly one line now, if the outcomes name one place for
    that code (as `mutate_rules --resume` finds moved lines); a line written twice is dropped."""
    maps = {name: line_map(old_texts[name], new_texts[name]) for name in old_texts if name in new_texts}
    where_now: dict[tuple[str, str], list[int]] = {}
    for name, lines in new_texts.items():
        for i, text in enumerate(lines, 1):
            where_now.setdefault((name, split_comment(text)[0].strip()), []).append(i)
    places: dict[tuple[str, str], set[str]] = {}
    for o in outcomes:
        places.setdefault((o["where"].rpartition(":")[0], o.get("line", "")), set()).add(o["where"])
    kept, dropped = [], 0
    for o in outcomes:
        name, _, num = o["where"].rpartition(":")
        if name not in new_texts:
            if name in old_texts:
                dropped += 1
            else:
                kept.append(o)
            continue
        new = maps[name].get(int(num)) if name in maps else int(num)
        if new is None or new > len(new_texts[name]) or not _same_code(new_texts[name][new - 1], o.get("line", "")):
            before = old_texts.get(name, [])
            if 0 < int(num) <= len(before) and _same_code(before[int(num) - 1], o.get("line", "")):
                dropped += 1  # its line stood there at its commit and is deleted or edited since: not
                continue      # moved onto another line that happens to hold the same code
            found = where_now.get((name, o.get("line", "")), [])
            if not o.get("line") or len(found) != 1 or len(places[name, o["line"]]) != 1:
                dropped += 1
                continue
            new = found[0]
        kept.append({**o, "where": f"{name}:{new}"})
    return kept, dropped


def _same_code(text: str, line: str) -> bool:
    """Whether a rule file's line holds the code an outcome recorded (`line`, its code as the run
    read it; an outcome without one is trusted)."""
    return not line or split_comment(text)[0].strip() == line.strip()


def merge(record: list[dict], runs: list[list[dict]]) -> list[dict]:
    """`record` with each run's lines' outcomes replacing its own (in order: a later run wins),
    ordered by file and line, each slim."""
    by_where: dict[str, list[dict]] = {}
    for o in record:
        by_where.setdefault(o["where"], []).append(o)
    for run in runs:
        fresh: dict[str, list[dict]] = {}
        for o in run:
            fresh.setdefault(o["where"], []).append(o)
        by_where.update(fresh)

    def place(where: str) -> tuple[str, int]:
        name, _, num = where.rpartition(":")
        return name, int(num)
    return [{**o, "scenarios": []} for where in sorted(by_where, key=place) for o in by_where[where]]


def texts_at(ruleset: Path, commit: str | None) -> dict[str, list[str]]:
    """Each rule file's and card file's lines (by file name: the run names a card effect's line
    `spells.yaml:N`), at `commit` (None: as the files are now)."""
    cards = find_cards_dir(ruleset)
    if commit is None:
        files = sorted(ruleset.glob("*.rules")) + (sorted(cards.glob("*.yaml")) if cards.is_dir() else [])
        return {f.name: f.read_text(encoding="utf-8").splitlines() for f in files}
    root = Path(subprocess.run(["git", "-C", str(ruleset), "rev-parse", "--show-toplevel"], check=True,
                               capture_output=True, text=True).stdout.strip()).resolve()
    out: dict[str, list[str]] = {}
    for folder, suffix in ((ruleset, ".rules"), (cards, ".yaml")):
        rel = folder.resolve().relative_to(root).as_posix()
        listed = subprocess.run(["git", "-C", str(root), "ls-tree", "--name-only", f"{commit}:{rel}"],
                                capture_output=True, text=True)
        if listed.returncode != 0 and folder == cards:
            continue  # no cards at that commit
        listed.check_returncode()
        for n in listed.stdout.split():
            if n.endswith(suffix):
                out[n] = subprocess.run(["git", "-C", str(root), "show", f"{commit}:{rel}/{n}"], check=True,
                                        capture_output=True, text=True).stdout.splitlines()
    return out


def _load(path: str) -> list[dict]:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as err:
        sys.exit(f"{path}: cannot be read ({err.strerror or 'unreadable'})")
    try:
        data = json.loads(text)
    except ValueError as err:
        sys.exit(f"{path}: not the --json of a mutation run (not JSON: {err})")
    if not isinstance(data, list) or not all(isinstance(o, dict) and "where" in o for o in data):
        sys.exit(f"{path}: not the --json of a mutation run (a list of outcomes, each with `where`)")
    return data


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("record", help="the ruleset's record (tools/runs/NAME.json), rewritten in place")
    ap.add_argument("runs", nargs="+", metavar="RUN.json@COMMIT",
                    help="a run's --json and the commit whose rule files it ran on (@HEAD: as they are now)")
    ap.add_argument("--ruleset", required=True, type=Path, help="the ruleset's folder, e.g. rulesets/talisman")
    ap.add_argument("--record-at", metavar="COMMIT", help="the commit the record's numbering is at (default: now)")
    args = ap.parse_args(argv)
    now = texts_at(args.ruleset, None)

    read: dict[str, dict[str, list[str]]] = {}  # commit → its rule files (several runs share one)

    def at(commit: str | None) -> dict[str, list[str]]:
        if commit in (None, "", "HEAD"):
            return now
        if commit not in read:
            try:
                read[commit] = texts_at(args.ruleset, commit)
            except subprocess.CalledProcessError as err:
                sys.exit(f"{commit}: no such commit with {args.ruleset} ({err.stderr.strip()})")
        return read[commit]
    record, dropped = renumber(_load(args.record) if Path(args.record).exists() else [], at(args.record_at), now)
    runs = []
    for spec in args.runs:
        path, _, commit = spec.rpartition("@") if "@" in spec else (spec, "", "HEAD")
        run, lost = renumber(_load(path), at(commit), now)
        runs.append(run)
        print(f"{path}: {len({o['where'] for o in run})} lines, {len(run)} outcomes kept, {lost} dropped (code changed)")
    out = merge(record, runs)
    Path(args.record).write_text(json.dumps(out, indent=0) + "\n", encoding="utf-8")
    print(f"{args.record}: {len({o['where'] for o in out})} lines, {len(out)} outcomes "
          f"({dropped} of the record's dropped: code changed)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
