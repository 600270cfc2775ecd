"""Mutation testing of a ruleset's rule tests: can a rule line be broken without a test failing?

    python tools/mutate_rules.py rulesets/tutorial_fireflies
    python tools/mutate_rules.py rulesets/toil_and_troublez --prefix TT --json tt.json
    python tools/mutate_rules.py rulesets/talisman --prefix TA --limit 300 --seed 1   # a sample

Every rule line of the ruleset — each code line of its .rules files and of its cards' `effect: |`
blocks — is broken in up to `--per-line` (default 3) ways, the first ones that still validate:
a statement becomes `pass`; an `if`/`elif`/`while` condition is negated; a score or tie-break is
reversed; a comparison, `and`/`or`, an arithmetic operator or `+=` is flipped; the last number
changes by one; a zone's visibility changes; a block's body becomes `pass` or its first line
gets one of the flips (mutants the checker rejects are skipped; `--every`: all of them).

Each mutant is written into a copy of the repository's rulesets/ and cards/ (so `extends` and
card folders resolve as in the real tree), compiled once, and met by ONLY that ruleset's rule
tests that execute the code it changes (coverage analysis, tools/rulecover.py: every scenario
and pytest test is run once unmutated under a tracing hook that records the rule lines it
executes; the mutant's generated code is compared with the ruleset's, rule line by rule line;
data changes, declarations and shared code meet every test), cheapest first, stopping at the
first failure:
  1. the scenarios whose `covers:` cite a rule ID of the line (`# TT-047` at the end of the line
     or in the comment block above it; `--prefix` names the IDs), in-process;
  2. the ruleset's other scenarios (tests/scenarios/NAME/ and NAME/scenarios/), in-process (a
     mod's scenarios stack it on its base with `with:`: that stack is compiled again from the
     mutant's copy, once a mutant);
  3. its own pytest files (test_NAME.py, test_NAME_*.py under tests/; `--tests` to choose),
     copied beside the mutant copy and run in a child process forked from the tool (a new
     interpreter with `--test-subprocess`), only the test functions that reach the change — not
     the golden-game hashes.
A mutant whose changed code no test executes is NOT-REACHED (a survivor; nothing is run);
`--all-tests` meets every mutant with every test (to check that the selection changes nothing).
A mutant that none of them notices SURVIVES, listed with its line. A card type field's range
whose top is lowered by one where no card of the ruleset comes above the new top, and nothing
reads the range (`RangeTopProof`), is EQUIVALENT: proved, not run, listed apart from the
survivors (`--no-proofs` runs it as any other). One killed only by step 2
or 3 shows a line whose citing scenarios do not assert it (KILLED-OTHER, KILLED-TESTS).
`--limit N` runs at most N mutants, visiting the lines in a seeded random order; `--minutes M`
stops after M minutes (both for the big rulesets on a shared machine; see docs/testing.md).
A run longer than one sitting goes in parts: `--json FILE` is rewritten after every line, so a
run stopped at any moment (Ctrl-C, `--minutes`, the machine going away) keeps what it found, and
`--resume FILE` takes those outcomes as done and runs only the lines missing from it (a line
whose code changed since is run again; one that only moved, the same code on one line of its file
then and now, keeps its outcomes at its new place), writing the whole to `--json`.
Exit status 1 when a mutant survived, 2 when the tests fail before any mutation.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import signal
import tempfile
import threading
import time
import traceback
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TOOLS = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(TOOLS))

import interpreter.play.scenario as scenario_mod  # noqa: E402
import interpreter.play.variants as variants_mod  # noqa: E402
from interpreter.api import check_path  # noqa: E402
from interpreter.engine.game import Limits, Program  # noqa: E402
from interpreter.runtime.errors import RuleError  # noqa: E402
from interpreter.content.loader import find_cards_dir  # noqa: E402
from interpreter.content.stack import split_stack, stack_path  # noqa: E402
from interpreter.language.diagnostics import ContentError, Diagnostic  # noqa: E402
from interpreter.engine.direct import DirectProgram, compile_direct  # noqa: E402
from interpreter.language.tree import walk  # noqa: E402
from interpreter.engine.directexpr import Unsupported  # noqa: E402
import rulecover  # noqa: E402

STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
HEADER = re.compile(r"^(\s*)(if|elif|while)\s+(.*):\s*$")
DECLARATION = re.compile(r"^(game|card|zone|stat|player|constant|function|placement|score|tiebreak|"
                         r"procedure|turn|round|setup|on|when)\b")
COMPARISONS = [("==", "!="), ("!=", "=="), (">=", ">"), ("<=", "<"), (">", ">="), ("<", "<=")]
VISIBILITY = [("owner", "public"), ("hidden", "public"), ("public", "hidden")]
VISIBILITY_MUTATIONS = {f"`{a}` -> `{b}`" for a, b in VISIBILITY}
SWAPS = [(r"\bfirst\(", "last("), (r"\blast\(", "first("), (r"\bmin\(", "max("), (r"\bmax\(", "min("),
         (r"\bevery\b", "some"), (r"\bsome\b", "every"), (r"\bbreak\b", "continue"),
         (r"\bcontinue\b", "break"),
         (r"\btrue\b", "false"), (r"\bfalse\b", "true"), (r"\bis empty\b", "is not empty"),
         (r"\bis not empty\b", "is empty")]
EFFECT = re.compile(r"^(\s*(?:-\s+)?)effect:\s*(?:&\w+\s*)?\|[-+]?\s*$")  # a card's `effect: |` block


@dataclass
class Site:
    """One code line (with its continuation lines) citing rule IDs."""
    file: Path
    first: int  # 0-based index of the first physical line
    last: int  # index of the last physical line (continuations end in `\`)
    ids: list[str]
    found: str | None = None  # the first line as the run found it (the copy is made from the same text)

    @property
    def text(self) -> str:
        """The first line's text as the run found it: the real file may be edited while the run goes
        on (lines moved by a fix above them), and the run mutates its copy of the text it began with."""
        if self.found is not None:
            return self.found
        return self.file.read_text(encoding="utf-8").splitlines()[self.first]


@dataclass
class Outcome:
    where: str
    ids: list[str]
    mutation: str
    scenarios: list[str]
    status: str  # killed | killed-other | killed-tests | survived | not-reached | equivalent (proved,
    # not run) | invalid (no valid mutant)
    killed_by: list[str] = field(default_factory=list)
    line: str = ""  # the line's code, as written
    seconds: float = 0.0  # compiling the mutant and running its tests
    met: str = ""  # how many scenarios and pytest tests the mutant was met by (the coverage analysis)
    reason: str = ""  # why an `equivalent` mutant cannot change an outcome (the static proof's finding)


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
                sites.append(Site(f, i, j, list(dict.fromkeys(ids)), lines[i]))
            above = []
            i = j + 1
    return sites


def _masked(code: str) -> str:
    return STRING.sub(lambda m: "_" * len(m.group()), code)


def mutations(lines: list[str], site: Site, zones: tuple[str, ...] = ()) -> list[tuple[str, list[str]]]:
    """Candidate mutants of a site, most telling first: (description, replacement lines).
    `zones`: the ruleset's zone names, in declaration order (a zone is swapped for the next)."""
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
        for desc, new in operator_mutations(line, stripped.startswith("zone "), zones):
            out.append((desc, block[:k] + [new] + block[k + 1:]))
    if indent and len(block) == 1 and not stripped.endswith(":") and not stripped.startswith("else"):
        out.append(("negate the line", [f"{indent}not ({stripped})"]))  # a placement test, say
    if stripped.endswith(":"):  # a block header: its whole body becomes `pass`
        end = _block_end(lines, site.last, len(indent))
        if end > site.last + 1:
            body_indent = next(ln[:len(ln) - len(ln.lstrip())] for ln in lines[site.last + 1:end] if ln.strip())
            out.append(("block body -> pass", block + [body_indent + "pass"] + [""] * (end - site.last - 2)))
            first = next(i for i in range(site.last + 1, end) if split_comment(lines[i])[0].strip())
            for desc, line in operator_mutations(lines[first], False, zones):  # e.g. a placement rule's test
                out.append((f"first line of the body: {desc}", lines[site.first:first] + [line]))
    # A `pass` made `pass`, a body of `pass` emptied to `pass`: the same program, no mutant (it could
    # only "survive": a hook procedure with nothing to do, `procedure begin_turn(): pass`, counted two).
    return [(desc, repl) for desc, repl in out if _code(repl) != _code(lines[site.first:site.first + len(repl)])]


