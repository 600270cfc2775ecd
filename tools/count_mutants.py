"""Count the mutants `tools/mutate_rules.py` makes of some rule lines, without running any test.

    python tools/count_mutants.py rulesets/magical_treehouse game.rules:76 game.rules:78 ...

Each line gets the first three mutations the checker accepts and the ruleset still compiles with
(as a run's default `--per-line 3` takes them), and the total is printed. Why: after rule lines are
deleted or rewritten, a full run's count of mutants can be brought up to date from the changed
lines alone (the old count on the old file, the new one on the new) instead of a run of hours; a
commit's old file is had with `git archive COMMIT | tar -x -C DIR` and this script run from there.
"""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import mutate_rules as mr  # noqa: E402


def count(rules_dir: Path, wanted: set[str], per_line: int = 3) -> dict[str, list[str]]:
    """Rule line (as a run's report names it) -> the mutations a run would try on it."""
    base = mr.compile_mutant(rules_dir)
    if base is None:
        raise SystemExit(f"{rules_dir} does not validate")
    zones = tuple(base.rs.zones)
    sites = [s for s in mr.every_rule_line(rules_dir, "") if f"{s.file.name}:{s.first + 1}" in wanted]
    out: dict[str, list[str]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        work = mr.work_copy(rules_dir, Path(tmp))
        for site in sites:
            target = mr.in_copy(site.file, rules_dir, work)
            original = target.read_text(encoding="utf-8")
            out[f"{site.file.name}:{site.first + 1}"] = [
                desc for desc, _, _ in mr.valid_mutants(site, original, zones, target, work, per_line)]
    return out


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    found = count(Path(argv[0]).resolve(), set(argv[1:]))
    for where, descs in found.items():
        print(f"{where:26} {len(descs)}  {', '.join(descs)}")
    print(f"{sum(len(d) for d in found.values())} mutants on {len(found)} of {len(argv) - 1} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
