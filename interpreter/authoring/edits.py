"""The language server's edits: formatting a rule file (the same formatter as `grimoire fmt`) and
renaming a declared name everywhere it is written, across the mod's `extends` chain and the card
files (a card type's name is also each card's `type:`).

Why a rename checks every spot: a reference's location comes from the construct that names it;
before an edit is offered, the text at each spot must be the old name itself, so a rename never
overwrites anything else.
"""
from __future__ import annotations

import re

from lsprotocol import types as lsp

from ..language.diagnostics import ContentError, Loc
from ..language.formatter import format_rules
from ..language.parser import KEYWORDS
from ..library import BUILTINS
from .features import Analysis, _range, _word_at, char_index, keywords, path_of, references

__all__ = ["formatting", "prepare_rename", "rename", "RenameRefused"]

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_SEARCH_LINES = 20  # a name written on a later line of its construct (a continued expression)


class RenameRefused(ValueError):
    """The name cannot be renamed, or not to that: the message says why, for the editor to show."""


def formatting(text: str, file: str) -> list[lsp.TextEdit]:
    """One edit replacing the whole document with its canonical layout; none when it already is in
    it or does not parse (the diagnostics say why)."""
    try:
        result = format_rules(text, file)
    except (ContentError, ValueError):
        return []
    if result == text:
        return []
    lines = text.split("\n")
    end = lsp.Position(len(lines) - 1, len(lines[-1].encode("utf-16-le")) // 2)
    return [lsp.TextEdit(range=lsp.Range(lsp.Position(0, 0), end), new_text=result)]


def prepare_rename(analysis: Analysis, text: str, pos: lsp.Position) -> lsp.Range | None:
    """The range of the declared name under the cursor, or None where there is nothing to rename."""
    word = _word_at(text, pos)
    if word not in analysis.declarations or word in keywords():
        return None
    line = text.split("\n")[pos.line]
    i = char_index(line, pos.character)
    for m in _NAME.finditer(line):
        if m.start() <= i <= m.end():
            return _range(text, Loc("", pos.line + 1, m.start() + 1, m.end() + 1))
    return None


def rename(analysis: Analysis, text: str, pos: lsp.Position, new_name: str) -> lsp.WorkspaceEdit:
    """Edits that rename the declared name under the cursor in every rule file of the chain, every
    card effect and (for a card type) every card's `type:`."""
    word = _word_at(text, pos)
    if word not in analysis.declarations or word in keywords():
        raise RenameRefused("only a declared name (zone, stat, card type, procedure, ...) can be renamed here")
    if not _NAME.fullmatch(new_name):
        raise RenameRefused(f"`{new_name}` is not a name: letters, digits and _, not starting with a digit")
    if new_name in KEYWORDS or new_name in keywords():
        raise RenameRefused(f"`{new_name}` is a word of the language")
    if new_name in analysis.declarations or new_name in BUILTINS:
        where = analysis.declarations[new_name][1] if new_name in analysis.declarations else "a builtin function"
        raise RenameRefused(f"`{new_name}` is already declared ({where})")
    spots: dict[str, list[Loc]] = {}
    for loc in references(analysis, text, pos, include_declaration=True):
        spots.setdefault(loc.uri, []).append(loc.range)
    sources = {path_of(name).as_uri(): src for name, src in analysis.content.sources.items()}
    node = analysis.declarations[word][0]
    if node.kind == "card_type":
        for spec in analysis.content.cards:
            if spec.type == word and spec.loc.file.endswith((".yaml", ".yml")):
                found = _type_value(analysis.content.sources.get(spec.loc.file, ""), spec.loc, word)
                if found is not None:
                    spots.setdefault(path_of(spec.loc.file).as_uri(), []).append(found)
    changes: dict[str, list[lsp.TextEdit]] = {}
    for uri, ranges in spots.items():
        lines = (sources.get(uri) or "").split("\n")
        seen = set()
        for r in ranges:
            exact = _exact(lines, r, word)
            if exact is None:
                raise RenameRefused(f"`{word}` could not be found where it is used in {uri} "
                                    f"(line {r.start.line + 1}); nothing was renamed")
            key = (exact.start.line, exact.start.character)
            if key not in seen:
                seen.add(key)
                changes.setdefault(uri, []).append(lsp.TextEdit(range=exact, new_text=new_name))
    for edits in changes.values():
        edits.sort(key=lambda e: (e.range.start.line, e.range.start.character))
    return lsp.WorkspaceEdit(changes=changes)


def _exact(lines: list[str], r: lsp.Range, word: str) -> lsp.Range | None:
    """The range of `word` itself at or after the reported spot (the same line, or the next lines
    of a construct written over several), as a whole word."""
    pattern = re.compile(rf"(?<![A-Za-z0-9_]){re.escape(word)}(?![A-Za-z0-9_])")
    for n in range(r.start.line, min(r.start.line + _SEARCH_LINES, len(lines))):
        line = lines[n].rstrip("\r")
        code = line.split("#", 1)[0] if '"' not in line else line
        start = char_index(line, r.start.character) if n == r.start.line else 0
        m = pattern.search(code, start)
        if m:
            return _range("\n".join(lines), Loc("", n + 1, m.start() + 1, m.end() + 1))
    return None


def _type_value(source: str, loc: Loc, word: str) -> lsp.Range | None:
    """Where a YAML card entry starting at `loc` writes `type: WORD` (block or flow style)."""
    lines = source.split("\n")
    pattern = re.compile(rf"""\btype:\s*["']?({re.escape(word)})\b""")
    for n in range(loc.line - 1, min(loc.line - 1 + 40, len(lines))):
        m = pattern.search(lines[n], max(loc.col - 1, 0) if n == loc.line - 1 else 0)
        if m:
            return _range(source, Loc("", n + 1, m.start(1) + 1, m.end(1) + 1))
    return None
