"""The operating system's memory limit on a batch's worker processes (`--max-memory MB`).

The engines' own budget (runtime/memory.py) counts what rules build and stops a game at the same
rule on every machine; this limit is the backstop for what that count cannot see (the
interpreter's own structures, a library's buffers), so one game cannot take the machine's memory
and have the out-of-memory killer stop the whole batch, or something else. It caps the address
space (`RLIMIT_AS`) of the process that plays a chunk of games at what the process already uses
plus `MB`: an allocation past it raises MemoryError, which the engines turn into the game's error
("the game ran out of memory"), and the batch goes on with its other games. The limit is lowered
only while the chunk plays and put back after, so a long-lived Ray worker, or this process when it
plays the games itself (`--workers 1`), is left as it was.

Where the operating system has no such limit (Windows; macOS does not enforce it) nothing is done.
"""
from __future__ import annotations

import os
from contextlib import contextmanager
from typing import Iterator

try:
    import resource
except ImportError:  # Windows
    resource = None  # type: ignore[assignment]

__all__ = ["default_max_memory", "address_space_limit"]

SHARE = 0.5  # of the machine's physical memory, split among the workers, by default
FLOOR_MB = 1024  # never less than this by default (a game needs room for the interpreter itself)


def machine_mb() -> int | None:
    """Physical memory in MB, or None where it cannot be asked."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") >> 20
    except (AttributeError, ValueError, OSError):
        return None


def default_max_memory(workers: int) -> int:
    """Half of the machine's memory shared by the workers, at least FLOOR_MB (0: no limit known)."""
    total = machine_mb()
    if total is None:
        return 0
    return max(FLOOR_MB, int(total * SHARE) // max(1, workers))


def _used_bytes() -> int:
    """This process's address space now (Linux: /proc/self/statm), 0 where it cannot be read."""
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


@contextmanager
def address_space_limit(mb: int | None) -> Iterator[None]:
    """While inside, this process may grow by at most `mb` MB of address space (None or 0: no
    limit); the previous limit is restored on the way out."""
    if not mb or resource is None or not hasattr(resource, "RLIMIT_AS"):
        yield
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    want = _used_bytes() + (mb << 20)
    if hard != resource.RLIM_INFINITY:
        want = min(want, hard)
    if soft != resource.RLIM_INFINITY and soft <= want:  # already tighter: keep it
        yield
        return
    resource.setrlimit(resource.RLIMIT_AS, (want, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
