"""A fuzzing campaign: mutated rule and card files of every ruleset, and random games with checks.

    python tools/campaign.py --mutants 1000 --games 100 --seed 1 --json campaign.json
    nice -n 10 python tools/campaign.py --mutants 100000 --games 100000 --workers 16 --json full.json

Part (a), `--mutants N`: N mutants of each ruleset. Each copies the ruleset and its cards into a
scratch folder and damages one rule or card file (tools/fuzz.py's line and token mutations), or, one
time in eight, its files themselves (a file linked to a secret outside the folder, a linked cards
folder, `extends` of an outside folder, a FIFO, a link loop). Then it runs what `grimoire validate`
runs and, when that is clean, one short game with random answers. Each mutant is one of:
  diagnostic      the checker reported errors (the expected outcome for most mutants)
  ran             it checked clean and the game ended, or stopped on a rule error or a limit
  internal error  an exception other than a diagnostic or a rule error, or a rule error that only
                  says "the rules cannot work this out" (a Python failure the engine did not expect)
  hang            it ran past the per-mutant budget (`--budget`, seconds)
  outside read    a file outside the scratch folder was opened (an audit hook watches every open),
                  or the secret's text reached a diagnostic
Part (b), `--games N`: N games of each ruleset, with a random player count and random answers,
checking at every decision that every card lies in exactly one place (cards conserved) and that
every bounded stat is within its bounds, and (at one decision in eight, drawn at random, and at the
end) that no seat's view shows a card of a zone it may not see (a hidden zone, another player's own
zone, a covered card), nor a card held in a stat that lies there.
Outcomes: ended, capped (a step or turn limit), rule error, internal error, hang, invariant.

Games are made by the interpreter's one game factory (`new_game`), as `grimoire simulate` makes
them. A mutant whose rules check clean but use a construct the code generator does not handle yet
is `refused` (the factory says so in words) rather than played.

Every mutant and game has its own seed (from `--seed`, the ruleset and its number), so a run's
report does not depend on `--workers` or the order the work is done in. `--json` writes the summary
(counts per outcome and ruleset, the first examples of each failure, memory peaks); the exit status
is 1 when any internal error, hang, outside read or invariant break was found.
"""
from __future__ import annotations

import argparse
import atexit
import json
import multiprocessing
import os
import random
import re
import resource
import shutil
import sys
import tempfile
import time
import traceback
from multiprocessing.connection import wait
from pathlib import Path
from typing import Any, Callable, Iterable

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tools")]

from fuzz import mutate  # noqa: E402
from interpreter.analysis.validate import check_path  # noqa: E402
from interpreter.api import load_program  # noqa: E402
from interpreter.content.model import CardData  # noqa: E402
from interpreter.engine.factory import new_game  # noqa: E402
from interpreter.engine.game import Limits, Program  # noqa: E402
from interpreter.language.diagnostics import ContentError, format_all  # noqa: E402
from interpreter.runtime.clock import GameTimeout, wall_clock  # noqa: E402
from interpreter.runtime.errors import LimitExceeded  # noqa: E402

MUTANT_OUTCOMES = ("diagnostic", "refused", "ran", "internal error", "hang", "outside read")
GAME_OUTCOMES = ("ended", "capped", "rule error", "internal error", "hang", "invariant")
BAD = {"internal error", "hang", "outside read", "invariant", "rule error"}  # a rule error: of a shipped game
SECRET = "GRIMOIRE-CAMPAIGN-SECRET-7f3a"  # the text of a file outside every mutant's folder
MUTANT_LIMITS = Limits(max_steps=200_000, max_turns=300, max_decisions=3_000)
GAME_LIMITS = Limits(max_decisions=20_000)
EXAMPLES = 5  # failures kept in the summary for each outcome


def rulesets(names: Iterable[str] | None = None) -> list[str]:
    """The shipped rulesets (folders of rulesets/ with a game.rules), or those named."""
    found = sorted(p.name for p in (ROOT / "rulesets").iterdir() if (p / "game.rules").exists())
    return [n for n in found if n in set(names)] if names else found


