"""One place that makes a game: generated code (engine/direct.py) in the form its users need.
Simulate, scenarios, sessions (play, log, replay, save, resume), the terminal and `grimoire
serve` all call `new_game`, so each of them runs the same code for the same ruleset
(docs/compilation.md, "Which form runs a game").

- `DirectGame` (directgame.py): Python generators, the fastest; it cannot be copied.
- `ResumableGame` (resumablegame.py): the same code lowered to frames, so `clone()` is a copy;
  for agents that search (greedy, mcts) and wherever the seats are not known up front (a
  session's seat may become a searching bot later).

A caller that watches the game (`observer`: scenarios' `offered`/`shuffled`, the terminal's
narrator) gets the observed form of the generated code (directobserved.py), which tells it.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

from .direct import DirectProgram, Unsupported, compile_direct
from .directgame import DirectGame
from .directobserved import compile_observed
from .game import Limits, Program
from .resumablegame import ResumableGame, compile_resumable

__all__ = ["compiled", "new_game"]

def new_game(program: Program, players: int, seed: Any = 0, *, seats: Sequence[Any] | None = None,
             limits: Limits | None = None, after_setup: Callable | None = None,
             observer: Any = None, record_digests: bool = False, log_moves: bool = False,
             reuse: Any = None) -> DirectGame:
    """A game of `program` for `players`, at its first decision.

    `seats`: the agents that will answer, when known: generator code if none copies the game
    (`copies_game`), else the copyable form; None (a session with people) gives the copyable form.
    `observer`: told of each turn's start, of decisions taken without asking and of shuffles.
    `after_setup(game)`: called once the rules' setup is done (scenarios arrange the state there).
    `record_digests`: a state digest at each decision (logs, saves, replays).
    `log_moves`: the state notes which cards moved (cardstats.ChangeLog), for card statistics.
    `reuse`: a finished game that will not be used again, whose generated functions the new game
    may take over instead of making its own (a batch's games, one after another: DirectGame).
    A ruleset the code generator cannot compile is refused with a ValueError that says why."""
    copies = seats is None or any(getattr(a, "copies_game", True) for a in seats)
    dp = compiled(program, observed=observer is not None, copyable=copies)
    hook = after_setup
    if hook is not None:
        def hook(g: Any, arrange: Callable = after_setup) -> None:
            arrange(g)
            g.arranged()  # the hook may have changed the state directly
    if copies:
        return ResumableGame(dp, players, seed, limits, after_setup=hook, log_moves=log_moves,
                             record_digests=record_digests, observer=observer)
    return DirectGame(dp, players, seed, limits, after_setup=hook, log_moves=log_moves,
                      record_digests=record_digests, observer=observer, reuse=reuse)


def compiled(program: Program, observed: bool = False, copyable: bool = False) -> DirectProgram:
    """`program`'s generated code (in the form that tells an observer, with `observed`; checked to
    lower to the copyable form, with `copyable`); a ValueError in the game's words when the code
    generator cannot compile it — `simulate` asks before it starts a batch, so a ruleset that
    cannot run is one clear error, not one per game."""
    try:
        dp = compile_direct(program)
        if observed:
            dp = compile_observed(dp)
        if copyable:
            compile_resumable(dp)
    except Unsupported as why:
        raise ValueError(f"{program.rs.title} cannot be run: the code generator does not handle {why} yet") from None
    return dp
