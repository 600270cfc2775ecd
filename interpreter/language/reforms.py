"""The regular expressions that modules compile when they are imported, handed to `re` already
compiled, from their compiled forms kept in the user's cache folder.

Why: `grimoire validate` imports modules that compile about thirty regular expressions at import
(PyYAML's reader and resolver, `json`, `argparse`'s `gettext`, our own), and `re` compiles in
Python code: about 100 M instructions of a 2.2 G run, 57 M of them for one Unicode class of
PyYAML's (`yaml.reader.Reader.NON_PRINTABLE`). Those modules call `re.compile`, which looks in
`re`'s own cache first (keyed by the pattern's type, text and flags); `warm` fills that cache with
the patterns a previous run compiled while importing, each made by `_sre.compile` from what
`re.compile` hands it (`fastparse.compiled_form`, kept only when it gives a pattern equal to
`re.compile`'s). The patterns are the program's and its libraries', never content's; the file is
keyed by Python's version (the compiled code's format), and a pattern that is not in it is simply
compiled by `re` as before. Where `re` keeps no such cache (another Python), nothing is done.
"""
from __future__ import annotations

import re
import sys

import _sre

from .fastparse import compiled_form
from .usercache import cache_dir, read_cached, write_cached

__all__ = ["warm", "keep"]

_FORMAT = 1  # the shape of the cache file; another shape is written again
MAX_KEPT = 256  # patterns kept at most (a file that would hold more starts again)


def _file():
    base = cache_dir()
    return base / "regexes.marshal" if base is not None else None


def _key() -> tuple:
    return (_FORMAT, sys.version)


def warm() -> tuple | None:
    """Put the kept patterns in `re`'s cache; call it before the imports. Returns what `keep`
    needs: (the cache's keys before, the patterns the file holds), or None where `re` has no
    such cache."""
    cache = getattr(re, "_cache", None)
    if not isinstance(cache, dict):
        return None
    before = set(cache)
    found = read_cached(_file(), _key())
    kept = []
    for entry in found if isinstance(found, list) else ():
        try:
            pattern, flags, form = entry
            if form is not None and (type(pattern), pattern, flags) not in cache:
                cache[type(pattern), pattern, flags] = _sre.compile(pattern, *form)
        except Exception:  # an entry of another shape: `re` compiles that pattern itself, `keep` keeps it anew
            continue
        kept.append(entry)
    return before, kept


def keep(warmed: tuple | None) -> None:
    """After the imports, or at the end of a command that compiles no pattern from content (`validate`:
    its globs' and the YAML resolver's patterns too): keep the patterns compiled since `warm` that
    the file lacks (with a form, or None where `re`'s would differ: never tried again), so the
    next run gets them."""
    if warmed is None:
        return
    cache = getattr(re, "_cache", None)
    if not isinstance(cache, dict):
        return
    before, kept = warmed
    known = {(type(pattern), pattern, flags) for pattern, flags, _form in kept}
    new = [k for k in list(cache) if k not in before and k not in known]
    if not new:
        return
    added = [(pattern, flags, compiled_form(pattern, flags)) for _type, pattern, flags in new]
    kept = kept + added if len(kept) + len(added) <= MAX_KEPT else added[:MAX_KEPT]
    write_cached(_file(), _key(), kept)
