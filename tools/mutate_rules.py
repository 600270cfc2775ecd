"""Mutation testing of rule citations: does a scenario that cites a rule really assert it?

    python tools/mutate_rules.py rulesets/magical_treehouse tests/scenarios/magical_treehouse MT
    python tools/mutate_rules.py RULESET SCENARIOS PREFIX --every --json out.json

Every code line of the ruleset's .rules files that cites rule IDs (`# MT-014`, `# MT-127..MT-133`,
in a comment at the end of the line or in a comment block right above it) gets one plausible
breaking mutation: a statement becomes `pass`, a condition is negated, a score or tie-break is
reversed, a comparison, `and`/`or`, an arithmetic operator or `+=` is flipped, a number or a
visibility changes, a block's body becomes `pass` or its first line gets one of the flips —
the first of these that still validates (mutants the checker rejects are skipped). The mutant
is compiled once, and only the scenarios whose `covers:` cite one of the line's IDs are run on
it, in-process. A mutant SURVIVES when none of them fails: the line's rules are cited but the
scenarios would not notice them broken. `--every` tries every valid mutation of each line.
"""
from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import interpreter.play.scenario as scenario_mod  # noqa: E402
from interpreter.api import check_path  # noqa: E402
from interpreter.engine.game import Limits, Program  # noqa: E402
from interpreter.runtime.errors import RuleError  # noqa: E402
from interpreter.content.loader import find_cards_dir  # noqa: E402

STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
HEADER = re.compile(r"^(\s*)(if|elif|while)\s+(.*):\s*$")
DECLARATION = re.compile(r"^(game|card|zone|stat|player|constant|function|placement|score|tiebreak|"
                         r"procedure|turn|round|setup|on|when)\b")
COMPARISONS = [("==", "!="), ("!=", "=="), (">=", ">"), ("<=", "<"), (">", ">="), ("<", "<=")]
VISIBILITY = [("owner", "public"), ("hidden", "public"), ("public", "hidden")]
VISIBILITY_MUTATIONS = {f"`{a}` -> `{b}`" for a, b in VISIBILITY}


@dataclass
class Site:
    """One code line (with its continuation lines) citing rule IDs."""
    file: Path
    first: int  # 0-based index of the first physical line
    last: int  # index of the last physical line (continuations end in `\`)
    ids: list[str]

    @property
    def text(self) -> str:
        return self.file.read_text(encoding="utf-8").splitlines()[self.first]


@dataclass
class Outcome:
    where: str
    ids: list[str]
    mutation: str
    scenarios: list[str]
    status: str  # killed | survived | invalid (no valid mutant) | uncited (no scenario cites it)
    killed_by: list[str] = field(default_factory=list)


def ids_in(comment: str, prefix: str) -> list[str]:
    """Rule IDs in a comment; `P-010..P-013` is a range."""
    out: list[str] = []
    pat = re.compile(rf"{re.escape(prefix)}-(\d+)(?:\s*\.\.\s*{re.escape(prefix)}-(\d+))?")
    for m in pat.finditer(comment):
        a = int(m.group(1))
        b = int(m.group(2)) if m.group(2) else a
        width = len(m.group(1))
        out += [f"{prefix}-{i:0{width}d}" for i in range(a, b + 1)]
    return out


def split_comment(line: str) -> tuple[str, str]:
    """Code and comment of a line (a `#` inside a string is not a comment)."""
    masked = STRING.sub(lambda m: "_" * len(m.group()), line)
    i = masked.find("#")
    return (line, "") if i < 0 else (line[:i], line[i:])


def find_sites(rules_dir: Path, prefix: str) -> list[Site]:
    sites: list[Site] = []
    for f in sorted(rules_dir.glob("*.rules")):
        lines = f.read_text(encoding="utf-8").splitlines()
        above: list[str] = []  # IDs of the comment block right above
        i = 0
        while i < len(lines):
            code, comment = split_comment(lines[i])
            if not code.strip():
                stripped = lines[i].strip()
                if stripped.startswith("#") and not stripped.startswith("# ----"):
                    above += ids_in(comment, prefix)
                else:
                    above = []
                i += 1
                continue
            j = i
            while split_comment(lines[j])[0].rstrip().endswith("\\") and j + 1 < len(lines):
                j += 1
            ids = above + [r for k in range(i, j + 1) for r in ids_in(split_comment(lines[k])[1], prefix)]
            if ids:
                sites.append(Site(f, i, j, list(dict.fromkeys(ids))))
            above = []
            i = j + 1
    return sites


def _masked(code: str) -> str:
    return STRING.sub(lambda m: "_" * len(m.group()), code)