def _code(lines: list[str]) -> list[str]:
    """The code of each line, comments and trailing blanks left out."""
    return [split_comment(line)[0].rstrip() for line in lines]


def operator_mutations(line: str, is_zone: bool, zones: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """One-line mutants: the first comparison, `and`/`or`, arithmetic operator and `+=` of each
    kind flipped, the last number changed, a zone's visibility changed; then the first number
    and a range's upper bound changed, a builtin swapped for its opposite (`first`/`last`,
    `min`/`max`, `every`/`some`, `break`/`continue`, `true`/`false`, `is empty`), the first zone
    named swapped for the next one declared."""
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
    if len(nums) > 1 or (nums and not out):  # the first number, up by one
        mm = nums[0]
        out.append((f"number {mm.group()} -> {int(mm.group()) + 1}", code[:mm.start()] + str(int(mm.group()) + 1)
                    + code[mm.end():] + comment))
    mm = re.search(r"\.\.\s*(\d+)", masked)
    if mm and int(mm.group(1)) > 0:  # a range's upper bound, down by one
        n = int(mm.group(1))
        out.append((f"bound ..{n} -> ..{n - 1}", code[:mm.start(1)] + str(n - 1) + code[mm.end(1):] + comment))
    for a, b in SWAPS:
        mm = re.search(a, masked)
        if mm:
            out.append((f"`{mm.group().strip()}` -> `{b.strip()}`", code[:mm.start()] + b + code[mm.end():] + comment))
    if zones and not masked.lstrip().startswith(("zone ", "placement ")):
        names = "|".join(re.escape(z) for z in zones)
        mm = re.search(rf"(?<![\w.])(?:{names})(?!\w)", masked)  # each name a whole word
        if mm and len(zones) > 1:
            other = zones[(zones.index(mm.group()) + 1) % len(zones)]
            out.append((f"zone `{mm.group()}` -> `{other}`", code[:mm.start()] + other + code[mm.end():] + comment))
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


def rule_lines(path: Path) -> list[int] | None:
    """Indexes of the lines written in the rule language: every line of a .rules file (None), the
    lines of the `effect: |` blocks of a card file."""
    if path.suffix == ".rules":
        return None
    lines = path.read_text(encoding="utf-8").splitlines()
    out: list[int] = []
    i = 0
    while i < len(lines):
        m = EFFECT.match(lines[i])
        i += 1
        if not m:
            continue
        key_indent = len(m.group(1))
        while i < len(lines) and (not lines[i].strip() or len(lines[i]) - len(lines[i].lstrip()) > key_indent):
            out.append(i)
            i += 1
    return out


def card_sites(cards_dir: Path, prefix: str) -> list[Site]:
    """Every code line of the cards' `effect: |` blocks (citing rule IDs or not)."""
    sites: list[Site] = []
    for f in sorted(cards_dir.glob("*.yaml")) if cards_dir.is_dir() else []:
        lines = f.read_text(encoding="utf-8").splitlines()
        for i in rule_lines(f) or []:
            code, comment = split_comment(lines[i])
            if code.strip() and not code.rstrip().endswith("\\"):
                sites.append(Site(f, i, i, ids_in(comment, prefix) if prefix else [], lines[i]))
    return sites


def every_rule_line(rules_dir: Path, prefix: str) -> list[Site]:
    """Every code line of the ruleset's .rules files and card effects, with the rule IDs it cites."""
    cited = {(s.file, s.first): s for s in (find_sites(rules_dir, prefix) if prefix else [])}
    out: list[Site] = []
    for f in sorted(rules_dir.glob("*.rules")):
        lines = f.read_text(encoding="utf-8").splitlines()
        i = 0
        while i < len(lines):
            code, _ = split_comment(lines[i])
            if not code.strip():
                i += 1
                continue
            j = i
            while split_comment(lines[j])[0].rstrip().endswith("\\") and j + 1 < len(lines):
                j += 1
            out.append(cited.get((f, i)) or Site(f, i, j, [], lines[i]))
            i = j + 1
    return out + card_sites(find_cards_dir(rules_dir), prefix)


_LOAD_SCENARIO = scenario_mod.load_scenario
_SCENARIOS: dict[tuple[str, bytes], Any] = {}  # (path, the file's bytes) -> the Scenario loaded from them


def load_scenario_once(path: str | Path) -> Any:
    """`load_scenario`, its YAML parsed once per file content: every mutant meets the same scenario
    files, and parsing them was more than half of a scenario's run (docs/testing.md, "A cheaper mutant").
    Keyed by the file's bytes, so an edited file is read again; each caller gets its own deep copy
    (nothing it does to the copy reaches the next). A file that cannot be read is left to
    `load_scenario`, which raises as it always does."""
    try:
        data = Path(path).read_bytes()
    except OSError:
        return _LOAD_SCENARIO(path)
    key = (str(Path(path).resolve()), data)
    got = _SCENARIOS.get(key)
    if got is None:
        got = _SCENARIOS[key] = _LOAD_SCENARIO(path)
    return got.model_copy(deep=True)


def scenario_files(rules_dir: Path, dirs: list[Path]) -> list[Path]:
    """The scenarios (in `dirs`) that play this very ruleset: as their `ruleset:`, or as one of
    the mods their `with:` stacks on it (a mod's scenarios play it so)."""
    out = []
    for d in dirs:
        for f in sorted(d.glob("*.yaml")):
            try:
                sc = load_scenario_once(f)
            except Exception:  # not a scenario: the scenario tests report it
                continue
            if rules_dir.resolve() in [(f.parent / r).resolve() for r in (sc.ruleset, *sc.mods)]:
                out.append(f)
    return out


def stacked_elsewhere(rules_dir: Path, dirs: list[Path], as_base: bool = False) -> list[Path]:
    """The scenarios outside `dirs` that stack this ruleset as a mod (`with:`): a scenario kept with
    one mod that stacks another (the Coop mod's, stacking the Kingdom decks) plays both, and a
    mutant of either must meet it. With `as_base`, also those that stack mods on this ruleset (a
    mod's scenarios play the base game's rules too; `--under-mods`). Searched in every default
    scenario folder (tests/scenarios/*/, and the scenarios/ folder of each ruleset beside this one);
    a file is parsed only when its text names the ruleset's folder."""
    seen = {d.resolve() for d in dirs}
    home = rules_dir.resolve().parent
    out = []
    for d in sorted((ROOT / "tests" / "scenarios").glob("*")) + sorted(home.glob("*/scenarios")):
        if not d.is_dir() or d.resolve() in seen:
            continue
        seen.add(d.resolve())
        for f in sorted(d.glob("*.yaml")):
            try:
                if rules_dir.name not in f.read_text(encoding="utf-8"):
                    continue
                sc = load_scenario_once(f)
            except Exception:  # not a scenario: the scenario tests report it
                continue
            layers = [(f.parent / r).resolve() for r in ([sc.ruleset] if as_base and sc.mods else []) + sc.mods]
            if rules_dir.resolve() in layers:
                out.append(f)
    return out


def scenario_index(scen_dir: Path | list[Path], rules_dir: Path, files: list[Path] | None = None) -> dict[str, list[Path]]:
    """Rule ID -> the scenarios of this ruleset whose `covers:` cite it (of `files`, when given)."""
    index: dict[str, list[Path]] = {}
    for f in files if files is not None else scenario_files(rules_dir, scen_dir if isinstance(scen_dir, list) else [scen_dir]):
        for rid in load_scenario_once(f).covers:
            index.setdefault(rid, []).append(f)
    return index


def work_copy(rules_dir: Path, tmp: Path) -> Path:
    """A copy of the ruleset's home folder (every ruleset, so `extends` resolves) and of the cards
    folder beside it, to write mutants into; returns the ruleset's folder in the copy. The cards
    folder is copied when any ruleset beside keeps its cards there: a mod with its own `cards/`
    (talisman_firelands) still needs its base's (cards/talisman)."""
    home = rules_dir.resolve().parent
    shutil.copytree(home, tmp / "rulesets", ignore=shutil.ignore_patterns("__pycache__"))
    cards = home.parent / "cards"
    if cards.is_dir() and any(find_cards_dir(r).resolve().parent == cards.resolve()
                              for r in home.iterdir() if (r / "game.rules").is_file()):
        shutil.copytree(cards, tmp / "cards")
    return tmp / "rulesets" / rules_dir.name


def in_copy(path: Path, rules_dir: Path, work: Path) -> Path:
    """Where a file of the real tree lies in the copy that `work_copy` made."""
    home = rules_dir.resolve().parent
    path = path.resolve()
    if path.is_relative_to(home):
        return work.parent / path.relative_to(home)
    return work.parent.parent / "cards" / path.relative_to(home.parent / "cards")


def compile_mutant(work: Path | str) -> Program | None:
    """The ruleset (or `BASE --with MOD,...` stack) at `work`, checked and compiled; None if it
    does not validate or compile."""
    rs, content = check_path(work)
    if rs is None or not content.ok:
        return None
    try:
        return Program(rs)
    except RuleError:
        return None


def run_scenarios(program: Program, rules_dir: Path, files: list[Path], max_steps: int,
                  first_only: bool = False, work: Path | None = None,
                  stacks: dict[str, Program | None] | None = None) -> list[str]:
    """Names of the scenarios that fail on `program` (run in-process, the program loaded once);
    with `first_only`, stop at the first. A scenario with `set:` (a variant) gets the mutant with
    the overrides applied, uncached: the cached `load_variant` would hand it the unmutated rules.
    A scenario stacking mods (`with:`) one of which is the ruleset gets that stack compiled from
    the mutant's copy `work` (once per stack, kept in `stacks`); without `work`, the real one."""
    real_load, real_game = scenario_mod.load_program, scenario_mod.new_game
    real_variant, real_variant_load = scenario_mod.load_variant, variants_mod.load_program
    real_scenario = scenario_mod.load_scenario
    stacks = {} if stacks is None else stacks

    def load(path):
        base, mods = split_stack(str(path))
        layers = [Path(x).resolve() for x in (base, *mods)]
        if not mods:
            return program if layers[0] == rules_dir.resolve() else real_load(path)
        if work is None or rules_dir.resolve() not in layers:
            return real_load(path)
        if str(path) not in stacks:
            copies = [str(in_copy(x, rules_dir, work)) for x in layers]
            stacks[str(path)] = compile_mutant(stack_path(copies[0], copies[1:]))
        if stacks[str(path)] is None:  # the mutant breaks the stack: the scenario fails, as a player's check would
            raise ContentError([Diagnostic("error", "mutant", f"the mutant does not compile in the stack {path}")])
        return stacks[str(path)]

    def game(prog, players, seed=0, **kw):  # a mutant may loop: tighter limits end it quickly
        return real_game(prog, players, seed, limits=Limits(max_steps=max_steps, max_turns=500), **kw)

    scenario_mod.load_program, scenario_mod.new_game = load, game
    scenario_mod.load_variant, variants_mod.load_program = variants_mod.load_variant.__wrapped__, load
    scenario_mod.load_scenario = load_scenario_once  # the same files for every mutant: parsed once
    failing: list[str] = []
    try:
        for f in files:
            if not scenario_mod.run_scenario(f).passed:
                failing.append(f.name)
                if first_only:
                    break
        return failing
    finally:
        scenario_mod.load_program, scenario_mod.new_game = real_load, real_game
        scenario_mod.load_variant, variants_mod.load_program = real_variant, real_variant_load
        scenario_mod.load_scenario = real_scenario


def own_tests(rules_dir: Path) -> list[Path]:
    """The ruleset's own pytest files: test_NAME.py and test_NAME_*.py anywhere under tests/."""
    tests = ROOT / "tests"
    name = rules_dir.name
    return sorted(list(tests.rglob(f"test_{name}.py")) + list(tests.rglob(f"test_{name}_*.py")))


def copy_tests(tests: list[Path], rules_dir: Path, work: Path) -> Path:
    """The test files, their helper modules and the scenario folders, beside the copy: every folder,
    since a mod's test file may read another's (test_talisman_cataclysm.py, met by the Cataclysm
    Terrain mod, counts the citations of tests/scenarios/talisman_cataclysm)."""
    dest = work.parent.parent / "tests"
    dest.mkdir(exist_ok=True)
    for t in tests:  # at the same place under tests/ (test files find the repository from there)
        (dest / _under_tests(t)).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(t, dest / _under_tests(t))
    for helper in (ROOT / "tests").glob("*.py"):  # conftest and the shared helper modules
        if not helper.name.startswith("test_") and not (dest / helper.name).exists():
            shutil.copy(helper, dest / helper.name)
    scen = ROOT / "tests" / "scenarios"
    if tests and scen.is_dir() and not (dest / "scenarios").exists():
        shutil.copytree(scen, dest / "scenarios", ignore=shutil.ignore_patterns("__pycache__"))
    return dest


def _under_tests(t: Path) -> Path:
    """A test file's path under tests/ (its own name for a file given from elsewhere)."""
    try:
        return t.resolve().relative_to(ROOT / "tests")
    except ValueError:
        return Path(t.name)


def _pytest_env() -> dict[str, str]:
    """The environment of a pytest run on the copy: this repository's interpreter and tools first."""
    return dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(TOOLS), os.environ.get("PYTHONPATH", "")]))


