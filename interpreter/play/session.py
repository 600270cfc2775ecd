"""Playing whole games: with agents, with an event log (JSON lines), replaying a log,
and saving a game at a decision to resume it later (in another process).

A log's header names the ruleset, player count and seed; each decision line records the
answer and the state digest before it; the last line records the result and final digest.
Replaying re-runs the answers and stops at the first step whose digest differs.

Logs and saves may come from anyone too: both carry a format version (compared on reading), the
state digests are required, and a chained digest (each line's hash covers the one before it; a
save's covers the whole file) makes any edited field, not only an edited answer, a named
refusal. Malformed files are ReplayMismatch messages, never internal errors. A save keeps each
bot seat's kind and random state, so a resumed game goes on exactly as the uninterrupted one.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from .agents import Agent, make_agent, share_copies
from ..api import load_program
from ..content.stack import split_stack, stack_path
from ..engine.factory import new_game
from ..engine.directgame import DirectGame
from ..engine.game import Limits, Program
from ..language.untrusted import FileRefused, inside, printable, read_text
from ..runtime.clock import GameTimeout, wall_clock

__all__ = ["play", "header", "GameRecord", "replay", "save_game", "load_saved", "ReplayMismatch", "game_seed"]

LOG_VERSION = 3  # 2: chained digests, digests required, bot seats' random state in saves;
#                 3: players numbered from 1 (step lines' `player`, the result's winners and first player)
OLDEST_READ = 2  # format 2 logs (players from 0) are still read
MAX_LOG_BYTES = 64_000_000  # a log or save read from disk (about 300,000 decisions)


def game_seed(master: int, index: int) -> int:
    """Per-game seed from (master seed, game index): independent of worker count and order."""
    import hashlib
    return int.from_bytes(hashlib.sha256(f"{master}/{index}".encode()).digest()[:6], "big")


@dataclass
class GameRecord:
    seed: int
    players: int
    result: dict | None
    error: str | None
    choices: list[int]
    steps: int
    lines: list[dict] = field(default_factory=list)
    held: list[list[str]] = field(default_factory=list)  # per seat, card names in its zones at the end


def play(program: Program, players: int, seed: int, agents: Sequence[Agent], log: bool = False,
         limits: Limits | None = None, ruleset_path: str | None = None, game: DirectGame | None = None) -> GameRecord:
    """Play one game to its end with one agent per seat."""
    g = game or new_game(program, players, seed, seats=agents, limits=limits, record_digests=log)
    lines: list[dict] = []
    if log:
        lines.append(header(program, players, seed, ruleset_path))
    while not g.over:
        d = g.decision
        i = agents[d.player].choose(g, d)
        if log:
            lines.append(step_line(g, i))
        g.answer(i)
    err = _error_text(g)
    if log:
        lines.append(end_line(g))
    return GameRecord(seed, players, g.result, err, list(g.choices), g.steps, lines, g.held() if g.result else [])


def step_line(g: DirectGame, choice: int) -> dict:
    """The log line of the pending decision answered with `choice` (before answering it); the
    player is numbered from 1, as in every output."""
    d = g.decision
    return {"step": len(g.choices), "player": d.player + 1, "prompt": d.prompt, "choice": choice,
            "label": d.labels[choice], "digest": g.digests[-1]}


def numbered_result(result: dict | None) -> dict | None:
    """A game's result as outputs show it: winners and first player numbered from 1."""
    if result is None:
        return None
    out = dict(result)
    if "winners" in out:
        out["winners"] = [p + 1 for p in out["winners"]]
    if "first_player" in out:
        out["first_player"] = out["first_player"] + 1
    return out


def end_line(g: DirectGame) -> dict:
    """The last line of a log: the result, or `quit` when the game was left at a decision."""
    line = {"end": True, "result": numbered_result(g.result), "error": str(g.error) if g.error else None,
            "digest": g.state.digest()}
    if not g.over:
        line["quit"] = True
    return line


def _error_text(g: DirectGame) -> str | None:
    if g.error is None:
        return None
    return f"{g.error} (seed {g.state.seed}, step {len(g.choices)})"


