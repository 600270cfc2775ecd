"""One place that makes a game: the generated code when the ruleset compiles to it, else the
task engine. Simulate, scenarios, sessions (play, log, replay, save, resume), the terminal and
`grimoire serve` all call `new_game`, so each of them runs on the same engine for the same
ruleset (docs/compilation.md, "Which engine runs a game").

- `DirectGame` (directgame.py): Python generators, the fastest; it cannot be copied.
- `ResumableGame` (resumablegame.py): the same code lowered to frames, so `clone()` is a copy;
  for agents that search (greedy, mcts) and wherever the seats are not known up front (a
  session's seat may become a searching bot later).
- `Game` (game.py): the task engine, for rulesets direct code does not compile yet.

A caller that watches the game (`observer`: scenarios' `offered`/`shuffled`, the terminal's
narrator) gets the observed form of the generated code (directobserved.py), which tells it.

All three play the same game, answer for answer and digest for digest (tests/engine/test_facade.py).
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

from .direct import DirectProgram, Unsupported, compile_direct
from .directgame import DirectGame
from .directobserved import compile_observed
from .game import Game, Limits, Program
from .resumablegame import ResumableGame, compile_resumable

__all__ = ["ENGINES", "new_game", "engine_of"]

ENGINES = ("auto", "tasks", "direct")


def new_game(program: Program, players: int, seed: Any = 0, *, seats: Sequence[Any] | None = None,
             limits: Limits | None = None, engine: str = "auto", after_setup: Callable | None = None,
             observer: Any = None, record_digests: bool = False, log_moves: bool = False) -> Any:
    """A game of `program` for `players`, at its first decision.

    `engine`: "auto" runs generated code when the ruleset compiles to it, else the task engine;
    "direct" insists on generated code (a ValueError says why it cannot); "tasks" the task engine.
    `seats`: the agents that will answer, when known: generator code if none copies the game
    (`copies_game`), else the copyable form; None (a session with people) gives the copyable form.
    `observer`: told of each turn's start, of decisions taken without asking and of shuffles.
    `after_setup(game)`: called once the rules' setup is done (scenarios arrange the state there).
    `record_digests`: a state digest at each decision (logs, saves, replays).
    `log_moves`: the state notes which cards moved (cardstats.ChangeLog), for card statistics."""
    if engine not in ENGINES:
        raise ValueError(f"unknown engine `{engine}` (known: {', '.join(ENGINES)})")
    if engine != "tasks":
        made = _direct_kind(program, seats, engine == "direct", observer is not None)
        if made is not None:
            kind, dp = made
            hook = after_setup
            if hook is not None:
                def hook(g: Any, arrange: Callable = after_setup) -> None:
                    arrange(g)
                    g.arranged()  # the hook may have changed the state directly
            return kind(dp, players, seed, limits, after_setup=hook, log_moves=log_moves,
                        record_digests=record_digests, observer=observer)
    return Game(program, players, seed, limits, record_digests=record_digests, after_setup=after_setup,
                observer=observer)


def _direct_kind(program: Program, seats: Sequence[Any] | None, insist: bool,
                 observed: bool) -> tuple[type, DirectProgram] | None:
    """(DirectGame or ResumableGame, the program to run) when the ruleset compiles to them (and
    the seats need no copy, or the code lowers to the copyable form; `observed`: in the form that
    tells an observer), else None; with `insist`, a ValueError instead."""
    copies = seats is None or any(getattr(a, "copies_game", True) for a in seats)
    try:
        dp = compile_direct(program)
        if observed:
            dp = compile_observed(dp)
        if copies:
            compile_resumable(dp)
    except Unsupported as why:
        if insist:
            raise ValueError(f"{program.rs.title} does not compile to direct code: {why}") from None
        return None
    return (ResumableGame if copies else DirectGame), dp


def engine_of(game: Any) -> str:
    """Which engine runs `game`, in the words of `--engine` and the docs: "direct" (generated code,
    copyable or not) or "tasks"."""
    return "direct" if isinstance(game, DirectGame) else "tasks"
