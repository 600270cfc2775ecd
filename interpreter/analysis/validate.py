"""`check_path`: load, build and check a ruleset, the whole of `grimoire validate`.

It lives in the analysis stage, not in `api.py`, so that validating imports nothing of the
compiler and the engines (`api` re-exports it for everyone else).
"""
from __future__ import annotations

import contextlib
import gc
from pathlib import Path

from ..content.loader import Content, load
from ..content.model import Ruleset, build
from ..language.diagnostics import report_order
from .checker import check

__all__ = ["check_path"]


def check_path(path: str | Path) -> tuple[Ruleset | None, Content]:
    """Load and check a ruleset; return it (None if it could not be built) and its diagnostics."""
    with _collector_paused():
        return _check_path(path)


@contextlib.contextmanager
def _collector_paused():
    """Loading builds hundreds of thousands of long-lived objects (syntax trees, card data) and
    almost no garbage: the cyclic garbage collector would run hundreds of times over them for
    nothing (about 5% of a validation). It is paused meanwhile and runs again afterwards."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _check_path(path: str | Path) -> tuple[Ruleset | None, Content]:
    content = load(path)
    if any(d.code in ("load/missing", "load/empty") for d in content.diagnostics):
        return None, content
    rs = build(content)
    check(rs)
    content.diagnostics.sort(key=report_order)  # the cause of a cascade first
    return rs, content
