"""Where a batch's chunks of games run: in this process, on local worker processes, or on Ray.

Every backend runs the same picklable `run_chunk(*args, indices)` on chunks of game indices and
returns its rows; each game's seed depends only on (master seed, game index), so the per-game
results are identical whatever the backend and the worker count. Ray is optional (the `ray`
extra): asking for it when it is not installed is a `BackendError`, reported plainly.
"""
from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any, Callable, Sequence

__all__ = ["BACKENDS", "BackendError", "run_chunks"]

BACKENDS = ("local", "ray")
Progress = Callable[[int], None] | None
Lost = Callable[[int, str], dict] | None  # (game index, why) -> the row of a game that could not be played
MAX_STRIKES = 3  # a game whose worker died this many times is reported lost, not run again


class BackendError(ValueError):
    """A backend that cannot run here (not installed, cluster unreachable)."""


def run_chunks(fn: Callable[..., list[dict]], args: tuple, chunks: Sequence[list[int]], workers: int = 1,
               backend: str = "local", address: str | None = None, progress: Progress = None,
               lost: Lost = None, stats: dict | None = None) -> list[dict]:
    """Run `fn(*args, chunk)` for every chunk and return all rows (in no particular order).
    Locally, a worker process that dies (killed, out of memory) is replaced and the unfinished
    chunks run again from their game indices (so their seeds); a game that keeps killing its
    worker becomes `lost(index, why)`. `stats` gets `worker_restarts` when there were any."""
    if backend == "local":
        return _local(fn, args, chunks, workers, progress, lost, stats)
    if backend == "ray":
        return _ray(fn, args, chunks, workers, address, progress, lost)
    raise BackendError(f"unknown backend `{backend}` (known: {', '.join(BACKENDS)})")


def _local(fn, args, chunks, workers, progress: Progress, lost: Lost = None, stats: dict | None = None) -> list[dict]:
    rows: list[dict] = []
    if workers <= 1:  # embedded: nothing to start, easiest to debug
        for c in chunks:
            rows += fn(*args, c)
            if progress:
                progress(len(c))
        return rows
    # chunks not yet done, each with how many pool breaks it has lived through
    pending: list[tuple[list[int], int]] = [(list(c), 0) for c in chunks]
    restarts = 0
    while pending:
        shared = [p for p in pending if p[1] < 2]
        suspects = [i for c, strikes in pending if strikes >= 2 for i in c]
        pending = []
        if shared:
            broke, unfinished = _pool(fn, args, [c for c, _ in shared], workers, rows, progress)
            restarts += broke
            pending = [(c, strikes + broke) for k, (c, strikes) in enumerate(shared) if k in unfinished]
        for i in suspects:  # lived through two breaks: each game alone, so a break is its own
            for _ in range(MAX_STRIKES - 1):
                broke, unfinished = _pool(fn, args, [[i]], 1, rows, progress)
                restarts += broke
                if not unfinished:
                    break
            else:
                if lost is None:
                    raise BrokenProcessPool(f"game {i}: its worker process died every time it ran")
                rows.append(lost(i, "the worker process playing this game died each time it ran "
                                    "(killed, or out of memory)"))
                if progress:
                    progress(1)
    if restarts and stats is not None:
        stats["worker_restarts"] = restarts
    return rows


def _pool(fn, args, chunks: list[list[int]], workers: int, rows: list[dict],
          progress: Progress) -> tuple[int, set[int]]:
    """Run chunks on a fresh pool, adding their rows; (1 if a worker died else 0, the positions of
    the chunks that did not finish)."""
    done: set[int] = set()
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = {pool.submit(fn, *args, c): k for k, c in enumerate(chunks)}
        try:
            for f in as_completed(futures):
                part = f.result()
                rows += part
                done.add(futures[f])
                if progress:
                    progress(len(part))
            return 0, set()
        except BrokenProcessPool:  # a worker died: every unfinished future fails with this
            for f, k in futures.items():  # keep what finished before the break
                if k not in done and f.done() and not f.cancelled() and f.exception() is None:
                    rows += f.result()
                    done.add(k)
                    if progress:
                        progress(len(f.result()))
            return 1, set(range(len(chunks))) - done


def _ray(fn, args, chunks, workers, address: str | None, progress: Progress, lost: Lost = None) -> list[dict]:
    try:
        import ray
    except ImportError:
        raise BackendError("the ray backend needs Ray: pip install 'grimoire[ray]' "
                           "(or use the default local backend with --workers N)") from None
    started = not ray.is_initialized()
    if started:
        _ray_init(ray, workers, address)
    try:
        remote = ray.remote(fn)  # Ray itself re-runs a task whose worker died (3 times)
        chunk_of = {remote.remote(*args, c): list(c) for c in chunks}
        pending = list(chunk_of)
        rows: list[dict] = []
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            try:
                part = ray.get(done[0])
            except (ray.exceptions.WorkerCrashedError, ray.exceptions.OutOfMemoryError,
                    ray.exceptions.NodeDiedError):  # its worker kept dying, even after Ray's retries
                chunk = chunk_of[done[0]]
                if lost is None:
                    raise
                if len(chunk) > 1:  # run its games one by one, so only the guilty one is lost
                    again = {remote.remote(*args, [i]): [i] for i in chunk}
                    chunk_of.update(again)
                    pending += list(again)
                    continue
                part = [lost(chunk[0], "the worker process playing this game died each time it ran "
                                       "(killed, or out of memory)")]
            rows += part
            if progress:
                progress(len(part))
        return rows
    finally:
        if started:
            ray.shutdown()


def _ray_init(ray: Any, workers: int, address: str | None) -> None:
    """Join the cluster at `address`, or start a private one with `workers` CPUs. Workers import
    this very copy of the interpreter (PYTHONPATH), not whichever one happens to be installed."""
    here = str(Path(__file__).resolve().parents[2])
    path = os.pathsep.join(p for p in (here, os.environ.get("PYTHONPATH", "")) if p)
    runtime_env = {"env_vars": {"PYTHONPATH": path}}
    try:
        if address:
            ray.init(address=address, runtime_env=runtime_env, log_to_driver=False)
        else:
            ray.init(num_cpus=max(1, workers), include_dashboard=False, runtime_env=runtime_env,
                     log_to_driver=False, configure_logging=False)
    except Exception as e:  # noqa: BLE001 - e.g. no cluster at that address
        raise BackendError(f"cannot start or join Ray{f' at {address}' if address else ''}: {e}") from None
