"""Readable golden transcripts (in the style of OpenSpiel's playthroughs): for every ruleset in
rulesets/ and every player count it supports, one seeded game written out as text under
tests/fixtures/transcripts/ (`toil_and_troublez-4p.txt`). Each decision shows its step number,
the player (numbered from 1), its kind, its prompt and every option's label (numbered from 1),
the answer chosen, and the log lines emitted since the previous decision; then the result.
When a behaviour changes, tests/test_transcripts.py names the first line that differs, so the
step where two games part is plain to see; the hashes of tests/golden_games.py keep watching the
bulk (30 games per count).

Each transcript is the game recorded as `RULESET/PLAYERS/1/random` in golden_games.json (the
same seed, the same agents, the same `session.play`), and the test checks that it still is.
Long games show their first MAX_DECISIONS decisions, then the result of the whole game; the file
header says so (and nothing in the header depends on the game, so a change shows at its step). Option labels that name a rule file are written relative to the repository root
(the engine names them relative to the working directory, which differs between machines).

    python tests/transcripts.py --write      # re-record every transcript
    python tests/transcripts.py --add        # record only missing transcripts (a new ruleset)
    python tests/transcripts.py --write RS   # re-record one ruleset after a deliberate rule change
    python tests/transcripts.py              # compare every transcript, print the first difference

`python tests/golden_games.py --write [RS]` re-records the matching transcripts too.
"""
from __future__ import annotations

import difflib
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from golden_games import AGENTS, MASTER, ROOT, key, summary  # noqa: E402
from rulekit import played_rulesets  # noqa: E402
from interpreter.api import load_program  # noqa: E402
from interpreter.language.diagnostics import ContentError  # noqa: E402
from interpreter.play.session import agents_for, game_seed, play  # noqa: E402
from interpreter.engine.factory import new_game  # noqa: E402

if TYPE_CHECKING:
    from interpreter.play.agents import Agent
    from interpreter.engine.game import Decision

FOLDER = ROOT / "tests" / "fixtures" / "transcripts"
INDEX, AGENT = 1, "random"  # the golden game `RS/N/1/random` (golden_games.cases: index 1 plays random agents)
MAX_DECISIONS = 150  # decisions written out; the rest of a longer game is played for its result
_RULE_FILE = re.compile(r"[^\s'\"`()\[\],]*\.(?:rules|ya?ml)\b")


def rulesets() -> list[str]:
    """The folder names of the rulesets that have transcripts: those with golden games."""
    return [p.name for p in played_rulesets()]


def games(only: set[str] | None = None) -> list[tuple[str, int]]:
    """(ruleset, players) of every transcript: each ruleset at each player count it supports."""
    out = []
    for rs in rulesets():
        if only and rs not in only:
            continue
        program = load_program(ROOT / "rulesets" / rs)
        out += [(rs, n) for n in range(program.rs.min_players, program.rs.max_players + 1)]
    return out


def path_of(ruleset: str, players: int) -> Path:
    return FOLDER / f"{ruleset}-{players}p.txt"


def parse_name(path: Path) -> tuple[str, int]:
    """(ruleset, players) from a transcript's file name."""
    m = re.fullmatch(r"(.+)-(\d+)p\.txt", path.name)
    if not m:
        raise ValueError(f"{path.name}: a transcript is named RULESET-Np.txt")
    return m.group(1), int(m.group(2))


def _repo_path(match: re.Match) -> str:
    """A rule or card file named in a label, relative to the repository root (stable across machines)."""
    text = match.group(0)
    for top in ("rulesets/", "cards/"):
        at = text.rfind("/" + top)
        if at >= 0 or text.startswith(top):
            return text[at + 1:] if at >= 0 else text
    p = Path(text) if Path(text).is_absolute() else Path.cwd() / text
    try:
        return p.resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return p.name


class _Notes:
    """What a transcript has to say about its paths (set when a label named a file)."""
    paths = False


def _clean(text: Any, notes: _Notes) -> str:
    """One line of text: newlines shown as `\\n`, file paths made relative to the repository."""
    out, named = _RULE_FILE.subn(_repo_path, str(text))
    notes.paths |= named > 0  # whether or not this machine's path needed changing: the header is stable
    return out.replace("\r", "\\r").replace("\n", "\\n")


class _Recorder:
    """Wraps a seat's agent: writes out each decision it is asked and the answer it gives."""

    def __init__(self, inner: Agent, lines: list[str], seen: list[int], notes: _Notes):
        self.inner, self.lines, self.seen, self.notes = inner, lines, seen, notes

    def choose(self, game: Any, decision: Decision) -> int:
        step = len(game.choices) + 1
        logged = _new_log(game, self.seen)
        answer = self.inner.choose(game, decision)
        if step > MAX_DECISIONS:
            return answer
        out, c = self.lines, self.notes
        out.append("")
        out.append(f"step {step} · player {decision.player + 1} · {decision.kind} · {_clean(decision.prompt, c)}")
        out += [f"  log: {_clean(line, c)}" for line in logged]
        for i, label in enumerate(decision.labels):
            out.append(f"  {'>' if i == answer else ' '} {i + 1}. {_clean(label, c)}")
        out.append(f"  answer: {answer + 1}")
        return answer


def _new_log(game: Any, seen: list[int]) -> list[str]:
    """The game's log lines since the last call (`seen` holds how many were already shown)."""
    lines = game.log[seen[0]:]
    seen[0] = len(game.log)
    return lines


