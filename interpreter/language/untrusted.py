"""Untrusted files and text: the one place content files are opened and content text is made safe
to print.

Rule, card, scenario, save and log files may come from anyone. `read_text` reads one only if
it is a regular file (never a FIFO, device or folder, which could hang or never end), inside the
folders it may come from (a symbolic link that leaves them, points nowhere or loops is refused),
and counts the bytes it actually reads (a FIFO or `/proc` file reports size 0). It decodes
strict UTF-8, so undecodable bytes and encoded lone surrogates are refused with their position.
`printable` escapes control characters, bidirectional overrides and lone surrogates in text that
content supplied (card names, prompts, labels, messages) before it reaches a terminal, so a name
cannot clear the screen, move the cursor or fake a line of output.
"""
from __future__ import annotations

import os
import re
import stat
from pathlib import Path
from typing import Iterable

__all__ = ["FileRefused", "read_bytes", "read_text", "inside", "printable", "bad_unicode", "MAX_FILE_BYTES"]

MAX_FILE_BYTES = 1_000_000  # rule and card files; saves, logs and scenarios pass their own bound


class FileRefused(Exception):
    """A file that is not read: why (`message`), what to do (`hint`), where when known (1-based)."""

    def __init__(self, message: str, hint: str | None = None, line: int = 1, col: int = 1,
                 code: str = "load/read"):
        super().__init__(message)
        self.message, self.hint, self.line, self.col, self.code = message, hint, line, col, code


def inside(path: Path, roots: Iterable[Path]) -> bool:
    """Whether a resolved path lies in (or is) one of the resolved folders `roots`."""
    return any(path == r or path.is_relative_to(r) for r in roots)


def _resolve(path: Path) -> Path:
    """The real path behind every link; a loop or a link to nothing is refused."""
    try:
        return path.resolve(strict=True)
    except RuntimeError:  # Python < 3.13 words a loop this way
        raise FileRefused("is a symbolic link that goes round in a loop", "replace the link by the file itself",
                          code="load/link") from None
    except FileNotFoundError:
        if path.is_symlink():
            raise FileRefused("is a symbolic link to a file that does not exist",
                              "replace the link by the file itself", code="load/link") from None
        raise FileRefused("no such file", code="load/missing") from None
    except OSError as e:
        if e.errno == 40:  # ELOOP (Python >= 3.13)
            raise FileRefused("is a symbolic link that goes round in a loop",
                              "replace the link by the file itself", code="load/link") from None
        raise FileRefused(f"cannot read file: {e.strerror or e}") from None


def _kind(mode: int) -> str:
    return ("a folder" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode)
            else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "a socket" if stat.S_ISSOCK(mode)
            else "not a regular file")


def read_bytes(path: str | Path, limit: int = MAX_FILE_BYTES, roots: Iterable[Path] | None = None,
               where: str = "the ruleset's folder") -> bytes:
    """The bytes of a regular file of at most `limit` bytes, reached without leaving `roots` (resolved
    folders; None: anywhere). Raises FileRefused, never blocks on a FIFO or reads past `limit`."""
    path = Path(path)
    real = _resolve(path)
    if roots is not None and not inside(real, roots):
        raise FileRefused(f"is a symbolic link to a file outside {where}",
                          f"copy the file into {where}: content is read only from its own folders",
                          code="load/link")
    try:
        mode = os.stat(real).st_mode
        if not stat.S_ISREG(mode):  # a device or a FIFO is never opened: that may block, or act
            raise FileRefused(f"is {_kind(mode)}, not a file", "give a regular file", code="load/not-a-file")
        fd = os.open(real, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
                     | getattr(os, "O_BINARY", 0))
    except OSError as e:
        raise FileRefused(f"cannot read file: {e.strerror or e}") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):  # checked again on the open file: a path swapped meanwhile is caught
            raise FileRefused(f"is {_kind(mode)}, not a file", "give a regular file", code="load/not-a-file")
        chunks, total = [], 0
        while total <= limit:
            chunk = os.read(fd, min(1 << 16, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > limit:  # bytes read, not st_size: a file that grows or lies about its size stops here
            raise FileRefused(f"file is larger than {limit} bytes", "split it into several files", code="limit/size")
        return b"".join(chunks)
    except OSError as e:
        raise FileRefused(f"cannot read file: {e.strerror or e}") from None
    finally:
        os.close(fd)


def read_text(path: str | Path, limit: int = MAX_FILE_BYTES, roots: Iterable[Path] | None = None,
              where: str = "the ruleset's folder") -> str:
    """`read_bytes` decoded as strict UTF-8 (a leading byte-order mark dropped); an undecodable byte
    is refused at its line and column."""
    data = read_bytes(path, limit, roots, where)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[:e.start].count(b"\n") + 1
        col = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        raise FileRefused(f"byte 0x{data[e.start]:02x} is not UTF-8 text", "save the file as UTF-8",
                          line, col, code="load/encoding") from None
    return text.removeprefix("\ufeff")


# ---- text for terminals ----------------------------------------------------------------------

# C0 and C1 controls, DEL, bidirectional embeddings/overrides/isolates, lone surrogates
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(m: re.Match) -> str:
    ch = m.group(0)
    return _NAMED.get(ch) or (f"\\x{ord(ch):02x}" if ord(ch) < 0x100 else f"\\u{ord(ch):04x}")


def printable(text: object, keep: str = "") -> str:
    """`text` with every character that could steer a terminal written as a visible escape
    (`\\x1b`, `\\n`, `\\u202e`); characters in `keep` (e.g. "\\n" for a message whose lines are
    ours) stay as they are."""
    try:
        s = text if isinstance(text, str) else str(text)
    except ValueError:  # a number over 4,300 digits, which Python will not write as text
        s = str(_shorten_numbers(text))
    if keep:
        return _UNSAFE.sub(lambda m: m.group(0) if m.group(0) in keep else _escape(m), s)
    return _UNSAFE.sub(_escape, s)


class _Big:
    """Stands for a number too long to write, in `printable`'s fallback."""

    def __init__(self, v: int):
        self.digits = int(v.bit_length() * 0.30103) + 1

    def __repr__(self) -> str:
        return f"a number of about {self.digits} digits"


def _shorten_numbers(v: object, depth: int = 0) -> object:
    if isinstance(v, int) and not isinstance(v, bool) and v.bit_length() > 10_000:
        return _Big(v)
    if isinstance(v, dict) and depth < 20:
        return {k: _shorten_numbers(x, depth + 1) for k, x in v.items()}
    if isinstance(v, (list, tuple)) and depth < 20:
        return [_shorten_numbers(x, depth + 1) for x in v]
    return v


_SURROGATE = re.compile("[\ud800-\udfff]")


def bad_unicode(text: str) -> int | None:
    """The index of the first lone surrogate in `text` (which no output can encode), or None."""
    m = _SURROGATE.search(text)
    return m.start() if m else None