def header(program: Program, players: int, seed: int, ruleset_path: str | None) -> dict:
    return {"grimoire_log": LOG_VERSION, "ruleset": ruleset_path or str(program.rs.content.path),
            "title": program.rs.title, "players": players, "seed": seed}


def write_log(path: str | Path, lines: list[dict]) -> None:
    """Write JSON lines, each with its chained digest; a value JSON cannot hold (a card in a
    result) is written as its text."""
    chain = ""
    with open(path, "w", encoding="utf-8") as f:
        for line in lines:
            body = _jsonable({k: v for k, v in line.items() if k != "chain"})
            chain = _chain(chain, body)
            f.write(json.dumps({**body, "chain": chain}, sort_keys=True) + "\n")


def _as_text(v: Any) -> str:
    return str(getattr(v, "name", None) or repr(v))[:200]


def _jsonable(v: Any, depth: int = 0) -> Any:
    """A log line's value as JSON data: a card by its name, a number too long to write as text
    (over about 3,000 digits) by its size, anything deeper than 20 levels as text."""
    if v is None or isinstance(v, (bool, str, float)):
        return v
    if isinstance(v, int):
        return v if v.bit_length() <= 10_000 else printable(v)
    if isinstance(v, dict) and depth < 20:
        return {str(k): _jsonable(x, depth + 1) for k, x in v.items()}
    if isinstance(v, (list, tuple)) and depth < 20:
        return [_jsonable(x, depth + 1) for x in v]
    return _as_text(v)


def _chain(previous: str, body: dict) -> str:
    """The chained digest of a log line (or a save): its content and the previous line's chain."""
    import hashlib
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(f"{previous}\n{text}".encode()).hexdigest()[:32]


def _version(found: Any, what: str, path: str | Path) -> None:
    """Refuse a log or save of another format version, saying which way it differs."""
    if isinstance(found, bool) or not isinstance(found, int):
        raise ReplayMismatch(f"{path}: not a Grimoire {what} (its version is not a number)")
    if found > LOG_VERSION:
        raise ReplayMismatch(f"{path}: a {what} of format {found}, written by a newer Grimoire "
                             f"(this one reads format {LOG_VERSION})")
    if found < OLDEST_READ:
        raise ReplayMismatch(f"{path}: a {what} of format {found}, without chained digests "
                             f"(this Grimoire reads formats {OLDEST_READ} to {LOG_VERSION}): record the game again")


def _read_json_file(path: str | Path, what: str) -> str:
    """A log or save's text, read as untrusted (regular file, bounded size, UTF-8)."""
    try:
        return read_text(path, MAX_LOG_BYTES)
    except FileRefused as e:
        where = f":{e.line}:{e.col}" if e.code == "load/encoding" else ""
        raise ReplayMismatch(f"cannot read {what} {printable(path)}{where}: {e.message}") from None


class ReplayMismatch(Exception):
    """A log that does not match the rules (edited, or from another ruleset version). `game` is
    the replayed game where the mismatch was found, when there is one (to show its state)."""

    game: DirectGame | None = None


def read_log(path: str | Path) -> list[dict]:
    """A log's lines, its version and chain checked (which line was edited is named)."""
    text = _read_json_file(path, "log")
    lines = []
    for n, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        try:
            line = json.loads(raw)
        except (ValueError, RecursionError) as e:  # JSONDecodeError, too many digits, too deep
            raise ReplayMismatch(f"{printable(path)}:{n}: not a JSON line ({printable(str(e)[:100])})") from None
        if not isinstance(line, dict):
            raise ReplayMismatch(f"{printable(path)}:{n}: not a line of a game log")
        lines.append(line)
    if not lines or "grimoire_log" not in lines[0]:
        raise ReplayMismatch(f"{printable(path)} is not a Grimoire game log (no header line)")
    _version(lines[0]["grimoire_log"], "game log", path)
    return lines


