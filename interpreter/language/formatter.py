"""The canonical layout of a `.rules` file (`grimoire fmt`, the language server's formatting).

Why line-preserving: diagnostics, transcripts and scenario labels name rules by `file:line:col`,
so formatting must never move a construct to another line. The formatter therefore rewrites each
physical line on its own: indentation in steps of four spaces (by block depth, as the parser's
indenter counts it), one space between words and around binary operators, none inside brackets,
before `,` `:` `)` or around `.` and `..`, no trailing space, one newline at the end. Comments are
kept verbatim: an own-line comment takes the indentation of the block it sits in, an end-of-line
comment keeps its column when there is room (authors align them) and otherwise sits two spaces
after the code. Continuation lines (inside brackets or after `\\`) keep their indentation relative
to the line they continue.

Only a file that parses is formatted; the result is parsed again and must give the same syntax tree
(locations aside) and the same comments, or `FormatError` says so instead of writing a changed
program.
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

from .diagnostics import ContentError, Diagnostic, Loc
from .parser import parse_rules, token_kinds
from .tree import Node

__all__ = ["format_rules", "unformatted", "comments", "FormatError"]

INDENT = 4  # spaces per block level
TAB = 4  # a tab counts as this many columns, as the parser's indenter counts it

_TOKEN = re.compile(r'''
    (?P<str>"(?:[^"\\\n]|\\.)*")
  | (?P<comment>\#.*)
  | (?P<word>[A-Za-z_][A-Za-z0-9_]*|[0-9]+)
  | (?P<op>\.\.|==|!=|<=|>=|\+=|-=|[-+*/%<>=:,.()\[\]{}|])
  | (?P<cont>\\)
  | (?P<space>[ \t\f]+)
  | (?P<other>.)
''', re.VERBOSE)
_OPEN, _CLOSE = "([{", ")]}"
_TIGHT = {".", ".."}


class FormatError(ValueError):
    """The formatter would change what the file means (a bug of the formatter, never of the file)."""


@dataclass
class _Tok:
    kind: str
    text: str
    col: int  # 0-based column in the source line
    grammar: str = ""  # the grammar's token name (NAME, MINUS, ADDOP, a keyword's, ...)


@dataclass
class _Line:
    toks: list[_Tok]  # code tokens (no spaces, no comment, no `\`)
    comment: _Tok | None
    cont: bool  # ends with a `\` continuation
    width: int  # indentation of the source line, in columns
    role: str = "blank"  # blank | code | comment | cont
    depth: int = 0  # block depth (code and comment lines)
    owner: int = -1  # for continuation lines: the index of the line they continue


def _lex(line: str) -> _Line:
    toks: list[_Tok] = []
    comment, cont = None, False
    for m in _TOKEN.finditer(line):
        kind = m.lastgroup or "other"
        if kind == "space":
            continue
        tok = _Tok(kind, m.group(), m.start())
        if kind == "comment":
            comment = tok
        elif kind == "cont":
            cont = True
        else:
            toks.append(tok)
    indent = re.match(r"[ \t\f]*", line).group()
    return _Line(toks, comment, cont, indent.count(" ") + indent.count("\t") * TAB)


def _space(prev: _Tok | None, tok: _Tok) -> str:
    """The space between two tokens on one line: '' or ' '."""
    if prev is None or prev.grammar == "MINUS":  # a sign sticks to what it negates
        return ""
    a, b = prev.text, tok.text
    if a == ".." and b == "=":
        return " "  # an open range before its start value: `x: 0.. = 5`
    if a in _OPEN or b in _CLOSE or b in (",", ":") or a in _TIGHT or b in _TIGHT:
        return ""
    if b in ("(", "[") and (prev.grammar in ("NAME", "STRING") or a in _CLOSE):
        return ""  # a call or an index: `f(x)`, `xs[0]`, `f(x)[1]`
    return " "


def _render(toks: list[_Tok], setting: bool = False) -> str:
    """One line's tokens; a `setting` (a `game` header item: `NAME value`) keeps its name apart
    from a list value: `show [a, b]`, not an index."""
    out = "".join(_space(prev, tok) + tok.text for prev, tok in zip([None] + toks[:-1], toks))
    if setting and len(toks) > 1 and toks[1].text == "[":
        out = toks[0].text + " " + out[len(toks[0].text):]
    return out


def _roles(lines: list[_Line]) -> None:
    """Mark each line blank, code (starts a logical line), comment (own line) or cont, with block depths."""
    parens, continued, owner = 0, False, -1
    stack = [0]
    for i, ln in enumerate(lines):
        if parens > 0 or continued:
            ln.role, ln.owner = "cont", owner
        elif ln.toks:
            ln.role, owner = "code", i
            while ln.width < stack[-1]:
                stack.pop()
            if ln.width > stack[-1]:
                stack.append(ln.width)
            ln.depth = len(stack) - 1
        elif ln.comment is not None:
            ln.role = "comment"
        for t in ln.toks:
            if t.text in _OPEN:
                parens += 1
            elif t.text in _CLOSE:
                parens = max(0, parens - 1)
        continued = ln.cont and ln.role in ("code", "cont")
    _comment_depths(lines)


def _comment_depths(lines: list[_Line]) -> None:
    """An own-line comment belongs to a block between the code line before it and the one after:
    the deepest of those levels whose source indentation is not right of the comment."""
    widths: dict[int, list[int]] = {}  # code line index -> source widths of the open levels
    stack = [0]
    for i, ln in enumerate(lines):
        if ln.role == "code":
            del stack[ln.depth + 1:]
            if ln.depth == len(stack):
                stack.append(ln.width)
            widths[i] = list(stack)
    codes = sorted(widths)
    for i, ln in enumerate(lines):
        if ln.role != "comment":
            continue
        prev = max((c for c in codes if c < i), default=None)
        nxt = min((c for c in codes if c > i), default=None)
        lo = lines[nxt].depth if nxt is not None else 0
        hi = max(lines[prev].depth if prev is not None else 0, lo)
        open_widths = list(widths[prev]) if prev is not None else [0]
        if nxt is not None and lines[nxt].depth >= len(open_widths):
            open_widths.append(lines[nxt].width)
        depth = lo
        for d in range(lo, hi + 1):
            if d < len(open_widths) and open_widths[d] <= ln.width:
                depth = d
        ln.depth = depth


def _layout(text: str) -> str:
    raw = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    lines = [_lex(r) for r in raw]
    kinds = token_kinds("\n".join(raw))
    for number, ln in enumerate(lines, 1):
        for tok in ln.toks:
            tok.grammar = kinds.get((number, tok.col + 1), "")
    _roles(lines)
    out: list[str] = []
    new_indent: dict[int, int] = {}
    top = ""  # the first word of the last top-level code line (`game` for the header's settings)
    for i, ln in enumerate(lines):
        if ln.role == "code" and ln.depth == 0 and ln.toks:
            top = ln.toks[0].text
        if ln.role == "blank":
            out.append("")
            continue
        if ln.role == "cont":
            base = new_indent.get(ln.owner, 0)
            rel = ln.width - lines[ln.owner].width if ln.owner >= 0 else INDENT
            indent = base + (rel if rel > 0 else INDENT)
        else:
            indent = ln.depth * INDENT
        new_indent[i] = indent
        setting = top == "game" and ln.role == "code" and ln.depth == 1
        code = " " * indent + _render(ln.toks, setting) if ln.toks else ""
        if ln.cont:
            code += " \\" if ln.toks else " " * indent + "\\"
        if ln.comment is not None:
            if not code:
                code = " " * indent + ln.comment.text.rstrip()
            else:
                pad = max(ln.comment.col - len(code), 2)
                code += " " * pad + ln.comment.text.rstrip()
        out.append(code)
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out) + "\n" if out else ""


def _shape(node: object) -> object:
    """A tree as plain data without its locations, to compare two parses."""
    if isinstance(node, Node):
        return (type(node).__name__,) + tuple(
            (f.name, _shape(getattr(node, f.name))) for f in dataclasses.fields(node)
            if not f.name.endswith("loc"))
    if isinstance(node, (list, tuple)):
        return tuple(_shape(v) for v in node)
    if isinstance(node, dict):
        return tuple(sorted((str(k), _shape(v)) for k, v in node.items()))
    return node


def comments(text: str) -> list[str]:
    """Every comment of a file, in order (what formatting must keep)."""
    return [ln.comment.text.rstrip() for ln in map(_lex, text.replace("\r", "\n").split("\n")) if ln.comment]


def format_rules(text: str, file: str = "<text>") -> str:
    """The file in canonical layout. Raises ContentError (the syntax diagnostics) when it does not
    parse, FormatError when the layout would change its meaning or lose a comment."""
    before = parse_rules(text, file)
    result = _layout(text)
    try:
        after = parse_rules(result, file)
    except ContentError as e:
        raise FormatError(f"{file}: the formatted text does not parse: {e.diagnostics[0].message}") from None
    if _shape(before) != _shape(after):
        raise FormatError(f"{file}: formatting would change the rules; the file is left as it is")
    if comments(text) != comments(result):
        raise FormatError(f"{file}: formatting would lose a comment; the file is left as it is")
    return result


def unformatted(text: str, file: str) -> Diagnostic | None:
    """A note at the first line that `fmt` would change, or None when the file is in canonical layout."""
    result = format_rules(text, file)
    if result == text:
        return None
    old, new = text.split("\n"), result.split("\n")
    line = next((i for i, (a, b) in enumerate(zip(old, new)) if a != b), min(len(old), len(new)) - 1)
    return Diagnostic("warning", "format", "not in canonical layout", Loc(file, line + 1, 1),
                      "run `grimoire fmt` on the file", old[line] if line < len(old) else "")