def task_seed(seed: int, kind: str, ruleset: str, index: int) -> str:
    """A task's own seed: the same mutant or game whatever the workers and the order."""
    return f"{seed}:{kind}:{ruleset}:{index}"


# ---- the worker's side: one mutant, one game ---------------------------------------------------
class _Watch:
    """The files a worker opens while a mutant is checked and played: any outside its folder (and
    outside Python's and Grimoire's own code) is an outside read."""
    root: str | None = None
    allowed: tuple[str, ...] = ()
    seen: list[str] = []

    @classmethod
    def install(cls) -> None:
        """Allow Python's library, installed packages and Grimoire's code; hook every `open`."""
        own = {str(ROOT), str(ROOT / "tools")}
        base = [sys.prefix, sys.base_prefix, sys.exec_prefix, str(ROOT / "interpreter"), str(ROOT / "grammar"),
                "/dev/null", "/dev/urandom", "/proc/self", "/usr/lib", "/usr/share", "/etc/localtime",
                os.path.expanduser("~/.cache/grimoire")]  # the parser's grammar cache
        cls.allowed = tuple(os.path.realpath(p) for p in base + [p for p in sys.path if p and p not in own])
        sys.addaudithook(cls._hook)

    @classmethod
    def _hook(cls, event: str, args: tuple) -> None:
        if cls.root is None or event != "open" or not isinstance(args[0], (str, bytes, os.PathLike)):
            return
        path = os.path.realpath(os.fsdecode(args[0]))
        if not (path == cls.root or path.startswith(cls.root + os.sep) or path.startswith(cls.allowed)):
            cls.seen.append(path)


_PROGRAMS: dict[str, Program] = {}
_SCRATCH: Path | None = None
_SCRATCH_PID = 0
_HOOKED = False


def _scratch() -> Path:
    """This process's scratch folder (a forked worker makes its own), with the secret beside,
    never inside, the mutants' folder; removed when the process ends."""
    global _SCRATCH, _SCRATCH_PID, _HOOKED
    if _SCRATCH is None or _SCRATCH_PID != os.getpid():
        _SCRATCH, _SCRATCH_PID = Path(tempfile.mkdtemp(prefix="grimoire-campaign-")), os.getpid()
        atexit.register(shutil.rmtree, _SCRATCH, True)
        (_SCRATCH / "outside").mkdir()
        (_SCRATCH / "outside" / "secret.rules").write_text(SECRET + "\n", encoding="utf-8")
        (_SCRATCH / "outside" / "game.rules").write_text(f'game "{SECRET}":\n    players 2\n', encoding="utf-8")
        if not _HOOKED:  # a forked worker inherits its parent's hook
            _Watch.install()
            _HOOKED = True
    return _SCRATCH


def _damage_files(target: Path, files: list[Path], rng: random.Random, outside: Path) -> str:
    """Damage the files themselves rather than their text; returns what was done."""
    f = rng.choice(files)
    op = rng.randrange(6)
    if op == 0:
        f.unlink()
        f.symlink_to(outside / "secret.rules")
        return f"{f.name} linked to a file outside"
    if op == 1:
        (target / "extra.rules").symlink_to(outside / "secret.rules")
        return "extra.rules linked to a file outside"
    if op == 2 and (target / "cards").is_dir():
        shutil.rmtree(target / "cards")
        (target / "cards").symlink_to(outside)
        return "cards folder linked outside"
    if op == 3:
        rules = target / "game.rules"
        text = rules.read_text(encoding="utf-8").splitlines()
        at = next((i for i, line in enumerate(text) if line.startswith("    ")), 1)
        text.insert(at, f'    extends "{rng.choice(["../outside", str(outside), "../../outside", "/etc"])}"')
        rules.write_text("\n".join(text) + "\n", encoding="utf-8")
        return "extends a folder outside"
    if op == 4:
        f.unlink()
        os.mkfifo(f)
        return f"{f.name} made a FIFO"
    f.unlink()
    f.symlink_to(f.name)
    return f"{f.name} made a link to itself"