def _pytest_args(dest: Path, tests: list[Path], nodes: list[str] | None) -> list[str]:
    """pytest's arguments for a run on the copy: stop at the first failure, name the failures."""
    return (["-x", "-q", "-rf", "-p", "no:cacheprovider", "--rootdir", str(dest.parent)]
            + (nodes if nodes is not None else [str(dest / _under_tests(t)) for t in tests]))


def _failures(out: str, tests: list[Path]) -> list[str]:
    """The tests a failed pytest run names (`FAILED`/`ERROR` lines), or the test files' names."""
    failed = [line.split()[1] for line in out.splitlines() if line.startswith(("FAILED ", "ERROR ")) and
              len(line.split()) > 1]
    return failed or [t.name for t in tests]


def tests_fail(dest: Path, tests: list[Path], timeout: int, nodes: list[str] | None = None,
               cover: Path | None = None) -> list[str]:
    """The pytest tests that fail on the mutant (run from the copy, this interpreter), as pytest
    names them (the test files' names when it names none; empty: all passed); `nodes`: only these
    tests (pytest node IDs); `cover`: record the rule lines each test reaches there
    (tools/rulecover.py's plugin)."""
    env = _pytest_env()
    cmd = [sys.executable, "-m", "pytest"] + _pytest_args(dest, tests, nodes)
    if cover is not None:
        env["RULECOVER_OUT"] = str(cover)
        cmd[3:3] = ["-p", "rulecover"]
    try:
        r = subprocess.run(cmd, cwd=dest.parent, env=env, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        if cover is not None:
            print(f"the traced run of the test files took over {timeout} s (--test-timeout)", file=sys.stderr)
        return [f"{t.name} (over {timeout} s)" for t in tests]  # a mutant that makes the tests run away is noticed
    if r.returncode == 0:
        return []
    out = r.stdout.decode(errors="replace")
    if cover is not None:  # before any mutation: say why
        print(out[-3000:], file=sys.stderr)
    return _failures(out, tests)


def can_fork() -> bool:
    """Whether `tests_fail_forked` may run: a POSIX fork of a process with no other thread (a
    thread's locks would be copied held; a pytest-xdist worker has threads)."""
    return hasattr(os, "fork") and threading.active_count() == 1


def tests_fail_forked(dest: Path, tests: list[Path], timeout: int, nodes: list[str] | None) -> list[str]:
    """`tests_fail` (its answer, the same pytest arguments, folder and environment) in a child
    forked from this process instead of a new interpreter, which spent over a CPU second importing
    the interpreter and pytest before its first test (docs/testing.md, "A cheaper mutant"). The
    child imports the copy's test helpers afresh and loads the mutant as the new interpreter did
    (from the copy, its files named from the copy's folder: nothing of this process's compiled
    mutant is reused, whose rule locations name the files otherwise); it exits without running
    this process's exit handlers."""
    fd, out_name = tempfile.mkstemp(prefix="pytest-", suffix=".out", dir=dest.parent)
    os.close(fd)
    out = Path(out_name)
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        code = 3
        try:
            _forked_pytest_setup(dest, out)
            import pytest
            code = int(pytest.main(_pytest_args(dest, tests, nodes)))
        except BaseException:  # noqa: BLE001 - whatever happens, the child ends here, with a failure
            traceback.print_exc(file=sys.stdout)
        finally:
            try:
                sys.stdout.flush()
                sys.stderr.flush()
            finally:
                os._exit(code)
    try:
        deadline = time.time() + timeout
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            if time.time() > deadline:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                return [f"{t.name} (over {timeout} s)" for t in tests]  # as `tests_fail`
            time.sleep(0.02)
    except BaseException:  # Ctrl-C: leave no child behind
        try:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        except OSError:
            pass
        raise
    try:
        text = out.read_text(encoding="utf-8", errors="replace")
    finally:
        out.unlink(missing_ok=True)
    return [] if os.waitstatus_to_exitcode(status) == 0 else _failures(text, tests)


def _forked_pytest_setup(dest: Path, out: Path) -> None:
    """In the forked child: what `python -m pytest` from the copy would have: its standard output
    in `out`, its standard error discarded (as `tests_fail` discards it), the copy as the current
    folder and first on the path, `_pytest_env`'s environment, and no module imported from a
    tests/ folder (the copy's own are imported afresh)."""
    fd = os.open(out, os.O_WRONLY | os.O_TRUNC)
    os.dup2(fd, 1)
    os.close(fd)
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 2)
    os.close(null)
    sys.stdout = open(1, "w", encoding="utf-8", errors="replace", closefd=False)  # not a caller's capture
    sys.stderr = open(2, "w", encoding="utf-8", errors="replace", closefd=False)
    os.chdir(dest.parent)
    env = _pytest_env()
    os.environ.clear()
    os.environ.update(env)
    sys.path.insert(0, str(dest.parent))
    roots = (ROOT / "tests", dest.resolve())
    for name, module in list(sys.modules.items()):
        f = getattr(module, "__file__", None)
        if name == "conftest" or (f and any(Path(f).resolve().is_relative_to(r) for r in roots)):
            del sys.modules[name]


