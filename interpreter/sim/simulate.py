"""Batches of games for designers: win rates by seat, score and length distributions, errors.

Each game's seed comes from (master seed, game index), so results are the same whatever
the number of workers. Workers run *chunks* of games (a task per game costs more than it saves).
"""
from __future__ import annotations

import gc
import math
import operator
import statistics
import time
from collections import Counter
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Sequence

from ..api import load_program
from .backends import run_chunks
from ..runtime.cardstats import MoveTracker
from ..engine.directgame import DirectGame
from ..engine.factory import compiled, new_game as make_game
from ..engine.game import Limits
from .reports import SCHEMA_VERSION, card_stats, endings, fairness, public_rows, wilson
from ..play.session import agents_for, game_seed
from ..runtime.clock import GameTimeout, alarm_handler, timer
from ..play.variants import load_variant
from .oslimit import address_space_limit, default_max_memory

Overrides = Sequence[tuple[str, Any]]  # (constant name or "Card.field", value) pairs

__all__ = ["simulate", "summarize", "run_chunk"]


MAX_GAME_SECONDS = 300.0  # per-game wall clock in batches: one runaway game cannot stall the rest
OUT_OF_MEMORY = ("the game ran out of memory (its process grew past the batch's memory limit, "
                 "--max-memory)")  # without the rule's place: where the limit is met depends on the process's heap


def run_chunk(ruleset: str, players: int, master_seed: int, agents: Sequence[str], limits: dict | None = None,
              overrides: Overrides = (), card_stats: bool = True,
              indices: Sequence[int] = ()) -> list[dict]:
    """Play games `indices` of a batch; picklable entry point for worker processes and Ray.
    `limits` maps `engine.Limits` fields to values (a missing or 0 value keeps its default);
    `overrides` changes constants or card fields first (see `variants.load_variant`);
    `card_stats=False` skips tracking which cards seats take, play and hold (about 1.2x faster in
    the benchmark game, docs/performance.md); `limits["max_memory_mb"]`: how much the process may grow while it
    plays these games (oslimit.py; a game past it fails with "the game ran out of memory")."""
    program = load_variant(ruleset, tuple(overrides)) if overrides else load_program(ruleset)
    lim = Limits()
    limits = dict(limits or {})
    seconds = limits.pop("max_seconds", None) or MAX_GAME_SECONDS
    memory_mb = limits.pop("max_memory_mb", None)
    for name, value in limits.items():
        if value:
            setattr(lim, name, value)
    with address_space_limit(memory_mb), alarm_handler() as armed, _heap_frozen():  # one handler per chunk
        return [_play_bounded(program, players, game_seed(master_seed, i), i, agents, lim, card_stats,
                              seconds, armed, _SPARE) for i in indices]


# this process's last finished game of a batch: the next game, in this chunk or the next, takes
# over its generated functions (`DirectGame`'s `reuse`: of the same program only); emptied when
# `simulate` returns
_SPARE: list = []


@contextmanager
def _heap_frozen() -> Iterator[None]:
    """While a chunk's games run, the objects that were there before (the loaded program: its
    rules, cards and generated code) are left out of the garbage collector's full passes
    (`gc.freeze`), which otherwise walk all of them again every few games; given back after."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def lost_row(index: int, seed: int, why: str) -> dict:
    """The row of a game that produced no result of its own (its worker died, it overran)."""
    return {"index": index, "seed": seed, "error": f"{why} (seed {seed})", "decisions": 0, "steps": 0,
            "choices": None}


def _play_bounded(program, players: int, seed: int, index: int, agents: Sequence[str], limits: Limits,
                  card_stats: bool, seconds: float, armed: bool, spare: list | None = None) -> dict:
    """`_play_one` that always returns a row: a game that overruns its wall clock, breaks the
    interpreter or ends with scores that are not numbers is an error row (seed, answers so far,
    for `--failed-logs`), and the batch goes on."""
    games: list = []  # the game being played, for its answers when it fails
    try:
        with timer(seconds, armed):  # not armed off the main thread: checked at each decision instead
            row = _play_one(program, players, seed, index, agents, limits, card_stats, games,
                            None if armed else time.monotonic() + seconds, spare)
    except GameTimeout:
        why = f"the game ran longer than {seconds:g} s (the per-game time limit)"
    except RecursionError:
        why = "the game's values are nested too deeply to handle"
    except MemoryError:
        why = OUT_OF_MEMORY
    except Exception as e:  # noqa: BLE001 - an interpreter fault: report it with the seed, go on
        why = f"internal error: {type(e).__name__}: {str(e)[:300]}"
    else:
        if row["error"] or "scores" not in row:
            return row
        why = _bad_score(row["scores"])
        if why is None:
            return row
    g = games[0] if games else None
    steps = len(g.choices) if g is not None else 0
    return {"index": index, "seed": seed, "error": f"{why} (seed {seed}, step {steps})", "decisions": steps,
            "steps": 0, "choices": list(g.choices) if g is not None else None}


def _bad_score(scores: Any) -> str | None:
    """Why a game's scores cannot be reported (none, a list, a card, beyond float range), or None."""
    if not isinstance(scores, list):
        return f"the scores are {_what(scores)}, not a list of numbers"
    for p, s in enumerate(scores):
        if isinstance(s, bool) or not isinstance(s, (int, float)):
            return f"the score of player {p + 1} is {_what(s)}, not a number"
        try:
            if not math.isfinite(float(s)):
                raise OverflowError
        except OverflowError:
            size = f"about {int(s.bit_length() * math.log10(2)) + 1} digits" if isinstance(s, int) else "infinite"
            return f"the score of player {p + 1} is a number too large to report ({size})"
    return None