def _result_lines(result: dict | None, error: str | None, notes: _Notes) -> list[str]:
    """The result, players numbered from 1."""
    out = ["", "result"]
    if result is not None:
        r = dict(result)
        out.append("  scores: " + ", ".join(f"{_clean(s, notes)}" for s in r.pop("scores", [])))
        out.append("  winners: " + (", ".join(f"player {w + 1}" for w in r.pop("winners", [])) or "none"))
        if "first_player" in r:
            out.append(f"  first player: player {r.pop('first_player') + 1}")
        out += [f"  {k}: {_clean(v, notes)}" for k, v in sorted(r.items())]
    out.append(f"  error: {_clean(error, notes) if error else 'none'}")
    return out


def record(ruleset: str, players: int) -> tuple[str, dict]:
    """The transcript of one game, and its golden fingerprint (golden_games.summary)."""
    program = load_program(ROOT / "rulesets" / ruleset)
    seed = game_seed(MASTER, INDEX)
    inner = agents_for(AGENTS[AGENT], players, seed)
    game = new_game(program, players, seed, seats=inner)  # as session.play makes it for these seats
    body: list[str] = []
    seen, notes = [0], _Notes()
    setup = _new_log(game, seen)
    if setup:
        body += ["", "setup"] + [f"  log: {_clean(line, notes)}" for line in setup]
    agents = [_Recorder(a, body, seen, notes) for a in inner]
    rec = play(program, players, seed, agents, game=game)
    total = len(rec.choices)
    if total > MAX_DECISIONS:  # the count is written here, not in the header: a change shows at its step
        body += ["", f"... {total - MAX_DECISIONS} more decisions not shown ({total} in all)"]
    else:
        ending = _new_log(game, seen)
        if ending:
            body += ["", "after the last decision"] + [f"  log: {_clean(line, notes)}" for line in ending]
    body += _result_lines(rec.result, rec.error, notes)
    head = [f"# {ruleset}, {players} player{'s' if players > 1 else ''}: a golden transcript (tests/transcripts.py)",
            f"# The game {key(ruleset, players, INDEX, AGENT)} of tests/fixtures/golden_games.json: seed {seed},"
            f" {AGENT} agents.",
            f"# Shown: the first {MAX_DECISIONS} decisions (every one of a shorter game), then the result of the whole"
            " game.",
            "# Players and options are numbered from 1; `>` marks the option chosen; `log:` lines are those",
            "# emitted since the previous decision."]
    if notes.paths:  # said at the end, so that the header never depends on the game
        body += ["", "note: rule and card files named above are written relative to the repository root (the",
                 "engine names them relative to the working directory, which differs between machines)"]
    return "\n".join(head + body) + "\n", summary(rec)


def first_difference(recorded: str, now: str, name: str, context: int = 3) -> str | None:
    """None when equal; else the first differing line (numbered, with its step) and a few lines around it."""
    old, new = recorded.splitlines(), now.splitlines()
    if old == new:
        return None
    at = next((i for i, (a, b) in enumerate(zip(old, new)) if a != b), min(len(old), len(new)))
    step = next((line.split(" · ")[0] for line in reversed(old[:at + 1]) if line.startswith("step ")
                 or line in ("setup", "result") or line.startswith("after ")), "the header")
    hunk = list(difflib.unified_diff(old, new, "recorded", "now", n=context, lineterm=""))
    first = hunk[:2] + next(_hunks(hunk[2:]), [])
    return (f"{name}:{at + 1}: the game first differs at line {at + 1} ({step})\n"
            f"  recorded: {old[at] if at < len(old) else '(end of file)'}\n"
            f"  now:      {new[at] if at < len(new) else '(end of file)'}\n" + "\n".join(first[:40]))


def _hunks(lines: list[str]):
    """The hunks of a unified diff, each with its `@@` line."""
    hunk: list[str] = []
    for line in lines:
        if line.startswith("@@") and hunk:
            yield hunk
            hunk = []
        hunk.append(line)
    if hunk:
        yield hunk


def write(only: set[str] | None = None, add: bool = False) -> int:
    """Record transcripts (of `only` rulesets; with `add`, only missing ones); how many were written."""
    FOLDER.mkdir(parents=True, exist_ok=True)
    n = 0
    for rs, players in games(only):
        path = path_of(rs, players)
        if add and path.exists():
            continue
        path.write_text(record(rs, players)[0], encoding="utf-8")
        n += 1
    return n


def main() -> int:
    args = sys.argv[1:]
    only = {a for a in args if not a.startswith("--")} or None
    if "--write" in args or "--add" in args:
        print(f"{write(only, add='--add' in args)} transcripts written in {FOLDER.relative_to(ROOT)}")
        return 0
    bad = 0
    for rs, players in games(only):
        path = path_of(rs, players)
        if not path.exists():
            print(f"MISSING: {path.relative_to(ROOT)} (python tests/transcripts.py --add)")
            bad += 1
            continue
        diff = first_difference(path.read_text(encoding="utf-8"), record(rs, players)[0],
                                str(path.relative_to(ROOT)))
        if diff:
            print(diff, end="\n\n")
            bad += 1
    print(f"{len(games(only)) - bad} of {len(games(only))} transcripts identical")
    return 1 if bad else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except ContentError as e:  # a ruleset that no longer loads: its diagnostics, not a traceback
        print("\n".join(d.format() for d in e.diagnostics), file=sys.stderr)
        sys.exit(2)
