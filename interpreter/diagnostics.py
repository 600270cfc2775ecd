"""Diagnostics: the one way bad content is reported (file:line:col, caret excerpt, hint).

Content errors never surface as Python tracebacks; every stage returns or raises these.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Iterable

__all__ = ["Loc", "Diagnostic", "ContentError", "did_you_mean", "format_all"]


@dataclass(frozen=True)
class Loc:
    """A position in a content file (1-based line and column)."""

    file: str
    line: int
    col: int
    end_col: int | None = None

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


@dataclass
class Diagnostic:
    severity: str  # "error" | "warning"
    code: str  # stable kind, e.g. "name/undefined"
    message: str
    loc: Loc | None = None
    hint: str | None = None
    source_line: str | None = field(default=None, repr=False)

    def format(self) -> str:
        where = f"{self.loc}: " if self.loc else ""
        text = f"{where}{self.severity}: {self.message} [{self.code}]"
        if self.loc and self.source_line is not None:
            line = self.source_line.rstrip("\n")
            width = max(1, (self.loc.end_col or self.loc.col + 1) - self.loc.col)
            text += f"\n    {line}\n    {' ' * (self.loc.col - 1)}{'^' * width}"
        if self.hint:
            text += f"\n    hint: {self.hint}"
        return text

    def to_json(self) -> dict:
        loc = self.loc
        return {
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
            "file": loc.file if loc else None,
            "line": loc.line if loc else None,
            "column": loc.col if loc else None,
            "hint": self.hint,
        }


class ContentError(Exception):
    """Raised when content cannot be used; carries the diagnostics that explain why."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = diagnostics
        super().__init__("\n".join(d.format() for d in diagnostics))


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """A hint naming the closest known name, if one is close enough."""
    match = difflib.get_close_matches(name, sorted(set(candidates)), n=1, cutoff=0.6)
    return f"did you mean `{match[0]}`?" if match else None


def format_all(diagnostics: list[Diagnostic]) -> str:
    errors = sum(d.severity == "error" for d in diagnostics)
    warnings = sum(d.severity == "warning" for d in diagnostics)
    body = "\n".join(d.format() for d in diagnostics)
    return f"{body}\n{errors} error(s), {warnings} warning(s)" if body else "no problems found"
