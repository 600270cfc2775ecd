"""Where a batch's chunks of games run: in this process, on local worker processes, or on Ray.

Every backend runs the same picklable `run_chunk(*args, indices)` on chunks of game indices and
returns its rows; each game's seed depends only on (master seed, game index), so the per-game
results are identical whatever the backend and the worker count. Ray is optional (the `ray`
extra): asking for it when it is not installed is a `BackendError`, reported plainly.
"""
from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any, Callable, Sequence

__all__ = ["BACKENDS", "BackendError", "run_chunks"]

BACKENDS = ("local", "ray")
Progress = Callable[[int], None] | None


class BackendError(ValueError):
    """A backend that cannot run here (not installed, cluster unreachable)."""


def run_chunks(fn: Callable[..., list[dict]], args: tuple, chunks: Sequence[list[int]], workers: int = 1,
               backend: str = "local", address: str | None = None, progress: Progress = None) -> list[dict]:
    """Run `fn(*args, chunk)` for every chunk and return all rows (in no particular order)."""
    if backend == "local":
        return _local(fn, args, chunks, workers, progress)
    if backend == "ray":
        return _ray(fn, args, chunks, workers, address, progress)
    raise BackendError(f"unknown backend `{backend}` (known: {', '.join(BACKENDS)})")


def _local(fn, args, chunks, workers, progress: Progress) -> list[dict]:
    rows: list[dict] = []
    if workers <= 1:  # embedded: nothing to start, easiest to debug
        for c in chunks:
            rows += fn(*args, c)
            if progress:
                progress(len(c))
        return rows
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for f in as_completed([pool.submit(fn, *args, c) for c in chunks]):
            part = f.result()
            rows += part
            if progress:
                progress(len(part))
    return rows


def _ray(fn, args, chunks, workers, address: str | None, progress: Progress) -> list[dict]:
    try:
        import ray
    except ImportError:
        raise BackendError("the ray backend needs Ray: pip install 'grimoire[ray]' "
                           "(or use the default local backend with --workers N)") from None
    started = not ray.is_initialized()
    if started:
        _ray_init(ray, workers, address)
    try:
        remote = ray.remote(fn)
        pending = [remote.remote(*args, c) for c in chunks]
        rows: list[dict] = []
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            part = ray.get(done[0])
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
