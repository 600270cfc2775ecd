"""Playing whole games: with agents, with an event log (JSON lines), replaying a log,
and saving a game at a decision to resume it later (in another process).

A log's header names the ruleset, player count and seed; each decision line records the
answer and the state digest before it; the last line records the result and final digest.
Replaying re-runs the answers and stops at the first step whose digest differs.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from .agents import Agent, make_agent
from .api import load_program
from .engine import Game, Limits, Program
from .untrusted import GameTimeout, wall_clock

__all__ = ["play", "GameRecord", "replay", "save_game", "load_saved", "ReplayMismatch", "game_seed"]

LOG_VERSION = 1


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
         limits: Limits | None = None, ruleset_path: str | None = None, game: Game | None = None) -> GameRecord:
    """Play one game to its end with one agent per seat."""
    g = game or Game(program, players, seed, limits, record_digests=log)
    lines: list[dict] = []
    if log:
        lines.append(_header(program, players, seed, ruleset_path))
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


def step_line(g: Game, choice: int) -> dict:
    """The log line of the pending decision answered with `choice` (before answering it)."""
    d = g.decision
    return {"step": len(g.choices), "player": d.player, "prompt": d.prompt, "choice": choice,
            "label": d.labels[choice], "digest": g.digests[-1]}


def end_line(g: Game) -> dict:
    return {"end": True, "result": g.result, "error": str(g.error) if g.error else None,
            "digest": g.state.digest()}


def _error_text(g: Game) -> str | None:
    if g.error is None:
        return None
    return f"{g.error} (seed {g.state.seed}, step {len(g.choices)})"


def _header(program: Program, players: int, seed: int, ruleset_path: str | None) -> dict:
    return {"grimoire_log": LOG_VERSION, "ruleset": ruleset_path or str(program.rs.content.path),
            "title": program.rs.title, "players": players, "seed": seed}


def write_log(path: str | Path, lines: list[dict]) -> None:
    """Write JSON lines; a value JSON cannot hold (a card in a result) is written as its text."""
    with open(path, "w", encoding="utf-8") as f:
        for line in lines:
            f.write(json.dumps(line, sort_keys=True, default=_as_text) + "\n")


def _as_text(v: Any) -> str:
    return str(getattr(v, "name", None) or repr(v))[:200]


class ReplayMismatch(Exception):
    """A log that does not match the rules (edited, or from another ruleset version)."""


def read_log(path: str | Path) -> list[dict]:
    try:
        lines = [json.loads(l) for l in Path(path).read_text(encoding="utf-8").splitlines() if l.strip()]
    except (OSError, json.JSONDecodeError) as e:
        raise ReplayMismatch(f"cannot read log {path}: {e}") from None
    if not lines or "grimoire_log" not in lines[0]:
        raise ReplayMismatch(f"{path} is not a Grimoire game log (no header line)")
    return lines


def _ruleset_path(named: str, beside: Path) -> str:
    """A ruleset path from a log or save: as written if it exists, else relative to the file."""
    if Path(named).exists() or Path(named).is_absolute():
        return named
    other = beside.parent / named
    return str(other) if other.exists() else named


def replay(path: str | Path, ruleset: str | None = None) -> Game:
    """Re-run a logged game; raise ReplayMismatch naming the first step that differs."""
    lines = read_log(path)
    head = lines[0]
    try:
        program = load_program(ruleset or _ruleset_path(head["ruleset"], Path(path)))
        g = Game(program, head["players"], head["seed"])
    except (KeyError, TypeError) as e:
        raise ReplayMismatch(f"{path}: a bad header line ({e})") from None
    except ValueError as e:  # this ruleset refuses the logged game (e.g. its player count)
        raise ReplayMismatch(f"step 0: this ruleset cannot replay the logged game: {e}") from None
    for n, line in enumerate(lines[1:], 2):
        if line.get("end"):
            if not g.over:
                raise ReplayMismatch(f"step {len(g.choices)}: the log ends here, but the game asks player "
                                     f"{g.decision.player + 1}: {g.decision.prompt}")
            if line.get("digest") and line["digest"] != g.state.digest():
                raise ReplayMismatch(f"the final state differs from the logged one after step {len(g.choices) - 1}")
            if "result" in line and line["result"] != g.result:
                raise ReplayMismatch(f"the result differs: logged {line['result']}, replayed {g.result}")
            return g
        step = line.get("step")
        if not isinstance(step, int) or not isinstance(line.get("choice"), int):
            raise ReplayMismatch(f"{path}:{n}: not a step line of a game log")
        if step != len(g.choices):
            raise ReplayMismatch(f"step {step}: expected step {len(g.choices)} at line {n} of the log")
        if g.over:
            raise ReplayMismatch(f"step {step}: the game is already over, but the log goes on")
        if line.get("digest") and line["digest"] != g.digests[-1]:
            raise ReplayMismatch(f"step {step}: the state differs from the logged one "
                                 f"(logged {line['digest']}, replayed {g.digests[-1]})")
        d = g.decision
        if d.player != line.get("player") or not 0 <= line["choice"] < len(d.options):
            raise ReplayMismatch(f"step {step}: the log answers player {line.get('player', -1) + 1} with choice "
                                 f"{line['choice']}, but the game asks player {d.player + 1} to pick one of "
                                 f"{len(d.options)}: {d.prompt}")
        if "label" in line and line["label"] != d.labels[line["choice"]]:
            raise ReplayMismatch(f"step {step}: the log's choice {line['choice']} is “{d.labels[line['choice']]}” "
                                 f"here, but the log says it was “{line['label']}”")
        g.answer(line["choice"])
    raise ReplayMismatch(f"step {len(g.choices)}: the log has no end line (cut short?)")


def save_game(g: Game, path: str | Path, ruleset_path: str) -> None:
    """Save a game at its pending decision: ruleset, players, seed, answers and digest."""
    data = {"grimoire_save": LOG_VERSION, "ruleset": ruleset_path, "players": g.state.players,
            "seed": g.state.seed, "choices": g.choices, "digest": g.state.digest(),
            "digests": g.digests[:len(g.choices)] if len(g.digests) >= len(g.choices) else None}
    Path(path).write_text(json.dumps(data, indent=1), encoding="utf-8")


def load_saved(path: str | Path, ruleset: str | None = None,
               log_lines: list[dict] | None = None) -> tuple[Game, str]:
    """Resume a saved game (replays its answers, then checks the state digest). With `log_lines`,
    the replayed steps are appended to it as event-log lines, so a resumed game logs in full."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        if not isinstance(data, dict) or "grimoire_save" not in data:
            raise ValueError("not a Grimoire saved game")
        rpath = ruleset or _ruleset_path(data["ruleset"], Path(path))
        players, seed, choices = data["players"], data["seed"], list(data["choices"])
        digests = data.get("digests") or []  # the state before each answer: names the first step that differs
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise ReplayMismatch(f"cannot read saved game {path}: {e}") from None
    try:
        g = Game(load_program(rpath), players, seed)
    except ValueError as e:  # e.g. a player count this ruleset does not allow
        raise ReplayMismatch(f"the saved game does not fit this ruleset: {e}") from None
    for i, choice in enumerate(choices):
        if g.over or not isinstance(choice, int) or not 0 <= choice < len(g.decision.options):
            raise ReplayMismatch(f"step {i}: the saved answers do not fit this ruleset")
        if i < len(digests) and digests[i] != g.digests[-1]:
            raise ReplayMismatch(f"step {i}: the resumed state differs from the saved one (the rules changed?)")
        if log_lines is not None:
            d = g.decision
            log_lines.append({"step": i, "player": d.player, "prompt": d.prompt, "choice": choice,
                              "label": d.labels[choice], "digest": g.digests[-1]})
        g.answer(choice)
    if g.state.digest() != data.get("digest", g.state.digest()):
        raise ReplayMismatch("the resumed state differs from the saved one (the rules changed?)")
    return g, rpath