def _check_chain(line: dict, previous: str, where: str) -> str:
    """The line's chain, checked against its content and the line before it."""
    chain = line.get("chain")
    body = {k: v for k, v in line.items() if k != "chain"}
    want = _chain(previous, body)
    if not isinstance(chain, str):
        raise ReplayMismatch(f"{where}: the line has no chained digest (the log was edited)")
    if chain != want:
        raise ReplayMismatch(f"{where}: the line was edited after the log was written (its chained digest differs)")
    return chain


def _ruleset_path(named: str, beside: Path) -> str:
    """A ruleset path from a log or save: as written if it exists, else relative to the file."""
    if Path(named).exists() or Path(named).is_absolute():
        return named
    other = beside.parent / named
    return str(other) if other.exists() else named


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _confined(named: Any, beside: Path, what: str) -> str:
    """The ruleset a log or save names, accepted without the user naming it only when it lies in
    the working folder, or the folder holding the file or the one above it (`--failed-logs DIR`
    beside the ruleset): a save from someone else may name any folder."""
    if not isinstance(named, str) or not named:
        raise ReplayMismatch(f"{printable(beside)}: the {what} names no ruleset; give one with --ruleset")
    base, mods = split_stack(named)
    if mods:  # a stack of mods (docs/modding.md): every folder of it is found, and confined, alike
        return stack_path(_confined(base, beside, what), [_confined(m, beside, what) for m in mods])
    path = Path(_ruleset_path(named, beside))
    try:
        real = path.resolve()
    except (OSError, RuntimeError):
        real = None
    homes = [Path.cwd().resolve(), beside.resolve().parent, beside.resolve().parent.parent]
    if real is None or not inside(real, homes):
        raise ReplayMismatch(f"the {what} names the ruleset {printable(named)}, outside this folder and the "
                             f"{what}'s own (or the one above); if you trust it, name it yourself: --ruleset {printable(named)}")
    return str(path)


class QuietObserver:
    """An observer that keeps nothing: a game made with it can be watched later (a narrator set as
    `game.observer` once the game exists), which generated code allows only for games made with
    an observer (engine/directobserved.py)."""

    def only_option(self, decision: Any) -> None:
        pass

    def shuffled(self, zone: Any) -> None:
        pass


def replay(path: str | Path, ruleset: str | None = None, confine: bool = False,
           on_step: Callable[[DirectGame, dict], None] | None = None,
           observer: Any = None) -> DirectGame:
    """Re-run a logged game; raise ReplayMismatch naming the first step that differs (with the
    game as replayed up to there). With `confine` (the command line), a ruleset the log names is
    used only inside the working folder or the log's own folder: elsewhere the user must name it.
    `on_step(game, line)` is called before each logged answer is applied, once it was checked
    (`replay --step` shows the game there); `observer`: the game's (`QuietObserver` for one a narrator watches later)."""
    lines = read_log(path)
    head = lines[0]
    first = 0 if head["grimoire_log"] == 2 else 1  # format 2 numbered players from 0
    if ruleset is None and confine:
        ruleset = _confined(head.get("ruleset"), Path(path), "log")
    try:
        program = load_program(ruleset or _ruleset_path(head["ruleset"], Path(path)))
        players, seed = head["players"], head["seed"]
        if not _is_int(players) or not (_is_int(seed) or isinstance(seed, str)):
            raise TypeError("players and seed must be numbers")
        g = new_game(program, players, seed, record_digests=True, observer=observer)
    except (KeyError, TypeError) as e:
        raise ReplayMismatch(f"{printable(path)}: a bad header line ({printable(e)})") from None
    except ValueError as e:  # this ruleset refuses the logged game (e.g. its player count)
        raise ReplayMismatch(f"step 0: this ruleset cannot replay the logged game: {e}") from None
    try:
        return _replay_lines(g, path, head, lines, first, on_step)
    except ReplayMismatch as e:
        e.game = g
        raise


