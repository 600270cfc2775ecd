"""`grimoire fmt`: put .rules files in the canonical layout (interpreter/language/formatter.py), or
with `--check` only say which ones are not, for CI."""
from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from ..language.diagnostics import ContentError, Diagnostic, format_all
from ..language.formatter import FormatError, format_rules, unformatted

__all__ = ["rules_files", "format_files", "FormatReport"]


def rules_files(paths: list[str]) -> list[Path]:
    """The .rules files named, and those under the folders named (sorted); a missing path is an error."""
    found: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            found += sorted(p.rglob("*.rules"))
        elif p.is_file():
            found.append(p)
        else:
            raise ValueError(f"{p}: no such file or folder")
    return found


@dataclass
class FormatReport:
    """What `fmt` did: files changed (or that would change, with --check), left alone, and refused."""

    changed: list[Path] = field(default_factory=list)
    unchanged: list[Path] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)  # files that do not parse
    failed: list[str] = field(default_factory=list)  # the formatter's own refusals

    @property
    def ok(self) -> bool:
        return not self.diagnostics and not self.failed


def format_files(files: list[Path], check: bool, out: TextIO = sys.stdout) -> FormatReport:
    """Format each file in place (or only check it); report what happened, one line a file."""
    rep = FormatReport()
    for path in files:
        text = path.read_text(encoding="utf-8")
        try:
            note = unformatted(text, str(path)) if check else None
            result = text if check else format_rules(text, str(path))
        except ContentError as e:
            rep.diagnostics += e.diagnostics
            continue
        except FormatError as e:
            rep.failed.append(str(e))
            continue
        if check and note is not None:
            rep.changed.append(path)
            print(note.format(), file=out)
        elif not check and result != text:
            path.write_text(result, encoding="utf-8")
            rep.changed.append(path)
            print(f"formatted {path}", file=out)
        else:
            rep.unchanged.append(path)
    return rep


def summary(rep: FormatReport, check: bool) -> str:
    """The closing line: how many files changed or would change, and what could not be formatted."""
    lines = []
    if rep.diagnostics:
        lines.append(format_all(rep.diagnostics))
    lines += rep.failed
    verb = "would be reformatted" if check else "reformatted"
    lines.append(f"{len(rep.changed)} file(s) {verb}, {len(rep.unchanged)} already formatted"
                 + (f", {len(rep.failed) + len({d.loc.file for d in rep.diagnostics if d.loc})} not formatted"
                    if not rep.ok else ""))
    return "\n".join(lines)