def failure_log(program: Program, ruleset_path: str, players: int, seed: int, choices: list[int],
                limits: Limits | None = None, error: str | None = None,
                seconds: float | None = 300.0) -> list[dict]:
    """The event log of a game that failed in a batch, rebuilt from its seed and answers, so that
    `grimoire replay` shows it step by step and ends on the same error. `error` is the batch's
    word for it (a bad score, an overrun), kept when the game itself ends without one; rebuilding
    stops after `seconds` (a game that overran its time limit), ending the log where it got to."""
    lines = [_header(program, players, seed, ruleset_path)]
    try:
        with wall_clock(seconds):
            g = Game(program, players, seed, limits)
            for i, choice in enumerate(choices):
                if g.over:
                    break
                d = g.decision
                lines.append({"step": i, "player": d.player, "prompt": d.prompt, "choice": choice,
                              "label": d.labels[choice], "digest": g.digests[-1]})
                g.answer(choice)
            end = {"end": True, "error": _error_text(g) or error, "digest": g.state.digest()}
            if g.error is not None or error is None:
                end["result"] = g.result
    except GameTimeout:
        end = {"end": True, "error": error or "the game ran past its time limit"}
    lines.append(end)
    return lines


def agents_for(kinds: Sequence[str], players: int, seed: int) -> list[Agent]:
    """One agent per seat; a single kind applies to every seat."""
    if len(kinds) == 1:
        kinds = list(kinds) * players
    if len(kinds) != players:
        raise ValueError(f"{len(kinds)} agents given for {players} players")
    return [make_agent(k, f"{seed}/{seat}") for seat, k in enumerate(kinds)]


_ = Any