def _replay_lines(g: DirectGame, path: str | Path, head: dict, lines: list[dict], first: int,
                  on_step: Callable[[DirectGame, dict], None] | None) -> DirectGame:
    """Answer the logged decisions of `g` in turn, checking each line (see `replay`)."""
    chain = None  # the header's chain is checked after the first step (which names an edited seed better)
    for n, line in enumerate(lines[1:], 2):
        if line.get("end") is True:
            if not g.over and line.get("quit") is not True:
                raise ReplayMismatch(f"step {len(g.choices)}: the log ends here, but the game asks player "
                                     f"{g.decision.player + 1}: {g.decision.prompt}")
            if not isinstance(line.get("digest"), str):
                raise ReplayMismatch(f"{printable(path)}:{n}: the end line has no state digest")
            if g.over and line.get("quit") is True:
                raise ReplayMismatch(f"step {len(g.choices)}: the log says the game was quit here, but it is over")
            if line["digest"] != g.state.digest():
                raise ReplayMismatch(f"the final state differs from the logged one after step {len(g.choices) - 1}")
            if "result" in line and line["result"] != _jsonable(g.result if first == 0 else numbered_result(g.result)):
                raise ReplayMismatch(f"the result differs: logged {printable(line['result'])}, replayed {g.result}")
            if chain is None:
                chain = _check_chain(head, "", f"{printable(path)}:1")
            _check_chain(line, chain, f"{printable(path)}:{n} (the end)")
            if n != len(lines):
                raise ReplayMismatch(f"{printable(path)}:{n + 1}: lines after the end line")
            return g
        step = line.get("step")
        if not _is_int(step) or not _is_int(line.get("choice")):
            raise ReplayMismatch(f"{printable(path)}:{n}: not a step line of a game log")
        if step != len(g.choices):
            raise ReplayMismatch(f"step {step}: expected step {len(g.choices)} at line {n} of the log")
        if g.over:
            raise ReplayMismatch(f"step {step}: the game is already over, but the log goes on")
        if not isinstance(line.get("digest"), str):
            raise ReplayMismatch(f"step {step}: the line has no state digest (the log was edited)")
        if line["digest"] != g.digests[-1]:
            raise ReplayMismatch(f"step {step}: the state differs from the logged one "
                                 f"(logged {printable(line['digest'])}, replayed {g.digests[-1]})")
        d = g.decision
        logged = line.get("player")
        if d.player + first != logged or not 0 <= line["choice"] < len(d.options):
            who = logged - first + 1 if _is_int(logged) else "?"
            raise ReplayMismatch(f"step {step}: the log answers player {who} with choice "
                                 f"{line['choice']}, but the game asks player {d.player + 1} to pick one of "
                                 f"{len(d.options)}: {d.prompt}")
        if "label" in line and line["label"] != d.labels[line["choice"]]:
            raise ReplayMismatch(f"step {step}: the log's choice {line['choice']} is “{d.labels[line['choice']]}” "
                                 f"here, but the log says it was “{printable(line['label'])}”")
        if chain is None:
            chain = _check_chain(head, "", f"{printable(path)}:1")
        chain = _check_chain(line, chain, f"step {step}")
        if on_step is not None:
            on_step(g, line)
        g.answer(line["choice"])
    raise ReplayMismatch(f"step {len(g.choices)}: the log has no end line (cut short?)")


def save_game(g: DirectGame, path: str | Path, ruleset_path: str, agents: Sequence[Any] = (),
              kinds: Sequence[str] = ()) -> None:
    """Save a game at its pending decision: ruleset, players, seed, answers, the state digest
    before each answer and at the end, each seat's agent kind and random state (`agents`,
    `kinds`), and a chained digest over all of it. The ruleset is written as an absolute path
    (the save resumes from any folder) and relative to the save (the two moved together)."""
    absolute = absolute_ruleset(ruleset_path)
    data = {"grimoire_save": LOG_VERSION, "ruleset": absolute,
            "ruleset_relative": _relative_stack(absolute, Path(path).resolve().parent), "players": g.state.players,
            "seed": g.state.seed, "choices": list(g.choices), "digest": g.state.digest(),
            "digests": _digests_before_each_answer(g)}
    if agents:
        data["agents"] = [{"kind": k, "rng": _rng_state(a)} for k, a in zip(kinds, agents)]
    data = json.loads(json.dumps(data))
    data["chain"] = _chain("", data)
    Path(path).write_text(json.dumps(data, indent=1), encoding="utf-8")


