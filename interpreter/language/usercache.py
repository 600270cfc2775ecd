"""The user's cache folder, and the files kept there: what is built from the program, never from
content (the parser's tables, compiled code), each file a `(key, value)` pair in marshal's format,
read back only when its key is the same. A missing, unreadable or stale file only costs the next
process the time to build the value again."""
from __future__ import annotations

import marshal
import os
from pathlib import Path

__all__ = ["cache_dir", "read_cached", "write_cached"]


def cache_dir() -> Path | None:
    """`$XDG_CACHE_HOME/grimoire` (`~/.cache/grimoire`), made when missing; None if it cannot be."""
    try:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "grimoire"
        base.mkdir(parents=True, exist_ok=True)
        return base
    except (OSError, RuntimeError):  # no home folder (RuntimeError), a read-only one
        return None


def read_cached(path: Path | None, key: object) -> object | None:
    """The value kept in `path` under `key`, or None (no file, another key, an unreadable file)."""
    if path is None:
        return None
    try:
        found, value = marshal.loads(path.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return None
    return value if found == key else None


def write_cached(path: Path | None, key: object, value: object) -> None:
    """Keep `value` under `key` in `path`: a whole file or none (written aside, then renamed)."""
    if path is None:
        return
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_bytes(marshal.dumps((key, value)))
        os.replace(tmp, path)
    except (OSError, ValueError):
        try:
            tmp.unlink()
        except OSError:
            pass