HOSTILE = [  # runaway statements put at the start of a phase: each must stop at a limit, not hang or fill memory
    ["repeat:", "    pass"],
    ["while true:", "    log \"again\""],
    ["let hostile_v = [1]", "repeat 60 times:", "    set hostile_v to [hostile_v, hostile_v]", "log hostile_v"],
    ["let hostile_v = []", "repeat:", "    set hostile_v to hostile_v + [hostile_v]"],
    ["let hostile_v = \"ab\"", "repeat 64 times:", "    set hostile_v to hostile_v + hostile_v"],
    ["let hostile_v = [x for each x in 1..999999]", "repeat:", "    let hostile_w = hostile_v + [1]"],
    ["let hostile_v = 1", "repeat:", "    set hostile_v to hostile_v * 3"],
    ["log [x * x for each x in 1..999999]"],
    ["let hostile_v = [x for each x in 1..3000]", "log count([a for each a in hostile_v where some b in hostile_v: b > a])"],
]


def _hostile_statement(target: Path, rng: random.Random) -> str | None:
    """Put one runaway block at the start of a phase of one rule file (None when none has one)."""
    for f in sorted(target.glob("*.rules"), key=lambda _: rng.random()):
        lines = f.read_text(encoding="utf-8").splitlines()
        heads = [i for i, line in enumerate(lines) if line.rstrip() in ("setup:", "turn:", "round:", "play:")]
        if heads:
            i = rng.choice(heads)
            block = rng.choice(HOSTILE)
            lines[i + 1:i + 1] = ["    " + b for b in block]
            f.write_text("\n".join(lines) + "\n", encoding="utf-8")
            return f"{f.name}:{i + 2} runaway `{block[-1].strip()}`"
    return None


def _with_bases(ruleset: str) -> list[str]:
    """The ruleset and the shipped rulesets its `extends` lines name, transitively."""
    out, todo = [], [ruleset]
    while todo:
        name = todo.pop()
        if name in out or not (ROOT / "rulesets" / name).is_dir():
            continue
        out.append(name)
        for f in (ROOT / "rulesets" / name).glob("*.rules"):
            todo += re.findall(r'^\s*extends\s+"([^"/]+)"', f.read_text(encoding="utf-8"), re.M)
    return out


def _new(program: Program, players: int, seed: int, limits: Limits) -> Any:
    """A game through the interpreter's one factory; no seat copies it, so generated code runs as
    `DirectGame` (the form batches use)."""
    return new_game(program, players, seed, seats=[], limits=limits)


def run_mutant(ruleset: str, seed: str, budget: float) -> dict:
    """Mutate one file of `ruleset`, check it, play it when clean; classify the result."""
    scratch = _scratch()
    rng = random.Random(seed)
    target = scratch / "tree" / ruleset
    if target.parent.exists():
        shutil.rmtree(target.parent)
    for name in _with_bases(ruleset):  # a mod's bases lie beside it, as in rulesets/
        shutil.copytree(ROOT / "rulesets" / name, target.parent / name, symlinks=True)
        cards = ROOT / "cards" / name
        if cards.is_dir() and not (target.parent / name / "cards").exists():
            shutil.copytree(cards, target.parent / name / "cards")
    files = sorted(p for p in target.rglob("*") if p.suffix in (".rules", ".yaml", ".yml", ".csv"))
    pick = rng.randrange(8)
    what = _hostile_statement(target, rng) if pick == 1 else None
    if pick == 0:
        what = _damage_files(target, files, rng, scratch / "outside")
    elif what is None:
        f = rng.choice(files)
        f.write_text(mutate(f.read_text(encoding="utf-8"), rng, f.suffix != ".rules"), encoding="utf-8")
        what = f"{f.relative_to(target)} mutated"
    row: dict[str, Any] = {"ruleset": ruleset, "seed": seed, "what": what}
    _Watch.root, _Watch.seen = os.path.realpath(target.parent), []  # the mod and its bases
    try:
        with wall_clock(budget):
            rs, content = check_path(target)
            shown = format_all(content.diagnostics)
            if SECRET in shown:
                row["outcome"], row["detail"] = "outside read", shown[:2000]
            elif rs is None or not content.ok:
                row["outcome"], row["detail"] = "diagnostic", (content.diagnostics[0].code if content.diagnostics
                                                               else None)
            else:
                try:
                    g = _new(Program(rs), rs.min_players, rng.randrange(1 << 30), MUTANT_LIMITS)
                except ValueError as e:  # a construct the code generator does not handle: in words
                    if "cannot be run" not in str(e):
                        raise
                    row["outcome"], row["detail"] = "refused", str(e)
                    return row
                _random_play(g, rng, lambda g: None)
                row.update(_game_outcome(g))
                if row["outcome"] not in ("internal error",):
                    row["outcome"] = "ran"
    except ContentError:
        row["outcome"] = "diagnostic"
    except GameTimeout:
        row["outcome"] = "hang"
    except Exception:  # noqa: BLE001 - what the campaign looks for
        row["outcome"], row["detail"] = "internal error", traceback.format_exc()[-3000:]
    finally:
        _Watch.root = None
    if _Watch.seen and row["outcome"] != "internal error":
        row["outcome"], row["detail"] = "outside read", sorted(set(_Watch.seen))[:10]
    if row["outcome"] in BAD:
        row["files"] = {str(p.relative_to(target)): _peek(p) for p in files if p.name in what or "mutated" in what
                        and str(p.relative_to(target)) in what}
    return row