def absolute_ruleset(named: str) -> str:
    """A ruleset path (or stack of mods) with every folder made absolute; a folder that does not
    exist is refused (a save or log naming it could never be resumed)."""
    base, mods = split_stack(named)
    parts = [Path(x).resolve() for x in (base, *mods)]
    for part in parts:
        if not part.exists():
            raise ValueError(f"the ruleset {printable(part)} does not exist")
    return stack_path(str(parts[0]), [str(x) for x in parts[1:]])


def _relative_stack(absolute: str, folder: Path) -> str:
    """The stack's folders relative to `folder`."""
    base, mods = split_stack(absolute)
    return stack_path(os.path.relpath(base, folder), [os.path.relpath(m, folder) for m in mods])


def _stack_exists(named: str, beside: Path | None = None) -> bool:
    """Whether every folder of a ruleset stack exists (relative parts: from `beside`'s folder)."""
    base, mods = split_stack(named)
    return all(((beside.parent / x) if beside is not None and not Path(x).is_absolute() else Path(x)).exists()
               for x in (base, *mods))


def _saved_ruleset(data: dict, path: Path) -> str:
    """The ruleset a save names: its absolute path if that is there, else its path relative to the
    save (the two were moved together); a clear refusal when neither is."""
    named, relative = data.get("ruleset"), data.get("ruleset_relative")
    if not isinstance(named, str) or not named:
        raise ReplayMismatch(f"{printable(path)}: the saved game names no ruleset; give one with --ruleset")
    if _stack_exists(named):
        return named
    for other in (named, relative):  # beside the save (older saves wrote the path as it was given)
        if isinstance(other, str) and other and _stack_exists(other, path):
            base, mods = split_stack(other)
            return stack_path(str(path.parent / base), [str(path.parent / m) for m in mods])
    raise ReplayMismatch(f"the ruleset of the saved game, {printable(named)}, is not there any more"
                         + (f" (nor {printable(relative)} beside the save)" if isinstance(relative, str) else "")
                         + "; name it yourself: grimoire play RULESET --resume " + printable(path))


def _digests_before_each_answer(g: DirectGame) -> list[str]:
    """The state digest before each answer (games made without digests are replayed for them)."""
    if len(g.digests) >= len(g.choices):
        return g.digests[:len(g.choices)]
    again = new_game(g.program, g.state.players, g.state.seed, seats=[], limits=g.limits, record_digests=True)
    for choice in g.choices:
        again.answer(choice)
    return again.digests[:len(g.choices)]


def _rng_state(agent: Any) -> Any:
    rng = getattr(agent, "rng", None)
    return rng.getstate() if rng is not None else None


def restore_agent(agent: Any, state: Any) -> None:
    """Put a bot back in the random state it was saved in (a resumed game goes on as the
    uninterrupted one); a malformed state is refused."""
    rng = getattr(agent, "rng", None)
    if rng is None or state is None:
        return
    try:
        version, internal, gauss = state
        rng.setstate((version, tuple(internal), gauss))
    except (TypeError, ValueError, OverflowError):
        raise ReplayMismatch("the saved random state of a bot seat is malformed") from None