class Selection:
    """Which of the ruleset's tests can notice a mutant: those that execute, unmutated, a rule
    line whose generated code the mutant changes (coverage analysis, tools/rulecover.py). A
    mutant that changes no code of a rule line (data: a card field, a stat's range, a zone's
    visibility; or the module's shared head and dispatch), a line at the left margin (a
    declaration) and a line of no generated statement meet every test."""

    def __init__(self, baseline: Program, scenarios: dict[str, set], tests: dict[str, set],
                 moved: list[tuple[str, str]]):
        dp = compile_direct(baseline)
        self.base = rulecover.code_groups(dp.source, dp.lines, dp.K)
        self.code = {k for k in self.base if k is not None}
        self.scenarios, self.moved = scenarios, moved
        self.tests = {node: {(rulecover.real_path(f, moved), n) for f, n in reach} for node, reach in tests.items()}

    def changed(self, site: Site, program: Program) -> set | None:
        """The rule lines whose generated code the mutant changes; None: assume every one."""
        lines = {(str(site.file.resolve()), n + 1) for n in range(site.first, site.last + 1)}
        if site.file.suffix == ".rules" and not site.text[:1].isspace():
            return None
        if not lines & self.code:
            return None
        try:
            dp = compile_direct(program)
        except Unsupported:
            return None
        return rulecover.changed_lines(self.base, rulecover.code_groups(dp.source, dp.lines, dp.K, self.moved))

    @staticmethod
    def _hit(reach: set, changed: set | None) -> bool:
        return changed is None or rulecover.ANY in reach or not reach.isdisjoint(changed)

    def pick(self, changed: set | None) -> tuple[set[str], list[str] | None]:
        """(names of the scenarios to run, pytest node IDs to run — None: every test file)."""
        scen = {name for name, reach in self.scenarios.items() if self._hit(reach, changed)}
        if changed is None or self._hit(self.tests.get(rulecover.SESSION, set()), changed):
            return scen, None
        nodes = {n for n, reach in self.tests.items() if n != rulecover.SESSION and self._hit(reach, changed)}
        files = {n.split("::")[0] for n in nodes if n.endswith("::" + rulecover.SETUP)}  # the whole file
        return scen, sorted(files | {n for n in nodes if n.split("::")[0] not in files})