def _peek(p: Path) -> str:
    """A damaged file's text for the report (never following a link or opening a FIFO)."""
    if p.is_symlink() or not p.is_file():
        return "(not a regular file)"
    return p.read_text(encoding="utf-8", errors="replace")[:20_000]


def _random_play(g: Any, rng: random.Random, check: Callable[[Any], None]) -> None:
    """Answer every decision at random (bounded by the game's own decision limit)."""
    check(g)
    while not g.over:
        g.answer(rng.randrange(len(g.decision.options)))
        check(g)


def _built(g: Any) -> int:
    """Items a game built against its memory budget (counted by its runtime)."""
    return g.R.built


def _game_outcome(g: Any) -> dict:
    err = g.error
    if err is None:
        return {"outcome": "ended", "decisions": g.decisions_made, "built": _built(g)}
    if "the rules cannot work this out" in err.message or "ran out of memory" in err.message:  # past the budget
        return {"outcome": "internal error", "detail": f"{err}\n{getattr(g, 'internal_traceback', '')}"[-3000:]}
    return {"outcome": "capped" if isinstance(err, LimitExceeded) else "rule error", "detail": str(err)[:500],
            "decisions": g.decisions_made, "built": _built(g)}


def run_game(ruleset: str, seed: str, budget: float) -> dict:
    """One game of a shipped ruleset with random answers, its invariants checked at every decision."""
    program = _PROGRAMS.get(ruleset)
    if program is None:
        program = _PROGRAMS[ruleset] = load_program(ROOT / "rulesets" / ruleset)
    rng = random.Random(seed)
    rs = program.rs
    players = rng.randint(rs.min_players, min(rs.max_players, rs.min_players + 5))
    row: dict[str, Any] = {"ruleset": ruleset, "seed": seed, "players": players}
    try:
        with wall_clock(budget):
            game_seed = rng.randrange(1 << 30)
            g = _new(program, players, game_seed, GAME_LIMITS)
            sample = random.Random(seed + ":views")  # views are the costly check: every 8th decision, and the end
            _random_play(g, rng, lambda g: check_invariants(g, g.over or sample.randrange(8) == 0))
            row.update(_game_outcome(g))
    except GameTimeout:
        row["outcome"] = "hang"
    except InvariantBroken as e:
        row["outcome"], row["detail"] = "invariant", str(e)
    except Exception:  # noqa: BLE001 - what the campaign looks for
        row["outcome"], row["detail"] = "internal error", traceback.format_exc()[-3000:]
    return row


# ---- invariants --------------------------------------------------------------------------------
class InvariantBroken(Exception):
    """A game state or view that no rule can make: an interpreter bug."""