def _what(v: Any) -> str:
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, tuple)):
        return "a list"
    if isinstance(v, dict):
        return "a map"
    if isinstance(v, str):
        return "a text"
    return "a card" if hasattr(v, "id") and hasattr(v, "name") else f"a {type(v).__name__}"


def new_game(program, players: int, seed: int, seats: Sequence[Any], limits: Limits,
             after_setup: Callable | None = None, reuse: Any = None) -> Any:
    """A batch's game for `seats` (`engine.factory.new_game`, the one place that makes games;
    card statistics get the state's move log with their `after_setup`). `reuse`: the batch's
    last finished game, never used again, whose generated functions the new game may take over."""
    return make_game(program, players, seed, seats=seats, limits=limits, after_setup=after_setup,
                     log_moves=after_setup is not None, reuse=reuse)


def _play_one(program, players: int, seed: int, index: int, agents: Sequence[str], limits: Limits,
              card_stats: bool = True, games: list | None = None,
              deadline: float | None = None, spare: list | None = None) -> dict:
    """One game, with its card movements tracked (see `cardstats`) unless `card_stats` is off.
    The game is appended to `games` as soon as it exists (its answers, should it fail); past
    `deadline` (time.monotonic) it stops with GameTimeout at its next decision. `spare`: the
    batch's last finished game (taken), and this one once its row is made (the next game takes
    over its generated functions: `DirectGame`'s `reuse`)."""
    tracker = MoveTracker(program)
    seats = agents_for(agents, players, seed)
    g = new_game(program, players, seed, seats, limits, tracker.start if card_stats else None,
                 spare.pop() if spare else None)
    if games is not None:
        games.append(g)
    if isinstance(g, DirectGame):
        # each decision is told to the move log, whose events the tracker reads at the end
        # (`MoveTracker.marks`); a setup that asked a decision before the tracker started needs a
        # look too, and a game without a move log a look at every decision
        marks = tracker.marks(g) if card_stats else None
        look = (tracker.first_look if marks is not None else tracker.update) \
            if card_stats and tracker.game is None else None
        if deadline is not None:
            def look(game, update=look):
                if time.monotonic() > deadline:
                    raise GameTimeout()
                if update is not None:
                    update(game)
        g.play_out(seats, look, marks)
    while not g.over:
        if deadline is not None and time.monotonic() > deadline:
            raise GameTimeout()
        if card_stats:
            tracker.update(g)
        d = g.decision
        g.answer(seats[d.player].choose(g, d))
    if card_stats:
        tracker.update(g)
    error = f"{_error_words(g.error)} (seed {seed}, step {len(g.choices)})" if g.error is not None else None
    row = {"index": index, "seed": seed, "error": error, "decisions": len(g.choices), "steps": g.steps}
    if g.result and not error:
        res = g.result
        taken, played = tracker.per_seat(len(res["scores"]))
        row.update(scores=res["scores"], winners=res["winners"], turns=res["turns"], rounds=res["rounds"],
                   first_player=res["first_player"], taken=taken, played=played)
        if card_stats:  # which cards each seat ended with, moved, and which moved at all (cardstats.py)
            row.update(held=tracker.held(g, len(res["scores"])), movers=tracker.moved_by(len(res["scores"])),
                       moved=tracker.moved_cards())
        row["reason"] = res.get("reason")  # `end game "reason"` (None: the rules' ordinary end)
        if res.get("cap"):  # `end game ... by cap`: stopped by a cap the rules declare, not by the rules
            row["cap"] = True
    if error:  # keep what is needed to replay the failing game
        row["choices"] = list(g.choices)
    elif spare is not None:
        spare.append(g)
    return row