BOUND = re.compile(r"^bound \.\.(\d+) -> \.\.(\d+)$")
FIELD_LINE = re.compile(r"^\s+(\w+)\s*:\s*-?\d+\s*\.\.\s*(\d+)\s*(?:=\s*[\w.\"-]+\s*)?$")  # `glory: 0..20 = 0`
RANGE_READS = re.compile(r"\.hi\b|range_type|RangeType|type_values|read_field")  # Python reading a declared range
FIELD_DEFAULT = re.compile(r"^\s+(\w+)\s*:\s*[^=#]+?=\s*([\w.\"-]+)\s*$")  # `drain: flag = false`, `glory: 0..20 = 0`
SHOWS_FIELDS = re.compile(r"narrate|card_line|card_fields|\.default\b|fields_")  # Python showing or reading a default
EVALUATES = re.compile(r"expression_value|\bevaluate\(|\.expression\(|\bvalues\s*:|[\"']values[\"']")  # rule expressions in a test


def _field_sig(f: Any) -> tuple:
    """A card type's field as what it means (no source positions): name, kind, bounds or values, default."""
    t, d = f.type, f.default
    return (f.name, t.kind, getattr(t, "lo", None), getattr(t, "hi", None), tuple(getattr(t, "values", ()) or ()),
            None if d is None else (d.kind, repr(getattr(d, "value", getattr(d, "id", None)))))


def _types_sig(rs: Any) -> dict[str, list[tuple]]:
    """Every card type's fields, as `_field_sig` gives them."""
    return {name: [_field_sig(f) for f in node.fields_] for name, node in rs.card_types.items()}


class RangeTopProof:
    """The static proof that lowering a card type field's range top by one (`glory: 0..20` ->
    `0..19`) cannot change an outcome, so the mutant need not run. A card field's declared range
    is read (interpreter/, 2026-11-26) only
      - when cards load: each card's value must lie in it (content/loader.py:974-980, pydantic
        `ge`/`le`; content/cardfast.py:33-37) — the mutant compiles, so every card still fits;
      - by `Type.field`, the list of values a field may take (language/tree.py:3252 ->
        engine/directexpr.py:241-248, a constant of the generated code; runtime/fields.py:27-33,
        the same for a `TypeRef`, which nothing builds now) — refused below;
      - by the mods' merging of a card type's fields (content/extend.py:190-204) — only this
        ruleset is run, and a field merged from a base carries the base's position: refused;
      - for words: the checker's hint (analysis/checker.py:510), `describe()`, the editor schema.
    No construct writes a card's field: `set`/`+=` take only variables and stats (checker
    `target`, analysis/checker.py:314-323; tree.py:1241-1244, :1294-1303). A variant (`set:` of
    a scenario, `--set Card.field=V`, play/variants.py:60-78) replaces a card's value without
    looking at the range; the proof refuses such a scenario all the same. No value-range analysis
    reads a card field's bounds (the generated code bounds only stats, engine/directexpr.py:194).
    So a mutant is proved only when every card of the type (its loaded value, defaults included)
    stays at or below the new top, no rule, scenario expression or test names `Type.field` (a
    card type used as a value at all refuses), no scenario's `set:` writes the field, no test
    file reads a declared range, writes the field at the old top or above, or evaluates rule
    expressions (a scenario's `values:`, `expression_value`) while naming the type, the card types
    differ in that one bound alone, and the mutant's generated module is the original's."""

    def __init__(self, baseline: Program, work: Path, scenarios: list[Path], tests: list[Path]):
        """What every proof reads, gathered once: the rules' card-type names used as values, the
        scenarios' expressions and variants, the test files' text, the original generated module."""
        rs = baseline.rs
        self.rs = rs
        self.types = _types_sig(rs)
        nodes = [n for mod in rs.content.modules for n in walk(mod)]
        nodes += [n for c in rs.cards if c.effect is not None for n in walk(c.effect)]
        self.as_value = {n.id for n in nodes if n.kind == "name" and n.id in rs.card_types}  # `Item`, not `is Item`
        self.expressions: dict[str, list[str]] = {}  # scenario -> its `values:` expressions
        self.writes: dict[str, list[str]] = {}  # scenario -> the `Card.field` its `set:` overrides
        for f in scenarios:
            sc = load_scenario_once(f)
            checks = [sc.expect.values] + [c["expect"].get("values") or {} for c in sc.choices
                                           if isinstance(c, dict) and isinstance(c.get("expect"), dict)]
            self.expressions[f.name] = [k for v in checks for k in v]
            self.writes[f.name] = [k for k in sc.set if "." in k]
        self.tests = {t.name: t.read_text(encoding="utf-8") for t in tests}
        self.original = _direct_of(work)  # the unmutated module, from the work copy: its rule
        # locations name the same files as a mutant's (so build this before writing any mutant)

    def prove(self, site: Site, desc: str, mutant: Program) -> str | None:
        """Why the mutant cannot change an outcome; None: no proof (run it)."""
        m = BOUND.match(desc)
        code = split_comment(site.text)[0]
        if m is None:
            return self.prove_default(site, code, mutant)
        fm = FIELD_LINE.match(code) if m and site.first == site.last else None
        if fm is None or int(m.group(1)) != int(fm.group(2)):
            return None
        top, field_name = int(m.group(2)), fm.group(1)
        rs = self.rs
        owners = [t for t, node in rs.card_types.items() for f in node.fields_
                  if f.name == field_name and f.type.kind == "range_type" and f.loc is not None
                  and f.loc.line == site.first + 1 and Path(f.loc.file).resolve() == site.file.resolve()]
        if len(owners) != 1:
            return None  # not a card type's field declared here (a stat; a field merged from a base)
        t = owners[0]
        want = {k: list(v) for k, v in self.types.items()}
        want[t] = [s[:3] + (top,) + s[4:] if s[0] == field_name else s for s in want[t]]
        if _types_sig(mutant.rs) != want:
            return None  # the card types differ in more than that one bound
        if [(c.name, c.type, c.fields) for c in mutant.rs.cards] != [(c.name, c.type, c.fields) for c in rs.cards]:
            return None
        values = [(c.fields.get(field_name), c.name) for c in rs.cards if c.type == t]
        if any(type(v) is not int for v, _ in values):
            return None
        high = max(values, default=None)
        if high is not None and high[0] > top:
            return None
        if t in self.as_value:
            return None  # the rules name the card type as a value: `T.field` may read the range
        word = re.compile(rf"\b{re.escape(t)}\b")
        if any(word.search(x) for xs in self.expressions.values() for x in xs):
            return None  # a scenario's expression names the type
        names = {c.name for c in rs.cards if c.type == t}
        if any(k.rpartition(".")[2] == field_name and k.rpartition(".")[0] in names
               for ks in self.writes.values() for k in ks):
            return None  # a variant writes the field
        reads = re.compile(rf"\b{re.escape(t)}\s*\.\s*{re.escape(field_name)}\b")
        writes = re.compile(rf"\b{re.escape(field_name)}\b[\"']?\s*[:=]\s*(\d+)")
        for text in self.tests.values():
            if RANGE_READS.search(text) or reads.search(text) or any(int(w) > top for w in writes.findall(text)):
                return None  # a test reads a declared range, names `T.field`, or writes the field high
            if EVALUATES.search(text) and word.search(text):
                return None  # a test evaluates rule expressions and names the type: `f(T)` may read it
        if not self._same_module(mutant):
            return None  # the generated module differs
        most = f"highest: {high[0]}, card {high[1]}" if high is not None else "no card of the type"
        return f"no card of the ruleset has {t}.{field_name} above {top} ({most}); nothing reads the range"


    def _same_module(self, mutant: Program) -> bool:
        """The mutant's generated module (source, constants, rule locations) is the original's."""
        a = self.original
        try:
            b = compile_direct(mutant)
        except Unsupported:
            return False
        return (a.source, a.K, a.lines) == (b.source, b.K, b.lines)

    def prove_default(self, site: Site, code: str, mutant: Program) -> str | None:
        """A card field's default changed (`drain: flag = false` -> `true`) where every card of the
        type prints the field: no loaded card changes, so no rule can see the change. The default
        is read (interpreter/, 2026-11-26) only when cards load (content/loader.py:985-990,
        content/cardfast.py:42-47), by the play screen, which leaves out a field equal to it
        (play/narrate.py `card_fields`: words, no outcome), by the mods' `extend` (only this
        ruleset is run) and by the checker (analysis/checker.py:110, which the mutant passed).
        So: the cards as loaded are the original's, the card types differ in that one default, the
        generated module is the original's, no rule names the type as a value, no scenario
        expression names it, and no test file shows a card's fields or reads a default."""
        fm = FIELD_DEFAULT.match(code) if site.first == site.last else None
        if fm is None:
            return None
        field_name, rs = fm.group(1), self.rs
        owners = [t for t, node in rs.card_types.items() for f in node.fields_
                  if f.name == field_name and f.loc is not None and f.loc.line == site.first + 1
                  and Path(f.loc.file).resolve() == site.file.resolve()]
        if len(owners) != 1:
            return None
        t = owners[0]
        def without_default(sigs: dict) -> dict:
            return {k: [f[:5] if (k == t and f[0] == field_name) else f for f in v] for k, v in sigs.items()}
        if _types_sig(mutant.rs) == self.types or without_default(_types_sig(mutant.rs)) != without_default(self.types):
            return None  # not that default alone
        if [(c.name, c.type, c.fields) for c in mutant.rs.cards] != [(c.name, c.type, c.fields) for c in rs.cards]:
            return None  # some card takes the default: its value changed
        if t in self.as_value:
            return None
        word = re.compile(rf"\b{re.escape(t)}\b")
        if any(word.search(x) for xs in self.expressions.values() for x in xs):
            return None
        if any(SHOWS_FIELDS.search(text) for text in self.tests.values()):
            return None  # a test shows cards' fields (the screen leaves out a field at its default)
        if not self._same_module(mutant):
            return None
        count = sum(1 for c in rs.cards if c.type == t)
        return f"every card of type {t} ({count}) prints {field_name}: the default is never used"


