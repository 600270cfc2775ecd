"""The methods `dataclass` writes for the classes that modules make when they are imported
(`__init__`, `__repr__`, `__eq__`, a frozen class's `__setattr__`...), compiled once and kept in the
user's cache folder.

Why: `dataclass` writes each method as text and compiles it (`exec` in `dataclasses._create_fn`,
one compilation per method): about 35 compilations for the modules `grimoire validate` imports (the
location and diagnostic classes, the ruleset model, the loader's and the boards' records), about
1% of the command. While `warm` is in effect, `dataclasses` compiles through `_kept_exec`, which
takes the code an earlier run kept for the same text, or compiles the text exactly as `exec` would
(file `<string>`, no inherited `__future__` flags: `dataclasses` has none) and notes it for `keep`.
The texts are the program's and its libraries' classes, never content; the file is keyed by
Python's version (the code's format). Where `dataclasses` has no `_create_fn` (another Python),
nothing is done and `dataclass` compiles as before.
"""
from __future__ import annotations

import builtins
import dataclasses
import sys
from types import CodeType

from .usercache import cache_dir, read_cached, write_cached

__all__ = ["warm", "keep"]

_FORMAT = 1  # the shape of the cache file; another shape is written again
MAX_KEPT = 512  # texts kept at most (a file that would hold more starts again)


def _file():
    base = cache_dir()
    return base / "dataclass-code.marshal" if base is not None else None


def _key() -> tuple:
    return (_FORMAT, sys.version)


def warm() -> tuple | None:
    """Have `dataclasses` compile through the kept code; call it before the imports. Returns what
    `keep` needs: (the kept code by text, the texts compiled since), or None where it does nothing."""
    if not callable(getattr(dataclasses, "_create_fn", None)) or "exec" in vars(dataclasses):
        return None
    found = read_cached(_file(), _key())
    kept = {t: c for t, c in found.items() if isinstance(t, str) and isinstance(c, CodeType)} \
        if isinstance(found, dict) else {}
    new: dict[str, CodeType] = {}

    def _kept_exec(source, globals=None, locals=None):
        """`exec(source, globals, locals)`, with the code kept for a text seen before."""
        if isinstance(source, str):
            code = kept.get(source)
            if code is None:
                code = new[source] = compile(source, "<string>", "exec", dont_inherit=True)
            source = code
        return builtins.exec(source, globals, locals)

    dataclasses.exec = _kept_exec  # a module global: found before the builtin by `_create_fn`
    return kept, new


def keep(warmed: tuple | None) -> None:
    """After the imports: `dataclasses` compiles as before again, and the texts compiled since
    `warm` that the file lacks are kept for the next run."""
    if warmed is None:
        return
    if "exec" in vars(dataclasses):
        del dataclasses.exec
    kept, new = warmed
    if not new:
        return
    kept = {**kept, **new} if len(kept) + len(new) <= MAX_KEPT else dict(list(new.items())[:MAX_KEPT])
    write_cached(_file(), _key(), kept)