def _error_words(err: Any) -> str:
    """A game's error as a batch reports it: a rule error as it is, except running out of the
    process's memory (MemoryError, which the engines word "the game ran out of memory"), reported
    without the rule where the limit happened to be met, so the report is the same on every run."""
    cause = getattr(err, "cause", None)
    if isinstance(cause, MemoryError) or getattr(err, "message", None) == "the game ran out of memory":
        return OUT_OF_MEMORY
    return str(err)


def simulate(ruleset: str, n: int, players: int, seed: int, agents: Sequence[str], workers: int = 1,
             progress: Callable[[int], None] | None = None, backend: str = "local", address: str | None = None,
             overrides: Overrides = (), per_game: bool = False, card_stats: bool = True,
             **limits) -> dict:
    """Play `n` games and return the report (see `summarize`). Games run in chunks on `backend`
    ("local": this process or `workers` processes; "ray": a Ray cluster, see `backends`).
    `per_game` adds every game's own row (seed, scores, winners, cards...) as `per_game`.
    `max_memory_mb` (in `limits`): how much each process playing games may grow, in MB (None: a
    share of the machine, `oslimit.default_max_memory`; 0: no limit)."""
    start = time.perf_counter()
    if limits.get("max_memory_mb") is None:
        limits["max_memory_mb"] = default_max_memory(workers)
    # fail early, in this process, on bad content, a bad override or a player count the game refuses
    program = load_variant(ruleset, tuple(overrides)) if overrides else load_program(ruleset)
    program.rs.check_players(players)
    compiled(program)  # and on one the code generator cannot compile yet
    # chunks: several per worker (a pool evens out their lengths) and enough for a progress bar to
    # move; one process playing the games itself with no progress to show plays them in as few
    # chunks as the 200-game bound allows (each chunk sets the memory limit and the time alarm up
    # again and looks the ruleset up: about 0.2 ms, 3% of a 60-game batch of a solo dice game)
    alone = workers <= 1 and backend == "local" and progress is None
    chunk = max(1, min(200, n if alone else n // (max(workers, 1) * 8) or 1))
    batches = [list(range(i, min(n, i + chunk))) for i in range(0, n, chunk)]
    args = (ruleset, players, seed, list(agents), dict(limits), tuple(overrides), card_stats)
    restarts: dict[str, int] = {}
    rows = run_chunks(run_chunk, args, batches, workers, backend, address, progress,
                      lost=lambda i, why: lost_row(i, game_seed(seed, i), why), stats=restarts)
    rows.sort(key=lambda r: r["index"])
    _SPARE.clear()
    elapsed = time.perf_counter() - start
    report = summarize(rows, players)
    report.update(ruleset=ruleset, players=players, seed=seed, agents=list(agents), games=n)
    if overrides:
        report["overrides"] = {k: v for k, v in overrides}
    if per_game:
        report["per_game"] = public_rows(rows)
    report["timing"] = {"seconds": round(elapsed, 3), "games_per_second": round(n / elapsed, 1) if elapsed else None,
                        "workers": workers, "backend": backend, **restarts}
    return report


def _dist(values: list[float]) -> dict:
    if not values:
        return {}
    values = sorted(values)
    n = len(values)
    q = lambda p: values[min(n - 1, int(p * n))]  # noqa: E731
    return {"mean": round(statistics.fmean(values), 3), "stdev": round(_pstdev(values), 3),
            "min": values[0], "p10": q(0.1), "median": q(0.5), "p90": q(0.9), "max": values[-1]}


_SQRT_OF_FRACTION = getattr(statistics, "_float_sqrt_of_frac", None)  # (Python 3.11 on)
_WHOLE = {int}


def _pstdev(values: list[float]) -> float:
    """`statistics.pstdev(values)`, the same float: the square root, correctly rounded (statistics'
    own), of the exact population variance. Whole numbers (scores, turns, decisions) have their
    exact sums added in C here rather than each turned into a fraction by a Python call (about
    0.03 ms for 200 values, a tenth of a report); other values go to pstdev itself."""
    if _SQRT_OF_FRACTION is None or set(map(type, values)) != _WHOLE:
        return statistics.pstdev(values)
    n = len(values)
    total = sum(values)
    spread, count = n * sum(map(operator.mul, values, values)) - total * total, n * n  # variance: spread / count
    common = math.gcd(spread, count)  # (in lowest terms, as pstdev's Fraction has it)
    return _SQRT_OF_FRACTION(spread // common, count // common)


_wilson = wilson  # the 95% Wilson interval (reports.py)


def summarize(rows: list[dict], players: int) -> dict:
    ok = [r for r in rows if not r["error"]]
    playing = players
    players = max([players] + [len(r["scores"]) for r in ok])  # dummy players have seats after the players
    wins = [0.0] * players
    outright = [0] * players
    shared = 0
    for r in ok:
        w = r["winners"]
        if len(w) > 1:
            shared += 1
        for p in w:
            wins[p] += 1 / len(w)
            if len(w) == 1:
                outright[p] += 1
    n = len(ok)
    seats = [{"seat": p + 1, "wins": round(wins[p], 3), "outright_wins": outright[p],
              "win_rate": round(wins[p] / n, 4) if n else 0.0, "win_rate_ci95": _wilson(wins[p], n),
              "score": _dist([r["scores"][p] for r in ok if p < len(r["scores"])]),
              **({"dummy": True} if p >= playing else {})} for p in range(players)]
    report = {
        "completed": n,
        "errors": [{"index": r["index"], "seed": r["seed"], "error": r["error"], "choices": r.get("choices")}
                   for r in rows if r["error"]],
        "seats": seats,
        "shared_wins": shared,
        "no_winner": sum(1 for r in ok if not r["winners"]),  # `end game ... with no winner`: everybody lost
        "score": _dist([s for r in ok for s in r["scores"][:playing]]),
        "winning_score": _dist([max(r["scores"]) for r in ok if r["winners"]]),  # a game no one won has none
        "turns": _dist([r["turns"] for r in ok]),
        "rounds": _dist([r["rounds"] for r in ok]),
        "decisions": _dist([r["decisions"] for r in rows]),
        "decisions_per_turn": _dist([round(r["decisions"] / r["turns"], 3) for r in ok if r["turns"]]),
        "first_player": _first_player(ok, playing),
        "cards": card_stats(ok),
        "histograms": {"score": _counts(s for r in ok for s in r["scores"][:playing]),
                       "winning_score": _counts(max(r["scores"]) for r in ok if r["scores"] and r["winners"]),
                       "turns": _counts(r["turns"] for r in ok), "decisions": _counts(r["decisions"] for r in rows)},
    }
    report["end_reasons"] = _end_reasons(ok)
    report["endings"] = endings(rows)  # natural endings apart from caps and limits (reports.py)
    report["fairness"] = fairness(ok, playing)
    report["schema_version"] = SCHEMA_VERSION
    return report


# ---- why games ended: `end game "reason"` counted (games ended without a reason count as "")
def _end_reasons(ok: list[dict]) -> dict[str, int]:
    """Games completed per end reason, most frequent first; {} when no game gave a reason."""
    counts: dict[str, int] = {}
    for r in ok:
        key = r.get("reason") or ""
        counts[key] = counts.get(key, 0) + 1
    if set(counts) <= {""}:
        return {}
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def _counts(values) -> dict:
    """Value → how many times it occurs, in value order (for charts)."""
    return dict(sorted(Counter(values).items()))


def _first_player(ok: list[dict], playing: int) -> dict:
    """How the player who started the game fared, against a fair share of 1/players."""
    wins = sum(1 / len(r["winners"]) for r in ok if r["first_player"] in r["winners"])
    n = len(ok)
    return {"win_rate": round(wins / n, 4) if n else 0.0, "win_rate_ci95": _wilson(wins, n),
            "fair_share": round(1 / playing, 4)}