def _direct_of(work: Path) -> DirectProgram:
    """The generated module of the ruleset at `work` (Unsupported when it does not compile)."""
    program = compile_mutant(work)
    if program is None:
        raise Unsupported("the work copy does not compile")
    return compile_direct(program)


def run_mutant(program: Program, rules_dir: Path, select: Selection, site: Site,
               citing: list[Path], others: list[Path], by_name: dict[str, Path], dest: Path | None,
               tests: list[Path], args: argparse.Namespace, work: Path) -> tuple[str, list[str], str]:
    """(status, what caught it, what it was met by) of one compiled mutant: only the scenarios and
    tests that reach the code it changes (all of them with `--all-tests`), cheapest first."""
    if args.all_tests:
        picked, nodes = set(by_name), None
    else:
        picked, nodes = select.pick(select.changed(site, program))
    met = f"{len(picked)} scenarios, " + ("every test" if nodes is None else f"{len(nodes)} tests")
    if not picked and (dest is None or nodes == []):
        return "not-reached", [], met
    began = time.time()
    stacks: dict[str, Program | None] = {}  # the mutant's stacks, compiled once for both kinds of scenario
    if failing := run_scenarios(program, rules_dir, [f for f in citing if f.name in picked], args.max_steps,
                                first_only=True, work=work, stacks=stacks):
        return "killed", failing, met
    if failing := run_scenarios(program, rules_dir, [f for f in others if f.name in picked], args.max_steps,
                                first_only=True, work=work, stacks=stacks):
        return "killed-other", failing, met
    met += f" ({time.time() - began:.1f} s of scenarios)"
    if dest is not None and nodes != [] and (failing := _tests_fail_mutant(dest, tests, nodes, args)):
        return "killed-tests", failing, met
    return "survived", [], met


