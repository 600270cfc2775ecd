"""Diagnostics: the one way bad content is reported (file:line:col, caret excerpt, hint).

Content errors never surface as Python tracebacks; every stage returns or raises these.
Codes are stable, slash-separated kinds (`name/undefined`, `cards/field`, `syntax`) that
tools and tests can rely on; messages and hints are prose for the author.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Literal

from .untrusted import printable

__all__ = ["Loc", "Diagnostic", "ContentError", "Severity", "did_you_mean", "format_all", "report_order"]

Severity = Literal["error", "warning"]
SHOWN_WIDTH = 160  # characters of a long source line shown under a diagnostic


@dataclass(frozen=True)
class Loc:
    """A position in a content file (1-based line and column; `end_col` exclusive, same line)."""

    file: str
    line: int
    col: int
    end_col: int | None = None

    def __init__(self, file: str, line: int, col: int, end_col: int | None = None) -> None:
        """As the dataclass's own, which sets each field through `object.__setattr__` (a frozen
        class): twice as fast, and the parser makes one per construct (about 20,000 a validation)."""
        d = self.__dict__
        d["file"], d["line"], d["col"], d["end_col"] = file, line, col, end_col

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


@dataclass
class Diagnostic:
    """One problem found in content, with what an author needs to fix it."""

    severity: Severity
    code: str  # stable kind, e.g. "name/undefined"
    message: str
    loc: Loc | None = None
    hint: str | None = None
    source_line: str | None = field(default=None, repr=False)

    def format(self) -> str:
        """`file:line:col: severity: message [code]`, the source line, a caret under the spot, the hint.
        Control characters from content (in names, lines, file names) are shown escaped, so a
        diagnostic cannot steer the terminal it is printed on."""
        where = f"{printable(self.loc)}: " if self.loc else ""
        text = f"{where}{self.severity}: {printable(self.message)} [{self.code}]"
        if self.loc and self.source_line is not None:
            line = self.source_line.rstrip("\r\n")
            col = max(1, self.loc.col)
            end = self.loc.end_col if self.loc.end_col and self.loc.end_col > col else col + 1
            end = min(end, max(len(line) + 1, col + 1))
            if len(line) > SHOWN_WIDTH:  # show a window around the spot, not a whole 1 MB line
                start = max(0, min(col - 1 - SHOWN_WIDTH // 3, len(line) - SHOWN_WIDTH))
                stop = start + SHOWN_WIDTH
                shift = start - (1 if start else 0)  # "…" stands for what is cut on the left
                line = ("…" if start else "") + line[start:stop] + ("…" if stop < len(line) else "")
                col, end = col - shift, max(col - shift + 1, min(end, stop + 1) - shift)
            before = printable(line[:col - 1], keep="\t")  # escapes before the spot move the caret
            spanned = printable(line[col - 1:end - 1], keep="\t")
            pad = "".join(ch if ch == "\t" else " " for ch in before)  # keep tabs so the caret lines up
            pad += " " * (col - 1 - len(line[:col - 1]))  # a spot past the end of the line
            text += f"\n    {printable(line, keep=chr(9))}\n    {pad}{'^' * max(len(spanned), end - col if not spanned else 1)}"
        if self.hint:
            text += f"\n    hint: {printable(self.hint)}"
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
            "end_column": loc.end_col if loc else None,
            "hint": self.hint,
        }


class ContentError(Exception):
    """Raised when content cannot be used; carries the diagnostics that explain why."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = diagnostics
        super().__init__("\n".join(d.format() for d in diagnostics))


# A mistake in one place makes others elsewhere: text that does not parse loses a declaration, and
# a broken declaration makes its uses look wrong. Reported in this order, the cause comes first.
_CAUSES = ("syntax", "yaml/", "load/", "limit/")  # files that could not be read as written
_DECLARATIONS = ("name/duplicate", "card/field-name", "zone/property", "stat/bounds", "game/", "mod/", "dice/")


def report_order(d: Diagnostic) -> tuple:
    """Sort key: errors before warnings; causes (syntax, unreadable files) before broken declarations
    before the uses they would make look wrong; then by file, line and column."""
    rank = 0 if d.code.startswith(_CAUSES) else 1 if d.code.startswith(_DECLARATIONS) else 2
    loc = d.loc
    return (d.severity != "error", rank, loc.file if loc else "", loc.line if loc else 0, loc.col if loc else 0)


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """A hint naming the closest known name, if one is close enough."""
    import difflib  # here: content without a misspelt name never needs it (part of every command's start)
    match = difflib.get_close_matches(name, sorted(set(candidates)), n=1, cutoff=0.6)
    return f"did you mean `{match[0]}`?" if match else None


def format_all(diagnostics: list[Diagnostic]) -> str:
    """All diagnostics as text, then a count line; "no problems found" when there are none."""
    errors = sum(d.severity == "error" for d in diagnostics)
    warnings = sum(d.severity == "warning" for d in diagnostics)
    body = "\n".join(d.format() for d in diagnostics)
    return f"{body}\n{errors} error(s), {warnings} warning(s)" if body else "no problems found"