def mutations(lines: list[str], site: Site) -> list[tuple[str, list[str]]]:
    """Candidate mutants of a site, most telling first: (description, replacement lines)."""
    block = lines[site.first:site.last + 1]
    first_code, _ = split_comment(block[0])
    indent = first_code[:len(first_code) - len(first_code.lstrip())]
    stripped = first_code.strip()
    out: list[tuple[str, list[str]]] = []
    if indent and not stripped.endswith(":") and not stripped.startswith("else"):
        out.append(("statement -> pass", [indent + "pass"] + [""] * (len(block) - 1)))
    m = HEADER.match(first_code) if len(block) == 1 else None
    if m:
        out.append((f"negate `{m.group(2)}` condition",
                    [f"{m.group(1)}{m.group(2)} not ({m.group(3).strip()}):"]))
    m = re.match(r"^(score|tiebreak)(\s+\w+\s*:\s*)(.*?)\s*$", first_code) if len(block) == 1 else None
    if m:  # a score or tie-break: the order reversed
        out.append((f"negate the {m.group(1)}", [f"{m.group(1)}{m.group(2)}0 - ({m.group(3)})"]))
    for k, line in enumerate(block):
        for desc, new in operator_mutations(line, stripped.startswith("zone ")):
            out.append((desc, block[:k] + [new] + block[k + 1:]))
    if stripped.endswith(":"):  # a block header: its whole body becomes `pass`
        end = _block_end(lines, site.last, len(indent))
        if end > site.last + 1:
            body_indent = next(ln[:len(ln) - len(ln.lstrip())] for ln in lines[site.last + 1:end] if ln.strip())
            out.append(("block body -> pass", block + [body_indent + "pass"] + [""] * (end - site.last - 2)))
            first = next(i for i in range(site.last + 1, end) if split_comment(lines[i])[0].strip())
            for desc, line in operator_mutations(lines[first], False):  # e.g. a placement rule's test
                out.append((f"first line of the body: {desc}", lines[site.first:first] + [line]))
    return out


def operator_mutations(line: str, is_zone: bool) -> list[tuple[str, str]]:
    """One-line mutants: the first comparison, `and`/`or`, arithmetic operator and `+=` of each
    kind flipped, the last number changed, a zone's visibility changed."""
    code, comment = split_comment(line)
    masked = _masked(code)
    out: list[tuple[str, str]] = []
    for a, b in COMPARISONS:  # not the halves of `+=`, `<=` and the like
        mm = re.search(rf"(?<![=!<>+\-]){re.escape(a)}(?![=<>])", masked)
        if mm:
            out.append((f"`{a}` -> `{b}`", code[:mm.start()] + b + code[mm.start() + len(a):] + comment))
    for a, b in ((" or ", " and "), (" and ", " or "), (" / ", " * "), (" + ", " - "), (" - ", " + ")):
        i = masked.find(a)
        if i >= 0:
            out.append((f"`{a.strip()}` -> `{b.strip()}`", code[:i] + b + code[i + len(a):] + comment))
    for mm in re.finditer(r"(\+=|-=)", masked):
        b = "-=" if mm.group() == "+=" else "+="
        out.append((f"`{mm.group()}` -> `{b}`", code[:mm.start()] + b + code[mm.start() + 2:] + comment))
    nums = list(re.finditer(r"(?<![\w.])\d+(?![\w])(?!\.\.)", masked))
    if nums:  # the last number of the line (a declared stat's default, a constant's value)
        mm = nums[-1]
        n = int(mm.group())
        b = str(n - 1 if n > 0 else 1)
        out.append((f"number {n} -> {b}", code[:mm.start()] + b + code[mm.end():] + comment))
    if is_zone:
        for a, b in VISIBILITY:
            if re.search(rf"\b{a}\b", masked):
                out.append((f"`{a}` -> `{b}`", re.sub(rf"\b{a}\b", b, code, count=1) + comment))
                break
    return out


def _block_end(lines: list[str], header: int, indent: int) -> int:
    """Index just past the body of the block whose header ends at line `header`."""
    i = header + 1
    while i < len(lines):
        code = split_comment(lines[i])[0]
        if code.strip() and len(code) - len(code.lstrip()) <= indent:
            break
        i += 1
    while i > header + 1 and not split_comment(lines[i - 1])[0].strip():
        i -= 1  # trailing blank lines and comments belong to what follows
    return i


def scenario_index(scen_dir: Path, rules_dir: Path) -> dict[str, list[Path]]:
    """Rule ID -> the scenarios of this ruleset whose `covers:` cite it."""
    index: dict[str, list[Path]] = {}
    for f in sorted(scen_dir.glob("*.yaml")):
        sc = scenario_mod.load_scenario(f)
        if (f.parent / sc.ruleset).resolve() != rules_dir.resolve():
            continue
        for rid in sc.covers:
            index.setdefault(rid, []).append(f)
    return index