def _tests_fail_mutant(dest: Path, tests: list[Path], nodes: list[str] | None, args: argparse.Namespace) -> list[str]:
    """`tests_fail` for a mutant: in a forked child where a fork is safe (`can_fork`), in a new
    interpreter with `--test-subprocess` or where it is not."""
    if args.test_subprocess or not can_fork():
        return tests_fail(dest, tests, args.test_timeout, nodes)
    return tests_fail_forked(dest, tests, args.test_timeout, nodes)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ruleset", type=Path)
    ap.add_argument("legacy", nargs="*", help=argparse.SUPPRESS)  # old form: SCENARIOS PREFIX
    ap.add_argument("--prefix", default="", help="rule-ID prefix of the ruleset, e.g. TT")
    ap.add_argument("--scenarios", type=Path, action="append",
                    help="scenario folder (default: tests/scenarios/NAME and NAME/scenarios, and the scenarios "
                         "of other folders that stack the ruleset with `with:`)")
    ap.add_argument("--tests", type=Path, action="append", help="pytest file (default: test_NAME*.py under tests/)")
    ap.add_argument("--no-tests", action="store_true", help="run the scenarios only")
    ap.add_argument("--cited-only", action="store_true", help="only the lines that cite rule IDs")
    ap.add_argument("--per-line", type=int, default=3, help="valid mutants per line (default 3)")
    ap.add_argument("--every", action="store_true", help="every valid mutation of each line")
    ap.add_argument("--limit", type=int, help="run at most this many mutants (lines in a seeded random order)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the line order with --limit / --minutes")
    ap.add_argument("--minutes", type=float, help="stop starting mutants after this many minutes")
    ap.add_argument("--max-steps", type=int, default=300_000)
    ap.add_argument("--test-timeout", type=int, default=300, help="seconds for one pytest run")
    ap.add_argument("--lines", action="append", metavar="FILE:LINE",
                    help="only these rule lines, as the report names them (e.g. game.rules:106; repeatable): "
                         "re-check the survivors of a long run after adding tests")
    ap.add_argument("--all-tests", action="store_true",
                    help="meet every mutant with every test (no coverage analysis: to check it changes no verdict)")
    ap.add_argument("--under-mods", action="store_true",
                    help="meet a base game's mutants with its mods' scenarios too (those that stack mods "
                         "on it with `with:`): slower, each such stack compiled once per mutant that reaches it")
    ap.add_argument("--json", type=Path, help="write every outcome here (rewritten after each line, so a "
                                              "stopped run keeps what it found)")
    ap.add_argument("--resume", type=Path, metavar="JSON",
                    help="outcomes of an earlier, unfinished run (its --json): its lines count as done and "
                         "are not run again, unless their code changed since")
    ap.add_argument("--quiet", action="store_true", help="print only survivors and the summary")
    ap.add_argument("--test-subprocess", action="store_true",
                    help="run each mutant's pytest files in a new interpreter, as before 2026-11-27 (not in a "
                         "child forked with the mutant compiled: to check that the fork changes no verdict)")
    ap.add_argument("--no-proofs", action="store_true",
                    help="run every mutant, the ones the static proof finds equivalent too (to check it)")
    args = ap.parse_args(argv)
    if args.legacy:  # `RULESET SCENARIOS PREFIX`, as before: cited lines, their scenarios first
        args.scenarios = (args.scenarios or []) + [Path(args.legacy[0])]
        args.prefix = args.prefix or (args.legacy[1] if len(args.legacy) > 1 else "")
    rules_dir = args.ruleset.resolve()
    dirs = args.scenarios or [d for d in (ROOT / "tests" / "scenarios" / rules_dir.name, rules_dir / "scenarios")
                              if d.is_dir()]
    all_scenarios = scenario_files(rules_dir, dirs)
    if not args.scenarios:  # a mod's scenarios kept in another mod's folder stack it too
        all_scenarios += stacked_elsewhere(rules_dir, dirs, as_base=args.under_mods)
    index = scenario_index(dirs, rules_dir, all_scenarios)
    tests = [] if args.no_tests else [t.resolve() for t in (args.tests or own_tests(rules_dir))]
    tracer = rulecover.Tracer()
    tracer.install()  # before the first compile: the modules of scenarios' values are told apart
    try:
        baseline = compile_mutant(rules_dir)
        if baseline is None:
            _, content = check_path(rules_dir)
            print("the ruleset itself does not validate:\n" + "\n".join(
                d.format() for d in content.diagnostics if d.severity == "error"), file=sys.stderr)
            return 2
        broken, reach = [], {}
        for f in all_scenarios:  # each scenario once, traced: the rule lines it reaches
            tracer.switch(f.name)
            broken += run_scenarios(baseline, rules_dir, [f], args.max_steps)
            reach[f.name] = tracer.reached(f.name)
    finally:
        tracer.uninstall()
    if broken:
        print(f"scenarios failing before any mutation: {broken}", file=sys.stderr)
        return 2
    zones = tuple(baseline.rs.zones)
    sites = find_sites(rules_dir, args.prefix) if args.cited_only else every_rule_line(rules_dir, args.prefix)
    if args.lines:
        wanted = set(args.lines)
        sites = [s for s in sites if f"{s.file.name}:{s.first + 1}" in wanted]
    if args.limit is not None or args.minutes is not None:
        random.Random(args.seed).shuffle(sites)
    per_line = None if args.every else args.per_line
    outcomes: list[Outcome] = _resumed(args.resume, sites, every_rule_line(rules_dir, args.prefix)) \
        if args.resume else []
    done = {o.where for o in outcomes}
    start = time.time()

    def report(o: Outcome) -> None:  # as it comes: a long run shows its progress
        outcomes.append(o)
        if not args.quiet or o.status in ("survived", "not-reached"):
            print(f"{o.status.upper():12} {o.where:26} {','.join(o.ids) or '-':16} {o.mutation}"
                  + (f"  | {o.line}" if o.status in ("survived", "not-reached", "invalid")
                     else f"  | {o.line}  ({o.reason})" if o.status == "equivalent"
                     else f"  <- {o.killed_by[0]}"), flush=True)

    print(f"{rules_dir.name}: {len(sites)} rule lines, {len(all_scenarios)} scenarios, "
          f"test files {[t.name for t in tests]}", file=sys.stderr)
    with tempfile.TemporaryDirectory() as tmp:
        work = work_copy(rules_dir, Path(tmp))
        dest = copy_tests(tests, rules_dir, work) if tests else None
        test_reach: dict[str, set] = {}
        if dest is not None:
            cover = Path(tmp) / "cover.json"
            # traced, the tests run slower: the first run gets four times the time of a mutant's
            if tests_fail(dest, tests, 4 * args.test_timeout, cover=None if args.all_tests else cover):
                print(f"{[t.name for t in tests]} fail before any mutation", file=sys.stderr)
                return 2
            if not args.all_tests:
                test_reach = {k: {tuple(x) for x in v}
                              for k, v in json.loads(cover.read_text(encoding="utf-8")).items()}
        home = rules_dir.parent
        moved = [(str(work.resolve().parent), str(home)), (str(work.resolve().parent.parent / "cards"),
                                                           str(home.parent / "cards"))]
        select = Selection(baseline, reach, test_reach, moved)
        proof = None  # only where some line could be a card field's range (it compiles the module once)
        if not args.no_proofs and any(site.first == site.last and (FIELD_LINE.match(split_comment(site.text)[0])
                                                                  or FIELD_DEFAULT.match(split_comment(site.text)[0]))
                                      for site in sites):
            try:
                proof = RangeTopProof(baseline, work, all_scenarios, tests)
            except Unsupported:
                pass
        by_name = {f.name: f for f in all_scenarios}
        ran = 0
        for site in sites:
            if args.limit is not None and ran >= args.limit:
                break
            if args.minutes is not None and time.time() - start > 60 * args.minutes:
                break
            where = f"{site.file.name}:{site.first + 1}"
            if where in done:
                continue
            # a line citing no rule ID is every scenario's business; one citing IDs, its citers' first
            citing = sorted({f for rid in site.ids for f in index.get(rid, [])}) if site.ids else all_scenarios
            others = [f for f in all_scenarios if f not in citing]
            target = in_copy(site.file, rules_dir, work)
            # the copy's text, as the run began: an edit to the real file meanwhile stays out of this run
            original = target.read_text(encoding="utf-8")
            lines = original.splitlines()
            tried = 0
            found = valid_mutants(site, original, zones, target, work, per_line, args.cited_only)
            for desc, program, began in found:
                tried += 1
                ran += 1
                if proof is not None and (why := proof.prove(site, desc, program)):
                    report(Outcome(where, site.ids, desc, [f.name for f in citing], "equivalent", [],
                                   split_comment(lines[site.first])[0].strip(), round(time.time() - began, 2),
                                   "nothing (proved)", why))
                else:
                    status, by, met = run_mutant(program, rules_dir, select, site, citing, others, by_name,
                                                 dest, tests, args, work)
                    report(Outcome(where, site.ids, desc, [f.name for f in citing], status, by,
                                   split_comment(lines[site.first])[0].strip(), round(time.time() - began, 2), met))
                if args.limit is not None and ran >= args.limit:
                    break
            found.close()  # the copy's file reads the original again
            if not tried:
                report(Outcome(where, site.ids, "", [f.name for f in citing], "invalid", [],
                               split_comment(lines[site.first])[0].strip()))
            if args.json:  # after each line: a run stopped at any moment keeps its finished lines
                _write_json(args.json, outcomes)
    counts = {s: sum(o.status == s for o in outcomes)
              for s in ("killed", "killed-other", "killed-tests", "survived", "not-reached", "equivalent", "invalid")}
    unreached = counts["not-reached"]
    survived = counts["survived"] + unreached
    mutants = sum(counts[s] for s in ("killed", "killed-other", "killed-tests")) + survived
    caught = mutants - survived
    unseen = sum(o.status in ("survived", "not-reached") and o.mutation in VISIBILITY_MUTATIONS for o in outcomes)
    lines_run = len({o.where for o in outcomes})
    share = f" = {100 * survived / mutants:.1f}%" if mutants else ""
    print(f"\n{rules_dir.name}: {lines_run} of {len(sites)} rule lines; {mutants} mutants: {caught} caught "
          f"({counts['killed']} by a scenario citing the line's rules (any, for a line citing none), "
          f"{counts['killed-other']} only by another "
          f"scenario, {counts['killed-tests']} only by the test files), {survived} survived"
          f"{f' ({unreached} reached by no test)' if unreached else ''}"
          f"{f' ({unseen} only change what players see)' if unseen else ''}"
          f"{share}; "
          f"{counts['invalid']} lines without a valid mutant ({time.time() - start:.0f}s)"
          + (f"; and {counts['equivalent']} more mutants proved equivalent, not run (not counted above):"
             if counts["equivalent"] else ""))
    for o in outcomes:
        if o.status == "equivalent":
            print(f"  {o.where:26} {o.mutation}  | {o.line}  ({o.reason})")
    if args.json:
        _write_json(args.json, outcomes)
    return 1 if survived else 0


