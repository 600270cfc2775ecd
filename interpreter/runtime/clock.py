"""A game's wall-clock budget: a game that runs past its time is stopped where it is.

Untrusted rules can make one game take minutes; a batch must go on (issue "Hostile content").
The timer raises `GameTimeout` into the running game through the process's alarm signal.
"""
from __future__ import annotations

import contextlib
import signal
import threading
from typing import Iterator

__all__ = ["GameTimeout", "wall_clock", "alarm_handler", "timer"]


class GameTimeout(BaseException):
    """Raised into a game that ran past its wall-clock bound. A BaseException, so no `except
    Exception` in an engine or an agent can swallow it: the game stops where it is."""


@contextlib.contextmanager
def alarm_handler() -> Iterator[bool]:
    """Install the handler that turns the timer signal into GameTimeout (once for many games);
    yields whether timers can be used here: only the main thread of a process takes signals, so
    elsewhere (and on systems without `setitimer`) the caller must check a deadline itself."""
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield False
        return

    def expire(*_):
        raise GameTimeout()
    old = signal.signal(signal.SIGALRM, expire)
    try:
        yield True
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


class timer:  # noqa: N801 - used as the function it was: `with timer(seconds, armed):`
    """Raise GameTimeout into the body after `seconds`, inside `alarm_handler` (when `armed`).
    A class, not a generator: a batch sets one per game, and a generator's context costs 1.5 us."""
    __slots__ = ("seconds",)

    def __init__(self, seconds: float | None, armed: bool = True) -> None:
        self.seconds = seconds if seconds and armed else None

    def __enter__(self) -> None:
        if self.seconds is not None:
            signal.setitimer(signal.ITIMER_REAL, self.seconds)

    def __exit__(self, *_: object) -> None:
        if self.seconds is not None:
            signal.setitimer(signal.ITIMER_REAL, 0)


@contextlib.contextmanager
def wall_clock(seconds: float | None) -> Iterator[bool]:
    """Raise GameTimeout into the body after `seconds`; yields whether the timer is armed (see
    `alarm_handler`)."""
    if not seconds:
        yield False
        return
    with alarm_handler() as armed, timer(seconds, armed):
        yield armed