def load_saved(path: str | Path, ruleset: str | None = None,
               log_lines: list[dict] | None = None, agents: list[dict] | None = None,
               confine: bool = False, observer: Any = None) -> tuple[DirectGame, str]:
    """Resume a saved game (replays its answers, checking the state digest before each and at the
    end, then the chained digest). With `log_lines`, the replayed steps are appended to it as
    event-log lines, so a resumed game logs in full; with `agents`, the saved seats (`kind`,
    `rng`) are appended to it. `confine`, `observer`: see `replay` (the resumed game can be
    copied: any seat may be a searching bot)."""
    text = _read_json_file(path, "saved game")
    where = printable(path)
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise ReplayMismatch(f"cannot read saved game {where}: not JSON ({printable(str(e)[:100])})") from None
    if not isinstance(data, dict) or "grimoire_save" not in data:
        raise ReplayMismatch(f"cannot read saved game {where}: not a Grimoire saved game")
    _version(data["grimoire_save"], "saved game", path)
    players, seed, choices = data.get("players"), data.get("seed"), data.get("choices")
    digests, final, seats = data.get("digests"), data.get("digest"), data.get("agents", [])
    if not _is_int(players) or not (_is_int(seed) or isinstance(seed, str)):
        raise ReplayMismatch(f"{where}: a saved game needs a player count and a seed")
    if not isinstance(choices, list) or not isinstance(digests, list) or not isinstance(final, str):
        raise ReplayMismatch(f"{where}: a saved game needs its answers, the state digest before each "
                             "and the final digest")
    if not isinstance(seats, list) or not all(isinstance(a, dict) and isinstance(a.get("kind"), str) for a in seats):
        raise ReplayMismatch(f"{where}: the saved seats are malformed")
    if ruleset is None:
        ruleset = _saved_ruleset(data, Path(path))
        if confine:
            ruleset = _confined(ruleset, Path(path), "saved game")
    rpath = ruleset
    try:
        g = new_game(load_program(rpath), players, seed, record_digests=True, observer=observer)
    except ValueError as e:  # e.g. a player count this ruleset does not allow
        raise ReplayMismatch(f"the saved game does not fit this ruleset: {e}") from None
    for i, choice in enumerate(choices):
        if g.over or not _is_int(choice) or not 0 <= choice < len(g.decision.options):
            raise ReplayMismatch(f"step {i}: the saved answers do not fit this ruleset")
        if i >= len(digests) or not isinstance(digests[i], str):
            raise ReplayMismatch(f"step {i}: the save has no state digest for this step (edited?)")
        if digests[i] != g.digests[-1]:
            raise ReplayMismatch(f"step {i}: the resumed state differs from the saved one (the rules changed?)")
        if log_lines is not None:
            log_lines.append(step_line(g, choice))
        g.answer(choice)
    if g.state.digest() != final:
        raise ReplayMismatch("the resumed state differs from the saved one (the rules changed?)")
    body = {k: v for k, v in data.items() if k != "chain"}
    if len(digests) != len(choices) or data.get("chain") != _chain("", body):
        raise ReplayMismatch(f"{where}: the save was edited after it was written (its chained digest differs)")
    if agents is not None:
        agents.extend(seats)
    return g, rpath


def failure_log(program: Program, ruleset_path: str, players: int, seed: int, choices: list[int],
                limits: Limits | None = None, error: str | None = None,
                seconds: float | None = 300.0) -> list[dict]:
    """The event log of a game that failed in a batch, rebuilt from its seed and answers, so that
    `grimoire replay` shows it step by step and ends on the same error. `error` is the batch's
    word for it (a bad score, an overrun), kept when the game itself ends without one; rebuilding
    stops after `seconds` (a game that overran its time limit), ending the log where it got to."""
    lines = [header(program, players, seed, ruleset_path)]
    try:
        with wall_clock(seconds):
            g = new_game(program, players, seed, seats=[], limits=limits, record_digests=True)
            for i, choice in enumerate(choices):
                if g.over:
                    break
                lines.append(step_line(g, choice))
                g.answer(choice)
            end = {"end": True, "error": _error_text(g) or error, "digest": g.state.digest()}
            if g.error is not None or error is None:
                end["result"] = numbered_result(g.result)
    except GameTimeout:
        end = {"end": True, "error": error or "the game ran past its time limit"}
    except MemoryError:  # met outside the engine's own catch (a digest, a step line): the log ends here
        end = {"end": True, "error": error or "the game ran out of memory"}
    lines.append(end)
    return lines


def agents_for(kinds: Sequence[str], players: int, seed: int) -> list[Agent]:
    """One agent per seat; a single kind applies to every seat. The search agents make their
    copies of the game in one spare (`share_copies`)."""
    if len(kinds) == 1:
        kinds = list(kinds) * players
    if len(kinds) != players:
        raise ValueError(f"{len(kinds)} agents given for {players} players")
    return share_copies([make_agent(k, f"{seed}/{seat}") for seat, k in enumerate(kinds)])


_ = Any