def check_invariants(g: Any, views: bool = True) -> None:
    """Cards conserved, bounded stats within bounds, no hidden card in any seat's view (`views`)."""
    st, rs = g.state, g.rs
    ids: list[int] = []
    for key, z in st.zones.items():
        ids.extend(i for row in z for i in row) if key.partition("#")[0] in g.program.rows_zones else ids.extend(z)
    for under in st.under.values():
        ids.extend(under)
    if sorted(ids) != list(range(len(g.cards))):
        seen = set(ids)
        lost = [i for i in range(len(g.cards)) if i not in seen][:5]
        twice = sorted({i for i in ids if ids.count(i) > 1})[:5]
        raise InvariantBroken(f"cards not conserved at decision {g.decisions_made}: lost {lost}, twice {twice}, "
                              f"{len(ids)} placed of {len(g.cards)}")
    for name, sd in rs.stats.items():
        if sd.lo is None and sd.hi is None:
            continue
        values = [p[name] for p in st.pstats] if sd.per_player else [st.stats[name]]
        for v in values:
            if isinstance(v, int) and not isinstance(v, bool) and v != sd.clamp(v):
                top = "" if sd.hi is None else sd.hi  # `0..`: bounded below only
                raise InvariantBroken(f"stat {name} = {v} outside {sd.lo}..{top} at decision {g.decisions_made}")
    seats = len(g.seats) if views else 0
    for seat in [*range(seats), None] if views else ():
        view = g.view(seat)
        for zname, zd in rs.zones.items():
            for owner in (range(seats) if zd.per_player else [None]):
                label = zname if owner is None else f"{zname} of player {owner + 1}"
                shown = view[label]
                sees = zd.visibility == "public" or (zd.visibility == "owner" and owner is not None and owner == seat)
                if not sees and _shows_cards(shown):
                    raise InvariantBroken(f"seat {seat if seat is None else seat + 1} sees the cards of {label}")
        for name, v in st.stats.items():
            _stat_leak(g, v, view["stats"].get(name), seat, name)
        for p, stats in enumerate(st.pstats):
            for name, v in stats.items():
                _stat_leak(g, v, view["players"][p].get(name), seat, f"{name} of player {p + 1}")


def _shows_cards(shown: Any) -> bool:
    """Whether a zone's entry in a view lists cards (a hidden zone shows only its size)."""
    if isinstance(shown, list):
        return any(_shows_cards(x) if isinstance(x, list) else not isinstance(x, int) for x in shown)
    return False


def _stat_leak(g: Any, v: Any, shown: Any, seat: int | None, where: str) -> None:
    if isinstance(v, CardData):
        at = g.state.where.get(v.id)
        if at is None:
            return
        name, _, owner = at.partition("#")
        vis = "covered" if at.startswith("^") else g.rs.zones[name].visibility
        may = vis == "public" or (vis == "owner" and owner != "" and seat is not None and int(owner) == seat)
        if not may and shown != "?":
            raise InvariantBroken(f"seat {seat if seat is None else seat + 1} sees the card held in {where}, "
                                  f"which lies hidden in {at}")
    elif isinstance(v, (list, tuple)) and isinstance(shown, list):
        for x, y in zip(v, shown):
            _stat_leak(g, x, y, seat, where)