def valid_mutants(site: Site, original: str, zones: tuple, target: Path, work: Path, per_line: int | None,
                  cited_only: bool = False):
    """The mutations of `site` (whose file reads `original`) that the checker accepts and that
    compile, each written into the work copy's file `target` while the caller runs it: (description,
    program, the time its compile began); at most `per_line` (None: all). Unless `cited_only`, a
    block's "first line of the body" mutants are left to that line, a site of its own. The copy's
    file reads `original` again once the caller has finished or stopped."""
    lines = original.splitlines()
    tried = 0
    try:
        for desc, repl in mutations(lines, site, zones):
            if desc.startswith("first line of the body") and not cited_only:
                continue
            if per_line is not None and tried >= per_line:
                return
            mutant = lines[:site.first] + repl + lines[site.first + len(repl):]  # same length
            target.write_text("\n".join(mutant) + "\n", encoding="utf-8")
            began = time.time()
            program = compile_mutant(work)
            if program is None:
                continue
            tried += 1
            yield desc, program, began
    finally:
        target.write_text(original, encoding="utf-8")


def _write_json(path: Path, outcomes: list[Outcome]) -> None:
    """Every outcome so far, replacing the file whole (never a half-written file)."""
    part = path.with_name(path.name + ".part")
    part.write_text(json.dumps([asdict(o) for o in outcomes], indent=1), encoding="utf-8")
    os.replace(part, path)


def _resumed(path: Path, sites: list[Site], every: list[Site]) -> list[Outcome]:
    """The outcomes an earlier run wrote, for the lines still to visit (`sites`) whose code is
    unchanged (a line edited since, or no longer a rule line, is run again). Whether a line moved
    is judged on every rule line (`every`), not only those to visit: with `--lines`, a finished
    line outside them that holds the same code as one inside is not a move."""
    try:
        earlier = [Outcome(**o) for o in json.loads(path.read_text(encoding="utf-8"))]
    except (OSError, ValueError, TypeError) as err:
        sys.exit(f"--resume {path}: not the --json of an earlier run ({err})")
    texts = {f: f.read_text(encoding="utf-8").splitlines() for f in {s.file for s in every}}
    code = {f"{s.file.name}:{s.first + 1}": split_comment(texts[s.file][s.first])[0].strip() for s in every}
    visit = {f"{s.file.name}:{s.first + 1}" for s in sites}
    moved = _moved_lines(earlier, code)
    kept = []
    for o in earlier:
        if code.get(o.where) != o.line and (o.where, o.line) in moved:
            o.where = moved[o.where, o.line]  # the same code, moved up or down by edits above it
        if o.where in visit and code.get(o.where) == o.line:
            kept.append(o)
    print(f"resumed: {len({o.where for o in kept})} lines done earlier ({len(kept)} outcomes"
          + (f", {len({w for w, _ in moved})} lines found moved" if moved else "") + ")"
          + (f"; {len(earlier) - len(kept)} outcomes of changed or other lines dropped" if len(kept) < len(earlier)
             else ""), file=sys.stderr)
    return kept


def _moved_lines(earlier: list[Outcome], code: dict[str, str]) -> dict[tuple[str, str], str]:
    """(old place, code) -> new place, for an earlier outcome's line whose place now holds other
    code while the same code stands on exactly one line of the same file now, and on exactly one
    line of that file in the earlier run: a line that only moved keeps its outcomes (a fix higher
    up in a file moves every line below it). A line whose code is written twice is run again."""
    def file_of(where: str) -> str:
        return where.rsplit(":", 1)[0]
    now: dict[tuple[str, str], list[str]] = {}
    for where, text in code.items():
        now.setdefault((file_of(where), text), []).append(where)
    before: dict[tuple[str, str], set[str]] = {}
    for o in earlier:
        before.setdefault((file_of(o.where), o.line), set()).add(o.where)
    out: dict[tuple[str, str], str] = {}
    for o in earlier:
        if code.get(o.where) == o.line:
            continue
        key = (file_of(o.where), o.line)
        if len(now.get(key, ())) == 1 and len(before[key]) == 1:
            out[o.where, o.line] = now[key][0]
    return out


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        print("stopped: the lines finished so far are in --json; go on with --resume", file=sys.stderr)
        sys.exit(130)