def work_copy(rules_dir: Path, tmp: Path) -> Path:
    """A copy of the ruleset folder (with its cards) to write mutants into."""
    work = tmp / rules_dir.name
    shutil.copytree(rules_dir, work)
    cards = find_cards_dir(rules_dir)
    if cards.is_dir() and not (work / "cards").exists():
        shutil.copytree(cards, work / "cards")
    return work


def compile_mutant(work: Path) -> Program | None:
    rs, content = check_path(work)
    if rs is None or not content.ok:
        return None
    try:
        return Program(rs)
    except RuleError:
        return None


def run_scenarios(program: Program, rules_dir: Path, files: list[Path], max_steps: int) -> list[str]:
    """Names of the scenarios that fail on `program` (run in-process, the program loaded once)."""
    real_load, real_game = scenario_mod.load_program, scenario_mod.Game

    def load(path):
        return program if Path(path).resolve() == rules_dir.resolve() else real_load(path)

    def game(prog, players, seed=0, **kw):  # a mutant may loop: tighter limits end it quickly
        return real_game(prog, players, seed, limits=Limits(max_steps=max_steps, max_turns=500), **kw)

    scenario_mod.load_program, scenario_mod.Game = load, game
    try:
        return [f.name for f in files if not scenario_mod.run_scenario(f).passed]
    finally:
        scenario_mod.load_program, scenario_mod.Game = real_load, real_game


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ruleset", type=Path)
    ap.add_argument("scenarios", type=Path)
    ap.add_argument("prefix", help="rule-ID prefix, e.g. MT")
    ap.add_argument("--every", action="store_true", help="try every valid mutation of each line")
    ap.add_argument("--max-steps", type=int, default=300_000)
    ap.add_argument("--json", type=Path, help="write every outcome here")
    ap.add_argument("--quiet", action="store_true", help="print only survivors and the summary")
    args = ap.parse_args(argv)
    rules_dir = args.ruleset.resolve()
    index = scenario_index(args.scenarios, rules_dir)
    baseline = compile_mutant(rules_dir)
    if baseline is None:
        print("the ruleset itself does not validate", file=sys.stderr)
        return 2
    broken = run_scenarios(baseline, rules_dir, sorted({f for fs in index.values() for f in fs}), args.max_steps)
    if broken:
        print(f"scenarios failing before any mutation: {broken}", file=sys.stderr)
        return 2
    sites = find_sites(rules_dir, args.prefix)
    outcomes: list[Outcome] = []
    start = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        work = work_copy(rules_dir, Path(tmp))
        for site in sites:
            where = f"{site.file.name}:{site.first + 1}"
            files = sorted({f for rid in site.ids for f in index.get(rid, [])})
            if not files:
                outcomes.append(Outcome(where, site.ids, "", [], "uncited"))
                continue
            original = site.file.read_text(encoding="utf-8")
            lines = original.splitlines()
            target = work / site.file.name
            tried = 0
            for desc, repl in mutations(lines, site):
                mutant = lines[:site.first] + repl + lines[site.first + len(repl):]  # same length
                target.write_text("\n".join(mutant) + "\n", encoding="utf-8")
                program = compile_mutant(work)
                if program is None:
                    continue
                tried += 1
                failing = run_scenarios(program, rules_dir, files, args.max_steps)
                outcomes.append(Outcome(where, site.ids, desc, [f.name for f in files],
                                        "killed" if failing else "survived", failing))
                if not args.every:
                    break
            target.write_text(original, encoding="utf-8")
            if not tried:
                outcomes.append(Outcome(where, site.ids, "", [f.name for f in files], "invalid"))
    for o in outcomes:
        if args.quiet and o.status != "survived":
            continue
        print(f"{o.status.upper():9} {o.where:18} {','.join(o.ids):22} {o.mutation}"
              + (f"  [{', '.join(o.scenarios)}]" if o.status == "survived" else ""))
    counts = {s: sum(o.status == s for o in outcomes) for s in ("killed", "survived", "invalid", "uncited")}
    tried = counts["killed"] + counts["survived"]
    unseen = sum(o.status == "survived" and o.mutation in VISIBILITY_MUTATIONS for o in outcomes)
    print(f"\n{len(sites)} citing lines; {tried} mutants run: {counts['killed']} killed, "
          f"{counts['survived']} survived ({unseen} of them only change what players see, which "
          f"scenarios cannot state); {counts['invalid']} lines without a valid mutant; "
          f"{counts['uncited']} lines whose rules no scenario cites ({time.time() - start:.0f}s)")
    if args.json:
        args.json.write_text(json.dumps([asdict(o) for o in outcomes], indent=1), encoding="utf-8")
    return 1 if counts["survived"] else 0


if __name__ == "__main__":
    sys.exit(main())