# ---- the parent's side: workers, progress, summary ----------------------------------------------
def _work(kind: str, ruleset: str, seed: str, budget: float) -> dict:
    began = time.perf_counter()
    row = (run_mutant if kind == "mutant" else run_game)(ruleset, seed, budget)
    row["seconds"] = round(time.perf_counter() - began, 2)
    row["kind"] = kind
    row["peak_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    return row


def _worker(conn: Any, max_mb: int) -> None:
    """A worker process: run each task sent, answer with its row, until told to stop. Its address
    space is limited to `max_mb` (a game past the memory budget's reach fails here, not the machine)."""
    if max_mb:
        resource.setrlimit(resource.RLIMIT_AS, (max_mb << 20, max_mb << 20))
    while True:
        task = conn.recv()
        if task is None:
            if _SCRATCH is not None and _SCRATCH_PID == os.getpid():
                shutil.rmtree(_SCRATCH, ignore_errors=True)
            return
        conn.send(_work(*task))


def _pooled(tasks: list[tuple], workers: int, budget: float, done: Callable[[dict], None],
            deadline: float | None = None, max_mb: int = 0) -> None:
    """Run tasks on `workers` processes; one that gives no answer within twice the budget (stuck
    where the timer cannot reach: a C call, a blocked read) is killed, its task a hang. After
    `deadline` (time.monotonic) no task is started."""
    ctx = multiprocessing.get_context("fork")
    todo = list(reversed(tasks))
    busy: dict[Any, tuple[Any, tuple, float]] = {}  # connection -> (process, task, started)

    def start() -> tuple[Any, Any]:
        parent, child = ctx.Pipe()
        p = ctx.Process(target=_worker, args=(child, max_mb), daemon=True)
        p.start()
        return p, parent
    idle = [start() for _ in range(workers)]
    while todo or busy:
        if deadline is not None and time.monotonic() > deadline:
            todo.clear()
        while todo and idle:
            p, conn = idle.pop()
            task = todo.pop()
            conn.send(task)
            busy[conn] = (p, task, time.monotonic())
        for conn in wait(list(busy), timeout=1.0):
            p, task, _ = busy.pop(conn)
            try:
                done(conn.recv())
                idle.append((p, conn))
            except EOFError:  # the worker died (killed, out of memory): its task is an internal error
                done({"kind": task[0], "ruleset": task[1], "seed": task[2], "outcome": "internal error",
                      "detail": f"worker died (exit {p.exitcode})"})
                idle.append(start())
        now = time.monotonic()
        for conn, (p, task, began) in list(busy.items()):
            if now - began > 2 * budget + 10:
                p.kill()
                p.join()
                del busy[conn]
                done({"kind": task[0], "ruleset": task[1], "seed": task[2], "outcome": "hang",
                      "detail": "no answer; the worker was killed"})
                idle.append(start())
    for p, conn in idle:
        conn.send(None)
        p.join(timeout=5)


def campaign(mutants: int, games: int, seed: int = 0, workers: int = 1, budget: float = 30.0,
             names: Iterable[str] | None = None, progress: bool = True, seconds: float | None = None,
             snapshot: Callable[[dict], None] | None = None, max_mb: int = 4096) -> dict:
    """Run the campaign; returns its summary (see the module's doc). With `seconds`, no mutant or
    game starts after that time: the work is interleaved (mutant i and game i of every ruleset,
    then i + 1), so what was done is a balanced slice of what was asked. `snapshot` is given the
    summary so far once a minute (a long run killed part-way still leaves its figures)."""
    chosen = rulesets(names)
    tasks = [(kind, rs, task_seed(seed, kind, rs, i), budget) for i in range(max(mutants, games))
             for kind, n in (("mutant", mutants), ("game", games)) if i < n for rs in chosen]
    deadline = None if seconds is None else time.monotonic() + seconds
    summary: dict[str, Any] = {
        "seed": seed, "rulesets": chosen, "budget_s": budget, "workers": workers,
        "mutants": {"total": 0, "outcomes": dict.fromkeys(MUTANT_OUTCOMES, 0), "by_ruleset": {}, "examples": {}},
        "games": {"total": 0, "outcomes": dict.fromkeys(GAME_OUTCOMES, 0), "by_ruleset": {}, "examples": {},
                  "decisions": 0, "max_built": 0},
        "peak_worker_mb": 0.0}
    start = last = time.monotonic()
    bar = _Bar(len(tasks)) if progress else None

    def done(row: dict) -> None:
        part = summary["mutants" if row["kind"] == "mutant" else "games"]
        part["total"] += 1
        part["outcomes"][row["outcome"]] += 1
        per = part["by_ruleset"].setdefault(row["ruleset"], {})
        per[row["outcome"]] = per.get(row["outcome"], 0) + 1
        if row["outcome"] in BAD:
            part["examples"].setdefault(row["outcome"], [])
            if len(part["examples"][row["outcome"]]) < EXAMPLES:
                part["examples"][row["outcome"]].append(row)
        if row["kind"] == "game":
            part["decisions"] += row.get("decisions", 0)
            part["max_built"] = max(part["max_built"], row.get("built", 0))
        summary["peak_worker_mb"] = max(summary["peak_worker_mb"], row.get("peak_mb", 0.0))
        if bar is not None:
            bar.advance(row)
        if row["outcome"] in BAD:
            print(f"{row['outcome']}: {row['kind']} {row['seed']} {str(row.get('detail'))[-300:]}", file=sys.stderr)
        nonlocal last
        if snapshot is not None and time.monotonic() - last > 60:
            last = time.monotonic()
            snapshot(dict(summary, seconds=round(last - start, 1)))
    if workers <= 0:
        for t in tasks:
            if deadline is not None and time.monotonic() > deadline:
                break
            done(_work(*t))
    else:
        _pooled(tasks, workers, budget, done, deadline, max_mb)
    if bar is not None:
        bar.close()
    summary["seconds"] = round(time.monotonic() - start, 1)
    summary["asked"] = {"mutants": mutants * len(chosen), "games": games * len(chosen)}
    summary["stopped_by_time"] = summary["mutants"]["total"] + summary["games"]["total"] < len(tasks)
    failures = sum(summary["mutants"]["outcomes"][k] for k in ("internal error", "hang", "outside read"))
    failures += sum(summary["games"]["outcomes"][k] for k in ("internal error", "hang", "invariant", "rule error"))
    summary["failures"] = failures
    return summary


class _Bar:
    """A progress bar on stderr (rich), with the failures found so far."""

    def __init__(self, total: int):
        self.bad = 0
        self.progress = Progress(TextColumn("campaign"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                                 TextColumn("{task.fields[bad]} failures"), transient=False,
                                 console=None, refresh_per_second=2)
        self.progress.start()
        self.task = self.progress.add_task("campaign", total=total, bad=0)

    def advance(self, row: dict) -> None:
        if row["outcome"] in ("internal error", "hang", "outside read", "invariant") or (
                row["kind"] == "game" and row["outcome"] == "rule error"):
            self.bad += 1
        self.progress.update(self.task, advance=1, bad=self.bad)

    def close(self) -> None:
        self.progress.stop()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0], epilog=__doc__.split("\n\n", 2)[2],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mutants", type=int, default=100, help="mutants of each ruleset (default 100)")
    ap.add_argument("--games", type=int, default=20, help="random games of each ruleset (default 20)")
    ap.add_argument("--seed", type=int, default=0, help="the master seed (default 0)")
    ap.add_argument("--workers", type=int, default=1, help="worker processes; 0 runs in this process (default 1)")
    ap.add_argument("--budget", type=float, default=30.0,
                    help="seconds one mutant or game may run before it counts as a hang (default 30)")
    ap.add_argument("--rulesets", help="comma-separated ruleset folder names (default: all of rulesets/)")
    ap.add_argument("--seconds", type=float, help="start no mutant or game after this many seconds (a balanced slice)")
    ap.add_argument("--max-mb", type=int, default=4096,
                    help="address-space limit of each worker process in MB (default 4096; 0: none)")
    ap.add_argument("--json", help="write the summary to this file")
    ap.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = ap.parse_args(argv)
    command = "python tools/campaign.py " + " ".join(argv if argv is not None else sys.argv[1:])

    def write(summary: dict) -> None:
        if args.json:
            summary["command"] = command
            Path(args.json).write_text(json.dumps(summary, indent=1, default=str) + "\n", encoding="utf-8")
    summary = campaign(args.mutants, args.games, args.seed, args.workers, args.budget,
                       args.rulesets.split(",") if args.rulesets else None, not args.no_progress, args.seconds,
                       write, args.max_mb)
    write(summary)
    m, g = summary["mutants"], summary["games"]
    if summary["stopped_by_time"]:
        print(f"stopped by --seconds: {m['total']} of {summary['asked']['mutants']} mutants, "
              f"{g['total']} of {summary['asked']['games']} games")
    print(f"mutants: {m['total']} " + ", ".join(f"{k} {v}" for k, v in m["outcomes"].items()))
    print(f"games: {g['total']} " + ", ".join(f"{k} {v}" for k, v in g["outcomes"].items())
          + f"; {g['decisions']} decisions, at most {g['max_built']} items built in a game")
    print(f"{summary['seconds']} s, peak worker memory {summary['peak_worker_mb']} MB, {summary['failures']} failures")
    return 1 if summary["failures"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
